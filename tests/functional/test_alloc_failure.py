# SPDX-License-Identifier: GPL-2.0-or-later
"""The allocation-failure cell (family allocfail: the fault injector,
guest/failinject, fails kernel calls of the driver) on both drivers it
knows, each built against its guest kernel's headers:

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
"""

import json

import pytest

from test_matrix_run import run

CELL = "mtu1500-strip-msix-noiommu-allocfail"


def checks_of(report):
    cell = json.loads((report / "results.json").read_text())["cells"][0]
    verdict = json.loads((report / "cells" / CELL / "verdict.json")
                         .read_text())
    return cell, {c["check"]: c for c in verdict["checks"]}


def test_the_series_fails_a_buffer_and_its_pool(device, tmp_path):
    if device != "e1000e-pp":
        pytest.skip("runs once, from the e1000e-pp session")
    out = tmp_path / "series"
    r = run("--driver", "pagepool", "--matrix", "mutate", "--only",
            CELL + "$", "--report", out)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "1 passed, 0 failed" in r.stdout
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


def test_debian_e1000e_fails_a_refill_and_loses_nothing(device, tmp_path):
    if device != "e1000e-pp":
        pytest.skip("runs once, from the e1000e-pp session")
    out = tmp_path / "stock"
    r = run("--matrix", "default", "--only", CELL + "$", "--report", out)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
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
