# SPDX-License-Identifier: GPL-2.0-or-later
"""Waiting with deadlines, for the VM harness and its tests.

Prefer a wait the other side answers itself (the peer's WAIT, the
agent's RXWAIT: they reply the moment the frames are counted). What is
left here polls on the host's clock, always with an explicit bound that
is generous for TCG on a loaded 2-core machine, and the bound is only
reached when something is wrong: never a measure of speed.
"""

import time


class HarnessError(Exception):
    """A harness step failed or a deadline passed."""


def wait_until(what, predicate, timeout, interval=0.1, evidence=None):
    """Poll predicate() until it returns a true value; return that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            extra = f"\n{evidence()}" if evidence else ""
            raise HarnessError(f"timed out after {timeout} s waiting for "
                               f"{what}{extra}")
        time.sleep(interval)


def poll_value(fetch, done, timeout, interval=0.1):
    """Poll fetch() until done(value) or the deadline; return the last value
    (the caller asserts on it, so a shortfall shows as exact numbers).
    For counters whose owner cannot answer a wait itself; the peer and
    the agent can (Peer.wait, the agent's RXWAIT)."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value) or time.monotonic() >= deadline:
            return value
        time.sleep(interval)
