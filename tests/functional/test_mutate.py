# SPDX-License-Identifier: GPL-2.0-or-later
"""`mutate` judging in VMs, bounded: three mutants of the page-pool
series with known verdicts, judged by one cell of the reduced matrix
(the full campaign is `./e1000e-pp mutate --driver pagepool`):

  netdev.c:583:rel:0  `dma == DMA_MAPPING_ERROR` -> `<=`: every mapping
                      taken for an error, no Rx buffer posted: killed by
                      the cell, which names it
  netdev.c:583:rel:1  `==` -> `>=`: the constant is the largest address,
                      the object is identical: equivalent, not run
  netdev.c:181:neg:0  in e1000e_dump_rx_buffer, inlined into e1000e_dump
                      (probed instead; debug dumps only, after a Tx
                      hang): no cell enters it, not reached

The series' equivalents file is replaced by an empty one: its reasons
(netdev.c:181:neg:0 is in it) would hide the verdicts the machinery
itself reaches.

About a minute of VM time (one baseline boot and cell, one mutant boot);
the builds (the unmutated driver once, two mutants) take longer.
"""

import json
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLI = HERE.parent.parent / "e1000e-pp"
CELL = "mtu1500-strip-msix-noiommu"
IDS = "netdev.c:583:rel:0,netdev.c:583:rel:1,netdev.c:181:neg:0"


def test_three_mutants_with_known_verdicts(tmp_path):
    out = tmp_path / "camp"
    none = tmp_path / "no-equivalents.txt"
    none.write_text("")
    r = subprocess.run(["/usr/bin/python3", str(CLI), "mutate",
                        "--no-setup", "--driver", "pagepool", "--patches",
                        "1,4-7", "--ids", IDS, "--only", CELL + "$",
                        "--equivalent", str(none), "--out", str(out)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:]
    recs = {}
    for f in (out / "mutants").iterdir():
        rec = json.loads(f.read_text())
        recs[rec["id"]] = rec
    assert {i: recs[i]["verdict"] for i in recs} == {
        "netdev.c:583:rel:0": "killed",
        "netdev.c:583:rel:1": "equivalent",
        "netdev.c:181:neg:0": "not reached"}
    killed = recs["netdev.c:583:rel:0"]
    assert killed["cell"] == CELL
    assert killed["cells"] == [CELL]
    assert killed["reason"].startswith(CELL + ": ")
    assert recs["netdev.c:181:neg:0"]["reason"] == \
        "no selected cell enters e1000e_dump_rx_buffer"
    cov = json.loads((out / "judge" / "coverage.json").read_text())
    assert cov["cells"] == [CELL]
    assert cov["probes"]["e1000e_dump_rx_buffer"] == ["e1000e_dump"]
    assert "e1000_alloc_rx_buffers" in cov["hits"][CELL]
    assert "e1000e_dump" not in cov["hits"][CELL]
    meta = json.loads((out / "campaign.json").read_text())
    assert meta["judging"]["judged"] == 1
    assert meta["judging"]["boots"] == 2
