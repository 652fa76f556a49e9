# SPDX-License-Identifier: GPL-2.0-or-later
"""DMA-fault diagnosis and situation coverage without a VM:
the fault sentence from a device record, the peer's pcap and the guest's
DMAR line; the reports; `--require-coverage` failing and passing."""

import json
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

from e1000epp.common import paths
from e1000epp.matrix import cell_model, diagnosis, report
from e1000epp.vm import patterns

CLI = os.path.join(paths.REPO, "e1000e-pp")
PEER_MAC = "52:54:00:00:00:02"
GUEST_MAC = "52:54:00:12:34:56"


def test_names_agree_with_the_device():
    src = open(os.path.join(paths.REPO, "hw", "net", "e1000e_pp", "core",
                            "coverage.c")).read()
    names = tuple(re.findall(r'\[SIT_\w+\] = "([\w-]+)"', src))
    assert names == diagnosis.SITUATIONS


def test_situations_difference_is_what_the_cell_hit():
    before = diagnosis.parse_situations("fcs-straddle 1\nrnbc 0\ntso 5\n")
    after = diagnosis.parse_situations("fcs-straddle 1\nrnbc 2\ntso 9\n")
    assert diagnosis.hit(before, after) == {"rnbc": 2, "tso": 4}


def _pcap(path, frames):
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for i, f in enumerate(frames):
        out += struct.pack("<IIII", 100 + i, 0, len(f), len(f)) + f
    path.write_bytes(out)


def test_short_buffer_fault_reads_as_one_sentence(tmp_path):
    # The cell started at rx-delivered 40; the fault is the device's
    # frame 43: the peer's third frame to the guest in this cell.
    frames = [patterns.pp_frame(GUEST_MAC, PEER_MAC, 0x10011, s, 1514)
              for s in range(3)]
    echo = patterns.pp_frame(PEER_MAC, GUEST_MAC, 0x10012, 0, 60)
    _pcap(tmp_path / "peer.pcap", [frames[0], echo, frames[1], frames[2]])
    (tmp_path / "dmesg.txt").write_text(
        "[  12.5] DMAR: [DMA Write NO_PASID] Request device [00:04.0] "
        "fault addr 0xfffc1000 [fault reason 0x05] PTE Write access is "
        "not set\n")
    start = {"situations": "dma-fault 0\nfcs-straddle 0\n",
             "dma-fault-count": 3, "rx-delivered": 40}
    end = {"situations": "dma-fault 1\nfcs-straddle 0\n",
           "dma-fault-count": 4, "rx-delivered": 45,
           "dma-faults": "5 frame=9 rx-data desc=0 addr=0x1000 offset=0 "
           "len=60 write\n"
           "123456 frame=43 rx-data desc=17 addr=0xfffc0c00 offset=0 "
           "len=1514 write\n"}
    faults, cov = diagnosis.cell_end(start, end, str(tmp_path), PEER_MAC,
                                     True)
    assert cov == {"known": ["dma-fault", "fcs-straddle"],
                   "hit": {"dma-fault": 1}}
    assert len(faults) == 1
    s = faults[0]["sentence"]
    assert s.startswith("Rx ring 0 descriptor 17 (rx-data): write of 1514 "
                        "bytes at offset 0 of buffer 0xfffc0c00 failed")
    assert "the peer's frame #3 of the cell: pattern frame seq 2 of run " \
        "0x10011 (1514 bytes)" in s
    # 0xfffc1000 - 0xfffc0c00: the IOMMU mapped 1024 bytes of the buffer
    assert "the mapping ends 1024 bytes into the buffer: a buffer posted " \
        "(mapped) shorter than BSIZE" in s
    assert "fault addr 0xfffc1000" in s and faults[0]["dmesg"]


def test_unmapped_page_without_offset():
    f = diagnosis.parse_faults("7 frame=1 rx-data desc=3 addr=0x7000 "
                               "offset=0 len=1514 write\n")
    d = diagnosis.diagnose(f, 0, [], [
        "DMAR: [DMA Write] Request device [00:04.0] fault addr 0x7000 "
        "[fault reason 0x01] Present bit in root entry is clear"], True)
    assert "unmapped (freed) while still posted" in d[0]["sentence"]
    d = diagnosis.diagnose(f, 0, [], [], False)
    assert "outside guest memory" in d[0]["sentence"]
    # Without an IOMMU line, a write that started past the buffer's start
    f = diagnosis.parse_faults("7 frame=1 rx-data desc=3 addr=0x7000 "
                               "offset=256 len=744 write\n")
    d = diagnosis.diagnose(f, 0, [], [], False)
    assert "the buffer took 256 bytes, no more" in d[0]["sentence"]


def _cell(name, hit=None, faults=None, cost=None):
    cell = cell_model.by_name().get(name)
    status = "fail" if faults else "pass"
    r = cell.result(status, "", 1.0, []) if cell else \
        {"cell": name, "status": status, "reason": "", "seconds": 1.0,
         "evidence": []}
    r["coverage"] = {"known": list(diagnosis.SITUATIONS),
                     "hit": hit or {}}
    if faults:
        r["faults"] = faults
    if cost:
        r["cost"] = cost
    return r


def test_reports_carry_faults_coverage_and_the_cost_figure(tmp_path):
    fault = {"sentence": "Rx ring 0 descriptor 1 (rx-data): write failed."}
    results = [_cell("mtu1500-strip-msix-noiommu", {"tso": 3}, [fault],
                     {"poll_per_rx": 3210.0, "rx_packets": 1,
                      "tx_packets": 1}),
               _cell("mtu9000-strip-msix-noiommu", {"rnbc": 1})]
    text, _ = report.write_report(str(tmp_path), {"stamp": "x"}, results)
    assert "FAIL 3.2k F1" in text
    assert "mtu1500-strip-msix-noiommu: Rx ring 0 descriptor 1" in text
    assert re.search(r"tso\s+1\n", text)
    assert re.search(r"fcs-straddle\s+0  never reached", text)
    assert "never reached in this run: fcs-straddle," in text
    cases = {c.get("name"): c for c in
             ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")}
    props = {p.get("name"): p.get("value") for p in
             cases["mtu1500-strip-msix-noiommu"].iter("property")}
    assert props["dma_fault.0"] == fault["sentence"]
    assert props["situations"] == "tso" and props["situation.tso"] == "3"
    page = (tmp_path / "report.html").read_text()
    assert ">FAIL</a> 3.2k F1</td>" in page
    assert "id='coverage-table'" in page and "id='dma-faults'" in page
    assert "<tr class='never'><th>fcs-straddle</th>" in page


def test_baseline_lists_situations_gained_and_lost(tmp_path):
    base = tmp_path / "base"
    os.makedirs(base)
    report.write_json(str(base / "results.json"), {"meta": {}, "cells": [
        _cell("mtu1500-strip-msix-noiommu", {"tso": 1, "rnbc": 2})]})
    now = tmp_path / "now"
    os.makedirs(now)
    text, _ = report.write_report(str(now), {}, [
        _cell("mtu1500-strip-msix-noiommu", {"tso": 1, "mpc": 1},
              [{"sentence": "x"}])], str(base))
    assert "coverage against the baseline: newly reached mpc; no longer " \
        "reached rnbc; DMA faults 0 -> 1" in text
    assert "newly reached mpc" in (now / "changes.txt").read_text()


def test_baseline_cells_this_run_did_not_select_are_left_out(tmp_path):
    # The baseline ran two cells; this run (--only) ran one: what only
    # the other cell reached, and its fault, are not "lost".
    base = tmp_path / "base"
    os.makedirs(base)
    report.write_json(str(base / "results.json"), {"meta": {}, "cells": [
        _cell("mtu1500-strip-msix-noiommu", {"tso": 1}),
        _cell("mtu9000-strip-msix-noiommu", {"rnbc": 2},
              [{"sentence": "x"}])]})
    now = tmp_path / "now"
    os.makedirs(now)
    text, _ = report.write_report(str(now), {}, [
        _cell("mtu1500-strip-msix-noiommu", {"tso": 1})], str(base))
    assert "coverage against the baseline: newly reached (none); no " \
        "longer reached (none); DMA faults 0 -> 0" in text


def _shard(tmp_path, hit):
    d = tmp_path / "shard"
    os.makedirs(d / "cells", exist_ok=True)
    report.write_json(str(d / "results.json"), {
        "meta": {"cells": 1},
        "cells": [_cell("mtu1500-strip-msix-noiommu", hit)]})
    return str(d)


def _merge(tmp_path, shard, *extra):
    return subprocess.run([sys.executable, CLI, "merge", "--report",
                           str(tmp_path / "out"), shard] + list(extra),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def test_require_coverage_fails_a_run_that_missed_one(tmp_path):
    shard = _shard(tmp_path, {"tso": 2, "rx-csum-tcp": 9})
    p = _merge(tmp_path, shard, "--require-coverage", "tso,fcs-straddle,mpc")
    assert p.returncode == 1
    assert "2 required situations never reached in this run: " \
        "fcs-straddle, mpc" in p.stderr
    assert "Traceback" not in p.stderr


def test_require_coverage_passes_when_all_reached(tmp_path):
    shard = _shard(tmp_path, {"tso": 2, "rx-csum-tcp": 9})
    p = _merge(tmp_path, shard, "--require-coverage", "tso, rx-csum-tcp")
    assert p.returncode == 0, p.stderr
    assert "all 2 required situations reached" in p.stdout


def test_require_coverage_unknown_name_is_a_clear_error(tmp_path):
    shard = _shard(tmp_path, {})
    p = _merge(tmp_path, shard, "--require-coverage", "tso,fsc-straddle")
    assert p.returncode == 1
    assert not (tmp_path / "out").exists()      # refused before merging
    assert "unknown situation fsc-straddle" in p.stderr
    assert "Traceback" not in p.stderr


def test_json_carries_faults_and_coverage(tmp_path):
    from e1000epp.matrix import command as matrix_command
    dest = tmp_path / "r.json"
    matrix_command.write_json(str(dest), {}, [_cell("c", {"tso": 1},
                                                    [{"sentence": "x"}])])
    cell = json.loads(dest.read_text())["cells"][0]
    assert cell["coverage"]["hit"] == {"tso": 1}
    assert cell["faults"] == [{"sentence": "x"}]


def test_require_coverage_all_names_the_one_missed(tmp_path):
    hit = {n: 1 for n in diagnosis.SITUATIONS
           if n not in ("null-desc", "xoff-sent")}
    p = _merge(tmp_path, _shard(tmp_path, hit), "--require-coverage", "all")
    assert p.returncode == 1
    assert "1 required situation never reached in this run: xoff-sent" \
        in p.stderr
    assert "Traceback" not in p.stderr
    assert "null-desc              0  never reached (unreachable: Linux's " \
        "e1000e never posts a buffer address of 0" in p.stdout


def test_require_coverage_all_passes_without_the_unreachable(tmp_path):
    hit = {n: 1 for n in diagnosis.SITUATIONS
           if n != "null-desc"}
    p = _merge(tmp_path, _shard(tmp_path, hit), "--require-coverage", "all")
    assert p.returncode == 0, p.stderr
    assert "all 25 required situations reached" in p.stdout


def test_merge_refuses_a_report_whose_cells_lack_their_grid_place(tmp_path):
    d = tmp_path / "old"
    os.makedirs(d / "cells", exist_ok=True)
    report.write_json(str(d / "results.json"), {"meta": {}, "cells": [
        {"cell": "mtu1500-strip-msix-noiommu", "status": "pass",
         "reason": "", "seconds": 1.0, "evidence": []}]})
    p = _merge(tmp_path, str(d))
    assert p.returncode == 1
    assert "cell mtu1500-strip-msix-noiommu has no mtu, config, row" \
        in p.stderr
    assert "Traceback" not in p.stderr + p.stdout


def test_require_coverage_all_with_one_taken_out():
    # A driver without packet split (the page-pool series) never
    # produces hdr-split: `all,-hdr-split` asks for the other 24.
    names = diagnosis.parse_required("all,-hdr-split")
    assert "hdr-split" not in names
    assert len(names) == len(diagnosis.REACHABLE) - 1 == 24
    assert diagnosis.unknown(diagnosis.parse_required("all,-nope")) \
        == ["nope"]
