/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: a TCP sink that checks every segment the guest sends.
 *
 * It is just enough of a TCP receiver for one connection from the guest:
 * SYN -> SYN-ACK (MSS option = the armed MSS, window scale 7, no timestamps
 * and no SACK, so the guest's data segments carry a bare 20-byte header),
 * an ACK for every data segment, FIN -> FIN-ACK.  The guest (the agent's
 * TCPTX) writes pp_stream_byte() of its run; when its NIC does TCP
 * segmentation, what arrives here is the device's work, so each frame is
 * checked as the wire would carry it:
 *
 *   Ethernet   destination = peer, source = the SYN's, type IPv4 or IPv6,
 *              length 14 + IP length, frames under 60 bytes padded with
 *              zeros to 60 (unpadded ones are counted as runts)
 *   IPv4       version 4, IHL 5, DF, no fragment, TTL 64, protocol TCP,
 *              addresses, header checksum, ID = previous frame's + 1
 *              (Linux numbers a connection's segments consecutively, and a
 *              TSO context increments the ID per segment)
 *   IPv6       version 6, traffic class 0, payload length, next header
 *              TCP (no extension headers), hop limit 64, addresses
 *   TCP        ports, data offset 5, checksum over the pseudo-header,
 *              flags (SYN once, then ACK with PSH/FIN only; never URG, RST,
 *              ECE, CWR), ACK number = what the sink sent, sequence number
 *              contiguous (a retransmission of bytes already received is
 *              counted, and its bytes checked, but it is no error), payload
 *              <= MSS and every byte = pp_stream_byte(run, offset)
 *
 * Each frame of the connection is also written to the log file as
 * "<seq - ISN> <payload length> <flags, hex> <id>" (id: the IPv4 ID, or the
 * IPv6 flow label) so a test can compare
 * the segmentation exactly with what the guest's stack handed its driver.
 */

#include <errno.h>
#include <stdarg.h>

#include "peer.h"

#define TCP_FIN     0x01
#define TCP_SYN     0x02
#define TCP_RST     0x04
#define TCP_PSH     0x08
#define TCP_ACK     0x10
#define TCP_URG     0x20
#define TCP_ECE     0x40
#define TCP_CWR     0x80

#define SINK_WSCALE     7
#define SINK_WINDOW     0xffff      /* << SINK_WSCALE: 8 MiB */
#define SINK_ISS        0x10000000u
/* What Linux puts in TTL / hop limit (net.ipv4.ip_default_ttl). */
#define SINK_TTL        64
/* Largest MSS: the largest frame less Ethernet, IPv4 and TCP headers. */
#define SINK_MAX_MSS    (PP_MAX_LEN - 14 - 20 - 20)

/* Counters: JSON keys of TCPSTAT, in report order. */
#define SINK_COUNTERS(X) \
    X(frames) X(syn) X(data_segments) X(data_bytes) X(pure_acks) X(fin) \
    X(retransmits) X(retransmit_bytes) X(max_payload) X(acks_sent) \
    X(bad_eth) X(bad_ip) X(bad_ip_csum) X(bad_ip_id) X(bad_tcp) \
    X(bad_tcp_csum) X(bad_flags) X(bad_ack) X(over_mss) X(bad_payload) \
    X(gaps) X(unexpected) X(runts)

/* The counters that are errors (the sum is reported as "errors"). */
#define SINK_ERRORS(X) \
    X(bad_eth) X(bad_ip) X(bad_ip_csum) X(bad_ip_id) X(bad_tcp) \
    X(bad_tcp_csum) X(bad_flags) X(bad_ack) X(over_mss) X(bad_payload) \
    X(gaps) X(unexpected)

enum sink_state {
    SINK_IDLE,          /* not armed */
    SINK_LISTEN,
    SINK_ESTABLISHED,   /* SYN answered (the handshake ACK needs no state) */
    SINK_FIN_RCVD,      /* FIN answered with FIN-ACK */
    SINK_CLOSED,        /* our FIN acknowledged */
};

static struct {
    enum sink_state state;
    uint16_t port;
    uint32_t run;
    uint16_t mss;
    FILE *log;
    bool v6;                /* the connection's family */
    uint8_t guest_mac[PP_ETH_ALEN];
    uint8_t guest_ip[16];
    uint16_t guest_port;
    uint32_t irs;           /* the guest's initial sequence number */
    uint32_t rcv_nxt;
    uint32_t snd_nxt;
    uint16_t ip_id;         /* next IP ID expected from the guest */
    uint16_t my_ip_id;
    struct {
#define SINK_FIELD(name) uint64_t name;
        SINK_COUNTERS(SINK_FIELD)
#undef SINK_FIELD
    } c;
    char first_error[160];
} sink;

static void sink_error(uint64_t *counter, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void sink_error(uint64_t *counter, const char *fmt, ...)
{
    va_list ap;
    int n;

    (*counter)++;
    if (sink.first_error[0]) {
        return;
    }
    n = snprintf(sink.first_error, sizeof(sink.first_error), "frame %llu: ",
                 (unsigned long long)sink.c.frames);
    va_start(ap, fmt);
    vsnprintf(sink.first_error + n, sizeof(sink.first_error) - n, fmt, ap);
    va_end(ap);
}

/* Send a segment to the guest: no payload, @opts of @optlen bytes. */
static void sink_send(uint8_t flags, uint32_t seq, uint32_t ack,
                      const uint8_t *opts, size_t optlen)
{
    uint8_t f[PP_ETH_HLEN + IPV6_HLEN + 20 + 40];
    uint8_t *ip = f + PP_ETH_HLEN, *tcp;
    size_t tcplen = 20 + optlen, len;
    uint32_t pseudo;

    memset(f, 0, sizeof(f));
    if (sink.v6) {
        memcpy(f, sink.guest_mac, PP_ETH_ALEN);
        memcpy(f + PP_ETH_ALEN, peer_mac(), PP_ETH_ALEN);
        pp_put16(f + 12, ETH_P_IPV6_TYPE);
        ip[0] = 0x60;
        pp_put16(ip + 4, tcplen);
        ip[6] = IP_PROTO_TCP;
        ip[7] = PEER_TTL;
        memcpy(ip + 8, peer_ipv6(), 16);
        memcpy(ip + 24, sink.guest_ip, 16);
        tcp = ip + IPV6_HLEN;
        pseudo = peer_ipv6_pseudo(ip, tcplen, IP_PROTO_TCP);
    } else {
        pseudo = peer_ipv4_header(f, sink.guest_mac, sink.guest_ip,
                                  sink.my_ip_id++, IP_PROTO_TCP, tcplen);
        tcp = ip + IPV4_HLEN;
    }
    peer_tcp_header(tcp, sink.port, sink.guest_port, seq, ack, flags,
                    SINK_WINDOW, opts, optlen);
    pp_put16(tcp + 16, peer_checksum(tcp, tcplen, pseudo));
    len = tcp + tcplen - f;
    peer_queue_frame(f, len < 60 ? 60 : len);
    if (flags & TCP_ACK) {
        sink.c.acks_sent++;
    }
}

static void sink_ack(void)
{
    sink_send(TCP_ACK, sink.snd_nxt, sink.rcv_nxt, NULL, 0);
}

/* Check @n payload bytes at stream offset @off; returns true if exact. */
static bool sink_payload_ok(const uint8_t *p, size_t n, uint64_t off)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] != pp_stream_byte(sink.run, off + i)) {
            sink_error(&sink.c.bad_payload, "payload byte at stream offset "
                       "%llu is 0x%02x, want 0x%02x",
                       (unsigned long long)(off + i), p[i],
                       pp_stream_byte(sink.run, off + i));
            return false;
        }
    }
    return true;
}

/* A guest frame's IP layer, as sink_check_ip() found it. */
struct sink_seg {
    const uint8_t *tcp;
    size_t tcplen;          /* TCP header and payload */
    uint32_t pseudo;        /* pseudo-header sum */
    uint32_t id;            /* IPv4 ID or IPv6 flow label */
};

/* The source address is the connection's (any, before the SYN). */
static bool sink_from_guest(const uint8_t *src, size_t n)
{
    return sink.state == SINK_LISTEN || memcmp(src, sink.guest_ip, n) == 0;
}

static bool sink_check_ipv4(const uint8_t *f, size_t len, struct sink_seg *g)
{
    const uint8_t *ip = f + PP_ETH_HLEN;
    size_t tot, i;

    if (len < PP_ETH_HLEN + 40 || ip[0] != 0x45) {
        sink_error(&sink.c.bad_ip, "length %zu, IP version/IHL 0x%02x",
                   len, len > PP_ETH_HLEN ? ip[0] : 0);
        return false;
    }
    tot = pp_get16(ip + 2);
    if (tot < 40 || PP_ETH_HLEN + tot > len ||
        (len != PP_ETH_HLEN + tot && !(len == 60 && PP_ETH_HLEN + tot < 60))) {
        sink_error(&sink.c.bad_ip, "IP total length %zu in a %zu-byte frame",
                   tot, len);
        return false;
    }
    for (i = PP_ETH_HLEN + tot; i < len; i++) {
        if (f[i] != 0) {
            sink_error(&sink.c.bad_eth, "padding byte %zu is 0x%02x", i,
                       f[i]);
            return false;
        }
    }
    if (pp_get16(ip + 6) != 0x4000 || ip[8] != SINK_TTL) {
        sink_error(&sink.c.bad_ip, "flags/fragment 0x%04x, TTL %u",
                   pp_get16(ip + 6), ip[8]);
        return false;
    }
    if (peer_checksum(ip, 20, 0) != 0) {
        sink_error(&sink.c.bad_ip_csum, "IP header checksum 0x%04x",
                   pp_get16(ip + 10));
        return false;
    }
    if (!sink_from_guest(ip + 12, 4)) {
        sink_error(&sink.c.unexpected, "a second connection (address)");
        return false;
    }
    g->tcp = ip + 20;
    g->tcplen = tot - 20;
    g->pseudo = peer_ipv4_pseudo(ip, g->tcplen, IP_PROTO_TCP);
    g->id = pp_get16(ip + 4);
    return true;
}

static bool sink_check_ipv6(const uint8_t *f, size_t len, struct sink_seg *g)
{
    const uint8_t *ip = f + PP_ETH_HLEN;
    size_t plen;

    if (len < PP_ETH_HLEN + IPV6_HLEN + 20 || (ip[0] >> 4) != 6) {
        sink_error(&sink.c.bad_ip, "length %zu, IP version %u", len,
                   len > PP_ETH_HLEN ? ip[0] >> 4 : 0);
        return false;
    }
    plen = pp_get16(ip + 4);
    if (PP_ETH_HLEN + IPV6_HLEN + plen != len || plen < 20) {
        sink_error(&sink.c.bad_ip, "IPv6 payload length %zu in a %zu-byte "
                   "frame", plen, len);
        return false;
    }
    if ((pp_get16(ip) & 0x0ff0) != 0 || ip[7] != SINK_TTL) {
        sink_error(&sink.c.bad_ip, "traffic class 0x%02x, hop limit %u",
                   (pp_get16(ip) >> 4) & 0xff, ip[7]);
        return false;
    }
    if (!sink_from_guest(ip + 8, 16)) {
        sink_error(&sink.c.unexpected, "a second connection (address)");
        return false;
    }
    g->tcp = ip + IPV6_HLEN;
    g->tcplen = plen;
    g->pseudo = peer_ipv6_pseudo(ip, plen, IP_PROTO_TCP);
    g->id = pp_get32(ip) & 0xfffff;
    return true;
}

/* Header checks shared by every frame of the connection; false = drop. */
static bool sink_check_headers(const uint8_t *f, size_t len, bool v6,
                               struct sink_seg *g)
{
    const uint8_t *tcp;

    if (memcmp(f, peer_mac(), PP_ETH_ALEN) != 0 ||
        (sink.state != SINK_LISTEN &&
         memcmp(f + PP_ETH_ALEN, sink.guest_mac, PP_ETH_ALEN) != 0)) {
        sink_error(&sink.c.bad_eth, "Ethernet addresses");
        return false;
    }
    if (sink.state != SINK_LISTEN && v6 != sink.v6) {
        sink_error(&sink.c.unexpected, "a second connection (family)");
        return false;
    }
    if (!(v6 ? sink_check_ipv6(f, len, g) : sink_check_ipv4(f, len, g))) {
        return false;
    }
    if (len < 60) {
        /*
         * Shorter than the Ethernet minimum: a NIC pads when TCTL.PSP is
         * set (Linux sets it).  Counted on its own, not as an error, so a
         * model that does not pad still has its other checks reported.
         */
        sink.c.runts++;
    }
    tcp = g->tcp;
    if (sink.state != SINK_LISTEN && pp_get16(tcp) != sink.guest_port) {
        sink_error(&sink.c.unexpected, "a second connection (port %u)",
                   pp_get16(tcp));
        return false;
    }
    if ((tcp[12] >> 4) * 4u > g->tcplen ||
        (sink.state != SINK_LISTEN && tcp[12] >> 4 != 5)) {
        sink_error(&sink.c.bad_tcp, "TCP data offset %u", tcp[12] >> 4);
        return false;
    }
    if (peer_checksum(tcp, g->tcplen, g->pseudo) != 0) {
        sink_error(&sink.c.bad_tcp_csum, "TCP checksum 0x%04x (seq %u)",
                   pp_get16(tcp + 16), pp_get32(tcp + 4) - sink.irs);
        return false;
    }
    /* Checked after the checksums: the ID is only meaningful if intact. */
    if (!v6) {
        if (sink.state != SINK_LISTEN && g->id != sink.ip_id) {
            sink_error(&sink.c.bad_ip_id, "IP ID 0x%04x, want 0x%04x",
                       g->id, sink.ip_id);
        }
        sink.ip_id = g->id + 1;
    }
    return true;
}

static void sink_syn(const uint8_t *f, bool v6, const uint8_t *tcp)
{
    const uint8_t *ip = f + PP_ETH_HLEN;
    uint8_t opts[8] = { 2, 4, sink.mss >> 8, sink.mss & 0xff,
                        1, 3, 3, SINK_WSCALE };

    sink.v6 = v6;
    memcpy(sink.guest_mac, f + PP_ETH_ALEN, PP_ETH_ALEN);
    if (v6) {
        memcpy(sink.guest_ip, ip + 8, 16);
    } else {
        memcpy(sink.guest_ip, ip + 12, 4);
    }
    sink.guest_port = pp_get16(tcp);
    sink.irs = pp_get32(tcp + 4);
    sink.rcv_nxt = sink.irs + 1;
    sink.snd_nxt = SINK_ISS;
    sink.c.syn++;
    sink.state = SINK_ESTABLISHED;
    sink_send(TCP_SYN | TCP_ACK, sink.snd_nxt, sink.rcv_nxt, opts,
              sizeof(opts));
    sink.snd_nxt++;
}

/* Payload of an established connection at @seq: check, account, ACK. */
static void sink_data(const uint8_t *p, size_t n, uint32_t seq)
{
    uint32_t ahead = seq - sink.rcv_nxt;    /* mod 2^32 */
    uint32_t behind = sink.rcv_nxt - seq;

    if (n > sink.mss) {
        sink_error(&sink.c.over_mss, "payload %zu > MSS %u", n, sink.mss);
    }
    if (n > sink.c.max_payload) {
        sink.c.max_payload = n;
    }
    if (ahead != 0 && ahead < 0x80000000u) {
        sink_error(&sink.c.gaps, "segment at %u, expected %u (bytes lost)",
                   seq - sink.irs, sink.rcv_nxt - sink.irs);
        sink_ack();     /* ask for the missing bytes again */
        return;
    }
    /* Offset in the stream of p[0]; the SYN took sequence number irs. */
    if (!sink_payload_ok(p, n, (uint64_t)(uint32_t)(seq - sink.irs - 1))) {
        sink_ack();
        return;
    }
    if (ahead != 0) {
        /* Starts before rcv_nxt: bytes we have (in part) already. */
        size_t old = behind < n ? behind : n;

        sink.c.retransmits++;
        sink.c.retransmit_bytes += old;
        p += old;
        n -= old;
    } else {
        sink.c.data_segments++;
    }
    sink.c.data_bytes += n;
    sink.rcv_nxt += n;
    sink_ack();
}

/* A guest TCP frame addressed to the sink's port. */
static void sink_frame(const uint8_t *f, size_t len, bool v6)
{
    struct sink_seg g;
    const uint8_t *tcp;
    size_t paylen;
    uint32_t seq;
    uint8_t flags;

    sink.c.frames++;
    if (!sink_check_headers(f, len, v6, &g)) {
        return;
    }
    tcp = g.tcp;
    paylen = g.tcplen - (tcp[12] >> 4) * 4u;
    seq = pp_get32(tcp + 4);
    flags = tcp[13];
    if (sink.log) {
        fprintf(sink.log, "%u %zu %02x %u\n",
                sink.state == SINK_LISTEN ? 0 : seq - sink.irs, paylen, flags,
                g.id);
        fflush(sink.log);
    }
    if (sink.state == SINK_LISTEN) {
        if (flags != TCP_SYN || paylen != 0) {
            sink_error(&sink.c.unexpected, "flags 0x%02x before a SYN",
                       flags);
            return;
        }
        sink_syn(f, v6, tcp);
        return;
    }
    if (flags & (TCP_SYN | TCP_RST | TCP_URG | TCP_ECE | TCP_CWR) ||
        !(flags & TCP_ACK)) {
        sink_error(&sink.c.bad_flags, "flags 0x%02x at %u", flags,
                   seq - sink.irs);
        return;
    }
    if (pp_get32(tcp + 8) != sink.snd_nxt &&
        !(sink.state != SINK_ESTABLISHED &&
          pp_get32(tcp + 8) == sink.snd_nxt - 1)) {
        sink_error(&sink.c.bad_ack, "ACK number %u, sent up to %u",
                   pp_get32(tcp + 8) - SINK_ISS, sink.snd_nxt - SINK_ISS);
    }
    if (paylen && sink.state != SINK_ESTABLISHED) {
        if ((int32_t)(seq + (uint32_t)paylen - (sink.rcv_nxt - 1)) > 0) {
            sink_error(&sink.c.unexpected, "data after FIN");
            return;
        }
        /*
         * Bytes from before the FIN again: the guest's retransmission
         * timer beat our ACKs (a loaded host). Acknowledged once more,
         * as TCP does a duplicate; a FIN on it is answered below.
         */
        sink.c.retransmits++;
        sink.c.retransmit_bytes += paylen;
        if (!(flags & TCP_FIN)) {
            if (sink.state == SINK_FIN_RCVD) {
                sink_send(TCP_FIN | TCP_ACK, sink.snd_nxt - 1, sink.rcv_nxt,
                          NULL, 0);
            } else {
                sink_send(TCP_ACK, sink.snd_nxt, sink.rcv_nxt, NULL, 0);
            }
        }
    } else if (paylen) {
        sink_data(tcp + 20, paylen, seq);
    } else if (!(flags & TCP_FIN)) {
        sink.c.pure_acks++;
        if (sink.state == SINK_FIN_RCVD &&
            pp_get32(tcp + 8) == sink.snd_nxt) {
            sink.state = SINK_CLOSED;
        }
    }
    if (flags & TCP_FIN) {
        if (seq + paylen == sink.rcv_nxt && sink.state == SINK_ESTABLISHED) {
            sink.c.fin++;
            sink.rcv_nxt++;
            sink.state = SINK_FIN_RCVD;
            sink_send(TCP_FIN | TCP_ACK, sink.snd_nxt, sink.rcv_nxt, NULL, 0);
            sink.snd_nxt++;
        } else if (seq + paylen + 1 == sink.rcv_nxt) {
            /* FIN again: our FIN-ACK was slow; answer it once more. */
            sink.c.retransmits++;
            sink_send(TCP_FIN | TCP_ACK, sink.snd_nxt - 1, sink.rcv_nxt,
                      NULL, 0);
        } else {
            sink_error(&sink.c.gaps, "FIN at %u, expected %u",
                       seq + (uint32_t)paylen - sink.irs,
                       sink.rcv_nxt - sink.irs);
        }
    }
}

bool tcpsink_ipv4(const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + PP_ETH_HLEN;
    size_t ihl = (ip[0] & 0xf) * 4;

    if (sink.state == SINK_IDLE || len < PP_ETH_HLEN + ihl + 4 ||
        pp_get16(ip + ihl + 2) != sink.port) {
        return false;
    }
    sink_frame(f, len, false);
    return true;
}

bool tcpsink_ipv6(const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + PP_ETH_HLEN;

    if (sink.state == SINK_IDLE || len < PP_ETH_HLEN + IPV6_HLEN + 4 ||
        pp_get16(ip + IPV6_HLEN + 2) != sink.port) {
        return false;
    }
    sink_frame(f, len, true);
    return true;
}

static const char *sink_state_name(void)
{
    static const char *const names[] = {
        [SINK_IDLE] = "idle", [SINK_LISTEN] = "listen",
        [SINK_ESTABLISHED] = "established", [SINK_FIN_RCVD] = "fin_rcvd",
        [SINK_CLOSED] = "closed",
    };
    return names[sink.state];
}

bool tcpsink_closed(void)
{
    return sink.state == SINK_CLOSED;
}

void tcpsink_stat(const char *prefix)
{
    uint64_t errors = 0;
    char json[2048];
    size_t n;

#define SINK_SUM(name) errors += sink.c.name;
    SINK_ERRORS(SINK_SUM)
#undef SINK_SUM
    n = snprintf(json, sizeof(json), "{%s\"state\": \"%s\", "
                 "\"port\": %u, \"run\": %u, \"mss\": %u, \"errors\": %llu",
                 prefix, sink_state_name(), sink.port, sink.run, sink.mss,
                 (unsigned long long)errors);
#define SINK_JSON(name) \
    n = peer_json_u64(json, sizeof(json), n, #name, sink.c.name);
    SINK_COUNTERS(SINK_JSON)
#undef SINK_JSON
    if (n < sizeof(json)) {
        /* first_error holds no quotes or backslashes (see sink_error). */
        snprintf(json + n, sizeof(json) - n, ", \"first_error\": \"%s\"}",
                 sink.first_error);
    }
    peer_emit("%s", json);
}

void tcpsink_command(int argc, char **argv)
{
    uint32_t port, run, mss;

    if (argc != 5 || pp_parse_u32(argv[1], 65535, &port) < 0 || port == 0 ||
        pp_parse_u32(argv[2], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[3], SINK_MAX_MSS, &mss) < 0 || mss < 64) {
        peer_emit("{\"ok\": false, \"error\": \"usage: TCPSINK <port> <run> "
                  "<mss 64..%d> <logfile>\"}", SINK_MAX_MSS);
        return;
    }
    if (sink.log) {
        fclose(sink.log);
    }
    memset(&sink, 0, sizeof(sink));
    sink.log = fopen(argv[4], "w");
    if (!sink.log) {
        peer_emit("{\"ok\": false, \"error\": \"cannot write %s: %s\"}",
                  argv[4], strerror(errno));
        return;
    }
    sink.port = port;
    sink.run = run;
    sink.mss = mss;
    sink.my_ip_id = 0x1000;
    sink.state = SINK_LISTEN;
    peer_emit("{\"ok\": true, \"port\": %u, \"run\": %u, \"mss\": %u}", port,
              run, mss);
}
