# SPDX-License-Identifier: GPL-2.0-or-later
"""`run --driver pagepool[+BUG]` and `bugs`: bad words and combinations
end in one message and exit status 1 before any setup; the fixture table
names files that exist; a cell "catches" a fixture only when it did not
pass for the fixture's reason."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "scripts"))
from e1000epp.bugs import command as bugs_command  # noqa: E402
from e1000epp.common.errors import StepError  # noqa: E402
from e1000epp.image import pagepool_series


def cli(*argv):
    return subprocess.run([str(REPO / "e1000e-pp")] + list(argv),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=60)


@pytest.mark.parametrize("argv, first", [
    (["run", "--driver", "nope"], "error: --driver 'nope': no such driver"),
    (["run", "--driver", "pagepool+nope"],
     "error: --driver 'pagepool+nope': no such driver"),
    (["run", "--driver", "pagepool", "--driver-src", "/tmp"],
     "error: --driver and --driver-src both given"),
    (["run", "--driver", "pagepool", "--debian-kernel", "6.1"],
     "error: --driver pagepool with --debian-kernel 6.1"),
    (["run", "--driver", "pagepool+napi-down", "--kernel", "/nope"],
     "error: --driver and --kernel both given"),
    (["bugs", "--only", "fcs-straddle,nope"],
     "error: --only 'nope': no such fixture"),
])
def test_refused_before_setup(argv, first):
    p = cli(*argv)
    assert p.returncode == 1, p.stderr
    lines = (p.stdout + p.stderr).strip().splitlines()
    assert lines[0] == first, lines
    assert any(ln.strip().startswith("what to do:") for ln in lines)
    assert "[setup" not in p.stdout


def test_every_word_names_a_fixture_file():
    assert pagepool_series.choices()[0] == "pagepool"
    assert pagepool_series.parse("pagepool") is None
    for bug in pagepool_series.BUGS:
        assert pagepool_series.parse(f"pagepool+{bug}") == bug
        patch = pagepool_series.fixture_patch(bug)
        assert os.path.basename(patch).startswith(
            pagepool_series.BUGS[bug] + "-FIXTURE-")
    with pytest.raises(StepError):
        pagepool_series.parse("stock")


def test_every_fixture_is_targeted():
    assert set(bugs_command.TARGETS) == set(pagepool_series.BUGS)


def test_each_fixtures_cells_run_in_the_matrix_that_has_them():
    args = {bug: bugs_command.matrix_args(t[0])
            for bug, t in bugs_command.TARGETS.items()}
    # reset-pm's cell is in the race matrix only; the others are in the
    # default one.
    assert args.pop("reset-pm") == ["--matrix", "race"]
    assert all(a == [] for a in args.values()), args
    with pytest.raises(StepError):
        bugs_command.matrix_args("mtu1500-strip-msix-noiommu-nosuchfamily")


def test_caught_needs_a_failure_for_the_fixtures_reason():
    pattern = bugs_command.TARGETS["fcs-straddle"][1]
    ok = {"cell": "a", "status": "pass", "reason": ""}
    other = {"cell": "b", "status": "fail",
             "reason": "dmesg free of WARN/BUG/Oops: WARNING at ..."}
    hit = {"cell": "c", "status": "fail",
           "reason": "frames peer->guest (agent): good 24 (want 36), "
                     "corrupt 12"}
    assert bugs_command.judge([ok, other], pattern) == (
        None, "not caught: failed for another reason: b fail: dmesg free "
        "of WARN/BUG/Oops: WARNING at ...")
    assert bugs_command.judge([ok, other, hit], pattern) == (hit, None)
