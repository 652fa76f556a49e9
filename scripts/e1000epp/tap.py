# SPDX-License-Identifier: GPL-2.0-or-later
"""The one TAP reader of the test runner (unit and qtest suites).

    report = tap.parse(lines)          # or: r = tap.Report(); r.feed(line)
    report.results    [Result(number, ok, name, directive, reason), ...]
    report.plan       planned count from "1..N" (None: no plan seen)
    report.bail_out   reason text of "Bail out! reason" ('' if none given),
                      None when the producer did not bail out
    report.counts()   (passed, failed, skipped) of the results
    report.problems() what makes the run incomplete, one line each

What it accepts (TAP 12/13 as GLib and our C unit tests write it):
- "ok N - name", "ok N name", "ok - name", "ok": number and name optional;
- "# SKIP reason" / "# TODO reason" after the name (case-insensitive,
  "skipped" too); "\\#" in a name is a literal '#';
- "1..N" before or after the results; "1..0 # SKIP reason" skips all.
  GLib run with -p prints a running plan after each selected path
  ("1..1", then "1..2"): the last plan counts;
- "Bail out!" with or without a reason; anything else (comments, the
  programs' own chatter, indented subtests) is ignored.

Counting: ok -> passed; "# SKIP" (ok or not ok) -> skipped; not ok ->
failed, except "not ok # TODO" (a known failure), which counts as passed
like "ok # TODO".
"""

import collections
import re

Result = collections.namedtuple("Result", "number ok name directive reason")

_RESULT = re.compile(r"^(not ok|ok)(?=\s|$)\s*(\d+)?\s*(?:-\s+|-$)?(.*)$")
_PLAN = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(.*))?$")
_DIRECTIVE = re.compile(r"^(SKIP|TODO)\S*\s*(.*)$", re.I)
_BAIL = re.compile(r"^Bail out!\s*(.*)$")
_HASH = re.compile(r"(?<!\\)#")


def _result(m):
    ok = m.group(1) == "ok"
    number = int(m.group(2)) if m.group(2) else None
    text = m.group(3)
    directive = reason = ""
    for h in _HASH.finditer(text):
        d = _DIRECTIVE.match(text[h.end():].strip())
        if d:
            directive, reason = d.group(1).upper(), d.group(2).strip()
            text = text[:h.start()]
            break
    name = text.strip().replace("\\#", "#")
    return Result(number, ok, name, directive, reason)


class Report:
    def __init__(self):
        self.results = []
        self.plan = None
        self.skip_all = None
        self.bail_out = None

    def feed(self, line):
        """Read one line; return its Result if it is a test line."""
        line = line.rstrip("\r\n")
        m = _RESULT.match(line)
        if m:
            r = _result(m)
            self.results.append(r)
            return r
        m = _PLAN.match(line)
        if m:
            self.plan = int(m.group(1))
            d = _DIRECTIVE.match((m.group(2) or "").strip())
            if self.plan == 0 and d and d.group(1).upper() == "SKIP":
                self.skip_all = d.group(2).strip()
            return None
        m = _BAIL.match(line)
        if m and self.bail_out is None:
            self.bail_out = m.group(1).strip()
        return None

    def counts(self, results=None):
        """(passed, failed, skipped) of `results` (default: all)."""
        passed = failed = skipped = 0
        for r in self.results if results is None else results:
            if r.directive == "SKIP":
                skipped += 1
            elif r.ok or r.directive == "TODO":
                passed += 1
            else:
                failed += 1
        return passed, failed, skipped

    def missing(self):
        """Planned tests that never reported (0 without a plan)."""
        if self.plan is None:
            return 0
        return max(0, self.plan - len(self.results))

    def problems(self):
        """Why this TAP stream is not a complete run, one line each."""
        out = []
        if self.bail_out is not None:
            out.append("bailed out after %d test(s)%s" % (
                len(self.results),
                ": " + self.bail_out if self.bail_out else ""))
        if self.plan is None:
            out.append("no TAP plan (1..N): the run stopped early")
        elif len(self.results) != self.plan:
            out.append("planned %d test(s), %d reported"
                       % (self.plan, len(self.results)))
        return out


def parse(lines):
    """Report of an iterable of TAP lines."""
    report = Report()
    for line in lines:
        report.feed(line)
    return report
