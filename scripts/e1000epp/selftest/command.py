# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp test`: every suite, one table, one "N passed, N failed".

The compiled suites go to `meson test` (meson_suite.py), the Python ones
to pytest (pytest_suite.py).  What is left here is what neither runner
does: the suites in one run with one summary, a suite that ran nothing
failing, and -k that must match something somewhere.
"""

import os
import shutil

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.common.progress import Reporter
from e1000epp.selftest.meson_suite import run_meson_suite
from e1000epp.selftest.pytest_suite import CLI_DIR, REPLAY_DIR, run_pytest
from e1000epp.selftest.results import SuiteResult, table

LAST_TEST = os.path.join(paths.REPORTS_DIR, "last-test")
# Wall-time limits of the pytest suites; a compiled test() has the timeout
# its meson.build gives it.
PYTEST_LIMITS = {"cli": 600, "functional": 7200, "replay": 7200}
# qtest programs at a time per host CPU: a qtest binary and its QEMU wait
# on each other's replies most of the time, so more than one a CPU pays.
QTEST_WORKERS_PER_CPU = 3
# A sanitizer's first report ends QEMU (abort: the qtest sees it die and
# fails with the report in its output). Leaks are not checked: QEMU frees
# little at exit by design.
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}


def _cpus():
    return os.cpu_count() or 1


def run_unit(k=None):
    """tests/unit's test()s in build/native (core, fuzz, checks)."""
    return run_meson_suite("unit", paths.NATIVE_DIR, "unit", k,
                           workers=_cpus())


def run_unit_clang(k=None):
    """tests/unit's test()s built with clang in build/native-clang (QEMU
    builds with either compiler; the core must too). Built here, when
    asked for: setup does not."""
    from e1000epp.setup import native_build
    try:
        native_build.build(Reporter("unit-clang"),
                           build_dir=paths.NATIVE_CLANG_DIR, cc="clang")
    except StepError as e:
        res = SuiteResult("unit-clang")
        res.fail("clang build failed: %s (%s)" % (e.why, e.log or
                                                  "build/logs"))
        return res
    return run_meson_suite("unit-clang", paths.NATIVE_CLANG_DIR, "unit", k,
                           workers=_cpus())


def run_qtest(k=None):
    """tests/qtest's test()s (suite e1000e-pp) in build/qemu."""
    return run_meson_suite("qtest", paths.QEMU_BUILD, "e1000e-pp", k,
                           glib=True, workers=QTEST_WORKERS_PER_CPU * _cpus())


def run_qtest_sanitized(k=None):
    """The same qtest programs against build/qemu-sanitized's QEMU
    (AddressSanitizer and UBSan). Sanitized, QEMU is CPU-bound: one
    program per CPU."""
    env = dict(SANITIZER_ENV, QTEST_QEMU_BINARY=paths.QEMU_SANITIZED_BIN)
    return run_meson_suite("qtest-sanitized", paths.QEMU_BUILD, "e1000e-pp",
                           k, glib=True, workers=_cpus(), wrapper_env=env)


def run_cli(k=None):
    """The CLI's own tests (tests/cli); no build and no VM needed.  Its
    files run side by side, one per CPU (meson projects and Chromium
    pages wait on their own processes)."""
    res, _ = run_pytest(os.path.join(LAST_TEST, "cli-junit.xml"), k,
                        name="cli", test_dir=CLI_DIR, workers=_cpus(),
                        limit=PYTEST_LIMITS["cli"])
    return res


# VM test workers: two per host CPU. The guests wait on timers, the peer
# and the agent much of the time (three of them on 2 CPUs keep a load of
# about 1.6; four make each file ~7% slower). tests/functional/conftest.py
# schedules one unit per VM, longest first.
def functional_workers():
    return 2 * _cpus()


def run_functional(k=None):
    """Functional suite of `test`; its logs land in build/reports/last-test.
    What its tests need from Debian's archive is fetched first, outside
    the suite's time (test_data.py)."""
    from e1000epp.selftest import test_data
    note = test_data.prepare_functional(k, lambda line: print(line,
                                                              flush=True))
    res, _ = run_pytest(os.path.join(LAST_TEST, "junit.xml"), k,
                        {"E1000EPP_REPORT_DIR": LAST_TEST},
                        workers=functional_workers(),
                        limit=PYTEST_LIMITS["functional"])
    if note:
        res.notes.append(note)
    if res.failed:
        res.notes.append("logs: build/reports/last-test")
    return res


def run_replay(k=None):
    """The longer record/replay checks (tests/replay): one VM at a time,
    each replay several minutes (docs/usage/replay.md)."""
    res, _ = run_pytest(os.path.join(LAST_TEST, "replay-junit.xml"), k,
                        {"E1000EPP_REPORT_DIR":
                         os.path.join(LAST_TEST, "replay")},
                        name="replay", test_dir=REPLAY_DIR,
                        limit=PYTEST_LIMITS["replay"])
    return res


SUITES = {"cli": run_cli, "unit": run_unit, "qtest": run_qtest,
          "functional": run_functional,
          "qtest-sanitized": run_qtest_sanitized,
          "unit-clang": run_unit_clang, "replay": run_replay}
SUITE_NAMES = list(SUITES)
# What `test` runs without --suite: the sanitized qtests need their own
# QEMU build (setup --sanitized) and the clang unit suite its own native
# build, so they run when asked for (CI asks for both).
DEFAULT_SUITES = ["cli", "unit", "qtest", "functional"]


def run_suites(names, k=None):
    """Run the suites, print the table and the totals; exit status.
    A suite that ran no test fails, unless -k deselected all of it (then
    -k must select something in at least one suite)."""
    shutil.rmtree(LAST_TEST, ignore_errors=True)
    os.makedirs(LAST_TEST)
    results, empty = [], []
    for name in names:
        r = SUITES[name](k)
        if r.total() == r.broken:
            empty.append(name)
        if r.total() == 0:
            if k:
                r.notes.append("no test matches -k %s" % k)
            else:
                r.fail("ran no test")
        results.append(r)
    headers = ["suite", "passed", "failed", "skipped", "seconds", "note"]
    print()
    print(table(headers, [r.row() for r in results]))
    passed = sum(r.passed for r in results)
    failed = sum(r.failed for r in results)
    if empty:
        print("no tests ran in: %s" % ", ".join(empty))
    if k and not any(r.total() for r in results):
        print("error: no test in %s matches -k %s" % (",".join(names), k))
        failed = max(failed, 1)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0
