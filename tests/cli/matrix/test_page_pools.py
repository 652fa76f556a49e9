# SPDX-License-Identifier: GPL-2.0-or-later
"""Pages in flight (matrix/page_pools.py): the agent's POOLS answer read,
and a driver keeping pages failing its cell naming the pool."""

from e1000epp.matrix import cell_model, page_pools
from e1000epp.matrix.guest_io import Checks

# What the agent answers for the series' one Rx pool on eth0 (ifindex 2)
# and a pool detached from a netdev gone with 3 pages still out.
ANSWER = ["pool id=7 ifindex=2 napi=8193 inflight=256 inflight_mem=1048576 "
          "detached=-",
          "pool id=5 ifindex=- napi=- inflight=3 inflight_mem=12288 "
          "detached=1765000000"]


def test_pools_parsed_with_absent_values_as_none():
    pools = page_pools.parse(ANSWER, "pools=2")
    assert pools[0] == {"id": 7, "ifindex": 2, "napi": 8193,
                        "inflight": 256, "inflight_mem": 1048576,
                        "detached": None}
    assert page_pools.detached(pools) == [pools[1]]
    assert page_pools.inflight(pools, 2) == {"pool 7": 256}
    assert page_pools.parse([], "family=absent") is None


class PoolVm:
    """A guest whose POOLS answers follow a script (the last repeats)."""

    def __init__(self, answers, index="2"):
        self.answers, self.i, self.index = answers, 0, index
        self.agent = self

    def request(self, line, timeout=60):
        assert line == "POOLS"
        out = self.answers[min(self.i, len(self.answers) - 1)]
        self.i += 1
        return out

    def read_files(self, paths, timeout=60):
        return {page_pools.IFINDEX: self.index}


def pool(id_, inflight, ifindex=2, detached=None):
    return (f"pool id={id_} ifindex={ifindex if ifindex else '-'} napi=1 "
            f"inflight={inflight} inflight_mem={inflight * 4096} "
            f"detached={detached or '-'}")


def cell(answers, driver=cell_model.DRIVER_SERIES, bound=0.3):
    vm, checks, log = PoolVm(answers), Checks(), []
    page_pools.BOUND, old = bound, page_pools.BOUND
    try:
        start = page_pools.begin(vm, checks, log.append, driver)
        page_pools.judge(vm, checks, start, log.append)
    finally:
        page_pools.BOUND = old
    return checks.failures()


def test_pages_a_live_pool_holds_are_evidence_not_a_verdict():
    up = ([pool(7, 256)], "pools=1")
    busy = ([pool(7, 384)], "pools=1")
    assert cell([up, busy]) == []


def test_a_pool_the_cell_destroyed_with_pages_out_fails_naming_it():
    up = ([pool(7, 256)], "pools=1")
    leak = ([pool(7, 2, ifindex=None, detached=1765000000),
             pool(8, 256)], "pools=2")
    assert cell([up, leak]) == [
        "no page pool detached with pages out (the cell's own "
        "re-initialisations): pool 7: 2 pages (8192 bytes) in flight "
        "after 0 s"]


def test_a_pool_left_detached_by_the_previous_instance_fails():
    left = ([pool(5, 3, ifindex=None, detached=1765000000), pool(7, 256)],
            "pools=2")
    fails = cell([left])
    assert "no page pool left with pages out by the driver's previous " \
        "instance (an interface down, a module unload): pool 5: 3 pages " \
        "(12288 bytes) in flight after 0 s" in fails


def test_a_detached_pool_the_kernel_frees_in_time_passes():
    left = ([pool(5, 3, ifindex=None, detached=1765000000), pool(7, 256)],
            "pools=2")
    up = ([pool(7, 256)], "pools=1")
    assert cell([left, up], bound=2) == []


def test_a_kernel_without_page_pool_get_fails_only_the_series():
    absent = ([], "family=absent")
    assert cell([absent], driver=cell_model.DRIVER_STOCK) == []
    assert cell([absent]) == [
        "the guest kernel lists page pools (netlink page-pool-get, Linux "
        "6.8+): absent, but the run's driver is the page-pool series"]


class DownVm(PoolVm):
    """PoolVm that also takes shell commands (the interface down)."""

    def __init__(self, answers):
        super().__init__(answers)
        self.commands = []

    def sh(self, command, timeout=60, check=True):
        self.commands.append(command)
        return 0, ""


def test_the_boots_last_cell_takes_the_interface_down_and_judges_it():
    """A driver that leaks at its teardown leaks nothing a cell sees
    until the next down; after the boot's last cell nothing else would
    take it down (the bugs fixture teardown-leak: 256 posted buffers)."""
    leak = ([pool(7, 256, ifindex=None, detached=1765000000)], "pools=1")
    vm, checks = DownVm([leak]), Checks()
    page_pools.BOUND, old = 0.3, page_pools.BOUND
    try:
        pools = page_pools.after_down(vm, checks, lambda text: None, 2)
    finally:
        page_pools.BOUND = old
    assert vm.commands == ["ip link del eth0.100 2>/dev/null; "
                           "ip link set eth0 down"]
    assert pools[0]["inflight"] == 256
    assert checks.failures() == [
        "no page pool left with pages out after the interface down (the "
        "boot's last cell: detached, or never destroyed): pool 7: 256 "
        "pages (1048576 bytes) in flight after 0 s"]


def test_a_driver_that_returns_its_pages_at_the_down_passes():
    gone = ([], "pools=0")
    vm, checks = DownVm([gone]), Checks()
    assert page_pools.after_down(vm, checks, lambda text: None, 2) == []
    assert checks.failures() == []


def test_a_pool_the_down_never_destroyed_fails():
    """A driver that skips destroying its pool at teardown (mutant
    netdev.c:1135:force:1 of the series: `if (0)` over the ring's
    release) leaves it attached to the interface, pages and all."""
    kept = ([pool(7, 256)], "pools=1")
    vm, checks = DownVm([kept]), Checks()
    page_pools.BOUND, old = 0.3, page_pools.BOUND
    try:
        page_pools.after_down(vm, checks, lambda text: None, 2)
    finally:
        page_pools.BOUND = old
    assert checks.failures() == [
        "no page pool left with pages out after the interface down (the "
        "boot's last cell: detached, or never destroyed): pool 7: 256 "
        "pages (1048576 bytes) in flight after 0 s"]
