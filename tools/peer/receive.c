/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: one frame from the guest.  It is counted and captured,
 * the guest's MAC is learnt from its first unicast source, and the frame
 * goes by EtherType to the Rx session (pattern frames, an 802.1Q-tagged
 * one checked as the untagged frame), ARP and IPv4 (ipv4.c) or IPv6
 * (ndp.c).  A frame tagged with the VLAN of the peer's second host goes
 * untagged to the same handlers, frame_vid set for the answer; other
 * tagged frames are only counted.  PAUSE frames (IEEE 802.3 Annex 31B:
 * MAC control, opcode 1) are counted as XOFF (a pause time) or XON (pause
 * time 0): the peer does not pause, it only counts what the NIC's flow
 * control sent.
 */

#include "peer.h"

static void dispatch(const uint8_t *f, size_t len)
{
    uint16_t type = pp_get16(f + 12);

    if (type == PP_ETHERTYPE) {
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
    } else if (type == ETH_P_IPV6_TYPE && !peer.frame_vid) {
        peer_ipv6_frame(f, len);
    }
}

void receive_frame(const uint8_t *f, size_t len)
{
    static uint8_t untagged[PEER_FRAME_MAX];
    uint16_t vid;

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
    if (pp_get16(f + 12) != ETH_P_8021Q_TYPE) {
        dispatch(f, len);
        return;
    }
    if (len < PP_ETH_HLEN + VLAN_HLEN) {
        peer.c.malformed++;
        return;
    }
    peer.c.vlan_in++;
    vid = pp_get16(f + 14) & 0xfff;
    memcpy(untagged, f, 12);
    memcpy(untagged + 12, f + 16, len - 16);
    if (pp_get16(f + 16) == PP_ETHERTYPE) {
        /* A tagged pattern frame is checked as the untagged one. */
        dispatch(untagged, len - VLAN_HLEN);
    } else if (peer.vlan_id && vid == peer.vlan_id) {
        size_t n = len - VLAN_HLEN;

        /*
         * The NIC padded the tagged frame to the 60-byte minimum: without
         * its tag that is padding to 56, so it is padded on to 60 as the
         * handlers expect of an untagged frame (a tagged runt stays one).
         */
        if (len >= 60 && n < 60) {
            memset(untagged + n, 0, 60 - n);
            n = 60;
        }
        peer.frame_vid = vid;
        dispatch(untagged, n);
        peer.frame_vid = 0;
    }
}
