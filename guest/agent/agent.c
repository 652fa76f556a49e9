/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp in-guest agent.
 *
 * Serves the host over a serial port (/dev/ttyS1, a unix-socket chardev on
 * the host side) with a line protocol: one request line, then any number of
 * "D <text>" data lines, then one terminator line "OK [...]" or
 * "ERR <reason>".  Verbs:
 *
 *   HELLO [token]                   OK HELLO <token> proto=<n>
 *   SH <command>                    output as D lines, OK rc=<exit status>
 *   SHT <seconds> <command>         SH with its own timeout (default 60 s)
 *   MAC <ifname>                    OK <mac>
 *   TX <if> <dst> <run> <count> <min> <max>
 *                                   send pattern frames (proto.h) on an
 *                                   AF_PACKET socket; OK sent=<n> bytes=<n>
 *   TXL <if> <dst> <run> <lens> <repeat>
 *                                   TX with explicit lengths: <lens> is a
 *                                   comma list, frame seq has length
 *                                   lens[seq % n]; n * <repeat> frames
 *   RXSTART <if> <run> <count> [<src>] [fcs]
 *                                   start counting pattern frames of <run>
 *                                   addressed to <if>'s MAC (and from
 *                                   <src>); with "fcs" every frame must end
 *                                   in its CRC-32 (ethtool -K rx-fcs on)
 *   RXSTAT                          OK <counters>  (proto.h names)
 *   RXSTOP                          OK <counters> fails=<pp_fails_text>,
 *                                   session closed
 *   UDP <ip> <port> <count> <len> <timeout_ms>
 *                                   UDP echo through the peer;
 *                                   OK sent=<n> echoed=<n> bad=<n>
 *   TCPTX <if> <ip> <port> <run> <bytes> <chunk> <timeout_s>
 *                                   a TCP stream to the peer's sink, with
 *                                   what the stack handed the driver
 *                                   (tcptx.c)
 *   TCPRX <port> <run> <bytes> <timeout_s>
 *                                   accept a TCP stream from the peer and
 *                                   check every byte (tcprx.c)
 *   QUIT                            OK, then the agent exits
 *
 * Frames of an Rx session are drained whenever the agent is idle, into a
 * socket buffer large enough for a whole run, so the host may start the
 * sender right after RXSTART returns.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

#define AGENT_LINE_MAX      4096
#define AGENT_SH_TIMEOUT    60
#define AGENT_RCVBUF        (64 * 1024 * 1024)
#define AGENT_TX_DEADLINE   60
/* Largest UDP payload: a 16 KB frame less Ethernet, IPv4 and UDP headers. */
#define AGENT_UDP_MAX       (PP_MAX_LEN - 14 - 20 - 8)

static int serial_fd = -1;
static int rx_fd = -1;
static struct pp_rx_session rx_session;

int64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);

        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            return;
        }
        buf += n;
        len -= n;
    }
}

void reply(const char *fmt, ...)
{
    char line[AGENT_LINE_MAX + 8];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if ((size_t)n > sizeof(line) - 2) {
        n = sizeof(line) - 2;
    }
    line[n++] = '\n';
    write_all(serial_fd, line, n);
}

/* One data line; control characters other than tab become '?'. */
void reply_data(const char *text, size_t len)
{
    char line[AGENT_LINE_MAX + 4];
    size_t i, n = 0;

    memcpy(line, PP_LINE_DATA, 2);
    n = 2;
    for (i = 0; i < len && n < sizeof(line) - 1; i++) {
        unsigned char ch = text[i];

        line[n++] = (ch < 0x20 && ch != '\t') || ch == 0x7f ? '?' : ch;
    }
    line[n++] = '\n';
    write_all(serial_fd, line, n);
}

/* Split @s at spaces into at most @max words; returns the count. */
static int split_words(char *s, char **argv, int max)
{
    int argc = 0;

    while (*s && argc < max) {
        while (*s == ' ') {
            s++;
        }
        if (!*s) {
            break;
        }
        argv[argc++] = s;
        while (*s && *s != ' ') {
            s++;
        }
        if (*s) {
            *s++ = '\0';
        }
    }
    return argc;
}

int if_mac(const char *ifname, uint8_t *mac, int *ifindex)
{
    struct ifreq ifr;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int ret = -1;

    if (fd < 0) {
        return -1;
    }
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(fd, SIOCGIFHWADDR, &ifr) == 0) {
        memcpy(mac, ifr.ifr_hwaddr.sa_data, PP_ETH_ALEN);
        if (ioctl(fd, SIOCGIFINDEX, &ifr) == 0) {
            *ifindex = ifr.ifr_ifindex;
            ret = 0;
        }
    }
    close(fd);
    return ret;
}

static int packet_socket(int ifindex)
{
    struct sockaddr_ll sll;
    int fd = socket(AF_PACKET, SOCK_RAW, htons(PP_ETHERTYPE));

    if (fd < 0) {
        return -1;
    }
    memset(&sll, 0, sizeof(sll));
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(PP_ETHERTYPE);
    sll.sll_ifindex = ifindex;
    if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void cmd_sh(int timeout_s, const char *command)
{
    int pipefd[2];
    pid_t pid;
    char buf[AGENT_LINE_MAX];
    size_t fill = 0;
    int64_t deadline = now_ms() + (int64_t)timeout_s * 1000;
    bool timed_out = false;
    int status;

    if (pipe(pipefd) < 0) {
        reply("ERR pipe: %s", strerror(errno));
        return;
    }
    pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        reply("ERR fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);

        setsid();
        dup2(devnull, 0);
        dup2(pipefd[1], 1);
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        close(pipefd[1]);
        close(serial_fd);
        if (rx_fd >= 0) {
            close(rx_fd);
        }
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(pipefd[1]);
    for (;;) {
        struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
        int64_t left = deadline - now_ms();
        ssize_t n;
        char *nl;

        if (left <= 0) {
            timed_out = true;
            kill(-pid, SIGKILL);
            break;
        }
        if (poll(&pfd, 1, left) <= 0) {
            continue;
        }
        n = read(pipefd[0], buf + fill, sizeof(buf) - fill);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        fill += n;
        while ((nl = memchr(buf, '\n', fill)) != NULL) {
            size_t len = nl - buf;

            reply_data(buf, len);
            memmove(buf, nl + 1, fill - len - 1);
            fill -= len + 1;
        }
        if (fill == sizeof(buf)) {
            reply_data(buf, fill);
            fill = 0;
        }
    }
    if (fill > 0) {
        reply_data(buf, fill);
    }
    close(pipefd[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        continue;
    }
    if (timed_out) {
        reply("ERR timeout after %d s", timeout_s);
    } else if (WIFEXITED(status)) {
        reply("OK rc=%d", WEXITSTATUS(status));
    } else {
        reply("OK rc=%d", 128 + WTERMSIG(status));
    }
}

static void cmd_mac(int argc, char **argv)
{
    uint8_t mac[PP_ETH_ALEN];
    char text[18];
    int ifindex;

    if (argc != 2) {
        reply("ERR usage: MAC <ifname>");
        return;
    }
    if (if_mac(argv[1], mac, &ifindex) < 0) {
        reply("ERR no interface %s: %s", argv[1], strerror(errno));
        return;
    }
    pp_format_mac(mac, text);
    reply("OK %s", text);
}

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
    fd = packet_socket(ifindex);
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

static void cmd_tx(int argc, char **argv)
{
    uint8_t dst[PP_ETH_ALEN];
    uint32_t run, count, min, max;
    const char *range_err;

    if (argc != 7 || pp_parse_mac(argv[2], dst) < 0 ||
        pp_parse_u32(argv[3], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[4], PP_MAX_COUNT, &count) < 0 ||
        pp_parse_u32(argv[5], PP_MAX_LEN, &min) < 0 ||
        pp_parse_u32(argv[6], PP_MAX_LEN, &max) < 0) {
        reply("ERR usage: TX <if> <dstmac> <run> <count> <minlen> <maxlen>");
        return;
    }
    range_err = pp_check_range(min, max);
    if (range_err) {
        reply("ERR %s", range_err);
        return;
    }
    send_pattern(argv[1], dst, run, count, NULL, 0, min, max);
}

static void cmd_txl(int argc, char **argv)
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

static void rx_drain(void)
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

static void reply_counters(void)
{
    struct pp_counters c = pp_rx_counters(&rx_session);
    char text[512], fails[1024];

    pp_counters_kv(&c, text, sizeof(text));
    pp_fails_text(&rx_session, fails, sizeof(fails));
    reply("OK %s fails=%s", text, fails);
}

static void cmd_rxstart(int argc, char **argv)
{
    uint8_t mac[PP_ETH_ALEN], src[PP_ETH_ALEN];
    uint32_t run, count;
    int ifindex, size = AGENT_RCVBUF;
    bool fcs = argc > 4 && strcmp(argv[argc - 1], "fcs") == 0;

    if (fcs) {
        argc--;
    }
    if ((argc != 4 && argc != 5) ||
        pp_parse_u32(argv[2], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[3], PP_MAX_COUNT, &count) < 0 ||
        (argc == 5 && pp_parse_mac(argv[4], src) < 0)) {
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
    rx_fd = packet_socket(ifindex);
    if (rx_fd < 0) {
        reply("ERR packet socket: %s", strerror(errno));
        return;
    }
    if (setsockopt(rx_fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
                   sizeof(size)) < 0) {
        setsockopt(rx_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    }
    if (pp_rx_start(&rx_session, run, count, mac,
                    argc == 5 ? src : NULL) < 0) {
        close(rx_fd);
        rx_fd = -1;
        reply("ERR out of memory");
        return;
    }
    rx_session.fcs = fcs;
    reply("OK run=%u count=%u fcs=%d", run, count, fcs);
}

static void cmd_rxstat(bool stop)
{
    if (!rx_session.active) {
        reply("ERR no rx session");
        return;
    }
    rx_drain();
    reply_counters();
    if (stop) {
        close(rx_fd);
        rx_fd = -1;
        pp_rx_stop(&rx_session);
    }
}

/*
 * UDP echo: datagram i carries its index in the first 4 bytes followed by
 * pattern bytes; each must come back unchanged before the next is sent.
 */
static void cmd_udp(int argc, char **argv)
{
    static uint8_t out[PP_MAX_LEN], in[PP_MAX_LEN];
    struct sockaddr_in sin;
    uint32_t port, count, len, timeout, i, j;
    uint32_t echoed = 0, bad = 0;
    int fd;

    memset(&sin, 0, sizeof(sin));
    if (argc != 6 || inet_pton(AF_INET, argv[1], &sin.sin_addr) != 1 ||
        pp_parse_u32(argv[2], 65535, &port) < 0 ||
        pp_parse_u32(argv[3], PP_MAX_COUNT, &count) < 0 ||
        pp_parse_u32(argv[4], AGENT_UDP_MAX, &len) < 0 || len < 4 ||
        pp_parse_u32(argv[5], 600000, &timeout) < 0) {
        reply("ERR usage: UDP <ip> <port> <count> <len 4..%d> <timeout_ms>",
              AGENT_UDP_MAX);
        return;
    }
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
        reply("ERR udp socket: %s", strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    for (i = 0; i < count; i++) {
        int64_t deadline = now_ms() + timeout;

        pp_put32(out, i);
        for (j = 4; j < len; j++) {
            out[j] = pp_payload_byte(0, i, j);
        }
        if (send(fd, out, len, 0) != (ssize_t)len) {
            break;
        }
        for (;;) {
            struct pollfd pfd = { .fd = fd, .events = POLLIN };
            int64_t left = deadline - now_ms();
            ssize_t n;

            if (left <= 0 || poll(&pfd, 1, left) <= 0) {
                break;
            }
            n = recv(fd, in, sizeof(in), 0);
            if (n < 0) {
                break;
            }
            if (n >= 4 && pp_get32(in) != i) {
                continue;   /* a late echo of an earlier datagram */
            }
            if (n == (ssize_t)len && memcmp(in, out, len) == 0) {
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

static bool handle_line(char *line)
{
    char *argv[8];
    int argc;

    if (strncmp(line, "SH ", 3) == 0) {
        cmd_sh(AGENT_SH_TIMEOUT, line + 3);
        return true;
    }
    if (strncmp(line, "SHT ", 4) == 0) {
        char *secs_text = line + 4;
        char *command = strchr(secs_text, ' ');
        uint32_t secs;

        if (command) {
            *command++ = '\0';
        }
        if (!command || pp_parse_u32(secs_text, 3600, &secs) < 0 ||
            secs == 0) {
            reply("ERR usage: SHT <seconds 1..3600> <command>");
        } else {
            cmd_sh(secs, command);
        }
        return true;
    }
    argc = split_words(line, argv, 8);
    if (argc == 0) {
        reply("ERR empty request");
    } else if (strcmp(argv[0], "HELLO") == 0) {
        reply("OK HELLO %s proto=%d", argc > 1 ? argv[1] : "-",
              PP_PROTO_VERSION);
    } else if (strcmp(argv[0], "MAC") == 0) {
        cmd_mac(argc, argv);
    } else if (strcmp(argv[0], "TX") == 0) {
        cmd_tx(argc, argv);
    } else if (strcmp(argv[0], "TXL") == 0) {
        cmd_txl(argc, argv);
    } else if (strcmp(argv[0], "RXSTART") == 0) {
        cmd_rxstart(argc, argv);
    } else if (strcmp(argv[0], "RXSTAT") == 0) {
        cmd_rxstat(false);
    } else if (strcmp(argv[0], "RXSTOP") == 0) {
        cmd_rxstat(true);
    } else if (strcmp(argv[0], "UDP") == 0) {
        cmd_udp(argc, argv);
    } else if (strcmp(argv[0], "TCPTX") == 0) {
        cmd_tcptx(argc, argv);
    } else if (strcmp(argv[0], "TCPRX") == 0) {
        cmd_tcprx(argc, argv);
    } else if (strcmp(argv[0], "MARK") == 0) {
        cmd_mark(argc, argv);
    } else if (strcmp(argv[0], "QUIT") == 0) {
        reply("OK bye");
        return false;
    } else {
        reply("ERR unknown verb %s", argv[0]);
    }
    return true;
}

static int open_serial(const char *path)
{
    struct termios tio;
    int fd = open(path, O_RDWR | O_NOCTTY);

    if (fd < 0) {
        return -1;
    }
    if (tcgetattr(fd, &tio) == 0) {
        cfmakeraw(&tio);
        cfsetispeed(&tio, B115200);
        cfsetospeed(&tio, B115200);
        tio.c_cc[VMIN] = 1;
        tio.c_cc[VTIME] = 0;
        tcsetattr(fd, TCSANOW, &tio);
        tcflush(fd, TCIFLUSH);
    }
    return fd;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "/dev/ttyS1";
    static char line[AGENT_LINE_MAX];
    size_t fill = 0;
    bool running = true;

    signal(SIGPIPE, SIG_IGN);
    serial_fd = open_serial(path);
    if (serial_fd < 0) {
        fprintf(stderr, "e1000epp-agent: cannot open %s: %s\n", path,
                strerror(errno));
        return 1;
    }
    /*
     * The console marker the host waits for: from here on, bytes the host
     * sends reach us (anything before the flush in open_serial is gone).
     */
    printf("%s agent=%d serial=%s\n", PP_READY_MARKER, (int)getpid(), path);
    fflush(stdout);
    while (running) {
        struct pollfd pfd[2] = {
            { .fd = serial_fd, .events = POLLIN },
            { .fd = rx_fd, .events = POLLIN },
        };
        char ch;
        ssize_t n;

        if (poll(pfd, rx_fd >= 0 ? 2 : 1, -1) < 0) {
            continue;
        }
        if (rx_fd >= 0 && (pfd[1].revents & POLLIN)) {
            rx_drain();
        }
        if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            continue;
        }
        n = read(serial_fd, &ch, 1);
        if (n <= 0) {
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
                continue;
            }
            usleep(100000);
            continue;
        }
        if (ch == '\r') {
            continue;
        }
        if (ch != '\n') {
            if (fill < sizeof(line) - 1) {
                line[fill++] = ch;
            }
            continue;
        }
        line[fill] = '\0';
        fill = 0;
        running = handle_line(line);
    }
    return 0;
}
