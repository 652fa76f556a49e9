# SPDX-License-Identifier: GPL-2.0-or-later
"""The matrix's report.html and a cell's index.html as headless Chromium
draws them (common/browser.py), from made-up results of the reduced
matrix with every section the page can have (failures, a baseline's
changes, the cost plot and table, DMA faults, situation coverage): no
text overlaps another or passes the window's right edge. Chromium is
installed by `./e1000e-pp setup`: without it these tests fail."""

import os

from e1000epp.common import browser
from e1000epp.matrix import cell_model, diagnosis, report

REASON = ("check rx-pattern failed: 3 of 4000 frames from the peer "
          "missing (seq 17, 18, 4001), 0 corrupted; the device counted "
          "0 drops (rnbc 0, mpc 0)\ntraffic.log, line 212: "
          "[ 14.20] e1000e 0000:00:04.0 eth0: Detected Hardware Unit Hang")


def results():
    out = []
    for i, cell in enumerate(cell_model.reduced_matrix()):
        status = ("pass", "fail", "error")[i % 5] if i % 5 < 3 else "pass"
        r = cell.result(status, "" if status == "pass" else REASON,
                        12.5 + i, ["traffic.log", "peer.pcap"])
        r["coverage"] = {"known": list(diagnosis.SITUATIONS),
                         "hit": {s: 10 ** (j % 7) for j, s in
                                 enumerate(diagnosis.SITUATIONS)
                                 if (i + j) % 3 == 0}}
        if cell.irq == "msix" and cell.family is None:
            r["cost"] = {"poll_per_rx": 3000.0 + cell.mtu,
                         "inv_per_pkt": 1.1 if cell.iommu == "iommu"
                         else None, "rx_packets": 4000, "tx_packets": 12}
        if cell.name.endswith("-dmafault"):
            r["faults"] = [{"sentence": "Rx ring 0 descriptor 17 "
                            "(rx-data): write of 1514 bytes at offset 0 of "
                            "buffer 0xfffc0c00 failed: the mapping ends "
                            "1024 bytes into the buffer"}]
        out.append(r)
    return out


def test_report_html_in_chromium(tmp_path):
    base = tmp_path / "base"
    os.makedirs(base)
    report.write_json(str(base / "results.json"), {"meta": {}, "cells": [
        dict(r, status="pass") for r in results()]})
    out = tmp_path / "report"
    os.makedirs(out)
    meta = {"stamp": "20250101T000000Z", "device": "e1000e-pp",
            "matrix": "reduced", "cells": 16, "boots": 2,
            "qemu": "/work/main/build/qemu-system-x86_64"}
    report.write_report(str(out), meta, results(), str(base))
    page = (out / "report.html").read_text()
    for part in ("id='cost-plot'", "id='coverage-table'", "<h2>Failures",
                 "id='dma-faults'", "Changed against the baseline"):
        assert part in page, part
    items = browser.check(str(out / "report.html"), out / "report.png")
    texts = {t["text"] for t in items}
    assert "e1000e-pp driver regression matrix" in texts
    assert "e1000e_poll instructions per received packet" in texts
    cell = out / "cells" / "mtu1500-strip-msi-noiommu-txhang"
    browser.check(str(cell / "index.html"))


def test_the_checker_sees_an_overlap_and_a_cut_in_a_page(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text(
        "<!DOCTYPE html><html><body style='margin:8px'>"
        "<p style='white-space:nowrap'>" + "too wide " * 300 + "</p>"
        "<p style='position:relative'><span>under</span>"
        "<span style='position:absolute;left:4px;top:2px'>over</span></p>"
        "<p>alone</p></body></html>")
    bad = browser.problems(browser.measure(str(page)))
    assert len(bad) == 2, bad
    assert bad[0].startswith("cut: 'too wide too wide ")
    assert bad[1].startswith("overlap: 'under' at ")
