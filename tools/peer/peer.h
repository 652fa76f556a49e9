/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp host-side peer: what peer.c (the stream, the control channel,
 * ARP/ICMP/UDP) offers its protocol modules, and the TCP sink
 * (tcpsink.c) it drives.
 */
#ifndef E1000EPP_PEER_H
#define E1000EPP_PEER_H

#include "proto.h"

#define ETH_P_IPV4          0x0800
#define ETH_P_IPV6_TYPE     0x86dd
#define IP_PROTO_TCP        6
#define IP_PROTO_ICMPV6     58
#define IPV6_HLEN           40

/* Queue one frame for the guest (padded by the caller to >= 60 bytes). */
void peer_queue_frame(const uint8_t *frame, size_t len);
/* Ones' complement sum of @p folded into @sum; returns its complement. */
uint16_t peer_checksum(const uint8_t *p, size_t len, uint32_t sum);
/* A JSON line on the control channel. */
void peer_emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

const uint8_t *peer_mac(void);
uint32_t peer_ipv4(void);       /* network order */
const uint8_t *peer_ipv6(void);

/* Sum of an IPv6 pseudo-header (RFC 8200 §8.1), to seed peer_checksum. */
uint32_t peer_ipv6_pseudo(const uint8_t *ip6, uint32_t l4len, uint8_t nh);
/* An IPv6 frame: neighbour discovery (ndp.c) or the TCP sink. */
void peer_ipv6_frame(const uint8_t *f, size_t len);

/*
 * TCP sink: accepts one TCP connection at a time to a port and checks
 * every segment the guest sends (see tcpsink.c).
 *   TCPSINK <port> <run> <mss> <logfile>   arm (resets the counters)
 *   TCPSTAT                                counters as JSON
 */
void tcpsink_command(int argc, char **argv);
void tcpsink_stat(void);
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
void tcpsrc_stat(void);
bool tcpsrc_ipv4(const uint8_t *f, size_t len);
bool tcpsrc_active(void);
void tcpsrc_tick(void);

#endif /* E1000EPP_PEER_H */
