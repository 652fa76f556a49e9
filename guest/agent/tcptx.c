/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: TCPTX, a TCP stream from the guest's own stack to the
 * peer's TCP sink (tools/peer/tcpsink.c), with a record of what the stack
 * handed the driver.
 *
 *   TCPTX <if> <ip> <port> <run> <bytes> <chunk> <timeout_s>
 *
 * Connects to <ip>:<port> (IPv4 or IPv6), writes <bytes> bytes of
 * pp_stream_byte(run, ...) in send() calls of <chunk> bytes, shuts the
 * sending side and waits for the peer's FIN.  Meanwhile a packet socket on
 * <if> with PACKET_VNET_HDR sees every frame of the connection as the stack
 * passes it to the driver: a TSO frame is one skb there, with the gso_size
 * the driver puts into its TCP segmentation context.  Each outgoing frame
 * of the connection is reported, in order, as a data line
 *
 *   D skb <seq - ISN> <payload bytes> <gso_size, 0 if none> <flags hex>
 *         <id: IPv4 ID or IPv6 flow label>
 *
 * then  OK bytes=<written> skbs=<n> gso_skbs=<n> segments=<n>
 *          payload=<n> max_gso=<n> port=<local port> drops=<n>
 *
 * where segments is the number of frames the NIC has to put on the wire
 * for them (one per skb without GSO, ceil(payload / gso_size) per GSO skb)
 * and drops counts frames the capture socket lost (the record is only
 * complete when it is 0).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "agent.h"

#define TCPTX_CAPTURE_BUF   (64 * 1024 * 1024)
#define TCPTX_MAX_CHUNK     (1024 * 1024)
#define TCPTX_MAX_BYTES     (256u * 1024 * 1024)
/* Quiet time that ends the capture once the connection is closed. */
#define TCPTX_QUIET_MS      300
#define TCP_FLAG_SYN        0x02
#define IPV6_HLEN           40

/* The connection, as the capture filter needs it. */
struct tcptx_conn {
    bool v6;
    uint8_t dst[16];        /* 4 bytes used for IPv4 */
    uint16_t port, local_port;
};

struct tcptx_summary {
    uint64_t skbs, gso_skbs, segments, payload, max_gso;
    bool have_isn;
    uint32_t isn;
};

/*
 * One captured frame: if it is an outgoing segment of the connection @c,
 * report it and account it in @s.
 */
static void account_frame(const uint8_t *buf, size_t caplen, size_t len,
                          const struct sockaddr_ll *sll,
                          const struct tcptx_conn *c, struct tcptx_summary *s)
{
    const struct virtio_net_hdr *vh = (const void *)buf;
    const uint8_t *eth = buf + sizeof(*vh), *ip = eth + PP_ETH_HLEN, *tcp;
    size_t l3, doff, paylen, head = sizeof(*vh) + PP_ETH_HLEN;
    unsigned gso = 0;
    uint32_t seq, id;
    char line[96];
    int n;

    if (sll->sll_pkttype != PACKET_OUTGOING || caplen < head + 20 ||
        pp_get16(eth + 12) != (c->v6 ? ETH_P_IPV6 : ETH_P_IP)) {
        return;
    }
    if (c->v6) {
        /* Linux's TCP over IPv6 carries no extension headers. */
        l3 = IPV6_HLEN;
        if (ip[6] != IPPROTO_TCP || caplen < head + l3 + 20 ||
            memcmp(ip + 24, c->dst, 16) != 0) {
            return;
        }
        id = pp_get32(ip) & 0xfffff;
    } else {
        l3 = (ip[0] & 0xf) * 4u;
        if (ip[9] != IPPROTO_TCP || caplen < head + l3 + 20 ||
            memcmp(ip + 16, c->dst, 4) != 0) {
            return;
        }
        id = pp_get16(ip + 4);
    }
    tcp = ip + l3;
    doff = (tcp[12] >> 4) * 4u;
    if (pp_get16(tcp) != c->local_port || pp_get16(tcp + 2) != c->port ||
        len < head + l3 + doff) {
        return;
    }
    seq = pp_get32(tcp + 4);
    if ((tcp[13] & TCP_FLAG_SYN) && !s->have_isn) {
        s->isn = seq;
        s->have_isn = true;
    }
    paylen = len - head - l3 - doff;
    if (vh->gso_type != VIRTIO_NET_HDR_GSO_NONE) {
        gso = vh->gso_size;
    }
    s->skbs++;
    s->payload += paylen;
    if (gso) {
        s->gso_skbs++;
        s->segments += (paylen + gso - 1) / gso;
        if (gso > s->max_gso) {
            s->max_gso = gso;
        }
    } else {
        s->segments++;
    }
    n = snprintf(line, sizeof(line), "skb %u %zu %u %02x %u",
                 s->have_isn ? seq - s->isn : 0, paylen, gso, tcp[13], id);
    reply_data(line, n);
}

/* Read every frame the capture socket holds, waiting for quiet_ms. */
static void drain_capture(int fd, const struct tcptx_conn *c,
                          struct tcptx_summary *s)
{
    static uint8_t buf[256];

    for (;;) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        struct sockaddr_ll sll;
        socklen_t sl = sizeof(sll);
        ssize_t n;

        if (poll(&pfd, 1, TCPTX_QUIET_MS) <= 0) {
            return;
        }
        n = recvfrom(fd, buf, sizeof(buf), MSG_TRUNC | MSG_DONTWAIT,
                     (struct sockaddr *)&sll, &sl);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            return;
        }
        account_frame(buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf),
                      n, &sll, c, s);
    }
}

/* Write @total stream bytes in @chunk-byte sends; returns bytes written. */
static uint64_t send_stream(int fd, uint32_t run, uint64_t total,
                            uint32_t chunk, int64_t deadline,
                            const char **err)
{
    static uint8_t buf[TCPTX_MAX_CHUNK];
    uint64_t off = 0;

    while (off < total) {
        size_t n = total - off < chunk ? total - off : chunk, done = 0, i;

        for (i = 0; i < n; i++) {
            buf[i] = pp_stream_byte(run, off + i);
        }
        while (done < n) {
            ssize_t w = send(fd, buf + done, n - done, MSG_NOSIGNAL);

            if (w < 0) {
                if (errno == EINTR) {
                    continue;
                }
                *err = errno == EAGAIN ? "send timed out" : strerror(errno);
                return off + done;
            }
            done += w;
            if (now_ms() > deadline) {
                *err = "deadline passed while sending";
                return off + done;
            }
        }
        off += n;
    }
    return off;
}

/* After shutdown(SHUT_WR): read until the peer's FIN; 0 or -1. */
static int wait_for_fin(int fd, int64_t deadline)
{
    uint8_t buf[512];

    while (now_ms() < deadline) {
        ssize_t n = recv(fd, buf, sizeof(buf), 0);

        if (n == 0) {
            return 0;
        }
        if (n < 0 && errno != EINTR && errno != EAGAIN) {
            return -1;
        }
    }
    return -1;
}

/* Parse "<ip>" "<port>" into @ss (IPv4 or IPv6) and @c; 0 or -1. */
static int parse_dest(const char *ip, const char *port_text,
                      struct sockaddr_storage *ss, socklen_t *sl,
                      struct tcptx_conn *c)
{
    struct sockaddr_in *sin = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
    uint32_t port;

    memset(ss, 0, sizeof(*ss));
    memset(c, 0, sizeof(*c));
    if (pp_parse_u32(port_text, 65535, &port) < 0 || port == 0) {
        return -1;
    }
    c->port = port;
    if (inet_pton(AF_INET, ip, &sin->sin_addr) == 1) {
        sin->sin_family = AF_INET;
        sin->sin_port = htons(port);
        memcpy(c->dst, &sin->sin_addr, 4);
        *sl = sizeof(*sin);
        return 0;
    }
    if (inet_pton(AF_INET6, ip, &sin6->sin6_addr) == 1) {
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons(port);
        memcpy(c->dst, &sin6->sin6_addr, 16);
        c->v6 = true;
        *sl = sizeof(*sin6);
        return 0;
    }
    return -1;
}

void cmd_tcptx(int argc, char **argv)
{
    struct sockaddr_storage dst, local;
    socklen_t dl = 0, sl = sizeof(local);
    struct tpacket_stats st;
    socklen_t stl = sizeof(st);
    struct tcptx_summary s;
    struct tcptx_conn c;
    struct timeval tv;
    uint32_t run, bytes, chunk, timeout;
    uint8_t mac[PP_ETH_ALEN];
    const char *err = NULL;
    uint64_t written = 0;
    int64_t deadline;
    int ifindex, cap, fd;

    memset(&s, 0, sizeof(s));
    if (argc != 8 || parse_dest(argv[2], argv[3], &dst, &dl, &c) < 0 ||
        pp_parse_u32(argv[4], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[5], TCPTX_MAX_BYTES, &bytes) < 0 ||
        pp_parse_u32(argv[6], TCPTX_MAX_CHUNK, &chunk) < 0 || chunk == 0 ||
        pp_parse_u32(argv[7], 3600, &timeout) < 0 || timeout == 0) {
        reply("ERR usage: TCPTX <if> <ipv4 or ipv6> <port 1..65535> <run> "
              "<bytes> <chunk 1..1048576> <timeout_s 1..3600>");
        return;
    }
    if (if_mac(argv[1], mac, &ifindex) < 0) {
        reply("ERR no interface %s: %s", argv[1], strerror(errno));
        return;
    }
    deadline = now_ms() + (int64_t)timeout * 1000;
    cap = packet_socket(ifindex, ETH_P_ALL, TCPTX_CAPTURE_BUF, true);
    if (cap < 0) {
        reply("ERR capture socket: %s", strerror(errno));
        return;
    }
    tv.tv_sec = timeout;
    tv.tv_usec = 0;
    fd = socket(dst.ss_family, SOCK_STREAM, 0);
    if (fd < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
        connect(fd, (struct sockaddr *)&dst, dl) < 0 ||
        getsockname(fd, (struct sockaddr *)&local, &sl) < 0) {
        reply("ERR tcp connect to %s port %u: %s", argv[2], c.port,
              strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        close(cap);
        return;
    }
    /* sin_port and sin6_port sit at the same offset. */
    c.local_port = ntohs(((struct sockaddr_in *)&local)->sin_port);
    written = send_stream(fd, run, bytes, chunk, deadline, &err);
    if (!err) {
        shutdown(fd, SHUT_WR);
        if (wait_for_fin(fd, deadline) < 0) {
            err = "no FIN from the peer before the deadline";
        }
    }
    close(fd);
    drain_capture(cap, &c, &s);
    memset(&st, 0, sizeof(st));
    getsockopt(cap, SOL_PACKET, PACKET_STATISTICS, &st, &stl);
    close(cap);
    if (err) {
        reply("ERR %s (bytes=%llu of %u)", err, (unsigned long long)written,
              bytes);
        return;
    }
    reply("OK bytes=%llu skbs=%llu gso_skbs=%llu segments=%llu payload=%llu "
          "max_gso=%llu port=%u drops=%u", (unsigned long long)written,
          (unsigned long long)s.skbs, (unsigned long long)s.gso_skbs,
          (unsigned long long)s.segments, (unsigned long long)s.payload,
          (unsigned long long)s.max_gso, c.local_port, st.tp_drops);
}
