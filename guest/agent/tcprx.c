/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: TCPRX, a TCP stream from the peer (tools/peer/tcpsrc.c)
 * into the guest's own stack, every byte checked.
 *
 *   TCPRX <port> <run> <bytes> <timeout_s>
 *
 * Listens on <port> (IPv4, any address), accepts one connection, reads
 * until the peer closes, and compares each byte with
 * pp_stream_byte(run, offset).  Then
 *
 *   OK bytes=<received> bad=<bytes that differ> first_bad=<offset or -1>
 *      complete=<1 if exactly <bytes> arrived>
 *
 * The host sends this request, then tells the peer to connect.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"

#define TCPRX_BUF       65536

void cmd_tcprx(int argc, char **argv)
{
    static uint8_t buf[TCPRX_BUF];
    struct sockaddr_in sin;
    uint32_t port, run, bytes, timeout;
    uint64_t got = 0, bad = 0;
    int64_t first_bad = -1, deadline;
    int one = 1, lfd, fd;

    if (argc != 5 || pp_parse_u32(argv[1], 65535, &port) < 0 || !port ||
        pp_parse_u32(argv[2], UINT32_MAX, &run) < 0 ||
        pp_parse_u32(argv[3], 1u << 30, &bytes) < 0 ||
        pp_parse_u32(argv[4], 3600, &timeout) < 0 || !timeout) {
        reply("ERR usage: TCPRX <port> <run> <bytes> <timeout_s>");
        return;
    }
    deadline = now_ms() + (int64_t)timeout * 1000;
    lfd = socket(AF_INET, SOCK_STREAM, 0);
    if (lfd < 0) {
        reply("ERR socket: %s", strerror(errno));
        return;
    }
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
        listen(lfd, 1) < 0) {
        reply("ERR listen on %u: %s", port, strerror(errno));
        close(lfd);
        return;
    }
    if (!wait_readable(lfd, deadline)) {
        reply("ERR no connection within %u s", timeout);
        close(lfd);
        return;
    }
    fd = accept(lfd, NULL, NULL);
    close(lfd);
    if (fd < 0) {
        reply("ERR accept: %s", strerror(errno));
        return;
    }
    for (;;) {
        ssize_t n, i;

        if (!wait_readable(fd, deadline)) {
            reply("ERR timeout after %u s: bytes=%llu bad=%llu", timeout,
                  (unsigned long long)got, (unsigned long long)bad);
            close(fd);
            return;
        }
        n = recv(fd, buf, sizeof(buf), 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        for (i = 0; i < n; i++) {
            if (buf[i] != pp_stream_byte(run, got + i)) {
                if (first_bad < 0) {
                    first_bad = got + i;
                }
                bad++;
            }
        }
        got += n;
    }
    close(fd);
    reply("OK bytes=%llu bad=%llu first_bad=%lld complete=%d",
          (unsigned long long)got, (unsigned long long)bad,
          (long long)first_bad, got == bytes);
}
