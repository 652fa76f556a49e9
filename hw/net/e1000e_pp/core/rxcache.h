/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The on-chip Rx descriptor cache and the ring pointers (rxcache.c,
 * §7.1.6).
 */
#ifndef E1000E_PP_RXCACHE_H
#define E1000E_PP_RXCACHE_H

#include "rxdesc.h"

/* rxcache.c: the on-chip descriptor cache and the ring pointers */
uint32_t e1000e_pp_rx_ring_free(E1000EPPCore *c);
void e1000e_pp_rxcache_clear(E1000EPPCore *c);
void e1000e_pp_rxcache_hold(E1000EPPCore *c, uint32_t n);
void e1000e_pp_rxcache_ring_set(E1000EPPCore *c, uint32_t off, uint32_t val,
                                uint32_t old);
void e1000e_pp_rdh_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_rxcache_fetch_pending(E1000EPPCore *c);
unsigned e1000e_pp_rxcache_avail(E1000EPPCore *c);
void e1000e_pp_rxcache_demand(E1000EPPCore *c);
void e1000e_pp_rxcache_prefetch_slow(E1000EPPCore *c);

/* RDT was written or RCTL.EN set: fetch in this entry point's step. */
static inline void e1000e_pp_rxcache_tail_moved(E1000EPPCore *c)
{
    c->arch.rxcache.fetch_pending = true;
}

/* Entry i of the cache's FIFO (16 or 32 bytes, as the ring's format). */
static inline uint8_t *e1000e_pp_rxcache_entry(E1000EPPRxCache *rc,
                                               unsigned i, unsigned dsz)
{
    return rc->bytes + ((rc->head + i) % E1000E_PP_RX_CACHE) * dsz;
}

/* The descriptor at RDH, fetched on demand; NULL when the ring is dry. */
static inline uint8_t *e1000e_pp_rxcache_peek(E1000EPPCore *c)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;

    if (!rc->count) {
        e1000e_pp_rxcache_demand(c);
        if (!rc->count) {
            return NULL;
        }
    }
    return e1000e_pp_rxcache_entry(rc, 0, rc->dsz);
}

/* The descriptor at RDH is used: the head moves past it. */
static inline void e1000e_pp_rxcache_pop(E1000EPPCore *c)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;
    uint32_t h = REG(c, RDH) + rc->dsz / 16;
    uint32_t n = e1000e_pp_rx_ring_units(c);

    rc->head = (rc->head + 1) % E1000E_PP_RX_CACHE;
    rc->count--;
    REG(c, RDH) = h >= n ? h - n : h;
}

/* Point 3 (rxcache.c): only with RXDCTL.PTHRESH set. */
static inline void e1000e_pp_rxcache_prefetch(E1000EPPCore *c)
{
    if (REG(c, RXDCTL) & 0x3f) {
        e1000e_pp_rxcache_prefetch_slow(c);
    }
}

#endif
