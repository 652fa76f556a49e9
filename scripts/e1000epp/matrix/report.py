# SPDX-License-Identifier: GPL-2.0-or-later
"""The matrix's reports: results.json, junit.xml, summary.txt, report.html
and each cell's index.html; the terminal table and progress line; the
comparison with a baseline report and the merge of shard reports.

Files only, no VMs: a result is the dict Cell.result() makes (matrix.py),
with the cost and coverage parts cost_table.py and diagnosis.py read.
"""

import html
import json
import os
import shutil
import time
import xml.etree.ElementTree as ET
from collections import OrderedDict

from e1000epp.matrix import cost_table, diagnosis
from e1000epp.matrix.cell_model import ERROR, FAIL, MatrixError, PASS

# What every cell's entry in results.json holds (Cell.result).
RESULT_KEYS = ("cell", "mtu", "config", "row", "status", "reason",
               "seconds", "evidence")


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def load_results(report_dir):
    path = os.path.join(report_dir, "results.json")
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise MatrixError(f"{report_dir} is not a matrix report "
                          "(no results.json)",
                          "point at a directory written by ./e1000e-pp run")
    except ValueError as e:
        raise MatrixError(f"{path} is not valid JSON: {e}",
                          "re-run the matrix to rewrite it")
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise MatrixError(f"{path} has no list of cells",
                          "re-run the matrix to rewrite it")
    for r in cells:
        missing = [k for k in RESULT_KEYS
                   if not isinstance(r, dict) or k not in r]
        if missing:
            name = r.get("cell", "?") if isinstance(r, dict) else "?"
            raise MatrixError(f"{path}: cell {name} has no "
                              f"{', '.join(missing)} (a report from an "
                              "older e1000e-pp?)",
                              "re-run the matrix to rewrite it")
    return data


def fmt_secs(s):
    s = int(round(s))
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def progress_line(done, total, elapsed, cell_times, result):
    left = total - done
    per = (sorted(cell_times)[len(cell_times) // 2] if cell_times else 0)
    eta = f"~{fmt_secs(per * left)} left" if cell_times and left else ""
    reason = f"  {result['reason'].splitlines()[0][:70]}" \
        if result["status"] != PASS else ""
    return (f"[{done}/{total} {fmt_secs(elapsed)}{' ' + eta if eta else ''}]"
            f" {result['status'].upper():5} {result['cell']} "
            f"({result['seconds']:.1f}s){reason}")


def grid(results):
    """(mtus, configs, {(config, mtu): result}): the matrix as a grid with
    one row per configuration (the cell name without its MTU) and one
    column per MTU, rows in the order of the matrix's axes."""
    mtus, rows, at = set(), {}, {}
    for r in results:
        mtus.add(r["mtu"])
        rows.setdefault(r["config"], tuple(r["row"]))
        at[(r["config"], r["mtu"])] = r
    configs = sorted(rows, key=lambda conf: (rows[conf], conf))
    return sorted(mtus), configs, at


MARK = {PASS: "ok", FAIL: "FAIL", ERROR: "ERR"}


def summary_table(results, changes=None):
    """The terminal table: configurations x MTU, ok/FAIL/ERR, `*` where
    the result changed against the baseline, `.` where no cell is."""
    mtus, configs, at = grid(results)
    header = ["configuration"] + [str(m) for m in mtus]
    lines = []
    for conf in configs:
        line = [conf]
        for m in mtus:
            r = at.get((conf, m))
            mark = "." if r is None else MARK[r["status"]]
            if r and changes and r["cell"] in changes:
                mark += "*"
            if r:
                mark += cost_table.grid_suffix(r)
                mark += diagnosis.grid_suffix(r)
            line.append(mark)
        lines.append(line)
    widths = [max(len(str(x[i])) for x in [header] + lines)
              for i in range(len(header))]
    out = []
    for x in [header] + lines:
        out.append("  ".join(str(v).ljust(w) for v, w in
                             zip(x, widths)).rstrip())
    return "\n".join(out)


def totals_line(results):
    n = {s: sum(r["status"] == s for r in results) for s in (PASS, FAIL,
                                                             ERROR)}
    return (f"{len(results)} cells: {n[PASS]} passed, {n[FAIL]} failed, "
            f"{n[ERROR]} errors")


def write_junit(path, results, suite="e1000e-pp.matrix"):
    ts = ET.Element("testsuite", name=suite, tests=str(len(results)),
                    failures=str(sum(r["status"] == FAIL for r in results)),
                    errors=str(sum(r["status"] == ERROR for r in results)),
                    time="%.1f" % sum(r["seconds"] for r in results))
    for r in results:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=r["cell"],
                           time="%.1f" % r["seconds"])
        props = cost_table.junit_properties(r) + \
            diagnosis.junit_properties(r)
        if props:
            pe = ET.SubElement(tc, "properties")
            for k, v in props:
                ET.SubElement(pe, "property", name=k, value=v)
        if r["status"] != PASS:
            tag = "failure" if r["status"] == FAIL else "error"
            first = r["reason"].splitlines()[0] if r["reason"] else tag
            el = ET.SubElement(tc, tag, message=first)
            el.text = r["reason"]
        ET.SubElement(tc, "system-out").text = \
            "evidence: " + ", ".join(r.get("evidence", []))
    ET.ElementTree(ts).write(path, encoding="utf-8", xml_declaration=True)


def compare(results, baseline):
    """{cell: (before, after)} for the cells of this run whose status
    differs from the baseline's (None: the baseline did not run it).
    Baseline cells this run did not select are not changes."""
    before = {r["cell"]: r["status"] for r in baseline["cells"]}
    after = {r["cell"]: r["status"] for r in results}
    return OrderedDict((c, (before.get(c), after[c])) for c in sorted(after)
                       if before.get(c) != after[c])


def changes_text(changes, baseline_dir):
    if not changes:
        return f"no cell changed against the baseline {baseline_dir}"
    lines = [f"{len(changes)} cells changed against the baseline "
             f"{baseline_dir}:"]
    for c, (b, a) in changes.items():
        lines.append(f"  {c}: {b or 'absent'} -> {a or 'absent'}")
    return "\n".join(lines)


_CSS = """
body{font-family:sans-serif;margin:1em}
table{border-collapse:collapse}
td,th{border:1px solid #999;padding:2px 6px;font-size:12px;text-align:center}
td.pass{background:#c8f0c8} td.fail{background:#f4b0b0}
td.error{background:#f4d890} td.none{background:#eee}
td.changed{outline:3px solid #36c}
#coverage-table th,#coverage-table td{padding:2px 3px}
#coverage-table tr:first-child th{overflow-wrap:anywhere}
#coverage-table th:first-child{white-space:nowrap}
pre{background:#f4f4f4;padding:4px;white-space:pre-wrap}
"""


def write_html(path, meta, results, changes=None, cost_moved=None):
    """A self-contained page: the matrix as a grid (rows: configuration,
    columns: MTU), every cell linking to its evidence directory's index;
    then one section per failing cell."""
    mtus, configs, at = grid(results)
    e = html.escape
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
           f"<title>e1000e-pp matrix {e(meta.get('stamp', ''))}</title>",
           f"<style>{_CSS}</style></head><body>",
           "<h1>e1000e-pp driver regression matrix</h1>",
           "<p>" + "<br>".join(f"{e(k)}: {e(str(v))}"
                               for k, v in meta.items()) + "</p>",
           f"<p>{e(totals_line(results))}</p>",
           "<table id='grid'><tr><th>configuration \\ MTU</th>" +
           "".join(f"<th>{m}</th>" for m in mtus) + "</tr>"]
    for conf in configs:
        out.append(f"<tr><th>{e(conf)}</th>")
        for m in mtus:
            r = at.get((conf, m))
            if r is None:
                out.append("<td class='none'></td>")
                continue
            cls = r["status"] + (" changed" if changes and
                                 r["cell"] in changes else "")
            title = e(r["reason"].splitlines()[0] if r["reason"] else
                      "pass")
            out.append(f"<td class='{cls}' data-cell='{e(r['cell'])}' "
                       f"title='{title}'><a href='cells/{e(r['cell'])}/"
                       f"index.html'>{MARK[r['status']]}</a>"
                       f"{e(cost_table.grid_suffix(r))}"
                       f"{e(diagnosis.grid_suffix(r))}</td>")
        out.append("</tr>")
    out.append("</table>")
    if changes:
        out.append("<h2>Changed against the baseline</h2><ul>")
        out += [f"<li>{e(c)}: {e(str(b))} &rarr; {e(str(a))}</li>"
                for c, (b, a) in changes.items()]
        out.append("</ul>")
    out.append(cost_table.html_section(results, cost_moved))
    out.append(diagnosis.html_section(results))
    bad = [r for r in results if r["status"] != PASS]
    if bad:
        out.append("<h2>Failures</h2>")
        for r in bad:
            out.append(f"<h3><a href='cells/{e(r['cell'])}/index.html'>"
                       f"{e(r['cell'])}</a></h3><pre>{e(r['reason'])}</pre>")
    out.append("</body></html>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_cell_index(cell_dir, result):
    """cells/<name>/index.html: the verdict and a link per evidence file."""
    e = html.escape
    files = sorted(f for f in os.listdir(cell_dir) if f != "index.html")
    body = [f"<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<title>{e(result['cell'])}</title><style>{_CSS}</style>"
            "</head><body>",
            f"<h1>{e(result['cell'])}: {e(result['status'])}</h1>",
            f"<p>{result['seconds']:.1f} s; <a href='../../report.html'>"
            "back to the matrix</a></p>",
            f"<pre>{e(result['reason'] or 'every check passed')}</pre>",
            "<ul>"]
    body += [f"<li><a href='{e(f)}'>{e(f)}</a></li>" for f in files]
    body.append("</ul></body></html>")
    with open(os.path.join(cell_dir, "index.html"), "w") as f:
        f.write("\n".join(body) + "\n")


def write_report(report_dir, meta, results, baseline_dir=None):
    """results.json, junit.xml, summary.txt, report.html (+ changes.txt
    with a baseline). Returns (summary text, changes)."""
    changes = cost_moved = None
    if baseline_dir:
        base = load_results(baseline_dir)
        changes = compare(results, base)
        if cost_table.measured(results):
            cost_moved = cost_table.changes(results, base)
    write_json(os.path.join(report_dir, "results.json"),
               {"meta": meta, "cells": results})
    write_junit(os.path.join(report_dir, "junit.xml"), results)
    for r in results:
        d = os.path.join(report_dir, "cells", r["cell"])
        os.makedirs(d, exist_ok=True)
        write_cell_index(d, r)
    write_html(os.path.join(report_dir, "report.html"), meta, results,
               changes, cost_moved)
    text = summary_table(results, changes) + "\n" + totals_line(results)
    if cost_table.measured(results):
        text += "\n" + cost_table.table(results)
    diag = diagnosis.text_section(results)
    if diag:
        text += "\n" + diag
    if baseline_dir:
        text += "\n" + changes_text(changes, baseline_dir)
        moved = "" if cost_moved is None else \
            "\n" + cost_table.changes_text(cost_moved)
        cov = diagnosis.baseline_text(results, base)
        moved += "\n" + cov if cov else ""
        text += moved
        with open(os.path.join(report_dir, "changes.txt"), "w") as f:
            f.write(changes_text(changes, baseline_dir) + moved + "\n")
    with open(os.path.join(report_dir, "summary.txt"), "w") as f:
        f.write(text + "\n")
    return text, changes


def merge(out_dir, shard_dirs):
    """Combine shard reports into one (cells copied by symlink-free copy
    of their evidence directories). Returns the merged results."""
    os.makedirs(out_dir, exist_ok=True)
    results, metas = [], []
    seen = {}
    for d in shard_dirs:
        data = load_results(d)
        metas.append(data["meta"])
        for r in data["cells"]:
            if r["cell"] in seen:
                raise MatrixError(f"cell {r['cell']} is in both "
                                  f"{seen[r['cell']]} and {d}",
                                  "merge the reports of distinct shards")
            seen[r["cell"]] = d
            results.append(r)
            src = os.path.join(d, "cells", r["cell"])
            dst = os.path.join(out_dir, "cells", r["cell"])
            if os.path.isdir(src) and os.path.abspath(src) != \
                    os.path.abspath(dst):
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(src, dst)
    results.sort(key=lambda r: r["cell"])
    meta = dict(metas[0]) if metas else {}
    meta["merged_from"] = [os.path.abspath(d) for d in shard_dirs]
    meta["shard"] = "merged"
    meta["stamp"] = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return meta, results
