/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page-pool receive design (libeth-style): one path at every MTU,
 * RCTL.BSIZE 2048, buffers carved from 4 KB pages (two 2 KB chunks per
 * page while the chunk truesize is 2048 and LPE=0, one buffer per page
 * above), DMA address = chunk start + 64 bytes of headroom, frames
 * assembled from 2 KB pieces, FCS stripped in software, truesize as
 * libeth computes it, and pool accounting that proves no chunk leaks.
 *
 * Pool invariant: every chunk is free (on the free stack), posted (in
 * exactly one posted slot) or held (by one delivered frame, until it is
 * released).
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "libqos/libqos-malloc.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-pagepool.h"

/* ---------------------------------------------------------------- */
/* libeth sizes                                                     */
/* ---------------------------------------------------------------- */

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/*
 * libeth: max_len = 4096 - headroom - aligned skb_shared_info, rounded
 * down to 128; buf_len = min(ALIGN(mtu + 26, 128), max_len).  26 is
 * the Ethernet header, two VLAN tags and the FCS (LIBETH_RX_LL_LEN).
 */
size_t epp_pp_buf_len(unsigned mtu)
{
    size_t max_len = (EPP_PP_PAGE - EPP_PP_HEADROOM - EPP_PP_SHINFO) &
                     ~(size_t)127;

    return MIN(align_up(mtu + 26, 128), max_len);
}

/*
 * Two chunks per page while LPE=0 (MTU <= 1500): then frames are at
 * most 1522 bytes with the FCS and a tag, and a 2048-byte BSIZE cannot
 * run past the 1984 bytes behind the headroom.  With LPE=1 the device
 * may fill all 2048 bytes of a buffer, so every buffer gets a page of
 * its own.  RCTL.BSIZE stays 2048 at every MTU, so a chunk is never
 * smaller than half a page, whatever libeth's formula gives for small
 * MTUs (512 at MTU 68).
 */
unsigned epp_pp_chunks_per_page(unsigned mtu)
{
    return mtu <= 1500 ? 2 : 1;
}

/*
 * What one buffer costs: its share of the page.  From MTU 1501 a buffer
 * has the whole 4 KB page even where libeth's truesize formula alone
 * would say 2048 (MTU 1501-1638), so that is what the design charges.
 */
size_t epp_pp_chunk_truesize(unsigned mtu)
{
    return EPP_PP_PAGE / epp_pp_chunks_per_page(mtu);
}

/* ---------------------------------------------------------------- */
/* The pool                                                         */
/* ---------------------------------------------------------------- */

EppPagePool *epp_rx_pagepool(EppRx *rx)
{
    g_assert(rx->ops == &epp_rx_pagepool_ops);
    return rx->design;
}

static uint64_t chunk_addr(EppPagePool *pp, unsigned c)
{
    unsigned page = c / pp->chunks_per_page;
    unsigned idx = c % pp->chunks_per_page;

    return pp->pool + (uint64_t)page * EPP_PP_PAGE +
           idx * (EPP_PP_PAGE / pp->chunks_per_page);
}

static void chunk_set(EppPagePool *pp, unsigned c, EppChunkState st)
{
    EppChunkState old = pp->chunk_state[c];

    if (old == EPP_CHUNK_POSTED) {
        pp->n_posted_chunks--;
    } else if (old == EPP_CHUNK_HELD) {
        pp->n_held_chunks--;
    }
    if (st == EPP_CHUNK_POSTED) {
        pp->n_posted_chunks++;
    } else if (st == EPP_CHUNK_HELD) {
        pp->n_held_chunks++;
    } else {
        pp->free_stack[pp->nfree++] = c;
    }
    pp->chunk_state[c] = st;
}

static void pp_configure(EppRx *rx, uint32_t *rctl, uint32_t *rfctl)
{
    rx->format = rx->s.format;
    g_assert(rx->format != EPP_RXF_SPLIT);
    rx->hw_bufsize = 2048;
    if (rx->s.mtu > 1500) {
        *rctl |= RCTL_LPE;
    }
    *rfctl = rx->format == EPP_RXF_EXTENDED ? RFCTL_EXTEN : 0;
}

static void pp_start(EppRx *rx)
{
    EppPagePool *pp = g_new0(EppPagePool, 1);
    unsigned c;

    rx->design = pp;
    pp->buf_len = epp_pp_buf_len(rx->s.mtu);
    pp->chunk_truesize = epp_pp_chunk_truesize(rx->s.mtu);
    pp->chunks_per_page = epp_pp_chunks_per_page(rx->s.mtu);
    /* Enough for a full ring plus a ring's worth of frames in flight */
    pp->nchunks = 2 * rx->count;
    pp->npages = DIV_ROUND_UP(pp->nchunks, pp->chunks_per_page);
    pp->nchunks = pp->npages * pp->chunks_per_page;
    pp->pool = epp_alloc(rx->d, (size_t)pp->npages * EPP_PP_PAGE);
    g_assert_cmphex(pp->pool & (EPP_PP_PAGE - 1), ==, 0);
    pp->chunk_state = g_new0(EppChunkState, pp->nchunks);
    pp->chunk_owner = g_new0(uint64_t, pp->nchunks);
    pp->free_stack = g_new(unsigned, pp->nchunks);
    pp->nfree = 0;
    /* page_pool maps each page once, when it enters the pool */
    rx->dma_maps += pp->npages;
    /* Push in reverse so chunk 0 is handed out first */
    for (c = pp->nchunks; c-- > 0;) {
        pp->free_stack[pp->nfree++] = c;
    }
}

static void pp_destroy(EppRx *rx)
{
    EppPagePool *pp = rx->design;

    guest_free(&rx->d->alloc, pp->pool);
    g_free(pp->chunk_state);
    g_free(pp->chunk_owner);
    g_free(pp->free_stack);
    g_free(pp);
}

static bool pp_fill_slot(EppRx *rx, unsigned i)
{
    EppPagePool *pp = rx->design;
    EppRxBuf *b = &rx->slot[i].buf[0];
    unsigned c;

    rx->slot[i].nbuf = 1;
    if (!pp->nfree) {
        return false;
    }
    c = pp->free_stack[--pp->nfree];
    g_assert(pp->chunk_state[c] == EPP_CHUNK_FREE);
    chunk_set(pp, c, EPP_CHUNK_POSTED);
    b->region = chunk_addr(pp, c);
    b->region_len = EPP_PP_PAGE / pp->chunks_per_page;
    b->dma = b->region + EPP_PP_HEADROOM;
    b->map_len = b->region_len - EPP_PP_HEADROOM;
    b->chunk = c;
    b->mapped = true;
    /* PP_FLAG_DMA_SYNC_DEV: synced for the device as it is handed out */
    rx->dma_syncs++;
    return true;
}

/*
 * Every chunk of the frame is held by it until release, except a last
 * piece that held only FCS bytes: that one goes straight back.  The frame
 * is charged pieces kept x chunk truesize + the sk_buff.
 */
static void pp_frame_done(EppRx *rx, EppRxFrame *f)
{
    EppPagePool *pp = rx->design;
    unsigned i = f->first_desc, k, nchunks = 0;
    int last = -1;

    for (k = 0; k < f->ndesc; k++) {
        EppRxBuf *b = &rx->slot[i].buf[0];

        if (b->region && b->chunk >= 0) {
            /* libeth_rx_sync_for_cpu on every buffer the frame used */
            rx->dma_syncs++;
            chunk_set(pp, b->chunk, EPP_CHUNK_HELD);
            pp->chunk_owner[b->chunk] = f->seq;
            last = b->chunk;
            nchunks++;
            b->chunk = -1;
            b->region = 0;
        }
        i = epp_rx_ring_next(rx, i);
    }
    if (f->pieces_kept < nchunks) {
        chunk_set(pp, last, EPP_CHUNK_FREE);
    }
    f->truesize = f->pieces_kept * pp->chunk_truesize + EPP_PP_SKB;
}

/*
 * The discard path: a frame with a frame error is dropped before any
 * skb exists; each of its chunks goes straight back to the pool (synced
 * for the CPU first, as every buffer the device returns is).
 */
static void pp_frame_error(EppRx *rx, EppRxFrame *f)
{
    EppPagePool *pp = rx->design;
    unsigned i = f->first_desc, k;

    for (k = 0; k < f->ndesc; k++) {
        EppRxBuf *b = &rx->slot[i].buf[0];

        if (b->region && b->chunk >= 0) {
            rx->dma_syncs++;
            chunk_set(pp, b->chunk, EPP_CHUNK_FREE);
            b->chunk = -1;
            b->region = 0;
        }
        i = epp_rx_ring_next(rx, i);
    }
}

/* Every chunk the frame occupied, the FCS-only one included */
static void pp_published_cost(EppRx *rx, const EppRxFrame *f,
                              unsigned *pieces, size_t *truesize)
{
    EppPagePool *pp = rx->design;

    *pieces = f->ndesc;
    *truesize = f->ndesc * pp->chunk_truesize + EPP_PP_SKB;
}

static void pp_release(EppRx *rx, EppRxFrame *f)
{
    EppPagePool *pp = rx->design;
    unsigned c;

    for (c = 0; c < pp->nchunks; c++) {
        if (pp->chunk_state[c] == EPP_CHUNK_HELD &&
            pp->chunk_owner[c] == f->seq) {
            chunk_set(pp, c, EPP_CHUNK_FREE);
        }
    }
}

static void pp_check(EppRx *rx)
{
    EppPagePool *pp = rx->design;
    unsigned c, n[3] = { 0 };
    unsigned in_slots = 0, i;

    for (c = 0; c < pp->nchunks; c++) {
        n[pp->chunk_state[c]]++;
    }
    for (i = 0; i < rx->count; i++) {
        if (rx->slot[i].posted && rx->slot[i].buf[0].chunk >= 0) {
            in_slots++;
        }
    }
    /* Every chunk is free, posted or held by a frame; counts agree */
    g_assert_cmpuint(n[EPP_CHUNK_FREE], ==, pp->nfree);
    g_assert_cmpuint(n[EPP_CHUNK_POSTED], ==, pp->n_posted_chunks);
    g_assert_cmpuint(n[EPP_CHUNK_HELD], ==, pp->n_held_chunks);
    g_assert_cmpuint(n[0] + n[1] + n[2], ==, pp->nchunks);
    g_assert_cmpuint(in_slots, ==, pp->n_posted_chunks);
    /* Between frames nothing is held but the frame being built */
    g_assert_cmpuint(pp->n_held_chunks, ==,
                     rx->chain ? rx->chain->ndesc : 0);
}

/* Multi-buffer frames: a frame is built from 2 KB pieces across polls */
static bool pp_chains(EppRx *rx)
{
    return true;
}

/* The chunk leaves its slot, held by the frame being built */
static void pp_chain_add(EppRx *rx, unsigned i, EppRxFrame *chain)
{
    EppPagePool *pp = rx->design;
    EppRxBuf *b = &rx->slot[i].buf[0];

    g_assert(b->region && b->chunk >= 0);
    rx->dma_syncs++;
    chunk_set(pp, b->chunk, EPP_CHUNK_HELD);
    pp->chunk_owner[b->chunk] = chain->seq;
    pp->chain_last = b->chunk;
    b->chunk = -1;
    b->region = 0;
}

/* As pp_frame_done: an FCS-only last piece goes straight back */
static void pp_chain_done(EppRx *rx, EppRxFrame *f)
{
    EppPagePool *pp = rx->design;

    if (f->pieces_kept < f->ndesc) {
        chunk_set(pp, pp->chain_last, EPP_CHUNK_FREE);
    }
    f->truesize = f->pieces_kept * pp->chunk_truesize + EPP_PP_SKB;
}

/* A frame error on the EOP: every piece of the frame back to the pool */
static void pp_chain_drop(EppRx *rx, EppRxFrame *chain)
{
    pp_release(rx, chain);
}

const EppRxDesignOps epp_rx_pagepool_ops = {
    .name = "pagepool",
    .configure = pp_configure,
    .start = pp_start,
    .fill_slot = pp_fill_slot,
    .tail = epp_rx_tail_per_batch,
    .sw_fcs_strip = true,
    .frame_done = pp_frame_done,
    .frame_error = pp_frame_error,
    .published_cost = pp_published_cost,
    .release = pp_release,
    .check = pp_check,
    .chains = pp_chains,
    .chain_add = pp_chain_add,
    .chain_done = pp_chain_done,
    .chain_drop = pp_chain_drop,
    .destroy = pp_destroy,
};
