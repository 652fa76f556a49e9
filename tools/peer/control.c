/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: the control channel.  One command a line on stdin, one
 * JSON line a command on stdout (the verbs are listed in peer.c).
 *
 * WAIT lets a test wait for something the peer itself sees happen instead
 * of polling it:
 *
 *   WAIT frames_in <n> <timeout_ms>   frames received from the guest >= n
 *   WAIT rx <n> <timeout_ms>          frames the Rx session accounted
 *                                     (good + bad + dup) >= n
 *   WAIT tcpsink_closed <timeout_ms>  the sink's connection closed
 *   WAIT tcpsrc_done <timeout_ms>     the source's connection closed or
 *                                     reset
 *
 * The answer comes as soon as the condition holds, or when the time is up
 * (a bound for a guest that never sends, not a measure of speed): the
 * answer of STATS, TCPSTAT or TCPSENDSTAT with "met": true or false.
 */

#include <arpa/inet.h>

#include "peer.h"

/* A WAIT may last ten minutes at most. */
#define WAIT_MAX_MS         600000

size_t peer_json_u64(char *buf, size_t size, size_t n, const char *name,
                     uint64_t v)
{
    if (n < size) {
        n += snprintf(buf + n, size - n, ", \"%s\": %llu", name,
                      (unsigned long long)v);
    }
    return n;
}

void control_print_stats(const char *prefix)
{
    struct pp_counters c = pp_rx_counters(&peer.rx);
    char rx[512], fails[1024];

    pp_counters_json(&c, rx, sizeof(rx));
    pp_fails_text(&peer.rx, fails, sizeof(fails));
    printf("{%s\"connected\": %s, \"guest_mac\": \"%s\", "
           "\"rx_active\": %s, \"rx_run\": %u, \"rx_count\": %u, "
           "\"rx\": %s, \"fails\": \"%s\", \"tx_pending_bytes\": %zu",
           prefix, peer.fd >= 0 ? "true" : "false", peer.guest_mac,
           peer.rx.active ? "true" : "false", peer.rx.run, peer.rx.count,
           rx, fails, peer.out_len);
#define PEER_JSON(name) \
    printf(", \"%s\": %llu", #name, (unsigned long long)peer.c.name);
    PEER_COUNTERS(PEER_JSON)
#undef PEER_JSON
    printf("}\n");
    fflush(stdout);
}

/*
 * Queue @count pattern frames of @run for @dst, frame seq lens[seq % nlens]
 * bytes long (pp_frame_len(seq, min, max) without a list), 802.1Q-tagged
 * with @vid unless 0; answers with what was queued.
 */
static void send_pattern(const uint8_t *dst, uint32_t run, uint32_t count,
                         const uint32_t *lens, int nlens, uint32_t min,
                         uint32_t max, uint32_t vid)
{
    static uint8_t frame[PP_MAX_LEN + VLAN_HLEN];
    uint64_t bytes = 0;
    uint32_t seq;

    for (seq = 0; seq < count; seq++) {
        uint32_t len = nlens ? lens[seq % nlens] : pp_frame_len(seq, min, max);

        pp_build(frame, dst, peer.mac, run, seq, len);
        if (vid) {
            /* IEEE 802.1Q: TPID 0x8100 and the tag after the MACs. */
            memmove(frame + 16, frame + 12, len - 12);
            pp_put16(frame + 12, ETH_P_8021Q_TYPE);
            pp_put16(frame + 14, vid);
            peer_queue_frame(frame, len + VLAN_HLEN);
        } else {
            peer_queue_frame(frame, len);
        }
        bytes += len;
    }
    peer.c.tx_pattern_frames += count;
    peer.c.tx_pattern_bytes += bytes;
    stream_flush();
    peer_emit("{\"ok\": true, \"queued\": %u, \"bytes\": %llu}", count,
              (unsigned long long)bytes);
}

static void cmd_tx(int argc, char **argv)
{
    struct pp_tx_words t;
    const char *err = argc == 6 ? pp_parse_tx_words(argv + 1, &t) : "";

    if (err && !*err) {
        peer_emit("{\"ok\": false, \"error\": \"usage: TX <dstmac> <run> "
                  "<count> <minlen> <maxlen>\"}");
    } else if (err) {
        peer_emit("{\"ok\": false, \"error\": \"%s\"}", err);
    } else {
        send_pattern(t.dst, t.run, t.count, NULL, 0, t.min, t.max, 0);
    }
}

static void cmd_txl(int argc, char **argv)
{
    uint32_t lens[PP_LENS_MAX];
    uint8_t dst[PP_ETH_ALEN];
    uint32_t run, repeat, vid = 0;
    int n = argc == 5 || argc == 6 ? pp_parse_lens(argv[3], lens) : -1;

    if (n < 0 || pp_parse_mac(argv[1], dst) < 0 ||
        pp_parse_u32(argv[2], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[4], PP_MAX_COUNT / PP_LENS_MAX, &repeat) < 0 ||
        (argc == 6 && (pp_parse_u32(argv[5], 4094, &vid) < 0 || !vid))) {
        peer_emit("{\"ok\": false, \"error\": \"usage: TXL <dstmac> <run> "
                  "<len,len,...> <repeat> [<vid 1..4094>]\"}");
        return;
    }
    send_pattern(dst, run, n * repeat, lens, n, 0, 0, vid);
}

static void cmd_rx(int argc, char **argv)
{
    struct pp_rx_words r;

    if (pp_parse_rx_words(argv + 1, argc - 1, &r) < 0) {
        peer_emit("{\"ok\": false, \"error\": \"usage: RX <run> <count> "
                  "[<srcmac>] [fcs]\"}");
        return;
    }
    if (pp_rx_start(&peer.rx, r.run, r.count, peer.mac,
                    r.has_src ? r.src : NULL) < 0) {
        peer_emit("{\"ok\": false, \"error\": \"out of memory\"}");
        return;
    }
    peer.rx.fcs = r.fcs;
    peer_emit("{\"ok\": true, \"run\": %u, \"count\": %u}", r.run, r.count);
}

static void cmd_pcap(int argc, char **argv)
{
    if (argc != 2) {
        peer_emit("{\"ok\": false, \"error\": \"usage: PCAP <file>\"}");
        return;
    }
    capture_open(argv[1]);
    peer_emit("{\"ok\": true, \"pcap\": \"%s\"}", argv[1]);
}

/* VLAN <vid> <ipv4>: the second host (peer.h); "0 0.0.0.0" removes it. */
static void cmd_vlan(int argc, char **argv)
{
    uint32_t vid, ip;

    if (argc != 3 || pp_parse_u32(argv[1], 4094, &vid) < 0 ||
        inet_pton(AF_INET, argv[2], &ip) != 1 || !vid != !ip) {
        peer_emit("{\"ok\": false, \"error\": \"usage: VLAN <vid 1..4094> "
                  "<ipv4>, or VLAN 0 0.0.0.0\"}");
        return;
    }
    peer.vlan_id = vid;
    peer.vlan_ip = ip;
    peer_emit("{\"ok\": true, \"vlan\": %u}", vid);
}

static void cmd_stats(int argc PEER_UNUSED, char **argv PEER_UNUSED)
{
    control_print_stats("\"ok\": true, ");
}

static void cmd_tcpstat(int argc PEER_UNUSED, char **argv PEER_UNUSED)
{
    tcpsink_stat("\"ok\": true, ");
}

static void cmd_tcpsendstat(int argc PEER_UNUSED, char **argv PEER_UNUSED)
{
    tcpsrc_stat("\"ok\": true, ");
}

/* --- WAIT -------------------------------------------------------------- */

static bool frames_in_reached(uint32_t n)
{
    return peer.c.frames_in >= n;
}

static bool rx_reached(uint32_t n)
{
    return peer.rx.c.good + peer.rx.c.bad + peer.rx.c.dup >= n;
}

static bool sink_closed(uint32_t n PEER_UNUSED)
{
    return tcpsink_closed();
}

static bool src_done(uint32_t n PEER_UNUSED)
{
    return tcpsrc_done();
}

static const struct wait_kind {
    const char *name;
    bool counted;                       /* takes <n> */
    bool (*met)(uint32_t n);
    void (*answer)(const char *prefix);
} wait_kinds[] = {
    { "frames_in", true, frames_in_reached, control_print_stats },
    { "rx", true, rx_reached, control_print_stats },
    { "tcpsink_closed", false, sink_closed, tcpsink_stat },
    { "tcpsrc_done", false, src_done, tcpsrc_stat },
};

static struct {
    const struct wait_kind *kind;       /* NULL: no WAIT pending */
    uint32_t n;
    int64_t deadline;
} wait;

bool control_waiting(void)
{
    return wait.kind != NULL;
}

int control_wait_poll_ms(void)
{
    int64_t left;

    if (!wait.kind) {
        return -1;
    }
    left = wait.deadline - peer_now_ms();
    return left > 0 ? (int)left : 0;
}

void control_wait_check(void)
{
    bool met;

    if (!wait.kind) {
        return;
    }
    met = wait.kind->met(wait.n);
    if (met || peer_now_ms() >= wait.deadline) {
        const struct wait_kind *kind = wait.kind;

        wait.kind = NULL;
        kind->answer(met ? "\"ok\": true, \"met\": true, " :
                     "\"ok\": true, \"met\": false, ");
    }
}

static void cmd_wait(int argc, char **argv)
{
    const struct wait_kind *kind = NULL;
    uint32_t n = 0, ms;
    size_t i;

    for (i = 0; argc >= 2 && i < sizeof(wait_kinds) / sizeof(wait_kinds[0]);
         i++) {
        if (strcmp(argv[1], wait_kinds[i].name) == 0) {
            kind = &wait_kinds[i];
        }
    }
    if (!kind || argc != (kind->counted ? 4 : 3) ||
        (kind->counted && pp_parse_u32(argv[2], UINT32_MAX, &n) < 0) ||
        pp_parse_u32(argv[argc - 1], WAIT_MAX_MS, &ms) < 0) {
        peer_emit("{\"ok\": false, \"error\": \"usage: WAIT frames_in|rx "
                  "<n> <ms> | WAIT tcpsink_closed|tcpsrc_done <ms> "
                  "(ms <= %d)\"}", WAIT_MAX_MS);
        return;
    }
    wait.kind = kind;
    wait.n = n;
    wait.deadline = peer_now_ms() + ms;
    control_wait_check();
}

/* --- dispatch ---------------------------------------------------------- */

static const struct command {
    const char *name;
    void (*run)(int argc, char **argv);
} commands[] = {
    { "TX", cmd_tx },
    { "TXL", cmd_txl },
    { "RX", cmd_rx },
    { "PCAP", cmd_pcap },
    { "STATS", cmd_stats },
    { "TCPSINK", tcpsink_command },
    { "TCPSTAT", cmd_tcpstat },
    { "TCPSEND", tcpsrc_command },
    { "TCPSENDSTAT", cmd_tcpsendstat },
    { "WAIT", cmd_wait },
    { "VLAN", cmd_vlan },
    { "CSUMBAD", csum_command },
};

bool control_command(char *line)
{
    char *argv[8];
    int argc = 0;
    char *tok, *save = NULL;
    size_t i;

    for (tok = strtok_r(line, " \t\r", &save); tok && argc < 8;
         tok = strtok_r(NULL, " \t\r", &save)) {
        argv[argc++] = tok;
    }
    if (argc == 0) {
        return true;
    }
    if (strcmp(argv[0], "QUIT") == 0) {
        return false;
    }
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(argv[0], commands[i].name) == 0) {
            commands[i].run(argc, argv);
            return true;
        }
    }
    peer_emit("{\"ok\": false, \"error\": \"unknown command %.40s\"}",
              argv[0]);
    return true;
}
