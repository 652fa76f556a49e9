# SPDX-License-Identifier: GPL-2.0-or-later
"""Receive report and benchmark for the CLI (issue 3).

`./e1000e-pp report` -> report(args): runs `e1000e-pp-rx-test --report` and
prints, per MTU breakpoint, the pieces per frame, truesize and payload
density of the page-pool receive design, measured on the model.

`./e1000e-pp bench` -> bench(args): runs the qtest receive benchmark
(`e1000e-pp-bench`, frames/s for e1000e-pp and the stock e1000e in the
same run) and the core-only benchmark (`core-bench`, ns per frame against
a memcpy + CRC-32 floor), and prints the numbers with the issue's targets.

Both take an argparse namespace; add_report_arguments/add_bench_arguments
declare the options they read.  Missing attributes fall back to defaults,
so a bare namespace works too.  They return a process exit code.
"""

import os
import re
import sys

from e1000epp import argtypes, paths, qtestrun
from e1000epp.qtestrun import fail as _fail

QTEST_DIR = os.path.join(paths.QEMU_BUILD, "tests", "qtest", "e1000e_pp")
RX_TEST_TARGET = "tests/qtest/e1000e_pp/e1000e-pp-rx-test"
BENCH_TARGET = "tests/qtest/e1000e_pp/e1000e-pp-bench"
RX_TEST_BIN = os.path.join(paths.QEMU_BUILD, RX_TEST_TARGET)
BENCH_BIN = os.path.join(paths.QEMU_BUILD, BENCH_TARGET)
CORE_BENCH_BIN = os.path.join(paths.NATIVE_DIR, "tests", "bench",
                              "core-bench")
MODELS = ("e1000e-pp", "e1000e")

RESULT_RE = re.compile(r"^RESULT (.*)$")


def add_report_arguments(parser):
    parser.add_argument("--model", default="e1000e-pp", choices=MODELS,
                        help="device model to measure (default e1000e-pp)")


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
    parser.add_argument("--no-qtest", action="store_true",
                        help="skip the qtest benchmark")


def _stream(argv):
    """Run argv, echo its useful lines as they come, return (rc, lines)."""
    lines = []
    proc = qtestrun.spawn(argv)
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
    err = qtestrun.need_qtest(RX_TEST_BIN)
    if err:
        return err
    print("report: receiving one full-size frame per MTU breakpoint and "
          "FCS setting on %s ..." % model, flush=True)
    rc, _ = _stream([RX_TEST_BIN, "--report", model])
    if rc:
        return _fail("e1000e-pp-rx-test --report exited with %d" % rc)
    return 0


def _qtest_bench(args):
    err = qtestrun.need_qtest(BENCH_BIN)
    if err:
        return err, []
    frames = getattr(args, "frames", 100000)
    repeat = getattr(args, "repeat", 3)
    if frames <= 0 or not 1 <= repeat <= 99:
        return _fail("--frames must be positive and --repeat 1..99"), []
    argv = [BENCH_BIN, "--frames", str(frames), "--repeat", str(repeat),
            "--crc", getattr(args, "crc", "both")]
    print("bench: qtest receive, e1000e-pp and stock e1000e in one run "
          "(about 30 s) ...", flush=True)
    rc, lines = _stream(argv)
    if rc:
        return _fail("e1000e-pp-bench exited with %d" % rc), []
    return 0, _results(lines)


def _core_bench():
    err = qtestrun.need((CORE_BENCH_BIN, "run ./e1000e-pp setup (native "
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
