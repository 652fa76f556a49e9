# SPDX-License-Identifier: GPL-2.0-or-later
"""`test` and `run`: the test suites, their counts, the summary table."""

import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from . import paths
from .progress import StepError, fmt_secs

PYTHON = "/usr/bin/python3"
FUNCTIONAL_DIR = os.path.join(paths.REPO, "tests", "functional")


class SuiteResult:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.seconds = 0.0
        self.note = ""

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


def _banner(text):
    print("==== %s ====" % text, flush=True)


def _env():
    env = dict(os.environ)
    scripts = os.path.join(paths.REPO, "scripts")
    env["PYTHONPATH"] = scripts + (":" + env["PYTHONPATH"]
                                   if env.get("PYTHONPATH") else "")
    return env


# -- unit ------------------------------------------------------------------

def run_unit(k=None):
    """Every meson test() of build/native, run directly and read as TAP."""
    res = SuiteResult("unit")
    if not os.path.exists(os.path.join(paths.NATIVE_DIR, "build.ninja")):
        res.note = "skipped: build/native not set up"
        return res
    out = subprocess.run(["/usr/bin/meson", "introspect", "--tests",
                          paths.NATIVE_DIR], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    try:
        tests = json.loads(out or "[]")
    except ValueError:
        tests = []
    if not tests:
        res.note = "no unit tests defined yet (tests/unit/meson.build)"
        return res
    start = time.monotonic()
    for t in tests:
        _banner("unit: %s" % " ".join(
            os.path.relpath(a, paths.REPO) if a.startswith("/") else a
            for a in t["cmd"]))
        proc = subprocess.Popen(t["cmd"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                errors="replace", env=_env(),
                                cwd=t.get("workdir") or paths.NATIVE_DIR,
                                stdin=subprocess.DEVNULL)
        lines = []
        for line in proc.stdout:
            if k and line.startswith(("ok", "not ok")) and k not in line:
                continue
            sys.stdout.write(line)
            lines.append(line)
        rc = proc.wait()
        passed, failed, skipped, planned = parse_tap(lines)
        ran = passed + failed + skipped
        if planned is not None and ran < planned and not k:
            failed += planned - ran
        if rc != 0 and failed == 0:
            failed = 1
            res.note = "%s exited with status %d" % (t["name"], rc)
        res.passed += passed
        res.failed += failed
        res.skipped += skipped
    res.seconds = time.monotonic() - start
    return res


# -- qtest -----------------------------------------------------------------

TAP_LINE = re.compile(r"^(not ok|ok)\b\s*(\d*)\s*(.*)$")
TAP_PLAN = re.compile(r"^1\.\.(\d+)")


def parse_tap(lines):
    """(passed, failed, skipped, planned) from TAP lines."""
    passed = failed = skipped = 0
    planned = None
    for line in lines:
        line = line.strip()
        m = TAP_PLAN.match(line)
        if m:
            planned = int(m.group(1))
            continue
        m = TAP_LINE.match(line)
        if not m:
            continue
        rest = m.group(3)
        if re.search(r"#\s*SKIP", rest, re.I):
            skipped += 1
        elif m.group(1) == "ok" or re.search(r"#\s*TODO", rest, re.I):
            passed += 1
        else:
            failed += 1
    return passed, failed, skipped, planned


def qtest_binaries():
    """Our qtest binaries: e1000e-pp-test and every e1000e-pp-*-test."""
    d = os.path.dirname(paths.QTEST_BIN)
    if not os.path.isdir(d):
        return []
    found = []
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        if (name.startswith("e1000e-pp") and name.endswith("-test") and
                os.path.isfile(path) and os.access(path, os.X_OK)):
            found.append(path)
    return found


def run_qtest(k=None):
    res = SuiteResult("qtest")
    binaries = qtest_binaries()
    if not binaries:
        res.note = "no qtest binary yet (%s)" % os.path.relpath(
            paths.QTEST_BIN, paths.REPO)
        return res
    env = _env()
    env["QTEST_QEMU_BINARY"] = paths.QEMU_BIN
    env.setdefault("G_TEST_DBUS_DAEMON", "")
    start = time.monotonic()
    notes = []
    for binary in binaries:
        cmd = [binary, "--tap"]
        if k:
            cmd += ["-p", k]
        _banner("qtest: %s --tap" % os.path.relpath(binary, paths.REPO))
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                errors="replace", env=env,
                                stdin=subprocess.DEVNULL)
        lines = []
        for line in proc.stdout:
            sys.stdout.write(line)
            lines.append(line)
        rc = proc.wait()
        passed, failed, skipped, planned = parse_tap(lines)
        ran = passed + failed + skipped
        name = os.path.basename(binary)
        if planned is not None and ran < planned:
            failed += planned - ran
            note = "%s: %d planned test(s) did not report" % (
                name, planned - ran)
            if any(ln.startswith("Bail out!") for ln in lines):
                note += " (bailed out after test %d)" % ran
            notes.append(note)
        if rc != 0 and failed == 0:
            failed = 1
            notes.append("%s exited with status %d" % (name, rc))
        if ran == 0 and failed == 0 and not k:
            failed = 1
            notes.append("%s ran no test" % name)
        res.passed += passed
        res.failed += failed
        res.skipped += skipped
    res.seconds = time.monotonic() - start
    res.note = "; ".join(notes)
    return res


# -- functional --------------------------------------------------------------

def functional_test_files():
    if not os.path.isdir(FUNCTIONAL_DIR):
        return []
    return sorted(glob.glob(os.path.join(FUNCTIONAL_DIR, "**", "test_*.py"),
                            recursive=True) +
                  glob.glob(os.path.join(FUNCTIONAL_DIR, "**", "*_test.py"),
                            recursive=True))


def parse_junit(path):
    """[(name, outcome, seconds, message)] from a pytest junit xml."""
    cases = []
    root = ET.parse(path).getroot()
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


def run_pytest(junit, k=None, env_extra=None, name="functional"):
    """Run pytest on tests/functional, return (SuiteResult, cases)."""
    res = SuiteResult(name)
    if not functional_test_files():
        res.note = "no functional tests yet (tests/functional has none)"
        return res, []
    os.makedirs(os.path.dirname(junit), exist_ok=True)
    cmd = [PYTHON, "-m", "pytest", FUNCTIONAL_DIR, "-v",
           "--junitxml=%s" % junit]
    if k:
        cmd += ["-k", k]
    env = _env()
    env.update(env_extra or {})
    _banner("%s: pytest tests/functional" % name)
    start = time.monotonic()
    rc = subprocess.run(cmd, env=env, cwd=paths.REPO,
                        stdin=subprocess.DEVNULL).returncode
    res.seconds = time.monotonic() - start
    cases = []
    if os.path.exists(junit):
        try:
            cases = parse_junit(junit)
        except ET.ParseError:
            res.note = "unreadable junit xml"
    for _, outcome, _, _ in cases:
        setattr(res, outcome, getattr(res, outcome) + 1)
    if rc == 5:
        res.failed += 1
        res.note = "pytest collected no tests (exit 5) although " \
                   "tests/functional has test files"
    elif rc != 0 and res.failed == 0:
        res.failed = 1
        res.note = "pytest exited with status %d" % rc
    return res, cases


def run_functional(k=None):
    """Functional suite of `test`; its logs land in build/reports/last-test
    (emptied first)."""
    report = os.path.join(paths.REPORTS_DIR, "last-test")
    shutil.rmtree(report, ignore_errors=True)
    os.makedirs(report)
    res, _ = run_pytest(os.path.join(report, "junit.xml"), k,
                        {"E1000EPP_REPORT_DIR": report})
    if res.failed:
        res.note = (res.note + "; " if res.note else "") + \
            "logs: build/reports/last-test"
    return res


SUITES = {"unit": run_unit, "qtest": run_qtest, "functional": run_functional}
SUITE_NAMES = list(SUITES)


def run_suites(names, k=None):
    results = []
    for name in names:
        results.append(SUITES[name](k))
    headers = ["suite", "passed", "failed", "skipped", "seconds", "note"]
    print()
    print(table(headers, [r.row() for r in results]))
    passed = sum(r.passed for r in results)
    failed = sum(r.failed for r in results)
    empty = [r.name for r in results
             if r.passed + r.failed + r.skipped == 0]
    if empty:
        print("no tests ran in: %s" % ", ".join(empty))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


# -- run: the regression matrix -----------------------------------------------

def utc_stamp():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y%m%dT%H%M%SZ")


def run_matrix(device, report_dir=None, k=None):
    if not functional_test_files():
        raise StepError("nothing to run",
                        "tests/functional has no test files yet (the "
                        "driver regression scenarios)",
                        "add the functional scenarios, or run "
                        "./e1000e-pp test for the other suites")
    started = utc_stamp()
    report = os.path.abspath(report_dir or os.path.join(paths.REPORTS_DIR,
                                                        started))
    os.makedirs(report, exist_ok=True)
    junit = os.path.join(report, "junit.xml")
    print("[run] device %s, report %s" % (device, report), flush=True)
    res, cases = run_pytest(junit, k, {"E1000EPP_DEVICE": device,
                                       "E1000EPP_REPORT_DIR": report},
                            name="regression")
    rows = [[n, o, "%.1f" % s, m[:70]] for n, o, s, m in cases]
    lines = ["e1000e-pp regression run",
             "device:  %s" % device,
             "started: %s (UTC)" % started,
             "",
             table(["test", "result", "seconds", "message"], rows)
             if rows else "(no test cases reported)",
             ""]
    if res.note:
        lines.append("note: %s" % res.note)
    lines.append("%d passed, %d failed, %d skipped in %s" % (
        res.passed, res.failed, res.skipped, fmt_secs(res.seconds)))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(report, "summary.txt"), "w") as f:
        f.write(text)
    print()
    print(text, end="")
    print("report: %s" % report)
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0
