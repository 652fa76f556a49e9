# SPDX-License-Identifier: GPL-2.0-or-later
"""The cost figures of a matrix run in its reports (run --cost).

Each measured cell's result carries "cost" (cost.metrics()); this module
renders them: a compact figure in the terminal grid, a per-cell table,
JUnit properties, an HTML section with a plot of instructions per
received packet against MTU for each CRC / IOMMU setting (inline SVG),
and the change of every figure against a baseline run.
"""

import html

from e1000epp.matrix.guest_cost import METRICS, fmt

# The figure shown in the grid beside ok/FAIL.
GRID_KEY = "poll_per_rx"
# A change smaller than this (relative) is noise, not a change.
CHANGE_MIN = 0.02


def measured(results):
    return [r for r in results if r.get("cost")]


def grid_suffix(r):
    c = r.get("cost")
    return f" {fmt(c.get(GRID_KEY))}" if c else ""


def table(results):
    """One row per measured cell: every per-packet figure."""
    rows = measured(results)
    if not rows:
        return ""
    header = ["cell"] + [h for _, h, _ in METRICS] + ["rx", "tx"]
    lines = [[r["cell"]] + [fmt(r["cost"].get(k)) for k, _, _ in METRICS] +
             [str(r["cost"].get("rx_packets")),
              str(r["cost"].get("tx_packets"))] for r in rows]
    widths = [max(len(x[i]) for x in [header] + lines)
              for i in range(len(header))]
    out = ["guest cost per packet (instructions; IOMMU work per packet):"]
    for x in [header] + lines:
        out.append("  ".join(v.ljust(w) for v, w in zip(x, widths))
                   .rstrip())
    return "\n".join(out)


def legend():
    return "\n".join(f"  {h:9} {what}" for _, h, what in METRICS)


def junit_properties(r):
    """[(name, value)] for a testcase's <properties>."""
    c = r.get("cost")
    if not c:
        return []
    return [(f"cost.{k}", str(v)) for k, v in sorted(c.items())
            if v is not None]


def changes(results, baseline):
    """[(cell, key, before, after, relative change)] for the figures that
    moved by CHANGE_MIN or more against the baseline's same cell."""
    before = {r["cell"]: r.get("cost") for r in baseline.get("cells", [])}
    out = []
    for r in measured(results):
        b = before.get(r["cell"])
        if not b:
            continue
        for k, _, _ in METRICS:
            x, y = b.get(k), r["cost"].get(k)
            if x is None or y is None:
                continue
            rel = (y - x) / x if x else (0.0 if y == x else 1.0)
            if abs(rel) >= CHANGE_MIN:
                out.append((r["cell"], k, x, y, rel))
    return out


def changes_text(moved):
    if not moved:
        return "cost: no per-packet figure moved by 2% or more"
    heads = {k: h for k, h, _ in METRICS}
    lines = [f"cost: {len(moved)} per-packet figures moved by 2% or more:"]
    for cell, k, x, y, rel in moved:
        lines.append(f"  {cell} {heads[k]}: {fmt(x)} -> {fmt(y)} "
                     f"({rel:+.0%})")
    return "\n".join(lines)


def _series(results, key):
    """{crc-iommu: [(mtu, value)]} from the MSI-X cells without VLAN or
    copybreak (the same driver path at every MTU)."""
    out = {}
    for r in measured(results):
        name = r["cell"]
        parts = name.split("-")
        if len(parts) != 4 or parts[2] != "msix":
            continue
        v = r["cost"].get(key)
        if v is None:
            continue
        out.setdefault(f"{parts[1]}-{parts[3]}", []).append(
            (int(parts[0][3:]), v))
    return {k: sorted(v) for k, v in sorted(out.items())}


COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
           "#8c564b")


def svg_plot(results, key=GRID_KEY, title="e1000e_poll instructions per "
             "received packet"):
    """Inline SVG: key against MTU, one line per CRC / IOMMU setting."""
    series = _series(results, key)
    if not series:
        return ""
    w, h, left, right, top, bottom = 640, 320, 70, 150, 30, 40
    xs = [x for pts in series.values() for x, _ in pts]
    ys = [y for pts in series.values() for _, y in pts]
    x0, x1 = min(xs), max(xs)
    y1 = max(ys) * 1.1 or 1
    if x1 == x0:
        x0, x1 = x0 - 100, x1 + 100

    def px(x):
        return left + (x - x0) / (x1 - x0) * (w - left - right)

    def py(y):
        return top + (1 - y / y1) * (h - top - bottom)

    e = html.escape
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' "
           f"height='{h}' id='cost-plot' role='img'>",
           f"<text x='{left}' y='18' font-size='13'>{e(title)}</text>",
           f"<line x1='{left}' y1='{py(0):.1f}' x2='{w - right}' "
           f"y2='{py(0):.1f}' stroke='#333'/>",
           f"<line x1='{left}' y1='{top}' x2='{left}' y2='{py(0):.1f}' "
           "stroke='#333'/>"]
    for i in range(5):
        y = y1 * i / 4
        out.append(f"<text x='{left - 6}' y='{py(y) + 4:.1f}' "
                   f"font-size='10' text-anchor='end'>"
                   f"{fmt(y) if y else '0'}</text>")
    last = None
    for x in sorted(set(xs)):
        if last is not None and px(x) - px(last) < 26:
            continue        # 4096 beside 4097: one label for both
        last = x
        out.append(f"<text x='{px(x):.1f}' y='{h - bottom + 14}' "
                   f"font-size='9' text-anchor='middle'>{x}</text>")
    out.append(f"<text x='{(left + w - right) / 2:.0f}' y='{h - 6}' "
               "font-size='11' text-anchor='middle'>MTU</text>")
    for i, (name, pts) in enumerate(series.items()):
        col = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f"<polyline fill='none' stroke='{col}' stroke-width='2' "
                   f"points='{path}' data-series='{e(name)}'/>")
        for x, y in pts:
            out.append(f"<circle cx='{px(x):.1f}' cy='{py(y):.1f}' r='3' "
                       f"fill='{col}'><title>{e(name)} MTU {x}: "
                       f"{fmt(y)}</title></circle>")
        ly = top + 16 * i + 10
        out.append(f"<line x1='{w - right + 10}' y1='{ly}' "
                   f"x2='{w - right + 30}' y2='{ly}' stroke='{col}' "
                   "stroke-width='2'/>")
        out.append(f"<text x='{w - right + 34}' y='{ly + 4}' "
                   f"font-size='11'>{e(name)}</text>")
    out.append("</svg>")
    return "\n".join(out)


def html_section(results, moved=None):
    rows = measured(results)
    if not rows:
        return ""
    e = html.escape
    out = ["<h2 id='cost'>Guest cost and IOMMU work per packet</h2>",
           "<p>Guest instructions counted by the TCG cost plugin over each "
           "cell's traffic; IOTLB work from the intel-iommu model's trace "
           "events (docs/cost.md). '-' where not measured.</p>",
           svg_plot(results),
           "<table id='cost-table'><tr><th>cell</th>" +
           "".join(f"<th title='{e(what)}'>{e(h)}</th>"
                   for _, h, what in METRICS) +
           "<th>rx</th><th>tx</th></tr>"]
    for r in rows:
        c = r["cost"]
        out.append(f"<tr><th><a href='cells/{e(r['cell'])}/cost.json'>"
                   f"{e(r['cell'])}</a></th>" +
                   "".join(f"<td>{e(fmt(c.get(k)))}</td>"
                           for k, _, _ in METRICS) +
                   f"<td>{c.get('rx_packets')}</td>"
                   f"<td>{c.get('tx_packets')}</td></tr>")
    out.append("</table>")
    if moved is not None:
        out.append(f"<pre>{e(changes_text(moved))}</pre>")
    return "\n".join(out)
