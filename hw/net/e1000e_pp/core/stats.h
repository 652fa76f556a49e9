/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics (stats.c, §10.2.7): the per-frame counters.
 */
#ifndef E1000E_PP_STATS_H
#define E1000E_PP_STATS_H

#include "common.h"

/*
 * stats.c, inline: several per received frame. Counters stick at all
 * ones (§10.2.7) instead of wrapping.
 */
static inline void e1000e_pp_stat_inc(E1000EPPCore *c, uint32_t off)
{
    REG(c, off) += REG(c, off) != UINT32_MAX;
}

static inline void e1000e_pp_stat_add64(E1000EPPCore *c, uint32_t lo,
                                        uint64_t n)
{
    uint64_t v = REG(c, lo) | (uint64_t)REG(c, lo + 4) << 32;

    v = v + n < v ? UINT64_MAX : v + n;
    REG(c, lo) = (uint32_t)v;
    REG(c, lo + 4) = (uint32_t)(v >> 32);
}
void e1000e_pp_stats_rx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len);

/* §10.2.7: TPR/TOR count every frame the MAC takes in, good or not. */
static inline void e1000e_pp_stats_rx_total(E1000EPPCore *c, size_t wire_len)
{
    e1000e_pp_stat_inc(c, TPR);
    e1000e_pp_stat_add64(c, TORL, wire_len);
}

void e1000e_pp_stats_tx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len);

#endif
