# SPDX-License-Identifier: GPL-2.0-or-later
"""The project's pictures as a browser draws them: an SVG or HTML report
opened in headless Chromium (Debian's, installed by setup/apt.py), every
piece of text measured, and what a reader would see wrong listed.

How: the file is copied into a temporary HTML page (an SVG inlined in
it, since a picture behind <img> or <object> cannot be measured) with a
script at its end that takes the box of every text (an SVG <text>'s
getBoundingClientRect(), each line of an HTML text node through a
Range) and writes them into the page as JSON; `chromium --dump-dom`
prints the page after the script ran. A text is cut when its box is
not wholly inside its canvas (the <svg> it is drawn in, which clips it,
or the width of the window for HTML, past which the reader must
scroll sideways); two texts overlap when their boxes share more than
TOLERANCE pixels both ways. The window has a fixed size (an SVG's
own, or larger), virtual time a fixed budget: the same file gives the
same boxes.
A screenshot of the same page, taken by the same run, is kept as
evidence on request.

Used by the cli tests (pictures made from made-up results) and by the
functional tests (the reports of real runs).
"""

import html
import json
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1",
         "--virtual-time-budget=3000"]
TIMEOUT = 120
TOLERANCE = 1.0
HTML_WINDOW = (1280, 900)
# A window 100 pixels high gives Chromium 156 a blank screenshot (the
# boxes are right): an SVG smaller than this gets a larger window.
MIN_WINDOW = 320
MAX_HEIGHT = 16000
MARK = "e1000epp-text-boxes"

_MEASURE = """<script>(function () {
var out = [], i, r, vw = document.documentElement.clientWidth;
function box(r) {
  return [Math.round(r.left * 10) / 10, Math.round(r.top * 10) / 10,
          Math.round(r.right * 10) / 10, Math.round(r.bottom * 10) / 10];
}
var texts = document.querySelectorAll("svg text");
for (i = 0; i < texts.length; i++) {
  var t = texts[i], svg = t.ownerSVGElement;
  while (svg.ownerSVGElement) svg = svg.ownerSVGElement;
  r = t.getBoundingClientRect();
  if (!t.textContent.trim() || !r.width) continue;
  out.push({text: t.textContent.trim(), box: box(r),
            canvas: box(svg.getBoundingClientRect())});
}
var skip = /^(script|style|title|noscript|template|textarea)$/i;
var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
var n;
while ((n = walk.nextNode())) {
  if (!n.data.trim() || !n.parentElement ||
      n.parentElement.closest("svg")) continue;
  if (skip.test(n.parentElement.tagName)) continue;
  var range = document.createRange();
  range.selectNodeContents(n);
  var rects = range.getClientRects();
  for (i = 0; i < rects.length; i++) {
    r = rects[i];
    if (!r.width || !r.height) continue;
    out.push({text: n.data.trim().slice(0, 80), box: box(r),
              canvas: [0, -1e9, vw, 1e9]});
  }
}
var s = document.createElement("script");
s.type = "application/json";
s.id = "%s";
s.textContent = JSON.stringify({texts: out,
  height: document.documentElement.scrollHeight}).replace(/</g, "\\\\u003c");
document.body.appendChild(s);
})();</script>""" % MARK


class BrowserMissing(AssertionError):
    pass


def page_for(path):
    """(the HTML of the page to open, (width, height) of the window)."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    if not path.endswith(".svg"):
        at = src.lower().rfind("</body>")
        at = len(src) if at < 0 else at
        return src[:at] + _MEASURE + src[at:], HTML_WINDOW
    root = ET.fromstring(src)
    size = (root.get("width"), root.get("height"))
    if not all(size) and root.get("viewBox"):
        size = root.get("viewBox").split()[2:]
    w, h = (int(float(re.match(r"[\d.]+", v).group())) for v in size)
    body = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", src)
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
            f"{html.escape(os.path.basename(path))}</title><style>"
            "html,body{margin:0;padding:0;overflow:hidden}"
            "svg{display:block}</style></head><body>"
            f"{body}{_MEASURE}</body></html>"), \
        (max(w, MIN_WINDOW), max(h, MIN_WINDOW))


def _chromium(args, profile):
    if not os.access(CHROMIUM, os.X_OK):
        raise BrowserMissing(f"{CHROMIUM} not found: `./e1000e-pp setup` "
                             "installs Debian's chromium (setup/apt.py)")
    p = subprocess.run([CHROMIUM] + FLAGS + [f"--user-data-dir={profile}"]
                       + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    if p.returncode != 0:
        raise AssertionError(f"chromium {' '.join(args)}: exit status "
                             f"{p.returncode}: {p.stderr[-2000:]}")
    return p.stdout


def measure(path, screenshot=None):
    """[{text, box: [left, top, right, bottom], canvas: [...]}] of every
    text in the file as Chromium lays it out (CSS pixels); with
    screenshot, a PNG of the whole picture or page written there (by
    the same run for an SVG; for a page, by a second run in a window as
    high as the page)."""
    path = str(path)
    page, (w, h) = page_for(path)
    svg = path.endswith(".svg")
    shot = [f"--screenshot={os.path.abspath(screenshot)}"] \
        if screenshot else []
    with tempfile.TemporaryDirectory(prefix="e1000epp-browser-") as tmp:
        page_path = os.path.join(tmp, "page.html")
        with open(page_path, "w", encoding="utf-8") as f:
            f.write(page)
        url = "file://" + page_path
        dom = _chromium([f"--window-size={w},{h}"] + (shot if svg else [])
                        + ["--dump-dom", url], os.path.join(tmp, "profile"))
        m = re.search(r'<script type="application/json" id="%s">(.*?)'
                      '</script>' % MARK, dom, re.S)
        if not m:
            raise AssertionError(f"{path}: the measuring script left no "
                                 f"result in Chromium's DOM: "
                                 f"{dom[-1000:]!r}")
        data = json.loads(m.group(1))
        if shot and not svg:
            high = min(max(h, data["height"]), MAX_HEIGHT)
            _chromium([f"--window-size={w},{high}"] + shot + [url],
                      os.path.join(tmp, "profile"))
    return data["texts"]


def _inside(box, canvas):
    return (box[0] >= canvas[0] - TOLERANCE and
            box[1] >= canvas[1] - TOLERANCE and
            box[2] <= canvas[2] + TOLERANCE and
            box[3] <= canvas[3] + TOLERANCE)


def _overlap(a, b):
    return (min(a[2], b[2]) - max(a[0], b[0]) > TOLERANCE and
            min(a[3], b[3]) - max(a[1], b[1]) > TOLERANCE)


def problems(items):
    """What is wrong with the measured texts: one line each."""
    out = [f"cut: {t['text']!r} at {t['box']} is not inside its canvas "
           f"{t['canvas']}" for t in items
           if not _inside(t["box"], t["canvas"])]
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            if _overlap(a["box"], b["box"]):
                out.append(f"overlap: {a['text']!r} at {a['box']} and "
                           f"{b['text']!r} at {b['box']}")
    return out


def check(path, screenshot=None):
    """Raise AssertionError listing every cut or overlapping text of the
    file (an SVG or an HTML page); return the measured texts."""
    items = measure(path, screenshot)
    if not items:
        raise AssertionError(f"{path}: no text measured")
    bad = problems(items)
    if bad:
        raise AssertionError(f"{path}: {len(bad)} problems as Chromium "
                             "draws it" + (f" (screenshot: {screenshot})"
                                           if screenshot else "") + ":\n"
                             + "\n".join(bad[:30]))
    return items
