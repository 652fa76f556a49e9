/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive ring shared by every receive-driver design (see
 * e1000e-pp-rxdrv.h): set-up, posting, reading frames back, poison
 * checks, software FCS strip, statistics and waits.  What differs per
 * design goes through rx->ops.  The descriptors, the tail and the
 * statistics are the ring's (e1000e-pp-rxring.c); a design ring keeps
 * one descriptor empty (posted <= count - 1), because RDH == RDT means
 * "the ring holds no descriptors for the device".
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/libqos-malloc.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-rxdrv.h"

/*
 * FLAG2_DMA_BURST values of the Linux driver (e1000.h): RXDCTL with
 * GRAN=1, WTHRESH=4, HTHRESH=4, PTHRESH=0x20; TXDCTL with GRAN=1,
 * COUNT_DESC, WTHRESH=1, HTHRESH=1, PTHRESH=0x1f; RDTR = RADV = 0x20
 * (param.c BURST_RDTR/BURST_RADV), TIDV 8 and TADV 32 (the defaults).
 */
#define EPP_BURST_RXDCTL    0x01040420u
#define EPP_BURST_TXDCTL    0x0141011fu
#define EPP_BURST_RDTR      0x20
#define EPP_BURST_RADV      0x20
#define EPP_BURST_TIDV      8
#define EPP_BURST_TADV      32

#define EPP_RX_POISON       0xd7

static const EppRxDesignOps *const designs[] = {
    [EPP_RX_STOCK] = &epp_rx_stock_ops,
    [EPP_RX_PAGEPOOL] = &epp_rx_pagepool_ops,
    [EPP_RX_FIXED] = &epp_rx_fixed_ops,
};

const char *epp_rx_design_name(EppRxDesign d)
{
    return designs[d]->name;
}

const char *epp_fcs_case_name(EppFcsCase c)
{
    static const char *const names[] = {
        "none", "in-last", "straddles", "alone",
    };

    return names[c];
}

/* ---------------------------------------------------------------- */
/* Buffers                                                          */
/* ---------------------------------------------------------------- */

static void buf_poison(EppRx *rx, const EppRxBuf *b)
{
    qtest_memset(rx->d->qts, b->region, rx->poison, b->region_len);
}

EppRxBuf epp_rx_buf_alloc(EppRx *rx, uint32_t headroom, uint32_t map_len,
                          uint32_t tail_slack)
{
    EppRxBuf b;

    b.region_len = headroom + map_len + tail_slack;
    b.region = epp_alloc(rx->d, b.region_len);
    b.dma = b.region + headroom;
    b.map_len = map_len;
    b.chunk = -1;
    b.mapped = false;
    rx->live_bufs++;
    return b;
}

void epp_rx_buf_free(EppRx *rx, EppRxBuf *b)
{
    g_assert(b->chunk < 0);
    guest_free(&rx->d->alloc, b->region);
    rx->live_bufs--;
    b->region = 0;
}

void epp_rx_check_bufs(EppRx *rx)
{
    unsigned in_slots = 0, i, j;

    /* One guest buffer per slot buffer, nothing else */
    for (i = 0; i < rx->count; i++) {
        for (j = 0; j < rx->slot[i].nbuf; j++) {
            in_slots += rx->slot[i].buf[j].region != 0;
        }
    }
    g_assert_cmpuint(rx->live_bufs, ==, in_slots);
}

void epp_rx_check_pool(EppRx *rx)
{
    rx->ops->check(rx);
}

/* ---------------------------------------------------------------- */
/* Descriptors                                                      */
/* ---------------------------------------------------------------- */

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
    qtest_memwrite(rx->d->qts, epp_rx_desc_addr(rx, i), desc, rx->desc_len);
    sl->posted = true;
}

void epp_rx_tail_per_batch(EppRx *rx, int i)
{
    /* Once per batch, past the last descriptor filled */
    if (i < 0) {
        epp_rx_write_tail(rx, rx->next_to_use);
    }
}

void epp_rx_post_n(EppRx *rx, unsigned n)
{
    unsigned k;

    for (k = 0; k < n && rx->posted < rx->count - 1; k++) {
        unsigned i = rx->next_to_use;

        if (!rx->ops->fill_slot(rx, i)) {
            break;
        }
        slot_post(rx, i);
        rx->posted++;
        rx->next_to_use = epp_rx_ring_next(rx, i);
        rx->ops->tail(rx, i);
    }
    rx->ops->tail(rx, -1);
}

void epp_rx_refill(EppRx *rx)
{
    epp_rx_post_n(rx, rx->count);
}

void epp_rx_flush(EppRx *rx)
{
    /* e1000e_flush_descriptors: TIDV and RDTR with FPD, written twice */
    epp_wr(rx->d, TIDV, EPP_BURST_TIDV | TIDV_FPD);
    epp_wr(rx->d, RDTR, EPP_BURST_RDTR | RDTR_FPD);
    epp_rd(rx->d, STATUS);
    epp_wr(rx->d, TIDV, EPP_BURST_TIDV | TIDV_FPD);
    epp_wr(rx->d, RDTR, EPP_BURST_RDTR | RDTR_FPD);
    epp_rd(rx->d, STATUS);
}

/* ---------------------------------------------------------------- */
/* Set-up                                                           */
/* ---------------------------------------------------------------- */

EppRx *epp_rx_new(EppDev *d, const EppRxSetup *s)
{
    EppRx *rx = g_new0(EppRx, 1);
    uint32_t rctl, rfctl = 0, ctrl;
    unsigned j;

    rx->d = d;
    rx->s = *s;
    rx->ops = designs[s->design];
    rx->count = s->ring_count ? s->ring_count : 64;
    rx->poison = EPP_RX_POISON;
    rx->burst = rx->ops->dma_burst || s->dma_burst;

    rctl = RCTL_EN | RCTL_BAM;
    if (s->sbp || s->rxall) {
        rctl |= RCTL_SBP;       /* e1000_setup_rctl under NETIF_F_RXALL */
    }
    if (!s->keep_crc) {
        rctl |= RCTL_SECRC;
    }
    if (!s->rdmts_half) {
        rctl |= RCTL_RDMTS_8TH;
    }
    rx->ops->configure(rx, &rctl, &rfctl);
    rx->rctl = rctl;
    rx->desc_len = rx->format == EPP_RXF_SPLIT ? 32 : 16;
    rx->slot = g_new0(EppRxSlot, rx->count);
    rx->ring = epp_alloc(d, rx->count * rx->desc_len);
    if (rx->ops->start) {
        rx->ops->start(rx);
    }

    /* e1000_configure_rx: receiver off while the ring is set up */
    epp_wr(d, RCTL, epp_rd(d, RCTL) & ~RCTL_EN);
    if (rx->burst) {
        epp_wr(d, RXDCTL0, EPP_BURST_RXDCTL);
        epp_wr(d, TXDCTL0, EPP_BURST_TXDCTL);
        epp_wr(d, RDTR, EPP_BURST_RDTR);
        epp_wr(d, RADV, EPP_BURST_RADV);
        epp_wr(d, TIDV, EPP_BURST_TIDV);
        epp_wr(d, TADV, EPP_BURST_TADV);
    } else {
        epp_wr(d, RDTR, 0);
        epp_wr(d, RADV, 0);
    }
    epp_wr(d, RDBAL0, (uint32_t)rx->ring);
    epp_wr(d, RDBAH0, (uint32_t)(rx->ring >> 32));
    epp_wr(d, RDLEN0, rx->count * rx->desc_len);
    epp_wr(d, RDH0, 0);
    epp_wr(d, RDT0, 0);
    epp_wr(d, RFCTL, rfctl);
    if (rx->format == EPP_RXF_SPLIT) {
        uint32_t ps = rx->ps_size[0] / 128;

        for (j = 1; j < 4; j++) {
            ps |= (uint32_t)(rx->ps_size[j] / 1024) << (8 * j);
        }
        epp_wr(d, PSRCTL, ps);
    }
    epp_wr(d, VET, 0x8100);
    ctrl = epp_rd(d, CTRL);
    ctrl = s->vlan_strip ? ctrl | CTRL_VME : ctrl & ~CTRL_VME;
    epp_wr(d, CTRL, ctrl);

    /* Counters start from zero for this ring */
    epp_rx_stats_update(rx);
    rx->mpc = rx->rnbc = rx->gprc = rx->tpr = rx->roc = rx->ruc = 0;
    rx->gorc = 0;

    if (s->per_desc) {
        g_assert(rx->ops->chains);
        rx->chain = g_new0(EppRxFrame, 1);
    }
    epp_rx_post_n(rx, s->fill ? s->fill : rx->count);
    rx->tail_writes = 0;
    epp_wr(d, RCTL, rctl);
    return rx;
}

void epp_rx_free(EppRx *rx)
{
    unsigned i, j;

    /* Guest memory goes back too: a sweep reuses one device */
    epp_wr(rx->d, RCTL, epp_rd(rx->d, RCTL) & ~RCTL_EN);
    for (i = 0; i < rx->count; i++) {
        for (j = 0; j < rx->slot[i].nbuf; j++) {
            if (rx->slot[i].buf[j].region && rx->slot[i].buf[j].chunk < 0) {
                epp_rx_buf_free(rx, &rx->slot[i].buf[j]);
            }
        }
    }
    if (rx->ops->destroy) {
        rx->ops->destroy(rx);
    }
    guest_free(&rx->d->alloc, rx->ring);
    g_free(rx->chain);
    g_free(rx->slot);
    g_free(rx);
}

/* ---------------------------------------------------------------- */
/* Cleaning                                                         */
/* ---------------------------------------------------------------- */

/*
 * Read what the device wrote into one buffer, append it to the frame
 * and check the poison around it: nothing before the DMA address,
 * nothing past the reported length.
 */
static void take_bytes(EppRx *rx, EppRxFrame *f, const EppRxBuf *b,
                       size_t len)
{
    size_t head = b->dma - b->region, k, n = MAX(b->region_len, head + len);
    g_autofree uint8_t *r = g_malloc(n);

    if (len > b->map_len && !rx->s.tolerate_overrun) {
        epp_dump_regs(rx->d, "Rx write past the mapped buffer");
        g_error("descriptor reports %zu bytes in a %u-byte buffer on %s",
                len, b->map_len, rx->d->model);
    }
    if (len > b->map_len) {
        rx->overruns++;
    }
    g_assert_cmpuint(f->raw_len + len, <=, sizeof(f->raw));
    /* An overrun is read where the device put it, past the region */
    qtest_bufread(rx->d->qts, b->region, r, n);
    for (k = 0; k < b->region_len; k++) {
        if ((k < head || k >= head + len) && r[k] != rx->poison) {
            if (rx->s.tolerate_overrun) {
                rx->poison_hits++;
                continue;
            }
            epp_dump_regs(rx->d, "Rx buffer overrun");
            g_error("%s: byte %zu of a buffer (DMA at +%zu, %zu bytes "
                    "reported) was written: 0x%02x on %s",
                    rx->ops->name, k, head, len, r[k],
                    rx->d->model);
        }
    }
    memcpy(f->raw + f->raw_len, r + head, len);
    f->raw_len += len;
}

/* Software FCS strip over the piece list (designs with sw_fcs_strip) */
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

void epp_rx_frame_reset(EppRx *rx, EppRxFrame *f, unsigned first)
{
    f->len = f->raw_len = 0;
    f->ndesc = f->npieces = f->pieces_kept = 0;
    f->status = f->errors = 0;
    f->vlan = f->hdr_status = 0;
    f->fcs_case = EPP_FCS_NONE;
    f->truesize = 0;
    memset(f->fcs, 0, 4);
    f->first_desc = first;
    f->seq = rx->delivered;
}

void epp_rx_frame_add_desc(EppRx *rx, EppRxFrame *f, unsigned i,
                           const EppRxWb *w)
{
    EppRxSlot *sl = &rx->slot[i];
    unsigned j;

    g_assert_cmpuint(f->ndesc, <, EPP_RX_MAX_PIECES);
    f->desc_len[f->ndesc] = w->len[0];
    f->desc_eop[f->ndesc] = w->eop;
    if (f->ndesc == 0) {
        f->hdr_status = w->hdr_status;
    }
    f->ndesc++;
    for (j = 0; j < sl->nbuf; j++) {
        size_t len = w->len[j];

        if (!sl->buf[j].region) {
            g_assert_cmpuint(len, ==, 0);
            continue;
        }
        if (len) {
            g_assert_cmpuint(f->npieces, <, EPP_RX_MAX_PIECES);
            f->piece_len[f->npieces++] = len;
        }
        take_bytes(rx, f, &sl->buf[j], len);
    }
    if (w->eop) {
        f->status = w->status;
        f->errors = w->errors;
        f->vlan = w->vlan;
    }
    sl->posted = false;
}

void epp_rx_frame_finish(EppRx *rx, EppRxFrame *f)
{
    f->pieces_kept = f->npieces;
    if (rx->s.keep_crc && rx->ops->sw_fcs_strip) {
        strip_fcs(rx, f);
    } else {
        f->len = f->raw_len;
    }
    memcpy(f->data, f->raw, f->len);
}

/* The next complete frame, taken off the ring; false if none yet. */
static bool poll_one(EppRx *rx, EppRxFrame *f)
{
    EppRxWb w[EPP_RX_MAX_PIECES];
    unsigned n = 0, i = rx->next_to_clean, k;

    /* Find a complete frame: DD on each descriptor up to one with EOP */
    for (;;) {
        if (n >= rx->posted) {
            return false;
        }
        g_assert_cmpuint(n, <, EPP_RX_MAX_PIECES);
        epp_rx_desc_read(rx, i, &w[n]);
        if (!w[n].dd) {
            return false;
        }
        n++;
        if (w[n - 1].eop) {
            break;
        }
        i = epp_rx_ring_next(rx, i);
    }

    epp_rx_frame_reset(rx, f, rx->next_to_clean);
    i = rx->next_to_clean;
    for (k = 0; k < n; k++) {
        epp_rx_frame_add_desc(rx, f, i, &w[k]);
        i = epp_rx_ring_next(rx, i);
    }
    rx->next_to_clean = i;
    rx->posted -= n;
    epp_rx_frame_finish(rx, f);
    return true;
}

bool epp_rx_poll(EppRx *rx, EppRxFrame *f)
{
    unsigned guard;

    if (rx->s.per_desc) {
        return epp_rx_clean_poll(rx, f);
    }
    /* Frames the driver drops for an error: at most a ring's worth. */
    for (guard = 0; guard <= rx->count; guard++) {
        if (!poll_one(rx, f)) {
            return false;
        }
        if ((f->errors & RXD_ERR_FRAME) && !rx->s.rxall) {
            if (rx->ops->frame_error) {
                rx->ops->frame_error(rx, f);
            }
            rx->frame_errors++;
            rx->frame_error_bits = f->errors;
            continue;
        }
        if (rx->ops->frame_done) {
            rx->ops->frame_done(rx, f);
        }
        rx->delivered++;
        return true;
    }
    return false;
}

void epp_rx_release(EppRx *rx, EppRxFrame *f)
{
    if (rx->ops->release) {
        rx->ops->release(rx, f);
    }
}

typedef struct PollCond {
    EppRx *rx;
    EppRxFrame *f;
} PollCond;

static bool poll_cond(EppDev *d, void *opaque)
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
        epp_step(rx->d, step);
        waited += step;
    }
    /* The stock driver flushes pending write-backs before concluding */
    if (rx->burst) {
        epp_rx_flush(rx);
        epp_wait_until(rx->d, poll_cond, &c, EPP_NS_PER_US,
                       10 * EPP_NS_PER_US,
                       "Rx frame after an FPD flush");
        return;
    }
    epp_dump_regs(rx->d, "Rx frame");
    g_error("%s: no complete Rx frame at descriptor %u within %" PRIu64
            " ns on %s", rx->ops->name,
            rx->next_to_clean, budget_ns, rx->d->model);
}
