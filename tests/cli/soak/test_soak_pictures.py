# SPDX-License-Identifier: GPL-2.0-or-later
"""memory.svg as headless Chromium draws it (common/browser.py): for a
short run (the verdict's "not judged" note), a day-long run, extreme
and missing values, no text overlaps another or passes the canvas's
edge. And the checker itself sees an overlap and a cut. Chromium is
installed by `./e1000e-pp setup` (setup/apt.py): without it these
tests fail, they do not skip."""

import pytest

from e1000epp.common import browser
from e1000epp.soak import report as soak_report


def curves(times, rss_mib, avail_mib):
    return [{"t_min": t, "qemu_rss_kib": r * 1024,
             "guest_mem_available_kib":
             None if a is None else a * 1024}
            for t, r, a in zip(times, rss_mib, avail_mib)]


def short_run():
    # the functional suite's soak: a minute, a sample every 20 s
    t = [0.0, 0.34, 0.67, 1.01]
    return curves(t, [700.2, 702.9, 703.0, 703.1],
                  [401.0, 398.5, 399.2, 399.0]), 1


def long_run():
    # a day, one sample a minute, QEMU leaking: judged and failing
    t = [float(m) for m in range(1441)]
    return curves(t, [650 + 0.8 * m + (3 if m % 7 else -3) for m in t],
                  [420 - 0.01 * m for m in t]), 1440


def extreme_run():
    # 4 TiB resident, nothing available, a jump of 3 orders of magnitude
    t = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]
    return curves(t, [4194304, 4194304, 9, 4194304, 4194310, 4194400,
                      4194500], [0, 0, 0, 1e-3, 0, 0, 0]), 60


def guest_silent():
    # the guest never answered: no MemAvailable, one sample only
    return curves([0.0], [512.0], [None]), 1


CASES = {"short": short_run, "long": long_run, "extreme": extreme_run,
         "guest-silent": guest_silent}


def plot(name):
    samples, minutes = CASES[name]()
    mem = {k: soak_report.drift(samples, minutes, k, sign) for k, sign in
           (("qemu_rss_kib", 1), ("guest_mem_available_kib", -1))}
    return soak_report.svg_plot(samples, mem,
                                f"soak on e1000e-pp, seed {2 ** 32 - 1}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_memory_svg_in_chromium(name, tmp_path):
    svg = tmp_path / "memory.svg"
    svg.write_text(plot(name))
    items = browser.check(str(svg), tmp_path / "memory.png")
    assert (tmp_path / "memory.png").read_bytes()[:4] == b"\x89PNG"
    texts = [t["text"] for t in items]
    assert "QEMU resident memory (VmRSS), MiB" in texts
    notes = " ".join(texts)
    if name == "short":
        # the whole note, on lines of its own under the panel's label
        why = soak_report.drift(CASES[name]()[0], 1, "qemu_rss_kib", 1)
        assert why["why"].startswith("not judged")
        assert " ".join(why["why"].split()) in notes
    if name == "long":
        assert "beyond +0.5" in notes


def test_a_long_title_wraps(tmp_path):
    samples, minutes = short_run()
    svg = tmp_path / "memory.svg"
    svg.write_text(soak_report.svg_plot(samples, {}, "a <title> & more " *
                                        12))
    browser.check(str(svg), tmp_path / "memory.png")


def test_the_checker_sees_an_overlap_and_a_cut(tmp_path):
    svg = tmp_path / "bad.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" '
        'viewBox="0 0 300 100" font-family="sans-serif" font-size="12">'
        '<text x="10" y="30">one text here</text>'
        '<text x="14" y="32">another on it</text>'
        '<text x="250" y="80">past the right edge</text>'
        '<text x="10" y="80">alone</text></svg>')
    items = browser.measure(str(svg), tmp_path / "bad.png")
    assert sorted(t["text"] for t in items) == [
        "alone", "another on it", "one text here", "past the right edge"]
    bad = browser.problems(items)
    assert len(bad) == 2, bad
    assert bad[0].startswith("cut: 'past the right edge' at ")
    assert bad[1].startswith("overlap: 'one text here' at ")
    assert "'another on it'" in bad[1]
    with pytest.raises(AssertionError, match="2 problems"):
        browser.check(str(svg))


def test_the_checker_reads_the_canvas_from_the_viewbox(tmp_path):
    # drawn at twice its viewBox: the boxes scale, the text still fits
    svg = tmp_path / "scaled.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100" '
        'viewBox="0 0 200 50" font-family="sans-serif" font-size="10">'
        '<text x="100" y="20" text-anchor="middle">in the middle</text>'
        '<text x="195" y="40" text-anchor="end">at the right</text></svg>')
    items = browser.check(str(svg))
    assert [t["canvas"] for t in items] == [[0, 0, 400, 100]] * 2
    assert items[1]["box"][2] == pytest.approx(390, abs=1)
