# SPDX-License-Identifier: GPL-2.0-or-later
"""Command line of ./e1000e-pp.

Every command is one Command row in COMMANDS: its help line, a function that
declares its own arguments, the function that runs it, and the setup it
needs first.  dispatch() is the one place that runs that setup (unless
--no-setup) before the command; the commands themselves never call setup.

To add a command: write _NAME_args(p) and _do_NAME(args), add a row.  To add
flags to one command: extend its _NAME_args(p) only.
"""

import argparse
import collections
import os
import subprocess
import sys
import traceback

from e1000epp.common import argtypes, emulator, paths
from e1000epp.common.errors import StepError

# What a command needs set up before it runs.
SETUP_ALL = "all"            # the whole pipeline, guest image included
SETUP_NO_GUEST = "no-guest"  # everything but the guest image

Command = collections.namedtuple("Command",
                                 "name help add_args run setup")

K_HELP = ("only the tests whose full name contains TEXT (ignoring case), "
          "the same rule in every suite; names: unit 'core/<test>', qtest "
          "'/x86_64/<model>/<scenario>', cli and functional "
          "'test_<file>.py::<test>[<param>]'")


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error: `e1000e-pp test: error: ...`."""

    def error(self, message):
        self.exit(2, "%s: error: %s (see %s --help)\n"
                  % (self.prog, message, self.prog))


# -- the commands' arguments -------------------------------------------------

def _setup_args(p):
    p.add_argument("--jobs", "-j", type=argtypes.positive_int, metavar="N",
                   help="parallel build jobs (default: ninja's choice)")
    p.add_argument("--skip-guest", action="store_true",
                   help="do not build the guest image")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="echo the output of every external command")
    p.add_argument("--sanitized", action="store_true",
                   help="also build QEMU with AddressSanitizer and UBSan "
                   "in build/qemu-sanitized, for the qtest-sanitized suite "
                   "(about 12 minutes on 2 CPUs the first time)")
    p.add_argument("--fuzzing", action="store_true",
                   help="also build QEMU's libFuzzer targets with clang in "
                   "build/qemu-fuzz, for fuzz --whole-device")
    p.add_argument("--debug-kernel", action="store_true",
                   help="also build the sanitizing guest kernel (KASAN, "
                   "kmemleak, lockdep, DEBUG_NET) from Debian's 6.12 "
                   "source in build/debug-kernel, for run --debug-kernel")


def _select_arg(p):
    p.add_argument("-k", metavar="TEXT", type=argtypes.nonempty,
                   help=K_HELP)


def _test_args(p):
    from e1000epp.selftest import command as selftest_command
    p.add_argument("--suite", type=argtypes.name_list(
                       "suite", selftest_command.SUITE_NAMES),
                   default=list(selftest_command.DEFAULT_SUITES), metavar="LIST",
                   help="comma-separated subset of %s (default: %s; "
                   "qtest-sanitized runs the qtests against QEMU built "
                   "with AddressSanitizer and UBSan, set up the first time "
                   "it is asked for; unit-clang builds and runs the unit "
                   "tests with clang in build/native-clang)"
                   % (",".join(selftest_command.SUITE_NAMES),
                      ",".join(selftest_command.DEFAULT_SUITES)))
    _select_arg(p)
    p.set_defaults(before_setup=_test_before_setup)


def _test_before_setup(args):
    """The sanitized emulator is set up only for the suite that uses it."""
    args.sanitized = "qtest-sanitized" in args.suite
    return True


def _run_args(p):
    from e1000epp.matrix import command as matrix_command
    p.add_argument("--device", choices=["e1000e-pp", "e1000e"],
                   default="e1000e-pp",
                   help="device model under test (default: e1000e-pp)")
    p.add_argument("--report", metavar="DIR", type=argtypes.output_dir,
                   help="report directory (default: build/reports/<UTC "
                   "stamp>)")
    p.add_argument("-k", metavar="TEXT", type=argtypes.nonempty,
                   help="only the cells whose name contains TEXT "
                   "(ignoring case), the rule -k follows in every command")
    matrix_command.add_run_arguments(p)
    p.set_defaults(before_setup=matrix_command.before_setup)


def _merge_args(p):
    from e1000epp.matrix import command as matrix_command
    matrix_command.add_merge_arguments(p)


def _bench_args(p):
    from e1000epp.bench import insn as insn_bench
    from e1000epp.bench import rx as rx_bench
    from e1000epp.bench import tx as tx_bench
    p.add_argument("--only", choices=["rx", "tx"],
                   help="run just the receive or the transmit benchmark")
    insn_bench.add_bench_arguments(p)
    rx_bench.add_bench_arguments(p)
    tx_bench.add_bench_arguments(p)


def _fuzz_args(p):
    p.add_argument("--minutes", type=argtypes.positive_int, default=10,
                   metavar="N", help="how long to fuzz (default: 10)")
    p.add_argument("--keep-corpus", action="store_true",
                   help="merge the inputs that reach new coverage into "
                   "tests/fuzz/corpus (to commit)")
    p.add_argument("--minimize", metavar="FILE",
                   help="only minimise this crashing input into "
                   "tests/fuzz/regressions")
    p.add_argument("--stream", action="store_true",
                   help="fuzz hostile migration streams: the core fuzzer "
                   "with the state changed by the input on its way to the "
                   "loaded copy, which must refuse it or run it safely "
                   "(crashes into tests/fuzz/stream-regressions)")
    p.add_argument("--whole-device", action="store_true",
                   help="fuzz the device inside QEMU with QEMU's "
                   "generic-fuzz target (MMIO, PIO, config space, DMA; "
                   "built the first time it is asked for) instead of the "
                   "core alone")
    p.add_argument("--device", choices=["e1000e-pp", "e1000e"],
                   default="e1000e-pp",
                   help="with --whole-device: the model to fuzz (default: "
                   "e1000e-pp; e1000e is QEMU's own configuration of its "
                   "stock model)")
    p.set_defaults(before_setup=_fuzz_before_setup)


def _fuzz_before_setup(args):
    """QEMU's fuzzer is set up only for the runs that use it."""
    if args.device != "e1000e-pp" and not args.whole_device:
        raise StepError("--device without --whole-device",
                        "the core fuzzer has no device to choose",
                        "add --whole-device")
    if args.stream and args.whole_device:
        raise StepError("--stream with --whole-device",
                        "the hostile-stream target is the core fuzzer's",
                        "give one of them")
    args.fuzzing = args.whole_device
    return True


def _replay_args(p):
    from e1000epp.replay import command as replay_command
    replay_command.add_arguments(p)


def _do_replay(args):
    from e1000epp.replay import command as replay_command
    return replay_command.replay(args)


def _report_args(p):
    from e1000epp.bench import rx as rx_bench
    rx_bench.add_report_arguments(p)


# -- the commands ------------------------------------------------------------

def _do_setup(args):
    from e1000epp.setup import command as setup_command
    setup_command.run_setup(args.jobs, args.skip_guest, args.verbose,
                            sanitized=args.sanitized, fuzzing=args.fuzzing,
                            debug_kernel=args.debug_kernel)
    return 0


def _do_test(args):
    from e1000epp.selftest import command as selftest_command
    return selftest_command.run_suites(args.suite, args.k)


def _do_run(args):
    from e1000epp.matrix import command as matrix_command
    return matrix_command.run_command(args)


def _do_merge(args):
    from e1000epp.matrix import command as matrix_command
    return matrix_command.merge(args)


def _do_bench(args):
    from e1000epp.bench import insn as insn_bench
    from e1000epp.bench import rx as rx_bench
    from e1000epp.bench import tx as tx_bench
    if args.profile and not args.insn:
        print("error: --profile needs --insn", file=sys.stderr)
        return 2
    if args.insn:
        return insn_bench.bench(args)
    rc = 0
    if args.only != "tx":
        rc = rx_bench.bench(args) or rc
    if args.only != "rx":
        rc = tx_bench.bench(args) or rc
    return rc


def _do_fuzz(args):
    if args.whole_device:
        from e1000epp.fuzz import whole_device
        return whole_device.run(args.minutes, args.device, args.minimize,
                                args.keep_corpus)
    from e1000epp.fuzz import core as fuzz_core
    return fuzz_core.run(args.minutes, args.minimize, args.keep_corpus,
                         stream=args.stream)


def _do_report(args):
    from e1000epp.bench import rx as rx_bench
    return rx_bench.report(args)


def _race_args(p):
    from e1000epp.race import command as race_command
    race_command.add_arguments(p)


def _do_race(args):
    from e1000epp.race import command as race_command
    return race_command.run(args)


def _resume_args(p):
    from e1000epp.matrix import resume
    resume.add_arguments(p)


def _do_resume(args):
    from e1000epp.matrix import resume
    return resume.run(args)


def _soak_args(p):
    from e1000epp.soak import command as soak_command
    soak_command.add_arguments(p)


def _do_soak(args):
    from e1000epp.soak import command as soak_command
    return soak_command.run(args)


def _bugs_args(p):
    from e1000epp.bugs import command as bugs_command
    bugs_command.add_arguments(p)
    p.set_defaults(before_setup=bugs_command.before_setup)


def _do_bugs(args):
    from e1000epp.bugs import command as bugs_command
    return bugs_command.run(args)


def _mutate_args(p):
    from e1000epp.mutate import command as mutate_command
    mutate_command.add_arguments(p)


def _do_mutate(args):
    from e1000epp.mutate import command as mutate_command
    return mutate_command.run(args)


def _kselftest_args(p):
    from e1000epp.kselftest import command as kselftest_command
    kselftest_command.add_arguments(p)


def _do_kselftest(args):
    from e1000epp.kselftest import command as kselftest_command
    return kselftest_command.run(args)


def cmd_qemu(args):
    if not os.access(paths.QEMU_BIN, os.X_OK):
        print("error: the emulator is not built yet (%s)\n"
              "  what to do: run ./e1000e-pp setup"
              % os.path.relpath(paths.QEMU_BIN, paths.REPO), file=sys.stderr)
        return 1
    argv = emulator.qemu_cmd(args)
    sys.stdout.flush()
    os.execv(argv[0], argv)


def _no_args(p):
    pass


COMMANDS = [
    Command("setup", "install packages, fetch and build QEMU with the "
            "device, native build, guest image", _setup_args, _do_setup,
            None),
    Command("qemu", "run the built emulator with firmware paths set: "
            "./e1000e-pp qemu ARGS... (never sets up)", _no_args,
            lambda args: cmd_qemu([]), None),
    Command("test", "set up, then run the test suites", _test_args,
            _do_test, SETUP_ALL),
    Command("run", "the main job: set up, run the driver regression "
            "matrix, write a report", _run_args, _do_run, SETUP_ALL),
    Command("merge", "combine the reports of run --shard I/N into one",
            _merge_args, _do_merge, None),
    Command("bench", "Rx and Tx benchmarks: e1000e-pp against stock "
            "e1000e in the same run, and the core against a memcpy + CRC "
            "floor (numbers only)", _bench_args, _do_bench, SETUP_NO_GUEST),
    Command("report", "the page-pool series' published table measured on "
            "the model: pieces, truesize and density per MTU for the stock "
            "and page-pool designs, DMA calls per packet", _report_args,
            _do_report, SETUP_NO_GUEST),
    Command("race", "reset task against runtime suspend: every "
            "interleaving, which ones the device flags, the first as a "
            "step list", _race_args, _do_race, SETUP_NO_GUEST),
    Command("fuzz", "coverage-guided fuzzing of the device core for N "
            "minutes: new inputs are kept in build/fuzz/corpus, crashes "
            "are minimised into tests/fuzz/regressions", _fuzz_args,
            _do_fuzz, SETUP_NO_GUEST),
    Command("resume", "a failing cell's VM saved by run --keep-state, "
            "loaded where it failed (paused, with QMP, the monitor and a "
            "gdbstub); never sets up", _resume_args, _do_resume, None),
    Command("replay", "a cell recorded by run --record replayed "
            "instruction for instruction without the peer, checked against "
            "the recording (or stopped at --break with --gdb); never sets "
            "up", _replay_args, _do_replay, None),
    Command("soak", "one guest for N minutes: TCP both ways, pattern "
            "frames, link flaps, Tx-hang resets, runtime suspend, MTU "
            "changes in a seeded order; fails on loss, corruption, kernel "
            "warnings, counters or memory drifting", _soak_args, _do_soak,
            SETUP_ALL),
    Command("bugs", "the page-pool series' bug-class fixtures "
            "(examples/pagepool-e1000e/bugs), each through the matrix "
            "cells that target it: caught for its reason, the correct "
            "series passing the same cells", _bugs_args, _do_bugs,
            SETUP_ALL),
    Command("mutate", "mutants of the lines a driver patch adds or "
            "changes, built against the guest kernel's headers; equivalent "
            "ones (identical object) set aside; a report line by line "
            "(mutate merge: shards into one)", _mutate_args, _do_mutate,
            SETUP_ALL),
    Command("kselftest", "the kernel's own driver selftests (drivers/net, "
            "drivers/net/hw) in the guest against a second NIC on the wire "
            "in a network namespace; KTAP and JUnit in the report",
            _kselftest_args, _do_kselftest, SETUP_ALL),
]


def _setup_parent():
    """--no-setup and --jobs, shared by every command that sets up."""
    p = Parser(add_help=False)
    g = p.add_argument_group("setup first")
    g.add_argument("--no-setup", action="store_true",
                   help="do not run setup first (use what is built)")
    g.add_argument("--jobs", "-j", type=argtypes.positive_int, metavar="N",
                   help="parallel build jobs for the setup")
    return p


def build_parser():
    p = Parser(
        prog="e1000e-pp",
        description="Faithful Intel 82574L model for QEMU: build, test, run.")
    p.add_argument("--debug", action="store_true",
                   help="show Python tracebacks on errors")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    parent = _setup_parent()
    for c in COMMANDS:
        cp = sub.add_parser(c.name, help=c.help, description=c.help,
                            parents=[parent] if c.setup else [])
        c.add_args(cp)
        cp.set_defaults(run=c.run, setup=c.setup)
    return p


def dispatch(argv):
    """Parse argv, set up as the command needs, run it: (rc, debug)."""
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
    # A command may check its arguments before the (long) setup, and say
    # that this invocation needs none (run --list).
    before = getattr(args, "before_setup", None)
    needs_setup = before(args) if before else True
    if args.setup and not args.no_setup and needs_setup:
        from e1000epp.setup import command as setup_command
        setup_command.run_setup(args.jobs, skip_guest=args.setup == SETUP_NO_GUEST,
                                sanitized=getattr(args, "sanitized", False),
                                fuzzing=getattr(args, "fuzzing", False))
    return args.run(args), debug


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
