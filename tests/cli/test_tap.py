# SPDX-License-Identifier: GPL-2.0-or-later
"""The TAP reader: exact results for sample streams."""

from e1000epp import tap
from e1000epp.tap import Result


def lines(text):
    return text.strip("\n").splitlines(True)


def test_results_with_numbers_names_and_directives():
    r = tap.parse(lines("""
TAP version 13
1..6
ok 1 - reset_sets_auto_rd
not ok 2 - rx_fcs_straddles
ok 3 - pm_d3hot # SKIP no PM capability here
ok 4 /x86_64/e1000e-pp/pci_identity
not ok 5 - known_gap # TODO not modelled yet
ok 6 - name with \\# hash # skipped: reason text
"""))
    assert r.results == [
        Result(1, True, "reset_sets_auto_rd", "", ""),
        Result(2, False, "rx_fcs_straddles", "", ""),
        Result(3, True, "pm_d3hot", "SKIP", "no PM capability here"),
        Result(4, True, "/x86_64/e1000e-pp/pci_identity", "", ""),
        Result(5, False, "known_gap", "TODO", "not modelled yet"),
        Result(6, True, "name with # hash", "SKIP", "reason text"),
    ]
    assert r.plan == 6
    assert r.bail_out is None
    assert r.counts() == (3, 1, 2)
    assert r.missing() == 0
    assert r.problems() == []


def test_bare_results_and_comments():
    r = tap.parse(lines("""
# random seed: R02S0
ok
not ok
ok - dash only
okay this is chatter
    ok 1 - indented subtest is ignored
ok 7 # SKIP
1..3
"""))
    assert r.results == [
        Result(None, True, "", "", ""),
        Result(None, False, "", "", ""),
        Result(None, True, "dash only", "", ""),
        Result(7, True, "", "SKIP", ""),
    ]
    assert r.plan == 3
    assert r.problems() == ["planned 3 test(s), 4 reported"]


def test_hash_without_directive_stays_in_the_name():
    r = tap.parse(["ok 1 - a # note # TODO later\n"])
    assert r.results == [Result(1, True, "a # note", "TODO", "later")]


def test_plan_at_the_end_glib_running_plans_last_counts():
    r = tap.parse(lines("""
ok 1 /x86_64/e1000e-pp/a
1..1
ok 2 /x86_64/e1000e/a
1..2
"""))
    assert r.plan == 2
    assert r.counts() == (2, 0, 0)
    assert r.problems() == []


def test_bail_out_and_plan_not_met():
    r = tap.parse(lines("""
1..5
ok 1 - first
not ok 2 - second
Bail out! ERROR: assertion failed
"""))
    assert r.bail_out == "ERROR: assertion failed"
    assert r.counts() == (1, 1, 0)
    assert r.missing() == 3
    assert r.problems() == [
        "bailed out after 2 test(s): ERROR: assertion failed",
        "planned 5 test(s), 2 reported"]


def test_bail_out_without_reason_and_missing_plan():
    r = tap.parse(["ok 1 /a\n", "not ok 2 /b\n", "Bail out!\n"])
    assert r.bail_out == ""
    assert r.plan is None
    assert r.missing() == 0
    assert r.problems() == [
        "bailed out after 2 test(s)",
        "no TAP plan (1..N): the run stopped early"]


def test_missing_plan_alone():
    r = tap.parse(["ok 1 - a\n", "ok 2 - b\n"])
    assert r.counts() == (2, 0, 0)
    assert r.problems() == ["no TAP plan (1..N): the run stopped early"]


def test_skip_all_plan():
    r = tap.parse(["1..0 # SKIP no KVM here\n"])
    assert r.plan == 0
    assert r.skip_all == "no KVM here"
    assert r.results == []
    assert r.problems() == []


def test_counts_of_a_selection():
    r = tap.parse(["1..3\n", "ok 1 - a\n", "not ok 2 - b\n",
                   "ok 3 - c # SKIP x\n"])
    assert r.counts([x for x in r.results if x.name != "b"]) == (1, 0, 1)


def test_feed_returns_the_result_of_a_test_line_only():
    r = tap.Report()
    assert r.feed("1..1\n") is None
    assert r.feed("# comment\n") is None
    assert r.feed("ok 1 - x\r\n") == Result(1, True, "x", "", "")
