# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp bugs`: does the harness catch the page-pool series' bug
classes? Each fixture of examples/pagepool-e1000e/bugs runs through the
matrix cells that target it (`run --driver pagepool+BUG --only CELLS`)
and must fail there for its reason; the correct series
(`--driver pagepool`) must pass the same cells; Debian's stock 6.12
driver (`--debian-kernel 6.12`) runs them too, for the record (where
stock has no such code, its pass says nothing about the bug).

Every fixture has its cells; those no default-matrix cell targets run
with the named matrix that has them (reset-pm: `--matrix race`).
"""

import json
import os
import re
import subprocess
import sys
import time

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.image import pagepool_series
from e1000epp.matrix import cell_model

# fixture -> (cells, the failing cell's reason must match, what it is).
# Each pattern is the fixture's stated reason (bugs/README.md, "expected
# reason"), matched against the text of the checks that failed (a FAIL
# cell's reason, or what an ERROR cell lists under "checks failed before
# the error"): the check's own words and what it found, never any
# failure of the cell. A guest that did not boot or whose agent stopped
# answering catches nothing (judge()).
TARGETS = {
    "fcs-straddle": (
        "mtu9212-keep-msix-noiommu",
        r"frames peer->guest \(agent\):[^\n]*\bcorrupt [1-9]",
        "an FCS across two 2 KB chunks left partly on the frame: its "
        "B-2 pattern frames arrive with FCS bytes at the end"),
    "fcs-alone": (
        "mtu9212-keep-msix-noiommu",
        r"frames peer->guest \(agent\):[^\n]*\btrunc [1-9]",
        "an FCS alone in the last chunk trimmed twice: its B pattern "
        "frames arrive 4 bytes short"),
    "truesize": (
        "mtu4097-rxfcs-msix-noiommu",
        r"truesize of each MTU-sized frame [^\n]*: got \[",
        "chained chunks charged 2048 instead of a page: the cell's "
        "held echoes are charged less than the series' table"),
    "napi-down": (
        "mtu1500-strip-msix-noiommu,mtu9000-strip-msi-noiommu",
        r"dmesg free of [^\n]*WARNING:[^;\n]*"
        r"\bpage_pool_disable_direct_recycling\b",
        "NAPI enabled while down: the MTU change's down warns in "
        "page_pool_disable_direct_recycling"),
    "no-sync": (
        "mtu1500-strip-msix-bounce,mtu9212-keep-msix-bounce",
        r"frames peer->guest \(agent\):[^\n]*"
        r"\b(missing|corrupt|stale) [1-9]",
        "no DMA sync for the CPU: under swiotlb=force the driver reads "
        "the stale page, not the bounce slot the device wrote: "
        "peer->guest frames lost or corrupt"),
    "early-recycle": (
        "mtu9000-strip-msi-noiommu,mtu4097-rxfcs-msix-noiommu",
        r"dmesg free of [^\n]*(WARNING:[^;\n]*\bpage_pool_unref_netmem\b|"
        r"BUG: Bad page state|BUG: KASAN: [a-z-]+ in )|"
        r"report on the console before it died[^\n]*KASAN",
        "a chained chunk recycled while the skb holds it: page_pool "
        "warnings (negative reference) and a bad page state at the next "
        "down"),
    "reset-pm": (
        "mtu1500-strip-msix-noiommu-resetpm",
        r"untouched in D3hot[^\n]*: got [1-9]|"
        r"dmesg free of [^\n]*WARNING:[^;\n]*\be1000e_pm_runtime_suspend\b",
        "the reset task without a runtime-PM reference: the runtime "
        "suspend gives up waiting for it and puts the function in D3hot "
        "while the reset task still reprograms the MAC (the race matrix)"),
    "csum-err": (
        "mtu1500-strip-msix-noiommu",
        r"checksums \(Rx offload on\): [^\n]*the agent's socket got[^\n]*"
        r"\bbad [1-9]",
        "IPE/TCPE ignored: frames with a wrong UDP checksum marked "
        "CHECKSUM_UNNECESSARY reach the agent's socket"),
    "budget-drop": (
        "mtu1500-strip-msix-noiommu-burst",
        r"every frame at every boundary [^\n]*rx driver: device "
        r"delivered - handed to the stack [1-9]",
        "the frame that uses up a poll's budget freed by the driver: "
        "the device delivered more frames than the stack got"),
    "teardown-leak": (
        "mtu1500-strip-msix-noiommu",
        r"no page pool (left|detached) with pages out[^\n]*: pool \d+: "
        r"[1-9]\d* pages",
        "the posted Rx buffers not returned at ring teardown: a page "
        "pool detached with a ring's worth of pages in flight"),
    "silent-vector": (
        "mtu1500-strip-msix-noiommu-linkdrop",
        r"every vector the cell has a cause for fired[^\n]*: "
        r"(?:[^\n]*, )?eth0 False \(want True\)",
        "the other-causes vector never enabled again: a link change "
        "fires no interrupt (the watchdog's poll still sees it)"),
    "no-tx-reset": (
        "mtu1500-strip-msix-noiommu-txhang",
        r"MSI-X: the Tx hang recovered by the driver's own reset[^\n]*: "
        r"got None|the Tx hang reset by the driver: timed out",
        "the transmit timeout counted but no reset scheduled: under "
        "MSI-X the hang is never reset by the driver"),
}
# An ERROR cell's reason: the harness's error, then the checks that had
# failed before it (matrix/execute.py run_cell).
BEFORE_ERROR = "\nchecks failed before the error:\n"
# Errors that say the guest never ran the checks: the boot failed
# (matrix/execute.py run_cells), or the agent stopped answering (a hung
# or dead guest, vm/agentlink.py).
NO_GUEST = re.compile(r"^boot \d+ \(.*\) failed:|did not answer")
RUN_TIMEOUT = 3600


def add_arguments(p):
    p.add_argument("--only", metavar="BUGS",
                   help="comma-separated fixtures (default: every one "
                   "a cell targets: " + ", ".join(TARGETS) + ")")
    p.add_argument("--no-stock", action="store_true",
                   help="do not run Debian's stock driver on the cells")
    p.add_argument("--report", metavar="DIR",
                   help="where the runs' reports go (default "
                   "build/reports/bugs-<time>)")
    p.add_argument("--traffic-timeout", metavar="SECONDS", default="20",
                   help="passed to each run (default 20)")
    p.add_argument("--debug-kernel", action="store_true",
                   help="every run on the sanitizing kernel (setup "
                   "--debug-kernel): KASAN, kmemleak, lockdep, DEBUG_NET "
                   "reports fail the cells")


def selected(args):
    if not args.only:
        return list(TARGETS)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    for n in names:
        if n not in TARGETS:
            raise StepError(f"--only {n!r}: no such fixture",
                            "the fixtures are those of "
                            "examples/pagepool-e1000e/bugs",
                            "give some of: " + ", ".join(
                                list(TARGETS)))
    return names


def before_setup(args):
    """Bad --only fails before the setup."""
    selected(args)
    return True


def matrix_args(cells):
    """--matrix for cells the default matrix does not have: the first
    named matrix that has them all."""
    want = set(cells.split(","))
    for name, make in cell_model.MATRICES.items():
        if want <= {c.name for c in make()}:
            return [] if name == "default" else ["--matrix", name]
    raise StepError(f"cells {cells}: in no matrix",
                    "a fixture's target cells must be matrix cells",
                    "fix TARGETS in bugs/command.py")


def exactly(cells):
    """--only for exactly these cell names (a bare name is also searched
    as a regular expression: mtu1500-strip-msix-noiommu would take every
    family of that configuration)."""
    return ",".join(f"^{re.escape(c)}$" for c in cells.split(","))


def _run(report, cells, driver_args, timeout_s, log):
    argv = [sys.executable, os.path.join(paths.REPO, "e1000e-pp"), "run",
            "--no-setup", "--only", exactly(cells), "--report", report,
            "--traffic-timeout", str(timeout_s), "--vms", "1"] + \
        matrix_args(cells) + driver_args
    log("  $ " + " ".join(argv[2:]))
    t0 = time.monotonic()
    p = subprocess.run(argv, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True,
                       timeout=RUN_TIMEOUT)
    with open(os.path.join(os.path.dirname(report),
                           os.path.basename(report) + ".log"), "w") as f:
        f.write(p.stdout)
    try:
        with open(os.path.join(report, "results.json")) as f:
            cells_out = json.load(f)["cells"]
    except (OSError, ValueError, KeyError):
        raise StepError(f"run {' '.join(driver_args)} wrote no results",
                        f"exit {p.returncode}; its output:\n" +
                        "\n".join(p.stdout.splitlines()[-15:]))
    return cells_out, round(time.monotonic() - t0, 1)


def failed_checks(r):
    """The text of the checks a cell failed: a FAIL cell's reason; of an
    ERROR cell only the checks listed as failed before the error (its
    harness error says why the cell stopped, not what it found)."""
    reason = r.get("reason") or ""
    if r["status"] == cell_model.FAIL:
        return reason
    if r["status"] == cell_model.ERROR and BEFORE_ERROR in reason:
        return reason.split(BEFORE_ERROR, 1)[1]
    return ""


def _first_line(r):
    return ((r.get("reason") or "").splitlines() or ["(no reason)"])[0]


def judge(results, pattern):
    """(the first cell that failed a check for the fixture's reason,
    None) when one did; else (None, why it is not caught): the guest did
    not boot or stopped answering (an error, not a catch), the cells
    failed for other reasons, or they passed."""
    for r in results:
        if r["status"] != cell_model.PASS and \
                re.search(pattern, failed_checks(r)):
            return r, None
    bad = [r for r in results if r["status"] != cell_model.PASS]
    dead = [r for r in bad if r["status"] == cell_model.ERROR and
            NO_GUEST.search(r.get("reason") or "")]
    if dead:
        return None, ("not caught: the guest did not boot or did not "
                      "answer: " + "; ".join(
                          f"{r['cell']} {_first_line(r)}" for r in dead))
    if bad:
        return None, ("not caught: failed for another reason: " +
                      "; ".join(f"{r['cell']} {r['status']}: "
                                f"{_first_line(r)[:160]}" for r in bad))
    if not results:
        return None, "not caught: the run reported no cells"
    return None, "not caught: every cell passed"


def _memo_run(memo, kind, report, cells, driver_args, timeout_s, log):
    """A run of the series or of stock on these cells, once per call of
    `bugs` (fixtures that share cells share it)."""
    key = (kind, cells)
    if key not in memo:
        n = 1 + sum(k[0] == kind for k in memo)
        memo[key] = _run(os.path.join(report, f"{kind}-{n}"), cells,
                         driver_args, timeout_s, log)
    return memo[key]


def check(bug, report, stock, timeout_s, log, memo, kernel_args=()):
    """A fixture, the series and (with stock) Debian's driver on the
    fixture's cells; kernel_args: ["--debug-kernel"] for the sanitizing
    kernel (its own e1000e stands for stock)."""
    cells, pattern, what = TARGETS[bug]
    kernel_args = list(kernel_args)
    log(f"{bug}: {what}")
    out = {"bug": bug, "cells": cells.split(","), "expect": pattern}
    res, secs = _run(os.path.join(report, bug), cells,
                     ["--driver", f"{pagepool_series.WORD}+{bug}"] +
                     kernel_args, timeout_s, log)
    hit, why = judge(res, pattern)
    out["fixture"] = {"seconds": secs, "cells": [
        {k: r[k] for k in ("cell", "status", "reason")} for r in res],
        "caught_by": hit and hit["cell"], "not_caught": why}
    out["caught"] = hit is not None
    log("  fixture: " + (f"caught by {hit['cell']}: {hit['status']} "
                         f"{failed_checks(hit)[:160]}" if hit else
                         why[:1].upper() + why[1:]))
    res, secs = _memo_run(memo, "series", report, cells,
                          ["--driver", pagepool_series.WORD] + kernel_args,
                          timeout_s, log)
    out["series"] = {"seconds": secs, "cells": [
        {k: r[k] for k in ("cell", "status", "reason")} for r in res]}
    out["series_passes"] = all(r["status"] == "pass" for r in res)
    log("  series: " + ("passes" if out["series_passes"] else "FAILS: " +
                        "; ".join(f"{r['cell']} {r['reason']}"
                                  for r in res if r["status"] != "pass")))
    if stock:
        res, secs = _memo_run(memo, "stock", report, cells,
                              kernel_args or ["--debian-kernel", "6.12"],
                              timeout_s, log)
        out["stock"] = {"seconds": secs, "cells": [
            {k: r[k] for k in ("cell", "status", "reason")} for r in res]}
        log("  stock 6.12: " + ", ".join(f"{r['cell']} {r['status']}"
                                         for r in res))
    return out


def run(args):
    names = selected(args)
    report = args.report or os.path.join(
        paths.REPORTS_DIR, time.strftime("bugs-%Y%m%d-%H%M%S"))
    os.makedirs(report, exist_ok=True)

    def log(line):
        print(line, flush=True)

    log(f"[bugs] {len(names)} fixtures; report {report}")
    rows = []
    memo = {}
    for n, bug in enumerate(names, 1):
        log(f"[{n}/{len(names)}] {bug}")
        rows.append(check(bug, report, not args.no_stock,
                          args.traffic_timeout, log, memo,
                          ["--debug-kernel"] if args.debug_kernel else []))
    with open(os.path.join(report, "bugs.json"), "w") as f:
        json.dump(rows, f, indent=1)
    bad = [r["bug"] for r in rows if not r["caught"] or
           not r["series_passes"]]
    log(f"[bugs] {sum(r['caught'] for r in rows)} of {len(rows)} fixtures "
        f"caught, the series passing their cells in "
        f"{sum(r['series_passes'] for r in rows)}")
    if bad:
        log("[bugs] FAILED: " + ", ".join(bad))
        return 1
    return 0
