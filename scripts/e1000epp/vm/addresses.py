# SPDX-License-Identifier: GPL-2.0-or-later
"""The addresses of the test network: the guest's NIC and the host-side
peer (tools/peer), on 198.18.0.0/24 and 2001:2::/64 (the benchmarking
ranges of RFC 2544 and RFC 5180), and on the VLAN cells' 802.1Q VLAN
(the guest's eth0.<id>, the peer's VLAN host) 198.18.100.0/24."""

GUEST_MAC = "52:54:00:12:34:56"
PEER_MAC = "02:00:00:00:00:01"
GUEST_IP = "198.18.0.2"
PEER_IP = "198.18.0.1"
GUEST_IP6 = "2001:2::2"
PEER_IP6 = "2001:2::1"
GUEST_VLAN_IP = "198.18.100.2"
PEER_VLAN_IP = "198.18.100.1"
