# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp test`'s one table and one "N passed, N failed" line: an
empty suite fails, -k may deselect a suite but not all of them, and a
rule of the compiled suites fails the whole run."""

import os
import subprocess

import pytest

from e1000epp.common import paths
from e1000epp.selftest import command as selftest_command
from e1000epp.selftest.results import SuiteResult


def fake_suite(name, passed=0, failed=0):
    def run(k=None):
        res = SuiteResult(name)
        res.passed, res.failed = passed, failed
        return res
    return run


@pytest.fixture
def suites(tmp_path, monkeypatch):
    monkeypatch.setattr(selftest_command, "LAST_TEST", str(tmp_path / "last"))
    table = {}
    monkeypatch.setattr(selftest_command, "SUITES", table)
    return table


def test_empty_suite_fails(suites, capsys):
    suites.update(a=fake_suite("a", passed=2), b=fake_suite("b"))
    assert selftest_command.run_suites(["a", "b"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["no tests ran in: b", "2 passed, 1 failed"]
    assert "ran no test" in out[-3]


def test_k_may_deselect_a_suite_but_not_all(suites, capsys):
    suites.update(a=fake_suite("a", passed=2), b=fake_suite("b"))
    assert selftest_command.run_suites(["a", "b"], k="x") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 passed, 0 failed"
    assert selftest_command.run_suites(["b"], k="x") == 1
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "error: no test in b matches -k x", "0 passed, 1 failed"]


def test_all_passing(suites, capsys):
    suites.update(a=fake_suite("a", passed=2), b=fake_suite("b", passed=1))
    assert selftest_command.run_suites(["a", "b"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "3 passed, 0 failed"
    assert os.path.isdir(selftest_command.LAST_TEST)


def test_a_unit_program_that_skips_everything_fails_the_run(
        tmp_path, monkeypatch, capsys):
    """Through the unit suite's own entry point and a real meson build."""
    src = tmp_path / "src"
    src.mkdir()
    prog = src / "skips"
    prog.write_text("#!/bin/sh\necho 1..2\necho 'ok 1 a # SKIP no'\n"
                    "echo 'ok 2 b # SKIP no'\n")
    prog.chmod(0o755)
    (src / "meson.build").write_text(
        "project('t')\ntest('skips', find_program('skips'), "
        "protocol: 'tap', suite: 'unit')\n")
    subprocess.run(["meson", "setup", str(tmp_path / "b"), str(src)],
                   check=True, stdout=subprocess.DEVNULL)
    monkeypatch.setattr(paths, "NATIVE_DIR", str(tmp_path / "b"))
    monkeypatch.setattr(selftest_command, "LAST_TEST", str(tmp_path / "l"))
    monkeypatch.setattr(selftest_command, "SUITES",
                        {"unit": selftest_command.run_unit})
    assert selftest_command.run_suites(["unit"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "0 passed, 1 failed"
    assert "skips: all 2 test(s) skipped" in "\n".join(out)
