# SPDX-License-Identifier: GPL-2.0-or-later
"""The checksum step catches a driver that takes a frame the device
found wrong as verified. `./e1000e-pp bugs --only csum-err --no-stock`:
the page-pool series with the fixture whose e1000_rx_checksum ignores
IPE/TCPE (examples/pagepool-e1000e/bugs/0008) runs
mtu1500-strip-msix-noiommu; its checksum step must fail for the stated
reason (the bad UDP datagrams reach the agent's socket) with the exact
counts of a driver that marks them CHECKSUM_UNNECESSARY, and the
correct series must pass the same cell.
"""

import json
import subprocess

BUG = "csum-err"
CELL = "mtu1500-strip-msix-noiommu"
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


def test_the_checksum_fixture_is_caught_and_the_series_passes(
        device, guest_image, peer_bin, report_dir, paths):
    if device != "e1000e-pp":
        import pytest
        pytest.skip("the step reads e1000e-pp's rx-csum-err")
    out = report_dir / "test_checksum_bug"
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
    for want in WANT:
        assert want in failed["reason"], failed["reason"]
    assert row["series_passes"], row["series"]
    assert [c["status"] for c in row["series"]["cells"]] == ["pass"]
