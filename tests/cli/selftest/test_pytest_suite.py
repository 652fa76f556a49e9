# SPDX-License-Identifier: GPL-2.0-or-later
"""The pytest suites (cli, functional): node ids selected by -k, xdist
workers sharing the files, and no pass without tests."""

import textwrap

from e1000epp.selftest import pytest_suite
from e1000epp.selftest.pytest_suite import run_pytest


def counts(res):
    return (res.passed, res.failed, res.skipped, res.broken)


def test_pytest_suite_without_files_fails(tmp_path):
    res, cases = run_pytest(str(tmp_path / "j.xml"), name="x",
                            test_dir=str(tmp_path))
    assert (counts(res), cases) == ((0, 1, 0, 1), [])


def test_pytest_suite_k_selects_node_ids(tmp_path):
    d = tmp_path / "t"
    d.mkdir()
    (d / "test_a.py").write_text(textwrap.dedent("""
        import pytest
        def test_probe(): pass
        @pytest.mark.parametrize("mtu", [1500, 9000])
        def test_mtu(mtu): pass
        def test_skip(): pytest.skip("no")
        """))
    res, cases = run_pytest(str(tmp_path / "j.xml"), k="MTU[9", name="x",
                            test_dir=str(d))
    assert counts(res) == (1, 0, 0, 0)
    assert [c[0] for c in cases] == ["test_a::test_mtu[9000]"]
    res, _ = run_pytest(str(tmp_path / "j.xml"), name="x", test_dir=str(d))
    assert counts(res) == (3, 0, 1, 0)
    res, _ = run_pytest(str(tmp_path / "j.xml"), k="skip", name="x",
                        test_dir=str(d))
    assert counts(res) == (0, 1, 1, 1)
    assert res.note == "all 1 test(s) skipped"


PYTEST_MEETS = """
    import os, pathlib, time

    def test_meet():
        # each file waits (bounded) for the other's mark
        here = pathlib.Path(__file__)
        mine = here.with_suffix(".mark")
        other = here.with_name("test_%s.mark" % ("b" if "_a" in here.name
                                                 else "a"))
        mine.touch()
        deadline = time.monotonic() + 30
        while not other.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert other.exists()

    def test_second():
        pass
"""


def test_pytest_workers_run_test_files_side_by_side(tmp_path):
    assert pytest_suite.xdist_usable(), "setup installs python3-pytest-xdist"
    d = tmp_path / "t"
    d.mkdir()
    for f in ("test_a.py", "test_b.py"):
        (d / f).write_text(textwrap.dedent(PYTEST_MEETS))
    res, cases = run_pytest(str(tmp_path / "j.xml"), name="x",
                            test_dir=str(d), workers=2)
    assert counts(res) == (4, 0, 0, 0)
    assert sorted(c[0] for c in cases) == [
        "test_a::test_meet", "test_a::test_second",
        "test_b::test_meet", "test_b::test_second"]


def test_pytest_workers_without_xdist_run_in_turn(tmp_path, monkeypatch):
    d = tmp_path / "t"
    d.mkdir()
    (d / "test_a.py").write_text("def test_a(): pass\n")
    monkeypatch.setattr(pytest_suite, "xdist_usable", lambda: False)
    res, _ = run_pytest(str(tmp_path / "j.xml"), name="x", test_dir=str(d),
                        workers=2)
    assert counts(res) == (1, 0, 0, 0)
    assert res.note == ("python3-pytest-xdist is missing (run "
                        "./e1000e-pp setup): one test file at a time")


def test_pytest_past_its_limit_is_killed(tmp_path):
    d = tmp_path / "t"
    d.mkdir()
    (d / "test_a.py").write_text("import time\n"
                                 "def test_a(): time.sleep(60)\n")
    res, _ = run_pytest(str(tmp_path / "j.xml"), name="x", test_dir=str(d),
                        limit=3)
    assert res.failed >= 1
    assert res.notes[0] == ("pytest killed after the x suite's 3 s limit "
                            "(its output is above)")
