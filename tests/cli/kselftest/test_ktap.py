# SPDX-License-Identifier: GPL-2.0-or-later
"""`kselftest`'s KTAP reader and writer (scripts/e1000epp/kselftest/
ktap.py). The expected values are read off the KTAP version 1
specification (the kernel's Documentation/dev-tools/ktap.rst): its
result-line rules, its directives, its nesting by two spaces, and its
worked example's hierarchy, not off the parser."""

import pytest

from e1000epp.kselftest import ktap

# The specification's "Example KTAP output", line for line.
SPEC_EXAMPLE = """\
KTAP version 1
1..1
  KTAP version 1
  1..3
    KTAP version 1
    1..1
    # test_1: initializing test_1
    ok 1 test_1
  ok 1 example_test_1
    KTAP version 1
    1..2
    ok 1 test_1 # SKIP test_1 skipped
    ok 2 test_2
  ok 2 example_test_2
    KTAP version 1
    1..3
    ok 1 test_1
    # test_2: FAIL
    not ok 2 test_2
    ok 3 test_3 # SKIP test_3 skipped
  not ok 3 example_test_3
not ok 1 main_test
"""


def test_spec_example_hierarchy():
    doc = ktap.parse(SPEC_EXAMPLE)
    assert doc.version == 1 and doc.plan == 1
    [main] = doc.results
    assert (main.name, main.outcome) == ("main_test", ktap.FAIL)
    sub = main.subtests
    assert sub.plan == 3
    assert [(r.number, r.name, r.outcome) for r in sub.results] == [
        (1, "example_test_1", ktap.PASS),
        (2, "example_test_2", ktap.PASS),
        (3, "example_test_3", ktap.FAIL)]
    first, second, third = sub.results
    assert [(r.name, r.outcome, r.diagnostics)
            for r in first.subtests.results] == [
        ("test_1", ktap.PASS, ["test_1: initializing test_1"])]
    assert [(r.name, r.outcome, r.reason)
            for r in second.subtests.results] == [
        ("test_1", ktap.SKIP, "test_1 skipped"),
        ("test_2", ktap.PASS, "")]
    assert [(r.name, r.outcome, r.reason, r.diagnostics)
            for r in third.subtests.results] == [
        ("test_1", ktap.PASS, "", []),
        ("test_2", ktap.FAIL, "", ["test_2: FAIL"]),
        ("test_3", ktap.SKIP, "test_3 skipped", [])]
    assert doc.plan_met() and sub.plan_met()


def test_spec_two_level_example():
    # "An example of a test with two nested subtests".
    doc = ktap.parse("KTAP version 1\n1..1\n  KTAP version 1\n  1..2\n"
                     "  ok 1 test_1\n  not ok 2 test_2\n"
                     "# example failed\nnot ok 1 example\n")
    [example] = doc.results
    assert example.name == "example" and example.outcome == ktap.FAIL
    assert example.diagnostics == ["example failed"]
    assert [(r.name, r.outcome) for r in example.subtests.results] == [
        ("test_1", ktap.PASS), ("test_2", ktap.FAIL)]


@pytest.mark.parametrize("line,outcome,name,reason", [
    # The specification's example result lines.
    ("ok 1 test_case_name", ktap.PASS, "test_case_name", ""),
    ("not ok 1 test_case_name", ktap.FAIL, "test_case_name", ""),
    ("ok 1 test # SKIP necessary dependency unavailable", ktap.SKIP,
     "test", "necessary dependency unavailable"),
    ("not ok 1 test # TIMEOUT 30 seconds", ktap.TIMEOUT, "test",
     "30 seconds"),
    ("ok 5 check return code # rcode=0", ktap.PASS, "check return code",
     "rcode=0"),
    # SKIP on a "not ok" line is still a skip.
    ("not ok 2 t # SKIP no device", ktap.SKIP, "t", "no device"),
    ("not ok 3 t # ERROR setup broke", ktap.ERROR, "t", "setup broke"),
    ("ok 4 t # XFAIL not supported", ktap.XFAIL, "t", "not supported"),
    # TODO is "not recognized" in KTAP: the ok / not ok decides.
    ("not ok 6 t # TODO later", ktap.FAIL, "t", "later"),
    # An unknown directive falls back to ok / not ok.
    ("ok 7 t # FROB x", ktap.PASS, "t", "FROB x"),
    # The description is optional.
    ("ok 8", ktap.PASS, "", ""),
])
def test_result_lines(line, outcome, name, reason):
    doc = ktap.parse(f"KTAP version 1\n1..1\n{line}\n")
    [r] = doc.results
    assert (r.outcome, r.name, r.reason) == (outcome, name, reason)


def test_unknown_lines_do_not_decide_results():
    # Unknown lines are allowed anywhere and influence no status.
    doc = ktap.parse("some kernel message\nKTAP version 1\n1..2\n"
                     "random text\nok 1 a\n[  1.0] more noise\n"
                     "not ok 2 b\n")
    assert [(r.name, r.outcome) for r in doc.results] == [
        ("a", ktap.PASS), ("b", ktap.FAIL)]
    assert doc.results[1].diagnostics == ["[  1.0] more noise"]


def test_plan_not_met_when_results_are_missing():
    doc = ktap.parse("KTAP version 1\n1..3\nok 1 a\nok 2 b\n")
    assert not doc.plan_met()
    assert ktap.parse("KTAP version 1\n1..2\nok 1 a\nok 2 b\n").plan_met()


def test_no_ktap_at_all():
    assert ktap.parse("Traceback (most recent call last):\n  boom\n") \
        is None


def test_tap13_version_line_accepted():
    doc = ktap.parse("TAP version 13\n1..1\nok 1 x\n")
    assert doc.version == 13 and doc.results[0].outcome == ktap.PASS


def test_result_line_writer():
    assert ktap.result_line(True, 1, "a") == "ok 1 a"
    assert ktap.result_line(False, 2, "b") == "not ok 2 b"
    assert ktap.result_line(True, 3, "c", "SKIP", "why") == \
        "ok 3 c # SKIP why"
    assert ktap.result_line(False, 4, "d", None, "exit=1") == \
        "not ok 4 d # exit=1"
    # "#" may not appear in a description.
    assert ktap.result_line(True, 5, "a#b") == "ok 5 ab"


def test_nest_indents_two_spaces_and_round_trips():
    child = ["KTAP version 1", "1..1", "ok 1 inner"]
    lines = ["KTAP version 1", "1..1"] + ktap.nest(child) + \
        [ktap.result_line(True, 1, "outer")]
    assert lines[2:5] == ["  KTAP version 1", "  1..1", "  ok 1 inner"]
    doc = ktap.parse(lines)
    [outer] = doc.results
    assert outer.name == "outer"
    assert [r.name for r in outer.subtests.results] == ["inner"]
