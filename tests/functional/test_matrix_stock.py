# SPDX-License-Identifier: GPL-2.0-or-later
"""Two cells of the reduced matrix on QEMU's stock e1000e, from the
e1000e-pp session: its rx-fcs cell must fail with its true reason (the
stock model loses every frame when the driver keeps the FCS). The failing
cell waits out its whole traffic bound, so the run gives a 20 s one
(`--traffic-timeout 20`; the default 120 s would only make the same
verdict wait longer): under TCG a frame crosses in milliseconds, and the
cell beside it, whose every traffic check passes, shows the bound is
still generous. That cell fails for one reason alone: the stock model
counts no situations, so what the cell exists to produce cannot be
checked. A file of its own: the suite runs files side by side.
"""

import json
import xml.etree.ElementTree as ET

import pytest

from test_matrix_run import run

TRAFFIC_TIMEOUT = 20


def test_stock_e1000e_fails_the_rx_fcs_cell_for_its_true_reason(
        device, tmp_path):
    if device != "e1000e-pp":
        pytest.skip("runs once, from the e1000e-pp session")
    out = tmp_path / "stock"
    r = run("--device", "e1000e", "--matrix", "reduced", "--only",
            "mtu1500-strip-msix-noiommu$,mtu4097-rxfcs-msix-noiommu",
            "--traffic-timeout", str(TRAFFIC_TIMEOUT), "--report", out)
    assert r.returncode == 1
    assert "0 passed, 2 failed" in r.stdout
    report = json.loads((out / "results.json").read_text())
    assert report["meta"]["traffic_timeout"] == TRAFFIC_TIMEOUT
    results = {c["cell"]: c for c in report["cells"]}
    assert results["mtu1500-strip-msix-noiommu"]["reason"] == (
        "the device's situations read (QMP): e1000e has no situations "
        "counters: the cell's purpose cannot be checked")
    bad = results["mtu4097-rxfcs-msix-noiommu"]
    assert bad["status"] == "fail"
    # 87 frames: 29 lengths of the cell's sweep (run seed 37) x 3; the
    # driver drops 8317 and 9230 (with the FCS past the 128 + 2 x 4096
    # bytes of the first descriptor), 6 frames, so 81 must arrive.
    assert bad["reason"].startswith("frames peer->guest (agent): good 0 "
                                    "(want 81), missing 87 (want 6)")
    case = [c for c in ET.parse(out / "junit.xml").getroot()
            .findall("testcase") if c.get("name") == bad["cell"]][0]
    assert case.find("failure").get("message") == \
        bad["reason"].splitlines()[0]
