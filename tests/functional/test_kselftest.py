# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp kselftest` on the default guest (Debian's 6.1 kernel):
the kernel's own driver selftests (Debian's linux-source-6.12) against a
virtio-net NIC in the netns ksft-remote. Every case's result is pinned:
which pass, which skip and with the test's own reason, which fail and
what the failure names (docs/usage/kselftest.md has the table), and the
report's KTAP and JUnit say the same.

6.1 has no netdev netlink family, so the tests that open it at start
(stats.py, queues.py, hw/pp_alloc_fail.py) end before their first case.
"""

import json
import subprocess
import xml.etree.ElementTree as ET

from e1000epp.kselftest import ktap

V6 = "Test requires IPv6 connectivity"
NO_NETDEV = "Family 'netdev' not supported by the kernel"


def expected(device):
    """{selftest: (exit status, [(case, outcome, reason)])}; a selftest
    with no cases ends before its KTAP plan."""
    csum = []
    for v in ("ipv4", "ipv6"):
        for case in ("rx_tcp", "rx_tcp_invalid", "rx_udp",
                     "rx_udp_invalid", "tx_udp_csum_offload",
                     "tx_udp_zero_checksum"):
            if v == "ipv6":
                csum.append((f"csum.{v}_{case}", ktap.SKIP, V6))
            else:
                csum.append((f"csum.{v}_{case}", ktap.PASS, ""))
    return {
        "drivers/net/ping.py": (0, [("ping.test_v4", ktap.PASS, ""),
                                    ("ping.test_v6", ktap.SKIP, V6),
                                    ("ping.test_tcp", ktap.PASS, "")]),
        "drivers/net/stats.py": (1, []),
        "drivers/net/queues.py": (1, []),
        "drivers/net/hw/csum.py": (0, csum),
        "drivers/net/hw/pp_alloc_fail.py": (1, []),
    }


def test_kselftest_default_kernel(device, guest_image, report_dir, paths):
    out = report_dir / f"test_kselftest-{device}"
    p = subprocess.run(
        [str(paths["REPO"] / "e1000e-pp"), "kselftest", "--no-setup",
         "--device", device, "--report", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=15 * 60)
    print(p.stdout[-4000:])
    assert "Traceback" not in p.stdout
    want = expected(device)
    data = json.loads((out / "kselftest.json").read_text())
    assert data["image"]["remote"] == "virtio-net-pci"
    assert data["image"]["kernel_release"].startswith("6.1.")
    got = {st["test"]: (st["rc"], [(c["name"], c["outcome"], c["reason"])
                                   for c in st["cases"]])
           for st in data["selftests"]}
    assert got == want
    assert p.returncode == 1
    # The crashes are the missing netlink family, said so in the summary.
    for test in ("stats.py", "queues.py", "pp_alloc_fail.py"):
        log = (out / f"drivers_net_{'hw_' if 'pp' in test else ''}"
               f"{test}.log").read_text()
        assert NO_NETDEV in log
    summary = (out / "summary.txt").read_text()
    assert summary.count("kernel: no netdev netlink family") == 3
    assert "(the guest runs 6.1." in summary

    # KTAP: one result per selftest file, each file's own nested.
    doc = ktap.parse((out / "kselftest.ktap").read_text())
    assert doc.plan == len(want) and doc.plan_met()
    assert [(r.name, r.outcome) for r in doc.results] == [
        (f"selftests: {t}", ktap.PASS if rc == 0 else ktap.FAIL)
        for t, (rc, _) in want.items()]
    nested = doc.results[0].subtests
    assert [(r.name, r.outcome, r.reason) for r in nested.results] == \
        want["drivers/net/ping.py"][1]

    # JUnit: the same cases; the crashed files as one error each.
    root = ET.parse(out / "junit.xml").getroot()
    n_cases = sum(max(len(c), 1) for _, c in want.values())
    n_skip = sum(o == ktap.SKIP for _, c in want.values() for _, o, _ in c)
    n_fail = sum(o == ktap.FAIL for _, c in want.values() for _, o, _ in c)
    assert (int(root.get("tests")), int(root.get("skipped")),
            int(root.get("failures")), int(root.get("errors"))) == \
        (n_cases, n_skip, n_fail, 3)
