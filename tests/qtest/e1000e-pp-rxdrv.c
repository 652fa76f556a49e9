/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive ring drivers for the qtests: stock (Linux e1000e), pagepool
 * (libeth-style 2 KB chunks) and fixed.  See e1000e-pp-rxdrv.h.
 *
 * Ring invariants used throughout:
 * - the driver fills descriptors at next_to_use and reads them back at
 *   next_to_clean; posted = descriptors between the two;
 * - one descriptor always stays empty (posted <= count - 1), because
 *   RDH == RDT means "the ring holds no descriptors for the device";
 * - RDH/RDT count 16-byte units: a 32-byte packet-split descriptor moves
 *   them by two (the Linux driver writes i << 1 to RDT for that ring).
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/libqos-malloc.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-rxdrv.h"

/* Registers and bits this file needs beyond e1000e-pp-regs.h */
#define EPP_VET             0x00038     /* VLAN EtherType, reset 0x8100 */
#define EPP_RNBC            0x040a0
#define EPP_ROC             0x040b4     /* Receive Oversize Count */
#define EPP_RUC             0x040a4     /* Receive Undersize Count */
#define EPP_RCTL_RDMTS_8TH  0x00000200u /* RDMTS = 1/8 */
#define EPP_RDTR_FPD        0x80000000u /* Flush partial descriptor block */
#define EPP_TIDV_FPD        0x80000000u

/*
 * FLAG2_DMA_BURST values of the Linux driver (e1000.h): RXDCTL with
 * GRAN=1, WTHRESH=4, HTHRESH=4, PTHRESH=0x20; TXDCTL with GRAN=1,
 * COUNT_DESC, WTHRESH=1, HTHRESH=1, PTHRESH=0x1f; RDTR = RADV = 0x20
 * (param.c BURST_RDTR/BURST_RADV), TIDV 8 and TADV 32 (the defaults).
 */
#define EPP_STOCK_RXDCTL    0x01040420u
#define EPP_STOCK_TXDCTL    0x0141011fu
#define EPP_STOCK_RDTR      0x20
#define EPP_STOCK_RADV      0x20
#define EPP_STOCK_TIDV      8
#define EPP_STOCK_TADV      32
#define EPP_STOCK_COPYBREAK 256         /* netdev.c: copybreak default */
#define EPP_STOCK_WRITE     16          /* E1000_RX_BUFFER_WRITE */
#define EPP_STOCK_PS_BSIZE0 128         /* adapter->rx_ps_bsize0 */

/* RCTL.BSIZE with BSEX=1 (x16): 4096, 8192, 16384 */
#define EPP_RCTL_SZ_4096    (0x00030000u | RCTL_BSEX)

#define EPP_RX_POISON       0xd7

/* ---------------------------------------------------------------- */
/* libeth sizes                                                     */
/* ---------------------------------------------------------------- */

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) & ~(a - 1);
}

static size_t pow2_up(size_t v)
{
    size_t p = 1;

    while (p < v) {
        p <<= 1;
    }
    return p;
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

/* roundup_pow_of_two(SKB_HEAD_ALIGN(headroom + buf_len)) */
size_t epp_pp_chunk_truesize(unsigned mtu)
{
    return pow2_up(align_up(EPP_PP_HEADROOM + epp_pp_buf_len(mtu), 64) +
                   EPP_PP_SHINFO);
}

/*
 * Two chunks per page only while the chunk truesize is 2048 and LPE=0
 * (MTU <= 1500): then frames are at most 1522 bytes with the FCS and
 * a tag, and a 2048-byte BSIZE cannot run past the 1984 bytes behind
 * the headroom.  With LPE=1 the device may fill all 2048 bytes of a
 * buffer, so every buffer gets a page of its own.
 */
unsigned epp_pp_chunks_per_page(unsigned mtu)
{
    return epp_pp_chunk_truesize(mtu) == 2048 && mtu <= 1500 ? 2 : 1;
}

const char *epp_rx_design_name(EppRxDesign d)
{
    switch (d) {
    case EPP_RX_STOCK:
        return "stock";
    case EPP_RX_PAGEPOOL:
        return "pagepool";
    default:
        return "fixed";
    }
}

const char *epp_fcs_case_name(EppFcsCase c)
{
    static const char *const names[] = {
        "none", "in-last", "straddles", "alone",
    };

    return names[c];
}

/* ---------------------------------------------------------------- */
/* Statistics                                                       */
/* ---------------------------------------------------------------- */

void epp_rx_stats_update(EppRx *rx)
{
    E1000epp *d = rx->d;
    uint64_t lo;

    rx->mpc += e1000epp_rd(d, MPC);
    rx->rnbc += e1000epp_rd(d, EPP_RNBC);
    rx->gprc += e1000epp_rd(d, GPRC);
    rx->tpr += e1000epp_rd(d, TPR);
    rx->roc += e1000epp_rd(d, EPP_ROC);
    rx->ruc += e1000epp_rd(d, EPP_RUC);
    /* 64-bit pair: low half first, the high read clears both */
    lo = e1000epp_rd(d, GORCL);
    rx->gorc += lo | (uint64_t)e1000epp_rd(d, GORCH) << 32;
}

/* ---------------------------------------------------------------- */
/* Buffers                                                          */
/* ---------------------------------------------------------------- */

static void buf_poison(EppRx *rx, const EppRxBuf *b)
{
    qtest_memset(rx->d->qts, b->region, rx->poison, b->region_len);
}

static EppRxBuf buf_alloc(EppRx *rx, uint32_t headroom, uint32_t map_len,
                          uint32_t tail_slack)
{
    EppRxBuf b;

    b.region_len = headroom + map_len + tail_slack;
    b.region = e1000epp_alloc(rx->d, b.region_len);
    b.dma = b.region + headroom;
    b.map_len = map_len;
    b.chunk = -1;
    rx->live_bufs++;
    return b;
}

static void buf_free(EppRx *rx, EppRxBuf *b)
{
    g_assert(b->chunk < 0);
    guest_free(&rx->d->alloc, b->region);
    rx->live_bufs--;
    b->region = 0;
}

static uint64_t chunk_addr(EppRx *rx, unsigned c)
{
    unsigned page = c / rx->chunks_per_page;
    unsigned idx = c % rx->chunks_per_page;

    return rx->pool + (uint64_t)page * EPP_PP_PAGE +
           idx * (EPP_PP_PAGE / rx->chunks_per_page);
}

static void chunk_set(EppRx *rx, unsigned c, EppChunkState st)
{
    EppChunkState old = rx->chunk_state[c];

    if (old == EPP_CHUNK_POSTED) {
        rx->n_posted_chunks--;
    } else if (old == EPP_CHUNK_HELD) {
        rx->n_held_chunks--;
    }
    if (st == EPP_CHUNK_POSTED) {
        rx->n_posted_chunks++;
    } else if (st == EPP_CHUNK_HELD) {
        rx->n_held_chunks++;
    } else {
        rx->free_stack[rx->nfree++] = c;
    }
    rx->chunk_state[c] = st;
}

static bool chunk_get(EppRx *rx, EppRxBuf *b)
{
    unsigned c;

    if (!rx->nfree) {
        return false;
    }
    c = rx->free_stack[--rx->nfree];
    g_assert(rx->chunk_state[c] == EPP_CHUNK_FREE);
    chunk_set(rx, c, EPP_CHUNK_POSTED);
    b->region = chunk_addr(rx, c);
    b->region_len = EPP_PP_PAGE / rx->chunks_per_page;
    b->dma = b->region + EPP_PP_HEADROOM;
    b->map_len = b->region_len - EPP_PP_HEADROOM;
    b->chunk = c;
    return true;
}

void epp_rx_check_pool(EppRx *rx)
{
    unsigned c, n[3] = { 0 };
    unsigned in_slots = 0, i, j;

    if (rx->s.design != EPP_RX_PAGEPOOL) {
        /* stock/fixed: one guest buffer per slot buffer, nothing else */
        for (i = 0; i < rx->count; i++) {
            for (j = 0; j < rx->slot[i].nbuf; j++) {
                in_slots += rx->slot[i].buf[j].region != 0;
            }
        }
        g_assert_cmpuint(rx->live_bufs, ==, in_slots);
        return;
    }
    for (c = 0; c < rx->nchunks; c++) {
        n[rx->chunk_state[c]]++;
    }
    for (i = 0; i < rx->count; i++) {
        for (j = 0; j < rx->slot[i].nbuf; j++) {
            if (rx->slot[i].posted && rx->slot[i].buf[j].chunk >= 0) {
                in_slots++;
            }
        }
    }
    /* Every chunk is free, posted or held by a frame; counts agree */
    g_assert_cmpuint(n[EPP_CHUNK_FREE], ==, rx->nfree);
    g_assert_cmpuint(n[EPP_CHUNK_POSTED], ==, rx->n_posted_chunks);
    g_assert_cmpuint(n[EPP_CHUNK_HELD], ==, rx->n_held_chunks);
    g_assert_cmpuint(n[0] + n[1] + n[2], ==, rx->nchunks);
    g_assert_cmpuint(in_slots, ==, rx->n_posted_chunks);
    /* Between frames nothing is held */
    g_assert_cmpuint(rx->n_held_chunks, ==, 0);
}

/* ---------------------------------------------------------------- */
/* Descriptors                                                      */
/* ---------------------------------------------------------------- */

static uint64_t desc_addr(EppRx *rx, unsigned i)
{
    return rx->ring + (uint64_t)i * rx->desc_len;
}

/* Give slot i its buffers (reusing any still attached) */
static bool slot_fill(EppRx *rx, unsigned i)
{
    EppRxSlot *sl = &rx->slot[i];
    unsigned j;

    switch (rx->s.design) {
    case EPP_RX_PAGEPOOL:
        sl->nbuf = 1;
        if (!chunk_get(rx, &sl->buf[0])) {
            return false;
        }
        break;
    case EPP_RX_STOCK:
        if (rx->format == EPP_RXF_SPLIT) {
            /* header skb: NET_SKB_PAD + 128; pages mapped from offset 0 */
            if (!sl->buf[0].region) {
                sl->buf[0] = buf_alloc(rx, 64, EPP_STOCK_PS_BSIZE0, 0);
            }
            for (j = 1; j < 4; j++) {
                if (rx->ps_size[j] && !sl->buf[j].region) {
                    sl->buf[j] = buf_alloc(rx, 0, EPP_PP_PAGE, 0);
                }
            }
            sl->nbuf = 4;
        } else {
            /* skb of rx_buffer_len (1522) behind NET_SKB_PAD */
            if (!sl->buf[0].region) {
                sl->buf[0] = buf_alloc(rx, 64, rx->hw_bufsize == 2048 &&
                                       rx->s.mtu <= 1500 ? 1522 :
                                       rx->hw_bufsize, 64);
            }
            sl->nbuf = 1;
        }
        break;
    case EPP_RX_FIXED:
        if (rx->format == EPP_RXF_SPLIT) {
            for (j = 0; j < 4; j++) {
                if (rx->ps_size[j] && !sl->buf[j].region) {
                    sl->buf[j] = buf_alloc(rx, 64, rx->ps_size[j], 64);
                }
            }
            sl->nbuf = 4;
        } else {
            if (!sl->buf[0].region) {
                sl->buf[0] = buf_alloc(rx, 64, rx->hw_bufsize, 64);
            }
            sl->nbuf = 1;
        }
        break;
    }
    return true;
}

static void slot_post(EppRx *rx, unsigned i)
{
    EppRxSlot *sl = &rx->slot[i];
    uint8_t desc[32] = { 0 };
    unsigned j;

    for (j = 0; j < sl->nbuf; j++) {
        if (sl->buf[j].region) {
            buf_poison(rx, &sl->buf[j]);
        }
    }
    if (rx->format == EPP_RXF_SPLIT) {
        /* Unused buffers get the all-ones "null" address, as Linux does */
        for (j = 0; j < 4; j++) {
            stq_le_p(desc + 8 * j, sl->buf[j].region ? sl->buf[j].dma :
                     ~0ULL);
        }
    } else {
        stq_le_p(desc, sl->buf[0].dma);
    }
    qtest_memwrite(rx->d->qts, desc_addr(rx, i), desc, rx->desc_len);
    sl->posted = true;
}

static void write_tail(EppRx *rx, unsigned i)
{
    e1000epp_wr(rx->d, RDT0, rx->format == EPP_RXF_SPLIT ? i << 1 : i);
}

void epp_rx_post_n(EppRx *rx, unsigned n)
{
    unsigned k;

    for (k = 0; k < n && rx->posted < rx->count - 1; k++) {
        unsigned i = rx->next_to_use;

        if (!slot_fill(rx, i)) {
            break;
        }
        slot_post(rx, i);
        rx->posted++;
        rx->next_to_use = (i + 1) % rx->count;
        /*
         * stock: e1000_alloc_rx_buffers moves the tail only when the
         * descriptor it just filled is a multiple of 16, and then to that
         * descriptor (which the device may not use yet).
         */
        if (rx->s.design == EPP_RX_STOCK && !(i & (EPP_STOCK_WRITE - 1))) {
            write_tail(rx, i);
        }
    }
    if (rx->s.design != EPP_RX_STOCK) {
        write_tail(rx, rx->next_to_use);
    }
}

void epp_rx_refill(EppRx *rx)
{
    epp_rx_post_n(rx, rx->count);
}

void epp_rx_flush(EppRx *rx)
{
    /* e1000e_flush_descriptors: TIDV and RDTR with FPD, written twice */
    e1000epp_wr(rx->d, TIDV, EPP_STOCK_TIDV | EPP_TIDV_FPD);
    e1000epp_wr(rx->d, RDTR, EPP_STOCK_RDTR | EPP_RDTR_FPD);
    e1000epp_rd(rx->d, STATUS);
    e1000epp_wr(rx->d, TIDV, EPP_STOCK_TIDV | EPP_TIDV_FPD);
    e1000epp_wr(rx->d, RDTR, EPP_STOCK_RDTR | EPP_RDTR_FPD);
    e1000epp_rd(rx->d, STATUS);
}

/* ---------------------------------------------------------------- */
/* Set-up                                                           */
/* ---------------------------------------------------------------- */

static void setup_pool(EppRx *rx)
{
    unsigned c;

    rx->buf_len = epp_pp_buf_len(rx->s.mtu);
    rx->chunk_truesize = epp_pp_chunk_truesize(rx->s.mtu);
    rx->chunks_per_page = epp_pp_chunks_per_page(rx->s.mtu);
    /* Enough for a full ring plus a ring's worth of frames in flight */
    rx->nchunks = 2 * rx->count;
    rx->npages = DIV_ROUND_UP(rx->nchunks, rx->chunks_per_page);
    rx->nchunks = rx->npages * rx->chunks_per_page;
    rx->pool = e1000epp_alloc(rx->d, (size_t)rx->npages * EPP_PP_PAGE);
    g_assert_cmphex(rx->pool & (EPP_PP_PAGE - 1), ==, 0);
    rx->chunk_state = g_new0(EppChunkState, rx->nchunks);
    rx->free_stack = g_new(unsigned, rx->nchunks);
    rx->nfree = 0;
    /* Push in reverse so chunk 0 is handed out first */
    for (c = rx->nchunks; c-- > 0;) {
        rx->free_stack[rx->nfree++] = c;
    }
}

static size_t bsize_bytes(uint32_t rctl)
{
    static const size_t plain[4] = { 2048, 1024, 512, 256 };
    static const size_t ext[4] = { 0, 16384, 8192, 4096 };
    unsigned b = (rctl >> 16) & 3;

    return rctl & RCTL_BSEX ? ext[b] : plain[b];
}

EppRx *epp_rx_new(E1000epp *d, const EppRxSetup *s)
{
    EppRx *rx = g_new0(EppRx, 1);
    uint32_t rctl, rfctl = 0, ctrl;
    unsigned pages = 0, j;

    rx->d = d;
    rx->s = *s;
    rx->count = s->ring_count ? s->ring_count : 64;
    rx->poison = EPP_RX_POISON;
    rx->copybreak = EPP_STOCK_COPYBREAK;

    rctl = RCTL_EN | RCTL_BAM;
    if (!s->keep_crc) {
        rctl |= RCTL_SECRC;
    }
    if (!s->rdmts_half && s->design != EPP_RX_STOCK) {
        rctl |= EPP_RCTL_RDMTS_8TH;
    }

    switch (s->design) {
    case EPP_RX_STOCK:
        /* e1000_setup_rctl / e1000_change_mtu */
        if (s->mtu > 1500) {
            rctl |= RCTL_LPE;
            pages = DIV_ROUND_UP(s->mtu, EPP_PP_PAGE);
            g_assert(pages <= 3);
        }
        if (pages) {
            rx->format = EPP_RXF_SPLIT;
            rctl |= RCTL_DTYP_PS;
            /* rx_buffer_len 4096 (BSEX) above 2048-byte frames */
            if (s->mtu + 22 > 2048) {
                rctl |= EPP_RCTL_SZ_4096;
            }
            rx->ps_size[0] = EPP_STOCK_PS_BSIZE0;
            for (j = 1; j <= pages; j++) {
                rx->ps_size[j] = EPP_PP_PAGE;
            }
        } else {
            rx->format = EPP_RXF_EXTENDED;
            rx->hw_bufsize = 2048;
        }
        rfctl = RFCTL_EXTEN;
        break;
    case EPP_RX_PAGEPOOL:
        rx->format = s->format;
        g_assert(rx->format != EPP_RXF_SPLIT);
        rx->hw_bufsize = 2048;
        if (s->mtu > 1500) {
            rctl |= RCTL_LPE;
        }
        rfctl = rx->format == EPP_RXF_EXTENDED ? RFCTL_EXTEN : 0;
        break;
    case EPP_RX_FIXED:
        rx->format = s->format;
        rctl |= s->rctl_bsize;
        if (s->lpe) {
            rctl |= RCTL_LPE;
        }
        if (rx->format == EPP_RXF_SPLIT) {
            rctl |= RCTL_DTYP_PS;
            rx->ps_size[0] = (s->psrctl & 0x7f) * 128;
            for (j = 1; j < 4; j++) {
                rx->ps_size[j] = ((s->psrctl >> (8 * j)) & 0x7f) * 1024;
            }
            rfctl = RFCTL_EXTEN;
        } else {
            rx->hw_bufsize = bsize_bytes(s->rctl_bsize);
            rfctl = rx->format == EPP_RXF_EXTENDED ? RFCTL_EXTEN : 0;
        }
        break;
    }
    rx->rctl = rctl;
    rx->desc_len = rx->format == EPP_RXF_SPLIT ? 32 : 16;
    rx->slot = g_new0(EppRxSlot, rx->count);
    rx->ring = e1000epp_alloc(d, rx->count * rx->desc_len);
    if (s->design == EPP_RX_PAGEPOOL) {
        setup_pool(rx);
    }

    /* e1000_configure_rx: receiver off while the ring is set up */
    e1000epp_wr(d, RCTL, e1000epp_rd(d, RCTL) & ~RCTL_EN);
    if (s->design == EPP_RX_STOCK || s->dma_burst) {
        e1000epp_wr(d, RXDCTL0, EPP_STOCK_RXDCTL);
        e1000epp_wr(d, TXDCTL0, EPP_STOCK_TXDCTL);
        e1000epp_wr(d, RDTR, EPP_STOCK_RDTR);
        e1000epp_wr(d, RADV, EPP_STOCK_RADV);
        e1000epp_wr(d, TIDV, EPP_STOCK_TIDV);
        e1000epp_wr(d, TADV, EPP_STOCK_TADV);
    } else {
        e1000epp_wr(d, RDTR, 0);
        e1000epp_wr(d, RADV, 0);
    }
    e1000epp_wr(d, RDBAL0, (uint32_t)rx->ring);
    e1000epp_wr(d, RDBAH0, (uint32_t)(rx->ring >> 32));
    e1000epp_wr(d, RDLEN0, rx->count * rx->desc_len);
    e1000epp_wr(d, RDH0, 0);
    e1000epp_wr(d, RDT0, 0);
    e1000epp_wr(d, RFCTL, rfctl);
    if (rx->format == EPP_RXF_SPLIT) {
        uint32_t ps = rx->ps_size[0] / 128;

        for (j = 1; j < 4; j++) {
            ps |= (uint32_t)(rx->ps_size[j] / 1024) << (8 * j);
        }
        e1000epp_wr(d, PSRCTL, ps);
    }
    e1000epp_wr(d, EPP_VET, 0x8100);
    ctrl = e1000epp_rd(d, CTRL);
    ctrl = s->vlan_strip ? ctrl | CTRL_VME : ctrl & ~CTRL_VME;
    e1000epp_wr(d, CTRL, ctrl);

    /* Counters start from zero for this ring */
    epp_rx_stats_update(rx);
    rx->mpc = rx->rnbc = rx->gprc = rx->tpr = rx->roc = rx->ruc = 0;
    rx->gorc = 0;

    epp_rx_post_n(rx, s->fill ? s->fill : rx->count);
    e1000epp_wr(d, RCTL, rctl);
    return rx;
}

void epp_rx_free(EppRx *rx)
{
    g_free(rx->slot);
    g_free(rx->chunk_state);
    g_free(rx->free_stack);
    g_free(rx);
}

/* ---------------------------------------------------------------- */
/* Cleaning                                                         */
/* ---------------------------------------------------------------- */

typedef struct DescWb {
    bool dd, eop;
    uint32_t status, errors;
    uint16_t vlan, hdr_status;
    uint16_t len[4];
} DescWb;

static void desc_read(EppRx *rx, unsigned i, DescWb *w)
{
    uint8_t b[32];
    uint32_t staterr;

    qtest_memread(rx->d->qts, desc_addr(rx, i), b, rx->desc_len);
    memset(w, 0, sizeof(*w));
    if (rx->format == EPP_RXF_LEGACY) {
        /* §7.1.4: address; length; checksum; status; errors; special */
        w->len[0] = lduw_le_p(b + 8);
        w->status = b[12];
        w->errors = b[13];
        w->vlan = lduw_le_p(b + 14);
    } else {
        /*
         * Extended (§7.1.4.2) and packet split (§7.1.5.2) write-back:
         * dword 2 is extended status (19:0) and errors (31:24); then
         * length (of buffer 0), VLAN tag; split adds header status and
         * the lengths of buffers 1-3.
         */
        staterr = ldl_le_p(b + 8);
        w->status = staterr & 0xfffff;
        w->errors = staterr >> 24;
        w->len[0] = lduw_le_p(b + 12);
        w->vlan = lduw_le_p(b + 14);
        if (rx->format == EPP_RXF_SPLIT) {
            w->hdr_status = lduw_le_p(b + 16);
            w->len[1] = lduw_le_p(b + 18);
            w->len[2] = lduw_le_p(b + 20);
            w->len[3] = lduw_le_p(b + 22);
        }
    }
    w->dd = w->status & RXD_STA_DD;
    w->eop = w->status & RXD_STA_EOP;
}

bool epp_rx_dd_pending(EppRx *rx)
{
    DescWb w;

    if (!rx->posted) {
        return false;
    }
    desc_read(rx, rx->next_to_clean, &w);
    return w.dd;
}

/*
 * Read what the device wrote into one buffer, append it to the frame
 * and check the poison around it: nothing before the DMA address,
 * nothing past the reported length.
 */
static void take_bytes(EppRx *rx, EppRxFrame *f, const EppRxBuf *b,
                       size_t len)
{
    g_autofree uint8_t *r = g_malloc(b->region_len);
    size_t head = b->dma - b->region, k;

    if (len > b->map_len) {
        e1000epp_dump_regs(rx->d, "Rx write past the mapped buffer");
        g_error("descriptor reports %zu bytes in a %u-byte buffer on %s",
                len, b->map_len, rx->d->model);
    }
    g_assert_cmpuint(f->raw_len + len, <=, sizeof(f->raw));
    qtest_bufread(rx->d->qts, b->region, r, b->region_len);
    for (k = 0; k < b->region_len; k++) {
        if ((k < head || k >= head + len) && r[k] != rx->poison) {
            e1000epp_dump_regs(rx->d, "Rx buffer overrun");
            g_error("%s: byte %zu of a buffer (DMA at +%zu, %zu bytes "
                    "reported) was written: 0x%02x on %s",
                    epp_rx_design_name(rx->s.design), k, head, len, r[k],
                    rx->d->model);
        }
    }
    memcpy(f->raw + f->raw_len, r + head, len);
    f->raw_len += len;
}

/* Software FCS strip over the piece list (pagepool and stock) */
static void strip_fcs(EppRx *rx, EppRxFrame *f)
{
    unsigned last = f->npieces - 1;

    g_assert(f->raw_len >= 4 && f->npieces > 0);
    memcpy(f->fcs, f->raw + f->raw_len - 4, 4);
    f->len = f->raw_len - 4;
    if (f->piece_len[last] > 4) {
        f->fcs_case = EPP_FCS_IN_LAST;
    } else if (f->piece_len[last] == 4) {
        f->fcs_case = EPP_FCS_ALONE;
        f->pieces_kept--;
    } else {
        f->fcs_case = EPP_FCS_STRADDLES;
        f->pieces_kept--;
    }
}

static void frame_reset(EppRxFrame *f)
{
    f->len = f->raw_len = 0;
    f->ndesc = f->npieces = f->pieces_kept = 0;
    f->status = f->errors = 0;
    f->vlan = f->hdr_status = 0;
    f->fcs_case = EPP_FCS_NONE;
    f->truesize = 0;
    f->copybreak = false;
    memset(f->fcs, 0, 4);
}

/* Hand the slot's buffers to the frame or recycle them */
static void slot_done(EppRx *rx, EppRxFrame *f, unsigned i,
                      const DescWb *w)
{
    EppRxSlot *sl = &rx->slot[i];
    unsigned j;

    sl->posted = false;
    for (j = 0; j < sl->nbuf; j++) {
        EppRxBuf *b = &sl->buf[j];

        if (rx->s.design == EPP_RX_PAGEPOOL && b->chunk >= 0) {
            /* Held until the frame is released */
            chunk_set(rx, b->chunk, EPP_CHUNK_HELD);
            g_assert_cmpuint(f->npieces, <=, EPP_RX_MAX_PIECES);
            b->chunk = -1;
            b->region = 0;
        }
    }
}

static unsigned ring_next(EppRx *rx, unsigned i)
{
    return (i + 1) % rx->count;
}

/*
 * stock: which buffers went up the stack with the frame (freed here; the
 * slot gets new ones at refill) and which stay on the descriptor.
 * e1000_clean_rx_irq: a frame shorter than copybreak is copied and its
 * skb stays; e1000_clean_rx_irq_ps: the header skb always goes, the
 * first page stays when its bytes are copied into the header skb
 * (l1 <= copybreak and header + l1 fit in rx_ps_bsize0).
 */
static void stock_give_buffers(EppRx *rx, EppRxFrame *f)
{
    unsigned i = f->first_desc, k, j;
    bool split = rx->format == EPP_RXF_SPLIT;
    DescWb w;

    desc_read(rx, i, &w);
    if (split) {
        f->copybreak = f->ndesc == 1 && w.len[1] &&
                       w.len[1] <= rx->copybreak &&
                       w.len[0] + w.len[1] <= EPP_STOCK_PS_BSIZE0;
    } else {
        f->copybreak = f->ndesc == 1 && f->len < rx->copybreak;
    }
    for (k = 0; k < f->ndesc; k++) {
        EppRxSlot *sl = &rx->slot[i];

        desc_read(rx, i, &w);
        for (j = 0; j < sl->nbuf; j++) {
            bool gone;

            if (!sl->buf[j].region) {
                continue;
            }
            if (!split) {
                gone = !f->copybreak;
            } else if (j == 0) {
                gone = true;
            } else {
                /* pages with bytes go with the skb, except a copied one */
                gone = w.len[j] && !(f->copybreak && j == 1);
            }
            if (gone) {
                buf_free(rx, &sl->buf[j]);
            }
        }
        i = ring_next(rx, i);
    }
}

bool epp_rx_poll(EppRx *rx, EppRxFrame *f)
{
    DescWb w[EPP_RX_MAX_PIECES];
    unsigned n = 0, i = rx->next_to_clean, k, j;
    g_autofree unsigned *chunks = NULL;
    unsigned nchunks = 0;

    /* Find a complete frame: DD on each descriptor up to one with EOP */
    for (;;) {
        if (n >= rx->posted) {
            return false;
        }
        g_assert_cmpuint(n, <, EPP_RX_MAX_PIECES);
        desc_read(rx, i, &w[n]);
        if (!w[n].dd) {
            return false;
        }
        n++;
        if (w[n - 1].eop) {
            break;
        }
        i = ring_next(rx, i);
    }

    frame_reset(f);
    f->first_desc = rx->next_to_clean;
    f->ndesc = n;
    chunks = g_new(unsigned, n);
    i = rx->next_to_clean;
    for (k = 0; k < n; k++) {
        EppRxSlot *sl = &rx->slot[i];

        f->desc_len[k] = w[k].len[0];
        f->desc_eop[k] = w[k].eop;
        if (k == 0) {
            f->hdr_status = w[k].hdr_status;
        }
        for (j = 0; j < sl->nbuf; j++) {
            size_t len = w[k].len[j];

            if (!sl->buf[j].region) {
                g_assert_cmpuint(len, ==, 0);
                continue;
            }
            if (len) {
                g_assert_cmpuint(f->npieces, <, EPP_RX_MAX_PIECES);
                f->piece_len[f->npieces++] = len;
            }
            take_bytes(rx, f, &sl->buf[j], len);
            if (sl->buf[j].chunk >= 0) {
                chunks[nchunks++] = sl->buf[j].chunk;
            }
        }
        if (w[k].eop) {
            f->status = w[k].status;
            f->errors = w[k].errors;
            f->vlan = w[k].vlan;
        }
        slot_done(rx, f, i, &w[k]);
        i = ring_next(rx, i);
    }
    rx->next_to_clean = i;
    rx->posted -= n;
    f->pieces_kept = f->npieces;

    if (rx->s.keep_crc && rx->s.design != EPP_RX_FIXED) {
        strip_fcs(rx, f);
    } else {
        f->len = f->raw_len;
    }
    memcpy(f->data, f->raw, f->len);

    if (rx->s.design == EPP_RX_PAGEPOOL) {
        /* A last piece holding only FCS bytes goes straight back */
        if (f->pieces_kept < nchunks) {
            chunk_set(rx, chunks[nchunks - 1], EPP_CHUNK_FREE);
            nchunks--;
        }
        f->truesize = f->pieces_kept * rx->chunk_truesize + EPP_PP_SKB;
        memcpy(f->held, chunks, nchunks * sizeof(*chunks));
        f->nheld = nchunks;
    } else if (rx->s.design == EPP_RX_STOCK) {
        stock_give_buffers(rx, f);
    }
    rx->delivered++;
    return true;
}

void epp_rx_release(EppRx *rx, EppRxFrame *f)
{
    unsigned k;

    if (rx->s.design != EPP_RX_PAGEPOOL) {
        return;
    }
    for (k = 0; k < f->nheld; k++) {
        g_assert(rx->chunk_state[f->held[k]] == EPP_CHUNK_HELD);
        chunk_set(rx, f->held[k], EPP_CHUNK_FREE);
    }
    f->nheld = 0;
}

typedef struct PollCond {
    EppRx *rx;
    EppRxFrame *f;
} PollCond;

static bool poll_cond(E1000epp *d, void *opaque)
{
    PollCond *c = opaque;

    return epp_rx_poll(c->rx, c->f);
}

void epp_rx_wait_frame(EppRx *rx, EppRxFrame *f, uint64_t budget_ns)
{
    PollCond c = { rx, f };
    uint64_t waited = 0, step = 5 * EPP_NS_PER_US;

    for (;;) {
        if (epp_rx_poll(rx, f)) {
            return;
        }
        if (waited >= budget_ns) {
            break;
        }
        e1000epp_step(rx->d, step);
        waited += step;
    }
    /* The stock driver flushes pending write-backs before concluding */
    if (rx->s.design == EPP_RX_STOCK || rx->s.dma_burst) {
        epp_rx_flush(rx);
        e1000epp_wait_until(rx->d, poll_cond, &c, EPP_NS_PER_US,
                            10 * EPP_NS_PER_US,
                            "Rx frame after an FPD flush");
        return;
    }
    e1000epp_dump_regs(rx->d, "Rx frame");
    g_error("%s: no complete Rx frame at descriptor %u within %" PRIu64
            " ns on %s", epp_rx_design_name(rx->s.design),
            rx->next_to_clean, budget_ns, rx->d->model);
}
