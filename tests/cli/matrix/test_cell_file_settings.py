# SPDX-License-Identifier: GPL-2.0-or-later
"""A cell file in a new user's words (`run --cells FILE`): any MTU e1000e
takes, its module parameters, ethtool's ring, moderation and offloads,
the device's knobs, extra frame lengths and situations; every bad value
refused with the file's line, exit status 1 and no traceback. (Every
run here has --list: a file wrongly accepted lists, it boots nothing.)"""

import os
import subprocess
import sys

from e1000epp.common import paths
from e1000epp.matrix import cell_file

CLI = os.path.join(paths.REPO, "e1000e-pp")

GOOD = """# what a user would write
[[cell]]
mtu = 3000

[[cell]]
mtu = 1500
ring_rx = 64
ring_tx = 128
rx_usecs = 0
params = { RxIntDelay = 0, TxIntDelay = 16 }
gro = "off"
tx = false
knobs = { "x-rx-fetch-limit" = 16 }
lengths = [100, 256, 257]
expect = ["rnbc"]

[[cell]]
mtu = 9000
crc = "keep"
rx = "off"
family = "rxcsumoff"
"""


# docs/coverage.md's situations but null-desc (Linux never posts a
# buffer address of 0).
REACHABLE = ("fcs-straddle, fcs-alone, split-polls, ring-dry-midframe, "
             "rnbc, mpc, xoff-sent, wb-timer, wb-threshold, hdr-split, "
             "vlan-strip, rx-csum-ip, rx-csum-tcp, rx-csum-udp, "
             "rx-csum-err, tx-csum-ip, tx-csum-l4, tso, irq-throttled, "
             "link-change-traffic, err-crc, err-symbol, err-data, "
             "err-oversize, dma-fault")


def run(*args):
    return subprocess.run([sys.executable, CLI, "run", "--no-setup"] +
                          list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=60)


def test_a_users_file_lists_its_cells(tmp_path):
    f = tmp_path / "cells.toml"
    f.write_text(GOOD)
    r = run("--list", "--cells", str(f))
    assert r.returncode == 0, r.stderr
    names = [ln.strip() for ln in r.stdout.splitlines()
             if ln.startswith("  ")]
    assert names == [
        "mtu3000-strip-msix-noiommu",
        "mtu9000-keep-msix-noiommu-norx-rxcsumoff",
        "mtu1500-strip-msix-noiommu-ring64tx128-usecs0-rxdelay0-txdelay16"
        "-nogro-notx-fetch16-len100.256.257"]
    assert "situation rnbc: 1 cells (mtu1500-strip-msix-noiommu-ring64tx128"\
        in r.stdout


def test_the_files_settings_reach_the_cell(tmp_path):
    f = tmp_path / "cells.toml"
    f.write_text(GOOD)
    a, b, c = cell_file.load(str(f))
    assert a.mtu == 3000 and not a.settings
    assert b.module_params() == ("IntMode=2", "RxIntDelay=0",
                                 "TxIntDelay=16")
    # The file's lengths beside the sweep's (255 = copybreak 256 - 1).
    assert b.frame_lengths()[:4] == [60, 100, 255, 256]
    assert {100, 256, 257} <= set(b.frame_lengths())
    # rx-usecs 0 and RDTR 0: no ITR window, no held write-backs; no Tx
    # checksums: no TSO, no IXSM, no TXSM; rnbc asked for.
    assert b.situations() == ("rx-csum-ip", "rx-csum-tcp", "rx-csum-udp",
                              "rx-csum-err", "rnbc")
    # Rx checksum offload off: RXCSUM.TUOFL clear, no TCP/UDP checked.
    assert "rx-csum-tcp" not in c.situations()
    assert "rx-csum-ip" in c.situations()


def _refused(tmp_path, body, message):
    f = tmp_path / "bad.toml"
    f.write_text("[[cell]]\nmtu = 1500\n\n[[cell]]\nmtu = 1500\n" + body)
    r = run("--list", "--cells", str(f))
    assert r.returncode == 1, r.stdout
    assert f"error: {f}:4: cell 2: {message}\n" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_bad_ring_moderation_and_offloads_are_refused(tmp_path):
    for body, msg in (
            ("ring_rx = 32\n", "ring_rx = 32 is not 64..4096 "
             "(E1000_MIN/MAX_RXD)"),
            ("ring_tx = 100\n", "ring_tx = 100 is not a multiple of 8 (the "
             "driver would make it 104)"),
            ('ring_rx = "64"\n', "ring_rx = '64' is not an integer"),
            ("rx_usecs = 2\n", "rx_usecs = 2 is not 0, 1, 3, 4 or "
             "10..10000"),
            ('gro = "no"\n', "gro = 'no' is not \"on\" or \"off\""),
            ("tso = 0\n", "tso = 0 is not \"on\" or \"off\""),
            ('rx = "off"\n', 'rx = "off" needs family = "rxcsumoff" (the '
             "checksum step's expectations with the driver's Rx checksum "
             "offload off)")):
        _refused(tmp_path, body, msg)


def test_bad_parameters_and_knobs_are_refused(tmp_path):
    for body, msg in (
            ("params = { RxIntDelay = 70000 }\n",
             "params: RxIntDelay = 70000 is not 0..65535"),
            ("params = { InterruptThrottleRate = 50 }\n",
             "params: InterruptThrottleRate = 50 is not 0, 1, 3, 4 or "
             "100..100000"),
            ("params = { IntMode = 1 }\n", "params: IntMode is set by the "
             "cell's own key: irq = \"msix\" | \"msi\" | \"intx\""),
            ("params = { Foo = 1 }\n", "params: 'Foo' is not a parameter of "
             "e1000e (one of TxIntDelay, TxAbsIntDelay, RxIntDelay, "
             "RxAbsIntDelay, InterruptThrottleRate, SmartPowerDownEnable, "
             "KumeranLockLoss, WriteProtectNVM, debug)"),
            ('params = { debug = "x" }\n', "params: debug = 'x' is not an "
             "integer"),
            ("params = 3\n", "params = 3 is not a table (params = { NAME = "
             "VALUE })"),
            ('knobs = { "x-link-drop-ms" = 300 }\n', "knobs: x-link-drop-ms "
             'is an event, not a configuration: family = "linkdrop" turns '
             "it"),
            ('knobs = { "x-rx-fetch-limit" = 40 }\n',
             "knobs: x-rx-fetch-limit = 40 is not 0..32"),
            ('knobs = { "x-rx-fetch-limit" = 8 }\nfamily = "longburst"\n',
             "knobs: x-rx-fetch-limit is the longburst family's own knob")):
        _refused(tmp_path, body, msg)


def test_bad_lengths_and_expectations_are_refused(tmp_path):
    for body, msg in (
            ("lengths = [59]\n", "lengths: 59 is not 60..1514 (a frame of "
             "MTU 1500 without its FCS)"),
            ("lengths = [1515]\n", "lengths: 1515 is not 60..1514 (a frame "
             "of MTU 1500 without its FCS)"),
            ("lengths = []\n", "lengths: 0 lengths, not 1..32"),
            ('lengths = ["a"]\n', "lengths: a length = 'a' is not an "
             "integer"),
            ("lengths = 100\n", "lengths = 100 is not a list"),
            ('expect = ["null-desc"]\n', "expect: 'null-desc' is not a "
             f"situation the driver can produce ({REACHABLE})"),
            ('expect = ["rnbcc"]\n', "expect: 'rnbcc' is not a situation "
             f"the driver can produce ({REACHABLE})")):
        f = tmp_path / "bad.toml"
        f.write_text("[[cell]]\nmtu = 1500\n\n[[cell]]\nmtu = 1500\n" + body)
        r = run("--list", "--cells", str(f))
        assert r.returncode == 1, r.stdout
        assert f"error: {f}:4: cell 2: {msg}\n" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr + r.stdout
