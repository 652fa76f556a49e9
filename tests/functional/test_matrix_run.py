# SPDX-License-Identifier: GPL-2.0-or-later
"""The main job as CI runs it: `./e1000e-pp run --matrix reduced` on the
device under test, its report checked file by file; a baseline run
(test_matrix_stock.py runs two cells on QEMU's stock e1000e).
"""

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from e1000epp.common import browser
from test_matrix_cli import REDUCED, Links

HERE = Path(__file__).resolve().parent
CLI = HERE.parent.parent / "e1000e-pp"
# Every cell leaves these (matrix_exec.py's docstring).
EVIDENCE = {"verdict.json", "traffic.log", "peer.pcap", "dmesg.txt",
            "scan.txt", "ethtool-S.txt", "device.json", "interrupts.txt",
            "tcpsink.log", "index.html", "diag.json", "layout.json",
            "events.txt", "frames.json"}
# Situations the reduced matrix reaches on e1000e-pp (docs/coverage.md):
# every cell declares what it exists to produce and fails without it,
# so a passing run reached at least these 22 ...
REDUCED_REACHES = {"rx-csum-ip", "rx-csum-tcp", "rx-csum-udp", "rx-csum-err",
                   "tx-csum-ip",
                   "tx-csum-l4", "tso", "vlan-strip", "hdr-split",
                   "fcs-alone", "fcs-straddle", "wb-timer", "wb-threshold",
                   "irq-throttled", "split-polls", "ring-dry-midframe",
                   "rnbc", "mpc", "xoff-sent", "link-change-traffic",
                   "err-crc", "dma-fault"}
# ...and none of the errors it injects in no cell, nor what Linux's
# driver cannot produce.
REDUCED_NEVER = {"err-symbol", "err-data", "err-oversize", "null-desc"}
RUN_TIMEOUT = 1800      # the reduced matrix takes about 1 min; 30x that


def run(*args):
    return subprocess.run(["/usr/bin/python3", str(CLI), "run",
                           "--no-setup"] + [str(a) for a in args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=RUN_TIMEOUT)


@pytest.fixture(scope="module")
def reduced(device, guest_image, report_dir):
    out = report_dir / f"matrix-reduced-{device}"
    r = run("--device", device, "--matrix", "reduced", "--report", out)
    (report_dir / f"matrix-reduced-{device}.log").write_text(
        r.stdout + r.stderr)
    return r, out


def test_reduced_matrix_passes_on_e1000e_pp(reduced, device):
    r, out = reduced
    if device != "e1000e-pp":
        pytest.skip("the stock model fails cells by design (below)")
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr
    assert "17 passed, 0 failed" in r.stdout
    meta = json.loads((out / "results.json").read_text())["meta"]
    assert (meta["boots"], meta["cells"]) == (2, 17)
    assert "[17/17 " in r.stdout, "progress lines show done/total"


def test_every_cell_has_its_evidence(reduced):
    _, out = reduced
    for cell in REDUCED:
        d = out / "cells" / cell
        assert EVIDENCE <= {f.name for f in d.iterdir()}, cell
        verdict = json.loads((d / "verdict.json").read_text())
        assert verdict["cell"] == cell and verdict["checks"]
        dev = json.loads((d / "device.json").read_text())
        if dev["delta"]["rx-offered"] is not None:        # e1000e-pp
            assert dev["delta"]["rx-offered"] > 0
            # the DMA-fault cell's one rejected write
            assert dev["delta"]["dma-errors"] == \
                (1 if cell.endswith("-dmafault") else 0)
        dump = subprocess.run(["tcpdump", "-nn", "-r", str(d / "peer.pcap")],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=120)
        assert dump.returncode == 0, dump.stdout[-500:]
        assert "0x88b5" in dump.stdout, "pattern frames in the pcap"


def test_reduced_matrix_lists_its_situation_coverage(reduced, device,
                                                     tmp_path):
    r, out = reduced
    if device != "e1000e-pp":
        pytest.skip("the stock model counts no situations")
    cells = json.loads((out / "results.json").read_text())["cells"]
    reached = set()
    for c in cells:
        assert c["coverage"]["known"], c["cell"]
        reached |= set(c["coverage"]["hit"])
        # Only the DMA-fault cell has one, the one it asked for.
        assert ("faults" in c) == c["cell"].endswith("-dmafault"), c["cell"]
    assert REDUCED_REACHES <= reached
    assert not REDUCED_NEVER & reached
    assert "situation coverage (cells that hit each):" in r.stdout
    assert "never reached in this run: " in r.stdout
    vlan = [c for c in cells if c["cell"].endswith("-vlan")][0]
    assert vlan["coverage"]["hit"]["vlan-strip"] > 0
    page = (out / "report.html").read_text()
    assert "id='coverage-table'" in page
    # --require-coverage on the same results (merge re-reads them)
    cli = ["/usr/bin/python3", str(CLI), "merge", "--report"]
    ok = subprocess.run(cli + [str(tmp_path / "ok"), str(out),
                               "--require-coverage", "vlan-strip,tso"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "all 2 required situations reached" in ok.stdout
    bad = subprocess.run(cli + [str(tmp_path / "bad"), str(out),
                                "--require-coverage", "tso,null-desc"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=120)
    assert bad.returncode == 1
    assert "1 required situation never reached in this run: null-desc" \
        in bad.stderr


def test_junit_and_html_have_one_entry_per_cell(reduced):
    _, out = reduced
    cases = ET.parse(out / "junit.xml").getroot().findall("testcase")
    assert sorted(c.get("name") for c in cases) == REDUCED
    p = Links()
    p.feed((out / "report.html").read_text())
    assert sorted(p.cells) == REDUCED
    for href in p.links:
        assert (out / href).is_file(), href


def test_baseline_run_lists_no_change(reduced, device, tmp_path):
    _, base = reduced
    r = run("--device", device, "--matrix", "reduced", "--only",
            "mtu1500-strip-msix-noiommu$", "--baseline", base, "--report",
            tmp_path / "again")
    assert f"no cell changed against the baseline {base}" in r.stdout
    assert (tmp_path / "again" / "changes.txt").is_file()


CHROMIUM = "/usr/bin/chromium"


def test_report_html_in_headless_chromium(reduced, tmp_path):
    """The browser's own DOM of report.html (opened from the file system,
    no server): one grid cell per matrix cell, each linking to an evidence
    page that exists; and a screenshot for a human to look at."""
    _, out = reduced
    page = (out / "report.html").resolve()
    common = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
              "--user-data-dir=" + str(tmp_path / "profile")]
    dom = subprocess.run(common + ["--dump-dom", page.as_uri()],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=300)
    assert dom.returncode == 0, dom.stderr[-2000:]
    p = Links()
    p.feed(dom.stdout)
    assert sorted(p.cells) == REDUCED
    assert len(p.links) == len(REDUCED)
    for href in p.links:
        assert (out / href).is_file(), href
    shot = out / "report.png"
    r = subprocess.run(common + [f"--screenshot={shot}",
                                 "--window-size=1400,900", page.as_uri()],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_pages_draw_no_text_over_text(reduced):
    """report.html and one cell's index.html as Chromium lays them out
    (common/browser.py): no text over another, none past the window's
    right edge; full-page screenshots kept beside them."""
    _, out = reduced
    browser.check(out / "report.html", out / "report-full.png")
    cell = out / "cells" / REDUCED[0]
    browser.check(cell / "index.html", out / "cell-index.png")


def test_module_reloaded_once_per_parameter_set(reduced):
    """Cells sharing module parameters share one load of the driver:
    boot 1 has five parameter sets (IntMode=0 with CrcStripping=0;
    IntMode=1; IntMode=2; IntMode=2 with CrcStripping=0; IntMode=2 with
    copybreak=0), the IOMMU boot one."""
    _, out = reduced
    loads = []
    for cell in REDUCED:
        log = (out / "cells" / cell / "traffic.log").read_text()
        loads += [ln.split("loaded e1000e ")[1] for ln in log.splitlines()
                  if "loaded e1000e " in ln]
    assert sorted(loads) == sorted([
        "IntMode=0 CrcStripping=0", "IntMode=1", "IntMode=2",
        "IntMode=2 CrcStripping=0", "IntMode=2 copybreak=0",
        "IntMode=2"])


def test_two_real_shards_merge_into_one_report(device, tmp_path):
    """Two CI jobs, each one shard of two cells, and the merge step."""
    only = "mtu1500-strip-msix-noiommu$,mtu2027-keep-msix-noiommu"
    shards = []
    for i in (1, 2):
        out = tmp_path / f"shard-{i}"
        r = run("--device", device, "--matrix", "reduced", "--only", only,
                "--shard", f"{i}/2", "--report", out)
        assert "[1/1 " in r.stdout, r.stdout[-2000:] + r.stderr
        shards.append(out)
    merged = tmp_path / "all"
    m = subprocess.run(["/usr/bin/python3", str(CLI), "merge", "--report",
                        str(merged)] + [str(s) for s in shards],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    cases = ET.parse(merged / "junit.xml").getroot().findall("testcase")
    assert sorted(c.get("name") for c in cases) == [
        "mtu1500-strip-msix-noiommu", "mtu2027-keep-msix-noiommu"]
    for c in cases:
        assert (merged / "cells" / c.get("name") / "peer.pcap").is_file()
    if device == "e1000e-pp":
        assert m.returncode == 0 and "2 passed, 0 failed" in m.stdout
