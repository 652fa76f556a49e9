# SPDX-License-Identifier: GPL-2.0-or-later
"""The compiled suites through `meson test`: a real meson project of
small TAP programs, its logs read into the suite's counts, and the rules
meson has not (a skip that must fail, -k on single tests)."""

import os
import subprocess
import sys
import textwrap

import pytest

from e1000epp.selftest import meson_suite
from e1000epp.selftest.meson_suite import DEVICE_MISSING, run_meson_suite


def counts(res):
    return (res.passed, res.failed, res.skipped, res.broken)


def program(d, name, body):
    """An executable Python program; it prints TAP, and with -l lists
    GLib paths and honours -s PATH as a GLib test binary does."""
    path = d / name
    path.write_text("#!%s\nimport os, sys, time\n%s" % (
        sys.executable, textwrap.dedent(body)))
    path.chmod(0o755)
    return path


GLIB_LIKE = """
    tests = ["/x86_64/e1000e-pp/rx_mtu_1500", "/x86_64/e1000e-pp/rx_mtu_9000",
             "/x86_64/e1000e/rx_mtu_1500"]
    if "-l" in sys.argv:
        print("\\n".join(tests)); sys.exit(0)
    skip = [a for i, a in enumerate(sys.argv) if sys.argv[i - 1] == "-s"]
    print("1..%d" % len(tests))
    for i, t in enumerate(tests, 1):
        print("ok %d %s%s" % (i, t, " # SKIP by request" if t in skip
                               else ""))
    with open(os.environ["RUNS"], "a") as f:
        f.write(" ".join(t for t in tests if t not in skip) + "\\n")
"""


def project(tmp_path, tests):
    """Set up a meson project whose test()s run `tests`: {name: (body,
    suite, extra test() keywords)}; returns the build directory."""
    src = tmp_path / "src"
    src.mkdir()
    lines = ["project('t', meson_version: '>= 1.0')"]
    for name, (body, suite, extra) in tests.items():
        program(src, name, body)
        lines.append("test('%s', find_program('%s'), protocol: 'tap', "
                     "suite: '%s'%s)" % (name, name, suite, extra))
    (src / "meson.build").write_text("\n".join(lines) + "\n")
    build = tmp_path / "build"
    subprocess.run(["meson", "setup", str(build), str(src)], check=True,
                   stdout=subprocess.DEVNULL)
    return str(build)


@pytest.fixture
def runs(tmp_path, monkeypatch):
    path = tmp_path / "runs"
    monkeypatch.setenv("RUNS", str(path))
    return path


def test_counts_every_tap_result_of_every_test(tmp_path):
    build = project(tmp_path, {
        "good": ("print('1..3\\nok 1 a\\nok 2 b # SKIP stock differs\\n"
                 "ok 3 c')", "unit", ""),
        "bad": ("print('1..2\\nok 1 a\\nnot ok 2 b'); sys.exit(1)", "unit",
                ""),
        "other": ("print('1..1\\nok 1 a')", "elsewhere", ""),
    })
    res = run_meson_suite("unit", build, "unit")
    assert counts(res) == (3, 1, 1, 0)
    assert res.notes[0] == ("bad: exited with an error (ERROR; last output: "
                            "not ok 2 b)")
    assert res.notes[-1].endswith("/meson-logs/e1000e-pp-unit*")


def test_k_counts_the_selected_names_of_a_tap_program(tmp_path):
    build = project(tmp_path, {
        "core": ("print('1..3\\nok 1 rx/one\\nok 2 rx/two\\nnot ok 3 tx')",
                 "unit", ""),
    })
    res = run_meson_suite("unit", build, "unit", k="core/RX")
    # the failure outside -k explains the exit status: no failure here
    assert counts(res) == (2, 0, 0, 0)
    assert res.notes == ["core: failed (FAIL; last output: not ok 3 tx)"]


@pytest.mark.parametrize("rule, body, why", [
    ("skips all", "print('1..2\\nok 1 a # SKIP x\\nok 2 b # SKIP x')",
     "all 2 test(s) skipped"),
    ("no test", "print('1..0')", "ran no test"),
    ("dies", "print('1..2\\nok 1 a'); sys.stdout.flush(); os.abort()",
     "exited with an error"),
    ("hangs", "print('1..2\\nok 1 a'); sys.stdout.flush(); time.sleep(60)",
     "killed at its timeout (TIMEOUT; last output: ok 1 a)"),
])
def test_a_program_no_failed_result_explains_fails(tmp_path, rule, body,
                                                   why):
    build = project(tmp_path, {"p": (body, "unit", ", timeout: 2")})
    res = run_meson_suite("unit", build, "unit")
    assert res.failed == res.broken == 1
    assert res.notes[0].startswith("p: " + why)


def test_a_device_missing_from_qemu_fails_though_the_rest_passes(tmp_path):
    build = project(tmp_path, {
        "q": ("print('1..2\\nok 1 /x86_64/e1000e/a\\nok 2 /x86_64/"
              "e1000e-pp/a # SKIP %s')" % DEVICE_MISSING, "e1000e-pp", ""),
    })
    res = run_meson_suite("qtest", build, "e1000e-pp", glib=True)
    assert counts(res) == (1, 1, 1, 1)
    assert res.notes[0] == ("q: 1 skipped as %s (/x86_64/e1000e-pp/a)"
                            % DEVICE_MISSING)


def test_k_runs_a_glib_binary_on_the_matching_paths_only(tmp_path, runs):
    build = project(tmp_path, {
        "rx": (GLIB_LIKE, "e1000e-pp", ""),
        "tx": (GLIB_LIKE.replace("rx_mtu", "tx_mtu"), "e1000e-pp", ""),
    })
    res = run_meson_suite("qtest", build, "e1000e-pp", k="pp/rx_mtu",
                          glib=True)
    # the paths left out are skipped, not counted
    assert counts(res) == (2, 0, 0, 0)
    # one run, of rx alone, running the matching paths only
    assert runs.read_text() == ("/x86_64/e1000e-pp/rx_mtu_1500 "
                                "/x86_64/e1000e-pp/rx_mtu_9000\n")
    res = run_meson_suite("qtest", build, "e1000e-pp", glib=True)
    assert counts(res) == (6, 0, 0, 0)


def test_a_test_whose_program_is_missing_fails_and_the_rest_run(tmp_path):
    build = project(tmp_path, {
        "a": ("print('1..1\\nok 1 a')", "unit", ""),
        "b": ("print('1..1\\nok 1 b')", "unit", ""),
    })
    os.unlink(tmp_path / "src" / "b")
    res = run_meson_suite("unit", build, "unit")
    assert counts(res) == (1, 1, 0, 1)
    assert res.notes[0].startswith("b: ") and "is not built" in res.notes[0]


def test_the_wrapper_environment_wins_over_the_test_s_own(tmp_path):
    """The sanitized suite runs the same test()s on another QEMU: the
    QTEST_QEMU_BINARY their meson.build sets is replaced."""
    build = project(tmp_path, {
        "q": ("print('1..1'); print('ok 1 ' + "
              "os.environ['QTEST_QEMU_BINARY'])", "e1000e-pp",
              ", env: {'QTEST_QEMU_BINARY': '/bin/true'}"),
    })
    res = run_meson_suite("qtest-sanitized", build, "e1000e-pp",
                          wrapper_env={"QTEST_QEMU_BINARY": "/bin/false"})
    assert counts(res) == (1, 0, 0, 0)
    log = os.path.join(build, "meson-logs",
                       "e1000e-pp-qtest-sanitized-env.junit.xml")
    cases = meson_suite.read_junit(log)
    assert cases == {"q": [("/bin/false", "passed", "")]}


def test_a_build_that_is_not_set_up_fails(tmp_path):
    res = run_meson_suite("unit", str(tmp_path / "nothing"), "unit")
    assert counts(res) == (0, 1, 0, 1)
    assert len(res.notes) == 1
    assert res.notes[0].endswith("/nothing is not set up: run ./e1000e-pp "
                                 "setup")


def test_a_suite_with_no_test_fails(tmp_path):
    build = project(tmp_path, {"a": ("print('1..1\\nok 1 a')", "x", "")})
    res = run_meson_suite("unit", build, "unit")
    assert res.notes[0].startswith("no test() of suite unit in ")


@pytest.mark.parametrize("rule, body, why", [
    ("bails out", "print('1..3\\nok 1 a\\nBail out! no device')",
     "exited with an error"),
    ("plan not met", "print('1..3\\nok 1 a\\nok 2 b')",
     "exited with an error"),
])
def test_an_incomplete_tap_stream_fails(tmp_path, rule, body, why):
    build = project(tmp_path, {"p": (body, "unit", "")})
    res = run_meson_suite("unit", build, "unit")
    assert res.broken == 1
    assert res.notes[0].startswith("p: " + why)


def test_k_matching_no_glib_path_runs_nothing_and_fails_nothing(tmp_path,
                                                                runs):
    build = project(tmp_path, {"rx": (GLIB_LIKE, "e1000e-pp", "")})
    res = run_meson_suite("qtest", build, "e1000e-pp", k="no_such_test",
                          glib=True)
    assert counts(res) == (0, 0, 0, 0)
    assert not runs.exists()


def test_a_glib_binary_that_cannot_list_its_paths_fails_under_k(tmp_path):
    build = project(tmp_path, {
        "rx": ("sys.exit(3) if '-l' in sys.argv else print('1..0')",
               "e1000e-pp", ""),
    })
    res = run_meson_suite("qtest", build, "e1000e-pp", k="rx", glib=True)
    assert counts(res) == (0, 1, 0, 1)
    assert res.notes[0] == "rx: -l (list the tests) failed"


def test_a_stock_difference_skip_is_only_a_skip(tmp_path):
    build = project(tmp_path, {
        "q": ("print('1..2\\nok 1 /x86_64/e1000e-pp/a\\nok 2 /x86_64/e1000e/"
              "a # SKIP stock e1000e differs: no FCS')", "e1000e-pp", ""),
    })
    res = run_meson_suite("qtest", build, "e1000e-pp", glib=True)
    assert counts(res) == (1, 0, 1, 0)
    assert res.notes == []


def test_the_sanitized_suite_without_its_qemu_says_how_to_build_it(
        tmp_path, monkeypatch):
    build = project(tmp_path, {"q": ("print('1..1\\nok 1 a')", "e1000e-pp",
                                     "")})
    missing = str(tmp_path / "qemu-sanitized" / "qemu-system-x86_64")
    monkeypatch.setattr(meson_suite.paths, "QEMU_SANITIZED_BIN", missing)
    res = run_meson_suite("qtest-sanitized", build, "e1000e-pp",
                          wrapper_env={"QTEST_QEMU_BINARY": missing})
    assert counts(res) == (0, 1, 0, 1)
    assert res.notes[0].startswith("q: ")
    assert res.notes[0].endswith("is not built: run ./e1000e-pp setup "
                                 "--sanitized")
