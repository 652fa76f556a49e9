# SPDX-License-Identifier: GPL-2.0-or-later
"""The pytest suites (cli, functional): their files and node ids, one
pytest run (side by side with pytest-xdist where asked), its junit
results read into the suite's counts."""

import glob
import os
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

from e1000epp.common import paths
from e1000epp.selftest.results import selected, SuiteResult
PYTHON = "/usr/bin/python3"
FUNCTIONAL_DIR = os.path.join(paths.REPO, "tests", "functional")
CLI_DIR = os.path.join(paths.REPO, "tests", "cli")
REPLAY_DIR = os.path.join(paths.REPO, "tests", "replay")


def pytest_files(test_dir):
    if not os.path.isdir(test_dir):
        return []
    return sorted(glob.glob(os.path.join(test_dir, "**", "test_*.py"),
                            recursive=True) +
                  glob.glob(os.path.join(test_dir, "**", "*_test.py"),
                            recursive=True))


def _pytest(test_dir, args):
    """pytest run in test_dir with test_dir as its rootdir: node ids (the
    names -k matches) are 'test_<file>.py::<test>[<param>]'."""
    return [PYTHON, "-m", "pytest", "--rootdir=%s" % test_dir,
            "-p", "no:cacheprovider"] + args


def pytest_ids(test_dir, env):
    """Node ids pytest collects in test_dir, or raise LookupError."""
    proc = subprocess.run(_pytest(test_dir, ["--collect-only", "-q"]),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace", env=env,
                          cwd=test_dir, stdin=subprocess.DEVNULL)
    if proc.returncode not in (0, 5):
        raise LookupError("pytest could not collect %s (exit %d): %s"
                          % (os.path.relpath(test_dir, paths.REPO), proc.returncode,
                             (proc.stdout.strip().splitlines()
                              or ["no output"])[-1]))
    return [ln.strip() for ln in proc.stdout.splitlines() if "::" in ln]


def parse_junit(path):
    """[(name, outcome, seconds, message)] from a pytest junit xml;
    ValueError when it is not XML."""
    cases = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise ValueError(f"{path}: {e}")
    for tc in root.iter("testcase"):
        name = tc.get("name", "?")
        cls = tc.get("classname", "")
        if cls:
            name = "%s::%s" % (cls.split(".")[-1], name)
        secs = float(tc.get("time", "0") or 0)
        outcome, msg = "passed", ""
        for child in tc:
            if child.tag in ("failure", "error"):
                outcome = "failed"
                msg = (child.get("message") or "").splitlines()[0:1]
                msg = msg[0] if msg else child.tag
                break
            if child.tag == "skipped":
                outcome = "skipped"
                msg = (child.get("message") or "").splitlines()[0:1]
                msg = msg[0] if msg else ""
        cases.append((name, outcome, secs, msg))
    return cases


def xdist_usable():
    """pytest-xdist (Debian's python3-pytest-xdist) is there for PYTHON."""
    return subprocess.run([PYTHON, "-c", "import xdist"],
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def _env(extra=None):
    env = dict(os.environ)
    scripts = os.path.join(paths.REPO, "scripts")
    env["PYTHONPATH"] = scripts + (":" + env["PYTHONPATH"]
                                   if env.get("PYTHONPATH") else "")
    env.update(extra or {})
    return env


def run_pytest(junit, k=None, env_extra=None, name="functional",
               test_dir=FUNCTIONAL_DIR, workers=1, limit=None):
    """Run pytest on test_dir, return (SuiteResult, cases).  With -k, the
    node ids whose name below test_dir ('test_x.py::test_y[param]')
    contains k.  With workers > 1, that many pytest-xdist processes share
    the test files (a file's tests stay together, its VM being a module
    fixture, unless the directory's conftest.py schedules otherwise).
    pytest is stopped at `limit` seconds, if given."""
    res = SuiteResult(name)
    where = os.path.relpath(test_dir, paths.REPO)
    if not pytest_files(test_dir):
        res.fail("no test files in %s" % where)
        return res, []
    env = _env(env_extra)
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
    print("==== %s: pytest %s ====" % (name, where), flush=True)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, cwd=test_dir,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        rc = proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        rc = proc.wait()
        res.fail("pytest killed after the %s suite's %d s limit (its "
                 "output is above)" % (name, limit))
    res.seconds = time.monotonic() - start
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
