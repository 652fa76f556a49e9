# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's traffic steps (matrix.execute.run_cell runs them):
which steps a cell runs, in what order (the steps: traffic_frames,
traffic_streams, traffic_power, traffic_checksum, traffic_faults,
traffic_held, traffic_moderation; the cost window: traffic_cost).
"""

from e1000epp.matrix.traffic_checksum import traffic_checksum
from e1000epp.matrix.traffic_faults import alloc_failure
from e1000epp.matrix.traffic_held import held_tail
from e1000epp.matrix.traffic_moderation import adaptive_itr
from e1000epp.matrix.traffic_frames import traffic_burst, traffic_frames
from e1000epp.matrix.traffic_power import (reset_vs_suspend, runtime_suspend,
                                           system_sleep, tx_hang)
from e1000epp.matrix.traffic_streams import (traffic_tcp_rx, traffic_tcp_tx,
                                             traffic_truesize, traffic_udp)
from e1000epp.vm import harness


def traffic(ctx):
    """Every traffic step runs even when an earlier one failed; a step the
    agent or peer refuses (no route: nothing crossed) is a failed check,
    a harness error (no answer at all) ends the cell. ctx.bound: seconds
    to wait for pattern frames that may have been lost."""
    cell, checks, tlog = ctx.cell, ctx.checks, ctx.tlog
    steps = [("frames", traffic_frames), ("udp", traffic_udp),
             ("truesize", traffic_truesize),
             ("tcp guest->peer", traffic_tcp_tx),
             ("tcp peer->guest", traffic_tcp_rx),
             ("checksums", traffic_checksum)]
    if cell.family and cell.family.burst:
        steps.insert(0, ("burst", traffic_burst))
    if cell.family and cell.family.suspend:
        steps.insert(-1, ("runtime suspend", runtime_suspend))
    if cell.family and cell.family.sleep:
        steps.insert(steps.index(("tcp peer->guest", traffic_tcp_rx)),
                     ("system sleep", system_sleep))
    if cell.family and cell.family.knob == "tx-hold":
        steps.insert(0, ("tx hang", tx_hang))
    if cell.family and cell.family.knob == "rx-hold":
        steps.insert(0, ("held tail", held_tail))
    if cell.family and cell.family.itr:
        steps.insert(0, ("adaptive ITR", adaptive_itr))
    if cell.family and cell.family.inject:
        steps.insert(0, ("allocation failures", alloc_failure))
    if cell.family and cell.family.knob == "reset-delay":
        steps.insert(0, ("reset against runtime suspend", reset_vs_suspend))
    for name, step in steps:
        if name in ("truesize", "checksums") and not checks.udp_ok:
            continue    # no echo came back: nothing IP reaches the guest
        if name.startswith("tcp") and not checks.udp_ok:
            # No datagram came back: a TCP stream would only wait for its
            # timeout. The reason is already recorded by the UDP check.
            checks.true(f"{name}: not attempted", False,
                        "no UDP datagram was echoed, so no TCP handshake "
                        "can complete")
            continue
        try:
            step(ctx)
        except harness.AgentError as e:
            checks.true(f"{name}: the agent refused", False,
                        str(e).splitlines()[0])
            tlog(f"{name}: {e}")
