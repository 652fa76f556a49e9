# SPDX-License-Identifier: GPL-2.0-or-later
"""Pages in flight: the page pools of the driver under test, read from
the guest kernel (the agent's POOLS: the netdev netlink family's
page-pool-get, Linux 6.8 and later), so a driver that keeps pages fails
the cell naming the pool.

  - at a cell's start, no pool is left detached: a pool whose netdev
    went away (an interface down, the module unloaded by the previous
    cell's reload) with pages still out is freed by the kernel once the
    last page comes back; one still listed after the bound is a leak;
  - at its end, likewise for the pools the cell's own
    re-initialisations destroyed (a reset, an offload change, a down
    and up).

What a live pool holds is no verdict: the posted ring and whatever the
driver keeps between frames (the series at MTU 9212 holds 384 pages
after traffic with a 256-descriptor ring, and gives every one back at
the next down: the pool is gone at once). A leak shows where the pool
is destroyed: pages out after the driver let go of it.

Drivers without page pools (Debian's e1000e) list none; a kernel
without page-pool-get (6.1) says so, which fails only a run of the
page-pool series.
"""

import re

from e1000epp.matrix import cell_model
from e1000epp.vm import harness

# Seconds for pages to come back: the kernel retries a detached pool's
# release every second (page_pool_release_retry), a socket's queue
# drains at once.
BOUND = 5.0
INTERVAL = 0.2
IFINDEX = "/sys/class/net/eth0/ifindex"
_POOL = re.compile(r"^pool (.*)$")


def parse(data, term):
    """[{id, ifindex, napi, inflight, inflight_mem, detached}] of a POOLS
    answer (None where the agent printed "-"), or None when the kernel
    has no page-pool-get."""
    if "family=absent" in term:
        return None
    pools = []
    for line in data:
        m = _POOL.match(line)
        if not m:
            continue
        pool = {}
        for word in m.group(1).split():
            key, _, value = word.partition("=")
            pool[key] = None if value == "-" else int(value)
        pools.append(pool)
    return pools


def read(vm):
    data, term = vm.agent.request("POOLS")
    return parse(data, term)


def ifindex(vm):
    text = vm.agent.read_files([IFINDEX])[IFINDEX]
    return int(text) if text and text.strip().isdigit() else None


def detached(pools):
    return [p for p in pools or () if p.get("detached") is not None]


def inflight(pools, index):
    """{"pool <id>": pages in flight} of the pools of interface index."""
    return {f"pool {p['id']}": p["inflight"] for p in pools or ()
            if p.get("ifindex") == index and p.get("detached") is None}


def _describe(pools):
    return "; ".join(f"pool {p['id']}: {p['inflight']} pages "
                     f"({p['inflight_mem']} bytes) in flight"
                     for p in pools)


def begin(vm, checks, tlog, driver):
    """The pools at the cell's start (after its configuration): none left
    detached. Returns (eth0's ifindex, {pool: inflight}) or None."""
    try:
        pools = harness.poll_value(lambda: read(vm),
                                   lambda p: not detached(p), BOUND,
                                   interval=INTERVAL)
        index = ifindex(vm)
    except harness.HarnessError as e:
        checks.true("the guest's page pools read (netlink page-pool-get)",
                    False, str(e).splitlines()[0])
        return None
    if pools is None:
        checks.true("the guest kernel lists page pools (netlink "
                    "page-pool-get, Linux 6.8+)",
                    driver != cell_model.DRIVER_SERIES,
                    "absent, but the run's driver is the page-pool series")
        tlog("page pools: the kernel has no page-pool-get")
        return None
    left = detached(pools)
    checks.true("no page pool left with pages out by the driver's previous "
                "instance (an interface down, a module unload)",
                not left, _describe(left) + f" after {BOUND:.0f} s")
    start = inflight(pools, index)
    tlog(f"page pools at the start: {pools}")
    return index, start


def judge(vm, checks, start, tlog):
    """No pool detached with pages out at the cell's end (a pool the
    cell's own re-initialisations destroyed: a reset, an offload change,
    a down and up), within BOUND s; eth0's pages in flight as evidence."""
    if start is None:
        return None
    index, was = start
    try:
        pools = harness.poll_value(lambda: read(vm),
                                   lambda p: not detached(p), BOUND,
                                   interval=INTERVAL)
    except harness.HarnessError as e:
        checks.true("the guest's page pools read at the cell's end", False,
                    str(e).splitlines()[0])
        return None
    now = inflight(pools, index)
    tlog(f"page pools at the end: {pools}")
    left = detached(pools)
    checks.true("no page pool detached with pages out (the cell's own "
                "re-initialisations)", not left,
                _describe(left) + f" after {BOUND:.0f} s")
    return {"start": was, "end": now, "pools": pools}


def after_down(vm, checks, tlog, index):
    """The boot's last cell, whose teardown no next cell's start would
    see: the interface taken down (the guest is stopped next). A down
    frees the Rx rings and destroys their pools: within BOUND s no pool
    may be left detached with pages out, nor still attached to the
    interface (index: its ifindex), as a pool the driver forgot to
    destroy stays."""
    def left(pools):
        return [p for p in pools or () if p.get("detached") is not None or
                (index is not None and p.get("ifindex") == index)]
    try:
        vm.agent.sh("ip link del eth0.100 2>/dev/null; "
                    "ip link set eth0 down")
        pools = harness.poll_value(lambda: read(vm),
                                   lambda p: not left(p), BOUND,
                                   interval=INTERVAL)
    except harness.HarnessError as e:
        checks.true("the guest's page pools read after the interface "
                    "down", False, str(e).splitlines()[0])
        return None
    tlog(f"page pools after the interface down (the boot's last cell): "
         f"{pools}")
    checks.true("no page pool left with pages out after the interface "
                "down (the boot's last cell: detached, or never "
                "destroyed)", not left(pools),
                _describe(left(pools)) + f" after {BOUND:.0f} s")
    return pools


def back_after_down(vm, checks, tlog, what):
    """The interface taken down by a step (its Rx ring cleaned, its pool
    destroyed): within BOUND s no pool left detached with pages out."""
    vm.agent.sh("ip link set eth0 down")
    pools = harness.poll_value(lambda: read(vm),
                               lambda p: not detached(p), BOUND,
                               interval=INTERVAL)
    left = detached(pools)
    tlog(f"{what}: page pools after the down: {pools}")
    checks.true(f"{what}: every page back in the pool at the interface "
                "down (no pool left detached with pages out)", not left,
                _describe(left) + f" after {BOUND:.0f} s" if left else
                "none left")
