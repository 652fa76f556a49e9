# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp bench --insn`: instructions per frame, counted.

Wall-clock rates on a shared machine swing by tens of percent from run to
run; instruction counts do not. This runs the emulator under valgrind's
callgrind with instrumentation off (`--instr-atstart=no`); the qtest
benchmarks (`e1000e-pp-bench --insn`, `e1000e-pp-txbench --insn`) switch
it on only around the measured batch (callgrind_control --instr=on|off)
and dump each case under its name. The whole QEMU process is counted in
the window -- netdev, main loop, memory API and the device model -- so
the stock e1000e, run the same way in the same invocation, is the
reference. The core alone (tests/bench/core-bench under callgrind,
counting only e1000e_pp_receive, the RDT write and the floor function)
is compared with its floor: a memcpy and a CRC-32 of the same bytes.

Callgrind's files stay in build/insn/ (printed at the end): run
callgrind_annotate on any of them, or pass --profile to print the
functions that cost most per frame for each case.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

from e1000epp.bench import rx as rx_bench
from e1000epp.bench import tx as tx_bench
from e1000epp.common import argtypes, paths, qtest_binary
from e1000epp.common.qtest_binary import fail as _fail

OUT_DIR = os.path.join(paths.BUILD, "insn")
INSN_RE = re.compile(r"^INSN (.*)$")
CORE_FRAMES = 4096

# Targets (ratio e1000e-pp / stock e1000e, per frame)
TARGET_STRIPPED = 1.00      # FCS stripped: no more than stock
TARGET_KEPT = 1.10          # FCS kept: against stock's stripped count
TARGET_CORE = 1.50          # core, 1518 B FCS kept, against memcpy + CRC


def add_bench_arguments(parser):
    parser.add_argument("--insn", action="store_true",
                        help="count instructions per frame under callgrind "
                        "instead of timing (deterministic; about 5 min)")
    parser.add_argument("--profile", type=argtypes.int_range(0, 100),
                        metavar="N", default=0,
                        help="with --insn: also print the N functions that "
                        "cost most per frame in every case")


def _valgrind_cmd(prefix, extra=()):
    return ["valgrind", "--tool=callgrind", "--callgrind-out-file=%s.%%p"
            % prefix] + list(extra)


def _need_valgrind():
    for tool in ("valgrind", "callgrind_control", "callgrind_annotate"):
        if not shutil.which(tool):
            return _fail("%s is not installed; run ./e1000e-pp setup "
                         "(it installs Debian's valgrind)" % tool)
    return None


def _dumps(prefix):
    """{(pid, dump name): instructions} of every callgrind file of prefix."""
    out = {}
    for path in glob.glob(prefix + ".*"):
        pid = path[len(prefix) + 1:].split(".")[0]
        name = total = None
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger: dump "):
                    name = line[len("desc: Trigger: dump "):].strip()
                elif line.startswith("totals:"):
                    total = int(line.split()[1])
                    break
        if name and total is not None:
            out[(pid, name)] = (total, path)
    return out


def _run_qtest(binary, args, prefix):
    """Run one benchmark binary under the callgrind wrapper; its INSN lines."""
    env = qtest_binary.env()
    env["QTEST_QEMU_BINARY"] = " ".join(
        _valgrind_cmd(prefix, ["--instr-atstart=no"]) + [paths.QEMU_BIN])
    try:
        proc = subprocess.run([binary, "--insn"] + args, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
    except OSError as e:
        _fail("cannot run %s: %s" % (binary, e.strerror or e))
        return 2, []
    rows = []
    for line in proc.stdout.splitlines():
        m = INSN_RE.match(line)
        if m:
            rows.append(dict(kv.split("=", 1) for kv in m.group(1).split()))
    if proc.returncode:
        err = [x for x in proc.stderr.splitlines()
               if x.strip() and not x.startswith("==")]
        return _fail("%s --insn exited with %d%s"
                     % (os.path.basename(binary), proc.returncode,
                        (": " + err[-1]) if err else "")), rows
    return 0, rows


def _attach_counts(rows, prefix):
    dumps = _dumps(prefix)
    for r in rows:
        total, path = dumps.get((r["pid"], r["case"]), (None, None))
        r["insn"], r["file"] = total, path
    return [r for r in rows if r["insn"] is not None]


def _annotate(path, inclusive=False):
    """[(instructions, function)] from callgrind_annotate, most first."""
    argv = ["callgrind_annotate", "--threshold=100", "--auto=no"]
    if inclusive:
        argv.append("--inclusive=yes")
    try:
        text = subprocess.run(argv + [path], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL,
                              universal_newlines=True).stdout
    except OSError:
        return []
    out = []
    started = False
    for line in text.splitlines():
        if re.match(r"^\s*Ir\s+file:function", line):
            started = True
            continue
        if not started:
            continue
        if not line.strip() and out:
            break
        m = re.match(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S+)", line)
        if m:
            fn = m.group(2)
            fn = fn.split(":", 1)[1] if ":" in fn else fn
            out.append((int(m.group(1).replace(",", "")), fn))
    return out


def _profile(row, per, n):
    """The n functions that cost most per frame (inlined parts summed)."""
    by = {}
    for cost, fn in _annotate(row["file"]):
        by[fn] = by.get(fn, 0) + cost
    top = sorted(by.items(), key=lambda kv: -kv[1])[:n]
    return ["      %9.1f  %s" % (cost / per, fn) for fn, cost in top]


def _profiles(pp, st, n, unit):
    """The top n functions of e1000e-pp's row, then of stock's if any."""
    if not n:
        return []
    out = ["    e1000e-pp, top functions per %s:" % unit]
    out += _profile(pp, pp["per"], n)
    if st:
        out.append("    e1000e:")
        out += _profile(st, st["per"], n)
    return out


def _rx(prefix, args):
    err = qtest_binary.need_qtest(rx_bench.BENCH_BIN)
    if err:
        return err, []
    print("bench --insn: receive, 3 sizes x legacy/extended x FCS "
          "stripped/kept, e1000e-pp and e1000e (about 3 min) ...",
          flush=True)
    rc, rows = _run_qtest(rx_bench.BENCH_BIN, [], prefix)
    for r in rows:
        r["per"] = int(r["frames"])
    return rc, _attach_counts(rows, prefix)


def _tx(prefix, args):
    err = qtest_binary.need_qtest(tx_bench.TXBENCH_BIN)
    if err:
        return err, []
    print("bench --insn: transmit, 64 B, 1514 B and TSO 64 KiB, "
          "e1000e-pp and e1000e (about 1 min) ...", flush=True)
    rc, rows = _run_qtest(tx_bench.TXBENCH_BIN, [], prefix)
    for r in rows:
        r["per"] = int(r["packets"])
    return rc, _attach_counts(rows, prefix)


def _rx_table(rows, nprof):
    by = {(r["model"], r["case"]): r for r in rows}
    cases = []
    for r in rows:
        if r["case"] not in cases:
            cases.append(r["case"])
    out = ["", "Rx: instructions per frame, whole QEMU process, counted "
           "over a batch filling 1023 posted descriptors",
           "  %-28s %10s %10s %8s  %s" % ("case (wire bytes)", "e1000e-pp",
                                          "e1000e", "pp/stock", "target")]
    holds = []
    for case in cases:
        pp, st = by.get(("e1000e-pp", case)), by.get(("e1000e", case))
        if not pp:
            continue
        ppf = pp["insn"] / pp["per"]
        stf = st["insn"] / st["per"] if st else None
        ref, target, note = stf, TARGET_STRIPPED, ""
        if case.endswith("-kept"):
            # Stock has no real FCS: compare with its stripped count
            base = by.get(("e1000e", case[:-len("kept")] + "stripped"))
            ref = base["insn"] / base["per"] if base else None
            target, note = TARGET_KEPT, " vs stock stripped"
        if st and st.get("desc_per_frame", "1") != "1":
            note += "; stock used %s descriptors a frame" % st[
                "desc_per_frame"]
        ratio = ppf / ref if ref else None
        ok = ratio is not None and ratio <= target
        holds.append(ok)
        out.append("  %-28s %10.0f %10s %8s  <= %.2f%s %s"
                   % (case[3:], ppf, "%.0f" % stf if stf else "-",
                      "%.2f" % ratio if ratio else "-", target, note,
                      "ok" if ok else "MISSED"))
        out += _profiles(pp, st, nprof, "frame")
    return out, holds


def _tx_table(rows, nprof):
    by = {(r["model"], r["case"]): r for r in rows}
    out = ["", "Tx: instructions per packet (and per wire frame), counted "
           "over the TDT writes that hand batches over",
           "  %-12s %14s %14s %8s  %s" % ("case", "e1000e-pp", "e1000e",
                                          "pp/stock", "target")]
    holds = []
    for case in ("tx-64B", "tx-1514B", "tx-TSO-64KiB"):
        pp, st = by.get(("e1000e-pp", case)), by.get(("e1000e", case))
        if not pp:
            continue
        ppf = pp["insn"] / pp["per"]
        stf = st["insn"] / st["per"] if st else None
        ratio = ppf / stf if stf else None
        ok = ratio is not None and ratio <= TARGET_STRIPPED
        holds.append(ok)
        fr = int(pp["frames"]) / pp["per"]
        out.append("  %-12s %14s %14s %8s  <= %.2f %s"
                   % (case[3:], "%.0f" % ppf + ("" if fr == 1 else
                                                " (%.0f/fr)" % (ppf / fr)),
                      ("%.0f" % stf + ("" if fr == 1 else
                                       " (%.0f/fr)" % (stf / fr)))
                      if stf else "-",
                      "%.2f" % ratio if ratio else "-", TARGET_STRIPPED,
                      "ok" if ok else "MISSED"))
        out += _profiles(pp, st, nprof, "packet")
    return out, holds


CORE_FUNCS = ("e1000e_pp_receive", "e1000e_pp_write", "floor_frame")


def _core(prefix):
    err = qtest_binary.need((rx_bench.CORE_BENCH_BIN, "run ./e1000e-pp setup "
                             "(native build of tests/bench)"))
    if err:
        return err, []
    print("bench --insn: core only (core-bench --frames %d) ..."
          % CORE_FRAMES, flush=True)
    argv = _valgrind_cmd(prefix, ["--dump-before=bench_up"] +
                         ["--toggle-collect=%s" % f for f in CORE_FUNCS])
    try:
        proc = subprocess.run(argv + [rx_bench.CORE_BENCH_BIN, "--frames",
                                      str(CORE_FRAMES)],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL,
                              universal_newlines=True)
    except OSError as e:
        return _fail("cannot run valgrind: %s" % (e.strerror or e)), []
    if proc.returncode:
        return _fail("core-bench under callgrind exited with %d"
                     % proc.returncode), []
    cases = [(r["bytes"], r["fcs"]) for r in rx_bench._results(
        proc.stdout.splitlines())]
    # Part k+1 holds case k (a dump before each case's bench_up)
    files = {}
    for path in glob.glob(prefix + ".*"):
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("part:"):
                    files[int(line.split()[1])] = path
                    break
    frames = -(-CORE_FRAMES // 1024) * 1024
    rows = []
    for k, (size, fcs) in enumerate(cases):
        path = files.get(k + 2)
        if not path:
            continue
        incl = {}
        for cost, fn in _annotate(path, inclusive=True):
            if fn in CORE_FUNCS and fn not in incl:
                incl[fn] = cost
        rows.append({"bytes": size, "fcs": fcs, "file": path,
                     "per": frames,
                     "rx": incl.get("e1000e_pp_receive", 0) / frames,
                     "rdt": incl.get("e1000e_pp_write", 0) / frames,
                     "floor": incl.get("floor_frame", 0) / frames})
    return 0, rows


def _core_table(rows, nprof):
    out = ["", "Core only: instructions per frame (e1000e_pp_receive; the "
           "driver's RDT write beside it) against memcpy + CRC-32",
           "  %-16s %10s %10s %10s %8s  %s" % ("frame, FCS", "receive",
                                               "RDT write", "floor",
                                               "rx/floor", "target")]
    holds = []
    for r in rows:
        ratio = r["rx"] / r["floor"] if r["floor"] else 0
        line = "  %-16s %10.0f %10.0f %10.0f %8.2f" % (
            "%s B, %s" % (r["bytes"], r["fcs"]), r["rx"], r["rdt"],
            r["floor"], ratio)
        if r["bytes"] == "1514" and r["fcs"] == "kept":
            ok = ratio <= TARGET_CORE
            holds.append(ok)
            line += "  <= %.2f %s" % (TARGET_CORE, "ok" if ok else "MISSED")
        out.append(line)
        if nprof:
            out += _profile(r, r["per"], nprof)
    return out, holds


def bench(args):
    """Count instructions per frame for both models and the core."""
    err = _need_valgrind()
    if err:
        return err
    only = getattr(args, "only", None)
    nprof = max(0, getattr(args, "profile", 0) or 0)
    shutil.rmtree(OUT_DIR, ignore_errors=True)
    os.makedirs(OUT_DIR)
    rc, report, holds = 0, [], []
    for side, measure, table in (("rx", _rx, _rx_table),
                                 ("tx", _tx, _tx_table)):
        if only in (None, side):
            r, rows = measure(os.path.join(OUT_DIR, side), args)
            rc = rc or r
            lines, ok = table(rows, nprof)
            report += lines
            holds += ok
    if only != "tx" and not getattr(args, "no_core", False):
        r, rows = _core(os.path.join(OUT_DIR, "core"))
        rc = rc or r
        lines, ok = _core_table(rows, nprof)
        report += lines
        holds += ok
    for line in report:
        print(line)
    print("\ntargets: %d of %d hold; callgrind files in %s"
          % (sum(holds), len(holds), os.path.relpath(OUT_DIR, os.getcwd())))
    return rc


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", choices=["rx", "tx"])
    add_bench_arguments(p)
    sys.exit(bench(p.parse_args()))
