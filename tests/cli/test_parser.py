# SPDX-License-Identifier: GPL-2.0-or-later
"""Command-line parsing: defaults, the one setup decision, one-line errors."""

import pytest

from e1000epp import cli
from e1000epp.selftest import command as selftest_command


def parse(*argv):
    return cli.build_parser().parse_args(list(argv))


def usage_error(capsys, *argv):
    """Parse argv expecting a usage error: (exit code, stderr lines)."""
    with pytest.raises(SystemExit) as e:
        parse(*argv)
    return e.value.code, capsys.readouterr().err.splitlines()


# -- which commands set up ---------------------------------------------------

@pytest.mark.parametrize("command, setup", [
    ("test", cli.SETUP_ALL), ("run", cli.SETUP_ALL),
    ("bench", cli.SETUP_NO_GUEST), ("report", cli.SETUP_NO_GUEST),
    ("race", cli.SETUP_NO_GUEST), ("fuzz", cli.SETUP_NO_GUEST),
    ("kselftest", cli.SETUP_ALL), ("setup", None)])
def test_setup_decided_per_command(command, setup):
    a = parse(command)
    assert a.setup == setup
    if setup:
        assert a.no_setup is False and a.jobs is None
        assert parse(command, "--no-setup", "-j", "3").no_setup is True
        assert parse(command, "--jobs", "3").jobs == 3


def test_every_command_is_in_the_table():
    names = [c.name for c in cli.COMMANDS]
    assert names == ["setup", "qemu", "test", "run", "merge", "bench",
                     "report", "race", "fuzz", "resume", "replay", "soak",
                     "bugs", "mutate", "kselftest"]
    for c in cli.COMMANDS:
        if c.name == "merge":
            assert parse(c.name, "--report", "out", "shard1").run is c.run
        elif c.name in ("resume", "replay"):
            assert parse(c.name, "celldir").run is c.run
        elif c.name == "soak":
            assert parse(c.name, "--minutes", "2").run is c.run
        elif c.name != "qemu":
            assert parse(c.name).run is c.run


class Recorder:
    def __init__(self):
        self.calls = []

    def setup(self, jobs=None, skip_guest=False, verbose=False,
              sanitized=False, fuzzing=False):
        self.calls.append(("setup", jobs, skip_guest) +
                          (("sanitized",) if sanitized else ()) +
                          (("fuzzing",) if fuzzing else ()))

    def command(self, args):
        self.calls.append(("run", args.command))
        return 0


@pytest.fixture
def recorder(monkeypatch):
    from e1000epp.setup import command as setup_command
    rec = Recorder()
    monkeypatch.setattr(setup_command, "run_setup", rec.setup)
    monkeypatch.setattr(cli, "COMMANDS", [c._replace(run=rec.command)
                                          for c in cli.COMMANDS])
    return rec


@pytest.mark.parametrize("argv, calls", [
    (["test"], [("setup", None, False), ("run", "test")]),
    (["test", "-j", "2"], [("setup", 2, False), ("run", "test")]),
    (["test", "--no-setup"], [("run", "test")]),
    # The sanitized emulator is set up only for the suite that uses it.
    (["test", "--suite", "unit,qtest-sanitized"],
     [("setup", None, False, "sanitized"), ("run", "test")]),
    (["test", "--suite", "qtest-sanitized", "--no-setup"],
     [("run", "test")]),
    (["run", "--device", "e1000e"], [("setup", None, False),
                                     ("run", "run")]),
    (["run", "--no-setup"], [("run", "run")]),
    # Listing the matrix needs nothing built.
    (["run", "--list"], [("run", "run")]),
    (["bench", "--only", "rx"], [("setup", None, True), ("run", "bench")]),
    (["report", "--no-setup"], [("run", "report")]),
    (["fuzz", "--minutes", "1"], [("setup", None, True), ("run", "fuzz")]),
    (["fuzz", "--whole-device"],
     [("setup", None, True, "fuzzing"), ("run", "fuzz")]),
    (["report", "-j", "4"], [("setup", 4, True), ("run", "report")]),
    (["setup", "-j", "4"], [("run", "setup")]),
])
def test_dispatch_sets_up_once_before_the_command(recorder, argv, calls):
    rc, debug = cli.dispatch(argv)
    assert (rc, debug) == (0, False)
    assert recorder.calls == calls


# -- values ------------------------------------------------------------------

def test_suites_default_to_all_and_keep_the_given_order():
    assert parse("test").suite == ["cli", "unit", "qtest", "functional"]
    # the sanitized qtests and the clang unit build need builds of their
    # own: only when asked for
    assert selftest_command.SUITE_NAMES == ["cli", "unit", "qtest", "functional",
                                            "qtest-sanitized", "unit-clang",
                                            "replay"]
    assert parse("test", "--suite", "qtest-sanitized").suite == \
        ["qtest-sanitized"]
    assert parse("test", "--suite", "qtest,unit,qtest").suite == \
        ["qtest", "unit"]
    assert parse("test", "--suite", " unit , ").suite == ["unit"]


def test_k_is_kept_verbatim():
    assert parse("test").k is None
    assert parse("test", "-k", "/x86_64/e1000e-pp/").k == "/x86_64/e1000e-pp/"
    assert parse("run", "-k", "Probe").k == "Probe"


def test_report_dir_is_absolute(tmp_path, monkeypatch):
    assert parse("run", "--report", str(tmp_path / "new" / "dir")).report \
        == str(tmp_path / "new" / "dir")
    monkeypatch.chdir(tmp_path)
    assert parse("run", "--report", "rel").report == str(tmp_path / "rel")


def test_bench_numbers():
    a = parse("bench", "--frames", "10", "--repeat", "99",
              "--tx-seconds", "0.5", "--tx-repeat", "15")
    assert (a.frames, a.repeat, a.tx_seconds, a.tx_repeat) == \
        (10, 99, 0.5, 15)


def test_bench_insn_takes_a_profile_depth():
    a = parse("bench", "--insn", "--profile", "12", "--only", "rx")
    assert (a.insn, a.profile, a.only) == (True, 12, "rx")
    assert (parse("bench").insn, parse("bench").profile) == (False, 0)


def test_run_traffic_timeout_defaults_to_two_minutes():
    # docs/usage/run.md: a cell waits 120 s for frames unless told otherwise
    assert parse("run").traffic_timeout == 120
    assert parse("run", "--traffic-timeout", "20").traffic_timeout == 20


# -- errors: one line, exit 2, no traceback ----------------------------------

@pytest.mark.parametrize("argv, message", [
    ([], "e1000e-pp: error: the following arguments are required: COMMAND"),
    (["frobnicate"], "e1000e-pp: error: argument COMMAND: invalid choice: "
     "'frobnicate'"),
    (["test", "--suite", "foo"], "e1000e-pp test: error: argument --suite: "
     "unknown suite 'foo' (choose from cli,unit,qtest,functional,"
     "qtest-sanitized,unit-clang,replay)"),
    (["test", "--suite", "unit,a,b"], "e1000e-pp test: error: argument "
     "--suite: unknown suites 'a', 'b' (choose from "),
    (["test", "--suite", ","], "e1000e-pp test: error: argument --suite: "
     "no suite given"),
    (["test", "-j", "0"], "e1000e-pp test: error: argument --jobs/-j: must "
     "be a positive integer, not '0'"),
    (["setup", "-j", "two"], "e1000e-pp setup: error: argument --jobs/-j: "
     "must be a positive integer, not 'two'"),
    (["test", "-k", ""], "e1000e-pp test: error: argument -k: must not be "
     "empty"),
    (["run", "--device", "e1000"], "e1000e-pp run: error: argument "
     "--device: invalid choice: 'e1000'"),
    (["bench", "--frames", "-1"], "e1000e-pp bench: error: argument "
     "--frames: must be a positive integer"),
    (["bench", "--repeat", "100"], "e1000e-pp bench: error: argument "
     "--repeat: must be a whole number from 1 to 99, not '100'"),
    (["bench", "--tx-seconds", "0"], "e1000e-pp bench: error: argument "
     "--tx-seconds: must be a number of seconds in (0, 600], not '0'"),
    (["bench", "--insn", "--profile", "-1"], "e1000e-pp bench: error: "
     "argument --profile: must be a whole number from 0 to 100, not '-1'"),
    (["run", "--traffic-timeout", "4"], "e1000e-pp run: error: argument "
     "--traffic-timeout: must be a whole number from 5 to 3600, not '4'"),
    (["run", "--traffic-timeout", "1m"], "e1000e-pp run: error: argument "
     "--traffic-timeout: must be a whole number from 5 to 3600, not '1m'"),
    (["setup", "--no-setup"], "e1000e-pp: error: unrecognized arguments: "
     "--no-setup"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, err = usage_error(capsys, *argv)
    assert code == 2
    assert len(err) == 1
    assert err[0].startswith(message)


def test_bad_report_paths(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    code, err = usage_error(capsys, "run", "--report", str(f))
    assert (code, err) == (2, [
        "e1000e-pp run: error: argument --report: %s exists and is not a "
        "directory (see e1000e-pp run --help)" % f])
    code, err = usage_error(capsys, "run", "--report", str(f / "sub"))
    assert (code, err) == (2, [
        "e1000e-pp run: error: argument --report: cannot create %s: %s is "
        "not a directory (see e1000e-pp run --help)" % (f / "sub", f)])


def test_main_returns_2_without_traceback(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["test", "--suite", "nope"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_setup_builds_the_sanitized_emulator_only_when_asked():
    assert parse("setup").sanitized is False
    assert parse("setup", "--sanitized").sanitized is True
