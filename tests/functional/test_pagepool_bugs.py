# SPDX-License-Identifier: GPL-2.0-or-later
"""The harness catches a bug planted in the page-pool series.

`./e1000e-pp bugs --only fcs-straddle --no-stock`: the series with the
fixture that trims the FCS from the last 2 KB chunk only
(examples/pagepool-e1000e/bugs/0001) runs mtu9212-keep-msix-noiommu,
whose pattern frames put the FCS across two chunks; the cell must fail
on corrupt peer->guest frames (the FCS bytes left in the previous
chunk reach the socket), and the correct series must pass the same
cell. The whole set of fixtures (and stock 6.12 beside them) is
`./e1000e-pp bugs` (docs/usage/bugs.md).

Both drivers are built from Debian's linux-source-6.12 against its
6.12 headers (apt), as `run --driver` does for a user.
"""

import json
import subprocess

BUG = "fcs-straddle"
CELL = "mtu9212-keep-msix-noiommu"
TIMEOUT = 40 * 60


def test_the_fcs_straddle_fixture_is_caught_and_the_series_passes(
        device, guest_image, peer_bin, report_dir, paths):
    if device != "e1000e-pp":
        import pytest
        pytest.skip("the cell's FCS placements are e1000e-pp's counters")
    out = report_dir / "test_pagepool_bugs"
    p = subprocess.run(
        [str(paths["REPO"] / "e1000e-pp"), "bugs", "--no-setup", "--only",
         BUG, "--no-stock", "--report", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=TIMEOUT)
    print(p.stdout[-4000:])
    assert p.returncode == 0, p.stdout[-4000:]
    assert "Traceback" not in p.stdout
    rows = json.loads((out / "bugs.json").read_text())
    assert [r["bug"] for r in rows] == [BUG]
    row = rows[0]
    assert row["caught"] and row["fixture"]["caught_by"] == CELL, row
    failed = row["fixture"]["cells"][0]
    assert failed["status"] == "fail"
    # The agent's verdict on the pattern frames: some corrupt, none
    # truncated (the frame is too long, not too short).
    assert "frames peer->guest" in failed["reason"]
    assert "corrupt" in failed["reason"], failed["reason"]
    assert row["series_passes"], row["series"]
    assert [c["status"] for c in row["series"]["cells"]] == ["pass"]
