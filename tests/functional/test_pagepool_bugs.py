# SPDX-License-Identifier: GPL-2.0-or-later
"""The harness catches a bug planted in the page-pool series.

`./e1000e-pp bugs --only fcs-straddle,csum-err --no-stock`, one run
for two fixtures of different classes:
- the fixture that trims the FCS from the last 2 KB chunk only
  (examples/pagepool-e1000e/bugs/0001) runs mtu9212-keep-msix-noiommu,
  whose pattern frames put the FCS across two chunks; the cell must
  fail on corrupt peer->guest frames (the FCS bytes left in the
  previous chunk reach the socket);
- the fixture whose e1000_rx_checksum ignores IPE/TCPE (bugs/0008)
  runs mtu1500-strip-msix-noiommu; its checksum step must fail for the
  stated reason (the bad UDP datagrams reach the agent's socket) with
  the exact counts of a driver that marks them CHECKSUM_UNNECESSARY;
and the correct series must pass both cells. The whole set of fixtures
(and stock 6.12 beside them) is `./e1000e-pp bugs` (docs/usage/bugs.md).

Both drivers are built from Debian's linux-source-6.12 against its
6.12 headers (apt), as `run --driver` does for a user.
"""

import json
import subprocess

CELLS = {"fcs-straddle": "mtu9212-keep-msix-noiommu",
         "csum-err": "mtu1500-strip-msix-noiommu"}
TIMEOUT = 40 * 60
# What the buggy driver gives for CSUMBAD's 2 bad frames of each of 5
# kinds (matrix/traffic_checksum.py): the device still finds all 10,
# the driver counts none, the stack verifies none of the 4 bad UDP/TCP
# checksums over IPv4 (it still drops the 2 bad IPv4 headers itself),
# resets the 2 bad TCP segments as if good and the socket gets the 2
# bad datagrams.
WANT = (
    "the driver's rx_csum_offload_errors (ethtool -S): got 0, want 10",
    "Udp InCsumErrors 0 (want 2), Tcp InCsumErrors 0 (want 2), Tcp "
    "OutRsts 5 (want 3)",
    "every byte checked): got 8 (want 6), bad 2 (want 0)")


def test_two_fixtures_are_caught_for_their_reasons_and_the_series_passes(
        device, guest_image, peer_bin, report_dir, paths):
    if device != "e1000e-pp":
        import pytest
        pytest.skip("the cell's FCS placements are e1000e-pp's counters")
    out = report_dir / "test_pagepool_bugs"
    p = subprocess.run(
        [str(paths["REPO"] / "e1000e-pp"), "bugs", "--no-setup", "--only",
         ",".join(CELLS), "--no-stock", "--report", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=TIMEOUT)
    print(p.stdout[-4000:])
    assert p.returncode == 0, p.stdout[-4000:]
    assert "Traceback" not in p.stdout
    rows = json.loads((out / "bugs.json").read_text())
    assert [r["bug"] for r in rows] == list(CELLS)
    for row in rows:
        assert row["caught"], row
        assert row["fixture"]["caught_by"] == CELLS[row["bug"]], row
        failed = row["fixture"]["cells"][0]
        assert failed["status"] == "fail"
        assert row["series_passes"], row["series"]
        assert [c["status"] for c in row["series"]["cells"]] == ["pass"]
    fcs, csum = (rows[0]["fixture"]["cells"][0]["reason"],
                 rows[1]["fixture"]["cells"][0]["reason"])
    # The agent's verdict on the pattern frames: some corrupt, none
    # truncated (the frame is too long, not too short).
    assert "frames peer->guest" in fcs and "corrupt" in fcs, fcs
    for want in WANT:
        assert want in csum, csum
