/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics (82574L §10.2.7). Every counter is clear-on-read (handled by
 * the register table); counters saturate instead of wrapping (§10.2.7:
 * "the counters stick at all ones").
 */
#include "eth.h"
#include "stats.h"

/*
 * Size buckets PRC64..PRC1522 / PTC64..PTC1522 count the wire length:
 * up to 64, then 65-127, 128-255, 256-511, 512-1023 (one per power of
 * two: the bucket is the bit length less 6) and 1024-1522; longer
 * frames count in none.
 */
static void size_bucket(E1000EPPCore *c, uint32_t base64, size_t len)
{
    unsigned i;

    if (len <= 64) {
        i = 0;
    } else if (len < 1024) {
        i = 31 - (unsigned)__builtin_clz((unsigned)len) - 5;
    } else if (len <= 1522) {
        i = 5;
    } else {
        return;
    }
    e1000e_pp_stat_inc(c, base64 + 4 * i);
}

/* wire_len includes the 4-byte FCS, as the hardware counts octets. */
void e1000e_pp_stats_rx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len)
{
    e1000e_pp_stat_inc(c, GPRC);
    e1000e_pp_stat_add64(c, GORCL, wire_len);
    size_bucket(c, PRC64, wire_len);
    if (eth_is_broadcast(frame)) {
        e1000e_pp_stat_inc(c, BPRC);
    } else if (frame[0] & 1) {
        e1000e_pp_stat_inc(c, MPRC);
    }
}

void e1000e_pp_stats_tx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len)
{
    e1000e_pp_stat_inc(c, GPTC);
    e1000e_pp_stat_inc(c, TPT);
    e1000e_pp_stat_add64(c, GOTCL, wire_len);
    e1000e_pp_stat_add64(c, TOTL, wire_len);
    size_bucket(c, PTC64, wire_len);
    if (eth_is_broadcast(frame)) {
        e1000e_pp_stat_inc(c, BPTC);
    } else if (frame[0] & 1) {
        e1000e_pp_stat_inc(c, MPTC);
    }
}
