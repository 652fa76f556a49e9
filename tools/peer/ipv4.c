/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: the small IPv4 host it plays (untagged, and on its
 * VLAN with the VLAN's address: peer_ipv4()).  ARP requests for its
 * address get a reply (RFC 826), ICMP echo requests an echo reply
 * (RFC 792) and UDP datagrams to port 7 come back unchanged (RFC 862);
 * TCP to it goes to the TCP source (its own connection) or the TCP sink.
 * Fragments, truncated frames and anything else are ignored (counted only
 * as frames received).
 */

#include "peer.h"

#define UDP_ECHO_PORT       7

void peer_arp_frame(const uint8_t *f, size_t len)
{
    uint8_t r[60];
    const uint8_t *a = f + PP_ETH_HLEN;
    uint32_t me = peer_ipv4();

    /* Ethernet/IPv4 request (htype 1, ptype 0x0800, 6/4, op 1) for us. */
    if (len < PP_ETH_HLEN + 28 || pp_get16(a) != 1 ||
        pp_get16(a + 2) != ETH_P_IPV4 || a[4] != 6 || a[5] != 4 ||
        pp_get16(a + 6) != 1 || memcmp(a + 24, &me, 4) != 0) {
        return;
    }
    peer.c.arp_requests++;
    memset(r, 0, sizeof(r));
    memcpy(r, f + PP_ETH_ALEN, PP_ETH_ALEN);
    memcpy(r + PP_ETH_ALEN, peer.mac, PP_ETH_ALEN);
    pp_put16(r + 12, ETH_P_ARP_TYPE);
    pp_put16(r + 14, 1);
    pp_put16(r + 16, ETH_P_IPV4);
    r[18] = 6;
    r[19] = 4;
    pp_put16(r + 20, 2);
    memcpy(r + 22, peer.mac, PP_ETH_ALEN);
    memcpy(r + 28, &me, 4);
    memcpy(r + 32, a + 8, PP_ETH_ALEN);     /* sender MAC */
    memcpy(r + 38, a + 14, 4);              /* sender IP */
    peer_queue_frame(r, sizeof(r));
    peer.c.arp_replies++;
}

/* Reply to @f by swapping MACs and IPv4 addresses; @fix rewrites L4. */
static void reply_ipv4(const uint8_t *f, size_t len, size_t ihl,
                       void (*fix)(uint8_t *l4, size_t l4len,
                                   const uint8_t *ip))
{
    static uint8_t r[PEER_FRAME_MAX];
    uint8_t *ip = r + PP_ETH_HLEN;
    size_t tot = pp_get16(f + PP_ETH_HLEN + 2);

    memcpy(r, f, len);
    memcpy(r, f + PP_ETH_ALEN, PP_ETH_ALEN);
    memcpy(r + PP_ETH_ALEN, peer.mac, PP_ETH_ALEN);
    memcpy(ip + 12, f + PP_ETH_HLEN + 16, 4);
    memcpy(ip + 16, f + PP_ETH_HLEN + 12, 4);
    ip[8] = PEER_TTL;
    pp_put16(ip + 10, 0);
    pp_put16(ip + 10, peer_checksum(ip, ihl, 0));
    fix(ip + ihl, tot - ihl, ip);
    peer_queue_frame(r, PP_ETH_HLEN + tot < 60 ? 60 : PP_ETH_HLEN + tot);
}

static void fix_icmp(uint8_t *l4, size_t l4len,
                     const uint8_t *ip PEER_UNUSED)
{
    l4[0] = 0;      /* echo reply */
    pp_put16(l4 + 2, 0);
    pp_put16(l4 + 2, peer_checksum(l4, l4len, 0));
}

static void fix_udp(uint8_t *l4, size_t l4len, const uint8_t *ip)
{
    uint8_t ports[2];

    memcpy(ports, l4, 2);
    memcpy(l4, l4 + 2, 2);
    memcpy(l4 + 2, ports, 2);
    pp_put16(l4 + 6, 0);
    pp_put16(l4 + 6, peer_checksum(l4, l4len,
                                   peer_ipv4_pseudo(ip, l4len, IP_PROTO_UDP))
             ?: 0xffff);
}

void peer_ipv4_frame(const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + PP_ETH_HLEN;
    uint32_t me = peer_ipv4();
    size_t ihl, tot;

    if (len < PP_ETH_HLEN + 20 || (ip[0] >> 4) != 4) {
        return;
    }
    if (ip[9] == IP_PROTO_TCP && memcmp(ip + 16, &me, 4) == 0) {
        if (!tcpsrc_ipv4(f, len)) {
            tcpsink_ipv4(f, len);
        }
        return;
    }
    ihl = (ip[0] & 0xf) * 4;
    tot = pp_get16(ip + 2);
    if (ihl < 20 || tot < ihl + 8 || PP_ETH_HLEN + tot > len ||
        memcmp(ip + 16, &me, 4) != 0 ||
        (pp_get16(ip + 6) & 0x3fff) != 0) {
        return;     /* not for us, truncated or fragmented */
    }
    if (ip[9] == IP_PROTO_ICMP && ip[ihl] == 8) {
        peer.c.icmp_echo_requests++;
        reply_ipv4(f, len, ihl, fix_icmp);
        peer.c.icmp_echo_replies++;
    } else if (ip[9] == IP_PROTO_UDP &&
               pp_get16(ip + ihl + 2) == UDP_ECHO_PORT) {
        peer.c.udp_echo_requests++;
        reply_ipv4(f, len, ihl, fix_udp);
        peer.c.udp_echo_replies++;
    }
}
