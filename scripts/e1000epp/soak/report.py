# SPDX-License-Identifier: GPL-2.0-or-later
"""The soak's memory verdict, its plot and its files (soak.py).

Memory drift. Both curves are sampled every minute (--sample-seconds):
QEMU's resident memory (VmRSS of /proc/PID/status, guest RAM
preallocated so that it is all resident from the start) and the guest's
MemAvailable. The judged part is the second half of the run, and never
its first WARMUP_MIN minutes: TCG translates most of the guest's code
and the driver, the sockets and the page pools fill their caches early,
and both curves move for that. Over the judged part the least-squares
slope of each curve must stay under DRIFT_MIB_PER_MIN (QEMU's growing,
the guest's falling). A slope, not the last sample against the first,
because one sample taken while a stream's buffers were full moves an
endpoint by megabytes, while it moves the slope over 15 samples by
1/15 of that at most. 0.5 MiB a minute is 15 MiB over a 30-minute run:
several times what either curve moves by once warm (measured: docs/
security.md, "Soak"), and far under what one lost page per frame or
per event would leak (tens of thousands of frames and hundreds of
events in such a run). A judged part of fewer than MIN_SAMPLES samples
or under MIN_SPAN_MIN minutes is not judged (the short soak of the test
suite): the verdict says so.
"""

import html
import math
import textwrap

DRIFT_MIB_PER_MIN = 0.5
WARMUP_MIN = 5.0
MIN_SAMPLES = 5
MIN_SPAN_MIN = 4.0


def slope(points):
    """Least-squares slope and intercept of [(x, y)]."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return 0.0, my
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    return b, my - b * mx


def judged(samples, minutes):
    """The samples the drift verdict looks at: t >= the later of half the
    run and WARMUP_MIN."""
    start = max(minutes / 2, WARMUP_MIN)
    return [s for s in samples if s["t_min"] >= start - 1e-9]


def drift(samples, minutes, key, sign):
    """The drift analysis of one curve (MiB): {start, end, min, max,
    slope (MiB/min over the judged part), judged, ok, why}; sign +1 for
    a curve that must not grow, -1 for one that must not fall."""
    pts = [(s["t_min"], s[key] / 1024) for s in samples
           if s.get(key) is not None]
    out = {"curve": key, "samples": len(pts),
           "limit_mib_per_min": DRIFT_MIB_PER_MIN * sign}
    if not pts:
        out.update(judged=False, ok=True, why="no samples")
        return out
    out.update(start_mib=round(pts[0][1], 1), end_mib=round(pts[-1][1], 1),
               min_mib=round(min(y for _, y in pts), 1),
               max_mib=round(max(y for _, y in pts), 1))
    part = [(s["t_min"], s[key] / 1024) for s in judged(samples, minutes)
            if s.get(key) is not None]
    if len(part) >= 2:
        b, a = slope(part)
        out.update(slope_mib_per_min=round(b, 3),
                   fit=[part[0][0], a + b * part[0][0], part[-1][0],
                        a + b * part[-1][0]],
                   judged_from_min=round(part[0][0], 2))
    span = part[-1][0] - part[0][0] if part else 0
    if len(part) < MIN_SAMPLES or span < MIN_SPAN_MIN:
        out.update(judged=False, ok=True,
                   why=f"not judged: {len(part)} samples over {span:.1f} "
                   f"min after the warm-up (needs {MIN_SAMPLES} over "
                   f"{MIN_SPAN_MIN:g} min: a run of at least "
                   f"{2 * (WARMUP_MIN + MIN_SPAN_MIN):g} minutes)")
        return out
    b = out["slope_mib_per_min"]
    ok = b * sign <= DRIFT_MIB_PER_MIN
    out.update(judged=True, ok=ok,
               why=f"slope {b:+.3f} MiB/min over {span:.1f} min "
               f"({'within' if ok else 'beyond'} "
               f"{DRIFT_MIB_PER_MIN * sign:+g})")
    return out


# The plot's fonts: DejaVu Sans (Debian's sans-serif) is at most about
# 0.62 em wide a character on average over text like ours; a line of
# 11-pixel text is drawn from 10 pixels above its baseline to 3 under.
FONT, TITLE_FONT = 11, 14
EM_PER_CHAR = 0.62


def _text_width(s, size=FONT):
    return len(s) * size * EM_PER_CHAR


def _wrap(s, width, size=FONT):
    """s as lines of at most width pixels (estimated), as few as can be
    and of even lengths."""
    most = max(10, int(width / (size * EM_PER_CHAR)))
    lines = textwrap.wrap(str(s), most) or [""]
    longest = max(len(word) for word in str(s).split() or [""])
    for chars in range(max(longest, len(str(s)) // len(lines)), most):
        even = textwrap.wrap(str(s), chars)
        if len(even) == len(lines):
            return even
    return lines


def _ticks(lo, hi, most=6):
    """Round values from lo to hi, at most `most` of them (1, 2 or 5
    times a power of ten apart), and their labels."""
    raw = (hi - lo) / (most - 1) or 1.0
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9)
    out = []
    for k in range(first, first + most + 1):
        v = k * step
        if v > hi + step * 1e-9:
            break
        out.append((v, f"{v:.0f}" if step >= 1 else f"{round(v, 9):g}"))
    return out


def svg_plot(samples, analyses, title):
    """Both memory curves, one panel each, with the judged part's fitted
    line: an SVG document (text). The layout follows from the texts:
    the left margin from the widest value label, each panel's header
    from its label and its verdict wrapped to the panel's width, the
    height from all of them."""
    w, ph = 720, 160
    e = html.escape
    tmax = max([s["t_min"] for s in samples] + [1])
    xticks = _ticks(0, tmax)
    panels = []
    for key, label, colour in (
            ("qemu_rss_kib", "QEMU resident memory (VmRSS), MiB",
             "#1f5fa8"),
            ("guest_mem_available_kib", "guest MemAvailable, MiB",
             "#b0451f")):
        pts = [(s["t_min"], s[key] / 1024) for s in samples
               if s.get(key) is not None]
        lo = min([y for _, y in pts] or [0])
        hi = max([y for _, y in pts] or [1])
        pad = max((hi - lo) * 0.1, 2.0)
        panels.append((key, label, colour, pts, lo - pad, hi + pad,
                       _ticks(lo - pad, hi + pad) if pts else []))
    left = 12 + max([40] + [_text_width(t) for p in panels
                            for _, t in p[6]])
    right = max(20, 6 + _text_width(xticks[-1][1]) / 2)
    pw = w - left - right
    out = []
    y = 6
    for line in _wrap(title, w - 20, TITLE_FONT):
        y += 18
        out.append(f'<text x="{w / 2}" y="{y}" text-anchor="middle" '
                   f'font-size="{TITLE_FONT}">{e(line, False)}</text>')
    y += 6
    for key, label, colour, pts, lo, hi, yticks in panels:
        a = analyses.get(key, {})
        y += 14
        out.append(f'<text x="{left}" y="{y}">{e(label, False)}</text>')
        for line in _wrap(a.get("why", ""), pw) if a.get("why") else []:
            y += 14
            out.append(f'<text x="{left}" y="{y}" fill="#444">'
                       f'{e(line, False)}</text>')
        y0 = y + 8
        y = y0 + ph + 18            # the minutes under the panel
        out.append(f'<rect x="{left}" y="{y0}" width="{pw}" '
                   f'height="{ph}" fill="none" stroke="#888"/>')

        def px(t):
            return left + pw * t / tmax

        def py(v):
            return y0 + ph - ph * (v - lo) / (hi - lo)
        for v, text in yticks:
            out.append(f'<line x1="{left - 4}" y1="{py(v):.1f}" '
                       f'x2="{left + pw}" y2="{py(v):.1f}" stroke="#eee"/>')
            out.append(f'<text x="{left - 6}" y="{py(v) + 4:.1f}" '
                       f'text-anchor="end">{text}</text>')
        for t, text in xticks:
            out.append(f'<text x="{px(t):.1f}" y="{y}" '
                       f'text-anchor="middle">{text}</text>')
        y += 12
        if not pts:
            continue
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" '
                   'points="%s"/>' % (colour, " ".join(
                       f"{px(t):.1f},{py(v):.1f}" for t, v in pts)))
        for t, v in pts:
            out.append(f'<circle cx="{px(t):.1f}" cy="{py(v):.1f}" r="2" '
                       f'fill="{colour}"/>')
        if a.get("fit"):
            t1, v1, t2, v2 = a["fit"]
            out.append(f'<line x1="{px(t1):.1f}" y1="{py(v1):.1f}" '
                       f'x2="{px(t2):.1f}" y2="{py(v2):.1f}" stroke="black" '
                       'stroke-dasharray="4 3"/>')
    for line in _wrap("minutes since the guest was ready (dashed: "
                      "least-squares fit over the judged part)", pw):
        y += 14
        out.append(f'<text x="{left + pw / 2}" y="{y}" '
                   f'text-anchor="middle">{e(line, False)}</text>')
    h = y + 8
    return "\n".join(
        [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" '
         f'height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" '
         f'font-size="{FONT}">',
         f'<rect width="{w}" height="{h}" fill="white"/>']
        + out + ["</svg>"]) + "\n"


def summary_text(data):
    """The summary soak.py prints and writes to summary.txt."""
    m = data["meta"]
    lines = [f"soak on {m['device']}: {m['minutes_run']:.1f} min (asked "
             f"{m['minutes']}), seed {m['seed']}: "
             f"{'PASS' if data['ok'] else 'FAIL'}"]
    by = data["events_by_kind"]
    lines.append("events: " + ", ".join(f"{k} {v}" for k, v in
                                        sorted(by.items())) +
                 f" ({sum(by.values())} in all)")
    arp = data.get("arp_unresolved_by_kind") or {}
    if arp:
        lines.append(f"guest's ARP entry for the peer still resolving "
                     f"after {sum(arp.values())} events ("
                     + ", ".join(f"{k} {v}" for k, v in arp.items()) +
                     "): no connection started until it was resolved")
    for k, why in sorted(m["not_run"].items()):
        lines.append(f"  not run: {k}: {why}")
    f = data["frames"]
    lines.append(f"pattern frames: peer->guest {f['p2g_good']} of "
                 f"{f['p2g_sent']} ({f['p2g_missing']} lost, "
                 f"{f['p2g_counted_drops']} drops counted over the rounds), "
                 f"guest->peer {f['g2p_good']} of {f['g2p_sent']}")
    t = data["tcp"]
    for d in ("tx", "rx"):
        lines.append(f"tcp {'guest->peer' if d == 'tx' else 'peer->guest'}:"
                     f" {t[d]['streams']} streams, {t[d]['mib']:.1f} MiB "
                     f"checked, {t[d]['failed']} failed"
                     + (f" ({t[d]['resent']} holes the driver left at "
                        "resets and link loss, filled by TCP's resends)"
                        if t[d].get("resent") else ""))
    c = data["device"]
    lines.append("device: " + c["text"])
    for key in ("qemu_rss_kib", "guest_mem_available_kib"):
        a = data["memory"][key]
        lines.append(f"memory {key}: start {a.get('start_mib')} MiB, end "
                     f"{a.get('end_mib')} MiB, range {a.get('min_mib')}-"
                     f"{a.get('max_mib')}; {a['why']}")
    if data["failures"]:
        lines.append(f"failures ({len(data['failures'])}):")
        lines.extend(f"  {x}" for x in data["failures"][:20])
    return "\n".join(lines)
