# SPDX-License-Identifier: GPL-2.0-or-later
"""A campaign's reports: report.txt, report.json and report.html in the
campaign directory (the text also on the terminal).

Every judged line of the patch with its mutants and their verdicts; the
score, killed / (killed + survived); the lines no cell reached; the
equivalent mutants with their reasons; for each survivor the cells that
reached it. Counts by verdict, by operator and by patch; the median
build time of a mutant.
"""

import collections
import html
import json
import os
import statistics

from e1000epp.common.errors import StepError
from e1000epp.matrix.report import write_json
from e1000epp.mutate import campaign as cp
from e1000epp.mutate import operators


def summarise(meta, records):
    """The report's data (what report.json holds)."""
    recs = {i: records[i] for i in meta["mutants"] if i in records}
    counts = collections.Counter(r["verdict"] for r in recs.values())
    counts["pending"] = len(meta["mutants"]) - len(recs)
    by_op = {op: dict(collections.Counter(
        r["verdict"] for r in recs.values() if r["op"] == op))
        for op in operators.OPERATORS}
    by_patch = collections.defaultdict(collections.Counter)
    for r in recs.values():
        by_patch[r["patch"]][r["verdict"]] += 1
    lines = []
    by_line = collections.defaultdict(list)
    for r in sorted(recs.values(), key=lambda r: operators.sort_key(r["id"])):
        by_line[(r["file"], r["line"])].append(r)
    for ln in meta["lines"]:
        ms = by_line.get((ln["file"], ln["line"]), [])
        lines.append(dict(ln, mutants=[
            {k: m.get(k) for k in ("id", "op", "diff", "verdict", "reason",
                                   "cells", "build_s")} for m in ms]))
    killed = counts[cp.KILLED] + counts[cp.KILLED_HANG]
    survived = counts[cp.SURVIVED]
    builds = [r["build_s"] for r in recs.values()
              if r.get("build_s") and r["verdict"] != cp.NOT_BUILT]
    return {
        "campaign": {k: meta.get(k) for k in (
            "driver", "patches", "key", "shard", "total", "headers",
            "merged_from", "base_build_s")},
        "mutants": len(meta["mutants"]),
        "counts": {v: counts[v] for v in cp.VERDICTS + ("pending",)},
        "score": {"killed": killed, "survived": survived,
                  "score": round(killed / (killed + survived), 4)
                  if killed + survived else None},
        "by_operator": by_op,
        "by_patch": {p: dict(c) for p, c in sorted(by_patch.items())},
        "median_build_s": round(statistics.median(builds), 2)
        if builds else None,
        "lines": lines,
        "not_reached": [f"{r['file']}:{r['line']}" for r in sorted(
            recs.values(), key=lambda r: operators.sort_key(r["id"]))
            if r["verdict"] == cp.NOT_REACHED],
        "equivalents": [{"id": r["id"], "reason": r.get("reason")}
                        for r in recs.values()
                        if r["verdict"] == cp.EQUIVALENT],
        "survivors": [{"id": r["id"], "cells": r.get("cells", [])}
                      for r in recs.values()
                      if r["verdict"] == cp.SURVIVED],
    }


def load_baseline(path):
    """The report.json of an earlier campaign: its directory or the file
    itself; StepError when it is neither."""
    f = os.path.join(path, "report.json") if os.path.isdir(path) else path
    try:
        with open(f) as fh:
            data = json.load(fh)
        data["score"], data["lines"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise StepError(f"--baseline {path}: not a campaign's report",
                        f"{f}: {e}", "give the --out directory of an "
                        "earlier campaign (or its report.json)")
    return data


def _verdicts(data):
    return {m["id"]: m["verdict"] for ln in data["lines"]
            for m in ln["mutants"] if m.get("verdict")}


def compare(data, base):
    """What changed since the baseline campaign: both scores, and per
    mutant id judged in both, a verdict that differs; mutants only in
    one of them (the patch's lines moved or changed)."""
    now, was = _verdicts(data), _verdicts(base)
    changed = [{"id": i, "was": was[i], "now": now[i]}
               for i in sorted(set(now) & set(was), key=operators.sort_key)
               if now[i] != was[i]]
    return {"score": base["score"], "changed": changed,
            "new": sorted(set(now) - set(was), key=operators.sort_key),
            "gone": sorted(set(was) - set(now), key=operators.sort_key)}


def _baseline_text(data):
    b = data.get("baseline")
    if not b:
        return []
    was = b["score"]
    out = ["", "against the baseline: " + (
        f"score then {100 * was['score']:.1f} % ({was['killed']} of "
        f"{was['killed'] + was['survived']})" if was.get("score") is not None
        else "no score then") + f"; {len(b['changed'])} verdicts changed, "
        f"{len(b['new'])} mutants new, {len(b['gone'])} gone"]
    out += [f"  {c['id']}: {c['was']} -> {c['now']}" for c in b["changed"]]
    return out


def _score_line(data):
    s = data["score"]
    if s["score"] is None:
        return "score: no mutant judged in a VM yet (killed + survived = 0)"
    return (f"score: {s['killed']} killed / {s['killed'] + s['survived']} "
            f"killed or survived = {100 * s['score']:.1f} %")


def text(data):
    out = [f"mutants: {data['mutants']} (" + ", ".join(
        f"{v} {n}" for v, n in data["counts"].items() if n) + ")",
        _score_line(data)]
    if data["median_build_s"] is not None:
        out.append(f"median build of one mutant: {data['median_build_s']} s")
    out.append("")
    out.append("by operator: " + "; ".join(
        f"{op} " + ", ".join(f"{v} {n}" for v, n in sorted(c.items()))
        for op, c in data["by_operator"].items() if c))
    out.append("by patch:    " + "; ".join(
        f"{p} " + ", ".join(f"{v} {n}" for v, n in sorted(c.items()))
        for p, c in data["by_patch"].items()))
    out.append("")
    for ln in data["lines"]:
        where = f"{ln['file']}:{ln['line']}"
        out.append(f"{where} [{ln['patch']}"
                   f"{', ' + ln['function'] if ln['function'] else ''}] "
                   f"{ln['text'].strip()}")
        if not ln["mutants"]:
            out.append("    (no operator applies)")
        for m in ln["mutants"]:
            why = f" ({m['reason']})" if m.get("reason") else ""
            plus = " / ".join(d[1:] for d in m["diff"] if d[:1] == "+")
            out.append(f"    {m['op']}:{m['id'].rsplit(':', 1)[1]} "
                       f"{m['verdict']}{why}: {plus}")
    if data["not_reached"]:
        out += ["", "not reached (no cell executes the line):"]
        out += ["  " + x for x in sorted(set(data["not_reached"]))]
    if data["survivors"]:
        out += ["", "survivors (and the cells that reached them):"]
        out += [f"  {s['id']}: " + (", ".join(s["cells"]) or "?")
                for s in data["survivors"]]
    out += _baseline_text(data)
    out.append("")
    out.append(_score_line(data))
    return "\n".join(out) + "\n"


_CSS = """
body{font-family:sans-serif;margin:1em}
table{border-collapse:collapse}
td,th{border:1px solid #999;padding:2px 6px;font-size:12px;text-align:left}
td.killed{background:#c8f0c8} td.survived{background:#f4b0b0}
td.equivalent,td.notbuilt{background:#eee} td.notreached{background:#f4d890}
td.built{background:#dde8f8}
code,pre{font-family:monospace;white-space:pre-wrap}
"""


def _cls(verdict):
    return verdict.split(" (")[0].replace(" ", "")


def write_html(path, data):
    e = html.escape
    c = data["campaign"]
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
           "<title>e1000e-pp mutate</title>",
           f"<style>{_CSS}</style></head><body>",
           "<h1>e1000e-pp mutation campaign</h1>",
           "<p>" + "<br>".join(f"{e(k)}: {e(str(v))}" for k, v in c.items()
                               if v) + "</p>",
           f"<p><b>{e(_score_line(data))}</b><br>mutants "
           f"{data['mutants']}: " + e(", ".join(
               f"{v} {n}" for v, n in data["counts"].items() if n)) + "</p>",
           "<table id='lines'><tr><th>line</th><th>patch</th>"
           "<th>function</th><th>code</th><th>mutant</th><th>verdict</th>"
           "<th>mutated</th></tr>"]
    for ln in data["lines"]:
        ms = ln["mutants"] or [None]
        span = len(ms)
        for k, m in enumerate(ms):
            row = ["<tr>"]
            if k == 0:
                row.append(
                    f"<th rowspan='{span}'>{e(ln['file'])}:{ln['line']}</th>"
                    f"<td rowspan='{span}'>{e(ln['patch'])}</td>"
                    f"<td rowspan='{span}'>{e(ln['function'] or '')}</td>"
                    f"<td rowspan='{span}'><code>{e(ln['text'].strip())}"
                    "</code></td>")
            if m is None:
                row.append("<td colspan='3'>no operator applies</td>")
            else:
                plus = " / ".join(d[1:] for d in m["diff"] if d[:1] == "+")
                why = m.get("reason") or ""
                if m.get("cells"):
                    why += " (cells: " + ", ".join(m["cells"]) + ")"
                row.append(f"<td>{e(m['id'].split(':', 2)[2])}</td>"
                           f"<td class='{_cls(m['verdict'])}' "
                           f"title='{e(why)}'>{e(m['verdict'])}</td>"
                           f"<td><code>{e(plus)}</code></td>")
            row.append("</tr>")
            out.append("".join(row))
    out.append("</table>")
    if data.get("baseline"):
        out.append("<h2>Against the baseline</h2><pre>" + e("\n".join(
            _baseline_text(data)[1:])) + "</pre>")
    if data["equivalents"]:
        out.append("<h2>Equivalent mutants</h2><ul>")
        out += [f"<li>{e(x['id'])}: {e(x['reason'] or '')}</li>"
                for x in data["equivalents"]]
        out.append("</ul>")
    if data["not_reached"]:
        out.append("<h2>Lines no cell reaches</h2><ul>")
        out += [f"<li>{e(x)}</li>" for x in sorted(set(data["not_reached"]))]
        out.append("</ul>")
    out.append("</body></html>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write(campaign_dir, meta, records, baseline=None):
    """report.txt, report.json, report.html; returns (data, text).
    baseline: an earlier campaign's report (load_baseline) to compare
    with."""
    data = summarise(meta, records)
    if baseline is not None:
        data["baseline"] = compare(data, baseline)
    t = text(data)
    with open(os.path.join(campaign_dir, "report.txt"), "w") as f:
        f.write(t)
    write_json(os.path.join(campaign_dir, "report.json"), data)
    write_html(os.path.join(campaign_dir, "report.html"), data)
    return data, t
