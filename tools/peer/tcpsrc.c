/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: a TCP source, so that a TCP stream crosses the NIC
 * towards the guest (the agent's TCPRX listens and checks every byte).
 *
 *   TCPSEND <dstmac> <ip> <port> <run> <bytes> <mss>   connect and send
 *   TCPSENDSTAT                                        counters as JSON
 *
 * Just enough TCP over IPv4 for one connection on a loss-free link:
 * SYN (MSS option, no window scaling, no SACK, no timestamps), then
 * segments of at most <mss> bytes of pp_stream_byte(run, offset) within
 * the guest's advertised window (at most 64 KiB in flight), FIN once
 * everything is acknowledged, ACK of the guest's FIN.  Should a segment
 * be lost anyway (the NIC dropping frames is a finding, not a test
 * error), 300 ms without progress sends everything unacknowledged again
 * (go-back-N) and counts it; so is the SYN while the guest refuses it (not
 * listening yet).  The guest's segments are checked: TCP checksum, ports,
 * ACK number never beyond what was sent, no RST once connected.
 */

#include <arpa/inet.h>

#include "peer.h"

#define SRC_FIN         0x01
#define SRC_SYN         0x02
#define SRC_RST         0x04
#define SRC_PSH         0x08
#define SRC_ACK         0x10

#define SRC_ISS         0x20000000u
#define SRC_FIRST_PORT  40000
#define SRC_INFLIGHT    65535u
#define SRC_RTO_MS      300

#define SRC_COUNTERS(X) \
    X(segments) X(bytes_sent) X(bytes_acked) X(retransmits) X(acks) \
    X(bad_csum) X(bad_ack) X(resets) X(refused) X(unexpected)

enum src_state {
    SRC_IDLE,
    SRC_SYN_SENT,
    SRC_SENDING,        /* established, data or our FIN outstanding */
    SRC_CLOSED,         /* our FIN acknowledged and the guest's received */
    SRC_FAILED,         /* reset by the guest */
};

static const char *const src_state_names[] = {
    "idle", "syn_sent", "sending", "closed", "failed",
};

static struct {
    enum src_state state;
    uint8_t guest_mac[PP_ETH_ALEN];
    uint8_t guest_ip[4];
    uint16_t port, my_port, mss, ip_id;
    uint16_t vid;           /* the VLAN the stream runs on, 0: untagged */
    uint32_t run;
    uint32_t total;
    uint32_t irs;           /* the guest's initial sequence number */
    uint32_t snd_una, snd_nxt;
    uint32_t rcv_nxt;
    uint32_t wnd;           /* the guest's advertised window */
    bool fin_sent, fin_rcvd;
    int64_t progress_ms;    /* last time snd_una moved (or a send began) */
    struct {
#define SRC_FIELD(name) uint64_t name;
        SRC_COUNTERS(SRC_FIELD)
#undef SRC_FIELD
    } c;
} src = {
    .my_port = SRC_FIRST_PORT,
};

/* Sequence number arithmetic modulo 2^32 (RFC 9293 §3.4). */
static bool seq_le(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) <= 0;
}

static void src_send(uint8_t flags, uint32_t seq, const uint8_t *opts,
                     size_t optlen, uint32_t payload)
{
    static uint8_t f[PP_ETH_HLEN + 20 + 24 + PP_MAX_LEN];
    uint8_t *tcp = f + PP_ETH_HLEN + IPV4_HLEN;
    size_t hlen = 20 + optlen, tcplen = hlen + payload, len, i;
    uint32_t pseudo, off = seq - (SRC_ISS + 1);
    uint16_t vid = peer.frame_vid;

    /* From the VLAN host's address, tagged, when the stream is on it. */
    peer.frame_vid = src.vid;
    pseudo = peer_ipv4_header(f, src.guest_mac, src.guest_ip, src.ip_id++,
                              IP_PROTO_TCP, tcplen);
    peer_tcp_header(tcp, src.my_port, src.port, seq,
                    flags & SRC_ACK ? src.rcv_nxt : 0, flags, 0xffff, opts,
                    optlen);
    for (i = 0; i < payload; i++) {
        tcp[hlen + i] = pp_stream_byte(src.run, off + i);
    }
    pp_put16(tcp + 16, peer_checksum(tcp, tcplen, pseudo));
    len = PP_ETH_HLEN + IPV4_HLEN + tcplen;
    if (len < 60) {
        memset(f + len, 0, 60 - len);
        len = 60;
    }
    peer_queue_frame(f, len);
    peer.frame_vid = vid;
    if (payload) {
        src.c.segments++;
        src.c.bytes_sent += payload;
    }
}

static void src_syn(void)
{
    uint8_t opt[4] = { 2, 4, src.mss >> 8, src.mss & 0xff };   /* MSS */

    src_send(SRC_SYN, SRC_ISS, opt, sizeof(opt), 0);
}

/* Send what the window allows; the FIN once everything is acknowledged. */
static void src_push(void)
{
    uint32_t end = SRC_ISS + 1 + src.total;
    uint32_t limit = src.wnd < SRC_INFLIGHT ? src.wnd : SRC_INFLIGHT;

    while (seq_le(src.snd_nxt + 1, end) && src.snd_nxt - src.snd_una < limit) {
        uint32_t n = end - src.snd_nxt;
        uint32_t room = limit - (src.snd_nxt - src.snd_una);

        n = n < src.mss ? n : src.mss;
        n = n < room ? n : room;
        src_send(SRC_ACK | SRC_PSH, src.snd_nxt, NULL, 0, n);
        src.snd_nxt += n;
    }
    if (src.snd_una == end && !src.fin_sent) {
        src_send(SRC_ACK | SRC_FIN, end, NULL, 0, 0);
        src.fin_sent = true;
        src.snd_nxt = end + 1;
    }
}

void tcpsrc_command(int argc, char **argv)
{
    uint32_t port, run, bytes, mss, vid = 0;

    if ((argc != 7 && argc != 8) ||
        (argc == 8 && (pp_parse_u32(argv[7], 4094, &vid) < 0 || !vid)) ||
        pp_parse_mac(argv[1], src.guest_mac) < 0 ||
        inet_pton(AF_INET, argv[2], src.guest_ip) != 1 ||
        pp_parse_u32(argv[3], 65535, &port) < 0 || !port ||
        pp_parse_u32(argv[4], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[5], 1u << 30, &bytes) < 0 ||
        pp_parse_u32(argv[6], PP_MAX_LEN - 54, &mss) < 0 || mss < 64) {
        peer_emit("{\"ok\": false, \"error\": \"usage: TCPSEND <dstmac> "
                  "<ipv4> <port> <run> <bytes> <mss 64..%d> [<vid 1..4094>]"
                  "\"}",
                  PP_MAX_LEN - 54);
        return;
    }
    memset(&src.c, 0, sizeof(src.c));
    src.port = port;
    src.my_port++;
    src.run = run;
    src.total = bytes;
    src.mss = mss;
    src.vid = vid;
    src.snd_una = SRC_ISS;
    src.snd_nxt = SRC_ISS + 1;
    src.wnd = 0;
    src.fin_sent = src.fin_rcvd = false;
    src.state = SRC_SYN_SENT;
    src.progress_ms = peer_now_ms();
    src_syn();
    peer_emit("{\"ok\": true, \"port\": %u}", src.my_port);
}

void tcpsrc_stat(const char *prefix)
{
    char text[1024];
    size_t n;

    n = snprintf(text, sizeof(text), "{%s\"state\": \"%s\"", prefix,
                 src_state_names[src.state]);
#define SRC_JSON(name) \
    n = peer_json_u64(text, sizeof(text), n, #name, src.c.name);
    SRC_COUNTERS(SRC_JSON)
#undef SRC_JSON
    peer_emit("%s}", text);
}

bool tcpsrc_active(void)
{
    return src.state == SRC_SYN_SENT || src.state == SRC_SENDING;
}

bool tcpsrc_done(void)
{
    return src.state == SRC_CLOSED || src.state == SRC_FAILED;
}

/* Retransmission: called from the peer's loop at least every 100 ms. */
void tcpsrc_tick(void)
{
    if (!tcpsrc_active() || peer_now_ms() - src.progress_ms < SRC_RTO_MS) {
        return;
    }
    src.progress_ms = peer_now_ms();
    src.c.retransmits++;
    if (src.state == SRC_SYN_SENT) {
        src_syn();
        return;
    }
    src.snd_nxt = src.snd_una;
    if (src.fin_sent && src.snd_una == SRC_ISS + 1 + src.total) {
        src.fin_sent = false;
    }
    src_push();
}

bool tcpsrc_ipv4(const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + PP_ETH_HLEN, *tcp;
    size_t ihl, tot, tcplen;
    uint32_t pseudo, seq, ack;
    uint8_t flags;

    if (src.state == SRC_IDLE || len < PP_ETH_HLEN + 40 ||
        peer.frame_vid != src.vid) {
        return false;
    }
    ihl = (ip[0] & 0xf) * 4;
    tot = pp_get16(ip + 2);
    /* The guest's total length, checked before anything is derived. */
    if (ihl < 20 || tot < ihl + 20 || PP_ETH_HLEN + tot > len) {
        return false;
    }
    tcplen = tot - ihl;
    tcp = ip + ihl;
    if (pp_get16(tcp + 2) != src.my_port ||
        memcmp(ip + 12, src.guest_ip, 4) != 0) {
        return false;
    }
    pseudo = peer_ipv4_pseudo(ip, tcplen, IP_PROTO_TCP);
    if (peer_checksum(tcp, tcplen, pseudo) != 0) {
        src.c.bad_csum++;
        return true;
    }
    flags = tcp[13];
    seq = pp_get32(tcp + 4);
    ack = pp_get32(tcp + 8);
    if (flags & SRC_RST) {
        /*
         * Refused: the guest is not listening yet (the host asks the agent
         * to listen just before this connect); the SYN goes out again on
         * the retransmission timer.
         */
        if (src.state == SRC_SYN_SENT) {
            src.c.refused++;
            return true;
        }
        src.c.resets++;
        src.state = SRC_FAILED;
        return true;
    }
    if (src.state == SRC_SYN_SENT) {
        if ((flags & (SRC_SYN | SRC_ACK)) != (SRC_SYN | SRC_ACK) ||
            ack != SRC_ISS + 1) {
            src.c.unexpected++;
            return true;
        }
        src.irs = seq;
        src.rcv_nxt = seq + 1;
        src.snd_una = SRC_ISS + 1;
        src.wnd = pp_get16(tcp + 14);
        src.state = SRC_SENDING;
        src.progress_ms = peer_now_ms();
        src_send(SRC_ACK, src.snd_nxt, NULL, 0, 0);
        src_push();
        return true;
    }
    if (!(flags & SRC_ACK)) {
        src.c.unexpected++;
        return true;
    }
    src.c.acks++;
    if (!seq_le(ack, src.snd_nxt) && !(src.fin_sent &&
                                        ack == SRC_ISS + 2 + src.total)) {
        src.c.bad_ack++;
        return true;
    }
    src.wnd = pp_get16(tcp + 14);
    if (seq_le(src.snd_una + 1, ack)) {
        uint32_t data_end = SRC_ISS + 1 + src.total;

        src.c.bytes_acked = (seq_le(ack, data_end) ? ack : data_end) -
                            (SRC_ISS + 1);
        src.snd_una = ack;
        src.progress_ms = peer_now_ms();
    }
    if ((flags & SRC_FIN) && seq == src.rcv_nxt) {
        src.rcv_nxt++;
        src.fin_rcvd = true;
        src_send(SRC_ACK, src.snd_nxt, NULL, 0, 0);
    }
    if (src.fin_sent && src.fin_rcvd &&
        src.snd_una == SRC_ISS + 2 + src.total) {
        src.state = SRC_CLOSED;
        return true;
    }
    src_push();
    return true;
}
