# SPDX-License-Identifier: GPL-2.0-or-later
"""The soak's verdict on the device's counters (soak/command.py
Soak.sample), on made-up readings: pm-violations (an access in D3hot,
DMA after a bus-master disable) moving over the run fails it with the
number; dma-errors fails it as before; a counter that cannot be read
fails it rather than passing unjudged."""

import argparse

from e1000epp.soak import command as soak_command
from e1000epp.soak import guest as soak_guest


class FakeSvm:
    """A SoakVm that answers the samples' reads from a list of device
    counter readings, one per sample."""

    migrations = 0

    def __init__(self, readings, pools=None):
        self.readings = list(readings)
        # The agent's POOLS answers, one per sample (none listed).
        self.pools = list(pools or [])
        self.vm = self
        self.agent = self

    def request(self, line, timeout=60):
        assert line == "POOLS"
        return (self.pools.pop(0) if self.pools else []), "pools=0"

    def qemu_rss_kib(self):
        return {"VmRSS": 700 * 1024, "RssAnon": 100 * 1024}

    def mem_available_kib(self):
        return 400 * 1024

    def counters_at_one_instant(self):
        return self.readings.pop(0)


def reading(pm, dma=0, **kw):
    """Counters that add up (offered = every sink), with these two."""
    c = {k: 0 for k in (soak_guest.OFFERED,) + soak_guest.SINKS +
         soak_guest.OTHER}
    c.update({soak_guest.OFFERED: 1000, "rx-delivered": 1000,
              "pm-violations": pm, "dma-errors": dma}, **kw)
    return c


def soak_over(readings, pools=None):
    args = argparse.Namespace(device="e1000e-pp", migrate=False,
                              minutes=1)
    s = soak_command.Soak(args, "/nonexistent", 1)
    s.svm = FakeSvm(readings, pools)
    for n in range(len(readings)):
        s.sample(final=n == len(readings) - 1)
    return s


def test_pm_violations_unchanged_over_the_soak_pass():
    # What the boot left (before the soak's first reading) is not the
    # soak's: only the change is judged.
    s = soak_over([reading(2), reading(2), reading(2)])
    assert s.failures == []


def test_pm_violations_moving_fail_the_soak_with_the_number():
    s = soak_over([reading(0), reading(0), reading(3), reading(3),
                   reading(5)])
    assert len(s.failures) == 2, s.failures
    assert "device counter pm-violations +3 (3 since the soak began, " \
        "want 0)" in s.failures[0]
    assert "device counter pm-violations +2 (5 since the soak began, " \
        "want 0)" in s.failures[1]
    # The verdict (Soak.data) fails on them.
    assert soak_over([reading(0), reading(1)]).failures


def test_pm_violations_in_the_last_reading_fail_the_soak():
    s = soak_over([reading(0), reading(848)])
    assert s.failures and "pm-violations +848" in s.failures[-1]


def test_dma_errors_still_fail_the_soak():
    s = soak_over([reading(0, dma=1)])
    assert any("device counter dma-errors = 1" in f for f in s.failures)


def test_an_unreadable_counter_fails_the_soak():
    s = soak_over([reading(0), reading(None)])
    assert any("pm-violations could not be read" in f for f in s.failures)
    s = soak_over([reading(0, dma=None)])
    assert any("dma-errors could not be read" in f for f in s.failures)


LEFT = "pool id=4 ifindex=- napi=- inflight=2 inflight_mem=8192 " \
    "detached=1765000000"


def test_a_pool_detached_with_pages_out_at_two_samples_fails_once():
    s = soak_over([reading(0)] * 4, pools=[[LEFT], [LEFT], [LEFT], []])
    assert s.failures == [
        "[0.0 min] page pool 4 detached with 2 pages (8192 bytes) out "
        "since 0.0 min: a leak"]


def test_a_pool_the_kernel_frees_by_the_next_sample_passes():
    s = soak_over([reading(0)] * 3, pools=[[LEFT], [], []])
    assert s.failures == []
