# SPDX-License-Identifier: GPL-2.0-or-later
"""`test` and `run`: the test suites, their counts, the summary table."""

import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

from . import native_build, paths, tap
from .progress import Reporter, StepError
# xdist_usable is looked up here, so that a test can replace it.
from .pytestfiles import (CLI_DIR, FUNCTIONAL_DIR, _pytest, parse_junit,
                          pytest_files, pytest_ids, xdist_usable)

# Wall-time limits.  A test binary gets the timeout its meson test()
# declares (BINARY_TIMEOUT if none); a suite stops starting binaries, and
# cuts the running one short, at its own limit.  A binary that is killed
# fails its suite with its last output shown.
BINARY_TIMEOUT = 300
SUITE_TIMEOUTS = {"cli": 600, "unit": 900, "qtest": 3600,
                  "functional": 7200, "qtest-sanitized": 3600}
LAST_LINES = 15


class SuiteResult:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.seconds = 0.0
        self.notes = []
        self.broken = 0     # failures no test reported (see fail())

    @property
    def note(self):
        return "; ".join(self.notes)

    def total(self):
        return self.passed + self.failed + self.skipped

    def fail(self, why):
        """Count one failure that no test reported (missing binary, crash,
        incomplete TAP, empty suite), with its reason in the note."""
        self.failed += 1
        self.broken += 1
        self.notes.append(why)

    def row(self):
        return [self.name, str(self.passed), str(self.failed),
                str(self.skipped), "%.1f" % self.seconds, self.note]


def table(headers, rows):
    widths = [max(len(str(r[i])) for r in [headers] + rows)
              for i in range(len(headers))]
    out = []
    for r in [headers] + rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths))
                   .rstrip())
        if r is headers:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


# Programs of a suite may run side by side: their lines go out whole.
_OUT = threading.Lock()


def _banner(text):
    with _OUT:
        print("==== %s ====" % text, flush=True)


def _env():
    env = dict(os.environ)
    scripts = os.path.join(paths.REPO, "scripts")
    env["PYTHONPATH"] = scripts + (":" + env["PYTHONPATH"]
                                   if env.get("PYTHONPATH") else "")
    return env


def _rel(path):
    return os.path.relpath(path, paths.REPO) if os.path.isabs(path) else path


def selected(name, k):
    """-k for every suite: the test's full name contains k, ignoring case."""
    return k is None or k.lower() in name.lower()


def _not_built(path):
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return None
    return "%s is not built: run ./e1000e-pp setup%s" % (
        _rel(path), " --sanitized" if path == paths.QEMU_SANITIZED_BIN
        else "")


# -- TAP programs (unit, qtest) ----------------------------------------------

class Watchdog:
    """Kill a process group when its time is up (threading.Timer)."""

    def __init__(self, proc, seconds):
        self.proc = proc
        self.expired = False
        self.timer = None
        if seconds is not None:
            self.timer = threading.Timer(max(seconds, 0), self._kill)
            self.timer.daemon = True
            self.timer.start()

    def _kill(self):
        self.expired = True
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass

    def cancel(self):
        if self.timer:
            self.timer.cancel()


def _show_last(label, last):
    with _OUT:
        print("# last output of %s before it was killed:" % label)
        for line in last or ["(no output)"]:
            print("#   " + line.rstrip("\n"))
        sys.stdout.flush()


def _shown(cmd):
    """cmd for a banner: its -p PATH selection as a count of paths."""
    paths_ = cmd[cmd.index("-p"):] if "-p" in cmd else []
    shown = [_rel(a) for a in cmd[:len(cmd) - len(paths_)]]
    if len(paths_) > 4:
        shown.append("-p ... (%d paths)" % (len(paths_) // 2))
    else:
        shown += paths_
    return " ".join(shown)


def run_tap(res, label, cmd, env, cwd=None, prefix="", k=None,
            timeout=None, fatal_skip=None):
    """Run one TAP-speaking program, echo its output, add its results to
    `res`.  A result counts when prefix + its name is selected by k.  One
    failure more, when no failed test accounts for it: a plan not met, a
    bail-out, no test at all (without -k), every test skipped (a missing
    device skips them all), a non-zero exit, or running past `timeout`
    seconds (the program and its children are killed, its last lines
    shown); with fatal_skip, a test skipped for a reason containing it
    (a device missing from QEMU) fails the program too."""
    _banner("%s: %s" % (res.name, _shown(cmd)))
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                errors="replace", env=env, cwd=cwd,
                                stdin=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as e:
        res.fail("%s: cannot run %s: %s" % (label, _rel(cmd[0]),
                                             e.strerror or e))
        return
    dog = Watchdog(proc, timeout)
    last = collections.deque(maxlen=LAST_LINES)
    report = tap.Report()
    for line in proc.stdout:
        last.append(line)
        r = report.feed(line)
        if r is None or selected(prefix + r.name, k):
            with _OUT:
                sys.stdout.write(line)
                sys.stdout.flush()
    rc = proc.wait()
    dog.cancel()
    chosen = [r for r in report.results if selected(prefix + r.name, k)]
    passed, failed, skipped = report.counts(chosen)
    failed += report.missing()
    res.passed += passed
    res.skipped += skipped
    res.failed += failed
    if dog.expired:
        _show_last(label, list(last))
        tail = last[-1].strip() if last else "no output"
        res.fail("%s: killed after its %d s limit (last output: %s)"
                 % (label, timeout, tail[:120]))
        return
    why = report.problems()
    if not report.results and not k:
        why.append("ran no test" + (" (skip all: %s)" % report.skip_all
                                    if report.skip_all else ""))
    elif chosen and skipped == len(chosen):
        why.append("all %d test(s) skipped" % skipped)
    fatal = [r.name for r in chosen if fatal_skip and
             r.directive == "SKIP" and fatal_skip in r.reason]
    if fatal:
        why.append("%d skipped as %s (%s%s)" % (
            len(fatal), fatal_skip, fatal[0],
            ", ..." if len(fatal) > 1 else ""))
    if rc < 0 or (rc and not failed):   # a failed test explains status 1
        why.append("exited with %s" % ("signal %d" % -rc if rc < 0
                                       else "status %d" % rc))
        others = [r.name for r in report.results
                  if not r.ok and not r.directive and r not in chosen]
        if others:
            why[-1] += " (failed outside -k: %s)" % ", ".join(others[:3])
    if why and not failed:
        res.fail("%s: %s" % (label, ", ".join(why)))
    elif why:
        res.notes.append("%s: %s" % (label, ", ".join(why)))


# -- meson test() programs (unit, qtest) ------------------------------------

def meson_tests(build_dir, suite):
    """The test() entries meson recorded in build_dir whose suite is
    `suite` ([{"name", "cmd", "env", "workdir", ...}] from
    meson-info/intro-tests.json, as `meson introspect --tests` shows them);
    raise LookupError when there is none."""
    info = os.path.join(build_dir, "meson-info", "intro-tests.json")
    try:
        with open(info) as f:
            tests = json.load(f)
    except OSError:
        raise LookupError("%s is not set up: run ./e1000e-pp setup"
                          % _rel(build_dir))
    except ValueError:
        raise LookupError("%s is unreadable: run ./e1000e-pp setup"
                          % _rel(info))
    tests = [t for t in tests
             if suite in (s.split(":")[-1] for s in t.get("suite", []))]
    if not tests:
        raise LookupError("no test() of suite %s in %s" % (suite,
                                                            _rel(build_dir)))
    return tests


def glib_paths(binary, env):
    """The test paths a GLib test binary lists (`-l`), None if it fails."""
    proc = subprocess.run([binary, "-l"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True,
                          errors="replace", env=env,
                          stdin=subprocess.DEVNULL)
    if proc.returncode:
        return None
    return [ln.strip() for ln in proc.stdout.splitlines()
            if ln.startswith("/")]


def glib_select(binary, env, k):
    """-p arguments that run the paths containing k; [] if none does, None
    if the binary cannot list its paths."""
    listed = glib_paths(binary, env)
    if listed is None:
        return None
    chosen = [p for p in listed if selected(p, k)]
    # -p runs a path and everything below it: name each once
    chosen = [p for p in chosen
              if not any(p.startswith(q + "/") for q in chosen)]
    return [a for p in chosen for a in ("-p", p)]


# The qtest registration's skip when QEMU lacks a model: both models are
# in configs/e1000e-pp.mak, so such a skip means a broken build.
DEVICE_MISSING = "device not built into this QEMU binary"


# A GLib binary with more selected paths than this runs as several
# processes (every n-th path each), so that the suite's workers share it.
SHARD_PATHS = 60
# qtest programs at a time per host CPU: a qtest binary and its QEMU wait
# on each other's replies most of the time, so more than one a CPU pays
# (640 qtests on 2 CPUs: 153 s one at a time, 82 s with 2, 50 s with 6).
QTEST_WORKERS_PER_CPU = 3


def _shards(args, workers):
    """-p argument lists that split the selection `args` (["-p", path,
    ...]) into about SHARD_PATHS paths each, one list when it is small or
    there is one worker."""
    chosen = args[1::2]
    n = min(len(chosen) // SHARD_PATHS + (len(chosen) % SHARD_PATHS > 0),
            workers * 4) if workers > 1 else 1
    if n <= 1:
        return [args]
    return [[a for p in chosen[i::n] for a in ("-p", p)] for i in range(n)]


class _Job:
    """One program of a suite: a meson test() or a share of its paths."""

    def __init__(self, label, cmd, env, cwd, prefix, timeout, weight):
        self.label, self.cmd, self.env, self.cwd = label, cmd, env, cwd
        self.prefix, self.timeout, self.weight = prefix, timeout, weight
        self.res = None


def _run_jobs(res, jobs, workers, k, start, limit, fatal_skip):
    """Run the jobs, `workers` at a time, the biggest first; each counts
    into its own result, merged into res in the jobs' order so that the
    notes read the same whatever finished first.  A job not started
    before the suite's limit fails with that reason; a started one gets
    what is left of it as its timeout."""
    queue = sorted((j for j in jobs if j.res is None),
                   key=lambda j: -j.weight)
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                job = queue.pop(0)
            job.res = SuiteResult(res.name)
            left = limit - (time.monotonic() - start) if limit else None
            if left is not None and left < 1:
                job.res.fail("%s: not run, the %s suite reached its %d s "
                             "limit" % (job.label, res.name, limit))
                continue
            timeout = job.timeout
            if left is not None and left < timeout:
                timeout = max(1, round(left))
            run_tap(job.res, job.label, job.cmd, job.env, cwd=job.cwd,
                    prefix=job.prefix, k=k, timeout=timeout,
                    fatal_skip=fatal_skip)

    threads = [threading.Thread(target=worker, daemon=True)
               for _ in range(max(1, min(workers, len(queue))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for job in jobs:
        r = job.res
        res.passed += r.passed
        res.failed += r.failed
        res.skipped += r.skipped
        res.broken += r.broken
        res.notes.extend(r.notes)


def run_meson_suite(name, build_dir, suite, k=None, glib=False, workers=1,
                    env_extra=None):
    """Every test() of `suite` in build_dir, run directly (its cmd, env and
    workdir as meson recorded them, env_extra over that env) and read as
    TAP, `workers` programs at a time.  A result's full name is
    '<meson test>/<TAP name>', or with glib the GLib path alone, which is
    also how -k selects there (-l, then -p PATH); with more than one
    worker a GLib binary of many paths is split into several runs of a
    share of them each (-p)."""
    res = SuiteResult(name)
    try:
        tests = meson_tests(build_dir, suite)
    except LookupError as e:
        res.fail(str(e))
        return res
    start = time.monotonic()
    jobs = []
    for t in tests:
        timeout = t.get("timeout") or BINARY_TIMEOUT
        env = _env()
        env.update(t.get("env") or {})
        env.update(env_extra or {})
        if glib:
            env.setdefault("G_TEST_DBUS_DAEMON", "")
        cmd = list(t["cmd"])
        missing = [m for m in (_not_built(cmd[0]),
                               env.get("QTEST_QEMU_BINARY") and
                               _not_built(env["QTEST_QEMU_BINARY"])) if m]
        if missing:
            jobs.append(_Job(t["name"], None, None, None, "", 0, 0))
            jobs[-1].res = SuiteResult(name)
            jobs[-1].res.fail("%s: %s" % (t["name"], missing[0]))
            continue
        shares, weight = [[]], 0
        if glib and (k or workers > 1):
            chosen = glib_select(cmd[0], env, k)
            if chosen is None and k:
                jobs.append(_Job(t["name"], None, None, None, "", 0, 0))
                jobs[-1].res = SuiteResult(name)
                jobs[-1].res.fail("%s: -l (list the tests) failed"
                                  % t["name"])
                continue
            if chosen == [] and k:
                continue
            if chosen:
                weight = len(chosen) // 2
                shares = _shards(chosen, workers)
                if not k and len(shares) == 1:
                    shares = [[]]       # all of it: no -p needed
        for i, share in enumerate(shares):
            label = t["name"] if len(shares) == 1 else "%s [%d/%d]" % (
                t["name"], i + 1, len(shares))
            jobs.append(_Job(label, cmd + share, env,
                             t.get("workdir") or build_dir,
                             "" if glib else t["name"] + "/", timeout,
                             len(share) // 2 or weight))
    _run_jobs(res, jobs, workers, k, start, SUITE_TIMEOUTS.get(name),
              DEVICE_MISSING if glib else None)
    res.seconds = time.monotonic() - start
    return res


def run_unit(k=None):
    """tests/unit's test()s in build/native (core-test, fuzz-test)."""
    return run_meson_suite("unit", paths.NATIVE_DIR, "unit", k)


def run_unit_clang(k=None):
    """tests/unit's test()s built with clang in build/native-clang (QEMU
    builds with either compiler; the core must too). Built here, when
    asked for: setup does not."""
    res = SuiteResult("unit-clang")
    start = time.monotonic()
    try:
        native_build.build(Reporter("unit-clang"),
                           build_dir=paths.NATIVE_CLANG_DIR, cc="clang")
    except StepError as e:
        res.fail("clang build failed: %s (%s)" % (e.why, e.log or
                                                   "build/logs"))
        res.seconds = time.monotonic() - start
        return res
    res = run_meson_suite("unit-clang", paths.NATIVE_CLANG_DIR, "unit", k)
    res.seconds = time.monotonic() - start
    return res


def run_qtest(k=None):
    """tests/qtest's test()s (suite e1000e-pp) in build/qemu."""
    workers = QTEST_WORKERS_PER_CPU * (os.cpu_count() or 1)
    return run_meson_suite("qtest", paths.QEMU_BUILD, "e1000e-pp", k,
                           glib=True, workers=workers)


# A sanitizer's first report ends QEMU (abort: the qtest sees it die and
# fails with the report in its output). Leaks are not checked: QEMU frees
# little at exit by design.
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}


def run_qtest_sanitized(k=None):
    """The same qtest programs against build/qemu-sanitized's QEMU
    (AddressSanitizer and UBSan). Sanitized, QEMU is CPU-bound: one
    program per CPU."""
    env = dict(SANITIZER_ENV, QTEST_QEMU_BINARY=paths.QEMU_SANITIZED_BIN)
    return run_meson_suite("qtest-sanitized", paths.QEMU_BUILD, "e1000e-pp",
                           k, glib=True, workers=os.cpu_count() or 1,
                           env_extra=env)


# -- pytest suites (cli, functional) -----------------------------------------

def run_pytest(junit, k=None, env_extra=None, name="functional",
               test_dir=FUNCTIONAL_DIR, workers=1):
    """Run pytest on test_dir, return (SuiteResult, cases).  With -k, the
    node ids whose name below test_dir ('test_x.py::test_y[param]')
    contains k.  With workers > 1, that many pytest-xdist processes share
    the test files (a file's tests stay together, its VM being a module
    fixture, unless the directory's conftest.py schedules otherwise)."""
    res = SuiteResult(name)
    where = _rel(test_dir)
    if not pytest_files(test_dir):
        res.fail("no test files in %s" % where)
        return res, []
    env = _env()
    env.update(env_extra or {})
    args = ["."]
    if k:
        try:
            args = [i for i in pytest_ids(test_dir, env) if selected(i, k)]
        except LookupError as e:
            res.fail(str(e))
            return res, []
        if not args:
            return res, []
    junit = os.path.abspath(junit)
    os.makedirs(os.path.dirname(junit), exist_ok=True)
    extra = []
    if workers > 1 and xdist_usable():
        extra = ["-n", str(workers), "--dist", "loadfile"]
    elif workers > 1:
        res.notes.append("python3-pytest-xdist is missing (run "
                         "./e1000e-pp setup): one test file at a time")
    cmd = _pytest(test_dir, ["-v", "--junitxml=%s" % junit] + extra + args)
    _banner("%s: pytest %s" % (name, where))
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, cwd=test_dir,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    limit = SUITE_TIMEOUTS.get(name)
    dog = Watchdog(proc, limit)
    rc = proc.wait()
    dog.cancel()
    res.seconds = time.monotonic() - start
    if dog.expired:
        res.fail("pytest killed after the %s suite's %d s limit (its "
                 "output is above)" % (name, limit))
    cases = []
    if os.path.exists(junit):
        try:
            cases = parse_junit(junit)
        except ValueError:
            res.notes.append("unreadable junit xml")
    for _, outcome, _, _ in cases:
        setattr(res, outcome, getattr(res, outcome) + 1)
    if res.skipped and res.skipped == res.total():
        res.fail("all %d test(s) skipped" % res.skipped)
    elif rc == 5:
        res.fail("pytest collected no tests (exit 5) although %s has "
                 "test files" % where)
    elif rc != 0 and res.failed == 0:
        res.fail("pytest exited with status %d" % rc)
    return res, cases


LAST_TEST = os.path.join(paths.REPORTS_DIR, "last-test")


# VM test workers: two per host CPU. The guests wait on timers, the peer
# and the agent much of the time (three of them on 2 CPUs keep a load of
# about 1.6; four make each file ~7% slower): on 2 CPUs, 110 tests in
# ~205 s with 4, ~240 s with 3, ~350 s with 2 and ~595 s one file at a
# time (bzImage boots). tests/functional/conftest.py schedules one unit
# per VM, longest first; with PVH boots the suite takes ~150 s, bound by
# the CPUs (~250 CPU-seconds). --dist loadfile is what a run without
# that conftest would use.
def functional_workers():
    return 2 * (os.cpu_count() or 1)


def run_cli(k=None):
    """The CLI's own tests (tests/cli: parsing, TAP reader, runner); no
    build and no VM needed."""
    res, _ = run_pytest(os.path.join(LAST_TEST, "cli-junit.xml"), k,
                        name="cli", test_dir=CLI_DIR)
    return res


def run_functional(k=None):
    """Functional suite of `test`; its logs land in build/reports/last-test.
    What its tests need from Debian's archive is fetched first, outside
    the suite's time (testdata.py)."""
    from . import testdata
    note = testdata.prepare_functional(k, lambda line: print(line,
                                                             flush=True))
    res, _ = run_pytest(os.path.join(LAST_TEST, "junit.xml"), k,
                        {"E1000EPP_REPORT_DIR": LAST_TEST},
                        workers=functional_workers())
    if note:
        res.notes.append(note)
    if res.failed:
        res.notes.append("logs: build/reports/last-test")
    return res


SUITES = {"cli": run_cli, "unit": run_unit, "qtest": run_qtest,
          "functional": run_functional,
          "qtest-sanitized": run_qtest_sanitized,
          "unit-clang": run_unit_clang}
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
