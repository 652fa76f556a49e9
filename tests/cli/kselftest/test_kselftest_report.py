# SPDX-License-Identifier: GPL-2.0-or-later
"""`kselftest`'s JUnit XML and KTAP document (scripts/e1000epp/
kselftest/junit.py, command.py) from made-up selftest output, and its
bad options: one line, exit status 2, before any setup."""

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from e1000epp.common import paths
from e1000epp.kselftest import command, junit, ktap

REPO = Path(paths.REPO)

PING = ["KTAP version 1", "1..3", "ok 1 ping.test_v4",
        "ok 2 ping.test_v6 # SKIP Test requires IPv6 connectivity",
        "# Check failed 1 != 2", "not ok 3 ping.test_tcp",
        "# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0"]
STATS = ["KTAP version 1", "1..2",
         "ok 1 stats.check_pause # XFAIL pause not supported by the device",
         "ok 2 stats.pkt_byte_sum"]
CRASH = ["Traceback (most recent call last):", "Exception: no family"]


def runs():
    return [{"test": "drivers/net/ping.py", "rc": 1, "output": PING,
             "seconds": 2.5, "document": ktap.parse(PING)},
            {"test": "drivers/net/stats.py", "rc": 0, "output": STATS,
             "seconds": 1.0, "document": ktap.parse(STATS)},
            {"test": "drivers/net/queues.py", "rc": 1, "output": CRASH,
             "seconds": 0.5, "document": ktap.parse(CRASH)}]


def test_junit_cases_and_counts(tmp_path):
    path = tmp_path / "junit.xml"
    junit.write(path, runs())
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"),
            root.get("skipped")) == ("6", "1", "1", "1")
    suites = {s.get("name"): s for s in root}
    assert list(suites) == ["drivers/net/ping.py", "drivers/net/stats.py",
                            "drivers/net/queues.py"]
    ping = {c.get("name"): c for c in suites["drivers/net/ping.py"]}
    assert list(ping) == ["ping.test_v4", "ping.test_v6", "ping.test_tcp"]
    assert len(ping["ping.test_v4"]) == 0
    assert ping["ping.test_v6"].find("skipped").get("message") == \
        "Test requires IPv6 connectivity"
    fail = ping["ping.test_tcp"].find("failure")
    assert "Check failed 1 != 2" in fail.text
    assert all(c.get("classname") == "drivers/net/ping.py"
               for c in ping.values())
    stats = {c.get("name"): c for c in suites["drivers/net/stats.py"]}
    # An expected failure passes; its reason is kept.
    xf = stats["stats.check_pause"]
    assert xf.find("failure") is None and xf.find("skipped") is None
    assert xf.find("system-out").text == \
        "XFAIL pause not supported by the device"
    [crash] = list(suites["drivers/net/queues.py"])
    assert crash.get("name") == "queues.py"
    err = crash.find("error")
    assert err.get("message") == "no KTAP result lines (exit 1)"
    assert "Exception: no family" in err.text


def test_junit_plan_short(tmp_path):
    out = ["KTAP version 1", "1..3", "ok 1 a"]
    path = tmp_path / "junit.xml"
    junit.write(path, [{"test": "drivers/net/x.py", "rc": 1, "output": out,
                        "seconds": 1.0, "document": ktap.parse(out)}])
    names = [(c.get("name"), c.find("error") is not None)
             for c in ET.parse(path).getroot()[0]]
    assert names == [("x.py (plan)", True), ("a", False)]


def test_document_nests_each_selftest():
    lines = command.document(runs())
    doc = ktap.parse(lines)
    assert doc.version == 1 and doc.plan == 3 and doc.plan_met()
    assert [(r.name, r.outcome, r.reason) for r in doc.results] == [
        ("selftests: drivers/net/ping.py", ktap.FAIL, "exit=1"),
        ("selftests: drivers/net/stats.py", ktap.PASS, ""),
        ("selftests: drivers/net/queues.py", ktap.FAIL, "exit=1")]
    inner = doc.results[0].subtests
    assert [r.outcome for r in inner.results] == [ktap.PASS, ktap.SKIP,
                                                  ktap.FAIL]


def test_exit_4_is_a_skip_with_the_tests_reason():
    out = ["KTAP version 1", "1..1", "ok 1 x # SKIP no rx checksum"]
    assert command.file_result(ktap.parse(out), 4) == \
        (True, "SKIP", "no rx checksum")
    assert command.file_result(ktap.parse(out), 0) == (True, None, "")


def test_killed_at_the_limit_is_a_timeout():
    # KTAP: a TIMEOUT result line is "not ok".
    ok, directive, _ = command.file_result(None, 137)
    assert (ok, directive) == (False, "TIMEOUT")
    line = ktap.result_line(ok, 1, "selftests: x", directive, "limit")
    assert ktap.parse(["KTAP version 1", "1..1", line]).results[0] \
        .outcome == ktap.TIMEOUT


def test_summarize_counts_a_crash_as_an_error():
    r = runs()
    assert command.summarize(r[0]["document"], 1) == {
        ktap.PASS: 1, ktap.SKIP: 1, ktap.FAIL: 1}
    assert command.summarize(r[2]["document"], 1) == {ktap.ERROR: 1}


def kselftest(*argv):
    return subprocess.run([str(REPO / "e1000e-pp"), "kselftest", *argv],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=60)


def test_k_that_selects_nothing_fails_before_setup():
    p = kselftest("-k", "nosuchtest")
    assert p.returncode != 0
    assert "selects no selftest" in p.stderr
    assert "Traceback" not in p.stderr


def test_bad_timeout_is_refused():
    p = kselftest("--timeout", "2")
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and "--timeout" in p.stderr


def test_bad_debian_kernel_is_refused():
    p = kselftest("--debian-kernel", "5.10")
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
