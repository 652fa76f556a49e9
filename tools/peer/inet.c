/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: what every protocol module needs to build or check an
 * IP frame: the Internet checksum (RFC 1071), the pseudo-header sums that
 * seed TCP, UDP and ICMPv6 checksums, the IPv4 header the peer puts on
 * everything it originates and the TCP header of its sink and source.
 */

#include "peer.h"

uint16_t peer_checksum(const uint8_t *p, size_t len, uint32_t sum)
{
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += pp_get16(p + i);
    }
    if (len & 1) {
        sum += p[len - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return ~sum;
}

/* RFC 9293 §3.1: source, destination, zero and protocol, L4 length. */
uint32_t peer_ipv4_pseudo(const uint8_t *ip, uint32_t l4len, uint8_t proto)
{
    return pp_get16(ip + 12) + pp_get16(ip + 14) + pp_get16(ip + 16) +
           pp_get16(ip + 18) + proto + l4len;
}

/* RFC 8200 §8.1: source, destination, 32-bit length, next header. */
uint32_t peer_ipv6_pseudo(const uint8_t *ip6, uint32_t l4len, uint8_t nh)
{
    uint32_t sum = 0;
    int i;

    for (i = 8; i < 40; i += 2) {
        sum += pp_get16(ip6 + i);
    }
    return sum + (l4len >> 16) + (l4len & 0xffff) + nh;
}

uint32_t peer_ipv4_header(uint8_t *f, const uint8_t *dst_mac,
                          const uint8_t *dst_ip, uint16_t id, uint8_t proto,
                          size_t l4len)
{
    uint8_t *ip = f + PP_ETH_HLEN;
    uint32_t src_ip = peer_ipv4();

    memcpy(f, dst_mac, PP_ETH_ALEN);
    memcpy(f + PP_ETH_ALEN, peer_mac(), PP_ETH_ALEN);
    pp_put16(f + 12, ETH_P_IPV4);
    memset(ip, 0, IPV4_HLEN);
    ip[0] = 0x45;
    pp_put16(ip + 2, IPV4_HLEN + l4len);
    pp_put16(ip + 4, id);
    pp_put16(ip + 6, 0x4000);                   /* DF */
    ip[8] = PEER_TTL;
    ip[9] = proto;
    memcpy(ip + 12, &src_ip, 4);
    memcpy(ip + 16, dst_ip, 4);
    pp_put16(ip + 10, peer_checksum(ip, IPV4_HLEN, 0));
    return peer_ipv4_pseudo(ip, l4len, proto);
}

void peer_tcp_header(uint8_t *tcp, uint16_t sport, uint16_t dport,
                     uint32_t seq, uint32_t ack, uint8_t flags,
                     uint16_t window, const uint8_t *opts, size_t optlen)
{
    memset(tcp, 0, 20);
    pp_put16(tcp, sport);
    pp_put16(tcp + 2, dport);
    pp_put32(tcp + 4, seq);
    pp_put32(tcp + 8, ack);
    tcp[12] = ((20 + optlen) / 4) << 4;     /* data offset in 32-bit words */
    tcp[13] = flags;
    pp_put16(tcp + 14, window);
    if (optlen) {
        memcpy(tcp + 20, opts, optlen);
    }
}
