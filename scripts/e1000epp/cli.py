# SPDX-License-Identifier: GPL-2.0-or-later
"""Command line of ./e1000e-pp."""

import argparse
import os
import subprocess
import sys
import traceback

from . import paths
from .progress import StepError

SUITE_NAMES = ["unit", "qtest", "functional"]


def cmd_qemu(args):
    if not os.access(paths.QEMU_BIN, os.X_OK):
        print("error: the emulator is not built yet (%s)\n"
              "  what to do: run ./e1000e-pp setup"
              % os.path.relpath(paths.QEMU_BIN, paths.REPO), file=sys.stderr)
        return 1
    argv = paths.qemu_cmd(args)
    sys.stdout.flush()
    os.execv(argv[0], argv)


def _suites(text):
    names = [s.strip() for s in text.split(",") if s.strip()]
    bad = [s for s in names if s not in SUITE_NAMES]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            "unknown suite %s (choose from %s)"
            % (", ".join(bad) or "''", ",".join(SUITE_NAMES)))
    return names


def _jobs(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("must be a positive integer, "
                                         "not %r" % text)
    return n


def build_parser():
    p = argparse.ArgumentParser(
        prog="e1000e-pp",
        description="Faithful Intel 82574L model for QEMU: build, test, run.")
    p.add_argument("--debug", action="store_true",
                   help="show Python tracebacks on errors")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser("setup", help="install packages, fetch and build QEMU "
                       "with the device, native build, guest image")
    s.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                   help="parallel build jobs (default: ninja's choice)")
    s.add_argument("--skip-guest", action="store_true",
                   help="do not build the guest image")
    s.add_argument("-v", "--verbose", action="store_true",
                   help="echo the output of every external command")

    sub.add_parser("qemu", help="run the built emulator with firmware paths "
                   "set: ./e1000e-pp qemu ARGS...")

    t = sub.add_parser("test", help="set up, then run the test suites")
    t.add_argument("--suite", type=_suites, default=list(SUITE_NAMES),
                   metavar="LIST",
                   help="comma-separated subset of %s (default: all)"
                   % ",".join(SUITE_NAMES))
    t.add_argument("-k", metavar="EXPR",
                   help="select tests: pytest -k EXPR for functional, "
                   "glib -p PATH for qtest")
    t.add_argument("--no-setup", action="store_true",
                   help="do not run setup first")
    t.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                   help="parallel build jobs for the setup")

    r = sub.add_parser("run", help="the main job: set up, run the driver "
                       "regression matrix, write a report")
    r.add_argument("--device", choices=["e1000e-pp", "e1000e"],
                   default="e1000e-pp",
                   help="device model under test (default: e1000e-pp)")
    r.add_argument("--report", metavar="DIR",
                   help="report directory (default: build/reports/<UTC "
                   "stamp>)")
    r.add_argument("--no-setup", action="store_true",
                   help="do not run setup first")
    r.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                   help="parallel build jobs for the setup")
    from . import runmatrix
    runmatrix.add_run_arguments(r)

    m = sub.add_parser("merge", help="combine the reports of run --shard "
                       "I/N into one")
    runmatrix.add_merge_arguments(m)

    from . import rxbench, txbench
    b = sub.add_parser("bench", help="Rx and Tx benchmarks: e1000e-pp "
                       "against stock e1000e in the same run, and the "
                       "core against a memcpy + CRC floor (numbers only)")
    b.add_argument("--only", choices=["rx", "tx"],
                   help="run just the receive or the transmit benchmark")
    b.add_argument("--no-setup", action="store_true",
                   help="do not run setup first")
    rxbench.add_bench_arguments(b)
    txbench.add_bench_arguments(b)

    rp = sub.add_parser("report", help="page-pool receive design: pieces "
                        "per frame, truesize and payload density per MTU "
                        "breakpoint, measured on the model")
    rp.add_argument("--no-setup", action="store_true",
                    help="do not run setup first")
    rxbench.add_report_arguments(rp)
    return p


def dispatch(argv):
    # `qemu` passes everything after it to the emulator untouched
    # (argparse would take `-device help` for its own options).
    rest = list(argv)
    debug = False
    while rest and rest[0] == "--debug":
        debug = True
        rest.pop(0)
    if rest and rest[0] == "qemu":
        return cmd_qemu(rest[1:]), debug

    args = build_parser().parse_args(argv)
    debug = args.debug
    if debug:
        os.environ["E1000EPP_DEBUG"] = "1"
    from . import setup, testrun
    if args.command == "setup":
        setup.run_setup(args.jobs, args.skip_guest, args.verbose)
        return 0, debug
    if args.command == "test":
        if not args.no_setup:
            setup.run_setup(args.jobs)
        return testrun.run_suites(args.suite, args.k), debug
    if args.command == "run":
        from . import runmatrix
        return runmatrix.run_command(
            args, lambda: None if args.no_setup else
            setup.run_setup(args.jobs)), debug
    if args.command == "merge":
        from . import runmatrix
        return runmatrix.merge(args), debug
    from . import rxbench, txbench
    if args.command == "bench":
        if not args.no_setup:
            setup.run_setup(skip_guest=True)
        rc = 0
        if args.only != "tx":
            rc = rxbench.bench(args) or rc
        if args.only != "rx":
            rc = txbench.bench(args) or rc
        return rc, debug
    if args.command == "report":
        if not args.no_setup:
            setup.run_setup(skip_guest=True)
        return rxbench.report(args), debug
    raise AssertionError(args.command)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    debug = "--debug" in argv[:1] or bool(os.environ.get("E1000EPP_DEBUG"))
    try:
        rc, debug = dispatch(argv)
        return rc
    except StepError as e:
        if debug:
            traceback.print_exc()
        sys.stdout.flush()
        print(e.render(), file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        if debug:
            traceback.print_exc()
        print("error: command failed: %s\n  why: exit status %s\n"
              "  what to do: run it by hand to see its output; --debug "
              "shows where it was called" %
              (" ".join(map(str, e.cmd)), e.returncode), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except OSError as e:
        if debug:
            traceback.print_exc()
        print("error: %s\n  why: %s\n  what to do: check the path and "
              "permissions; --debug shows the traceback"
              % (e.filename or "system call failed", e.strerror or e),
              file=sys.stderr)
        return 1
