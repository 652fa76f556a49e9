/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp host-side traffic peer.
 *
 * Sits at the far end of a QEMU `-netdev stream` unix socket (each frame
 * is a 4-byte big-endian length then the frame, no FCS) and plays a small
 * host: answers ARP for its IPv4 address and IPv6 neighbour solicitations
 * for its IPv6 address (ndp.c), ICMP echo, UDP echo (port 7),
 * sends pattern frames (guest/agent/proto.h) to the guest and verifies the
 * guest's pattern frames byte for byte, and accepts a TCP stream whose every
 * segment it checks (tcpsink.c).  Every frame in either direction can
 * be written to a pcap file (libpcap, at the moment it is queued or
 * received).
 *
 * Control: one command per line on stdin, one JSON line per command on
 * stdout (events, such as the connection coming up, are JSON lines with an
 * "event" key):
 *
 *   TX <dstmac> <run> <count> <minlen> <maxlen>   queue pattern frames
 *   TXL <dstmac> <run> <lens> <repeat> [<vid>]    pattern frames of explicit
 *                                                 lengths (comma list, frame
 *                                                 seq is lens[seq % n] long),
 *                                                 802.1Q-tagged with <vid>
 *   RX <run> <count> [<srcmac>] [fcs]             start an Rx session (a
 *                                                 tagged pattern frame is
 *                                                 checked without its tag;
 *                                                 "fcs": frames end in their
 *                                                 CRC-32, as the agent's
 *                                                 rx-fcs sessions)
 *   STATS                                         counters, with "fails":
 *                                                 pp_fails_text()
 *   PCAP <file>                                   capture into <file> from
 *                                                 now on (closes the last)
 *   TCPSINK <port> <run> <mss> <logfile>          arm the TCP sink
 *   TCPSTAT                                       TCP sink counters
 *   TCPSEND <dstmac> <ip> <port> <run> <bytes> <mss>
 *                                                 TCP stream to the guest
 *   TCPSENDSTAT                                   TCP source counters
 *   QUIT                                          final counters, exit
 *
 * SIGUSR1 prints the counters too; end of stdin or SIGTERM prints them and
 * exits.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "peer.h"

#define PEER_UNUSED    __attribute__((unused))
#define PEER_FRAME_MAX      65536
#define PEER_INBUF          (4 + PEER_FRAME_MAX)
#define ETH_P_ARP_TYPE      0x0806
#define IP_PROTO_ICMP       1
#define IP_PROTO_UDP        17
#define UDP_ECHO_PORT       7
#define ETH_P_8021Q_TYPE    0x8100
#define VLAN_HLEN           4

/*
 * Peer-only counters (the Rx session's come from proto.h).  Names are the
 * JSON keys of STATS.
 */
#define PEER_COUNTERS(X) \
    X(frames_in) X(bytes_in) X(frames_out) X(bytes_out) \
    X(arp_requests) X(arp_replies) X(icmp_echo_requests) \
    X(icmp_echo_replies) X(udp_echo_requests) X(udp_echo_replies) \
    X(tx_pattern_frames) X(tx_pattern_bytes) X(malformed) X(connections) \
    X(vlan_in)

struct peer_counters {
#define PEER_FIELD(name) uint64_t name;
    PEER_COUNTERS(PEER_FIELD)
#undef PEER_FIELD
};

static struct {
    uint8_t mac[PP_ETH_ALEN];
    uint32_t ip;                /* network order */
    uint8_t ip6[16];
    int listen_fd;
    int fd;                     /* the netdev stream, -1 if none */
    pcap_t *pcap_handle;
    pcap_dumper_t *pcap;
    uint8_t *out;               /* queued stream bytes, length-prefixed */
    size_t out_len, out_cap;
    uint8_t in[PEER_INBUF];
    size_t in_len;
    struct pp_rx_session rx;
    struct peer_counters c;
    char guest_mac[18];
} peer = {
    .listen_fd = -1,
    .fd = -1,
};

static volatile sig_atomic_t want_stats;
static volatile sig_atomic_t want_quit;

static void on_signal(int sig)
{
    if (sig == SIGUSR1) {
        want_stats = 1;
    } else {
        want_quit = 1;
    }
}

static void die(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "e1000epp-peer: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(2);
}

void peer_emit(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* --- pcap (libpcap, LINKTYPE_ETHERNET) ------------------------------- */

static void capture_close(void)
{
    if (peer.pcap) {
        pcap_dump_close(peer.pcap);
        pcap_close(peer.pcap_handle);
        peer.pcap = NULL;
        peer.pcap_handle = NULL;
    }
}

static void capture_open(const char *path)
{
    capture_close();
    peer.pcap_handle = pcap_open_dead(DLT_EN10MB, PEER_FRAME_MAX);
    if (!peer.pcap_handle) {
        die("pcap_open_dead failed");
    }
    peer.pcap = pcap_dump_open(peer.pcap_handle, path);
    if (!peer.pcap) {
        die("cannot write pcap %s: %s", path,
            pcap_geterr(peer.pcap_handle));
    }
    pcap_dump_flush(peer.pcap);
}

static void capture_write(const uint8_t *frame, size_t len)
{
    struct pcap_pkthdr hdr;

    if (!peer.pcap) {
        return;
    }
    gettimeofday(&hdr.ts, NULL);
    hdr.caplen = len;
    hdr.len = len;
    pcap_dump((u_char *)peer.pcap, &hdr, frame);
    pcap_dump_flush(peer.pcap);
}

/* --- sending ---------------------------------------------------------- */

void peer_queue_frame(const uint8_t *frame, size_t len)
{
    if (peer.out_len + 4 + len > peer.out_cap) {
        size_t cap = peer.out_cap ? peer.out_cap : 65536;

        while (cap < peer.out_len + 4 + len) {
            cap *= 2;
        }
        peer.out = realloc(peer.out, cap);
        if (!peer.out) {
            die("out of memory");
        }
        peer.out_cap = cap;
    }
    pp_put32(peer.out + peer.out_len, len);
    memcpy(peer.out + peer.out_len + 4, frame, len);
    peer.out_len += 4 + len;
    peer.c.frames_out++;
    peer.c.bytes_out += len;
    capture_write(frame, len);
}

static void flush_out(void)
{
    size_t done = 0;

    while (peer.fd >= 0 && done < peer.out_len) {
        ssize_t n = send(peer.fd, peer.out + done, peer.out_len - done,
                         MSG_DONTWAIT | MSG_NOSIGNAL);

        if (n < 0) {
            break;
        }
        done += n;
    }
    memmove(peer.out, peer.out + done, peer.out_len - done);
    peer.out_len -= done;
}

/* --- protocols -------------------------------------------------------- */

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

static void handle_arp(const uint8_t *f, size_t len)
{
    uint8_t r[60];
    const uint8_t *a = f + PP_ETH_HLEN;

    /* Ethernet/IPv4 request (htype 1, ptype 0x0800, 6/4, op 1) for us. */
    if (len < PP_ETH_HLEN + 28 || pp_get16(a) != 1 ||
        pp_get16(a + 2) != ETH_P_IPV4 || a[4] != 6 || a[5] != 4 ||
        pp_get16(a + 6) != 1 || memcmp(a + 24, &peer.ip, 4) != 0) {
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
    memcpy(r + 28, &peer.ip, 4);
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
    ip[8] = 64;
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
    uint32_t pseudo = 0;

    memcpy(ports, l4, 2);
    memcpy(l4, l4 + 2, 2);
    memcpy(l4 + 2, ports, 2);
    pp_put16(l4 + 6, 0);
    pseudo += pp_get16(ip + 12) + pp_get16(ip + 14);
    pseudo += pp_get16(ip + 16) + pp_get16(ip + 18);
    pseudo += IP_PROTO_UDP + l4len;
    pp_put16(l4 + 6, peer_checksum(l4, l4len, pseudo) ?: 0xffff);
}

static void handle_ipv4(const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + PP_ETH_HLEN;
    size_t ihl, tot;

    if (len < PP_ETH_HLEN + 20 || (ip[0] >> 4) != 4) {
        return;
    }
    if (ip[9] == IP_PROTO_TCP && memcmp(ip + 16, &peer.ip, 4) == 0) {
        if (!tcpsrc_ipv4(f, len)) {
            tcpsink_ipv4(f, len);
        }
        return;
    }
    ihl = (ip[0] & 0xf) * 4;
    tot = pp_get16(ip + 2);
    if (ihl < 20 || tot < ihl + 8 || PP_ETH_HLEN + tot > len ||
        memcmp(ip + 16, &peer.ip, 4) != 0 ||
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

static void handle_frame(const uint8_t *f, size_t len)
{
    uint16_t type;

    peer.c.frames_in++;
    peer.c.bytes_in += len;
    capture_write(f, len);
    if (len < PP_ETH_HLEN) {
        peer.c.malformed++;
        return;
    }
    if (!peer.guest_mac[0] && !(f[6] & 1)) {
        pp_format_mac(f + PP_ETH_ALEN, peer.guest_mac);
    }
    type = pp_get16(f + 12);
    if (type == ETH_P_8021Q_TYPE && len >= PP_ETH_HLEN + VLAN_HLEN &&
        pp_get16(f + 16) == PP_ETHERTYPE) {
        static uint8_t untagged[PEER_FRAME_MAX];

        /* A tagged pattern frame is checked as the untagged one. */
        peer.c.vlan_in++;
        memcpy(untagged, f, 12);
        memcpy(untagged + 12, f + 16, len - 16);
        if (peer.rx.active) {
            pp_rx_account(&peer.rx, untagged, len - VLAN_HLEN);
        }
    } else if (type == PP_ETHERTYPE) {
        if (peer.rx.active) {
            pp_rx_account(&peer.rx, f, len);
        }
    } else if (type == ETH_P_ARP_TYPE) {
        handle_arp(f, len);
    } else if (type == ETH_P_IPV4) {
        handle_ipv4(f, len);
    } else if (type == ETH_P_IPV6_TYPE) {
        peer_ipv6_frame(f, len);
    }
}

/* --- connection ------------------------------------------------------- */

static void disconnect(void)
{
    close(peer.fd);
    peer.fd = -1;
    peer.in_len = 0;
    peer_emit("{\"event\": \"disconnected\"}");
}

static void read_stream(void)
{
    ssize_t n = recv(peer.fd, peer.in + peer.in_len,
                     sizeof(peer.in) - peer.in_len, MSG_DONTWAIT);
    size_t off = 0;

    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        return;
    }
    if (n <= 0) {
        disconnect();
        return;
    }
    peer.in_len += n;
    while (peer.in_len - off >= 4) {
        uint32_t flen = pp_get32(peer.in + off);

        if (flen > PEER_FRAME_MAX) {
            peer.c.malformed++;
            peer_emit("{\"event\": \"error\", \"error\": \"frame length %u\"}",
                      flen);
            disconnect();
            return;
        }
        if (peer.in_len - off < 4 + flen) {
            break;
        }
        handle_frame(peer.in + off + 4, flen);
        off += 4 + flen;
    }
    memmove(peer.in, peer.in + off, peer.in_len - off);
    peer.in_len -= off;
}

static int unix_socket(const char *path, struct sockaddr_un *sun)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    if (fd < 0) {
        die("socket: %s", strerror(errno));
    }
    if (strlen(path) >= sizeof(sun->sun_path)) {
        die("socket path too long (max %zu): %s",
            sizeof(sun->sun_path) - 1, path);
    }
    memset(sun, 0, sizeof(*sun));
    sun->sun_family = AF_UNIX;
    strcpy(sun->sun_path, path);
    return fd;
}

static void set_buffers(int fd)
{
    int size = 4 * 1024 * 1024;

    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

/* --- control ---------------------------------------------------------- */

static void print_stats(const char *prefix)
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

static void cmd_tx(int argc, char **argv)
{
    static uint8_t frame[PP_MAX_LEN];
    uint8_t dst[PP_ETH_ALEN];
    uint32_t run, count, min, max, seq;
    uint64_t bytes = 0;
    const char *err;

    if (argc != 6 || pp_parse_mac(argv[1], dst) < 0 ||
        pp_parse_u32(argv[2], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[3], PP_MAX_COUNT, &count) < 0 ||
        pp_parse_u32(argv[4], PP_MAX_LEN, &min) < 0 ||
        pp_parse_u32(argv[5], PP_MAX_LEN, &max) < 0) {
        peer_emit("{\"ok\": false, \"error\": \"usage: TX <dstmac> <run> "
                  "<count> <minlen> <maxlen>\"}");
        return;
    }
    err = pp_check_range(min, max);
    if (err) {
        peer_emit("{\"ok\": false, \"error\": \"%s\"}", err);
        return;
    }
    for (seq = 0; seq < count; seq++) {
        uint32_t len = pp_frame_len(seq, min, max);

        pp_build(frame, dst, peer.mac, run, seq, len);
        peer_queue_frame(frame, len);
        bytes += len;
    }
    peer.c.tx_pattern_frames += count;
    peer.c.tx_pattern_bytes += bytes;
    flush_out();
    peer_emit("{\"ok\": true, \"queued\": %u, \"bytes\": %llu}", count,
              (unsigned long long)bytes);
}

static void cmd_txl(int argc, char **argv)
{
    static uint8_t frame[PP_MAX_LEN + VLAN_HLEN];
    uint32_t lens[PP_LENS_MAX];
    uint8_t dst[PP_ETH_ALEN];
    uint32_t run, repeat, vid = 0, seq, count;
    uint64_t bytes = 0;
    int n = argc == 5 || argc == 6 ? pp_parse_lens(argv[3], lens) : -1;

    if (n < 0 || pp_parse_mac(argv[1], dst) < 0 ||
        pp_parse_u32(argv[2], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[4], PP_MAX_COUNT / PP_LENS_MAX, &repeat) < 0 ||
        (argc == 6 && (pp_parse_u32(argv[5], 4094, &vid) < 0 || !vid))) {
        peer_emit("{\"ok\": false, \"error\": \"usage: TXL <dstmac> <run> "
                  "<len,len,...> <repeat> [<vid 1..4094>]\"}");
        return;
    }
    count = n * repeat;
    for (seq = 0; seq < count; seq++) {
        uint32_t len = lens[seq % n];

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
    flush_out();
    peer_emit("{\"ok\": true, \"queued\": %u, \"bytes\": %llu}", count,
              (unsigned long long)bytes);
}

static void cmd_rx(int argc, char **argv)
{
    uint8_t src[PP_ETH_ALEN];
    uint32_t run, count;
    bool fcs = argc > 3 && strcmp(argv[argc - 1], "fcs") == 0;

    if (fcs) {
        argc--;
    }
    if ((argc != 3 && argc != 4) ||
        pp_parse_u32(argv[1], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[2], PP_MAX_COUNT, &count) < 0 ||
        (argc == 4 && pp_parse_mac(argv[3], src) < 0)) {
        peer_emit("{\"ok\": false, \"error\": \"usage: RX <run> <count> "
                  "[<srcmac>] [fcs]\"}");
        return;
    }
    if (pp_rx_start(&peer.rx, run, count, peer.mac,
                    argc == 4 ? src : NULL) < 0) {
        peer_emit("{\"ok\": false, \"error\": \"out of memory\"}");
        return;
    }
    peer.rx.fcs = fcs;
    peer_emit("{\"ok\": true, \"run\": %u, \"count\": %u}", run, count);
}

/* Returns false on QUIT. */
static bool handle_command(char *line)
{
    char *argv[8];
    int argc = 0;
    char *tok, *save = NULL;

    for (tok = strtok_r(line, " \t\r", &save); tok && argc < 8;
         tok = strtok_r(NULL, " \t\r", &save)) {
        argv[argc++] = tok;
    }
    if (argc == 0) {
        return true;
    }
    if (strcmp(argv[0], "TX") == 0) {
        cmd_tx(argc, argv);
    } else if (strcmp(argv[0], "TXL") == 0) {
        cmd_txl(argc, argv);
    } else if (strcmp(argv[0], "RX") == 0) {
        cmd_rx(argc, argv);
    } else if (strcmp(argv[0], "PCAP") == 0 && argc == 2) {
        capture_open(argv[1]);
        peer_emit("{\"ok\": true, \"pcap\": \"%s\"}", argv[1]);
    } else if (strcmp(argv[0], "STATS") == 0) {
        print_stats("\"ok\": true, ");
    } else if (strcmp(argv[0], "TCPSINK") == 0) {
        tcpsink_command(argc, argv);
    } else if (strcmp(argv[0], "TCPSTAT") == 0) {
        tcpsink_stat();
    } else if (strcmp(argv[0], "TCPSEND") == 0) {
        tcpsrc_command(argc, argv);
    } else if (strcmp(argv[0], "TCPSENDSTAT") == 0) {
        tcpsrc_stat();
    } else if (strcmp(argv[0], "QUIT") == 0) {
        return false;
    } else {
        peer_emit("{\"ok\": false, \"error\": \"unknown command %.40s\"}",
                  argv[0]);
    }
    return true;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: e1000epp-peer (--listen PATH | --connect PATH) [options]\n"
            "  --listen PATH    listen on a unix socket; QEMU connects with\n"
            "                   -netdev stream,server=off,addr.type=unix,"
            "addr.path=PATH\n"
            "  --connect PATH   connect to QEMU's -netdev stream,server=on\n"
            "  --mac MAC        peer MAC (default 02:00:00:00:00:01)\n"
            "  --ip ADDR        peer IPv4 address (default 198.18.0.1)\n"
            "  --ip6 ADDR       peer IPv6 address (default 2001:2::1)\n"
            "  --pcap FILE      write every frame seen or sent to FILE\n"
            "Commands on stdin: TX <dstmac> <run> <count> <min> <max> | "
            "RX <run> <count> [<srcmac>] | STATS |\n"
            "  TCPSINK <port> <run> <mss> <logfile> | TCPSTAT | QUIT\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "listen", required_argument, NULL, 'l' },
        { "connect", required_argument, NULL, 'c' },
        { "mac", required_argument, NULL, 'm' },
        { "ip", required_argument, NULL, 'i' },
        { "ip6", required_argument, NULL, '6' },
        { "pcap", required_argument, NULL, 'p' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *listen_path = NULL, *connect_path = NULL;
    const char *mac = "02:00:00:00:00:01", *ip = "198.18.0.1";
    const char *ip6 = "2001:2::1";
    static char line[1024];
    size_t line_len = 0;
    bool running = true, stdin_open = true;
    struct sockaddr_un sun;
    struct sigaction sa;
    int opt;

    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 'l':
            listen_path = optarg;
            break;
        case 'c':
            connect_path = optarg;
            break;
        case 'm':
            mac = optarg;
            break;
        case 'i':
            ip = optarg;
            break;
        case '6':
            ip6 = optarg;
            break;
        case 'p':
            capture_open(optarg);
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc || !listen_path == !connect_path) {
        usage(stderr);
        return 2;
    }
    if (pp_parse_mac(mac, peer.mac) < 0) {
        die("bad --mac %s (want xx:xx:xx:xx:xx:xx)", mac);
    }
    if (inet_pton(AF_INET, ip, &peer.ip) != 1) {
        die("bad --ip %s (want a dotted IPv4 address)", ip);
    }
    if (inet_pton(AF_INET6, ip6, peer.ip6) != 1) {
        die("bad --ip6 %s (want an IPv6 address)", ip6);
    }

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (listen_path) {
        peer.listen_fd = unix_socket(listen_path, &sun);
        unlink(listen_path);
        if (bind(peer.listen_fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
            listen(peer.listen_fd, 1) < 0) {
            die("cannot listen on %s: %s", listen_path, strerror(errno));
        }
        peer_emit("{\"event\": \"listening\", \"path\": \"%s\"}", listen_path);
    } else {
        peer.fd = unix_socket(connect_path, &sun);
        if (connect(peer.fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
            die("cannot connect to %s: %s", connect_path, strerror(errno));
        }
        set_buffers(peer.fd);
        peer.c.connections++;
        peer_emit("{\"event\": \"connected\"}");
    }

    while (running && !want_quit) {
        struct pollfd pfd[3];
        int n = 0, i_stdin = -1, i_listen = -1, i_conn = -1;

        if (stdin_open) {
            i_stdin = n;
            pfd[n++] = (struct pollfd){ .fd = 0, .events = POLLIN };
        }
        if (peer.listen_fd >= 0 && peer.fd < 0) {
            i_listen = n;
            pfd[n++] = (struct pollfd){ .fd = peer.listen_fd,
                                        .events = POLLIN };
        }
        if (peer.fd >= 0) {
            i_conn = n;
            pfd[n++] = (struct pollfd){
                .fd = peer.fd,
                .events = POLLIN | (peer.out_len ? POLLOUT : 0),
            };
        }
        if (want_stats) {
            want_stats = 0;
            print_stats("\"event\": \"stats\", ");
        }
        if (n == 0) {
            break;      /* stdin closed and the connection gone */
        }
        /* The TCP source retransmits on a timer. */
        if (poll(pfd, n, tcpsrc_active() ? 100 : -1) < 0) {
            continue;
        }
        tcpsrc_tick();
        if (peer.out_len) {
            flush_out();
        }
        if (i_listen >= 0 && (pfd[i_listen].revents & POLLIN)) {
            peer.fd = accept(peer.listen_fd, NULL, NULL);
            if (peer.fd >= 0) {
                set_buffers(peer.fd);
                peer.c.connections++;
                peer_emit("{\"event\": \"connected\"}");
                flush_out();
            }
        }
        if (i_conn >= 0 && pfd[i_conn].revents) {
            if (pfd[i_conn].revents & POLLOUT) {
                flush_out();
            }
            if (pfd[i_conn].revents & (POLLIN | POLLHUP | POLLERR)) {
                read_stream();
            }
            if (peer.out_len) {
                flush_out();
            }
        }
        if (i_stdin >= 0 && (pfd[i_stdin].revents & (POLLIN | POLLHUP))) {
            ssize_t r = read(0, line + line_len, sizeof(line) - 1 - line_len);
            char *nl;

            if (r <= 0) {
                stdin_open = false;
                break;
            }
            line_len += r;
            while ((nl = memchr(line, '\n', line_len)) != NULL) {
                size_t len = nl - line;

                *nl = '\0';
                running = handle_command(line);
                memmove(line, nl + 1, line_len - len - 1);
                line_len -= len + 1;
                if (!running) {
                    break;
                }
            }
            if (line_len == sizeof(line) - 1) {
                line_len = 0;   /* overlong line: drop it */
            }
        }
    }
    print_stats("\"event\": \"exit\", ");
    capture_close();
    if (listen_path) {
        unlink(listen_path);
    }
    return 0;
}

/* --- what the protocol modules use (peer.h) ---------------------------- */

const uint8_t *peer_mac(void)
{
    return peer.mac;
}

uint32_t peer_ipv4(void)
{
    return peer.ip;
}

const uint8_t *peer_ipv6(void)
{
    return peer.ip6;
}
