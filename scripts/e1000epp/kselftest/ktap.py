# SPDX-License-Identifier: GPL-2.0-or-later
"""KTAP version 1 (the kernel's Documentation/dev-tools/ktap.rst): read a
test's output into results, write the run's document.

A document is a version line ("KTAP version 1"; "TAP version 13" is
taken too), a plan ("1..N") and result lines ("ok|not ok N [name]
[# [DIRECTIVE] [data]]"); "#" lines are diagnostics, anything else is
an unknown line, kept with the diagnostics but never deciding a result.
A nested document is indented two spaces deeper than its parent's
lines; it belongs to the parent's next result line at the parent's
indentation. A directive the reader does not know falls back to the
line's ok / not ok.
"""

import re

PASS, FAIL, SKIP, XFAIL, TIMEOUT, ERROR = ("pass", "fail", "skip", "xfail",
                                           "timeout", "error")
# Outcomes that fail a run.
FAILING = (FAIL, TIMEOUT, ERROR)
DIRECTIVES = {"SKIP": SKIP, "XFAIL": XFAIL, "TIMEOUT": TIMEOUT,
              "ERROR": ERROR}

_VERSION = re.compile(r"^(K?TAP) version (\d+)\s*$")
_PLAN = re.compile(r"^1\.\.(\d+)\s*$")
_RESULT = re.compile(r"^(not ok|ok)\s+(\d+)(?:\s+([^#]*?))?\s*"
                     r"(?:#\s*(.*))?$")


class Result:
    """One result line and what belongs to it: the diagnostics before it
    (since the previous result at its level) and its subtests (a nested
    Document, or None)."""

    def __init__(self, ok, number, name, directive, data, diagnostics,
                 subtests=None):
        self.ok = ok
        self.number = number
        self.name = name
        self.directive = directive
        self.data = data
        self.diagnostics = diagnostics
        self.subtests = subtests

    @property
    def outcome(self):
        known = DIRECTIVES.get(self.directive)
        if known:
            return known
        return PASS if self.ok else FAIL

    @property
    def reason(self):
        """The diagnostic data after the directive ('' if none)."""
        return self.data

    def __repr__(self):
        return (f"Result({self.outcome}, {self.number}, {self.name!r}, "
                f"{self.data!r})")


class Document:
    """A version line, a plan, the results; trailing diagnostics."""

    def __init__(self, version=None, plan=None):
        self.version = version
        self.plan = plan
        self.results = []
        self.trailing = []

    def plan_met(self):
        """The plan's count equals the results', numbered 1..N."""
        return self.plan is not None and \
            [r.number for r in self.results] == \
            list(range(1, self.plan + 1))


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def _split_directive(text):
    """(directive, data) of the text after a result's '#'."""
    if text is None:
        return None, ""
    word, _, rest = text.strip().partition(" ")
    if word.upper() in DIRECTIVES or word.upper() == "TODO":
        return word.upper(), rest.strip()
    return None, text.strip()


def parse(text_or_lines):
    """The outermost Document of a test's output (None when there is no
    version line and no result line at all)."""
    lines = text_or_lines.splitlines() if isinstance(text_or_lines, str) \
        else list(text_or_lines)
    lines = [ln.rstrip("\r\n") for ln in lines]
    start = next((i for i, ln in enumerate(lines)
                  if _VERSION.match(ln.strip()) or
                  _RESULT.match(ln.strip())), None)
    if start is None:
        return None
    doc, _ = _parse_doc(lines, start, _indent(lines[start]))
    doc.preamble = lines[:start]
    return doc


def _parse_doc(lines, i, level):
    """Read a document whose lines sit at indentation `level` from line
    i; returns (document, index of the first line not its own)."""
    doc = Document()
    pending_diag, pending_sub = [], None
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        ind = _indent(raw)
        if not stripped:
            i += 1
            continue
        m_ver = _VERSION.match(stripped)
        m_res = _RESULT.match(stripped)
        m_plan = _PLAN.match(stripped)
        if m_ver and ind > level:
            pending_sub, i = _parse_doc(lines, i, ind)
            continue
        if (m_ver or m_res or m_plan or stripped.startswith("#")) and \
                ind < level:
            break           # the parent's line (unknown lines may be
            #                 indented or not: they stay here)
        if m_ver and ind == level:
            if doc.version is not None:
                break       # a second document at this level
            doc.version = int(m_ver.group(2))
        elif m_plan and ind == level and doc.plan is None:
            doc.plan = int(m_plan.group(1))
        elif m_res and ind == level:
            directive, data = _split_directive(m_res.group(4))
            doc.results.append(Result(
                m_res.group(1) == "ok", int(m_res.group(2)),
                (m_res.group(3) or "").strip(), directive, data,
                pending_diag, pending_sub))
            pending_diag, pending_sub = [], None
        else:
            pending_diag.append(stripped[1:].strip()
                                if stripped.startswith("#") else stripped)
        i += 1
    doc.trailing = pending_diag
    return doc, i


def result_line(ok, number, name, directive=None, data=""):
    """One KTAP result line."""
    text = f"{'ok' if ok else 'not ok'} {number}"
    if name:
        text += " " + name.replace("#", "")
    if directive or data:
        text += " #" + (f" {directive}" if directive else "") + \
            (f" {data}" if data else "")
    return text


def nest(lines):
    """Lines of a child document, indented one level (two spaces) under
    its parent; empty lines dropped."""
    return ["  " + ln if ln.strip() else ln for ln in lines if ln.strip()]
