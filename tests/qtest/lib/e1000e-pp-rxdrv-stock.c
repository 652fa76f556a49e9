/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stock receive design: the in-tree Linux e1000e choices for the
 * 82574 (netdev.c: e1000_setup_rctl, e1000_configure_rx,
 * e1000_alloc_rx_buffers[_ps], e1000_clean_rx_irq[_ps]).
 *
 * MTU <= 1500: extended descriptors, 1522-byte buffers under RCTL.BSIZE
 * 2048 with LPE=0, copybreak 256.  MTU > 1500: packet split with a
 * 128-byte header buffer and 4 KB pages; with packet split off, the
 * jumbo path (e1000_alloc_jumbo_rx_buffers, e1000_clean_jumbo_rx_irq):
 * one page per descriptor under RCTL.BSIZE = rx_buffer_len (2048 while
 * the frame fits, 4096 above), frames chained over descriptors.  The
 * FLAG2_DMA_BURST defaults decide when descriptors become visible (the
 * ring's dma_burst timing), and the tail moves every 16 descriptors, as
 * E1000_RX_BUFFER_WRITE makes it; cleaning per descriptor (per_desc),
 * the jumbo path moves it once per refill batch, to next_to_use - 1, as
 * e1000_alloc_jumbo_rx_buffers does (the whole-frame ring keeps the
 * every-16th policy there, which the published-table scenarios measure).
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-stock.h"

#define EPP_STOCK_COPYBREAK 256         /* netdev.c: copybreak default */
#define EPP_STOCK_WRITE     16          /* E1000_RX_BUFFER_WRITE */
#define EPP_STOCK_PS_BSIZE0 128         /* adapter->rx_ps_bsize0 */
#define EPP_STOCK_PAGE      4096        /* PAGE_SIZE on x86-64 */

/*
 * The skb heads as the page-pool series' table charges them (x86-64):
 * the standard path's skb of rx_buffer_len 1522, and packet split's
 * 128-byte header skb (each page then adds PAGE_SIZE).  The jumbo path
 * (not in the table) is charged the split path's head as well.
 */
#define EPP_STOCK_STD_TRUESIZE  2688
#define EPP_STOCK_PS_HEAD       768

typedef struct EppStock {
    unsigned copybreak;
    bool copybreak_sync;        /* EPP_CB_SYNC */
    bool *copied;               /* per first descriptor of a frame */
    /* per_desc jumbo: the pages of rx_skb_top, off their slots */
    EppRxBuf held[EPP_RX_MAX_PIECES];
    unsigned nheld;
    bool batch_filled;          /* per_desc jumbo: tail policy */
} EppStock;

bool epp_rx_stock_copied(EppRx *rx, const EppRxFrame *f)
{
    EppStock *st = rx->design;

    g_assert(rx->ops == &epp_rx_stock_ops);
    return st->copied[f->first_desc];
}

static bool is_jumbo(EppRx *rx)
{
    return rx->format == EPP_RXF_EXTENDED && rx->s.mtu > 1500;
}

/* e1000_setup_rctl / e1000_change_mtu */
static void stock_configure(EppRx *rx, uint32_t *rctl, uint32_t *rfctl)
{
    unsigned pages = 0, j;

    /* The driver leaves RCTL.RDMTS at 1/2 */
    *rctl &= ~RCTL_RDMTS_8TH;
    if (rx->s.mtu > 1500) {
        *rctl |= RCTL_LPE;
        pages = DIV_ROUND_UP(rx->s.mtu, EPP_STOCK_PAGE);
        g_assert(pages <= 3);
    }
    if (pages && rx->s.no_packet_split) {
        /* rx_buffer_len: 2048 while max_frame fits, else 4096 */
        rx->format = EPP_RXF_EXTENDED;
        rx->hw_bufsize = rx->s.mtu + 22 > 2048 ? 4096 : 2048;
        if (rx->hw_bufsize == 4096) {
            *rctl |= RCTL_BSIZE_4096;
        }
    } else if (pages) {
        rx->format = EPP_RXF_SPLIT;
        *rctl |= RCTL_DTYP_PS;
        /* rx_buffer_len 4096 (BSEX) above 2048-byte frames */
        if (rx->s.mtu + 22 > 2048) {
            *rctl |= RCTL_BSIZE_4096;
        }
        rx->ps_size[0] = EPP_STOCK_PS_BSIZE0;
        for (j = 1; j <= pages; j++) {
            rx->ps_size[j] = EPP_STOCK_PAGE;
        }
    } else {
        rx->format = EPP_RXF_EXTENDED;
        rx->hw_bufsize = 2048;
    }
    *rfctl = RFCTL_EXTEN;
}

static void stock_start(EppRx *rx)
{
    EppStock *st = g_new0(EppStock, 1);

    st->copybreak = rx->s.copybreak == EPP_CB_OFF ? 0 : EPP_STOCK_COPYBREAK;
    st->copybreak_sync = rx->s.copybreak == EPP_CB_SYNC;
    st->copied = g_new0(bool, rx->count);
    rx->design = st;
}

static void free_held(EppRx *rx)
{
    EppStock *st = rx->design;

    while (st->nheld) {
        epp_rx_buf_free(rx, &st->held[--st->nheld]);
    }
}

static void stock_destroy(EppRx *rx)
{
    EppStock *st = rx->design;

    free_held(rx);

    g_free(st->copied);
    g_free(st);
}

static bool stock_fill_slot(EppRx *rx, unsigned i)
{
    EppRxSlot *sl = &rx->slot[i];
    unsigned j;

    if (rx->format == EPP_RXF_SPLIT) {
        /* header skb: NET_SKB_PAD + 128; pages mapped from offset 0 */
        if (!sl->buf[0].region) {
            sl->buf[0] = epp_rx_buf_alloc(rx, 64, EPP_STOCK_PS_BSIZE0, 0);
        }
        for (j = 1; j < 4; j++) {
            if (rx->ps_size[j] && !sl->buf[j].region) {
                sl->buf[j] = epp_rx_buf_alloc(rx, 0, EPP_STOCK_PAGE, 0);
            }
        }
        sl->nbuf = 4;
    } else if (is_jumbo(rx)) {
        /* a page, the device writing at most rx_buffer_len into it */
        if (!sl->buf[0].region) {
            sl->buf[0] = epp_rx_buf_alloc(rx, 0, rx->hw_bufsize,
                                          EPP_STOCK_PAGE - rx->hw_bufsize);
        }
        sl->nbuf = 1;
    } else {
        /* skb of rx_buffer_len (1522) behind NET_SKB_PAD */
        if (!sl->buf[0].region) {
            sl->buf[0] = epp_rx_buf_alloc(rx, 64, rx->hw_bufsize == 2048 &&
                                          rx->s.mtu <= 1500 ? 1522 :
                                          rx->hw_bufsize, 64);
        }
        sl->nbuf = 1;
    }
    /*
     * e1000_alloc_rx_buffers[_ps] maps every buffer it hands the device
     * unless it is still mapped (a page kept by the split path's
     * copybreak, or a copied skb under EPP_CB_SYNC).
     */
    for (j = 0; j < sl->nbuf; j++) {
        if (sl->buf[j].region && !sl->buf[j].mapped) {
            sl->buf[j].mapped = true;
            rx->dma_maps++;
        }
    }
    return true;
}

/*
 * e1000_alloc_rx_buffers moves the tail only when the descriptor it just
 * filled is a multiple of 16, and then to that descriptor (which the
 * device may not use yet); never at the end of a batch.
 */
static void stock_tail(EppRx *rx, int i)
{
    if (rx->s.per_desc && is_jumbo(rx)) {
        /*
         * e1000_alloc_jumbo_rx_buffers: once per batch, to the last
         * descriptor it filled (next_to_use - 1), not past it
         */
        EppStock *st = rx->design;

        if (i >= 0) {
            st->batch_filled = true;
        } else if (st->batch_filled) {
            st->batch_filled = false;
            epp_rx_write_tail(rx, (rx->next_to_use + rx->count - 1) %
                              rx->count);
        }
        return;
    }
    if (i >= 0 && !(i & (EPP_STOCK_WRITE - 1))) {
        epp_rx_write_tail(rx, i);
    }
}

/*
 * Which buffers went up the stack with the frame (freed here; the slot
 * gets new ones at refill) and which stay on the descriptor.
 * e1000_clean_rx_irq: a frame shorter than copybreak is copied and its
 * skb stays; e1000_clean_rx_irq_ps: the header skb always goes, the
 * first page stays when its bytes are copied into the header skb
 * (l1 <= copybreak and header + l1 fit in rx_ps_bsize0).
 */
static void stock_frame_done(EppRx *rx, EppRxFrame *f)
{
    EppStock *st = rx->design;
    unsigned i = f->first_desc, k, j;
    bool split = rx->format == EPP_RXF_SPLIT;
    bool copied;
    EppRxWb w;

    epp_rx_desc_read(rx, i, &w);
    if (split) {
        copied = f->ndesc == 1 && w.len[1] &&
                 w.len[1] <= st->copybreak &&
                 w.len[0] + w.len[1] <= EPP_STOCK_PS_BSIZE0;
    } else if (is_jumbo(rx)) {
        /* e1000_clean_jumbo_rx_irq: length <= copybreak, one buffer */
        copied = f->ndesc == 1 && f->len <= st->copybreak;
    } else {
        copied = f->ndesc == 1 && f->len < st->copybreak;
    }
    st->copied[f->first_desc] = copied;
    /* e1000_clean_rx_irq_ps adds PAGE_SIZE for each page with bytes */
    f->truesize = EPP_STOCK_STD_TRUESIZE;
    if (is_jumbo(rx)) {
        /* e1000_consume_page adds PAGE_SIZE per page attached */
        f->truesize = EPP_STOCK_PS_HEAD +
                      (copied ? 0 : f->ndesc * EPP_STOCK_PAGE);
    } else if (split) {
        f->truesize = EPP_STOCK_PS_HEAD;
        for (j = 1; j < 4; j++) {
            f->truesize += w.len[j] && !(copied && j == 1) ? EPP_STOCK_PAGE : 0;
        }
    }
    for (k = 0; k < f->ndesc; k++) {
        EppRxSlot *sl = &rx->slot[i];

        epp_rx_desc_read(rx, i, &w);
        for (j = 0; j < sl->nbuf; j++) {
            bool gone;

            if (!sl->buf[j].region) {
                continue;
            }
            if (!split) {
                gone = !copied;
            } else if (j == 0) {
                gone = true;
            } else {
                /* pages with bytes go with the skb, except a copied one */
                gone = w.len[j] && !(copied && j == 1);
            }
            if (gone) {
                /* e1000_clean_rx_irq[_ps]: dma_unmap_single/page */
                rx->dma_unmaps++;
                epp_rx_buf_free(rx, &sl->buf[j]);
            } else if (copied && (!split || j == 1)) {
                /*
                 * The copied buffer stays: the split path (and
                 * EPP_CB_SYNC) syncs it for the CPU and back for the
                 * device; e1000_clean_rx_irq unmaps it, and the refill
                 * maps it again.
                 */
                if (split || st->copybreak_sync) {
                    rx->dma_syncs += 2;
                } else {
                    rx->dma_unmaps++;
                    sl->buf[j].mapped = false;
                }
            }
        }
        i = epp_rx_ring_next(rx, i);
    }
}

/*
 * A frame error without NETIF_F_RXALL: e1000_clean_rx_irq and
 * e1000_clean_jumbo_rx_irq have already unmapped the buffer and put the
 * skb (page) back on its descriptor ("recycle"), to be mapped again at
 * refill; e1000_clean_rx_irq_ps frees the header skb (unmapped) and
 * leaves the pages posted, still mapped.
 */
static void stock_frame_error(EppRx *rx, EppRxFrame *f)
{
    unsigned i = f->first_desc, k, j;
    bool split = rx->format == EPP_RXF_SPLIT;

    for (k = 0; k < f->ndesc; k++) {
        EppRxSlot *sl = &rx->slot[i];

        for (j = 0; j < sl->nbuf; j++) {
            if (!sl->buf[j].region || (split && j > 0)) {
                continue;
            }
            rx->dma_unmaps++;
            if (split) {
                epp_rx_buf_free(rx, &sl->buf[j]);
            } else {
                sl->buf[j].mapped = false;
            }
        }
        i = epp_rx_ring_next(rx, i);
    }
}

/* The pages the driver posts per descriptor, each charged a page */
static void stock_published_cost(EppRx *rx, const EppRxFrame *f,
                                 unsigned *pieces, size_t *truesize)
{
    unsigned j;

    *pieces = 1;
    *truesize = EPP_STOCK_STD_TRUESIZE;
    if (is_jumbo(rx)) {
        *pieces = f->ndesc;
        *truesize = EPP_STOCK_PS_HEAD + f->ndesc * EPP_STOCK_PAGE;
    } else if (rx->format == EPP_RXF_SPLIT) {
        for (*pieces = 0, j = 1; j < 4; j++) {
            *pieces += rx->ps_size[j] != 0;
        }
        *truesize = EPP_STOCK_PS_HEAD + *pieces * EPP_STOCK_PAGE;
    }
}

/* e1000_clean_jumbo_rx_irq builds frames over descriptors; the rest not */
static bool stock_chains(EppRx *rx)
{
    return is_jumbo(rx);
}

/* A jumbo descriptor: its page is unmapped and goes to rx_skb_top */
static void stock_chain_add(EppRx *rx, unsigned i, EppRxFrame *chain)
{
    EppStock *st = rx->design;
    EppRxBuf *b = &rx->slot[i].buf[0];

    g_assert_cmpuint(st->nheld, <, EPP_RX_MAX_PIECES);
    rx->dma_unmaps++;
    b->mapped = false;
    st->held[st->nheld++] = *b;
    b->region = 0;
}

/* The chain went up the stack: its pages with it (PAGE_SIZE each) */
static void stock_chain_done(EppRx *rx, EppRxFrame *f)
{
    EppStock *st = rx->design;

    g_assert_cmpuint(st->nheld, ==, f->ndesc);
    st->copied[f->first_desc] = false;
    f->truesize = EPP_STOCK_PS_HEAD + f->ndesc * EPP_STOCK_PAGE;
    free_held(rx);
}

/* dev_kfree_skb_irq(rx_skb_top): the chain's pages are freed */
static void stock_chain_drop(EppRx *rx, EppRxFrame *chain)
{
    free_held(rx);
}

unsigned epp_rx_stock_held(EppRx *rx)
{
    EppStock *st = rx->design;

    g_assert(rx->ops == &epp_rx_stock_ops);
    return st->nheld;
}

/* Every buffer is on a slot or in the chain being built */
static void stock_check(EppRx *rx)
{
    EppStock *st = rx->design;
    unsigned in_slots = 0, i, j;

    for (i = 0; i < rx->count; i++) {
        for (j = 0; j < rx->slot[i].nbuf; j++) {
            in_slots += rx->slot[i].buf[j].region != 0;
        }
    }
    g_assert_cmpuint(rx->live_bufs, ==, in_slots + st->nheld);
}

const EppRxDesignOps epp_rx_stock_ops = {
    .name = "stock",
    .configure = stock_configure,
    .start = stock_start,
    .fill_slot = stock_fill_slot,
    .tail = stock_tail,
    .sw_fcs_strip = true,
    .dma_burst = true,
    .frame_done = stock_frame_done,
    .frame_error = stock_frame_error,
    .published_cost = stock_published_cost,
    .check = stock_check,
    .chains = stock_chains,
    .chain_add = stock_chain_add,
    .chain_done = stock_chain_done,
    .chain_drop = stock_chain_drop,
    .destroy = stock_destroy,
};
