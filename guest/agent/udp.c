/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: UDP, an echo exchange with the peer's UDP echo port
 * through the guest's own stack.
 *
 *   UDP <ip> <port> <count> <len> <timeout_ms>
 *                       OK sent=<n> echoed=<n> bad=<n>
 *   UDPHOLD <ip> <port> <count> <len> <timeout_ms>
 *                       the truesize the stack charged for each echo
 *   UDPBIND <port>      a socket for the peer's checksum frames
 *   UDPRECV <count> <len> <timeout_ms>
 *                       their datagrams, checked
 */

#include <arpa/inet.h>
#include <errno.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"

/* Largest UDP payload: a 16 KB frame less Ethernet, IPv4 and UDP headers. */
#define AGENT_UDP_MAX       (PP_MAX_LEN - 14 - 20 - 8)
/* Echoes held unread at once: well inside the socket's default rcvbuf. */
#define AGENT_UDPHOLD_MAX   8

/* What both verbs take: the peer's echo, how many datagrams, how long. */
struct udp_args {
    uint32_t count, len, timeout;
};

/*
 * Datagram i of an exchange: its index in the first 4 bytes, pattern
 * bytes after them (what the echo must bring back unchanged).
 */
static void udp_datagram(uint8_t *out, uint32_t i, uint32_t len)
{
    uint32_t j;

    pp_put32(out, i);
    for (j = 4; j < len; j++) {
        out[j] = pp_payload_byte(0, i, j);
    }
}

/*
 * Parse "<verb> <ip> <port> <count> <len> <timeout_ms>" (count at most
 * @max_count) and connect a UDP socket to the echo; the socket, or -1
 * after the ERR reply.
 */
static int udp_open(int argc, char **argv, uint32_t max_count,
                    struct udp_args *a)
{
    struct sockaddr_in sin;
    uint32_t port;
    int fd;

    memset(&sin, 0, sizeof(sin));
    if (argc != 6 || inet_pton(AF_INET, argv[1], &sin.sin_addr) != 1 ||
        pp_parse_u32(argv[2], 65535, &port) < 0 ||
        pp_parse_u32(argv[3], max_count, &a->count) < 0 ||
        pp_parse_u32(argv[4], AGENT_UDP_MAX, &a->len) < 0 || a->len < 4 ||
        pp_parse_u32(argv[5], 600000, &a->timeout) < 0) {
        reply("ERR usage: %s <ip> <port> <count 0..%u> <len 4..%d> "
              "<timeout_ms>", argv[0], max_count, AGENT_UDP_MAX);
        return -1;
    }
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
        reply("ERR udp socket: %s", strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    return fd;
}

/* UDP echo: each datagram must come back unchanged before the next goes. */
void cmd_udp(int argc, char **argv)
{
    static uint8_t out[PP_MAX_LEN], in[PP_MAX_LEN];
    struct udp_args a;
    uint32_t i, echoed = 0, bad = 0;
    int fd = udp_open(argc, argv, PP_MAX_COUNT, &a);

    if (fd < 0) {
        return;
    }
    for (i = 0; i < a.count; i++) {
        int64_t deadline = now_ms() + a.timeout;

        udp_datagram(out, i, a.len);
        if (send(fd, out, a.len, 0) != (ssize_t)a.len) {
            break;
        }
        while (wait_readable(fd, deadline)) {
            ssize_t n = recv(fd, in, sizeof(in), 0);

            if (n < 0) {
                break;
            }
            if (n >= 4 && pp_get32(in) != i) {
                continue;   /* a late echo of an earlier datagram */
            }
            if (n == (ssize_t)a.len && memcmp(in, out, a.len) == 0) {
                echoed++;
            } else {
                bad++;
            }
            break;
        }
    }
    close(fd);
    reply("OK sent=%u echoed=%u bad=%u", i, echoed, bad);
}

/* The socket's receive memory: the sum of the truesize of the skbs it holds. */
static int64_t rmem_alloc(int fd)
{
    uint32_t mem[SK_MEMINFO_VARS];
    socklen_t len = sizeof(mem);

    if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mem, &len) < 0 ||
        len < sizeof(uint32_t) * (SK_MEMINFO_RMEM_ALLOC + 1)) {
        return -1;
    }
    return mem[SK_MEMINFO_RMEM_ALLOC];
}

/*
 * UDPHOLD: the same echo exchange, but the echoes are left unread until
 * all have come; each one's arrival is seen as the socket's receive
 * memory growing, and by how much is the truesize the stack charged for
 * that skb (what the driver built: head and fragments). Then they are
 * read and checked.
 *
 *   UDPHOLD <ip> <port> <count> <len> <timeout_ms>
 *       D truesize <i> <bytes>     per echo
 *       OK sent=<n> held=<n> rmem=<bytes> echoed=<n> bad=<n>
 */
void cmd_udphold(int argc, char **argv)
{
    static uint8_t out[PP_MAX_LEN], in[PP_MAX_LEN];
    struct udp_args a;
    uint32_t i, held = 0, echoed = 0, bad = 0;
    int64_t rmem = 0;
    int fd = udp_open(argc, argv, AGENT_UDPHOLD_MAX, &a);

    if (fd < 0) {
        return;
    }
    if (rmem_alloc(fd) < 0) {
        reply("ERR SO_MEMINFO: %s", strerror(errno));
        close(fd);
        return;
    }
    for (i = 0; i < a.count; i++) {
        int64_t deadline = now_ms() + a.timeout;
        int64_t now_rmem = rmem;
        char text[64];
        int n;

        udp_datagram(out, i, a.len);
        if (send(fd, out, a.len, 0) != (ssize_t)a.len) {
            break;
        }
        /* Bounded by the deadline: the echo may never come. */
        while (now_rmem == rmem && now_ms() < deadline) {
            usleep(1000);
            now_rmem = rmem_alloc(fd);
        }
        if (now_rmem == rmem) {
            continue;
        }
        n = snprintf(text, sizeof(text), "truesize %u %lld", i,
                     (long long)(now_rmem - rmem));
        reply_data(text, n);
        rmem = now_rmem;
        held++;
    }
    a.count = i;
    for (i = 0; i < held; i++) {
        ssize_t n = recv(fd, in, sizeof(in), MSG_DONTWAIT);

        if (n < 0) {
            break;
        }
        if (n == (ssize_t)a.len && pp_get32(in) < a.count) {
            udp_datagram(out, pp_get32(in), a.len);
            if (memcmp(in, out, a.len) == 0) {
                echoed++;
                continue;
            }
        }
        bad++;
    }
    close(fd);
    reply("OK sent=%u held=%u rmem=%lld echoed=%u bad=%u", a.count, held,
          (long long)rmem, echoed, bad);
}

/*
 * The socket UDPBIND opened for UDPRECV: the peer's checksum frames
 * (CSUMBAD, tools/peer/csum.c) queue in it until they are read.
 */
static int recv_fd = -1;
/* Datagram words remembered to tell a duplicate (CSUMBAD sends fewer). */
#define AGENT_UDPRECV_MAX   1024

/*
 * UDPBIND <port>: a UDP socket on <port> of every address, IPv6 and IPv4
 * when the guest has IPv6 (IPV6_V6ONLY off), IPv4 only when it has not.
 *   OK family=inet6|inet
 */
void cmd_udpbind(int argc, char **argv)
{
    struct sockaddr_in6 sin6;
    struct sockaddr_in sin;
    uint32_t port;
    int off = 0;
    bool v6 = true;

    if (argc != 2 || pp_parse_u32(argv[1], 65535, &port) < 0 || !port) {
        reply("ERR usage: UDPBIND <port 1..65535>");
        return;
    }
    if (recv_fd >= 0) {
        close(recv_fd);
    }
    recv_fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (recv_fd < 0) {
        v6 = false;
        recv_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    }
    if (recv_fd < 0) {
        reply("ERR udp socket: %s", strerror(errno));
        return;
    }
    memset(&sin6, 0, sizeof(sin6));
    memset(&sin, 0, sizeof(sin));
    sin6.sin6_family = AF_INET6;
    sin6.sin6_port = htons(port);
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    if ((v6 && setsockopt(recv_fd, IPPROTO_IPV6, IPV6_V6ONLY, &off,
                          sizeof(off)) < 0) ||
        (v6 ? bind(recv_fd, (struct sockaddr *)&sin6, sizeof(sin6)) :
              bind(recv_fd, (struct sockaddr *)&sin, sizeof(sin))) < 0) {
        reply("ERR udp bind %u: %s", port, strerror(errno));
        close(recv_fd);
        recv_fd = -1;
        return;
    }
    reply("OK family=%s", v6 ? "inet6" : "inet");
}

/*
 * UDPRECV <count> <len> <timeout_ms>: read UDPBIND's socket until <count>
 * datagrams came or the time is up, then whatever else is queued; close
 * it.  A datagram is good when it is <len> bytes, its word (the first 4
 * bytes) has an even position (its low 16 bits: the peer's good frames)
 * and every byte after it is pp_csum_byte(); bad when its position is
 * odd (a frame sent with a wrong checksum reached the socket), corrupt
 * otherwise; dup when its word came before.
 *   OK got=<n> good=<n> bad=<n> corrupt=<n> dup=<n>
 */
void cmd_udprecv(int argc, char **argv)
{
    static uint8_t in[PP_MAX_LEN];
    static uint32_t seen[AGENT_UDPRECV_MAX];
    uint32_t count, len, timeout, got = 0, good = 0, bad = 0, corrupt = 0;
    uint32_t dup = 0, nseen = 0, i, j;
    int64_t deadline;

    if (argc != 4 || pp_parse_u32(argv[1], AGENT_UDPRECV_MAX, &count) < 0 ||
        pp_parse_u32(argv[2], AGENT_UDP_MAX, &len) < 0 || len < 4 ||
        pp_parse_u32(argv[3], 600000, &timeout) < 0) {
        reply("ERR usage: UDPRECV <count 0..%d> <len 4..%d> <timeout_ms>",
              AGENT_UDPRECV_MAX, AGENT_UDP_MAX);
        return;
    }
    if (recv_fd < 0) {
        reply("ERR UDPRECV: no socket (UDPBIND first)");
        return;
    }
    deadline = now_ms() + timeout;
    for (;;) {
        ssize_t n;
        uint32_t word;

        if (got < count && !wait_readable(recv_fd, deadline)) {
            break;
        }
        n = recv(recv_fd, in, sizeof(in), MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR || (got < count && errno == EAGAIN)) {
                continue;
            }
            break;
        }
        got++;
        word = n >= 4 ? pp_get32(in) : 0;
        for (i = 0; i < nseen && seen[i] != word; i++) {
            continue;
        }
        if (n >= 4 && i < nseen) {
            dup++;
            continue;
        }
        if (n >= 4 && nseen < AGENT_UDPRECV_MAX) {
            seen[nseen++] = word;
        }
        for (j = 4; n == (ssize_t)len && j < len; j++) {
            if (in[j] != pp_csum_byte(word, j)) {
                break;
            }
        }
        if (n != (ssize_t)len || j < len) {
            corrupt++;
        } else if (word & 1) {
            bad++;
        } else {
            good++;
        }
    }
    close(recv_fd);
    recv_fd = -1;
    reply("OK got=%u good=%u bad=%u corrupt=%u dup=%u", got, good, bad,
          corrupt, dup);
}
