# SPDX-License-Identifier: GPL-2.0-or-later
"""The truesize the page-pool driver really charges, against the table
`./e1000e-pp report` prints for the page-pool design and the series'
published payload-density table.

The guest runs the series (`run --driver pagepool`'s image: Debian's
6.12 and the patched e1000e). At each published row's MTU the agent's
UDPHOLD sends 8 datagrams of MTU - 28 bytes to the peer's UDP echo and
leaves the echoes unread: each echo (a frame of MTU + 14 bytes, FCS
stripped by the MAC, no VLAN tag) grows the socket's receive memory by
the truesize of the skb the driver built. That must be the published
series column (cover letter: 2304, 4352, 8448, 12544, 16640, 20736) and
what `report --json` gives for the page-pool design at that MTU
(pieces x the piece's charge + the skb, measured on the qtest model).

Debian's stock 6.12 driver measured the same way (docs/usage/cells.md,
"report": 2304, 5056, 5056, 5056, 9152, 13248) differs from the report's
stock design, the cover letter's 7.1 column; `measure()` on its image
(`--debian-kernel 6.12`) gives those figures. It is not booted here, to
keep the suite short.
"""

import argparse
import json
import subprocess

import pytest

from e1000epp.common.errors import StepError
from e1000epp.image import user_kernel
from e1000epp.vm import harness

HELD = 8
# (MTU, the series' published truesize) for the rows the table names
# by their upper edge (6123-8170 by 8170, 8171-9212 by 9000).
PUBLISHED = ((1500, 2304), (2026, 4352), (4074, 8448), (4096, 12544),
             (8170, 16640), (9000, 20736))
# The report sweeps row edges: MTU 9000 is in the row 8171-9212.
REPORT_MTU = {9000: 9212}
ECHO_PORT = 7
TIMEOUT_MS = 10000


def _image(**kw):
    args = argparse.Namespace(kernel=None, modules=None, module=None,
                              driver_src=None, debian_kernel=None,
                              kernel_tree=None, driver=None)
    for k, v in kw.items():
        setattr(args, k, v)
    try:
        return user_kernel.prepare(args, log=lambda line: print(line))[0]
    except StepError as e:
        pytest.fail(f"{e.what}: {e.why}")


def measure(device, guest_dir, report, peer_bin):
    """{mtu: [truesize of each held echo]}"""
    vm = harness.Vm(device, report, guest_dir=guest_dir)
    out = {}
    try:
        vm.start(peer_bin)
        harness.link_up(vm, 60)
        for mtu, _ in PUBLISHED:
            vm.agent.sh(f"ip link set eth0 mtu {mtu}")
            harness.wait_carrier(vm, timeout=60)
            # ARP resolved before the held echoes count.
            vm.agent.sh(f"ping -c 2 -W 5 {harness.PEER_IP}", check=False)
            data, term = vm.agent.request(
                f"UDPHOLD {harness.PEER_IP} {ECHO_PORT} {HELD} {mtu - 28} "
                f"{TIMEOUT_MS}", timeout=HELD * TIMEOUT_MS / 1000 + 60)
            assert f"sent={HELD} held={HELD}" in term, (mtu, term)
            assert f"echoed={HELD} bad=0" in term, (mtu, term)
            out[mtu] = [int(d.split()[2]) for d in data
                        if d.startswith("truesize ")]
    finally:
        vm.stop()
    return out


@pytest.fixture(scope="module")
def report_rows(paths):
    p = subprocess.run([str(paths["REPO"] / "e1000e-pp"), "report",
                        "--no-setup", "--mtu", "1500-9212", "--step",
                        "100000", "--json", "-"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=1800)
    assert p.returncode == 0, p.stderr[-2000:]
    rows = json.loads(p.stdout)
    return {(r["design"], r["mtu"]): r for r in rows
            if r.get("kind") == "frame" and r["fcs"] == "stripped" and
            not r["vlan"] and r["path"] != "jumbo"}


@pytest.fixture(scope="module")
def measured(device, guest_image, peer_bin, report_dir):
    if device != "e1000e-pp":
        pytest.skip("the page-pool driver's figures do not depend on the "
                    "model; measured on e1000e-pp")
    pagepool = _image(driver="pagepool")
    out = {"pagepool": measure(device, pagepool, report_dir /
                               "test_pagepool_truesize-pagepool", peer_bin)}
    (report_dir / "test_pagepool_truesize.json").write_text(
        json.dumps(out, indent=1))
    print(json.dumps(out))
    return out


@pytest.mark.parametrize("mtu, published", PUBLISHED)
def test_the_series_charges_the_published_truesize(measured, report_rows,
                                                   mtu, published):
    got = measured["pagepool"][mtu]
    assert got == [published] * HELD, (mtu, got)
    row = report_rows[("pagepool", REPORT_MTU.get(mtu, mtu))]
    assert row["charged_truesize"] == published, row
    assert row["published_truesize"] == published, row
