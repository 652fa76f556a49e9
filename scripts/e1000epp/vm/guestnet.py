# SPDX-License-Identifier: GPL-2.0-or-later
"""The guest's view of its network, through the agent: ethtool, the
carrier, bringing eth0 up, and counters read at one quiet instant."""

import time

from .addresses import GUEST_IP
from .waits import HarnessError, wait_until

# Generous for TCG on a loaded 2-core machine (the link comes up in
# about 2 s there); only reached when the link never comes.
LINK_TIMEOUT = 60


def carrier(vm, ifname="eth0"):
    _, out = vm.agent.sh(f"cat /sys/class/net/{ifname}/carrier",
                         check=False)
    return out.strip() == "1"


def wait_carrier(vm, what="carrier on eth0", timeout=LINK_TIMEOUT):
    wait_until(what, lambda: carrier(vm), timeout, interval=0.2,
               evidence=vm.console_tail)


def link_up(vm, timeout=LINK_TIMEOUT):
    """eth0 up with GUEST_IP/24, then wait for its carrier."""
    vm.agent.sh("ip link set eth0 up")
    vm.agent.sh(f"ip addr add {GUEST_IP}/24 dev eth0")
    wait_carrier(vm, timeout=timeout)


def ethtool_settings(agent, ifname="eth0"):
    """`ethtool IF` as {field: value} ("Speed": "1000Mb/s", ...)."""
    _, out = agent.sh(f"ethtool {ifname}")
    fields = {}
    for line in out.splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and value.strip():
            fields[key.strip()] = value.strip()
    return fields


def ethtool_stats(agent, ifname="eth0"):
    """`ethtool -S IF` as {counter: int}."""
    _, out = agent.sh(f"ethtool -S {ifname}")
    stats = {}
    for line in out.splitlines()[1:]:
        key, sep, value = line.strip().partition(":")
        if sep and value.strip().lstrip("-").isdigit():
            stats[key.strip()] = int(value)
    return stats


def counters_at_one_instant(vm, tries=20, quiet=0.5):
    """The guest's `ethtool -S` and the peer's counters as of one instant.

    Either side may send on its own at any time (the guest an IPv6 MLD
    report or a neighbour probe, the peer the answer), and each side
    counts a frame a moment before the other. A cut is consistent when
    the guest's tx/rx packet counters did not move from before the peer
    was read until after, and the peer's counters had stopped moving for
    `quiet` seconds (so every frame in flight has landed); otherwise the
    pair is read again. Returns (guest, peer).
    """
    def peer_key(s):
        return s["frames_in"], s["frames_out"]

    def guest_key(g):
        return g["tx_packets"], g["rx_packets"]

    for _ in range(tries):
        g1 = ethtool_stats(vm.agent)
        last = vm.peer.stats()
        since = time.monotonic()
        deadline = since + 10
        while time.monotonic() - since < quiet and \
                time.monotonic() < deadline:
            time.sleep(0.05)
            cur = vm.peer.stats()
            if peer_key(cur) != peer_key(last):
                last, since = cur, time.monotonic()
        g2 = ethtool_stats(vm.agent)
        if guest_key(g2) == guest_key(g1):
            return g1, last
    raise HarnessError("no quiet instant to compare the guest's counters "
                       "with the peer's: traffic never stopped")
