# SPDX-License-Identifier: GPL-2.0-or-later
"""The adaptive interrupt moderation step (the itr cells).

e1000e's default InterruptThrottleRate, 3 (dynamic conservative),
classes each interrupt's Rx and Tx by the packets and bytes its poll
moved (e1000_update_itr, Linux's netdev.c) and sets the interrupt rate
of the larger class (e1000_set_itr): bulk latency is 4000 interrupts a
second, written under MSI and INTx as ITR = 10^9 / (4000 x 256) = 976
(256 ns units). The table's edges the step stands on:

  - a poll that moved no packet leaves its class alone;
  - from low latency, a class with more than 2000 bytes a packet goes
    to bulk (more than 8000 from lowest);
  - from bulk, a class falls back to low under 6000 bytes an interrupt
    (or with more than 35 packets over 25000 bytes);
  - conservative mode never keeps lowest: it becomes low.

The steps, each ending with ITR read from the device:

  1. small frames guest -> peer, one at a time: the Tx class low;
  2. two MTU-sized jumbo frames peer -> guest (more than 8000 bytes a
     packet: bulk even from lowest, where a fresh module starts): Rx
     bulk, ITR 976;
  3. one frame of exactly 6000 bytes: not under 6000, Rx stays bulk,
     ITR 976;
  4. small frames guest -> peer again: polls that receive nothing,
     ITR 976;
  5. one frame of 5999 bytes: under 6000, Rx falls to low, the larger
     class is low (20000 interrupts/s), and e1000e climbs towards it in
     quarter steps (min(itr + 20000 / 4, 20000): 9000, 14000, 19000,
     20000 at each poll after), so ITR reads 434, 279, 205 or 195.

What the driver counts is skb->len, the FCS not included where it
trims it. With the FCS kept for the stack (`rx-fcs` cells) Debian's
driver counts it (e1000_clean_rx_irq_ps adds skb->len with the FCS in
it: 6003, Rx stays bulk at step 5), the page-pool series does not
(its "an FCS kept for the stack is not counted"); a driver of the
user's own may do either, and the step reports which.

MSI and INTx cells only: under MSI-X the driver writes EITR at its
next Rx interrupt instead.
"""

import time

from e1000epp.matrix import cell_model
from e1000epp.matrix.guest_io import read_regs
from e1000epp.vm import harness

BULK_ITR = 976
# 10^9 / (rate x 256) along e1000_set_itr's climb from 4000 to 20000.
LOW_CLIMB = (434, 279, 205, 195)
EDGE = 6000
SMALL = 60
SMALL_FRAMES = 4
# Pattern runs of this step (offsets of the cell's run base, 0-15:
# 1-12 are the other steps', 16 the next cell's base).
TX_RUN, RX_RUN, EDGE_RUN, UNDER_RUN = 13, 14, 15, 0
# After the frames of a step, for the polls they cause to have run.
SETTLE_S = 0.5


def _small_tx(vm, run):
    """SMALL_FRAMES frames of SMALL bytes to the peer, one at a time."""
    for _ in range(SMALL_FRAMES):
        vm.agent.kv(f"TX eth0 {harness.PEER_MAC} {run} 1 {SMALL} {SMALL}")
        time.sleep(0.1)
    time.sleep(SETTLE_S)


def _rx(ctx, run, length, n):
    """n frames of length bytes peer -> guest; the agent's count."""
    vm, cell = ctx.vm, ctx.cell
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    vm.agent.kv(f"RXSTART eth0 {run} {n} {harness.PEER_MAC}{fcs}")
    vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {length} {n}")
    harness.poll_value(lambda: vm.agent.kv("RXSTAT"),
                       lambda st: st.get("good", 0) >= n, ctx.bound,
                       interval=0.2)
    return vm.agent.kv("RXSTOP").get("good")


def _itr(vm):
    return read_regs(vm, ("ITR",))["ITR"]


def adaptive_itr(ctx):
    vm, cell, checks, tlog = ctx.vm, ctx.cell, ctx.checks, ctx.tlog
    if cell.irq == "msix":
        checks.true("adaptive ITR: an MSI or INTx cell", False,
                    "the itr family reads ITR, which MSI-X leaves alone")
        return
    seen = {}
    _small_tx(vm, ctx.run_base + TX_RUN)
    got = _rx(ctx, ctx.run_base + RX_RUN, cell.mtu + 14, 2)
    # The poll that delivered them sets ITR as it completes.
    seen["after 2 jumbo frames"] = harness.poll_value(
        lambda: _itr(vm), lambda v: v == BULK_ITR, 2.0, interval=0.1)
    got_edge = _rx(ctx, ctx.run_base + EDGE_RUN, EDGE, 1)
    time.sleep(SETTLE_S)
    seen[f"after one {EDGE}-byte frame"] = _itr(vm)
    _small_tx(vm, ctx.run_base + TX_RUN)
    seen["after Tx-only polls"] = _itr(vm)
    got_under = _rx(ctx, ctx.run_base + UNDER_RUN, EDGE - 1, 1)
    under = harness.poll_value(lambda: _itr(vm), lambda v: v != BULK_ITR,
                               2.0, interval=0.1)
    tlog(f"adaptive ITR: {seen}, after one {EDGE - 1}-byte frame {under}; "
         f"frames {got} + {got_edge} + {got_under}")
    checks.eq(f"adaptive ITR: the frames arrived ({cell.mtu + 14} x 2, "
              f"{EDGE} x 1, {EDGE - 1} x 1)", (got, got_edge, got_under),
              (2, 1, 1))
    checks.eq("adaptive ITR (InterruptThrottleRate 3): bulk latency, "
              f"{BULK_ITR}, after each step (e1000_update_itr's table)",
              seen, {k: BULK_ITR for k in seen})
    counts_fcs = cell.crc == "rxfcs" and ctx.driver == \
        cell_model.DRIVER_STOCK
    if cell.crc == "rxfcs" and ctx.driver is None:
        said = "counted" if under == BULK_ITR else "not counted"
        tlog(f"adaptive ITR: the kept FCS {said} by this driver")
    elif counts_fcs:
        checks.eq(f"adaptive ITR: one {EDGE - 1}-byte frame with its FCS "
                  f"kept, which Debian's driver counts ({EDGE + 3} bytes): "
                  "bulk", under, BULK_ITR)
    else:
        checks.true(f"adaptive ITR: one {EDGE - 1}-byte frame, under "
                    f"{EDGE}: low latency, ITR on its climb to 20000/s "
                    f"({', '.join(map(str, LOW_CLIMB))})",
                    under in LOW_CLIMB, f"ITR {under}")
