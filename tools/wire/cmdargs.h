/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp test traffic: the words of a command line, as the peer and the
 * agent both parse them (decimal numbers, length lists, MAC addresses).
 * Every parser checks its bounds and answers -1 rather than trusting text
 * from the other side.
 */
#ifndef E1000EPP_CMDARGS_H
#define E1000EPP_CMDARGS_H

#include "proto.h"

/* Parse a decimal unsigned number in [0, max]; returns 0 or -1. */
static inline int pp_parse_u32(const char *s, uint32_t max, uint32_t *out)
{
    uint64_t v = 0;

    if (!s || !*s) {
        return -1;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return -1;
        }
        v = v * 10 + (*s - '0');
        if (v > max) {
            return -1;
        }
    }
    *out = v;
    return 0;
}

/*
 * An explicit length list "60,1514,2046" (at most PP_LENS_MAX entries, each
 * in 60..PP_MAX_LEN); frame seq of a run over the list has length
 * lens[seq % n].  Returns the number of entries, or -1.
 */
#define PP_LENS_MAX         64

static inline int pp_parse_lens(const char *s, uint32_t *lens)
{
    int n = 0;

    while (*s) {
        char word[16];
        size_t k = strcspn(s, ",");

        if (n == PP_LENS_MAX || k == 0 || k >= sizeof(word)) {
            return -1;
        }
        memcpy(word, s, k);
        word[k] = '\0';
        if (pp_parse_u32(word, PP_MAX_LEN, &lens[n]) < 0 || lens[n] < 60) {
            return -1;
        }
        n++;
        s += k;
        if (*s == ',') {
            s++;
        }
    }
    return n ? n : -1;
}

/* Parse "52:54:00:12:34:56"; returns 0 or -1. */
static inline int pp_parse_mac(const char *s, uint8_t *mac)
{
    unsigned int b[PP_ETH_ALEN];
    char end;
    int i;

    if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
               &b[4], &b[5], &end) != PP_ETH_ALEN) {
        return -1;
    }
    for (i = 0; i < PP_ETH_ALEN; i++) {
        mac[i] = b[i];
    }
    return 0;
}

static inline void pp_format_mac(const uint8_t *mac, char *out)
{
    sprintf(out, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2],
            mac[3], mac[4], mac[5]);
}

/* The pattern run TX asks for, in both the peer's and the agent's TX. */
struct pp_tx_words {
    uint8_t dst[PP_ETH_ALEN];
    uint32_t run, count, min, max;
};

/*
 * Parse the five words <dstmac> <run> <count> <minlen> <maxlen> at @w.
 * Returns NULL when they are good, "" when a word is malformed or out of
 * range (the caller prints its usage), else what is wrong with the range.
 */
static inline const char *pp_parse_tx_words(char *const *w,
                                            struct pp_tx_words *t)
{
    if (pp_parse_mac(w[0], t->dst) < 0 ||
        pp_parse_u32(w[1], UINT32_MAX, &t->run) < 0 ||
        pp_parse_u32(w[2], PP_MAX_COUNT, &t->count) < 0 ||
        pp_parse_u32(w[3], PP_MAX_LEN, &t->min) < 0 ||
        pp_parse_u32(w[4], PP_MAX_LEN, &t->max) < 0) {
        return "";
    }
    return pp_check_range(t->min, t->max);
}

/* The receive session RX (peer) and RXSTART (agent) ask for. */
struct pp_rx_words {
    uint32_t run, count;
    bool has_src;           /* src: the only sender whose frames count */
    bool fcs;               /* frames end in their FCS (rx-fcs on) */
    uint8_t src[PP_ETH_ALEN];
};

/* Parse the @n words <run> <count> [<srcmac>] [fcs] at @w; 0 or -1. */
static inline int pp_parse_rx_words(char *const *w, int n,
                                    struct pp_rx_words *r)
{
    r->fcs = n > 2 && strcmp(w[n - 1], "fcs") == 0;
    if (r->fcs) {
        n--;
    }
    r->has_src = n == 3;
    if ((n != 2 && n != 3) || pp_parse_u32(w[0], UINT32_MAX, &r->run) < 0 ||
        pp_parse_u32(w[1], PP_MAX_COUNT, &r->count) < 0 ||
        (r->has_src && pp_parse_mac(w[2], r->src) < 0)) {
        return -1;
    }
    return 0;
}

#endif /* E1000EPP_CMDARGS_H */
