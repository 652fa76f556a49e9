/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: one frame from the guest.  It is counted and captured,
 * the guest's MAC is learnt from its first unicast source, and the frame
 * goes by EtherType to the Rx session (pattern frames, an 802.1Q-tagged
 * one checked as the untagged frame), ARP and IPv4 (ipv4.c) or IPv6
 * (ndp.c).  PAUSE frames (IEEE 802.3 Annex 31B: MAC control, opcode 1)
 * are counted as XOFF (a pause time) or XON (pause time 0): the peer
 * does not pause, it only counts what the NIC's flow control sent.
 */

#include "peer.h"

void receive_frame(const uint8_t *f, size_t len)
{
    uint16_t type;

    peer.c.frames_in++;
    peer.c.bytes_in += len;
    capture_write(f, len);
    if (len < PP_ETH_HLEN) {
        peer.c.malformed++;
        return;
    }
    if (!peer.guest_mac[0] && !(f[6] & 1)) {
        pp_format_mac(f + PP_ETH_ALEN, peer.guest_mac);
    }
    type = pp_get16(f + 12);
    if (type == ETH_P_8021Q_TYPE && len >= PP_ETH_HLEN + VLAN_HLEN &&
        pp_get16(f + 16) == PP_ETHERTYPE) {
        static uint8_t untagged[PEER_FRAME_MAX];

        /* A tagged pattern frame is checked as the untagged one. */
        peer.c.vlan_in++;
        memcpy(untagged, f, 12);
        memcpy(untagged + 12, f + 16, len - 16);
        if (peer.rx.active) {
            pp_rx_account(&peer.rx, untagged, len - VLAN_HLEN);
        }
    } else if (type == PP_ETHERTYPE) {
        if (peer.rx.active) {
            pp_rx_account(&peer.rx, f, len);
        }
    } else if (type == ETH_P_MAC_CONTROL) {
        if (len >= PP_ETH_HLEN + 4 && pp_get16(f + 14) == MAC_CONTROL_PAUSE) {
            if (pp_get16(f + 16)) {
                peer.c.pause_xoff++;
            } else {
                peer.c.pause_xon++;
            }
        }
    } else if (type == ETH_P_ARP_TYPE) {
        peer_arp_frame(f, len);
    } else if (type == ETH_P_IPV4) {
        peer_ipv4_frame(f, len);
    } else if (type == ETH_P_IPV6_TYPE) {
        peer_ipv6_frame(f, len);
    }
}
