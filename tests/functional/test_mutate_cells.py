# SPDX-License-Identifier: GPL-2.0-or-later
"""The three cells the `mutate` matrix adds to the reduced one, on the
page-pool series and on Debian's e1000e: allocfail, holdtail, itr
(docs/usage/cells.md). One run per driver.

The allocation-failure cell (the fault injector, guest/failinject,
built against each guest kernel's headers, fails kernel calls of the
driver):

  - the page-pool series (`--driver pagepool`, Debian 6.12): one
    napi_build_skb fails, the frame it was for is lost (7 of 8 reach
    the agent) and alloc_rx_buff_failed counts it; then the pool's
    creation (libeth_rx_fq_create) fails at the interface up: the driver
    logs it at KERN_ERR, the device delivers none of 8 frames, and all
    8 are dropped at the down; every page comes back;
  - Debian's e1000e (6.1): one __netdev_alloc_skb of its refill fails,
    counted, and all 8 frames arrive; it holds no libeth, so has no pool.

Expected values from the drivers' source: the series' `goto discard`
after napi_build_skb (examples/pagepool-e1000e, patch 7) and stock
e1000e_alloc_rx_buffers' "Better luck next round".

The held-tail cell at MTU 9000: the series' 2 KB chunks put a 9014-byte
frame over 5 descriptors, so it is held after 2 (RDH and RDT move by 2,
the half frame freed at the down, its rest flushed); Debian's packet
split takes it in one descriptor (128 + 3 x 4096 bytes), so it arrives.

The ITR cell under MSI: 976 (4000 interrupts/s, e1000_update_itr's
bulk latency) after each of its three steps, on both drivers (the
series does not change e1000e's moderation).
"""

import json

import pytest

from test_matrix_run import run

CELL = "mtu1500-strip-msix-noiommu-allocfail"
HELD = "mtu9000-strip-msix-noiommu-holdtail"
ITR = "mtu9000-strip-msi-noiommu-itr"
ONLY = ",".join(c + "$" for c in (CELL, HELD, ITR))
ITR_CHECK = ("adaptive ITR (InterruptThrottleRate 3): bulk latency, 976, "
             "after each step (e1000_update_itr's table)")
ITR_SEEN = {"after 2 jumbo frames": 976, "after one 6000-byte frame": 976,
            "after Tx-only polls": 976}


def checks_of(report, name=CELL):
    cells = json.loads((report / "results.json").read_text())["cells"]
    cell = [c for c in cells if c["cell"] == name][0]
    verdict = json.loads((report / "cells" / name / "verdict.json")
                         .read_text())
    return cell, {c["check"]: c for c in verdict["checks"]}


@pytest.fixture(scope="module")
def series(device, tmp_path_factory):
    if device != "e1000e-pp":
        pytest.skip("runs once, from the e1000e-pp session")
    out = tmp_path_factory.mktemp("series")
    r = run("--driver", "pagepool", "--matrix", "mutate", "--only", ONLY,
            "--report", out)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "3 passed, 0 failed" in r.stdout
    return out


@pytest.fixture(scope="module")
def stock(device, tmp_path_factory):
    if device != "e1000e-pp":
        pytest.skip("runs once, from the e1000e-pp session")
    out = tmp_path_factory.mktemp("stock")
    r = run("--matrix", "default", "--only", ONLY, "--report", out)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "3 passed, 0 failed" in r.stdout
    return out


def test_the_series_fails_a_buffer_and_its_pool(series):
    out = series
    cell, checks = checks_of(out)
    assert cell["status"] == "pass"
    got = {k: v["got"] for k, v in checks.items()}
    assert got["one Rx buffer: napi_build_skb failed once for e1000e "
               "(the injector's count)"] == 1
    assert got["one Rx buffer: the driver counts the failure "
               "(alloc_rx_buff_failed, ethtool -S)"] == 1
    assert got["one Rx buffer: pattern frames the agent got of 8 (the "
               "page-pool design drops the frame whose skb failed)"] == 7
    assert got["the page pool's creation: libeth_rx_fq_create failed "
               "once for e1000e (the injector's count)"] == 1
    assert got["the page pool's creation failed: pattern frames the "
               "device wrote to the ring (none: no buffer is posted) and "
               "the agent got"] == [0, 0]
    assert got["the page pool's creation failed: the frames held for "
               "want of a buffer, dropped at the down (rx-flushed + "
               "rx-missed)"] == 8
    log = (out / "cells" / CELL / "traffic.log").read_text()
    assert "Unable to create the Rx page pool: -12" in log


def test_debian_e1000e_fails_a_refill_and_loses_nothing(stock):
    out = stock
    cell, checks = checks_of(out)
    assert cell["status"] == "pass"
    got = {k: v["got"] for k, v in checks.items()}
    assert got["one Rx buffer: __netdev_alloc_skb failed once for e1000e "
               "(the injector's count)"] == 1
    assert got["one Rx buffer: the driver counts the failure "
               "(alloc_rx_buff_failed, ethtool -S)"] == 1
    assert got["one Rx buffer: pattern frames the agent got of 8 (stock "
               "e1000e posts one buffer fewer and loses none)"] == 8
    assert "the page pool's creation: stock e1000e holds no libeth, so " \
        "has no pool to fail" in checks


def test_the_series_frees_a_half_received_frame_at_the_down(series):
    cell, checks = checks_of(series, HELD)
    assert cell["status"] == "pass"
    got = {k: v["got"] for k, v in checks.items()}
    assert got["held tail: the device stopped the frame once (event "
               "rx-held)"] == 1
    assert got["held tail: RDH moved by the 2 buffers written, and RDT by "
               "as many (the driver cleaned them and posted new ones)"] == \
        [2, 2]
    assert got["held tail: the half frame reaches no socket"] == 0
    assert got["held tail: the held frame's rest flushed at the down "
               "(rx-flushed)"] == 1


def test_debian_packet_split_takes_the_frame_whole(stock):
    cell, checks = checks_of(stock, HELD)
    assert cell["status"] == "pass"
    assert checks["held tail: a frame in 1 descriptor(s) is not held "
                  "after 2: it arrives"]["got"] == 1
    assert checks["held tail: the held frame's rest flushed at the down "
                  "(rx-flushed)"]["got"] == 0


def test_both_drivers_hold_bulk_latency(series, stock):
    for out in (series, stock):
        cell, checks = checks_of(out, ITR)
        assert cell["status"] == "pass"
        assert checks[ITR_CHECK]["got"] == ITR_SEEN
