/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: IPv6 for the peer's one address.  A neighbour
 * solicitation for it (RFC 4861 §4.3) gets a solicited neighbour
 * advertisement (§4.4) with the peer's MAC as target link-layer address,
 * an ICMPv6 echo request to it an echo reply (RFC 4443 §4.2), TCP to it
 * goes to the TCP sink.  Everything else (router solicitations, MLD
 * reports, DAD probes) is only counted as a frame received.
 */

#include "peer.h"

#define ICMPV6_ECHO_REQUEST 128
#define ICMPV6_ECHO_REPLY   129
#define ICMPV6_NS           135
#define ICMPV6_NA           136
#define ND_OPT_TARGET_LL    2
#define NA_SOLICITED        0x40
#define NA_OVERRIDE         0x20
#define ND_HOP_LIMIT        255

static void answer_ns(const uint8_t *f, const uint8_t *ip)
{
    uint8_t r[PP_ETH_HLEN + IPV6_HLEN + 32];
    uint8_t *rip = r + PP_ETH_HLEN, *icmp = rip + IPV6_HLEN;

    memset(r, 0, sizeof(r));
    memcpy(r, f + PP_ETH_ALEN, PP_ETH_ALEN);
    memcpy(r + PP_ETH_ALEN, peer_mac(), PP_ETH_ALEN);
    pp_put16(r + 12, ETH_P_IPV6_TYPE);
    rip[0] = 0x60;
    pp_put16(rip + 4, 32);
    rip[6] = IP_PROTO_ICMPV6;
    rip[7] = ND_HOP_LIMIT;
    memcpy(rip + 8, peer_ipv6(), 16);
    memcpy(rip + 24, ip + 8, 16);               /* to the solicitor */
    icmp[0] = ICMPV6_NA;
    icmp[4] = NA_SOLICITED | NA_OVERRIDE;
    memcpy(icmp + 8, peer_ipv6(), 16);          /* target */
    icmp[24] = ND_OPT_TARGET_LL;
    icmp[25] = 1;                               /* 8 bytes */
    memcpy(icmp + 26, peer_mac(), PP_ETH_ALEN);
    pp_put16(icmp + 2, peer_checksum(icmp, 32,
                                     peer_ipv6_pseudo(rip, 32,
                                                      IP_PROTO_ICMPV6)));
    peer_queue_frame(r, sizeof(r));
}

static void answer_echo(const uint8_t *f, size_t plen)
{
    static uint8_t r[PP_ETH_HLEN + IPV6_HLEN + 65536];
    uint8_t *rip = r + PP_ETH_HLEN, *icmp = rip + IPV6_HLEN;
    size_t len = PP_ETH_HLEN + IPV6_HLEN + plen;

    memcpy(r, f, len);
    memcpy(r, f + PP_ETH_ALEN, PP_ETH_ALEN);
    memcpy(r + PP_ETH_ALEN, peer_mac(), PP_ETH_ALEN);
    rip[7] = 64;
    memcpy(rip + 24, f + PP_ETH_HLEN + 8, 16);
    memcpy(rip + 8, peer_ipv6(), 16);
    icmp[0] = ICMPV6_ECHO_REPLY;
    pp_put16(icmp + 2, 0);
    pp_put16(icmp + 2, peer_checksum(icmp, plen,
                                     peer_ipv6_pseudo(rip, plen,
                                                      IP_PROTO_ICMPV6)));
    peer_queue_frame(r, len);
}

void peer_ipv6_frame(const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + PP_ETH_HLEN, *icmp = ip + IPV6_HLEN;
    size_t plen, i;

    if (len < PP_ETH_HLEN + IPV6_HLEN || (ip[0] >> 4) != 6) {
        return;
    }
    plen = pp_get16(ip + 4);
    if (ip[6] == IP_PROTO_TCP && memcmp(ip + 24, peer_ipv6(), 16) == 0) {
        tcpsink_ipv6(f, len);
        return;
    }
    if (ip[6] != IP_PROTO_ICMPV6 || plen < 8 ||
        PP_ETH_HLEN + IPV6_HLEN + plen > len || icmp[1] != 0 ||
        peer_checksum(icmp, plen, peer_ipv6_pseudo(ip, plen,
                                                   IP_PROTO_ICMPV6)) != 0) {
        return;
    }
    if (icmp[0] == ICMPV6_ECHO_REQUEST &&
        memcmp(ip + 24, peer_ipv6(), 16) == 0) {
        answer_echo(f, plen);
        return;
    }
    /*
     * A solicitation for our address: hop limit 255, from a unicast
     * address (DAD probes come from ::).
     */
    if (icmp[0] != ICMPV6_NS || plen < 24 || ip[7] != ND_HOP_LIMIT ||
        memcmp(icmp + 8, peer_ipv6(), 16) != 0) {
        return;
    }
    for (i = 8; i < 24; i++) {
        if (ip[i]) {
            answer_ns(f, ip);
            return;
        }
    }
}
