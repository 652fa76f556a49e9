/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp peer: the netdev stream, QEMU's `-netdev stream` unix socket.
 * Each frame is a 4-byte big-endian length, then the frame without FCS.
 * Frames for the guest queue in one growing buffer and leave as the
 * socket takes them; received bytes are cut into frames for receive.c.
 * A length above PEER_FRAME_MAX cannot be resynchronised: the connection
 * is dropped.
 */

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "peer.h"

int stream_socket(const char *path, struct sockaddr_un *sun)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);

    if (fd < 0) {
        peer_die("socket: %s", strerror(errno));
    }
    if (strlen(path) >= sizeof(sun->sun_path)) {
        peer_die("socket path too long (max %zu): %s",
                 sizeof(sun->sun_path) - 1, path);
    }
    memset(sun, 0, sizeof(*sun));
    sun->sun_family = AF_UNIX;
    strcpy(sun->sun_path, path);
    return fd;
}

/* A connection from (or to) QEMU is up: large buffers, queued frames go. */
void stream_connected(int fd)
{
    int size = 4 * 1024 * 1024;

    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    peer.fd = fd;
    peer.c.connections++;
    peer_emit("{\"event\": \"connected\"}");
    stream_flush();
}

void peer_queue_frame(const uint8_t *frame, size_t len)
{
    static uint8_t tagged[PEER_FRAME_MAX + VLAN_HLEN];

    if (peer.frame_vid && len >= 12 && len <= PEER_FRAME_MAX) {
        /* IEEE 802.1Q: TPID 0x8100 and the tag after the MACs. */
        memcpy(tagged, frame, 12);
        pp_put16(tagged + 12, ETH_P_8021Q_TYPE);
        pp_put16(tagged + 14, peer.frame_vid);
        memcpy(tagged + 16, frame + 12, len - 12);
        frame = tagged;
        len += VLAN_HLEN;
    }
    if (peer.out_len + 4 + len > peer.out_cap) {
        size_t cap = peer.out_cap ? peer.out_cap : 65536;

        while (cap < peer.out_len + 4 + len) {
            cap *= 2;
        }
        peer.out = realloc(peer.out, cap);
        if (!peer.out) {
            peer_die("out of memory");
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

void stream_flush(void)
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

static void disconnect(void)
{
    close(peer.fd);
    peer.fd = -1;
    peer.in_len = 0;
    peer_emit("{\"event\": \"disconnected\"}");
}

void stream_read(void)
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
        receive_frame(peer.in + off + 4, flen);
        off += 4 + flen;
    }
    memmove(peer.in, peer.in + off, peer.in_len - off);
    peer.in_len -= off;
}
