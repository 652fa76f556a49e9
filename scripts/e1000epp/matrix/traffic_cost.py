# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's traffic under --cost: the steps inside the measured
window, the receive-only burst in a window of its own, and cost.json.
"""

import os

from e1000epp.matrix import cell_model, guest_cost, report
from e1000epp.matrix.guest_io import ethtool_stats, read_qom
from e1000epp.matrix.traffic import traffic
from e1000epp.matrix.traffic_context import agent_rx_wait
from e1000epp.vm import harness


def measured_traffic(ctx, window):
    """traffic() inside a cost window; returns the window's raw numbers
    and the device's buffer counters over it (None without --cost)."""
    vm = ctx.vm
    if window is None:
        traffic(ctx)
        return None, None
    buf0 = read_qom(vm, guest_cost.BUF_COUNTERS)
    window.start()
    traffic(ctx)
    raw = window.stop()
    buf1 = read_qom(vm, guest_cost.BUF_COUNTERS)
    buf = {k: buf1[k] - buf0[k] for k in buf1
           if isinstance(buf1[k], int) and isinstance(buf0[k], int)}
    return raw, buf


def rx_burst(ctx, run, window):
    """The receive-only burst (guest_cost.RX_BURST frames of the cell's largest
    length, peer -> guest) in a window of its own: (raw, rx packets).
    Sent in rounds of guest_cost.RX_ROUND, each received before the next: a
    burst longer than the ring overflows the packet buffer (the device
    drops and counts MPC, as the silicon would) once the guest falls
    behind, and a lost frame would change the work per packet."""
    vm, cell, checks, tlog, bound = (
        ctx.vm, ctx.cell, ctx.checks, ctx.tlog, ctx.bound)
    ifname = "eth0.100" if cell.vlan else "eth0"
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    vid = f" {cell_model.VLAN_ID}" if cell.vlan else ""
    n, length = guest_cost.RX_ROUND, cell.mtu + 14
    rounds = guest_cost.RX_BURST // n
    good = bad = missing = 0
    s0 = ethtool_stats(vm)
    window.start()
    for k in range(rounds):
        vm.agent.kv(f"RXSTART {ifname} {run + k} {n} "
                    f"{harness.PEER_MAC}{fcs}")
        vm.peer.command(f"TXL {harness.GUEST_MAC} {run + k} {length} "
                        f"{n}{vid}")
        agent_rx_wait(vm, bound)
        got = vm.agent.kv("RXSTOP")
        good += got.get("good", 0)
        bad += got.get("bad", 0)
        missing += got.get("missing", 0)
    raw = window.stop()
    s1 = ethtool_stats(vm)
    tlog(f"rx burst {rounds} x {n} x {length}: good {good} bad {bad} "
         f"missing {missing}")
    checks.eq(f"receive-only burst of {rounds} x {n} x {length} bytes "
              "(cost): good, bad, missing", (good, bad, missing),
              (rounds * n, 0, 0))
    return raw, s1.get("rx_packets", 0) - s0.get("rx_packets", 0)


def record_cost(cell_dir, raw, buf, stats0, stats1, burst):
    rx = stats1.get("rx_packets", 0) - stats0.get("rx_packets", 0)
    tx = stats1.get("tx_packets", 0) - stats0.get("tx_packets", 0)
    m = guest_cost.metrics(raw, rx, tx, buf, burst)
    report.write_json(os.path.join(cell_dir, "cost.json"),
                      {"metrics": m, "raw": raw, "device": buf,
                       "burst": {"raw": burst[0],
                                 "rx_packets": burst[1]}})
    return m
