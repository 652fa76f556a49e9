# SPDX-License-Identifier: GPL-2.0-or-later
"""The pytest suites' files, node ids and junit results (testrun.py runs
them)."""

import glob
import os
import subprocess
import xml.etree.ElementTree as ET

from . import paths

PYTHON = "/usr/bin/python3"
FUNCTIONAL_DIR = os.path.join(paths.REPO, "tests", "functional")
CLI_DIR = os.path.join(paths.REPO, "tests", "cli")


def pytest_files(test_dir):
    if not os.path.isdir(test_dir):
        return []
    return sorted(glob.glob(os.path.join(test_dir, "**", "test_*.py"),
                            recursive=True) +
                  glob.glob(os.path.join(test_dir, "**", "*_test.py"),
                            recursive=True))


def functional_test_files():
    return pytest_files(FUNCTIONAL_DIR)


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
