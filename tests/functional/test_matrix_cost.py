# SPDX-License-Identifier: GPL-2.0-or-later
"""`run --cost` as CI runs it: the reduced matrix's IOMMU cell with the
cost plugin, its figures in every report form (terminal grid and table,
junit properties, report.html's table and plot, --json, cost.json)."""

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLI = HERE.parent.parent / "e1000e-pp"
CELL = "mtu4096-rxfcs-msix-iommu"


def test_cost_figures_in_every_report_form(device, guest_image, tmp_path):
    out = tmp_path / "cost"
    js = tmp_path / "cost.json"
    r = subprocess.run(["/usr/bin/python3", str(CLI), "run", "--no-setup",
                        "--device", device, "--matrix", "reduced",
                        "--only", CELL, "--cost", "--json", str(js),
                        "--report", str(out)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=900)
    assert "poll/rx" in r.stdout and "inv/pkt" in r.stdout, \
        r.stdout[-3000:] + r.stderr
    cell = json.loads(js.read_text())["cells"][0]
    assert cell["cell"] == CELL
    c = cell["cost"]
    if device == "e1000e-pp":
        assert r.returncode == 0, r.stdout[-3000:]
        assert c["rx_packets"] > 0 and c["tx_packets"] > 0
        assert c["poll_per_rx"] > 0 and c["tx_per_tx"] > 0
        # strict IOMMU: every received buffer is unmapped (and every sent
        # one), each unmap invalidates
        assert c["invalidations"] >= c["rx_packets"] // 2
    assert c["total_per_pkt"] > 0
    raw = json.loads((out / "cells" / CELL / "cost.json").read_text())
    assert raw["raw"]["plugin"]["open"] == 0
    props = {p.get("name"): p.get("value") for p in
             ET.parse(out / "junit.xml").getroot().iter("property")}
    assert float(props["cost.poll_per_rx"]) == c["poll_per_rx"]
    page = (out / "report.html").read_text()
    assert "id='cost-plot'" in page and "id='cost-table'" in page
    assert "data-series='rxfcs-iommu'" in page
