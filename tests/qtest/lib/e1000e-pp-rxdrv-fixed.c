/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "fixed" receive design: every descriptor gets buffers of exactly
 * the size RCTL.BSIZE/BSEX (or PSRCTL) announces, the tail moves after
 * each batch, and nothing is done in software with the FCS.  It probes
 * the datasheet's buffer-size and packet-split rules directly.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-rxdrv.h"

/* §10.2.5.1: BSIZE in bits 17:16; BSEX multiplies by 16 */
static size_t bsize_bytes(uint32_t rctl)
{
    static const size_t plain[4] = { 2048, 1024, 512, 256 };
    static const size_t ext[4] = { 0, 16384, 8192, 4096 };
    unsigned b = (rctl >> 16) & 3;

    return rctl & RCTL_BSEX ? ext[b] : plain[b];
}

static void fixed_configure(EppRx *rx, uint32_t *rctl, uint32_t *rfctl)
{
    const EppRxSetup *s = &rx->s;
    unsigned j;

    rx->format = s->format;
    *rctl |= s->rctl_bsize;
    if (s->lpe) {
        *rctl |= RCTL_LPE;
    }
    if (rx->format == EPP_RXF_SPLIT) {
        /* §10.2.5.3 PSRCTL: BSIZE0 in 128-byte units, BSIZE1-3 in 1 KB */
        *rctl |= RCTL_DTYP_PS;
        rx->ps_size[0] = (s->psrctl & 0x7f) * 128;
        for (j = 1; j < 4; j++) {
            rx->ps_size[j] = ((s->psrctl >> (8 * j)) & 0x7f) * 1024;
        }
        *rfctl = RFCTL_EXTEN;
    } else {
        rx->hw_bufsize = bsize_bytes(s->rctl_bsize);
        *rfctl = rx->format == EPP_RXF_EXTENDED ? RFCTL_EXTEN : 0;
    }
}

/* 64 poisoned bytes on either side of every buffer catch stray writes */
static bool fixed_fill_slot(EppRx *rx, unsigned i)
{
    EppRxSlot *sl = &rx->slot[i];
    unsigned j;

    if (rx->format == EPP_RXF_SPLIT) {
        for (j = 0; j < 4; j++) {
            if (rx->ps_size[j] && !sl->buf[j].region) {
                sl->buf[j] = epp_rx_buf_alloc(rx, 64, rx->ps_size[j], 64);
            }
        }
        sl->nbuf = 4;
    } else {
        if (!sl->buf[0].region) {
            sl->buf[0] = epp_rx_buf_alloc(rx, 64, rx->hw_bufsize, 64);
        }
        sl->nbuf = 1;
    }
    return true;
}

const EppRxDesignOps epp_rx_fixed_ops = {
    .name = "fixed",
    .configure = fixed_configure,
    .fill_slot = fixed_fill_slot,
    .tail = epp_rx_tail_per_batch,
    .sw_fcs_strip = false,
    .check = epp_rx_check_bufs,
};
