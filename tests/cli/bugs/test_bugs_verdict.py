# SPDX-License-Identifier: GPL-2.0-or-later
"""`bugs`' verdict on made-up runs: each fixture is caught only by a
failed check that states its reason (bugs/README.md), never by another
failure, and a guest that did not boot or stopped answering is an
error, not a catch. The runs are faked at the subprocess: each writes
the results.json a matrix run writes (report/results.json, "cells"),
which bugs/command.py reads as it reads a real one."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "scripts"))
from e1000epp.bugs import command as bugs_command  # noqa: E402

DMESG = "dmesg free of WARN/BUG/Oops/page_pool/DMA-API/IOMMU faults/hangs: "
FRAMES = "frames peer->guest (agent): "
# Per fixture: a failed check in the words the matrix uses for the
# fixture's stated reason, and one that fails the same cell otherwise.
REASONS = {
    "fcs-straddle": (
        FRAMES + "good 24 (want 36), bad 12 (want 0), corrupt 12 (want 0)",
        FRAMES + "good 24 (want 36), bad 12 (want 0), trunc 12 (want 0)"),
    "fcs-alone": (
        FRAMES + "good 24 (want 36), bad 12 (want 0), trunc 12 (want 0)",
        FRAMES + "good 24 (want 36), bad 12 (want 0), corrupt 12 (want 0)"),
    "truesize": (
        "truesize of each MTU-sized frame (page pool, the series' table: "
        "12544): got [8448, 8448, 8448, 8448], want [12544, 12544, 12544, "
        "12544]",
        "truesize: 4 echoes of 4074 bytes held, each charged at least its "
        "length: got (3, True), want (4, True)"),
    "napi-down": (
        DMESG + "[   41.2] WARNING: CPU: 0 PID: 812 at net/core/dev.h:159 "
        "page_pool_disable_direct_recycling+0x4a/0x60",
        DMESG + "[   41.2] e1000e 0000:00:02.0 eth0: Detected Hardware "
        "Unit Hang"),
    "no-sync": (
        FRAMES + "good 0 (want 9), missing 9 (want 0)",
        "UDP echo of 64-byte datagrams on eth0: got {'sent': 3, 'echoed': "
        "0, 'bad': 0}, want {'sent': 3, 'echoed': 3, 'bad': 0}"),
    "early-recycle": (
        DMESG + "[   77.0] WARNING: CPU: 1 PID: 9 at include/net/page_pool/"
        "helpers.h:277 page_pool_unref_netmem+0x81/0x90; [   77.1] BUG: "
        "Bad page state in process ksoftirqd/1",
        DMESG + "[   77.0] WARNING: CPU: 1 PID: 9 at net/sched/"
        "sch_generic.c:525 dev_watchdog+0x20e/0x220"),
    "csum-err": (
        "checksums (Rx offload on): 10 bad frames among 15 good on eth0: "
        "the datagrams the agent's socket got (only the good ones, every "
        "byte checked): got 8 (want 6), bad 2 (want 0)",
        "checksums (Rx offload on): 10 bad frames among 15 good on eth0: "
        "the driver's rx_csum_offload_errors (ethtool -S): got 0, want 10"),
    "budget-drop": (
        "every frame at every boundary (frames unaccounted: peer, device, "
        "driver, stack): rx driver: device delivered - handed to the "
        "stack 4 (want 0)",
        "every frame at every boundary (frames unaccounted: peer, device, "
        "driver, stack): tx wire: device sent + PAUSE - peer got 1 "
        "(want 0)"),
    "teardown-leak": (
        "no page pool left with pages out by the driver's previous "
        "instance (an interface down, a module unload): pool 7: 255 pages "
        "(1044480 bytes) in flight after 5 s",
        "the guest's page pools read (netlink page-pool-get): agent: "
        "'POOLS' -> ERR genl: no such family"),
    "silent-vector": (
        "every vector the cell has a cause for fired (guest "
        "/proc/interrupts and the device's messages): eth0 False "
        "(want True)",
        "every vector the cell has a cause for fired (guest "
        "/proc/interrupts and the device's messages): eth0-rx-0 False "
        "(want True)"),
    "no-tx-reset": (
        "MSI-X: the Tx hang recovered by the driver's own reset (netdev "
        "watchdog -> e1000_tx_timeout -> reset task), not by the "
        "harness's down and up: got None, want watchdog",
        "the driver's reset tasks (dmesg: Reset adapter unexpectedly): "
        "got 2, want 1"),
    "reset-pm": (
        "the function untouched in D3hot while the reset task and the "
        "runtime suspend ran (device pm-violations): got 1, want 0",
        "the function untouched in D3hot while the reset task and the "
        "runtime suspend ran (device pm-violations): got 0, want 1"),
}
NO_BOOT = ("boot 1 (noiommu) failed: agent did not answer HELLO in 120 s",
           "HarnessError: agent did not answer in time")


def test_every_fixture_has_made_up_reasons():
    assert set(REASONS) == set(bugs_command.TARGETS)


def fake_runs(monkeypatch, fixture_cells):
    """subprocess.run for `e1000e-pp run`: the fixture's run reports
    fixture_cells (status, reason) in its first cell, the series and
    stock pass every cell."""
    def run(argv, **kw):
        report = argv[argv.index("--report") + 1]
        # The exact names the fixture runs, as its --only anchors them.
        cells = [re.sub(r"\\(.)", r"\1", c.strip("^$")) for c in
                 argv[argv.index("--only") + 1].split(",")]
        driver = argv[argv.index("--driver") + 1] \
            if "--driver" in argv else "stock"
        out = [{"cell": c, "status": "pass", "reason": ""} for c in cells]
        if "+" in driver:
            out[0].update(fixture_cells)
        os.makedirs(report, exist_ok=True)
        with open(os.path.join(report, "results.json"), "w") as f:
            json.dump({"cells": out}, f)
        return subprocess.CompletedProcess(argv, 0, "ran\n")
    monkeypatch.setattr(bugs_command.subprocess, "run", run)


def check(bug, tmp_path, monkeypatch, status, reason):
    fake_runs(monkeypatch, {"status": status, "reason": reason})
    return bugs_command.check(bug, str(tmp_path), False, "20",
                              lambda line: None, {})


@pytest.mark.parametrize("bug", sorted(REASONS))
def test_caught_for_its_stated_reason(bug, tmp_path, monkeypatch):
    cell = bugs_command.TARGETS[bug][0].split(",")[0]
    reason = "frames guest->peer (peer): good 35 (want 36)\n" + \
        REASONS[bug][0]
    out = check(bug, tmp_path, monkeypatch, "fail", reason)
    assert out["caught"] and out["fixture"]["caught_by"] == cell, out
    assert out["fixture"]["not_caught"] is None
    assert out["series_passes"]


@pytest.mark.parametrize("bug", sorted(REASONS))
def test_failed_for_another_reason_is_not_caught(bug, tmp_path,
                                                 monkeypatch):
    out = check(bug, tmp_path, monkeypatch, "fail", REASONS[bug][1])
    assert not out["caught"], out
    assert out["fixture"]["caught_by"] is None
    assert out["fixture"]["not_caught"].startswith(
        "not caught: failed for another reason: "), out


@pytest.mark.parametrize("bug", sorted(REASONS))
@pytest.mark.parametrize("reason", NO_BOOT)
def test_a_guest_that_did_not_boot_or_answer_catches_nothing(
        bug, reason, tmp_path, monkeypatch):
    out = check(bug, tmp_path, monkeypatch, "error", reason)
    assert not out["caught"], out
    assert out["fixture"]["not_caught"].startswith(
        "not caught: the guest did not boot"), out


def test_a_stated_reason_found_before_the_guest_hung_is_caught(
        tmp_path, monkeypatch):
    """The checks an ERROR cell had failed before its agent stopped
    answering are what the cell found: the fixture's own warning among
    them catches it; the error's text alone never does."""
    reason = ("HarnessError: agent did not answer in time\nchecks failed "
              "before the error:\n" + REASONS["early-recycle"][0])
    out = check("early-recycle", tmp_path, monkeypatch, "error", reason)
    assert out["caught"], out
    hung = "HarnessError: agent did not answer in time (" + \
        REASONS["early-recycle"][0] + ")"
    out = check("early-recycle", tmp_path / "2", monkeypatch, "error", hung)
    assert not out["caught"], out


def test_every_cell_passing_is_not_caught():
    cells = [{"cell": "a", "status": "pass", "reason": ""}]
    hit, why = bugs_command.judge(cells, bugs_command.TARGETS["truesize"][1])
    assert hit is None and why == "not caught: every cell passed"


def test_a_failure_without_a_reason_is_not_caught():
    cells = [{"cell": "a", "status": "fail", "reason": ""}]
    hit, why = bugs_command.judge(cells, bugs_command.TARGETS["truesize"][1])
    assert hit is None and why == \
        "not caught: failed for another reason: a fail: (no reason)"


def test_a_fixtures_cells_are_run_exactly_not_as_patterns():
    # mtu1500-strip-msix-noiommu searched as a pattern also takes its
    # family cells (-errcrc, -vlan, ...): 16 of the default matrix.
    from e1000epp.bugs import command
    from e1000epp.matrix import cell_model
    only = command.exactly("mtu1500-strip-msix-noiommu,"
                           "mtu9000-strip-msi-noiommu")
    picked = cell_model.select(cell_model.MATRICES["default"](), only)
    assert [c.name for c in picked] == ["mtu9000-strip-msi-noiommu",
                                        "mtu1500-strip-msix-noiommu"] or \
        sorted(c.name for c in picked) == ["mtu1500-strip-msix-noiommu",
                                           "mtu9000-strip-msi-noiommu"]


def test_debug_kernel_reaches_every_run(tmp_path, monkeypatch):
    seen = []

    def run(argv, **kw):
        seen.append(argv)
        report = argv[argv.index("--report") + 1]
        os.makedirs(report, exist_ok=True)
        with open(os.path.join(report, "results.json"), "w") as f:
            json.dump({"cells": []}, f)
        return subprocess.CompletedProcess(argv, 0, "ran\n")
    monkeypatch.setattr(bugs_command.subprocess, "run", run)
    bugs_command.check("early-recycle", str(tmp_path), True, "20",
                       lambda line: None, {}, ["--debug-kernel"])
    assert len(seen) == 3
    for argv in seen:
        assert "--debug-kernel" in argv and "--debian-kernel" not in argv
    assert [a[a.index("--driver") + 1] for a in seen[:2]] == [
        "pagepool+early-recycle", "pagepool"]
    assert "--driver" not in seen[2]


def test_a_sanitizers_report_of_a_dead_guest_catches_early_recycle(
        tmp_path, monkeypatch):
    reason = ("HarnessError: agent connection closed"
              "\nchecks failed before the error:\n"
              "the guest kernel's report on the console before it died: "
              "Oops: general protection fault ... KASAN NOPTI; KASAN: "
              "maybe wild-memory-access in range")
    out = check("early-recycle", tmp_path, monkeypatch, "error", reason)
    assert out["caught"], out


def test_kasans_report_in_dmesg_catches_early_recycle(tmp_path, monkeypatch):
    """The sanitizing kernel's report of the page read after it went
    back to the pool (mm/kasan/report.c's first line)."""
    reason = (DMESG + "[   52.3] BUG: KASAN: use-after-free in "
              "skb_release_data+0x3c1/0x4b0; [   52.3] Read of size 8 at "
              "addr ffff888005a3c000 by task ksoftirqd/0")
    out = check("early-recycle", tmp_path, monkeypatch, "fail", reason)
    assert out["caught"], out
