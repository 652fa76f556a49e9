# SPDX-License-Identifier: GPL-2.0-or-later
"""Receive report and benchmark for the CLI.

`./e1000e-pp report` -> report(args): runs `e1000e-pp-rx-report`,
which measures the stock and the page-pool receive designs on the model at
every MTU of a sweep and prints the page-pool series' published table
(pieces / truesize / density) with the measured values beside the
published ones; --json FILE writes every measured number.

`./e1000e-pp bench` -> bench(args): runs the qtest receive benchmark
(`e1000e-pp-bench`, frames/s for e1000e-pp and the stock e1000e in the
same run), the design benchmark (`e1000e-pp-rx-designbench`: the
stock and page-pool receive designs on the same e1000e-pp device, runs
interleaved, frames/s and device-visible work per frame) and the
core-only benchmark (`core-bench`, ns per frame against a memcpy +
CRC-32 floor), and prints the numbers with the issue's targets.

Both take an argparse namespace; add_report_arguments/add_bench_arguments
declare the options they read.  Missing attributes fall back to defaults,
so a bare namespace works too.  They return a process exit code.
"""

import os
import re
import subprocess
import sys

from e1000epp.common import argtypes, paths, qtest_binary
from e1000epp.common.qtest_binary import fail as _fail

QTEST_DIR = os.path.join(paths.QEMU_BUILD, paths.QTEST_DIR)
REPORT_BIN = os.path.join(QTEST_DIR, "e1000e-pp-rx-report")
DESIGN_BENCH_BIN = os.path.join(QTEST_DIR, "e1000e-pp-rx-designbench")
BENCH_BIN = os.path.join(QTEST_DIR, "e1000e-pp-bench")
CORE_BENCH_BIN = os.path.join(paths.NATIVE_DIR, "tests", "bench",
                              "core-bench")
MODELS = ("e1000e-pp", "e1000e")

RESULT_RE = re.compile(r"^RESULT (.*)$")


def add_report_arguments(parser):
    parser.add_argument("--model", default="e1000e-pp", choices=MODELS,
                        help="device model to measure (default e1000e-pp)")
    parser.add_argument("--mtu", metavar="A-B",
                        help="MTU range of the sweep (default 68-9212)")
    parser.add_argument("--step", type=argtypes.positive_int, default=None,
                        help="sweep every STEP-th MTU (default 64; the "
                        "row edges and their neighbours are always in)")
    parser.add_argument("--json", metavar="FILE",
                        help="write every measured number as JSON "
                        "('-': standard output)")


def add_bench_arguments(parser):
    parser.add_argument("--frames", type=argtypes.positive_int,
                        default=100000,
                        help="frames per qtest case (default 100000)")
    parser.add_argument("--repeat", type=argtypes.int_range(1, 99),
                        default=3,
                        help="runs per qtest case, median shown (default 3)")
    parser.add_argument("--crc", default="both",
                        choices=("stripped", "kept", "both"),
                        help="RCTL.SECRC setting(s) to measure")
    parser.add_argument("--no-core", action="store_true",
                        help="skip the core-only benchmark")
    parser.add_argument("--no-design", action="store_true",
                        help="skip the stock vs page-pool design benchmark")
    parser.add_argument("--design-frames", type=argtypes.positive_int,
                        default=2000,
                        help="frames per design run (default 2000)")
    parser.add_argument("--no-qtest", action="store_true",
                        help="skip the qtest benchmark")


def _stream(argv):
    """Run argv, echo its useful lines as they come, return (rc, lines)."""
    lines = []
    proc = qtest_binary.spawn(argv)
    if proc is None:
        return 2, lines
    for line in proc.stdout:
        line = line.rstrip("\n")
        lines.append(line)
        # qtest's own chatter and the machine-readable lines stay quiet
        if line.startswith("# starting QEMU") or RESULT_RE.match(line):
            continue
        print(line, flush=True)
    return proc.wait(), lines


def _results(lines):
    out = []
    for line in lines:
        m = RESULT_RE.match(line)
        if m:
            out.append(dict(kv.split("=", 1) for kv in m.group(1).split()))
    return out


def report(args):
    """Print the per-MTU page-pool table measured on the model."""
    model = getattr(args, "model", None) or "e1000e-pp"
    if model not in MODELS:
        return _fail("unknown model %r (choose from %s)"
                     % (model, ", ".join(MODELS)))
    err = qtest_binary.need_qtest(REPORT_BIN)
    if err:
        return err
    argv = [REPORT_BIN, model]
    mtu = getattr(args, "mtu", None)
    if mtu:
        if not re.match(r"^\d+-\d+$", mtu):
            return _fail("--mtu takes A-B, e.g. 1500-2100")
        argv += ["--mtu", mtu]
    step = getattr(args, "step", None)
    if step is not None:
        if step < 1:
            return _fail("--step must be at least 1")
        argv += ["--step", str(step)]
    json_out = getattr(args, "json", None)
    if json_out:
        argv += ["--json", json_out]
    if json_out != "-":
        print("report: receiving the largest frame at every MTU of the "
              "sweep, both designs, FCS kept and stripped, VLAN on and "
              "off, on %s ..." % model, flush=True)
    if json_out == "-":
        rc = _json_to_stdout(argv)
    else:
        rc, _ = _stream(argv)
    if rc:
        return _fail("e1000e-pp-rx-report exited with %d" % rc)
    return 0


def _json_to_stdout(argv):
    """Run the report with the JSON list alone on standard output."""
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE, env=qtest_binary.env(),
                              universal_newlines=True)
    except OSError as e:
        print("error: cannot run %s: %s" % (argv[0], e), file=sys.stderr)
        return 2
    lines = proc.stdout.split("\n")
    start = next((i for i, line in enumerate(lines) if line == "["),
                 len(lines))
    for line in lines[:start]:
        if line:
            print(line, file=sys.stderr)
    sys.stdout.write("\n".join(lines[start:]))
    sys.stdout.flush()
    return proc.returncode


def _bench_binary(what, binary, argv, announce):
    """Run a qtest benchmark binary with its output streamed; returns
    (exit status, its RESULT rows).  what: how a failure names it."""
    err = qtest_binary.need_qtest(binary)
    if err:
        return err, []
    print(announce, flush=True)
    rc, lines = _stream([binary] + argv)
    if rc:
        return _fail("%s exited with %d" % (what, rc)), []
    return 0, _results(lines)


def _frames_repeat(args, flag, default):
    """(the frame count given as `flag`, --repeat, 0), or a usage error's
    exit status (printed) in place of 0 when either is out of range."""
    frames = getattr(args, flag[2:].replace("-", "_"), default)
    repeat = getattr(args, "repeat", 3)
    if frames <= 0 or not 1 <= repeat <= 99:
        return frames, repeat, _fail("%s must be positive and --repeat "
                                     "1..99" % flag)
    return frames, repeat, 0


def _qtest_bench(args):
    frames, repeat, err = _frames_repeat(args, "--frames", 100000)
    if err:
        return err, []
    return _bench_binary(
        "e1000e-pp-bench", BENCH_BIN,
        ["--frames", str(frames), "--repeat", str(repeat),
         "--crc", getattr(args, "crc", "both")],
        "bench: qtest receive, e1000e-pp and stock e1000e in one run "
        "(about 30 s) ...")


def _design_bench(args):
    frames, repeat, err = _frames_repeat(args, "--design-frames", 2000)
    if err:
        return err, []
    return _bench_binary(
        "e1000e-pp-rx-designbench", DESIGN_BENCH_BIN,
        ["--frames", str(frames), "--repeat", str(repeat)],
        "bench: stock vs page-pool receive design on e1000e-pp, runs "
        "interleaved (about 15 s) ...")


def _design_summary(results):
    """Median frames/s and the per-frame work, page-pool beside stock."""
    out = []
    by = {}
    for x in results:
        by.setdefault((x["mtu"], x["design"]), []).append(x)
    for mtu in sorted({k[0] for k in by}, key=int):
        runs = {d: by.get((mtu, d), []) for d in ("stock", "pagepool")}
        if not all(runs.values()):
            continue
        med = {d: sorted(float(r["fps"]) for r in rs)[len(rs) // 2]
               for d, rs in runs.items()}
        last = {d: rs[-1] for d, rs in runs.items()}
        out.append("design MTU %4s: page-pool / stock frames/s = %.2f; per "
                   "frame stock / page-pool: descriptors %s / %s, ring "
                   "bytes %s / %s, maps %s / %s, unmaps %s / %s, syncs "
                   "%s / %s"
                   % (mtu, med["pagepool"] / med["stock"],
                      last["stock"]["desc"], last["pagepool"]["desc"],
                      last["stock"]["ring_bytes"],
                      last["pagepool"]["ring_bytes"],
                      last["stock"]["maps"], last["pagepool"]["maps"],
                      last["stock"]["unmaps"], last["pagepool"]["unmaps"],
                      last["stock"]["syncs"], last["pagepool"]["syncs"]))
    return out


def _core_bench():
    err = qtest_binary.need((CORE_BENCH_BIN, "run ./e1000e-pp setup (native "
                             "build of tests/bench)"))
    if err:
        return err, []
    print("bench: core only, no QEMU (about 4 s) ...", flush=True)
    rc, lines = _stream([CORE_BENCH_BIN])
    if rc:
        return _fail("core-bench exited with %d" % rc), []
    return 0, _results(lines)


def bench(args):
    """Run the receive benchmarks and print the numbers and targets."""
    rc = 0
    summary = []
    if not getattr(args, "no_qtest", False):
        r, results = _qtest_bench(args)
        rc = rc or r
        by = {(x["model"], x["bytes"], x["fcs"]): float(x["fps"])
              for x in results}
        for (model, size, fcs), fps in sorted(
                by.items(), key=lambda kv: (kv[0][2], int(kv[0][1]))):
            stock = by.get(("e1000e", size, fcs))
            if model == "e1000e-pp" and stock:
                summary.append("qtest %5s bytes, FCS %-8s: e1000e-pp / "
                               "e1000e = %.2f (target >= 1.00)"
                               % (size, fcs, fps / stock))
    if not getattr(args, "no_design", False):
        r, results = _design_bench(args)
        rc = rc or r
        summary += _design_summary(results)
    if not getattr(args, "no_core", False):
        r, results = _core_bench()
        rc = rc or r
        for x in results:
            line = ("core  %5s bytes, FCS %-8s: %.2f x floor"
                    % (x["bytes"], x["fcs"], float(x["ratio"])))
            if x["bytes"] == "1514":
                line += " (target <= 2.00)"
            summary.append(line)
    if summary:
        print("\nsummary:")
        for line in summary:
            print("  " + line)
    return rc


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    add_report_arguments(sub.add_parser("report"))
    add_bench_arguments(sub.add_parser("bench"))
    a = p.parse_args()
    sys.exit(report(a) if a.cmd == "report" else bench(a))
