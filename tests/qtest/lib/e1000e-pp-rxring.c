/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive ring every qtest uses (see e1000e-pp-rxring.h):
 * descriptors, the tail, write-back reads, DD waits and statistics.
 * The receive-driver designs build on it in e1000e-pp-rxdrv.c.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-rxring.h"

EppRx *epp_rx_ring_new(EppDev *d, uint64_t ring, unsigned count)
{
    EppRx *rx = g_new0(EppRx, 1);

    rx->d = d;
    rx->ring = ring;
    rx->count = count;
    rx->desc_len = 16;
    rx->format = EPP_RXF_LEGACY;
    return rx;
}

void epp_rx_ring_free(EppRx *rx)
{
    g_assert(rx->ops == NULL);
    g_free(rx);
}

void epp_rx_ring_reset(EppRx *rx, EppRxFormat format)
{
    g_assert(rx->ops == NULL && format != EPP_RXF_SPLIT);
    rx->format = format;
    rx->next_to_use = rx->next_to_clean = rx->posted = 0;
}

void epp_rx_ring_continue(EppRx *dst, const EppRx *src)
{
    g_assert(dst->ops == NULL && src->ops == NULL);
    dst->ring = src->ring;
    dst->count = src->count;
    dst->desc_len = src->desc_len;
    dst->format = src->format;
    dst->next_to_use = src->next_to_use;
    dst->next_to_clean = src->next_to_clean;
    dst->posted = src->posted;
}

/* ---------------------------------------------------------------- */
/* Statistics                                                       */
/* ---------------------------------------------------------------- */

void epp_rx_stats_update(EppRx *rx)
{
    EppDev *d = rx->d;
    uint64_t lo;

    rx->mpc += epp_rd(d, MPC);
    rx->rnbc += epp_rd(d, RNBC);
    rx->gprc += epp_rd(d, GPRC);
    rx->tpr += epp_rd(d, TPR);
    rx->roc += epp_rd(d, ROC);
    rx->ruc += epp_rd(d, RUC);
    /* 64-bit pair: low half first, the high read clears both */
    lo = epp_rd(d, GORCL);
    rx->gorc += lo | (uint64_t)epp_rd(d, GORCH) << 32;
}

/* ---------------------------------------------------------------- */
/* Descriptors                                                      */
/* ---------------------------------------------------------------- */

uint64_t epp_rx_desc_addr(EppRx *rx, unsigned i)
{
    return rx->ring + (uint64_t)i * rx->desc_len;
}

unsigned epp_rx_ring_next(EppRx *rx, unsigned i)
{
    return (i + 1) % rx->count;
}

void epp_rx_write_tail(EppRx *rx, unsigned i)
{
    rx->tail_writes++;
    epp_wr(rx->d, RDT0, rx->format == EPP_RXF_SPLIT ? i << 1 : i);
}

unsigned epp_rx_post_addr(EppRx *rx, uint64_t addr)
{
    uint8_t desc[32] = { 0 };
    unsigned i = rx->next_to_use;

    /* Legacy and extended read formats both start with the buffer address */
    stq_le_p(desc, addr);
    qtest_memwrite(rx->d->qts, epp_rx_desc_addr(rx, i), desc, rx->desc_len);
    rx->next_to_use = epp_rx_ring_next(rx, i);
    rx->posted++;
    /* RDT names the first descriptor the device may not use */
    epp_rx_write_tail(rx, rx->next_to_use);
    return i;
}

void epp_rx_desc_bytes(EppRx *rx, unsigned i, uint8_t *desc)
{
    qtest_memread(rx->d->qts, epp_rx_desc_addr(rx, i), desc, rx->desc_len);
}

void epp_rx_desc_read(EppRx *rx, unsigned i, EppRxWb *w)
{
    uint8_t b[32];
    uint32_t staterr;

    epp_rx_desc_bytes(rx, i, b);
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
    EppRxWb w;

    if (!rx->posted) {
        return false;
    }
    epp_rx_desc_read(rx, rx->next_to_clean, &w);
    return w.dd;
}

typedef struct DdCond {
    EppRx *rx;
    unsigned i;
} DdCond;

static bool desc_dd(EppDev *d, void *opaque)
{
    DdCond *c = opaque;
    EppRxWb w;

    epp_rx_desc_read(c->rx, c->i, &w);
    return w.dd;
}

void epp_rx_wait_dd(EppRx *rx, unsigned i)
{
    DdCond c = { rx, i };
    g_autofree char *what = g_strdup_printf("Rx descriptor %u DD", i);

    epp_wait_until(rx->d, desc_dd, &c, 10 * EPP_NS_PER_US,
                   100 * EPP_NS_PER_MS, what);
}
