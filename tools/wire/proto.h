/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp test traffic: the one definition of the pattern frame and of
 * the receive counters, shared by the host-side peer (tools/peer) and the
 * in-guest agent (guest/agent).  Both sides build and check frames with the
 * functions below, so a frame the peer accepts is byte for byte a frame the
 * agent would have built, and both report the same counter names.
 *
 * Pattern frame (all multi-byte fields big-endian, no FCS):
 *
 *   offset  size  field
 *        0     6  destination MAC
 *        6     6  source MAC
 *       12     2  EtherType 0x88B5 (IEEE 802 local experimental 1)
 *       14     4  magic 0x50504531 ("PPE1")
 *       18     4  run id: separates test runs sharing one VM
 *       22     4  sequence number, 0 .. count-1
 *       26     2  frame length in bytes (as sent, FCS excluded)
 *       28     2  reserved, 0
 *       30     4  FNV-1a 32 of the payload
 *       34     -  payload: byte at payload offset i is
 *                 pp_payload_byte(run, seq, i)
 *
 * The length of frame seq in a run of [min, max] is pp_frame_len(): every
 * fourth frame is min, the next is max, the others spread over the range.
 *
 * This header builds frames; rxsession.h checks and counts them on the
 * receiving side, cmdargs.h parses the command words both sides take.
 */
#ifndef E1000EPP_PROTO_H
#define E1000EPP_PROTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PP_PROTO_VERSION    2

#define PP_ETHERTYPE        0x88b5
#define PP_MAGIC            0x50504531u
#define PP_ETH_ALEN         6
#define PP_ETH_HLEN         14
#define PP_OFF_MAGIC        14
#define PP_OFF_RUN          18
#define PP_OFF_SEQ          22
#define PP_OFF_LEN          26
#define PP_OFF_RSVD         28
#define PP_OFF_CSUM         30
#define PP_OFF_PAYLOAD      34
#define PP_MIN_LEN          PP_OFF_PAYLOAD
/* Largest frame either side builds: 82574L jumbo limit (9018) rounded up. */
#define PP_MAX_LEN          16384
/* Largest run either side tracks (one bit per sequence number). */
#define PP_MAX_COUNT        (1u << 24)

/*
 * Agent line protocol: a request line, then "D <text>" data lines, then
 * exactly one terminator line starting with one of these.
 */
#define PP_LINE_DATA        "D "
#define PP_LINE_OK          "OK"
#define PP_LINE_ERR         "ERR"

/* Guest console marker printed by /init once the agent is running. */
#define PP_READY_MARKER     "E1000EPP-READY"

/*
 * Paced requests (a recorded guest: the agent started with --paced).
 * Under record/replay QEMU queues what it reads for the vCPU and keeps
 * reading while the UART still looks empty, so more than its 16-byte
 * FIFO can arrive at once.  The agent writes PP_PACE_ACK after every
 * PP_PACE_CHUNK bytes it reads and after each newline; the host sends
 * the next bytes only then.  Into an emptied FIFO QEMU reads Linux's
 * receive trigger level (8 bytes), and 8 more while those wait for the
 * vCPU: 16, what the FIFO holds.  Replies never carry the byte: they
 * print control characters as '?'.
 */
#define PP_PACE_ACK         0x06
#define PP_PACE_CHUNK       16

/*
 * Big-endian fields.  Not the device core's bytes.h: the peer and the
 * agent check the bytes the device writes, so they share no code with it.
 */
static inline void pp_put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static inline void pp_put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static inline uint16_t pp_get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t pp_get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

/* A cheap integer mixer: neighbouring inputs give unrelated outputs. */
static inline uint32_t pp_mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/*
 * Byte at payload offset @off of frame @seq in run @run.  Depends on all
 * three so that a shifted, truncated, swapped or stale buffer never passes.
 */
static inline uint8_t pp_payload_byte(uint32_t run, uint32_t seq,
                                      uint32_t off)
{
    return pp_mix(run * 0x9e3779b1u ^ pp_mix(seq) ^ (off * 0x85ebca6bu)) >> 11;
}

/*
 * Byte at offset @off (4 and on) of the datagram that starts with the word
 * @word among the peer's checksum frames (CSUMBAD, tools/peer/csum.c), as
 * the agent's UDPRECV checks it.
 */
#define PP_CSUM_RUN         0x6373756du
static inline uint8_t pp_csum_byte(uint32_t word, uint32_t off)
{
    return pp_payload_byte(PP_CSUM_RUN, word, off);
}

/*
 * Byte at offset @off of the TCP test stream of run @run (the agent's
 * TCPTX writes it, the peer's TCP sink checks it): pattern bytes of a
 * sequence number no pattern frame uses, so a frame's payload and the
 * stream never look alike.
 */
#define PP_STREAM_SEQ       0xffffffffu

static inline uint8_t pp_stream_byte(uint32_t run, uint64_t off)
{
    return pp_payload_byte(run, PP_STREAM_SEQ ^ (uint32_t)(off >> 32),
                           (uint32_t)off);
}

static inline uint32_t pp_frame_len(uint32_t seq, uint32_t min, uint32_t max)
{
    uint32_t span = max - min + 1;

    switch (seq % 4) {
    case 0:
        return min;
    case 1:
        return max;
    default:
        return min + pp_mix(seq ^ 0x5bd1e995u) % span;
    }
}

static inline uint32_t pp_fnv1a(const uint8_t *p, size_t len)
{
    uint32_t h = 0x811c9dc5u;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x01000193u;
    }
    return h;
}

/* Check a [min, max] length range; returns an error string or NULL. */
static inline const char *pp_check_range(unsigned long min, unsigned long max)
{
    if (min < 60 || max > PP_MAX_LEN || min > max) {
        return "lengths must satisfy 60 <= min <= max <= 16384";
    }
    return NULL;
}

/* Build frame @seq of run @run, @len bytes, into @buf (>= @len bytes). */
static inline void pp_build(uint8_t *buf, const uint8_t *dst,
                            const uint8_t *src, uint32_t run, uint32_t seq,
                            uint32_t len)
{
    uint32_t i;

    memcpy(buf, dst, PP_ETH_ALEN);
    memcpy(buf + PP_ETH_ALEN, src, PP_ETH_ALEN);
    pp_put16(buf + 12, PP_ETHERTYPE);
    pp_put32(buf + PP_OFF_MAGIC, PP_MAGIC);
    pp_put32(buf + PP_OFF_RUN, run);
    pp_put32(buf + PP_OFF_SEQ, seq);
    pp_put16(buf + PP_OFF_LEN, len);
    pp_put16(buf + PP_OFF_RSVD, 0);
    for (i = PP_OFF_PAYLOAD; i < len; i++) {
        buf[i] = pp_payload_byte(run, seq, i - PP_OFF_PAYLOAD);
    }
    pp_put32(buf + PP_OFF_CSUM,
             pp_fnv1a(buf + PP_OFF_PAYLOAD, len - PP_OFF_PAYLOAD));
}

#endif /* E1000EPP_PROTO_H */
