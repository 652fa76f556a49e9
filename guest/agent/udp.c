/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: UDP, an echo exchange with the peer's UDP echo port
 * through the guest's own stack.
 *
 *   UDP <ip> <port> <count> <len> <timeout_ms>
 *                       OK sent=<n> echoed=<n> bad=<n>
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"

/* Largest UDP payload: a 16 KB frame less Ethernet, IPv4 and UDP headers. */
#define AGENT_UDP_MAX       (PP_MAX_LEN - 14 - 20 - 8)

/*
 * UDP echo: datagram i carries its index in the first 4 bytes followed by
 * pattern bytes; each must come back unchanged before the next is sent.
 */
void cmd_udp(int argc, char **argv)
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
        while (wait_readable(fd, deadline)) {
            ssize_t n = recv(fd, in, sizeof(in), 0);

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
