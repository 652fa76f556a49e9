# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell that does not produce what it exists for fails, naming
it: the CRC-error cell run with its knob turned off (no frame marked)
passes every traffic check and fails with "did not produce err-crc"
alone; run as it is, it passes with exactly 3 frames lost and counted.
A boot each, through the executor's own run_cells (as `./e1000e-pp run`
calls it)."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent /
                       "scripts"))
from e1000epp.matrix import cell_model, execute
from e1000epp.matrix import traffic_frames  # noqa: E402

TIMEOUT = 30        # a cell's traffic bound; under TCG it takes ~3 s


@pytest.fixture(scope="module")
def results(device, guest_image, peer_bin, report_dir):
    if device != "e1000e-pp":
        pytest.skip("the stock model has no error knobs nor situations")
    out = report_dir / "cell-purpose"
    cells = [cell_model.Cell(1500, family="errcrc")]
    mp = pytest.MonkeyPatch()
    try:
        # The knob disabled: no frame of the stream is marked.
        mp.setattr(execute, "ERR_MARKED", 0)
        mp.setattr(traffic_frames, "ERR_MARKED", 0)
        off, _ = execute.run_cells(cells, device, str(out / "off"),
                                   peer_bin, traffic_timeout=TIMEOUT,
                                   on_result=lambda r: None,
                                   on_boot=lambda t: None)
    finally:
        mp.undo()
    on, _ = execute.run_cells(cells, device, str(out / "on"), peer_bin,
                              traffic_timeout=TIMEOUT,
                              on_result=lambda r: None,
                              on_boot=lambda t: None)
    return off[0], on[0], out


def test_the_cell_with_its_knob_off_fails_for_its_purpose(results):
    off, _, _ = results
    assert off["status"] == cell_model.FAIL
    assert off["reason"] == "did not produce err-crc"
    assert "err-crc" not in off["coverage"]["hit"]


def test_the_cell_as_declared_passes_with_three_frames_counted(results):
    _, on, out = results
    assert on["status"] == cell_model.PASS, on["reason"]
    assert on["coverage"]["hit"]["err-crc"] == 3
    d = out / "on" / "cells" / on["cell"]
    verdict = json.loads((d / "verdict.json").read_text())
    # The three marked frames are the first of the sweep's first round.
    lost = [c for c in verdict["checks"]
            if c["check"].startswith("peer->guest: the frames missing")][0]
    assert lost["got"] == [[0, 1, 2], [], []] and lost["ok"]
    stats = (d / "ethtool-S.txt").read_text()
    assert "rx_crc_errors: +3\n" in stats and "rx_errors: +3\n" in stats
