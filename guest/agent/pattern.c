/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: pattern frames (proto.h) on an AF_PACKET socket, both
 * ways.
 *
 *   TX <if> <dst> <run> <count> <min> <max>     OK sent=<n> bytes=<n>
 *   TXL <if> <dst> <run> <lens> <repeat>        lengths from a list
 *   RXSTART <if> <run> <count> [<src>] [fcs]    start a receive session
 *   RXSTAT                                      OK <counters> fails=<text>
 *   RXWAIT <timeout_ms>                         RXSTAT once good + bad + dup
 *                                               reach <count>, or the time
 *                                               is up; met=1 or met=0
 *   RXSTOP                                      RXSTAT, session closed
 *
 * A session's frames are drained whenever the agent is idle, into a socket
 * buffer large enough for a whole run, so the host may start the sender
 * right after RXSTART returns.
 */

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"

#define AGENT_RCVBUF        (64 * 1024 * 1024)
#define AGENT_TX_DEADLINE   60
/* A RXWAIT may last ten minutes at most. */
#define AGENT_RXWAIT_MAX_MS 600000

static int rx_fd = -1;
static struct pp_rx_session rx_session;

/*
 * Send @count pattern frames of @run, frame seq @len_of(seq) bytes long,
 * from @ifname to @dst; replies OK sent=<n> bytes=<n> or ERR.
 */
static void send_pattern(const char *ifname, const uint8_t *dst,
                         uint32_t run, uint32_t count, const uint32_t *lens,
                         int nlens, uint32_t min, uint32_t max)
{
    static uint8_t frame[PP_MAX_LEN];
    uint8_t src[PP_ETH_ALEN];
    uint64_t bytes = 0;
    int64_t deadline = now_ms() + AGENT_TX_DEADLINE * 1000;
    uint32_t seq;
    int ifindex, fd;

    if (if_mac(ifname, src, &ifindex) < 0) {
        reply("ERR no interface %s: %s", ifname, strerror(errno));
        return;
    }
    fd = packet_socket(ifindex, PP_ETHERTYPE, 0, false);
    if (fd < 0) {
        reply("ERR packet socket: %s", strerror(errno));
        return;
    }
    for (seq = 0; seq < count; seq++) {
        uint32_t len = nlens ? lens[seq % nlens] : pp_frame_len(seq, min, max);

        pp_build(frame, dst, src, run, seq, len);
        for (;;) {
            ssize_t n = send(fd, frame, len, 0);

            if (n == (ssize_t)len) {
                break;
            }
            /* Qdisc or driver queue full: wait for it to drain. */
            if (n < 0 && (errno == ENOBUFS || errno == EAGAIN ||
                          errno == EINTR) && now_ms() < deadline) {
                usleep(1000);
                continue;
            }
            reply("ERR send seq %u len %u: %s (sent=%u bytes=%llu)", seq,
                  len, n < 0 ? strerror(errno) : "short write", seq,
                  (unsigned long long)bytes);
            close(fd);
            return;
        }
        bytes += len;
    }
    close(fd);
    reply("OK sent=%u bytes=%llu", count, (unsigned long long)bytes);
}

void cmd_tx(int argc, char **argv)
{
    struct pp_tx_words t;
    const char *err = argc == 7 ? pp_parse_tx_words(argv + 2, &t) : "";

    if (err && !*err) {
        reply("ERR usage: TX <if> <dstmac> <run> <count> <minlen> <maxlen>");
    } else if (err) {
        reply("ERR %s", err);
    } else {
        send_pattern(argv[1], t.dst, t.run, t.count, NULL, 0, t.min, t.max);
    }
}

void cmd_txl(int argc, char **argv)
{
    uint8_t dst[PP_ETH_ALEN];
    uint32_t lens[PP_LENS_MAX];
    uint32_t run, repeat;
    int n = argc == 6 ? pp_parse_lens(argv[4], lens) : -1;

    if (n < 0 || pp_parse_mac(argv[2], dst) < 0 ||
        pp_parse_u32(argv[3], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[5], PP_MAX_COUNT / PP_LENS_MAX, &repeat) < 0) {
        reply("ERR usage: TXL <if> <dstmac> <run> <len,len,...> <repeat>");
        return;
    }
    send_pattern(argv[1], dst, run, n * repeat, lens, n, 0, 0);
}

int pattern_rx_fd(void)
{
    return rx_fd;
}

void pattern_rx_drain(void)
{
    static uint8_t frame[PP_MAX_LEN + 1];

    if (rx_fd < 0) {
        return;
    }
    for (;;) {
        ssize_t n = recv(rx_fd, frame, sizeof(frame), MSG_DONTWAIT);

        if (n < 0) {
            return;
        }
        pp_rx_account(&rx_session, frame, n);
    }
}

/* OK, the counters, the failures and @extra. */
static void reply_counters(const char *extra)
{
    struct pp_counters c = pp_rx_counters(&rx_session);
    char text[512], fails[1024];

    pp_counters_kv(&c, text, sizeof(text));
    pp_fails_text(&rx_session, fails, sizeof(fails));
    reply("OK %s fails=%s%s", text, fails, extra);
}

void cmd_rxstart(int argc, char **argv)
{
    uint8_t mac[PP_ETH_ALEN];
    struct pp_rx_words r;
    int ifindex;

    if (argc < 2 || pp_parse_rx_words(argv + 2, argc - 2, &r) < 0) {
        reply("ERR usage: RXSTART <if> <run> <count> [<srcmac>] [fcs]");
        return;
    }
    if (if_mac(argv[1], mac, &ifindex) < 0) {
        reply("ERR no interface %s: %s", argv[1], strerror(errno));
        return;
    }
    if (rx_fd >= 0) {
        close(rx_fd);
        rx_fd = -1;
    }
    rx_fd = packet_socket(ifindex, PP_ETHERTYPE, AGENT_RCVBUF, false);
    if (rx_fd < 0) {
        reply("ERR packet socket: %s", strerror(errno));
        return;
    }
    if (pp_rx_start(&rx_session, r.run, r.count, mac,
                    r.has_src ? r.src : NULL) < 0) {
        close(rx_fd);
        rx_fd = -1;
        reply("ERR out of memory");
        return;
    }
    rx_session.fcs = r.fcs;
    reply("OK run=%u count=%u fcs=%d", r.run, r.count, r.fcs);
}

void cmd_rxstat(int argc, char **argv)
{
    bool stop = argc > 0 && strcmp(argv[0], "RXSTOP") == 0;

    if (!rx_session.active) {
        reply("ERR no rx session");
        return;
    }
    pattern_rx_drain();
    reply_counters("");
    if (stop) {
        close(rx_fd);
        rx_fd = -1;
        pp_rx_stop(&rx_session);
    }
}

static bool rx_all_seen(void)
{
    const struct pp_counters *c = &rx_session.c;

    return c->good + c->bad + c->dup >= rx_session.count;
}

/*
 * Drain until every frame of the session is accounted for (the
 * condition a test waits for) or @timeout_ms pass: the bound is for a
 * sender that never sends, not a measure of speed.
 */
void cmd_rxwait(int argc, char **argv)
{
    uint32_t timeout;
    int64_t deadline;

    if (argc != 2 || pp_parse_u32(argv[1], AGENT_RXWAIT_MAX_MS,
                                  &timeout) < 0) {
        reply("ERR usage: RXWAIT <timeout_ms 0..%d>", AGENT_RXWAIT_MAX_MS);
        return;
    }
    if (!rx_session.active) {
        reply("ERR no rx session");
        return;
    }
    deadline = now_ms() + timeout;
    pattern_rx_drain();
    while (!rx_all_seen() && wait_readable(rx_fd, deadline)) {
        pattern_rx_drain();
    }
    reply_counters(rx_all_seen() ? " met=1" : " met=0");
}
