# SPDX-License-Identifier: GPL-2.0-or-later
"""`run` and `merge`: the driver regression matrix from the command line.

    ./e1000e-pp run [--matrix default|reduced|copybreak | --cells FILE]
                    [--only PATTERNS]
                    [--shard I/N] [--baseline DIR] [--list] [--cost]
                    [--json FILE] [--require-coverage LIST]
                    [--traffic-timeout SECONDS] [--keep-state]
                    [--device e1000e-pp|e1000e] [--report DIR] [--vms N]
    ./e1000e-pp merge --report OUT SHARD_DIR...
"""

import json
import os
import queue
import sys
import threading
import time

from e1000epp.common import argtypes, paths
from e1000epp.common.errors import StepError
from e1000epp.matrix import cell_model, diagnosis, guest_cost, report


def add_run_arguments(p):
    p.add_argument("--matrix", choices=sorted(cell_model.MATRICES),
                   default="default",
                   help="which matrix (default: default; `reduced` is the "
                   "one ./e1000e-pp test runs)")
    p.add_argument("--cells", metavar="FILE",
                   help="run the cells of a TOML file instead of a built-in "
                   "matrix (docs/usage/cells.md, \"Your own cells\")")
    p.add_argument("--only", metavar="PATTERNS",
                   help="comma-separated cell name globs or regular "
                   "expressions, e.g. 'mtu9*-keep-*' or '^mtu1500-'")
    p.add_argument("--shard", metavar="I/N",
                   help="run slice I of N (deterministic, by cell name)")
    p.add_argument("--baseline", metavar="DIR",
                   help="an earlier report: list the cells whose result "
                   "changed")
    p.add_argument("--list", action="store_true",
                   help="print the selected cells and their boots, run "
                   "nothing")
    p.add_argument("--cost", action="store_true",
                   help="measure guest instructions and IOMMU work per "
                   "packet in every cell (TCG plugin; docs/cost.md)")
    p.add_argument("--json", metavar="FILE",
                   help="also write every cell's result and cost figures "
                   "as JSON to FILE ('-': standard output)")
    p.add_argument("--require-coverage", metavar="LIST",
                   help="comma-separated datapath situations "
                   "(docs/coverage.md) the run must reach, or `all` (every "
                   "one the driver can produce); the run fails naming "
                   "each one no cell hit")
    p.add_argument("--traffic-timeout", metavar="SECONDS",
                   type=argtypes.int_range(5, 3600),
                   default=cell_model.TRAFFIC_TIMEOUT,
                   help="how long a cell waits for its pattern frames "
                   "(default %(default)s; frames a NIC lost never come, "
                   "so a cell that loses them waits this long; under TCG "
                   "a frame crosses in milliseconds)")
    p.add_argument("--keep-state", action="store_true",
                   help="after every failing cell, save the VM (QEMU's "
                   "migrate to a file) into cells/<name>/state for "
                   "./e1000e-pp resume CELLDIR; the guest then runs on "
                   "(docs/usage/run.md, \"Snapshots\")")
    p.add_argument("--record", action="store_true",
                   help="record every selected cell under QEMU's "
                   "record/replay, one VM per cell, into cells/<name>/"
                   "replay/ for ./e1000e-pp replay CELLDIR "
                   "(docs/usage/replay.md)")
    p.add_argument("--record-failing", action="store_true",
                   help="record every selected cell as --record does and "
                   "keep only the recordings of the cells that fail: "
                   "for the failure that comes once in twenty runs")
    p.add_argument("--record-snapshots", action="store_true",
                   help="with --record or --record-failing: keep QEMU's "
                   "snapshots beside each recording (one at its start), "
                   "so that a replay under gdb can execute backwards "
                   "(reverse-continue)")
    p.add_argument("--vms", metavar="N", type=argtypes.int_range(1, 64),
                   help="run up to N boot groups at once, each in a VM of "
                   "its own (default: one per CPU, as many as fit in "
                   "memory, at most one per boot group)")
    from e1000epp.image import user_kernel
    user_kernel.add_arguments(p)


# What one VM of the matrix takes: 512 MiB of guest RAM and QEMU's own
# (TCG's translation cache, the device), measured at about 300 MiB.
VM_MEMORY = 1 << 30


def default_vms():
    """One VM per CPU, but no more than MemAvailable holds."""
    cpus = os.cpu_count() or 1
    try:
        with open("/proc/meminfo") as f:
            avail = next(int(line.split()[1]) * 1024 for line in f
                         if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        return 1
    return max(1, min(cpus, avail // VM_MEMORY))


def run_groups(groups, vms, run_group, on_result):
    """Run every boot group through run_group(cells, on_result) -> (results,
    boots), up to `vms` at once; on_result is called under one lock (one
    progress stream). Returns (results in plan order, boots)."""
    todo = queue.Queue()
    for i, (_, cells) in enumerate(groups):
        todo.put((i, cells))
    done = [None] * len(groups)
    lock = threading.Lock()
    failure = []

    def locked(r):
        with lock:
            on_result(r)

    def worker():
        while not failure:
            try:
                i, cells = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done[i] = run_group(cells, locked)
            except BaseException as e:      # re-raised in the caller
                failure.append(e)

    threads = [threading.Thread(target=worker, daemon=True)
               for _ in range(min(vms, len(groups)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failure:
        raise failure[0]
    results = [r for res, _ in done for r in res]
    return results, sum(b for _, b in done)


def before_setup(args):
    """Check the options before setup (bad input fails in a second);
    returns whether this invocation needs setup (--list does not)."""
    from e1000epp.image import user_kernel
    if args.list:
        return False
    select_cells(args)
    _check_baseline(args.baseline)
    _check_required(args)
    if args.json and args.json != "-" and not os.path.isdir(
            os.path.dirname(os.path.abspath(args.json))):
        raise StepError(f"--json {args.json!r}: its directory does not "
                        "exist", "bad matrix option",
                        "give a file in an existing directory, or '-'")
    if user_kernel.wanted(args):
        user_kernel.validate(args)
    if getattr(args, "record_snapshots", False) and \
            not recording_wanted(args):
        raise StepError("--record-snapshots without --record",
                        "only a recording has snapshots to keep",
                        "add --record or --record-failing")
    if recording_wanted(args):
        check_record(args, select_cells(args)[0])
    return True


def recording_wanted(args):
    """--record or --record-failing: cell_recording.Options, else None."""
    if not (getattr(args, "record", False) or
            getattr(args, "record_failing", False)):
        return None
    from e1000epp.matrix.cell_recording import Options
    return Options(snapshots=bool(getattr(args, "record_snapshots", False)),
                   keep_passing=not getattr(args, "record_failing", False))


def host_timed(cell):
    """Why a cell cannot be recorded, or None: what it changes from the
    host while the guest runs over QMP (set_link, system_wakeup) is not
    in QEMU's replay log, so its replay would diverge. Device knobs are:
    a recording sets them through the NIC's knob channel
    (vm/knobchannel.py)."""
    fam = cell.family
    if fam and fam.suspend:
        return "pulls the cable (QMP set_link)"
    if fam and fam.sleep:
        return "wakes the guest from S3 (QMP system_wakeup)"
    return None


def check_record(args, cells):
    """--record: not with --cost or --keep-state, and only cells whose
    host-side actions are all in the replay log."""
    for opt in ("cost", "keep_state"):
        if getattr(args, opt, False):
            raise StepError(f"--record with --{opt.replace('_', '-')}",
                            "a recording runs the cell as it is, without "
                            "the cost plugin or a saved VM",
                            "give one of them")
    bad = [(c.name, host_timed(c)) for c in cells if host_timed(c)]
    if bad:
        names = "; ".join(f"{n} {why}" for n, why in bad[:4])
        good = [c.name for c in cells if not host_timed(c)]
        raise StepError(
            f"--record: {len(bad)} of the selected cells cannot be "
            "replayed", f"{names}{' ...' if len(bad) > 4 else ''}: a "
            "change made over QMP at a host-timed moment is not in QEMU's "
            "replay log",
            ("leave them out with --only, e.g. --only '^" +
             "$,^".join(good[:3]) + "$'" if good else
             "select cells without link changes or system sleep, e.g. "
             "--only '^mtu1500-strip-msix-noiommu$'") +
            " (docs/usage/replay.md)")


def run_command(args):
    """`run` after setup: build the user's guest image if asked, run."""
    from e1000epp.image import user_kernel
    if args.list:
        return run(args)
    if user_kernel.wanted(args):
        guest_dir, desc = user_kernel.prepare(
            args, log=lambda line: print(f"[guest] {line}", flush=True))
        return run(args, guest_dir, desc)
    return run(args)


def add_merge_arguments(p):
    p.add_argument("--report", metavar="DIR", required=True,
                   help="where the merged report goes")
    p.add_argument("--baseline", metavar="DIR",
                   help="an earlier report to compare the merged one to")
    p.add_argument("shards", nargs="+", metavar="SHARD_DIR",
                   help="reports written by run --shard I/N")
    p.add_argument("--require-coverage", metavar="LIST",
                   help="comma-separated datapath situations the merged "
                   "run must reach, or `all` (docs/coverage.md)")


def _error(e):
    what, hint = e.args[0], (e.args[1] if len(e.args) > 1 else "")
    return StepError(what, "bad matrix option", hint or "see --help")


def matrix_label(args):
    """What the run's cells come from, for its header and metadata."""
    cells = getattr(args, "cells", None)
    return f"file {cells}" if cells else args.matrix


def select_cells(args):
    from e1000epp.matrix import cell_file
    try:
        if getattr(args, "cells", None):
            cells = cell_file.load(args.cells)
        else:
            cells = cell_model.MATRICES[args.matrix]()
        cells = cell_model.select(cells, args.only)
        if getattr(args, "k", None):
            cells = [c for c in cells if args.k.lower() in c.name.lower()]
            if not cells:
                raise cell_model.MatrixError(f"-k {args.k!r} matches no cell "
                                             "of this selection",
                                             "list the cells with --list")
        shard = None
        if args.shard:
            i, n = cell_model.parse_shard(args.shard)
            cells = cell_model.shard(cells, i, n)
            shard = f"{i}/{n}"
    except cell_model.MatrixError as e:
        raise _error(e)
    return cells, shard


def _check_required(args):
    """--require-coverage names, checked against the device's list."""
    text = getattr(args, "require_coverage", None)
    if text is None:
        return []
    names = diagnosis.parse_required(text)
    bad = diagnosis.unknown(names)
    if not names or bad:
        raise StepError(f"--require-coverage {text!r}: "
                        + (f"unknown situation {', '.join(bad)}" if bad
                           else "no situation named"),
                        "bad matrix option",
                        "known: " + ", ".join(diagnosis.SITUATIONS))
    return names


def _coverage_verdict(args, results):
    """0, or 1 with a message when a required situation was missed."""
    names = _check_required(args)
    if not names:
        return 0
    msg = diagnosis.check_required(results, names)
    if msg:
        print(msg, file=sys.stderr)
        return 1
    print(f"--require-coverage: all {len(names)} required situations "
          "reached")
    return 0


def _check_baseline(path):
    if path:
        try:
            report.load_results(path)
        except cell_model.MatrixError as e:
            raise _error(e)


def driver_under_test(args):
    """The driver the run's options name: the page-pool series
    (--driver, which prepare() also turns into a --driver-src),
    Debian's own e1000e (no driver or kernel option, or only
    --debian-kernel), or None for the user's own (told in the guest)."""
    if getattr(args, "driver", None):
        return cell_model.DRIVER_SERIES
    if any(getattr(args, k, None) for k in ("kernel", "modules", "module",
                                            "driver_src", "kernel_tree")):
        return None
    return cell_model.DRIVER_STOCK


def run(args, guest_dir=None, guest_desc="Debian (build/guest)"):
    cells, shard = select_cells(args)
    _check_baseline(args.baseline)
    _check_required(args)
    groups = cell_model.plan(cells)
    record = recording_wanted(args)
    if record:
        # One VM per cell: each recording starts at its own boot.
        groups = [(key, [c]) for key, group in groups for c in group]
    if args.list:
        for key, group in groups:
            print(f"boot {key}: {len(group)} cells")
            for c in group:
                print(f"  {c.name}")
        for line in cell_model.coverage_plan(cells):
            print(line)
        print(f"{len(cells)} cells, {len(groups)} boots")
        return 0
    from e1000epp.matrix import execute
    from e1000epp.image import fault_injector
    from e1000epp.vm import preflight
    guest_dir = guest_dir or paths.GUEST_DIR
    peer_bin = preflight.vm_preflight(guest_dir)
    if fault_injector.wanted(cells):
        guest_dir = fault_injector.guest_with_injector(
            guest_dir, log=lambda line: print(f"[guest] {line}", flush=True))

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    report_dir = os.path.abspath(args.report or
                                 os.path.join(paths.REPORTS_DIR, stamp))
    os.makedirs(report_dir, exist_ok=True)
    meta = {"stamp": stamp, "device": args.device,
            "matrix": matrix_label(args),
            "only": args.only or "", "shard": shard or "",
            "guest": guest_desc, "cells": len(cells),
            "boots_planned": len(groups),
            "traffic_timeout": args.traffic_timeout}
    vms = min(args.vms or default_vms(), len(groups))
    meta["vms"] = vms
    print(f"[run] {len(cells)} cells ({matrix_label(args)} matrix"
          f"{', --only ' + args.only if args.only else ''}"
          f"{', shard ' + shard if shard else ''}) in {len(groups)} boots "
          f"on {args.device}"
          f"{'' if vms == 1 else ', %d VMs at once' % vms}; guest "
          f"{guest_desc}", flush=True)
    print(f"[run] report {report_dir}", flush=True)

    t0 = time.monotonic()
    times = []
    done = [0]

    def on_result(r):
        done[0] += 1
        times.append(r["seconds"])
        # with VMs side by side, a cell's share of the wall time
        print(report.progress_line(done[0], len(cells),
                                   time.monotonic() - t0,
                                   [t / vms for t in times], r),
              flush=True)

    def on_boot(text):
        # one write per line: VMs of other boot groups print too
        sys.stdout.write(f"      {text}\n")
        sys.stdout.flush()

    if args.cost and not guest_cost.available():
        raise StepError("the cost plugin is not built",
                        f"{guest_cost.PLUGIN} is missing",
                        "run ./e1000e-pp setup (it builds tools/plugin "
                        "against a QEMU configured with --enable-plugins)")
    meta["cost"] = bool(args.cost)
    meta["keep_state"] = bool(args.keep_state)
    meta["record"] = "failing" if record and not record.keep_passing \
        else bool(record)

    def run_group(group, report_result):
        return execute.run_cells(
            group, args.device, report_dir, peer_bin, guest_dir=guest_dir,
            on_result=report_result, on_boot=on_boot,
            measure_cost=args.cost, traffic_timeout=args.traffic_timeout,
            keep_state=args.keep_state, driver=driver_under_test(args),
            record=record)

    results, boots = run_groups(groups, vms, run_group, on_result)
    wall = time.monotonic() - t0
    per = sorted(times)
    meta.update({"boots": boots, "wall_seconds": round(wall, 1),
                 "median_cell_seconds":
                 per[len(per) // 2] if per else 0})
    text, _ = report.write_report(report_dir, meta, results, args.baseline)
    print()
    print(text)
    print(f"boots {boots}, median {meta['median_cell_seconds']:.1f}s per "
          f"cell, wall {report.fmt_secs(wall)}")
    print(f"report: {report_dir}/report.html (junit.xml, summary.txt, "
          "cells/<name>/)")
    write_json(args.json, meta, results)
    failed = sum(r["status"] != cell_model.PASS for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return _coverage_verdict(args, results) or (1 if failed else 0)


def write_json(dest, meta, results):
    """--json: the run's metadata and each cell's status, reason and
    cost figures."""
    if not dest:
        return
    data = {"meta": meta, "cells": [
        {k: r.get(k) for k in ("cell", "status", "reason", "seconds",
                               "cost", "faults", "coverage")}
        for r in results]}
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if dest == "-":
        sys.stdout.write(text)
        return
    try:
        with open(dest, "w") as f:
            f.write(text)
    except OSError as e:
        raise StepError("cannot write --json", f"{dest}: {e.strerror}",
                        "give a writable file path")


def merge(args):
    _check_baseline(args.baseline)
    _check_required(args)
    try:
        meta, results = report.merge(args.report, args.shards)
    except cell_model.MatrixError as e:
        raise _error(e)
    text, _ = report.write_report(os.path.abspath(args.report), meta,
                                  results, args.baseline)
    print(text)
    print(f"report: {os.path.abspath(args.report)}/report.html")
    failed = sum(r["status"] != cell_model.PASS for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return _coverage_verdict(args, results) or (1 if failed else 0)


if __name__ == "__main__":
    sys.exit("use ./e1000e-pp run")
