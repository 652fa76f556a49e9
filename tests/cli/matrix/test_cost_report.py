# SPDX-License-Identifier: GPL-2.0-or-later
"""The cost figures' plumbing without a VM: kallsyms to the plugin's
ranges file, trace lines to IOTLB counts, per-packet division, and the
report pieces (grid, table, JUnit, SVG plot, baseline change)."""

import json
import os
import xml.etree.ElementTree as ET

from e1000epp.matrix import cell_model, cost_table, guest_cost, report
KALLSYMS = """\
ffffffff81e00000 T irq_entries_start
ffffffff81e00700 T spurious_entries_start
ffffffff81e00ca0 T asm_sysvec_apic_timer_interrupt
ffffffff81e00cc0 t asm_sysvec_call_function_single
ffffffff81a00000 T e1000e_poll
ffffffff81000000 T _stext
ffffffffc0123450 t e1000e_poll\t[e1000e]
ffffffffc0120000 t e1000_clean_rx_irq\t[e1000e]
ffffffffc0121000 t e1000_clean_tx_irq\t[e1000e]
ffffffffc0122000 t e1000_xmit_frame\t[e1000e]
ffffffffc0125000 d e1000_driver\t[e1000e]
"""


def test_ranges_from_kallsyms_prefer_the_module():
    syms = guest_cost.parse_kallsyms(KALLSYMS)
    text = guest_cost.ranges_text(syms)
    assert "func e1000e_poll ffffffffc0123450\n" in text
    assert "func e1000_clean_rx_irq ffffffffc0120000\n" in text
    assert "irq ffffffff81e00000 ffffffff81e00700\n" in text
    assert "irq ffffffff81e00ca0\n" in text
    assert "irq ffffffff81e00cc0\n" in text
    assert "e1000_driver" not in text and "_stext" not in text


def test_zero_addresses_are_refused():
    try:
        guest_cost.parse_kallsyms("0000000000000000 t e1000e_poll\t[e1000e]\n")
    except guest_cost.CostError as e:
        assert "kptr_restrict" in str(e)
    else:
        raise AssertionError("zero addresses accepted")


def test_trace_lines_counted_after_the_offset(tmp_path):
    log = tmp_path / "trace.log"
    old = "123@1.0:vtd_inv_desc_iotlb_pages iotlb invalidate domain 0x1\n"
    log.write_text(old)
    with open(log, "a") as f:
        f.write("124@2.0:vtd_inv_desc_iotlb_pages iotlb invalidate domain "
                "0x1 addr 0xfff0000 mask 0x0\n"
                "124@2.1:vtd_inv_desc_iotlb_domain iotlb invalidate whole "
                "domain 0x1\n"
                "124@2.2:vtd_iotlb_page_update IOTLB page update sid 0x10\n"
                "124@2.3:vtd_inv_desc_cc_global context invalidate\n"
                "e1000e-pp: guest error, not a trace line\n")
    assert guest_cost.count_events(str(log), len(old))[:2] == (2, 1)


def test_metrics_divide_by_the_drivers_packet_counts():
    raw = {"plugin": {"insns": 1000000, "funcs": {
        "e1000e_poll": 40000, "e1000_clean_rx_irq": 30000,
        "e1000_clean_tx_irq": 5000, "e1000_xmit_frame": 15000},
        "calls": {"e1000e_poll": 12}, "irq_in_funcs": 7},
        "invalidations": 30, "fills": 45}
    m = guest_cost.metrics(raw, rx=20, tx=5, buf={"rx-buf-new": 10})
    assert m["poll_per_rx"] == 2000.0
    assert m["rxclean_per_rx"] == 1500.0
    assert m["tx_per_tx"] == 4000.0
    assert m["total_per_pkt"] == 40000.0
    assert m["inv_per_pkt"] == 1.2 and m["fills_per_pkt"] == 1.8
    assert m["bufnew_per_rx"] == 0.5 and m["polls"] == 12
    none = guest_cost.metrics({"plugin": None}, rx=0, tx=0)
    assert none["poll_per_rx"] is None and none["inv_per_pkt"] is None


def _result(name, poll, inv=None):
    return dict(cell_model.by_name()[name].result("pass", "", 1.0, []),
                cost={"poll_per_rx": poll, "inv_per_pkt": inv,
                      "rx_packets": 100, "tx_packets": 50})


def test_report_carries_the_figures(tmp_path):
    results = [_result("mtu1500-strip-msix-noiommu", 3210.0),
               _result("mtu9000-strip-msix-noiommu", 5400.0),
               _result("mtu1500-strip-msix-iommu", 9100.0, 1.1),
               cell_model.by_name()["mtu9000-keep-msi-noiommu"].result(
                   "pass", "", 1.0, [])]
    text, _ = report.write_report(str(tmp_path), {"stamp": "x"}, results)
    assert "ok 3.2k" in text and "ok 9.1k" in text
    assert "poll/rx" in text and "inv/pkt" in text
    cases = {c.get("name"): c for c in
             ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")}
    props = {p.get("name"): p.get("value") for p in
             cases["mtu1500-strip-msix-iommu"].iter("property")}
    assert props["cost.poll_per_rx"] == "9100.0"
    assert props["cost.inv_per_pkt"] == "1.1"
    assert not list(cases["mtu9000-keep-msi-noiommu"].iter("property"))
    page = (tmp_path / "report.html").read_text()
    assert "<svg" in page and "data-series='strip-noiommu'" in page
    assert "data-series='strip-iommu'" in page
    assert "http" not in page.split("<svg")[1].split("xmlns=")[0]


def test_baseline_lists_moved_figures(tmp_path):
    base = tmp_path / "base"
    os.makedirs(base)
    report.write_json(str(base / "results.json"), {"meta": {}, "cells": [
        _result("mtu1500-strip-msix-noiommu", 3000.0),
        _result("mtu1500-strip-msix-iommu", 9000.0, 1.0)]})
    now = tmp_path / "now"
    os.makedirs(now)
    text, _ = report.write_report(str(now), {}, [
        _result("mtu1500-strip-msix-noiommu", 3010.0),
        _result("mtu1500-strip-msix-iommu", 4500.0, 0.5)], str(base))
    assert "mtu1500-strip-msix-iommu poll/rx: 9.0k -> 4.5k (-50%)" in text
    assert "inv/pkt: 1.00 -> 0.50 (-50%)" in text
    assert "mtu1500-strip-msix-noiommu poll/rx" not in text
    assert "poll/rx: 9.0k -> 4.5k" in (now / "changes.txt").read_text()


def test_copybreak_matrix_is_the_published_comparison():
    names = sorted(c.name for c in cell_model.MATRICES["copybreak"]())
    assert names == ["mtu1500-strip-msix-iommu-cb0",
                     "mtu1500-strip-msix-iommu-cb2048",
                     "mtu1500-strip-msix-noiommu-cb0",
                     "mtu1500-strip-msix-noiommu-cb2048"]
    assert json.dumps(cost_table.junit_properties({"cell": "x"})) == "[]"


def test_receive_figures_come_from_the_burst_when_there_is_one():
    mixed = {"plugin": {"insns": 900, "funcs": {"e1000e_poll": 300}},
             "invalidations": 9}
    burst = {"plugin": {"insns": 5000, "funcs": {
        "e1000e_poll": 2560, "e1000_clean_rx_irq_ps": 2048},
        "calls": {"e1000e_poll": 4}}, "invalidations": 256}
    m = guest_cost.metrics(mixed, rx=3, tx=0, burst=(burst, 256))
    assert (m["poll_per_rx"], m["rxclean_per_rx"], m["inv_per_rx"]) == \
        (10.0, 8.0, 1.0)
    assert m["mix_poll_per_rx"] == 100.0 and m["inv_per_pkt"] == 3.0
    assert (m["burst_rx"], m["burst_polls"]) == (256, 4)
