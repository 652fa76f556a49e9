/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Situation coverage of the e1000e-pp core (coverage.c, docs/coverage.md):
 * the per-frame increments inline. Included where a situation is counted.
 */
#ifndef E1000E_PP_COVERAGE_H
#define E1000E_PP_COVERAGE_H

#include "rxdesc.h"
#include "rxframe.h"

/*
 * coverage.c: situation coverage. The engines call e1000e_pp_cover where
 * a situation happens (an increment); the helpers below classify a
 * whole step where that takes a look at the frame or the ring.
 */
static inline void e1000e_pp_cover(E1000EPPCore *c, E1000EPPSituation s)
{
    c->obs.situations[s]++;
}
void e1000e_pp_cover_fcs(E1000EPPCore *c, const RxFrame *fr, size_t off);
void e1000e_pp_cover_offloads(E1000EPPCore *c, const E1000EPPRxInfo *info);
void e1000e_pp_cover_partial(E1000EPPCore *c);

/* Per chunk and per frame: only the cases that can count leave inline. */
static inline void e1000e_pp_cover_chunk(E1000EPPCore *c, const RxFrame *fr,
                                         size_t off, size_t n)
{
    if (off && off + n == fr->len && !(REG(c, RCTL) & RCTL_SECRC)) {
        e1000e_pp_cover_fcs(c, fr, off);
    }
}
static inline void e1000e_pp_cover_rx_info(E1000EPPCore *c,
                                           const E1000EPPRxInfo *info)
{
    if (info->vp ||
        (info->status & (RXD_STAT_IPCS | RXD_STAT_UDPCS | RXD_STAT_TCPCS))) {
        e1000e_pp_cover_offloads(c, info);
    }
}
static inline void e1000e_pp_cover_moved(E1000EPPCore *c, bool complete)
{
    if (!complete) {
        e1000e_pp_cover_partial(c);
    }
}
void e1000e_pp_cover_tx(E1000EPPCore *c, bool ixsm, bool txsm, bool tse);
void e1000e_pp_cover_link(E1000EPPCore *c);

#endif
