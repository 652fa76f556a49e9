/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp test traffic: the receive session, shared by the peer and the
 * agent.  A session checks every pattern frame (proto.h) of one run byte
 * for byte against what pp_build() makes, counts each frame in exactly one
 * verdict and keeps the first failures with where they went wrong, so both
 * sides report the same counter names and the same failure text.
 */
#ifndef E1000EPP_RXSESSION_H
#define E1000EPP_RXSESSION_H

#include "proto.h"

/*
 * Receive counters, in report order.  Names are the contract: the agent
 * prints them as "name=value", the peer as JSON keys, pytest reads both.
 *   good     frames of this run, first copy, every byte as built
 *   bad      frames of this run that are not exact: trunc + corrupt
 *   trunc    shorter than the length their header gives (bytes up to the
 *            cut as built)
 *   corrupt  any other difference (a byte, the length, the FCS)
 *   fcs_bad  frames whose trailing FCS (sessions that expect one) is not
 *            the CRC-32 of the frame; also counted in corrupt
 *   missing  sequence numbers of this run never received good (at report)
 *   dup      further good copies of a sequence number already received
 *   reorder  good frames that arrived after a higher sequence number
 *   stale    pattern frames of another run
 *   other    frames that are not pattern frames
 *   bytes    sum of the lengths of the good frames (FCS excluded)
 */
#define PP_COUNTERS(X) \
    X(good) X(bad) X(trunc) X(corrupt) X(fcs_bad) X(missing) X(dup) \
    X(reorder) X(stale) X(other) X(bytes)

struct pp_counters {
#define PP_FIELD(name) uint64_t name;
    PP_COUNTERS(PP_FIELD)
#undef PP_FIELD
};

/* The first failures of a session are kept with where they went wrong. */
#define PP_FAIL_KEEP        8
#define PP_FCS_LEN          4

enum pp_fail_kind {
    PP_FAIL_TRUNC,
    PP_FAIL_CORRUPT,
    PP_FAIL_FCS,
};

struct pp_fail {
    uint32_t seq;
    uint32_t len;           /* bytes received (FCS excluded) */
    uint32_t off;           /* offset of the first byte that differs */
    uint8_t kind;           /* enum pp_fail_kind */
};

struct pp_rx_session {
    bool active;
    bool fcs;               /* frames end in 4 FCS bytes (rx-fcs on) */
    uint32_t run;
    uint32_t count;
    bool check_dst;
    bool check_src;
    uint8_t dst[PP_ETH_ALEN];
    uint8_t src[PP_ETH_ALEN];
    uint32_t highest;
    bool any;
    uint32_t nfail;
    uint64_t received;      /* distinct sequence numbers received good */
    uint8_t *seen;          /* one bit per sequence number */
    struct pp_counters c;
    struct pp_fail fail[PP_FAIL_KEEP];
};

enum pp_verdict {
    PP_OTHER,
    PP_STALE,
    PP_BAD,
    PP_DUP,
    PP_GOOD,
};

/* Start a session; @dst/@src may be NULL (not checked).  0 or -1 (ENOMEM). */
static inline int pp_rx_start(struct pp_rx_session *s, uint32_t run,
                              uint32_t count, const uint8_t *dst,
                              const uint8_t *src)
{
    free(s->seen);
    memset(s, 0, sizeof(*s));
    s->seen = calloc(count / 8 + 1, 1);
    if (!s->seen) {
        return -1;
    }
    s->active = true;
    s->run = run;
    s->count = count;
    if (dst) {
        s->check_dst = true;
        memcpy(s->dst, dst, PP_ETH_ALEN);
    }
    if (src) {
        s->check_src = true;
        memcpy(s->src, src, PP_ETH_ALEN);
    }
    return 0;
}

static inline void pp_rx_stop(struct pp_rx_session *s)
{
    free(s->seen);
    s->seen = NULL;
    s->active = false;
}

/*
 * CRC-32 of IEEE 802.3 (reflected polynomial 0xEDB88320, initial value and
 * final XOR all-ones).  The FCS on the wire is this value least significant
 * byte first.
 */
static inline uint32_t pp_crc32(const uint8_t *p, size_t len)
{
    static uint32_t table[256];
    uint32_t crc = 0xffffffffu;
    size_t i;

    if (!table[1]) {
        for (i = 0; i < 256; i++) {
            uint32_t c = i;
            int k;

            for (k = 0; k < 8; k++) {
                c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
            }
            table[i] = c;
        }
    }
    for (i = 0; i < len; i++) {
        crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    }
    return crc ^ 0xffffffffu;
}

/* Byte @off of the frame pp_build() makes for @seq (MACs, payload). */
static inline uint8_t pp_expected_byte(const struct pp_rx_session *s,
                                       const uint8_t *buf, uint32_t seq,
                                       size_t off)
{
    if (off < PP_ETH_ALEN) {
        return s->check_dst ? s->dst[off] : buf[off];
    }
    if (off < 2 * PP_ETH_ALEN) {
        return s->check_src ? s->src[off - PP_ETH_ALEN] : buf[off];
    }
    if (off >= PP_OFF_PAYLOAD) {
        return pp_payload_byte(s->run, seq, off - PP_OFF_PAYLOAD);
    }
    /* Header fields: compared as a whole by the caller. */
    return buf[off];
}

/*
 * Offset of the first byte of @buf (@len bytes, FCS excluded) that differs
 * from the frame pp_build() makes for the sequence number and length its
 * header gives (@want), or -1 when the first min(len, want) bytes match.
 */
static inline long pp_first_diff(const struct pp_rx_session *s,
                                 const uint8_t *buf, size_t len,
                                 uint32_t want)
{
    uint32_t seq = pp_get32(buf + PP_OFF_SEQ);
    size_t n = len < want ? len : want;
    size_t i;

    for (i = 0; i < n; i++) {
        if (i >= 12 && i < PP_OFF_PAYLOAD) {
            continue;
        }
        if (buf[i] != pp_expected_byte(s, buf, seq, i)) {
            return i;
        }
    }
    if (pp_get16(buf + PP_OFF_RSVD) != 0) {
        return PP_OFF_RSVD;
    }
    if (len >= want && pp_get32(buf + PP_OFF_CSUM) !=
        pp_fnv1a(buf + PP_OFF_PAYLOAD, want - PP_OFF_PAYLOAD)) {
        return PP_OFF_CSUM;
    }
    return -1;
}

static inline void pp_note_fail(struct pp_rx_session *s, uint32_t seq,
                                size_t len, long off, enum pp_fail_kind kind)
{
    if (s->nfail < PP_FAIL_KEEP) {
        struct pp_fail *f = &s->fail[s->nfail++];

        f->seq = seq;
        f->len = len;
        f->off = off < 0 ? 0 : off;
        f->kind = kind;
    }
}

/*
 * Account one received frame (Ethernet header first; FCS last when the
 * session expects one, else none).
 */
static inline enum pp_verdict pp_rx_account(struct pp_rx_session *s,
                                            const uint8_t *buf, size_t len)
{
    uint32_t seq, want;
    long off;

    if (len < PP_MIN_LEN || pp_get16(buf + 12) != PP_ETHERTYPE ||
        pp_get32(buf + PP_OFF_MAGIC) != PP_MAGIC) {
        s->c.other++;
        return PP_OTHER;
    }
    if (pp_get32(buf + PP_OFF_RUN) != s->run) {
        s->c.stale++;
        return PP_STALE;
    }
    seq = pp_get32(buf + PP_OFF_SEQ);
    want = pp_get16(buf + PP_OFF_LEN);
    if (s->fcs) {
        if (len >= PP_MIN_LEN + PP_FCS_LEN) {
            uint32_t fcs = buf[len - 4] | buf[len - 3] << 8 |
                           buf[len - 2] << 16 | (uint32_t)buf[len - 1] << 24;

            len -= PP_FCS_LEN;
            if (len == want && fcs != pp_crc32(buf, len)) {
                s->c.bad++;
                s->c.corrupt++;
                s->c.fcs_bad++;
                pp_note_fail(s, seq, len, len, PP_FAIL_FCS);
                return PP_BAD;
            }
        } else {
            want = len + 1;     /* too short to hold an FCS: truncated */
        }
    }
    if (seq >= s->count || want < PP_MIN_LEN || want > PP_MAX_LEN) {
        s->c.bad++;
        s->c.corrupt++;
        pp_note_fail(s, seq, len, seq >= s->count ? PP_OFF_SEQ : PP_OFF_LEN,
                     PP_FAIL_CORRUPT);
        return PP_BAD;
    }
    off = pp_first_diff(s, buf, len, want);
    if (off >= 0 || len != want) {
        s->c.bad++;
        if (off < 0 && len < want) {
            s->c.trunc++;
            pp_note_fail(s, seq, len, len, PP_FAIL_TRUNC);
        } else {
            s->c.corrupt++;
            pp_note_fail(s, seq, len, off >= 0 ? off : (long)want,
                         PP_FAIL_CORRUPT);
        }
        return PP_BAD;
    }
    if (s->seen[seq / 8] & (1u << (seq % 8))) {
        s->c.dup++;
        return PP_DUP;
    }
    s->seen[seq / 8] |= 1u << (seq % 8);
    s->received++;
    if (s->any && seq < s->highest) {
        s->c.reorder++;
    }
    if (!s->any || seq > s->highest) {
        s->highest = seq;
    }
    s->any = true;
    s->c.good++;
    s->c.bytes += len;
    return PP_GOOD;
}

/* Counters as of now (missing computed from the sequence bitmap). */
static inline struct pp_counters pp_rx_counters(const struct pp_rx_session *s)
{
    struct pp_counters c = s->c;

    c.missing = s->count - s->received;
    return c;
}

/*
 * The first missing sequence numbers and the kept failures, one word:
 * "lost:3,7;trunc:12@1500/2048;corrupt:5@100/1514;fcs:9@2048/2048"
 * (kind:seq@offset/length), "-" when there are none.
 */
static inline void pp_fails_text(const struct pp_rx_session *s, char *out,
                                 size_t size)
{
    static const char *const kinds[] = { "trunc", "corrupt", "fcs" };
    size_t n = 0;
    uint32_t i, lost = 0;

    out[0] = '\0';
    for (i = 0; s->seen && i < s->count && lost < PP_FAIL_KEEP; i++) {
        if (!(s->seen[i / 8] & (1u << (i % 8))) && n < size) {
            n += snprintf(out + n, size - n, "%s%u", lost ? "," : "lost:", i);
            lost++;
        }
    }
    for (i = 0; i < s->nfail && n < size; i++) {
        const struct pp_fail *f = &s->fail[i];

        n += snprintf(out + n, size - n, "%s%s:%u@%u/%u", n ? ";" : "",
                      kinds[f->kind], f->seq, f->off, f->len);
    }
    if (n == 0) {
        snprintf(out, size, "-");
    }
}

/* "good=1 bad=0 ..." */
static inline void pp_counters_kv(const struct pp_counters *c, char *out,
                                  size_t size)
{
    size_t n = 0;

    out[0] = '\0';
#define PP_KV(name)                                                       \
    if (n < size) {                                                       \
        n += snprintf(out + n, size - n, "%s%s=%llu", n ? " " : "", #name, \
                      (unsigned long long)c->name);                       \
    }
    PP_COUNTERS(PP_KV)
#undef PP_KV
}

/* {"good": 1, "bad": 0, ...} */
static inline void pp_counters_json(const struct pp_counters *c, char *out,
                                    size_t size)
{
    size_t n = 0;

    n += snprintf(out, size, "{");
#define PP_JSON(name)                                                     \
    if (n < size) {                                                       \
        n += snprintf(out + n, size - n, "%s\"%s\": %llu", n > 1 ? ", " : "", \
                      #name, (unsigned long long)c->name);                \
    }
    PP_COUNTERS(PP_JSON)
#undef PP_JSON
    if (n < size) {
        snprintf(out + n, size - n, "}");
    }
}


#endif /* E1000EPP_RXSESSION_H */
