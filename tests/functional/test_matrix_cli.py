# SPDX-License-Identifier: GPL-2.0-or-later
"""The matrix's selection, sharding, reports, baseline and merge, through
the command line, without booting anything (reports are made from
synthetic results with the same writer `run` uses).

Expected names and counts are written out here, not recomputed with
matrix/cell_model.py's own code.
"""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CLI = REPO / "e1000e-pp"
sys.path.insert(0, str(REPO / "scripts"))
from e1000epp.matrix import cell_model
from e1000epp.matrix import report  # noqa: E402

REDUCED = [
    "mtu1500-strip-msi-noiommu-txhang",
    "mtu1500-strip-msix-iommu-dmafault",
    "mtu1500-strip-msix-noiommu",
    "mtu1500-strip-msix-noiommu-burst",
    "mtu1500-strip-msix-noiommu-cb0",
    "mtu1500-strip-msix-noiommu-errcrc",
    "mtu1500-strip-msix-noiommu-linkdrop",
    "mtu1500-strip-msix-noiommu-rxcsumoff",
    "mtu1500-strip-msix-noiommu-vlan",
    "mtu2026-keep-intx-noiommu",
    "mtu2027-keep-msix-noiommu",
    "mtu2027-strip-msix-noiommu-longburst",
    "mtu4096-rxfcs-msix-iommu",
    "mtu4097-rxfcs-msix-noiommu",
    "mtu9000-strip-msi-noiommu",
    "mtu9000-strip-msix-noiommu-burstfc",
    "mtu9212-keep-msix-noiommu",
]


def cli(*args, timeout=120):
    return subprocess.run(["/usr/bin/python3", str(CLI)] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def listed(out):
    return [ln.strip() for ln in out.splitlines() if ln.startswith("  ")]


def test_reduced_matrix_is_listed_with_its_boots():
    r = cli("run", "--list", "--matrix", "reduced")
    assert r.returncode == 0, r.stderr
    assert sorted(listed(r.stdout)) == REDUCED
    assert r.stdout.splitlines()[-1] == "17 cells, 2 boots"
    # The IOMMU cell needs its own boot; every other cell shares one.
    assert "boot noiommu: 15 cells" in r.stdout
    assert "boot iommu: 2 cells" in r.stdout


def test_default_matrix_covers_every_breakpoint_and_crc_mode():
    r = cli("run", "--list")
    names = listed(r.stdout)
    for mtu in (1500, 1501, 2026, 2027, 4074, 4075, 4096, 4097, 8192,
                9000, 9212):
        for crc in ("strip", "keep", "rxfcs"):
            assert f"mtu{mtu}-{crc}-msix-noiommu" in names
    # Direct DMA, the IOMMU, the bounced (swiotlb=force) cells, and the
    # system-sleep cells' boot (the bzImage, tsc=reliable).
    assert "mtu1500-strip-msix-bounce" in names
    assert "mtu9212-keep-msix-bounce" in names
    assert "mtu1500-strip-msix-noiommu-sleep" in names
    assert r.stdout.splitlines()[-1] == f"{len(names)} cells, 4 boots"


def test_list_names_the_cells_producing_each_situation():
    r = cli("run", "--list")
    assert r.returncode == 0, r.stderr
    plan = dict(ln[len("situation "):].split(": ", 1)
                for ln in r.stdout.splitlines()
                if ln.startswith("situation "))
    # All 25 of the device's situations, each produced by a cell but the
    # one Linux's e1000e cannot produce, which says why.
    assert len(plan) == 26
    assert plan["null-desc"].startswith("unreachable: Linux's e1000e never "
                                        "posts a buffer address of 0")
    for name in ("fcs-straddle", "split-polls", "ring-dry-midframe", "rnbc",
                 "mpc", "xoff-sent", "link-change-traffic", "err-crc",
                 "err-symbol", "err-data", "err-oversize", "wb-timer",
                 "dma-fault"):
        assert re.match(r"[1-9]\d* cells \(mtu", plan[name]), name
    assert "mtu1500-strip-msix-noiommu-errsym" in plan["err-symbol"]
    assert "mtu2027-strip-msix-noiommu-longburst" in \
        plan["ring-dry-midframe"]


def test_only_takes_globs_and_regular_expressions():
    r = cli("run", "--list", "--matrix", "reduced", "--only",
            "*-keep-*,^mtu1500-strip-msix-noiommu$")
    assert r.returncode == 0, r.stderr
    assert sorted(listed(r.stdout)) == [
        "mtu1500-strip-msix-noiommu", "mtu2026-keep-intx-noiommu",
        "mtu2027-keep-msix-noiommu", "mtu9212-keep-msix-noiommu"]


def test_shards_partition_the_matrix():
    seen = []
    for i in (1, 2, 3):
        r = cli("run", "--list", "--matrix", "reduced", "--shard", f"{i}/3")
        assert r.returncode == 0, r.stderr
        seen.append(listed(r.stdout))
    assert [len(s) for s in seen] == [6, 6, 5]     # 17 cells dealt out
    assert sorted(sum(seen, [])) == REDUCED
    again = cli("run", "--list", "--matrix", "reduced", "--shard", "2/3")
    assert listed(again.stdout) == seen[1]


@pytest.mark.parametrize("args,message", [
    (["--only", "nomatch"], "error: --only 'nomatch' matches no cell"),
    (["--shard", "0/2"], "error: --shard '0/2' is not I/N"),
    (["--shard", "3/2"], "error: --shard '3/2' is not I/N"),
    (["--shard", "x"], "error: --shard 'x' is not I/N"),
    (["--baseline", "/nonexistent/report"],
     "error: /nonexistent/report is not a matrix report"),
    (["--json", "/nonexistent/dir/cost.json"],
     "error: --json '/nonexistent/dir/cost.json': its directory does not "
     "exist"),
])
def test_bad_matrix_options_fail_cleanly_before_setup(args, message):
    r = cli("run", "--no-setup", *args)
    assert r.returncode == 1
    assert message in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def fake_results(names, failing=()):
    out = []
    for n in names:
        st = cell_model.FAIL if n in failing else cell_model.PASS
        reason = "frames peer->guest (agent): got x, want y" \
            if st == cell_model.FAIL else ""
        out.append(cell_model.by_name()[n].result(st, reason, 1.5,
                                                  ["dmesg.txt"]))
    return out


def fake_report(d, names, failing=()):
    d.mkdir(parents=True, exist_ok=True)
    for n in names:
        (d / "cells" / n).mkdir(parents=True, exist_ok=True)
        (d / "cells" / n / "dmesg.txt").write_text("nothing\n")
    report.write_report(str(d), {"stamp": "test"},
                        fake_results(names, failing))
    return d


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self.links, self._in = [], [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "td" and "data-cell" in a:
            self.cells.append(a["data-cell"])
            self._in = a["data-cell"]
        if tag == "a" and self._in:
            self.links.append(a["href"])
            self._in = None


def test_report_has_junit_case_and_grid_cell_per_cell(tmp_path):
    d = fake_report(tmp_path / "r", REDUCED,
                    failing={"mtu9212-keep-msix-noiommu"})
    cases = ET.parse(d / "junit.xml").getroot().findall("testcase")
    assert sorted(c.get("name") for c in cases) == REDUCED
    failed = [c for c in cases if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["mtu9212-keep-msix-noiommu"]
    assert failed[0].find("failure").get("message") == \
        "frames peer->guest (agent): got x, want y"
    p = Links()
    p.feed((d / "report.html").read_text())
    assert sorted(p.cells) == REDUCED
    assert len(p.links) == len(REDUCED)
    for href in p.links:
        assert (d / href).is_file(), href
        assert "dmesg.txt" in (d / href).read_text()
    html = (d / "report.html").read_text()
    assert not re.search(r"(src|href)=['\"]?(https?:)?//", html), \
        "report.html must not load anything from elsewhere"


def test_merge_combines_shards_and_baseline_lists_changes(tmp_path):
    a = fake_report(tmp_path / "a", REDUCED[:4])
    b = fake_report(tmp_path / "b", REDUCED[4:],
                    failing={"mtu9000-strip-msi-noiommu"})
    base = fake_report(tmp_path / "base", REDUCED,
                       failing={"mtu2026-keep-intx-noiommu"})
    out = tmp_path / "merged"
    r = cli("merge", "--report", str(out), "--baseline", str(base),
            str(a), str(b))
    assert r.returncode == 1, r.stderr          # one cell fails
    data = json.loads((out / "results.json").read_text())
    assert sorted(c["cell"] for c in data["cells"]) == REDUCED
    assert (out / "cells" / REDUCED[5] / "dmesg.txt").is_file()
    changes = (out / "changes.txt").read_text()
    assert "2 cells changed" in changes
    assert "mtu2026-keep-intx-noiommu: fail -> pass" in changes
    assert "mtu9000-strip-msi-noiommu: pass -> fail" in changes
    assert "16 passed, 1 failed" in r.stdout


def test_merge_refuses_overlapping_shards(tmp_path):
    a = fake_report(tmp_path / "a", REDUCED[:4])
    r = cli("merge", "--report", str(tmp_path / "m"), str(a), str(a))
    assert r.returncode == 1
    assert "is in both" in r.stderr
    assert "Traceback" not in r.stderr
