/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: frames to the guest with a deliberately wrong checksum,
 * each between two good frames of the same kind (datasheet §7.1.6: the
 * device reports IPE or TCPE and the driver must leave the frame to the
 * stack, which drops it).
 *
 *   CSUMBAD <dstmac> <ipv4> <ipv6|-> <port> <bad> <len> [<vid>]
 *
 * For each kind in order, 2 * <bad> + 1 frames: good, bad, good, ...,
 * good.  The kinds:
 *
 *   ip4hdr   IPv4 header checksum wrong; it carries a UDP datagram with a
 *            right checksum to <port>
 *   udp4     UDP over IPv4 to <port>, UDP checksum wrong
 *   tcp4     TCP over IPv4 to <port> (ACK, <len> bytes of data), TCP
 *            checksum wrong
 *   udp6     UDP over IPv6, as udp4 (not sent when <ipv6> is "-")
 *   tcp6     TCP over IPv6, as tcp4
 *
 * A UDP datagram is <len> bytes (at least 4): its first 4 bytes are the
 * word (kind << 16 | position in the kind), then pp_csum_byte() bytes, so
 * the receiver tells a good datagram (even position) from a bad one that
 * should never have reached it.  TCP segments carry the same bytes; the
 * guest has no socket on <port> and resets each good one.  Frames go out
 * 802.1Q-tagged with <vid> (then from the peer's VLAN address).  The
 * answer lists what was sent per kind:
 *
 *   {"ok": true, "frames": n, "good": n, "bad": n,
 *    "kinds": {"ip4hdr": [good, bad], ...}}
 */

#include <arpa/inet.h>

#include "peer.h"

/* The peer's source port of every frame here (not the TCP source's). */
#define CSUM_SPORT          40007
/* Largest datagram: one 1500-byte IPv6 packet. */
#define CSUM_LEN_MAX        (1500 - IPV6_HLEN - 20)
#define CSUM_BAD_MAX        64

enum csum_kind { CSUM_IP4HDR, CSUM_UDP4, CSUM_TCP4, CSUM_UDP6, CSUM_TCP6,
                 CSUM_KINDS };

static const char *const kind_names[CSUM_KINDS] = {
    "ip4hdr", "udp4", "tcp4", "udp6", "tcp6",
};

struct csum_args {
    uint8_t dst[PP_ETH_ALEN];
    uint8_t ip4[4];
    uint8_t ip6[16];
    bool has_ip6;
    uint32_t port, bad, len, vid;
};

/* A checksum turned wrong, never 0 (a UDP checksum of 0 means none). */
static uint16_t wrong(uint16_t sum)
{
    uint16_t w = sum ^ 0x0101;

    return w ? w : sum ^ 0x0202;
}

/* The L4 header and payload at @l4; the checksum field left 0. */
static size_t put_l4(uint8_t *l4, bool tcp, uint32_t word,
                     const struct csum_args *a)
{
    size_t hlen = tcp ? 20 : 8;
    uint32_t j;

    if (tcp) {
        peer_tcp_header(l4, CSUM_SPORT, a->port, word, 1, 0x10, 65535,
                        NULL, 0);
    } else {
        memset(l4, 0, 8);
        pp_put16(l4, CSUM_SPORT);
        pp_put16(l4 + 2, a->port);
        pp_put16(l4 + 4, 8 + a->len);
    }
    pp_put32(l4 + hlen, word);
    for (j = 4; j < a->len; j++) {
        l4[hlen + j] = pp_csum_byte(word, j);
    }
    return hlen + a->len;
}

/* One frame of @kind at position @pos of its run, wrong when @bad. */
static size_t build(uint8_t *f, enum csum_kind kind, uint32_t pos, bool bad,
                    const struct csum_args *a)
{
    bool tcp = kind == CSUM_TCP4 || kind == CSUM_TCP6;
    uint32_t word = (uint32_t)kind << 16 | pos;
    size_t ck = tcp ? 16 : 6, l4len;
    uint8_t *l4;
    uint32_t pseudo;
    uint16_t sum;

    if (kind == CSUM_UDP6 || kind == CSUM_TCP6) {
        uint8_t *ip6 = f + PP_ETH_HLEN;

        l4 = ip6 + IPV6_HLEN;
        l4len = put_l4(l4, tcp, word, a);
        memcpy(f, a->dst, PP_ETH_ALEN);
        memcpy(f + PP_ETH_ALEN, peer_mac(), PP_ETH_ALEN);
        pp_put16(f + 12, ETH_P_IPV6_TYPE);
        memset(ip6, 0, IPV6_HLEN);
        ip6[0] = 0x60;
        pp_put16(ip6 + 4, l4len);
        ip6[6] = tcp ? IP_PROTO_TCP : IP_PROTO_UDP;
        ip6[7] = PEER_TTL;
        memcpy(ip6 + 8, peer_ipv6(), 16);
        memcpy(ip6 + 24, a->ip6, 16);
        pseudo = peer_ipv6_pseudo(ip6, l4len, ip6[6]);
    } else {
        l4 = f + PP_ETH_HLEN + IPV4_HLEN;
        l4len = put_l4(l4, tcp, word, a);
        pseudo = peer_ipv4_header(f, a->dst, a->ip4, (uint16_t)word,
                                  tcp ? IP_PROTO_TCP : IP_PROTO_UDP, l4len);
        if (bad && kind == CSUM_IP4HDR) {
            uint8_t *ip = f + PP_ETH_HLEN;

            pp_put16(ip + 10, wrong(pp_get16(ip + 10)));
        }
    }
    sum = peer_checksum(l4, l4len, pseudo);
    if (!tcp && !sum) {
        sum = 0xffff;               /* RFC 768: a computed 0 is sent so */
    }
    if (bad && kind != CSUM_IP4HDR) {
        sum = wrong(sum);
    }
    pp_put16(l4 + ck, sum);
    return l4 - f + l4len;
}

static int parse(int argc, char **argv, struct csum_args *a)
{
    memset(a, 0, sizeof(*a));
    if (argc < 7 || argc > 8 || pp_parse_mac(argv[1], a->dst) < 0 ||
        inet_pton(AF_INET, argv[2], a->ip4) != 1 ||
        pp_parse_u32(argv[4], 65535, &a->port) < 0 || !a->port ||
        pp_parse_u32(argv[5], CSUM_BAD_MAX, &a->bad) < 0 ||
        pp_parse_u32(argv[6], CSUM_LEN_MAX, &a->len) < 0 || a->len < 4 ||
        (argc == 8 && (pp_parse_u32(argv[7], 4094, &a->vid) < 0 ||
                       !a->vid))) {
        return -1;
    }
    if (strcmp(argv[3], "-") != 0) {
        if (inet_pton(AF_INET6, argv[3], a->ip6) != 1) {
            return -1;
        }
        a->has_ip6 = true;
    }
    return 0;
}

void csum_command(int argc, char **argv)
{
    static uint8_t f[PP_ETH_HLEN + IPV6_HLEN + 20 + CSUM_LEN_MAX];
    uint32_t good[CSUM_KINDS] = { 0 }, bad[CSUM_KINDS] = { 0 };
    uint32_t pos, frames = 0, ngood = 0, nbad = 0;
    char kinds[256];
    size_t n = 0;
    struct csum_args a;
    int k;

    if (parse(argc, argv, &a) < 0) {
        peer_emit("{\"ok\": false, \"error\": \"usage: CSUMBAD <dstmac> "
                  "<ipv4> <ipv6|-> <port 1..65535> <bad 0..%d> "
                  "<len 4..%d> [<vid 1..4094>]\"}", CSUM_BAD_MAX,
                  CSUM_LEN_MAX);
        return;
    }
    peer.frame_vid = a.vid;
    for (k = 0; k < CSUM_KINDS; k++) {
        if (k >= CSUM_UDP6 && !a.has_ip6) {
            continue;
        }
        for (pos = 0; pos < 2 * a.bad + 1; pos++) {
            size_t len = build(f, k, pos, pos & 1, &a);

            peer_queue_frame(f, len < 60 ? 60 : len);
            if (pos & 1) {
                bad[k]++;
            } else {
                good[k]++;
            }
        }
        frames += good[k] + bad[k];
        ngood += good[k];
        nbad += bad[k];
    }
    peer.frame_vid = 0;
    stream_flush();
    for (k = 0; k < CSUM_KINDS; k++) {
        if (good[k] || bad[k]) {
            n += snprintf(kinds + n, sizeof(kinds) - n, "%s\"%s\": [%u, %u]",
                          n ? ", " : "", kind_names[k], good[k], bad[k]);
        }
    }
    peer_emit("{\"ok\": true, \"frames\": %u, \"good\": %u, \"bad\": %u, "
              "\"kinds\": {%s}}", frames, ngood, nbad, kinds);
}
