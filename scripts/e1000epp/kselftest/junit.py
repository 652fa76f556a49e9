# SPDX-License-Identifier: GPL-2.0-or-later
"""The run's results as JUnit XML: one <testsuite> per selftest file,
one <testcase> per KTAP result line of it (classname: the selftest's
path, name: the case as it names itself). A skip is <skipped> with the
test's reason; an expected failure (XFAIL) passes, its reason in
<system-out>; a failure is <failure> with the diagnostics printed
before its result line; TIMEOUT and ERROR are <error>. A selftest that
printed no result line at all is one <testcase> named after the file,
an <error> carrying its exit status and output; one that stopped short
of its plan gets an <error> case "<file> (plan)" besides its results."""

import xml.etree.ElementTree as ET

from e1000epp.kselftest import ktap


def _case(suite_el, classname, name, outcome, reason, text, seconds=None):
    tc = ET.SubElement(suite_el, "testcase", classname=classname, name=name)
    if seconds is not None:
        tc.set("time", "%.1f" % seconds)
    first = reason or (text.splitlines()[0] if text else outcome)
    if outcome == ktap.SKIP:
        ET.SubElement(tc, "skipped", message=reason)
    elif outcome == ktap.FAIL:
        ET.SubElement(tc, "failure", message=first).text = text
    elif outcome in (ktap.TIMEOUT, ktap.ERROR):
        ET.SubElement(tc, "error", message=first).text = text
    elif outcome == ktap.XFAIL:
        ET.SubElement(tc, "system-out").text = "XFAIL " + reason
    return tc


def write(path, selftests, name="e1000e-pp.kselftest"):
    """selftests: [{"test": "drivers/net/ping.py", "rc": int, "output":
    [lines], "seconds": float, "document": ktap.Document or None}]."""
    root = ET.Element("testsuites", name=name)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for st in selftests:
        suite = ET.SubElement(root, "testsuite", name=st["test"])
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        doc = st.get("document")
        results = doc.results if doc else []
        if not results:
            text = "\n".join(st.get("output", []))
            _case(suite, st["test"], st["test"].rpartition("/")[2],
                  ktap.ERROR, f"no KTAP result lines (exit {st['rc']})",
                  text, st.get("seconds"))
            counts["tests"] += 1
            counts["errors"] += 1
        if doc and results and not doc.plan_met():
            _case(suite, st["test"], st["test"].rpartition("/")[2] +
                  " (plan)", ktap.ERROR,
                  f"planned {doc.plan}, reported {len(results)} "
                  f"(exit {st['rc']})", "\n".join(st.get("output", [])))
            counts["tests"] += 1
            counts["errors"] += 1
        for r in results:
            outcome = r.outcome
            _case(suite, st["test"], r.name or f"case {r.number}", outcome,
                  r.reason, "\n".join(r.diagnostics))
            counts["tests"] += 1
            if outcome == ktap.SKIP:
                counts["skipped"] += 1
            elif outcome == ktap.FAIL:
                counts["failures"] += 1
            elif outcome in (ktap.TIMEOUT, ktap.ERROR):
                counts["errors"] += 1
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
        if st.get("seconds") is not None:
            suite.set("time", "%.1f" % st["seconds"])
    for k, v in totals.items():
        root.set(k, str(v))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
