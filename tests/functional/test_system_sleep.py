# SPDX-License-Identifier: GPL-2.0-or-later
"""System sleep through the matrix's own executor: the sleepdown cell
suspends the guest to RAM with the interface down, wakes it through QMP
system_wakeup and passes every traffic step after it (the TCP stream
peer -> guest and the checksum step run after the wake). One boot of
the bzImage with tsc=reliable (docs/usage/cells.md, "System sleep").
A family cell reads the device's situation counters, which the stock
model lacks (its cell fails on that read), so the test is e1000e-pp's."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent /
                       "scripts"))
from e1000epp.matrix import cell_model, execute  # noqa: E402

TIMEOUT = 30        # a cell's traffic bound; under TCG it takes ~5 s


@pytest.fixture(scope="module")
def result(device, guest_image, peer_bin, report_dir):
    if device != "e1000e-pp":
        pytest.skip("a family cell needs the device's situation counters")
    out = report_dir / f"system-sleep-{device}"
    cells = [cell_model.Cell(1500, family="sleepdown")]
    results, boots = execute.run_cells(cells, device, str(out), peer_bin,
                                       traffic_timeout=TIMEOUT,
                                       on_result=lambda r: None,
                                       on_boot=lambda t: None)
    return results[0], boots, out


def test_the_guest_sleeps_wakes_and_passes_the_traffic_after(result):
    r, boots, out = result
    assert boots == 1
    assert r["status"] == cell_model.PASS, r["reason"]
    checks = json.loads((out / "cells" / r["cell"] / "verdict.json")
                        .read_text())["checks"]
    by_name = {c["check"]: c for c in checks}
    slept = by_name["system sleeps the kernel finished (console: PM: "
                    "suspend exit)"]
    assert (slept["got"], slept["ok"]) == (1, True)
    window = by_name["the LPC bridge's ACPI window as the firmware set it"]
    # SeaBIOS's PMBASE 0x600 (I/O space bit set) and ACPI_EN in
    # ACPI_CNTL, back after the wake cleared them.
    assert window["got"] == [0x01, 0x06, 0, 0, 0x80, 0, 0, 0]


def test_the_boot_took_the_bzimage_with_the_tsc_kept(result):
    _, _, out = result
    cmdline = next((out / "boots").glob("*/qemu.cmdline")).read_text()
    assert "/vmlinuz " in cmdline and "tsc=reliable" in cmdline
