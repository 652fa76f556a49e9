/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp in-guest agent: e1000epp-agent [--paced] [serial port].
 *
 * Serves the host over a serial port (/dev/ttyS1, a unix-socket chardev on
 * the host side; --paced acknowledges what it reads, proto.h) with a line
 * protocol: one request line, then any number of
 * "D <text>" data lines, then one terminator line "OK [...]" or
 * "ERR <reason>".  Verbs:
 *
 *   HELLO [token]                   OK HELLO <token> proto=<n>
 *   SH <command>                    output as D lines, OK rc=<exit status>
 *   SHT <seconds> <command>         SH with its own timeout (default 60 s;
 *                                   shell.c)
 *   MAC <ifname>                    OK <mac>
 *   TX <if> <dst> <run> <count> <min> <max>
 *                                   send pattern frames (proto.h) on an
 *                                   AF_PACKET socket; OK sent=<n> bytes=<n>
 *                                   (pattern.c, with TXL and the RX verbs)
 *   TXL <if> <dst> <run> <lens> <repeat>
 *                                   TX with explicit lengths: <lens> is a
 *                                   comma list, frame seq has length
 *                                   lens[seq % n]; n * <repeat> frames
 *   RXSTART <if> <run> <count> [<src>] [fcs]
 *                                   start counting pattern frames of <run>
 *                                   addressed to <if>'s MAC (and from
 *                                   <src>); with "fcs" every frame must end
 *                                   in its CRC-32 (ethtool -K rx-fcs on)
 *   RXSTAT                          OK <counters>  (rxsession.h names)
 *   RXWAIT <timeout_ms>             RXSTAT once the session has seen
 *                                   <count> frames (or the time is up)
 *   RXSTOP                          OK <counters> fails=<pp_fails_text>,
 *                                   session closed
 *   UDPHOLD <ip> <port> <count> <len> <timeout_ms>
 *                                   the same, echoes held unread: the
 *                                   truesize charged for each (udp.c)
 *   UDP <ip> <port> <count> <len> <timeout_ms>
 *                                   UDP echo through the peer;
 *                                   OK sent=<n> echoed=<n> bad=<n> (udp.c)
 *   UDPBIND <port>                  a UDP socket on <port> (IPv6 and IPv4)
 *                                   for UDPRECV (udp.c)
 *   UDPRECV <count> <len> <timeout_ms>
 *                                   read the peer's checksum frames' good
 *                                   datagrams from it; OK got=<n> good=<n>
 *                                   bad=<n> corrupt=<n> dup=<n> (udp.c)
 *   TCPTX <if> <ip> <port> <run> <bytes> <chunk> <timeout_s>
 *                                   a TCP stream to the peer's sink, with
 *                                   what the stack handed the driver
 *                                   (tcptx.c)
 *   TCPRX <port> <run> <bytes> <timeout_s>
 *                                   accept a TCP stream from the peer and
 *                                   check every byte (tcprx.c)
 *   READ <path>...                  up to 15 files' lines without a shell
 *                                   (files.c)
 *   POOLS                           the kernel's page pools and their
 *                                   pages in flight (pagepool.c)
 *   QUIT                            OK, then the agent exits
 *
 * This file holds the serial line, the replies and the verb table.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

#define AGENT_SH_TIMEOUT    60

static int serial_fd = -1;

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

/*
 * What a reply may carry: control characters other than tab become '?',
 * so no reply holds a line break of its own or the pacing's
 * acknowledgement (proto.h).
 */
static char printable(char c)
{
    unsigned char ch = c;

    return (ch < 0x20 && ch != '\t') || ch == 0x7f ? '?' : c;
}

void reply(const char *fmt, ...)
{
    char line[AGENT_LINE_MAX + 8];
    va_list ap;
    int i, n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if ((size_t)n > sizeof(line) - 2) {
        n = sizeof(line) - 2;
    }
    for (i = 0; i < n; i++) {
        line[i] = printable(line[i]);
    }
    line[n++] = '\n';
    write_all(serial_fd, line, n);
}

/* One data line, printable (printable()). */
void reply_data(const char *text, size_t len)
{
    char line[AGENT_LINE_MAX + 4];
    size_t i, n = 0;

    memcpy(line, PP_LINE_DATA, 2);
    n = 2;
    for (i = 0; i < len && n < sizeof(line) - 1; i++) {
        line[n++] = printable(text[i]);
    }
    line[n++] = '\n';
    write_all(serial_fd, line, n);
}

size_t reply_lines(char *buf, size_t fill, size_t size)
{
    char *nl;

    while ((nl = memchr(buf, '\n', fill)) != NULL) {
        size_t len = nl - buf;

        reply_data(buf, len);
        memmove(buf, nl + 1, fill - len - 1);
        fill -= len + 1;
    }
    if (fill == size) {
        reply_data(buf, fill);
        fill = 0;
    }
    return fill;
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

bool wait_readable(int fd, int64_t deadline)
{
    for (;;) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        int64_t left = deadline - now_ms();
        int n;

        if (left <= 0) {
            return false;
        }
        n = poll(&pfd, 1, left);
        if (n > 0) {
            return true;
        }
        if (n < 0 && errno != EINTR) {
            return false;
        }
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

static void cmd_hello(int argc, char **argv)
{
    reply("OK HELLO %s proto=%d", argc > 1 ? argv[1] : "-",
          PP_PROTO_VERSION);
}

/* The verbs whose words split at spaces (SH and SHT keep their text). */
static const struct verb {
    const char *name;
    void (*run)(int argc, char **argv);
} verbs[] = {
    { "HELLO", cmd_hello },
    { "MAC", cmd_mac },
    { "TX", cmd_tx },
    { "TXL", cmd_txl },
    { "RXSTART", cmd_rxstart },
    { "RXSTAT", cmd_rxstat },
    { "RXWAIT", cmd_rxwait },
    { "RXSTOP", cmd_rxstat },
    { "UDP", cmd_udp },
    { "UDPHOLD", cmd_udphold },
    { "UDPBIND", cmd_udpbind },
    { "UDPRECV", cmd_udprecv },
    { "TCPTX", cmd_tcptx },
    { "TCPRX", cmd_tcprx },
    { "MARK", cmd_mark },
    { "READ", cmd_read },
    { "POOLS", cmd_pools },
};

/* One request line; false on QUIT. */
static bool handle_line(char *line)
{
    char *argv[16];
    int argc;
    size_t i;

    if (strncmp(line, "SH ", 3) == 0) {
        shell_run(AGENT_SH_TIMEOUT, line + 3);
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
            shell_run(secs, command);
        }
        return true;
    }
    argc = split_words(line, argv, 16);
    if (argc == 0) {
        reply("ERR empty request");
        return true;
    }
    if (strcmp(argv[0], "QUIT") == 0) {
        reply("OK bye");
        return false;
    }
    for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
        if (strcmp(argv[0], verbs[i].name) == 0) {
            verbs[i].run(argc, argv);
            return true;
        }
    }
    reply("ERR unknown verb %s", argv[0]);
    return true;
}

static int open_serial(const char *path)
{
    struct termios tio;
    int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);

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

/* A recorded guest's pacing (proto.h): the bytes read are acknowledged. */
static void pace_ack(char ch, unsigned int *unacked)
{
    static const char ack = PP_PACE_ACK;

    if (++*unacked == PP_PACE_CHUNK || ch == '\n') {
        write_all(serial_fd, &ack, 1);
        *unacked = 0;
    }
}

int main(int argc, char **argv)
{
    bool paced = argc > 1 && strcmp(argv[1], "--paced") == 0;
    const char *path = argc > 1 + paced ? argv[1 + paced] : "/dev/ttyS1";
    static char line[AGENT_LINE_MAX];
    unsigned int unacked = 0;
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
        int rx_fd = pattern_rx_fd();
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
            pattern_rx_drain();
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
        if (paced) {
            pace_ack(ch, &unacked);
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
