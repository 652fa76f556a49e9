# SPDX-License-Identifier: GPL-2.0-or-later
"""The held-tail step (the holdtail cells): a frame half received when
the driver takes the interface down.

With the ring idle, the device is let use HOLD more descriptors
(x-rx-hold-desc), then holds: one MTU-sized frame sent then stops after
HOLD, those written back without EOP, the rest on the chip. A driver
whose frames span descriptors (the page-pool design's 2 KB chunks)
cleans the HOLD descriptors in its poll, keeps the frame's start
(e1000e's rx_skb_top) and posts HOLD new buffers: RDT moves by HOLD
too. Then the interface goes down: the ring clean must free the half
frame with its pages (its page pool destroyed with every page back),
and after the up no stale start may join the next frame (the traffic
steps after this one). The device flushes the held rest at the down
(rx-flushed 1).

A driver whose buffers take the whole frame (Debian's packet split
above MTU 1500) is not held: the frame must simply arrive, and the
down and up follow.
"""

from e1000epp.matrix import buffer_layout, cell_model, page_pools
from e1000epp.matrix.guest_io import (interface_up, qom_get, qom_set,
                                      read_regs)
from e1000epp.vm import device_events, harness

HOLD = 2
# The pattern run of this step (an offset of the cell's run base; 1-11
# are the other steps').
HELD_RUN = 12


def _events_after(vm, t0):
    """The device's event lines logged after virtual time t0 (ns)."""
    out = []
    for line in (qom_get(vm, "events") or "").splitlines():
        words = line.split()
        if words and words[0].isdigit() and int(words[0]) > t0:
            out.append(line)
    return out


def _last_event_time(vm):
    lines = (qom_get(vm, "events") or "").splitlines()
    words = lines[-1].split() if lines else []
    return int(words[0]) if words and words[0].isdigit() else -1


def _ring(vm):
    regs = read_regs(vm, ("RDLEN", "RDH", "RDT"))
    return regs["RDH"], regs["RDT"], (regs["RDLEN"] or 0) // 16


def held_tail(ctx):
    vm, cell, checks, tlog, bound = (
        ctx.vm, ctx.cell, ctx.checks, ctx.tlog, ctx.bound)
    layout = checks.layout
    if layout is None:
        checks.true("held tail: the receive layout is known", False,
                    "the layout read failed (see its check)")
        return
    length = cell.mtu + 14
    need = buffer_layout.descriptors(layout, length)
    held = need > HOLD
    knob = cell_model.KNOBS["rx-hold"]
    run = ctx.run_base + HELD_RUN
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    t0 = _last_event_time(vm)
    ring0 = _ring(vm)
    f0 = qom_get(vm, "rx-flushed")
    qom_set(vm, knob, HOLD)
    tlog(f"qom-set {knob} {HOLD}: a {length}-byte frame takes {need} "
         f"descriptors ({layout['format']})")
    try:
        vm.agent.kv(f"RXSTART eth0 {run} 1 {harness.PEER_MAC}{fcs}")
        vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {length} 1")
        if held:
            _held(ctx, t0, ring0)
        else:
            st = harness.poll_value(lambda: vm.agent.kv("RXSTAT"),
                                    lambda s: s.get("good", 0) >= 1, bound,
                                    interval=0.2)
            checks.eq(f"held tail: a frame in {need} descriptor(s) is not "
                      f"held after {HOLD}: it arrives", st.get("good"), 1)
        got = vm.agent.kv("RXSTOP")
        tlog(f"held tail: agent {got}")
        page_pools.back_after_down(vm, checks, tlog, "held tail")
    finally:
        qom_set(vm, knob, 0)
        tlog(f"qom-set {knob} 0")
    interface_up(vm)
    flushed = qom_get(vm, "rx-flushed") - f0
    checks.eq("held tail: the held frame's rest flushed at the down "
              "(rx-flushed)", flushed, 1 if held else 0)
    checks.step_drops["rx-flushed"] = \
        checks.step_drops.get("rx-flushed", 0) + flushed


def _held(ctx, t0, ring0):
    """The frame stopped after HOLD buffers and the driver took them."""
    vm, checks, tlog, bound = ctx.vm, ctx.checks, ctx.tlog, ctx.bound
    rdh0, rdt0, _ = ring0
    events = harness.poll_value(
        lambda: [ln for ln in _events_after(vm, t0) if " rx-held " in ln],
        bool, bound, interval=0.2)
    checks.eq("held tail: the device stopped the frame once (event "
              "rx-held)", len(events), 1)

    def moved(ring):
        rdh, rdt, n = ring
        return ((rdh - rdh0) % n, (rdt - rdt0) % n) if n else (None, None)
    ring = harness.poll_value(lambda: _ring(vm),
                              lambda r: moved(r)[1] == HOLD, bound,
                              interval=0.2)
    tlog(f"held tail: {events}; RDH {rdh0} -> {ring[0]}, RDT {rdt0} -> "
         f"{ring[1]}, ring {ring[2]}")
    checks.eq(f"held tail: RDH moved by the {HOLD} buffers written, and "
              "RDT by as many (the driver cleaned them and posted new "
              "ones)", moved(ring), (HOLD, HOLD))
    if events:
        checks.eq("held tail: the event's RDH", int(device_events.fields(
            events[0])["value"], 16), ring[0])
    st = vm.agent.kv("RXSTAT")
    checks.eq("held tail: the half frame reaches no socket",
              st.get("good"), 0)
