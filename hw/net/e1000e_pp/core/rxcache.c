/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The on-chip receive descriptor cache (82574L §7.1.6 "Receive
 * Descriptor Fetching", §10.2.5 RXDCTL) and the ring pointers it walks.
 *
 * The device reads descriptors ahead of use: "when the on-chip buffer is
 * empty, a fetch happens as soon as any descriptors are made available
 * (software writes to the tail pointer)", and "when the on-chip buffer
 * is nearly empty (RXDCTL.PTHRESH), a prefetch is performed whenever
 * enough valid descriptors (RXDCTL.HTHRESH) are available in host
 * memory". It "never fetches descriptors beyond the descriptor tail
 * pointer". A descriptor is used as it was fetched; the driver's later
 * writes to it are not seen. The model fetches at exactly these points:
 *
 *  1. in the settle step of an RDT write, and when RCTL.EN is set, if
 *     the cache is empty: as many descriptors as RDH..RDT holds, up to
 *     the cache size (if it is not empty, point 3's rule decides);
 *  2. when the engine needs a descriptor and the cache is empty
 *     ("demand": the tail moved earlier, past what one fetch held);
 *  3. after a frame's EOP (and at a tail write), when fewer than
 *     PTHRESH remain cached and at least HTHRESH (at least one) wait in
 *     host memory.
 *
 * The x-rx-fetch-limit knob (config.rx_fetch_limit = N) shrinks the cache
 * to N and keeps only point 1, so the ring runs dry after exactly N
 * descriptors until RDT is written again.
 *
 * The x-rx-hold-desc knob (config.rx_hold_desc = K) lets the engine use
 * K more descriptors, then none until it is 0 again: of what is cached
 * the first K stay in use, the rest wait behind them, and fetches add
 * only what is left of K. A frame in progress then stops where a ring
 * run dry would stop it, and goes on when the knob is released. Only
 * the knob's own entry point and fetches look at it: frames pay nothing.
 *
 * A tail written backwards drops what it no longer covers from the
 * cache (when the engine next looks). A fetch that fails (no
 * completion) caches nothing; it is listed as a DMA fault and tried
 * again at the next fetch point. The cache empties when the ring is
 * set up again (RDBAL/RDBAH/RDLEN/RDH written), when RCTL.EN, the
 * descriptor type or a buffer size (RCTL, PSRCTL) change, and on reset.
 */
#include <string.h>

#include "compiler.h"
#include "common.h"
#include "log.h"
#include "moderation.h"
#include "rxcache.h"
#include "rxdesc.h"
#include "dma.h"

static unsigned cache_size(E1000EPPCore *c)
{
    uint32_t lim = c->cfg.rx_fetch_limit;

    return lim && lim < E1000E_PP_RX_CACHE ? lim : E1000E_PP_RX_CACHE;
}

/* Descriptors the guest handed to the device: RDH up to RDT. */
uint32_t e1000e_pp_rx_ring_free(E1000EPPCore *c)
{
    RxFormat f = e1000e_pp_rx_format(c);
    unsigned du = e1000e_pp_rx_desc_units(f);
    uint32_t n = e1000e_pp_rx_ring_units(c), h = REG(c, RDH);
    uint32_t t = REG(c, RDT);

    if (!n || h >= n || t >= n || (du == 2 && ((h | t) & 1))) {
        if (n && t != h) {
            e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, RDT,
                          "Rx ring: RDH %u / RDT %u not descriptors of a "
                          "%u-unit ring; receive waits", h, t, n);
        }
        return 0;
    }
    /* RDH == RDT: the ring holds no descriptors for the device. */
    return (t >= h ? t - h : n - h + t) / du;
}

void e1000e_pp_rxcache_clear(E1000EPPCore *c)
{
    c->arch.rxcache.head = c->arch.rxcache.count = 0;
    c->arch.rxcache.hidden = 0;
}

/* x-rx-hold-desc: K more descriptors (n), or all again (0). */
void e1000e_pp_rxcache_hold(E1000EPPCore *c, uint32_t n)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;
    unsigned cached = rc->count + rc->hidden;

    c->cfg.rx_hold_desc = n;
    if (!n) {
        /* A tail moved back meanwhile is applied at the next look. */
        rc->count = cached;
        rc->hidden = 0;
        rc->hold_left = 0;
        return;
    }
    rc->count = cached < n ? cached : n;
    rc->hidden = cached - rc->count;
    rc->hold_left = n - rc->count;
}

/* The ring is set up again: forget what was fetched and posted. */
void e1000e_pp_rxcache_ring_set(E1000EPPCore *c, uint32_t off, uint32_t val,
                                uint32_t old)
{
    E1000EPPRxSlots *rs = &c->obs.rxslots;

    e1000e_pp_rxcache_clear(c);
    /* Every slot forgets its buffer: 0 never matches after a wrap. */
    if (++rs->gen == 0) {
        memset(rs->last_gen, 0, sizeof(rs->last_gen));
        rs->gen = 1;
    }
    rs->buf_new = rs->buf_reposted = 0;
}

/*
 * RDH written (software moved the head: what was cached is for another
 * slot) or PSRCTL (the buffers were fetched for other sizes).
 */
void e1000e_pp_rdh_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old)
{
    e1000e_pp_rxcache_clear(c);
}

/*
 * Is this slot's buffer new, or the one posted there last
 * since the ring was set up (last_gen == gen)?
 */
static void track_buffer(E1000EPPRxSlots *rs, uint32_t slot, uint64_t addr)
{
    if (slot >= E1000E_PP_RX_SLOTS) {
        rs->buf_new++;          /* not tracked (docs/fidelity.md) */
        return;
    }
    if (rs->last_gen[slot] == rs->gen && rs->last_addr[slot] == addr) {
        rs->buf_reposted++;
        return;
    }
    rs->buf_new++;
    rs->last_gen[slot] = rs->gen;
    rs->last_addr[slot] = addr;
}

static uint8_t *entry(E1000EPPRxCache *rc, unsigned i, unsigned dsz)
{
    return e1000e_pp_rxcache_entry(rc, i, dsz);
}

/*
 * Read up to "want" descriptors (never past RDT) into the cache: one
 * DMA read, two where the ring wraps. An empty cache starts over at
 * entry 0, so the common fetch lands in place without a copy.
 */
static void fetch(E1000EPPCore *c, unsigned want)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;
    unsigned du = e1000e_pp_rx_desc_units(e1000e_pp_rx_format(c));
    unsigned dsz = 16 * du, room = cache_size(c), k, first, i;
    uint32_t n = e1000e_pp_rx_ring_units(c), host = e1000e_pp_rx_ring_free(c);
    uint64_t base = e1000e_pp_rx_ring_base(c);
    uint8_t tmp[E1000E_PP_RX_CACHE * 32] E1000E_PP_NOINIT;
    uint8_t *dst = tmp;
    uint32_t pos, slot;

    if (host <= rc->count || room <= rc->count) {
        return;
    }
    k = host - rc->count;
    k = k < room - rc->count ? k : room - rc->count;
    k = k < want ? k : want;
    if (c->cfg.rx_hold_desc) {
        k = k < rc->hold_left ? k : rc->hold_left;
        if (!k) {
            return;
        }
    }
    if (!rc->count) {
        rc->head = 0;
        rc->dsz = dsz;
        dst = rc->bytes;
    }
    pos = (REG(c, RDH) + rc->count * du) % n;
    first = (n - pos) / du;
    first = first < k ? first : k;
    if (!e1000e_pp_dma_read(c, base + pos * 16ull, dst, (size_t)first * dsz)) {
        e1000e_pp_dma_fault(c, "rx-desc-fetch", pos / du, base + pos * 16ull,
                            0, first * dsz, false);
        return;
    }
    if (k > first &&
        !e1000e_pp_dma_read(c, base, dst + first * dsz,
                            (size_t)(k - first) * dsz)) {
        e1000e_pp_dma_fault(c, "rx-desc-fetch", 0, base, 0,
                            (k - first) * dsz, false);
        k = first;
    }
    slot = pos / du;
    for (i = 0; i < k; i++) {
        uint8_t *d = dst + i * dsz;

        if (dst == tmp) {
            d = entry(rc, rc->count + i, dsz);
            memcpy(d, tmp + i * dsz, dsz);
        }
        track_buffer(&c->obs.rxslots, slot, get_le64(d));
        slot = slot + 1 == n / du ? 0 : slot + 1;
    }
    rc->count += k;
    if (c->cfg.rx_hold_desc) {
        rc->hold_left -= k;
    }
}

/*
 * Point 1, from the Rx engine when it may master the bus: an empty
 * cache fetches what the tail made available; one that is not empty
 * waits for the PTHRESH rule (point 3) or for running empty (point 2).
 */
void e1000e_pp_rxcache_fetch_pending(E1000EPPCore *c)
{
    c->arch.rxcache.fetch_pending = false;
    if (!c->arch.rxcache.count) {
        fetch(c, E1000E_PP_RX_CACHE);
    } else {
        e1000e_pp_rxcache_prefetch(c);
    }
}

/*
 * Descriptors the engine may use now: those cached and, unless the
 * knob restricts fetching to tail writes, those a demand fetch reaches.
 */
unsigned e1000e_pp_rxcache_avail(E1000EPPCore *c)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;
    uint32_t host = e1000e_pp_rx_ring_free(c);

    /*
     * A tail written backwards takes back the descriptors it no longer
     * covers that the device fetched but has not used (the datasheet
     * does not say; docs/fidelity.md).
     */
    if (rc->count > host) {
        rc->count = host;
    }
    return c->cfg.rx_fetch_limit ? rc->count : host;
}

/* Point 2: the engine needs a descriptor and the cache is empty. */
void e1000e_pp_rxcache_demand(E1000EPPCore *c)
{
    if (!c->cfg.rx_fetch_limit) {
        fetch(c, E1000E_PP_RX_CACHE);
    }
}

/* Fetch point 3: RXDCTL.PTHRESH / HTHRESH, after a frame's EOP. */
void e1000e_pp_rxcache_prefetch_slow(E1000EPPCore *c)
{
    uint32_t dctl = REG(c, RXDCTL), host;
    unsigned dsz, pthresh, hthresh;

    if (c->cfg.rx_fetch_limit) {
        return;
    }
    dsz = 16 * e1000e_pp_rx_desc_units(e1000e_pp_rx_format(c));
    pthresh = e1000e_pp_dctl_thresh(dctl, 0, dsz);
    hthresh = e1000e_pp_dctl_thresh(dctl, 8, dsz);
    if (c->arch.rxcache.count >= pthresh) {
        return;
    }
    host = e1000e_pp_rx_ring_free(c);
    if (host > c->arch.rxcache.count &&
        host - c->arch.rxcache.count >= (hthresh ? hthresh : 1)) {
        fetch(c, E1000E_PP_RX_CACHE);
    }
}
