# SPDX-License-Identifier: GPL-2.0-or-later
"""The longer record/replay checks (docs/usage/replay.md, "Tests"):
three replays of one recording in a row, all identical to it; QEMU's
stock e1000e recorded and replayed the same way, with what it does
reported; a matrix cell through `run --record` and `replay`, and a
Tx-hang cell whose knob goes through the device's knob channel; `run
--record-failing` keeping only a failing cell's recording; `replay
--break-symbol` at the address the recorded guest loaded e1000e's Tx
clean routine at; reverse execution through the gdbstub from a later
hit of that routine back to the one before."""

import json
import re
import shutil
import subprocess

import pytest

import replaytools
from e1000epp.replay import command, guest_symbols

CLI = str(replaytools.harness.REPO / "e1000e-pp")
CELL = "mtu1500-strip-msix-noiommu"


def test_three_replays_in_a_row_equal_the_recording(guest_image, peer_bin,
                                                    report_dir):
    out = report_dir / "three"
    cell_dir, data, _ = replaytools.record_short("e1000e-pp", peer_bin, out)
    runs = [replaytools.replay_once(cell_dir, out / f"replay{i}")
            for i in range(3)]
    for i, r in enumerate(runs):
        print(f"replay {i + 1}: {r['seconds']:.1f} s; " +
              "; ".join(r["lines"]))
    assert [r["icount"] for r in runs] == [data["icount"]] * 3
    assert [r["digest"] for r in runs] == [data["device_digest"]] * 3
    assert [r["ok"] for r in runs] == [True] * 3


def test_stock_e1000e_replays_to_the_same_instruction_count(
        guest_image, peer_bin, report_dir):
    # Stock e1000e keeps no event list or counters of its own: its
    # digest is of nothing; what the replay must reach is the icount.
    out = report_dir / "stock"
    cell_dir, data, traffic = replaytools.record_short("e1000e", peer_bin,
                                                       out)
    r = replaytools.replay_once(cell_dir, out / "replay1")
    print(f"stock e1000e: recorded {data['record_seconds']} s, "
          f"{data['log_bytes']} bytes; replay {r['seconds']:.1f} s; " +
          "; ".join(r["lines"]))
    assert traffic["rx"]["good"] == replaytools.FRAMES
    assert data["events"] == [] and set(data["counters"].values()) == {None}
    assert r["icount"] == data["icount"]
    assert r["ok"] is True


def test_a_matrix_cell_recorded_by_run_replays(guest_image, report_dir):
    report = report_dir / "run-record"
    r = subprocess.run(["/usr/bin/python3", CLI, "run", "--no-setup",
                        "--record", "--matrix", "reduced", "--only",
                        f"^{CELL}$", "--report", str(report)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=900)
    print(r.stdout[-3000:])
    cell_dir = report / "cells" / CELL
    data = json.loads((cell_dir / "replay" / "recording.json").read_text())
    assert data["cell"] == CELL and data["icount"] > 0
    r = subprocess.run(["/usr/bin/python3", CLI, "replay", str(cell_dir)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=3600)
    print(r.stdout)
    assert r.returncode == 0
    assert r.stdout.splitlines()[-1] == "replay matches the recording"


TXHANG = "mtu1500-strip-msix-noiommu-txhang"


def cli(*args, timeout):
    r = subprocess.run(["/usr/bin/python3", CLI] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    print(r.stdout[-4000:])
    return r


def test_a_knob_cell_recorded_by_run_replays(guest_image, report_dir):
    """The Tx-hang cell's x-tx-hold goes through the knob channel: in
    the log, so the replay holds the Tx engine at the same instruction
    and reaches the same digest."""
    report = report_dir / "run-record-knob"
    r = cli("run", "--no-setup", "--record", "--matrix", "default",
            "--only", f"^{TXHANG}$", "--report", report, timeout=900)
    assert r.returncode == 0
    cell_dir = report / "cells" / TXHANG
    data = json.loads((cell_dir / "replay" / "recording.json").read_text())
    assert any("knob-tx-hold" in e for e in data["events"])
    assert "x-knobs=knobs" in data["cmdline"]
    assert data["symbols"] == ["symbols.txt", "sections.json", "e1000e.ko"]
    r = cli("replay", cell_dir, timeout=3600)
    assert r.returncode == 0
    assert r.stdout.splitlines()[-1] == "replay matches the recording"


# The plain cell made to fail whatever the timing: it must produce a
# DMA fault, which no device without an IOMMU reports (it did fail
# under record for want of irq-throttled, until the paced agent got
# fast enough for the interrupt throttle to show again).
RECORD_FAILING_CELLS = """
[[cell]]
mtu = 1500
expect = ["dma-fault"]

[[cell]]
mtu = 1500
family = "txhang"
"""


def test_record_failing_keeps_only_the_failing_cells_recording(
        guest_image, report_dir, tmp_path):
    """The plain cell fails (no DMA fault without an IOMMU), the Tx-hang
    cell passes; only the failing one keeps its recording."""
    report = report_dir / "record-failing"
    cells = tmp_path / "cells.toml"
    cells.write_text(RECORD_FAILING_CELLS)
    r = cli("run", "--no-setup", "--record-failing", "--cells", cells,
            "--report", report, timeout=900)
    assert r.returncode == 1
    assert "1 passed, 1 failed" in r.stdout
    cells = {c["cell"]: c for c in json.loads(
        (report / "results.json").read_text())["cells"]}
    assert cells[CELL]["status"] == "fail"
    # (under record it may also miss irq-throttled: timing)
    assert "did not produce dma-fault" in \
        cells[CELL]["reason"].splitlines()
    assert cells[CELL]["recording"]["kept"] is True
    assert (report / "cells" / CELL / "replay" / "replay.bin").is_file()
    assert cells[TXHANG]["status"] == "pass"
    assert cells[TXHANG]["recording"]["kept"] is False
    assert cells[TXHANG]["recording"]["icount"] > 0
    assert not (report / "cells" / TXHANG / "replay").exists()
    assert "(passed: deleted, --record-failing)" in r.stdout


# e1000_clean_tx_irq in Debian 6.1.0-57's e1000e.ko (`nm`: a static
# function at .text + 0x17070); the guest says where .text is.
CLEAN_TX_OFFSET = 0x17070
GDB_PORT = 1237


def test_reverse_continue_returns_to_the_earlier_hit(guest_image, peer_bin,
                                                     report_dir):
    if not shutil.which("gdb"):
        pytest.fail("gdb is not installed (apt-get install gdb)")
    out = report_dir / "reverse"
    cell_dir, data, traffic = replaytools.record_short(
        "e1000e-pp", peer_bin, out, snapshots=True)
    assert data["snapshots"] is True
    bp = int(traffic["text"].strip(), 16) + CLEAN_TX_OFFSET
    vm = command.ReplayVm(command.prepare(str(cell_dir)), str(cell_dir),
                          str(out / "replay"), gdb=GDB_PORT)
    try:
        vm.launch()
        vm.qmp.execute("stop")
        steps = [f"target remote 127.0.0.1:{GDB_PORT}", f"hbreak *{bp:#x}",
                 "continue", "monitor info replay", "continue",
                 "monitor info replay", "reverse-continue",
                 "monitor info replay", "info registers rip", "kill"]
        r = subprocess.run(["gdb", "-batch", "-nx"] +
                           [a for s in steps for a in ("-ex", s)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=1800)
    finally:
        vm.stop()
    print(r.stdout)
    counts = guest_symbols.hit_icount(r.stdout)
    hits = re.findall(r"Breakpoint 1, (0x[0-9a-f]+) in", r.stdout)
    assert hits == [f"{bp:#018x}"] * 3
    assert len(counts) == 3
    first, second, back = counts
    assert first < second <= data["icount"]
    assert back == first


def test_break_symbol_stops_at_the_first_call(guest_image, peer_bin,
                                              report_dir):
    """The symbol the recording kept resolves to the address the guest's
    .text plus `nm`'s offset gives (CLEAN_TX_OFFSET), and the replay
    finds its first call."""
    out = report_dir / "break-symbol"
    cell_dir, data, traffic = replaytools.record_short(
        "e1000e-pp", peer_bin, out)
    addr = int(traffic["text"].strip(), 16) + CLEAN_TX_OFFSET
    r = cli("replay", cell_dir, "--break-symbol", "e1000_clean_tx_irq",
            timeout=3600)
    assert r.returncode == 0
    m = re.search(r"first call of e1000_clean_tx_irq at instruction count "
                  r"(\d+) \(RIP (0x[0-9a-f]+)\)", r.stdout)
    assert m and int(m.group(2), 16) == addr
    assert 0 < int(m.group(1)) < data["icount"]


def test_break_symbol_before_finds_the_last_call(
        guest_image, peer_bin, report_dir):
    """--before: every call counted forward up to the bound, the last
    one taken (the way back from a failure without reverse execution)."""
    out = report_dir / "break-before"
    cell_dir, data, _ = replaytools.record_short("e1000e-pp", peer_bin, out)
    r = cli("replay", cell_dir, "--break-symbol", "e1000_clean_tx_irq",
            "--before", data["icount"], timeout=3600)
    assert r.returncode == 0
    m = re.search(r"the last call of e1000_clean_tx_irq before instruction "
                  r"count \d+ at instruction count (\d+) \(RIP 0x[0-9a-f]+\)"
                  r"; (\d+) calls before it: ([\d, ]+);", r.stdout)
    assert m, r.stdout
    last, n = int(m.group(1)), int(m.group(2))
    calls = [int(c) for c in m.group(3).split(", ")]
    # Pattern frames both ways: the guest cleaned its Tx ring more than
    # once, each call later than the one before.
    assert n >= 2 and calls == sorted(calls) and calls[-1] == last
    assert last < data["icount"]
