# SPDX-License-Identifier: GPL-2.0-or-later
"""mutate's reports: every line with its mutants and verdicts, the score
killed / (killed + survived), the not-reached lines, the equivalents
with their reasons, the survivors with the cells that reached them; the
same data in report.json and report.html."""

import json
import os

from e1000epp.mutate import campaign as cp
from e1000epp.mutate import report

LINES = [
    {"file": "netdev.c", "line": 10, "patch": "0001", "function": "rx",
     "text": "\tif (len < n)"},
    {"file": "netdev.c", "line": 11, "patch": "0001", "function": "rx",
     "text": "\t\tput(p);"},
    {"file": "netdev.c", "line": 12, "patch": "0004", "function": "rx",
     "text": "\tgoto out;"},
]


def _rec(mid, verdict, **kw):
    f, line, op, n = mid.split(":")
    r = {"id": mid, "file": f, "line": int(line), "op": op, "n": int(n),
         "patch": "0001", "function": "rx", "mutated": "x",
         "diff": ["-old", f"+new {mid}"], "verdict": verdict,
         "build_s": 10.0}
    r.update(kw)
    return r


def _data(tmp_path):
    recs = [
        _rec("netdev.c:10:rel:0", cp.KILLED, reason="cell a: lost 3",
             cells=["a"]),
        _rec("netdev.c:10:rel:1", cp.SURVIVED, cells=["a", "b"]),
        _rec("netdev.c:10:force:0", cp.KILLED_HANG, reason="no answer"),
        _rec("netdev.c:10:force:1", cp.EQUIVALENT,
             reason="identical object (netdev.o)", build_s=8.0),
        _rec("netdev.c:11:del:0", cp.NOT_REACHED),
        _rec("netdev.c:11:swap:0", cp.NOT_BUILT, reason="too few args",
             build_s=3.0),
    ]
    meta = {"driver": "--driver pagepool", "patches": ["0001-x.patch"],
            "key": "k", "shard": "", "total": 7, "lines": LINES,
            "mutants": [r["id"] for r in recs] + ["netdev.c:11:del:1"]}
    data, text = report.write(str(tmp_path), meta,
                              {r["id"]: r for r in recs})
    return data, text


def test_score_and_lists(tmp_path):
    data, _ = _data(tmp_path)
    assert data["score"] == {"killed": 2, "survived": 1, "score": 0.6667}
    assert data["counts"][cp.KILLED] == 1
    assert data["counts"]["pending"] == 1
    assert data["not_reached"] == ["netdev.c:11"]
    assert data["equivalents"] == [{"id": "netdev.c:10:force:1",
                                    "reason": "identical object "
                                    "(netdev.o)"}]
    assert data["survivors"] == [{"id": "netdev.c:10:rel:1",
                                  "cells": ["a", "b"]}]
    assert data["median_build_s"] == 10.0       # not-built ones left out
    assert [len(ln["mutants"]) for ln in data["lines"]] == [4, 2, 0]
    assert data["by_operator"]["rel"] == {cp.KILLED: 1, cp.SURVIVED: 1}
    assert json.load(open(tmp_path / "report.json"))["score"] == \
        data["score"]


def test_text_lists_every_line_and_mutant(tmp_path):
    _, text = _data(tmp_path)
    assert "netdev.c:10 [0001, rx] if (len < n)" in text
    assert "    rel:1 survived: new netdev.c:10:rel:1" in text
    assert "    force:1 equivalent (identical object (netdev.o)): " in text
    assert "netdev.c:12 [0004, rx] goto out;\n    (no operator applies)" \
        in text
    assert "not reached (no cell executes the line):\n  netdev.c:11" in text
    assert "  netdev.c:10:rel:1: a, b" in text
    assert text.rstrip().endswith("score: 2 killed / 3 killed or survived "
                                  "= 66.7 %")


def test_html_has_the_lines_and_verdicts(tmp_path):
    _data(tmp_path)
    page = open(os.path.join(tmp_path, "report.html")).read()
    assert "<table id='lines'>" in page
    assert "class='survived'" in page and "class='killed'" in page
    assert "class='notreached'" in page
    assert "66.7 %" in page
    assert "<h2>Equivalent mutants</h2>" in page


def test_nothing_judged_has_no_score(tmp_path):
    meta = {"lines": LINES[:1], "mutants": ["netdev.c:10:rel:0"]}
    data, text = report.write(str(tmp_path), meta, {
        "netdev.c:10:rel:0": _rec("netdev.c:10:rel:0", cp.BUILT)})
    assert data["score"]["score"] is None
    assert "no mutant judged in a VM yet" in text


def test_a_baseline_gives_both_scores_and_each_changed_verdict(tmp_path):
    """An earlier campaign of the same patch, before a check was added:
    rel:1 survived then and is killed now; del:0 is new (its line
    changed), swap:9 is gone."""
    before = tmp_path / "before"
    before.mkdir()
    meta = {"lines": LINES[:2], "mutants": ["netdev.c:10:rel:0",
                                            "netdev.c:10:rel:1",
                                            "netdev.c:11:swap:9"]}
    report.write(str(before), meta, {
        "netdev.c:10:rel:0": _rec("netdev.c:10:rel:0", cp.KILLED),
        "netdev.c:10:rel:1": _rec("netdev.c:10:rel:1", cp.SURVIVED),
        "netdev.c:11:swap:9": _rec("netdev.c:11:swap:9", cp.SURVIVED)})
    now = tmp_path / "now"
    now.mkdir()
    meta = {"lines": LINES[:2], "mutants": ["netdev.c:10:rel:0",
                                            "netdev.c:10:rel:1",
                                            "netdev.c:11:del:0"]}
    data, text = report.write(str(now), meta, {
        "netdev.c:10:rel:0": _rec("netdev.c:10:rel:0", cp.KILLED),
        "netdev.c:10:rel:1": _rec("netdev.c:10:rel:1", cp.KILLED),
        "netdev.c:11:del:0": _rec("netdev.c:11:del:0", cp.SURVIVED)},
        report.load_baseline(str(before)))
    assert data["baseline"] == {
        "score": {"killed": 1, "survived": 2, "score": 0.3333},
        "changed": [{"id": "netdev.c:10:rel:1", "was": cp.SURVIVED,
                     "now": cp.KILLED}],
        "new": ["netdev.c:11:del:0"], "gone": ["netdev.c:11:swap:9"]}
    assert "against the baseline: score then 33.3 % (1 of 3); 1 verdicts " \
        "changed, 1 mutants new, 1 gone\n  netdev.c:10:rel:1: survived " \
        "-> killed" in text
    assert "<h2>Against the baseline</h2>" in \
        open(now / "report.html").read()


def test_a_baseline_that_is_no_report_is_refused(tmp_path):
    import pytest
    from e1000epp.common.errors import StepError
    with pytest.raises(StepError) as e:
        report.load_baseline(str(tmp_path))
    assert e.value.what == f"--baseline {tmp_path}: not a campaign's report"
