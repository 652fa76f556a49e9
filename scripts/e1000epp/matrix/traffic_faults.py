# SPDX-License-Identifier: GPL-2.0-or-later
"""The allocation-failure step (the allocfail cells): calls the driver
makes fail in the guest kernel, through the fault injector
(guest/failinject, image/fault_injector.py), and what the driver must
do about each.

  1. One Rx buffer: the next call of the driver's buffer allocation
     fails (the page-pool design's napi_build_skb in its clean loop,
     stock e1000e's __netdev_alloc_skb in its refill). Both count it in
     alloc_rx_buff_failed (ethtool -S); the page-pool design drops the
     frame the buffer held and gives its page back to the pool, stock
     e1000e posts one buffer fewer until the next refill and loses
     nothing. The interface then goes down: its pool must be destroyed
     with every page back.
  2. The Rx page pool (a driver holding libeth): its creation at the
     next `ip link set up` fails with -ENOMEM. The driver must say so in
     the kernel log (a line at KERN_ERR or above), come up without a
     receive ring (frames offered, none delivered) and without a crash,
     and come up whole at the next down and up. Stock e1000e has no
     pool: the step asserts it holds no libeth.
"""

import re

from e1000epp.image.fault_injector import GUEST_PATH, MODULE
from e1000epp.matrix import cell_model, page_pools
from e1000epp.matrix.guest_io import (LINK_TIMEOUT, carrier, ethtool_stats,
                                      interface_up, qom_get, sh)
from e1000epp.vm import harness

# Pattern runs of this step (offsets of the cell's run base: 1-9 are
# the traffic steps', traffic_frames.ROUND_RUNS and
# traffic_power.HANG_RUN; 12 traffic_held's, 13-15 and 0
# traffic_moderation's).
BUFFER_RUN, POOL_RUN = 10, 11
FRAMES = 8
FRAME_LEN = 256
# Taint bits the injector's insmod sets (out of tree, unsigned): the
# cell's taint check leaves them out.
INJECTOR_TAINT = (1 << 12) | (1 << 13)
ENOMEM = 12
PARAMS = f"/sys/module/{MODULE}/parameters"
COUNTER = "alloc_rx_buff_failed"
# A kernel log line at KERN_ERR or above (busybox `dmesg -r`: "<3>...").
_URGENT = re.compile(r"^<([0-3])>")
# ENOMEM printed without its sign, as a number of its own (not part of
# a PCI address, a time or another number), after the line's time.
_ERRNO_UNSIGNED = re.compile(rf"(?<![-\w.:]){ENOMEM}(?![\w.:])")


def holds_libeth(vm):
    """The driver loaded holds libeth (the page-pool design)."""
    return sh(vm, "test -e /sys/module/libeth/holders/e1000e",
              check=False)[0] == 0


def _insmod(vm, func, retval):
    sh(vm, f"insmod {GUEST_PATH} func={func} retval={retval} times=1")


def _rmmod(vm):
    """(calls seen, calls failed) of the injector, then unloaded."""
    rc, out = sh(vm, f"cat {PARAMS}/calls {PARAMS}/injected; "
                 f"rmmod {MODULE}", check=False)
    nums = [int(w) for w in out.split() if w.isdigit()]
    return tuple(nums[:2]) if rc == 0 and len(nums) >= 2 else (None, None)


def _offer(ctx, run, want_agent):
    """FRAMES pattern frames peer -> guest; waits until the device took
    them all and the agent has want_agent; returns (the agent's
    counters, the device's rx-offered and rx-delivered over them)."""
    vm, cell, bound = ctx.vm, ctx.cell, ctx.bound
    names = ("rx-offered", "rx-delivered")
    d0 = {k: qom_get(vm, k) for k in names}
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    vm.agent.kv(f"RXSTART eth0 {run} {FRAMES} {harness.PEER_MAC}{fcs}")
    vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {FRAME_LEN} {FRAMES}")

    def delta():
        return {k: qom_get(vm, k) - d0[k] for k in names}
    harness.poll_value(delta, lambda d: d["rx-offered"] >= FRAMES, bound,
                       interval=0.2)
    harness.poll_value(lambda: vm.agent.kv("RXSTAT"),
                       lambda st: st.get("good", 0) >= want_agent, bound,
                       interval=0.2)
    return vm.agent.kv("RXSTOP"), delta()


def one_buffer(ctx, pools):
    """Part 1 (module docstring). Leaves the interface down."""
    vm, checks, tlog = ctx.vm, ctx.checks, ctx.tlog
    func = "napi_build_skb" if pools else "__netdev_alloc_skb"
    lost = 1 if pools else 0
    a0 = ethtool_stats(vm, checks=checks).get(COUNTER)
    _insmod(vm, func, 0)
    tlog(f"insmod {MODULE} func={func} retval=0 times=1")
    got, dev = _offer(ctx, ctx.run_base + BUFFER_RUN, FRAMES - lost)
    calls, injected = _rmmod(vm)
    a1 = ethtool_stats(vm, checks=checks).get(COUNTER)
    tlog(f"{func}: {calls} calls from e1000e, {injected} failed; "
         f"{COUNTER} {a0} -> {a1}; agent {got}; device {dev}")
    checks.eq(f"one Rx buffer: {func} failed once for e1000e (the "
              "injector's count)", injected, 1)
    checks.eq(f"one Rx buffer: the driver counts the failure ({COUNTER}, "
              "ethtool -S)", None if a0 is None or a1 is None else a1 - a0,
              1)
    checks.eq(f"one Rx buffer: pattern frames the agent got of {FRAMES} ("
              + ("the page-pool design drops the frame whose skb failed"
                 if pools else "stock e1000e posts one buffer fewer and "
                 "loses none") + ")", got.get("good"), FRAMES - lost)
    checks.eq("one Rx buffer: frames the agent got intact",
              {k: got.get(k) for k in ("bad", "trunc", "corrupt", "dup")},
              {k: 0 for k in ("bad", "trunc", "corrupt", "dup")})
    if lost:
        checks.expect_driver_drops("the frame whose skb allocation the "
                                   "injector failed", lost)
    page_pools.back_after_down(vm, checks, tlog, "one Rx buffer")


def pool_at_up(ctx, pools):
    """Part 2 (module docstring), from an interface down; leaves it up."""
    vm, checks, tlog = ctx.vm, ctx.checks, ctx.tlog
    if not pools:
        # Only a driver that is not the page-pool series may hold none.
        checks.true("the page pool's creation: stock e1000e holds no "
                    "libeth, so has no pool to fail",
                    ctx.driver != cell_model.DRIVER_SERIES,
                    "the run's driver is the page-pool series, yet "
                    "/sys/module/libeth/holders/e1000e is absent")
        interface_up(vm)
        return
    func = "libeth_rx_fq_create"
    before = len(sh(vm, "dmesg -r")[1].splitlines())
    _insmod(vm, func, -ENOMEM)
    tlog(f"insmod {MODULE} func={func} retval=-{ENOMEM} times=1")
    sh(vm, "ip link set eth0 up")
    up = harness.poll_value(lambda: carrier(vm), bool, LINK_TIMEOUT,
                            interval=0.2)
    checks.true("the page pool's creation failed: the interface still "
                "comes up (carrier)", up)
    new = sh(vm, "dmesg -r")[1].splitlines()[before:]
    said = [ln for ln in new if _URGENT.match(ln) and
            ("eth0" in ln or "e1000e" in ln)]
    tlog(f"{func} failed: kernel log {new}")
    d0 = {k: qom_get(vm, k) for k in ("rx-flushed", "rx-missed")}
    got, dev = _offer(ctx, ctx.run_base + POOL_RUN, 0)
    calls, injected = _rmmod(vm)
    tlog(f"{func}: {calls} calls from e1000e, {injected} failed; agent "
         f"{got}; device {dev}")
    checks.eq(f"the page pool's creation: {func} failed once for e1000e "
              "(the injector's count)", injected, 1)
    checks.true("the page pool's creation failed: the driver says so in "
                "the kernel log (a line at KERN_ERR or above)", said,
                said[0] if said else "no such line: " + "; ".join(new[-3:]))
    unsigned = [ln for ln in said
                if _ERRNO_UNSIGNED.search(ln.split("] ", 1)[-1])]
    checks.true(f"the page pool's creation failed: an error code the "
                f"driver logs is the one it got, -{ENOMEM} (-ENOMEM)",
                not unsigned, "; ".join(unsigned) or "none other")
    checks.eq("the page pool's creation failed: pattern frames the device "
              "wrote to the ring (none: no buffer is posted) and the "
              "agent got", (dev["rx-delivered"], got.get("good")), (0, 0))
    page_pools.back_after_down(vm, checks, tlog, "the page pool's creation")
    d1 = {k: qom_get(vm, k) - d0[k] for k in d0}
    checks.eq("the page pool's creation failed: the frames held for want "
              "of a buffer, dropped at the down (rx-flushed + rx-missed)",
              d1["rx-flushed"] + d1["rx-missed"], FRAMES)
    for k, n in d1.items():
        checks.step_drops[k] = checks.step_drops.get(k, 0) + n
    interface_up(vm)


def alloc_failure(ctx):
    """Both parts; the traffic steps after it check that the driver
    came back whole."""
    pools = holds_libeth(ctx.vm)
    ctx.checks.taint_allowed |= INJECTOR_TAINT
    ctx.tlog("allocation failures: the driver holds libeth"
             if pools else "allocation failures: no libeth (stock)")
    try:
        one_buffer(ctx, pools)
        pool_at_up(ctx, pools)
    finally:
        sh(ctx.vm, f"rmmod {MODULE} 2>/dev/null; ip link set eth0 up",
           check=False)
