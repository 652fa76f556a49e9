# SPDX-License-Identifier: GPL-2.0-or-later
"""The compiled suites (unit, qtest) through `meson test`: meson runs the
test() programs of a suite side by side with their own timeouts and
parses their TAP; this reads its logs (<logbase>.junit.xml: one
testcase per TAP result; <logbase>.json: one line per test() with its
verdict) into the suite's counts.

What meson cannot say, added here:
  - a test() that skips everything, or skips because a device is missing
    from QEMU (DEVICE_MISSING), fails: such a skip means a broken build;
  - -k selects single tests by name in every suite: a GLib binary is
    listed (-l) and run with the other paths skipped (-s), one meson run
    per binary; the counts are those of the matching names.
"""

import json
import os
import shlex
import subprocess
import time
import xml.etree.ElementTree as ET

from e1000epp.common import paths
from e1000epp.selftest.results import selected, SuiteResult

# The qtest registration's skip when QEMU lacks a model: both models are
# in configs/e1000e-pp.mak, so such a skip means a broken build.
DEVICE_MISSING = "device not built into this QEMU binary"
# meson's verdicts of a test() that no failed TAP result may explain.
BROKEN = {"TIMEOUT": "killed at its timeout",
          "ERROR": "exited with an error", "FAIL": "failed",
          "INTERRUPT": "interrupted", "UNEXPECTEDPASS": "passed unexpectedly"}


def _rel(path):
    return os.path.relpath(path, paths.REPO) if os.path.isabs(path) else path


def _executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def meson_tests(build_dir, suite):
    """The test() entries of `suite` meson recorded in build_dir
    (meson-info/intro-tests.json); LookupError when there is none."""
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
        raise LookupError("no test() of suite %s in %s"
                          % (suite, _rel(build_dir)))
    return tests


def glib_paths(binary, env):
    """The test paths a GLib test binary lists (-l), None if it cannot."""
    try:
        proc = subprocess.run([binary, "-l"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True,
                              errors="replace", env=env,
                              stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode:
        return None
    return [ln.strip() for ln in proc.stdout.splitlines()
            if ln.startswith("/")]


def _test_name(logged):
    """A test()'s name as meson.build gives it: meson logs it as
    "project:suite / name" where names alone would be ambiguous."""
    return logged.split(" / ")[-1]


def read_junit(path):
    """{test(): [(TAP name, outcome, skip reason)]} from meson's junit log
    (a suite "project.test" per test() with TAP results); outcome is
    passed, failed or skipped."""
    out = {}
    root = ET.parse(path).getroot()
    for suite in root.iter("testsuite"):
        if "." not in suite.get("name", ""):
            # the project's own suite: one testcase per test() that gave
            # no TAP result at all (meson's verdict is its only result)
            for tc in suite.iter("testcase"):
                out.setdefault(_test_name(tc.get("name", "")), [])
            continue
        name = _test_name(suite.get("name").split(".", 1)[1])
        cases = out.setdefault(name, [])
        for tc in suite.iter("testcase"):
            tap = tc.get("name", "").split(" ", 1)
            tap = tap[1] if len(tap) > 1 and tap[0].isdigit() else tap[0]
            outcome, reason = "passed", ""
            for child in tc:
                if child.tag in ("failure", "error"):
                    outcome = "failed"
                elif child.tag == "skipped":
                    outcome = "skipped"
                elif child.tag == "system-out":
                    reason = (child.text or "").strip()
            cases.append((tap, outcome, reason if outcome == "skipped"
                          else ""))
    return out


def read_verdicts(path):
    """{test(): (meson's verdict, seconds, last output line)}."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                t = json.loads(line)
                last = (t.get("stdout") or "").strip().splitlines()[-1:]
                out[_test_name(t["name"])] = (t.get("result", "?"),
                                  t.get("duration", 0.0),
                                  last[0] if last else "no output")
    return out


def count(res, cases, verdicts, k=None, prefixed=True, fatal_skip=None):
    """Add the TAP results of each test() to res, and one failure for each
    problem no failed result accounts for."""
    for name in sorted(set(cases) | set(verdicts)):
        chosen = [c for c in cases.get(name, [])
                  if selected(name + "/" + c[0] if prefixed else c[0], k)]
        failed = sum(c[1] == "failed" for c in chosen)
        skipped = [c for c in chosen if c[1] == "skipped"]
        res.passed += sum(c[1] == "passed" for c in chosen)
        res.failed += failed
        res.skipped += len(skipped)
        why = []
        verdict, _, last = verdicts.get(name, ("?", 0, ""))
        if verdict in BROKEN:
            why.append("%s (%s; last output: %s)"
                       % (BROKEN[verdict], verdict, last[:100]))
        if not cases.get(name) and not k:
            why.append("ran no test")
        elif chosen and len(skipped) == len(chosen):
            why.append("all %d test(s) skipped" % len(skipped))
        fatal = [c[0] for c in skipped if fatal_skip and fatal_skip in c[2]]
        if fatal:
            why.append("%d skipped as %s (%s%s)" % (
                len(fatal), fatal_skip, fatal[0],
                ", ..." if len(fatal) > 1 else ""))
        # a failed result outside -k explains an exit status, not a timeout
        explained = failed or (verdict != "TIMEOUT" and any(
            c[1] == "failed" for c in cases.get(name, [])))
        if why and not explained:
            res.fail("%s: %s" % (name, ", ".join(why)))
        elif why:
            res.notes.append("%s: %s" % (name, ", ".join(why)))


def _meson_test(build_dir, suite, logbase, workers, names=(),
                test_args=(), wrapper_env=None, env=None):
    cmd = ["meson", "test", "-C", build_dir, "--no-rebuild",
           "--print-errorlogs", "--logbase", logbase,
           "--num-processes", str(workers)]
    if names:
        cmd += list(names)
    else:
        cmd += ["--suite", suite]
    if test_args:
        cmd += ["--test-args", " ".join(shlex.quote(a) for a in test_args)]
    if wrapper_env:
        cmd += ["--wrapper", " ".join(
            ["env"] + ["%s=%s" % kv for kv in sorted(wrapper_env.items())])]
    print("==== %s ====" % " ".join(
        _rel(c) if c == build_dir else c for c in cmd[:10]) + " ...",
        flush=True)
    subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL)
    # meson names the logs of a wrapped run after the wrapper too
    logs = os.path.join(build_dir, "meson-logs",
                        logbase + ("-env" if wrapper_env else ""))
    return logs + ".junit.xml", logs + ".json"


def run_meson_suite(name, build_dir, suite, k=None, glib=False, workers=1,
                    wrapper_env=None):
    """Every test() of `suite` in build_dir through `meson test`, `workers`
    at a time.  A result's full name is '<test()>/<TAP name>', or with
    glib the GLib path alone; -k selects on that name.  wrapper_env is
    set over each test()'s own environment (a test() that names its QEMU
    runs another one, the sanitized build)."""
    res = SuiteResult(name)
    start = time.monotonic()
    try:
        tests = meson_tests(build_dir, suite)
    except LookupError as e:
        res.fail(str(e))
        return res
    env = dict(os.environ, G_TEST_DBUS_DAEMON="")
    env["PYTHONPATH"] = os.path.join(paths.REPO, "scripts")
    runs, runnable = [], []
    for t in tests:
        qemu = (wrapper_env or {}).get("QTEST_QEMU_BINARY") or \
            (t.get("env") or {}).get("QTEST_QEMU_BINARY")
        missing = [p for p in (t["cmd"][0], qemu)
                   if p and not _executable(p)]
        if missing:
            res.fail("%s: %s is not built: run ./e1000e-pp setup%s" % (
                t["name"], _rel(missing[0]),
                " --sanitized" if missing[0] == paths.QEMU_SANITIZED_BIN
                else ""))
            continue
        runnable.append(t)
    logbase = "e1000e-pp-" + name
    if glib and k:
        for t in runnable:
            listed = glib_paths(t["cmd"][0], dict(env, **(t.get("env") or {})))
            if listed is None:
                res.fail("%s: -l (list the tests) failed" % t["name"])
                continue
            # The paths -k leaves out are skipped by name (-s): GLib
            # prints one TAP plan for a run of several -p paths each,
            # which meson's parser refuses, but one plan with -s.
            if any(selected(p, k) for p in listed):
                runs.append(([t["name"]],
                             [a for p in listed if not selected(p, k)
                              for a in ("-s", p)]))
    elif runnable:
        names = [t["name"] for t in runnable] \
            if len(runnable) < len(tests) else []
        runs.append((names, []))
    for i, (names, test_args) in enumerate(runs):
        base = logbase if len(runs) == 1 else "%s-%d" % (logbase, i)
        junit, verdicts = _meson_test(build_dir, suite, base, workers,
                                      names, test_args, wrapper_env, env)
        try:
            count(res, read_junit(junit), read_verdicts(verdicts), k,
                  prefixed=not glib,
                  fatal_skip=DEVICE_MISSING if glib else None)
        except (OSError, ValueError, ET.ParseError) as e:
            res.fail("meson test wrote no readable log (%s)" % e)
    res.seconds = time.monotonic() - start
    if res.failed:
        res.notes.append("logs: %s/meson-logs/%s*" % (_rel(build_dir),
                                                      logbase))
    return res
