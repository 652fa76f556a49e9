/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp host-side traffic peer.
 *
 * Sits at the far end of a QEMU `-netdev stream` unix socket (each frame
 * is a 4-byte big-endian length then the frame, no FCS) and plays a small
 * host: answers ARP for its IPv4 address and IPv6 neighbour solicitations
 * for its IPv6 address (ndp.c), ICMP echo, UDP echo (port 7),
 * sends pattern frames (tools/wire/proto.h) to the guest and verifies the
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
 *   TCPSEND <dstmac> <ip> <port> <run> <bytes> <mss> [<vid>]
 *                                                 TCP stream to the guest
 *                                                 (on VLAN <vid>)
 *   TCPSENDSTAT                                   TCP source counters
 *   VLAN <vid> <ip>                               also be host <ip> on the
 *                                                 802.1Q VLAN <vid> (ARP,
 *                                                 echo, TCP; 0 0.0.0.0: off)
 *   WAIT <what> [<n>] <timeout_ms>                answer once the condition
 *                                                 holds or the time is up
 *                                                 (control.c)
 *   CSUMBAD <dstmac> <ipv4> <ipv6|-> <port> <bad> <len> [<vid>]
 *                                                 frames with a wrong IPv4
 *                                                 header, UDP or TCP checksum
 *                                                 among good ones (csum.c)
 *   QUIT                                          final counters, exit
 *
 * SIGUSR1 prints the counters too; end of stdin or SIGTERM prints them and
 * exits.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "peer.h"

struct peer_state peer = {
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

void peer_die(const char *fmt, ...)
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

int64_t peer_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const uint8_t *peer_mac(void)
{
    return peer.mac;
}

uint32_t peer_ipv4(void)
{
    return peer.frame_vid && peer.frame_vid == peer.vlan_id ?
           peer.vlan_ip : peer.ip;
}

const uint8_t *peer_ipv6(void)
{
    return peer.ip6;
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
            "  TCPSINK <port> <run> <mss> <logfile> | TCPSTAT | "
            "WAIT <what> [<n>] <ms> | QUIT\n");
}

/* Command lines read from stdin and not run yet. */
static char line[1024];
static size_t line_len;

/*
 * Run the complete lines read so far, up to a QUIT (*running = false) or
 * a WAIT: the lines after a WAIT run once it has been answered.
 */
static void run_lines(bool *running)
{
    char *nl;

    while (*running && !control_waiting() &&
           (nl = memchr(line, '\n', line_len)) != NULL) {
        size_t len = nl - line;

        *nl = '\0';
        *running = control_command(line);
        memmove(line, nl + 1, line_len - len - 1);
        line_len -= len + 1;
    }
    if (line_len == sizeof(line) - 1 && !memchr(line, '\n', line_len)) {
        line_len = 0;   /* overlong line: drop it */
    }
}

/* Read what stdin has and run it; false once stdin is closed. */
static bool read_commands(bool *running)
{
    ssize_t r = read(0, line + line_len, sizeof(line) - 1 - line_len);

    if (r <= 0) {
        return false;
    }
    line_len += r;
    run_lines(running);
    return true;
}

/* The time poll() may sleep: the TCP source retransmits, a WAIT expires. */
static int poll_timeout_ms(void)
{
    int ms = tcpsrc_active() ? 100 : -1;
    int wait = control_wait_poll_ms();

    if (wait >= 0 && (ms < 0 || wait < ms)) {
        ms = wait;
    }
    return ms;
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
        peer_die("bad --mac %s (want xx:xx:xx:xx:xx:xx)", mac);
    }
    if (inet_pton(AF_INET, ip, &peer.ip) != 1) {
        peer_die("bad --ip %s (want a dotted IPv4 address)", ip);
    }
    if (inet_pton(AF_INET6, ip6, peer.ip6) != 1) {
        peer_die("bad --ip6 %s (want an IPv6 address)", ip6);
    }

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (listen_path) {
        peer.listen_fd = stream_socket(listen_path, &sun);
        unlink(listen_path);
        if (bind(peer.listen_fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
            listen(peer.listen_fd, 1) < 0) {
            peer_die("cannot listen on %s: %s", listen_path, strerror(errno));
        }
        peer_emit("{\"event\": \"listening\", \"path\": \"%s\"}", listen_path);
    } else {
        int fd = stream_socket(connect_path, &sun);

        if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
            peer_die("cannot connect to %s: %s", connect_path,
                     strerror(errno));
        }
        stream_connected(fd);
    }

    while (running && !want_quit) {
        struct pollfd pfd[3];
        int n = 0, i_stdin = -1, i_listen = -1, i_conn = -1;

        /* A pending WAIT answers first: commands stay queued meanwhile. */
        if (stdin_open && !control_waiting()) {
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
            control_print_stats("\"event\": \"stats\", ");
        }
        if (n == 0 && !control_waiting()) {
            break;      /* stdin closed and the connection gone */
        }
        if (poll(pfd, n, poll_timeout_ms()) < 0) {
            continue;
        }
        tcpsrc_tick();
        if (peer.out_len) {
            stream_flush();
        }
        if (i_listen >= 0 && (pfd[i_listen].revents & POLLIN)) {
            int fd = accept(peer.listen_fd, NULL, NULL);

            if (fd >= 0) {
                stream_connected(fd);
            }
        }
        if (i_conn >= 0 && pfd[i_conn].revents) {
            if (pfd[i_conn].revents & POLLOUT) {
                stream_flush();
            }
            if (pfd[i_conn].revents & (POLLIN | POLLHUP | POLLERR)) {
                stream_read();
            }
            if (peer.out_len) {
                stream_flush();
            }
        }
        if (i_stdin >= 0 && (pfd[i_stdin].revents & (POLLIN | POLLHUP)) &&
            !read_commands(&running)) {
            stdin_open = false;
            break;
        }
        control_wait_check();
        run_lines(&running);
    }
    control_print_stats("\"event\": \"exit\", ");
    capture_close();
    if (listen_path) {
        unlink(listen_path);
    }
    return 0;
}
