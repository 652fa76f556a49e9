/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp host-side peer: the one state and what its files offer each
 * other.
 *
 *   peer.c      options, signals, the poll loop
 *   stream.c    the netdev stream socket: frames in and out
 *   capture.c   the pcap of every frame either way
 *   receive.c   what a frame from the guest is and who takes it
 *   control.c   the command lines on stdin, JSON answers on stdout
 *   inet.c      Internet checksum, pseudo-headers, the IPv4 header
 *   ipv4.c      ARP, ICMP echo and UDP echo for the peer's IPv4 address
 *   ndp.c       IPv6 neighbour discovery and ICMPv6 echo
 *   tcpsink.c   TCP from the guest, every segment checked
 *   tcpsrc.c    TCP to the guest
 *   csum.c      frames with wrong checksums among good ones (CSUMBAD)
 */
#ifndef E1000EPP_PEER_H
#define E1000EPP_PEER_H

#include <sys/un.h>

#include "cmdargs.h"
#include "proto.h"
#include "rxsession.h"

#define PEER_UNUSED         __attribute__((unused))
#define PEER_FRAME_MAX      65536
#define PEER_INBUF          (4 + PEER_FRAME_MAX)
#define PEER_TTL            64

#define ETH_P_IPV4          0x0800
#define ETH_P_ARP_TYPE      0x0806
#define ETH_P_8021Q_TYPE    0x8100
#define ETH_P_IPV6_TYPE     0x86dd
#define ETH_P_MAC_CONTROL   0x8808
#define MAC_CONTROL_PAUSE   0x0001
#define VLAN_HLEN           4
#define IP_PROTO_ICMP       1
#define IP_PROTO_TCP        6
#define IP_PROTO_UDP        17
#define IP_PROTO_ICMPV6     58
#define IPV4_HLEN           20
#define IPV6_HLEN           40

/*
 * Peer-only counters (the Rx session's come from rxsession.h).  Names are
 * the JSON keys of STATS.
 */
#define PEER_COUNTERS(X) \
    X(frames_in) X(bytes_in) X(frames_out) X(bytes_out) \
    X(arp_requests) X(arp_replies) X(icmp_echo_requests) \
    X(icmp_echo_replies) X(udp_echo_requests) X(udp_echo_replies) \
    X(tx_pattern_frames) X(tx_pattern_bytes) X(malformed) X(connections) \
    X(vlan_in) X(pause_xoff) X(pause_xon)

struct peer_counters {
#define PEER_FIELD(name) uint64_t name;
    PEER_COUNTERS(PEER_FIELD)
#undef PEER_FIELD
};

struct peer_state {
    uint8_t mac[PP_ETH_ALEN];
    uint32_t ip;                /* network order */
    uint8_t ip6[16];
    int listen_fd;
    int fd;                     /* the netdev stream, -1 if none */
    uint8_t *out;               /* queued stream bytes, length-prefixed */
    size_t out_len, out_cap;
    uint8_t in[PEER_INBUF];
    size_t in_len;
    struct pp_rx_session rx;
    struct peer_counters c;
    char guest_mac[18];
    /*
     * A second IPv4 host on an 802.1Q VLAN (the VLAN command): frames
     * tagged with vlan_id reach the same host as untagged ones, with
     * vlan_ip as its address.  frame_vid is the VLAN of the frame being
     * answered or sent (0: untagged): peer_ipv4() and peer_queue_frame()
     * follow it, so a reply goes out on the VLAN its request came in on.
     */
    uint16_t vlan_id;
    uint32_t vlan_ip;           /* network order */
    uint16_t frame_vid;
};

extern struct peer_state peer;

/* Print "e1000epp-peer: <message>" on stderr and exit 2. */
void peer_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
/* A JSON line on the control channel. */
void peer_emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* CLOCK_MONOTONIC in milliseconds. */
int64_t peer_now_ms(void);

const uint8_t *peer_mac(void);
/* The address of the host frame_vid selects, network order. */
uint32_t peer_ipv4(void);
const uint8_t *peer_ipv6(void);

/* stream.c: the netdev stream (4-byte big-endian length, then a frame). */
int stream_socket(const char *path, struct sockaddr_un *sun);
void stream_connected(int fd);
/*
 * Queue one untagged frame for the guest (padded by the caller to >= 60
 * bytes), 802.1Q-tagged with frame_vid when that is set.
 */
void peer_queue_frame(const uint8_t *frame, size_t len);
void stream_flush(void);
void stream_read(void);

/* capture.c: pcap (LINKTYPE_ETHERNET), flushed after every frame. */
void capture_open(const char *path);
void capture_write(const uint8_t *frame, size_t len);
void capture_close(void);

/* receive.c: one frame from the guest. */
void receive_frame(const uint8_t *f, size_t len);

/*
 * control.c: one command line; false on QUIT.  STATS as JSON.
 * peer_json_u64 appends ", \"@name\": @v" at @n of @buf (@size bytes)
 * if it fits; returns the new length as snprintf counts it.
 */
size_t peer_json_u64(char *buf, size_t size, size_t n, const char *name,
                     uint64_t v);
bool control_command(char *line);
void control_print_stats(const char *prefix);
/* A WAIT is answered when its condition holds or its time is up. */
bool control_waiting(void);
int control_wait_poll_ms(void);
void control_wait_check(void);

/* inet.c */
/* Ones' complement sum of @p folded into @sum; returns its complement. */
uint16_t peer_checksum(const uint8_t *p, size_t len, uint32_t sum);
/* Pseudo-header sums (RFC 9293 §3.1, RFC 8200 §8.1), to seed the above. */
uint32_t peer_ipv4_pseudo(const uint8_t *ip, uint32_t l4len, uint8_t proto);
uint32_t peer_ipv6_pseudo(const uint8_t *ip6, uint32_t l4len, uint8_t nh);
/*
 * Ethernet and IPv4 headers at @f of a frame from the peer to @dst_mac and
 * @dst_ip (4 bytes, network order) carrying @l4len bytes of @proto: IHL 5,
 * ID @id, DF, TTL 64, header checksum.  Returns the pseudo-header sum.
 */
uint32_t peer_ipv4_header(uint8_t *f, const uint8_t *dst_mac,
                          const uint8_t *dst_ip, uint16_t id, uint8_t proto,
                          size_t l4len);

/*
 * The 20-byte TCP header (RFC 9293 §3.1) and @optlen bytes of options (a
 * multiple of 4) at @tcp; the checksum is left 0 for the caller.
 */
void peer_tcp_header(uint8_t *tcp, uint16_t sport, uint16_t dport,
                     uint32_t seq, uint32_t ack, uint8_t flags,
                     uint16_t window, const uint8_t *opts, size_t optlen);

/* ipv4.c: ARP, ICMP echo, UDP echo; TCP goes to the source or the sink. */
void peer_arp_frame(const uint8_t *f, size_t len);
void peer_ipv4_frame(const uint8_t *f, size_t len);
/* ndp.c: an IPv6 frame (neighbour discovery, echo, or the TCP sink). */
void peer_ipv6_frame(const uint8_t *f, size_t len);

/*
 * TCP sink: accepts one TCP connection at a time to a port and checks
 * every segment the guest sends (see tcpsink.c).
 *   TCPSINK <port> <run> <mss> <logfile>   arm (resets the counters)
 *   TCPSTAT                                counters as JSON
 */
void tcpsink_command(int argc, char **argv);
/* The counters as JSON, "{" then @prefix then the keys. */
void tcpsink_stat(const char *prefix);
bool tcpsink_closed(void);
/* A TCP frame for the peer's IPv4 / IPv6 address; true if the sink's. */
bool tcpsink_ipv4(const uint8_t *f, size_t len);
bool tcpsink_ipv6(const uint8_t *f, size_t len);

/*
 * TCP source: one connection from the peer to a port of the guest, the
 * stream pp_stream_byte() (see tcpsrc.c).
 *   TCPSEND <dstmac> <ipv4> <port> <run> <bytes> <mss>
 *   TCPSENDSTAT
 */
void tcpsrc_command(int argc, char **argv);
void tcpsrc_stat(const char *prefix);
/* Closed, or reset by the guest: nothing more will happen. */
bool tcpsrc_done(void);
bool tcpsrc_ipv4(const uint8_t *f, size_t len);
bool tcpsrc_active(void);
void tcpsrc_tick(void);

/*
 * Frames with a wrong IPv4 header, UDP or TCP checksum, each between good
 * ones (see csum.c).
 *   CSUMBAD <dstmac> <ipv4> <ipv6|-> <port> <bad> <len> [<vid>]
 */
void csum_command(int argc, char **argv);

#endif /* E1000EPP_PEER_H */
