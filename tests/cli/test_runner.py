# SPDX-License-Identifier: GPL-2.0-or-later
"""The suite runner: TAP programs counted through the one reader, -k the
same in every suite, and no pass without tests (empty suite, missing
binary, incomplete TAP)."""

import json
import os
import sys
import textwrap
import time

import pytest

from e1000epp import paths, testrun


def script(path, body):
    """An executable Python script at path."""
    path.write_text("#!%s\nimport sys\n%s" % (sys.executable,
                                            textwrap.dedent(body)))
    path.chmod(0o755)
    return str(path)


def tap_program(tmp_path, name, tap, rc=0, signal=None):
    """A program that prints `tap` and exits with rc (or dies of signal)."""
    end = ("import os, signal; os.kill(os.getpid(), %d)" % signal
           if signal else "sys.exit(%d)" % rc)
    return script(tmp_path / name,
                  "sys.stdout.write(%r)\nsys.stdout.flush()\n%s\n"
                  % (textwrap.dedent(tap).lstrip(), end))


def counts(res):
    return (res.passed, res.failed, res.skipped, res.broken)


@pytest.fixture
def suite():
    return testrun.SuiteResult("unit")


# -- run_tap: one program ----------------------------------------------------

# (TAP printed, exit: status or -signal, -k,
#  (passed, failed, skipped, failures no test reported), note)
TAP_CASES = {
    "all counted": ("""
        1..3
        ok 1 - a
        ok 2 - b # SKIP not here
        ok 3 - c
        """, 0, None, (2, 0, 1, 0), ""),
    "a failed test explains exit 1": ("""
        1..2
        ok 1 - a
        not ok 2 - b
        """, 1, None, (1, 1, 0, 0), ""),
    "unreported tests fail": ("""
        1..4
        ok 1 - a
        """, 0, None, (1, 3, 0, 0), "t: planned 4 test(s), 1 reported"),
    "bail-out and crash fail once": ("""
        ok 1 /x86_64/e1000e-pp/a
        Bail out!
        """, -6, None, (1, 1, 0, 1),
        "t: bailed out after 1 test(s), no TAP plan (1..N): the run "
        "stopped early, exited with signal 6"),
    "clean exit without a plan fails": (
        "ok 1 - a\n", 0, None, (1, 1, 0, 1),
        "t: no TAP plan (1..N): the run stopped early"),
    "everything skipped fails": ("""
        1..2
        ok 1 /x86_64/e1000e-pp/a # SKIP device e1000e-pp not in this QEMU
        ok 2 /x86_64/e1000e-pp/b # SKIP device e1000e-pp not in this QEMU
        """, 0, None, (0, 1, 2, 1), "t: all 2 test(s) skipped"),
    "no test fails": ("1..0 # SKIP no KVM\n", 0, None, (0, 1, 0, 1),
                      "t: ran no test (skip all: no KVM)"),
    "-k: a failure outside the selection still fails": ("""
        1..2
        ok 1 - rx_fcs
        not ok 2 - tx_tso
        """, 1, "rx", (1, 1, 0, 1),
        "t: exited with status 1 (failed outside -k: tx_tso)"),
}


@pytest.mark.parametrize("case", TAP_CASES)
def test_run_tap(tmp_path, suite, case):
    text, rc, k, expect, note = TAP_CASES[case]
    prog = tap_program(tmp_path, "t", text, rc=max(rc, 0),
                       signal=-rc if rc < 0 else None)
    testrun.run_tap(suite, "t", [prog], {}, prefix="core/", k=k)
    assert counts(suite) == expect
    assert suite.note == note


def test_tap_k_counts_the_selected_names_only(tmp_path, suite, capsys):
    prog = tap_program(tmp_path, "t", """
        1..3
        ok 1 - rx_fcs
        ok 2 - tx_tso
        ok 3 - RX_other
        """)
    testrun.run_tap(suite, "core", [prog], {}, prefix="core/", k="core/rx")
    assert counts(suite) == (2, 0, 0, 0)
    out = capsys.readouterr().out
    assert "ok 1 - rx_fcs" in out and "tx_tso" not in out


def test_tap_program_that_cannot_start(tmp_path, suite):
    testrun.run_tap(suite, "core", [str(tmp_path / "nope")], {})
    assert counts(suite) == (0, 1, 0, 1)
    assert suite.note.startswith("core: cannot run ")


# -- meson test() suites: unit, qtest ------------------------------------------

def meson_build(build_dir, *tests):
    """A build directory whose meson-info lists `tests`:
    (name, suite, cmd, env) each."""
    info = build_dir / "meson-info"
    info.mkdir(parents=True)
    (info / "intro-tests.json").write_text(json.dumps([
        {"name": n, "suite": ["proj:" + s], "cmd": c, "env": e,
         "workdir": None} for n, s, c, e in tests]))
    return str(build_dir)


def test_unit_without_native_build_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "NATIVE_DIR", str(tmp_path / "native"))
    res = testrun.run_unit()
    assert counts(res) == (0, 1, 0, 1)
    assert res.note.endswith("native is not set up: run ./e1000e-pp setup")


def test_unit_without_tests_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "NATIVE_DIR", meson_build(
        tmp_path, ("peer", "tools", ["x"], {})))
    res = testrun.run_unit()
    assert counts(res) == (0, 1, 0, 1)
    assert res.note.startswith("no test() of suite unit in ")


def test_unit_missing_binary_fails_and_others_run(tmp_path, monkeypatch):
    good = tap_program(tmp_path, "core-test", "1..2\nok 1 - a\nok 2 - b\n")
    monkeypatch.setattr(paths, "NATIVE_DIR", meson_build(
        tmp_path / "native",
        ("core", "unit", [good], {}),
        ("fuzz", "unit", [str(tmp_path / "fuzz-test")], {})))
    res = testrun.run_unit(k="CORE/A")
    assert counts(res) == (1, 1, 0, 1)
    assert res.note.startswith("fuzz: ") and "is not built" in res.note


GLIB_LIKE = """
    # lists with -l, runs all or the -p paths, like a GLib test binary
    names = ["/x86_64/e1000e-pp/pci_identity", "/x86_64/e1000e-pp/rx_fcs",
             "/x86_64/e1000e/pci_identity", "/x86_64/e1000e/rx_fcs"]
    args = sys.argv[1:]
    if args == ["-l"]:
        print("# random seed: R02S0\\n1..4")
        print("\\n".join(names))
        sys.exit(0)
    assert args[:2] == ["--tap", "-k"], args
    chosen = [args[i + 1] for i, a in enumerate(args) if a == "-p"]
    run = [n for n in names if not chosen or n in chosen]
    print("1..%d" % len(run))
    for i, n in enumerate(run, 1):
        print("ok %d %s" % (i, n))
"""


@pytest.fixture
def qtest_build(tmp_path, monkeypatch):
    """build/qemu with two qtest binaries declared, the emulator built."""
    qemu = tap_program(tmp_path, "qemu", "")
    env = {"QTEST_QEMU_BINARY": qemu}
    monkeypatch.setattr(paths, "QEMU_BUILD", meson_build(
        tmp_path / "qemu-build",
        ("e1000e-pp-test", "e1000e-pp",
         [str(tmp_path / "e1000e-pp-test"), "--tap", "-k"], env),
        ("other-test", "qtest", [str(tmp_path / "other")], env),
        ("e1000e-pp-rx-test", "e1000e-pp",
         [str(tmp_path / "e1000e-pp-rx-test"), "--tap", "-k"], env)))
    return tmp_path


def test_qtest_missing_binary_is_a_failure(qtest_build):
    script(qtest_build / "e1000e-pp-test", GLIB_LIKE)
    res = testrun.run_qtest()
    assert counts(res) == (4, 1, 0, 1)
    assert res.note.startswith("e1000e-pp-rx-test: ")
    assert "e1000e-pp-rx-test is not built" in res.note


def test_qtest_k_selects_glib_paths(qtest_build):
    script(qtest_build / "e1000e-pp-test", GLIB_LIKE)
    script(qtest_build / "e1000e-pp-rx-test", GLIB_LIKE)
    res = testrun.run_qtest(k="E1000E-PP/RX")
    assert counts(res) == (2, 0, 0, 0)
    res = testrun.run_qtest(k="/x86_64/e1000e/")
    assert counts(res) == (4, 0, 0, 0)
    res = testrun.run_qtest(k="nothing")
    assert counts(res) == (0, 0, 0, 0)


def test_qtest_without_emulator_fails(qtest_build):
    script(qtest_build / "e1000e-pp-test", GLIB_LIKE)
    script(qtest_build / "e1000e-pp-rx-test", GLIB_LIKE)
    os.unlink(qtest_build / "qemu")
    res = testrun.run_qtest()
    assert counts(res) == (0, 2, 0, 2)
    assert "qemu is not built" in res.note


def test_qtest_sanitized_runs_the_same_programs_on_the_sanitized_qemu(
        qtest_build, monkeypatch):
    # each program reports the emulator and sanitizer settings it was given
    env_check = """
    import os
    if sys.argv[1:] == ["-l"]:
        print("/x86_64/e1000e-pp/env")
        sys.exit(0)
    print("1..3")
    print(("ok" if os.environ["QTEST_QEMU_BINARY"].endswith(
        "/qemu-sanitized") else "not ok") + " 1 qemu")
    opts = os.environ.get("ASAN_OPTIONS", "").split(":")
    print(("ok" if "abort_on_error=1" in opts and
           "detect_leaks=0" in opts else "not ok") + " 2 asan")
    print(("ok" if "halt_on_error=1" in os.environ.get(
        "UBSAN_OPTIONS", "").split(":") else "not ok") + " 3 ubsan")
    """
    script(qtest_build / "e1000e-pp-test", env_check)
    script(qtest_build / "e1000e-pp-rx-test", env_check)
    sanitized = tap_program(qtest_build, "qemu-sanitized", "")
    monkeypatch.setattr(paths, "QEMU_SANITIZED_BIN", sanitized)
    res = testrun.run_qtest_sanitized()
    assert counts(res) == (6, 0, 0, 0)
    assert res.name == "qtest-sanitized"
    os.unlink(sanitized)
    res = testrun.run_qtest_sanitized()
    assert counts(res) == (0, 2, 0, 2)
    assert "qemu-sanitized is not built: run ./e1000e-pp setup " \
        "--sanitized" in res.note


MANY_PATHS = """
    # 250 paths, and a log of every path each run was given
    names = ["/x86_64/e1000e-pp/rx/t%03d" % i for i in range(250)]
    args = sys.argv[1:]
    if args == ["-l"]:
        print("\\n".join(names))
        sys.exit(0)
    chosen = [args[i + 1] for i, a in enumerate(args) if a == "-p"]
    run = [n for n in names if not chosen or n in chosen]
    with open(sys.argv[0] + ".runs", "a") as f:
        f.write(" ".join(run) + "\\n")
    print("1..%d" % len(run))
    for i, n in enumerate(run, 1):
        print("%s %d %s" % ("not ok" if n.endswith("7") else "ok", i, n))
"""


def test_qtest_binary_of_many_paths_is_shared_out(qtest_build, capsys):
    script(qtest_build / "e1000e-pp-test", GLIB_LIKE)
    script(qtest_build / "e1000e-pp-rx-test", MANY_PATHS)
    res = testrun.run_meson_suite("qtest", paths.QEMU_BUILD, "e1000e-pp",
                                  glib=True, workers=2)
    # each share's banner counts its paths instead of listing them
    assert capsys.readouterr().out.count(
        "e1000e-pp-rx-test --tap -k -p ... (50 paths) ====") == 5
    # 25 of the 250 end in 7 and fail; each path ran exactly once
    assert counts(res) == (4 + 225, 25, 0, 0)
    runs = (qtest_build / "e1000e-pp-rx-test.runs").read_text().split("\n")
    runs = [r.split() for r in runs if r]
    assert [len(r) for r in runs] == [50] * 5
    assert sorted(p for r in runs for p in r) == [
        "/x86_64/e1000e-pp/rx/t%03d" % i for i in range(250)]
    # one worker: the binary runs whole, as meson declared it
    os.unlink(qtest_build / "e1000e-pp-rx-test.runs")
    res = testrun.run_meson_suite("qtest", paths.QEMU_BUILD, "e1000e-pp",
                                  glib=True, workers=1)
    assert counts(res) == (4 + 225, 25, 0, 0)
    runs = (qtest_build / "e1000e-pp-rx-test.runs").read_text().split("\n")
    assert [len(r.split()) for r in runs if r] == [250]


# Each needs the other running at the same time: it writes its own file,
# then waits (bounded) for the other's.
MEETS = """
    import os, time
    mine, other = sys.argv[1], sys.argv[2]
    open(mine, "w").close()
    deadline = time.monotonic() + 30
    while not os.path.exists(other) and time.monotonic() < deadline:
        time.sleep(0.02)
    print("1..1")
    print("%s 1 - met" % ("ok" if os.path.exists(other) else "not ok"))
"""


def test_two_workers_run_programs_side_by_side(tmp_path, monkeypatch):
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    prog = script(tmp_path / "meet", MEETS)
    broken = tap_program(tmp_path, "broken", "1..2\nok 1 - x\n")
    monkeypatch.setattr(paths, "QEMU_BUILD", meson_build(
        tmp_path / "qemu-build",
        ("first", "e1000e-pp", [prog, a, b], {}),
        ("broken", "e1000e-pp", [broken], {}),
        ("second", "e1000e-pp", [prog, b, a], {})))
    res = testrun.run_meson_suite("qtest", paths.QEMU_BUILD, "e1000e-pp",
                                  workers=2)
    assert counts(res) == (3, 1, 0, 0)
    # the notes follow the declared order, whoever finished first
    assert res.notes == ["broken: planned 2 test(s), 1 reported"]


def test_glib_select_names_a_path_once(tmp_path):
    prog = script(tmp_path / "t", """
        print("/a/b\\n/a/b/c\\n/a/bc\\n/x/b")
        """)
    assert testrun.glib_select(prog, None, "/b") == [
        "-p", "/a/b", "-p", "/a/bc", "-p", "/x/b"]


# -- pytest suites -----------------------------------------------------------

def test_pytest_suite_without_files_fails(tmp_path):
    res, cases = testrun.run_pytest(str(tmp_path / "j.xml"), name="x",
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
    res, cases = testrun.run_pytest(str(tmp_path / "j.xml"), k="MTU[9",
                                    name="x", test_dir=str(d))
    assert counts(res) == (1, 0, 0, 0)
    assert [c[0] for c in cases] == ["test_a::test_mtu[9000]"]
    res, _ = testrun.run_pytest(str(tmp_path / "j.xml"), name="x",
                                test_dir=str(d))
    assert counts(res) == (3, 0, 1, 0)
    res, _ = testrun.run_pytest(str(tmp_path / "j.xml"), k="skip",
                                name="x", test_dir=str(d))
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
    assert testrun.xdist_usable(), "setup installs python3-pytest-xdist"
    d = tmp_path / "t"
    d.mkdir()
    for f in ("test_a.py", "test_b.py"):
        (d / f).write_text(textwrap.dedent(PYTEST_MEETS))
    res, cases = testrun.run_pytest(str(tmp_path / "j.xml"), name="x",
                                    test_dir=str(d), workers=2)
    assert counts(res) == (4, 0, 0, 0)
    assert sorted(c[0] for c in cases) == [
        "test_a::test_meet", "test_a::test_second",
        "test_b::test_meet", "test_b::test_second"]


def test_pytest_workers_without_xdist_run_in_turn(tmp_path, monkeypatch):
    d = tmp_path / "t"
    d.mkdir()
    (d / "test_a.py").write_text("def test_a(): pass\n")
    monkeypatch.setattr(testrun, "xdist_usable", lambda: False)
    res, _ = testrun.run_pytest(str(tmp_path / "j.xml"), name="x",
                                test_dir=str(d), workers=2)
    assert counts(res) == (1, 0, 0, 0)
    assert res.note == ("python3-pytest-xdist is missing (run "
                        "./e1000e-pp setup): one test file at a time")


# -- run_suites: totals and empty suites -------------------------------------

def fake_suite(name, passed=0, failed=0):
    def run(k=None):
        res = testrun.SuiteResult(name)
        res.passed, res.failed = passed, failed
        return res
    return run


@pytest.fixture
def suites(tmp_path, monkeypatch):
    monkeypatch.setattr(testrun, "LAST_TEST", str(tmp_path / "last"))
    table = {}
    monkeypatch.setattr(testrun, "SUITES", table)
    return table


def test_empty_suite_fails(suites, capsys):
    suites.update(a=fake_suite("a", passed=2), b=fake_suite("b"))
    assert testrun.run_suites(["a", "b"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == ["no tests ran in: b", "2 passed, 1 failed"]
    assert "ran no test" in out[-3]


def test_k_may_deselect_a_suite_but_not_all(suites, capsys):
    suites.update(a=fake_suite("a", passed=2), b=fake_suite("b"))
    assert testrun.run_suites(["a", "b"], k="x") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 passed, 0 failed"
    assert testrun.run_suites(["b"], k="x") == 1
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "error: no test in b matches -k x", "0 passed, 1 failed"]


def test_all_passing(suites, capsys):
    suites.update(a=fake_suite("a", passed=2), b=fake_suite("b", passed=1))
    assert testrun.run_suites(["a", "b"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "3 passed, 0 failed"
    assert os.path.isdir(testrun.LAST_TEST)


# -- time limits: a binary that hangs, a suite past its limit ----------------

HANGS = """
    import os, subprocess, time
    print("1..2")
    print("ok 1 - link_up")
    print("# waiting for the frame on the wire")
    sys.stdout.flush()
    # a child of its own, as a qtest binary has its QEMU
    child = subprocess.Popen(["sleep", "60"])
    open(sys.argv[1], "w").write(str(child.pid))
    time.sleep(60)
"""


def gone(pid, seconds=5.0):
    """True once pid has exited (and been reaped by whoever owns it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split()[2] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_binary_that_hangs_is_killed_with_its_last_output(tmp_path, suite,
                                                          capsys):
    prog = script(tmp_path / "t", HANGS)
    pidfile = tmp_path / "child.pid"
    start = time.monotonic()
    testrun.run_tap(suite, "t", [prog, str(pidfile)], {}, timeout=2)
    assert time.monotonic() - start < 30
    # the test it reported counts; the one it never reported and the
    # kill are failures
    assert counts(suite) == (1, 2, 0, 1)
    assert suite.note == ("t: killed after its 2 s limit (last output: "
                          "# waiting for the frame on the wire)")
    out = capsys.readouterr().out
    assert "# last output of t before it was killed:" in out
    assert "#   ok 1 - link_up" in out
    assert gone(int(pidfile.read_text())), "its child outlived it"


def test_meson_timeout_is_the_binary_limit(tmp_path, monkeypatch):
    info = tmp_path / "native" / "meson-info"
    info.mkdir(parents=True)
    prog = script(tmp_path / "t", HANGS)
    (info / "intro-tests.json").write_text(json.dumps([
        {"name": "hangs", "suite": ["proj:unit"], "timeout": 1,
         "cmd": [prog, str(tmp_path / "pid")], "env": {}, "workdir": None}]))
    monkeypatch.setattr(paths, "NATIVE_DIR", str(tmp_path / "native"))
    res = testrun.run_unit()
    assert counts(res) == (1, 2, 0, 1)
    assert "hangs: killed after its 1 s limit" in res.note


def test_suite_limit_stops_the_run(tmp_path, monkeypatch):
    good = tap_program(tmp_path, "good", "1..1\nok 1 - a\n")
    monkeypatch.setattr(paths, "NATIVE_DIR", meson_build(
        tmp_path / "native",
        ("hangs", "unit", [script(tmp_path / "t", HANGS),
                           str(tmp_path / "pid")], {}),
        ("after", "unit", [good], {})))
    monkeypatch.setitem(testrun.SUITE_TIMEOUTS, "unit", 2)
    start = time.monotonic()
    res = testrun.run_unit()
    assert time.monotonic() - start < 30
    assert counts(res) == (1, 3, 0, 2)
    assert res.notes == [
        "hangs: killed after its 2 s limit (last output: # waiting for "
        "the frame on the wire)",
        "after: not run, the unit suite reached its 2 s limit"]


# -- a device missing from QEMU, a suite with nothing in it ------------------

SKIPS_ALL = """
    names = ["/x86_64/e1000e-pp/a", "/x86_64/e1000e-pp/b"]
    if sys.argv[1:] == ["-l"]:
        print("\\n".join(names))
        sys.exit(0)
    print("1..2")
    for i, n in enumerate(names, 1):
        print("ok %d %s # SKIP device not built into this QEMU binary"
              % (i, n))
"""


def test_qtest_device_missing_everything_skipped_fails(qtest_build):
    script(qtest_build / "e1000e-pp-test", SKIPS_ALL)
    script(qtest_build / "e1000e-pp-rx-test", SKIPS_ALL)
    res = testrun.run_qtest()
    assert counts(res) == (0, 2, 4, 2)
    assert res.notes == [
        "e1000e-pp-test: all 2 test(s) skipped, 2 skipped as device not "
        "built into this QEMU binary (/x86_64/e1000e-pp/a, ...)",
        "e1000e-pp-rx-test: all 2 test(s) skipped, 2 skipped as device "
        "not built into this QEMU binary (/x86_64/e1000e-pp/a, ...)"]


ONE_MODEL_MISSING = """
    names = ["/x86_64/e1000e-pp/a", "/x86_64/e1000e/a"]
    if sys.argv[1:] == ["-l"]:
        print("\\n".join(names))
        sys.exit(0)
    print("1..2")
    print("ok 1 /x86_64/e1000e-pp/a # SKIP device not built into this "
          "QEMU binary")
    print("ok 2 /x86_64/e1000e/a")
"""


def test_qtest_model_missing_fails_though_stock_passes(qtest_build):
    script(qtest_build / "e1000e-pp-test", ONE_MODEL_MISSING)
    script(qtest_build / "e1000e-pp-rx-test", GLIB_LIKE)
    res = testrun.run_qtest()
    assert counts(res) == (5, 1, 1, 1)
    assert res.note == ("e1000e-pp-test: 1 skipped as device not built "
                        "into this QEMU binary (/x86_64/e1000e-pp/a)")


def test_qtest_binary_with_no_scenario_fails(qtest_build):
    script(qtest_build / "e1000e-pp-test", 'print("1..0")\n')
    script(qtest_build / "e1000e-pp-rx-test", GLIB_LIKE)
    res = testrun.run_qtest()
    assert counts(res) == (4, 1, 0, 1)
    assert res.note == "e1000e-pp-test: ran no test"


def test_empty_qtest_suite_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "QEMU_BUILD", meson_build(
        tmp_path / "qemu-build", ("other-test", "qtest", ["x"], {})))
    res = testrun.run_qtest()
    assert counts(res) == (0, 1, 0, 1)
    assert res.note.startswith("no test() of suite e1000e-pp in ")


# -- each rule fails the whole run, with its reason in the table ------------

SKIPS_EVERYTHING = """
    print("1..2")
    print("ok 1 - a # SKIP device e1000e-pp not in this QEMU")
    print("ok 2 - b # SKIP device e1000e-pp not in this QEMU")
"""


@pytest.mark.parametrize("rule", ["skips everything", "hangs", "empty"])
def test_each_runner_rule_fails_the_run(tmp_path, monkeypatch, capsys,
                                        rule):
    """./e1000e-pp test's exit status and summary, through run_suites:
    a binary that skips all its tests, one that hangs and a suite with
    no test each make the run fail and say why."""
    tests = {
        "skips everything": [("skips", "unit", [script(
            tmp_path / "s", SKIPS_EVERYTHING)], {})],
        "hangs": [("hangs", "unit", [script(tmp_path / "t", HANGS),
                                     str(tmp_path / "pid")], {})],
        "empty": [],
    }[rule]
    monkeypatch.setattr(paths, "NATIVE_DIR", meson_build(
        tmp_path / "native", *tests))
    monkeypatch.setitem(testrun.SUITE_TIMEOUTS, "unit", 2)
    monkeypatch.setattr(testrun, "LAST_TEST", str(tmp_path / "last"))
    monkeypatch.setattr(testrun, "SUITES",
                        {"unit": lambda k=None: testrun.run_unit()})
    assert testrun.run_suites(["unit"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1].endswith("failed")
    assert not out.splitlines()[-1].endswith(" 0 failed")
    assert {
        "skips everything": "skips: all 2 test(s) skipped",
        "hangs": "hangs: killed after its 2 s limit",
        "empty": "no test() of suite unit in ",
    }[rule] in out
