# SPDX-License-Identifier: GPL-2.0-or-later
"""`run --keep-state` and `resume CELLDIR`, through the command line.

A cells file holds a cell that cannot produce what it declares (the
long-frame burst at MTU 1500: its 9,000-byte frames are oversize for a
driver without jumbo frames, so no frame spans descriptors and the
ring never runs dry mid-frame) and then a plain cell. The first fails
and keeps its state; the guest runs on and the second passes in the
same boot. `resume` then loads the state paused: the device's
registers are those the save read (and the ones the driver programs
for this MAC and MTU), the gdbstub answers, the guest continues where
it was, and the fresh peer answers it. A directory without state, a
build that differs and a cut state file are refused with one message.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CLI = REPO / "e1000e-pp"
sys.path.insert(0, str(REPO / "scripts"))
from e1000epp.vm import harness  # noqa: E402

FAILING = "mtu1500-strip-msix-noiommu-longburst"
PLAIN = "mtu1500-strip-msix-noiommu"
CELLS = """\
[[cell]]
mtu = 1500
family = "longburst"

[[cell]]
mtu = 1500
"""
# Generous for TCG on a loaded 2-core machine (a boot takes 6-60 s).
RUN_TIMEOUT = 900
LOAD_TIMEOUT = 300
# 82574L §10.2 offsets, written here (not taken from matrix/kept_state.py).
RCTL, RDLEN0, RDH0, RDT0, TDH0, TDT0 = \
    0x00100, 0x02808, 0x02810, 0x02818, 0x03810, 0x03818
RAL0, RAH0 = 0x05400, 0x05404
RAH_AV = 1 << 31                    # §10.2.5.2: address valid


def cli(*args, timeout=RUN_TIMEOUT):
    return subprocess.run(["/usr/bin/python3", str(CLI)] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def kept(device, guest_image, peer_bin, report_dir):
    if device != "e1000e-pp":
        pytest.skip("the cell fails by its situations, which only "
                    "e1000e-pp counts")
    out = report_dir / "keep-state"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    cells = out / "cells.toml"
    cells.write_text(CELLS)
    r = cli("run", "--no-setup", "--cells", str(cells), "--keep-state",
            "--traffic-timeout", "5", "--vms", "1", "--report",
            str(out / "report"))
    print(r.stdout[-3000:], r.stderr[-2000:])
    return r, out / "report"


def test_the_failing_cell_keeps_its_state_and_the_next_cell_runs(kept):
    r, report = kept
    assert r.returncode == 1, r.stderr
    results = {c["cell"]: c for c in
               json.loads((report / "results.json").read_text())["cells"]}
    assert results[FAILING]["status"] == "fail"
    assert "did not produce ring-dry-midframe" in results[FAILING]["reason"]
    # The guest ran on after the save: the next cell, same boot, passes.
    assert results[PLAIN]["status"] == "pass", results[PLAIN]["reason"]
    assert "state" in results[FAILING]["evidence"]
    state = report / "cells" / FAILING / "state"
    assert sorted(os.listdir(state)) == ["cmdline.json", "device.json",
                                         "registers.json", "resume.sh",
                                         "vm.state"]
    assert not (report / "cells" / PLAIN / "state").exists()
    meta = json.loads((state / "cmdline.json").read_text())
    assert meta["cell"] == FAILING
    assert meta["saved"]["state_bytes"] == (state / "vm.state").stat().st_size
    # The exact command line holds ours, whole and in order.
    exact, ours = meta["exact_cmdline"], meta["args"]
    i = exact.index(ours[0])
    assert exact[i:i + len(ours)] == ours
    assert f"{FAILING}: state saved in {state}" in r.stdout
    print(f"\n[keep-state] {meta['saved']}", flush=True)


@pytest.fixture(scope="module")
def resumed(kept):
    _, report = kept
    celldir = report / "cells" / FAILING
    info = celldir / "resume" / "info.json"
    info.unlink(missing_ok=True)
    t0 = time.monotonic()
    proc = subprocess.Popen(["/usr/bin/python3", str(CLI), "resume",
                             str(celldir), "--gdb-port", "0"],
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    harness.wait_until("resume to write info.json",
                       lambda: info.exists() or proc.poll() is not None,
                       LOAD_TIMEOUT, interval=0.1)
    if proc.poll() is not None:
        pytest.fail(f"resume exited {proc.returncode}: {proc.stderr.read()}")
    print(f"\n[keep-state] resume ready in {time.monotonic() - t0:.1f} s",
          flush=True)
    data = json.loads(info.read_text())
    harness.qemu_python()
    from qemu.qmp.legacy import QEMUMonitorProtocol
    qmp = QEMUMonitorProtocol(data["qmp"])
    qmp.connect()
    yield data, qmp, proc, celldir
    if proc.poll() is None:
        try:
            qmp.cmd("quit")
        except Exception:
            pass
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
    try:
        qmp.close()
    except Exception:
        pass


def xp(qmp, addr):
    text = qmp.cmd("human-monitor-command",
                   **{"command-line": f"xp /1wx {addr:#x}"})
    return int(text.split()[-1], 16)


def test_resume_loads_the_device_as_saved_and_paused(resumed):
    info, qmp, _, celldir = resumed
    assert qmp.cmd("query-status")["status"] == "paused"
    assert info["registers_differing"] == [] and \
        info["registers_same"] == 35
    saved = json.loads((celldir / "state" / "registers.json").read_text())
    bar0, regs = saved["bar0"], saved["registers"]
    now = {name: xp(qmp, bar0 + off) for name, off in
           (("RCTL", RCTL), ("RDLEN0", RDLEN0), ("RDH0", RDH0),
            ("RDT0", RDT0), ("TDH0", TDH0), ("TDT0", TDT0),
            ("RAL0", RAL0), ("RAH0", RAH0))}
    assert now == {k: regs[k] for k in now}
    # What the driver programmed, from outside the model: the guest's
    # MAC in RAL0/RAH0 (§10.2.5.1, low byte first, AV set), the RCTL the
    # cell itself read from the device (layout.json).
    mac = bytes.fromhex(harness.GUEST_MAC.replace(":", ""))
    assert now["RAL0"] == int.from_bytes(mac[:4], "little")
    assert now["RAH0"] == RAH_AV | int.from_bytes(mac[4:], "little")
    layout = json.loads((celldir / "layout.json").read_text())
    assert now["RCTL"] == int(layout["registers"]["RCTL"], 16)
    # The observation state does not migrate (docs/fidelity.md).
    assert qmp.cmd("qom-get", path="/machine/peripheral/nic0",
                   property="rx-offered") == 0


def test_the_gdbstub_answers(resumed):
    info, _, _, _ = resumed
    host, port = info["gdb"].split(":")
    with socket.create_connection((host, int(port)), timeout=30) as s:
        s.sendall(b"$?#3f")        # GDB remote protocol: halt reason
        s.settimeout(30)
        reply = b""
        while b"#" not in reply:
            reply += s.recv(256)
    assert reply.startswith(b"+$T05") or reply.startswith(b"+$S05"), reply


def test_the_guest_goes_on_where_it_failed(resumed):
    info, qmp, proc, celldir = resumed
    qmp.cmd("cont")
    assert qmp.cmd("query-status")["status"] == "running"
    agent = harness.Agent(info["agent"], celldir / "resume" / "agent.log")
    try:
        agent.hello(timeout=120)
        _, mtu = agent.sh("cat /sys/class/net/eth0/mtu")
        assert mtu.strip() == "1500"
        # The fresh peer is the netdev's other end.
        assert agent.kv(f"UDP {harness.PEER_IP} 7 3 200 5000",
                        timeout=120) == {"sent": 3, "echoed": 3, "bad": 0}
    finally:
        agent.close()
    assert qmp.cmd("qom-get", path="/machine/peripheral/nic0",
                   property="rx-delivered") >= 3
    qmp.cmd("quit")
    assert proc.wait(timeout=60) == 0
    out = proc.stdout.read()
    assert "[resume] guest paused" in out and "QEMU exited (0)" in out


def refused(args, what, why):
    r = cli("resume", *args, timeout=LOAD_TIMEOUT)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert any(ln.startswith("error: ") and what in ln
               for ln in r.stderr.splitlines()) and why in r.stderr, r.stderr


def test_resume_refuses_what_it_cannot_load(kept, tmp_path):
    _, report = kept
    state = report / "cells" / FAILING / "state"
    refused([str(report / "cells" / PLAIN)], "no saved state",
            "the cell passed, or its run had no --keep-state")
    # Another build: the emulator's hash differs.
    other = tmp_path / "other" / "state"
    other.mkdir(parents=True)
    os.link(state / "vm.state", other / "vm.state")
    meta = json.loads((state / "cmdline.json").read_text())
    (other / "cmdline.json").write_text(json.dumps(
        dict(meta, qemu_sha256="0" * 64)))
    refused([str(other.parent)], "build mismatch", "the emulator")
    # A state cut short: QEMU refuses it, resume says so.
    cut = tmp_path / "cut" / "state"
    cut.mkdir(parents=True)
    with open(state / "vm.state", "rb") as f:
        (cut / "vm.state").write_bytes(f.read(1 << 20))
    shutil.copy(state / "cmdline.json", cut / "cmdline.json")
    shutil.copy(state / "registers.json", cut / "registers.json")
    refused([str(cut.parent), "--gdb-port", "0"],
            "the saved state did not load", "QEMU exited with status")
