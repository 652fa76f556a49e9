/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Descriptor write-back and its moderation (moderation.c, §7.4.4): held
 * write-backs, the delay timers, the WTHRESH count.
 */
#ifndef E1000E_PP_MODERATION_H
#define E1000E_PP_MODERATION_H

#include "common.h"

/*
 * moderation.c: descriptor write-back held per RXDCTL/TXDCTL.WTHRESH and
 * the §7.4.4 delay timers RDTR/RADV (Rx) and TIDV/TADV (Tx) that flush it.
 */
void e1000e_pp_rx_wb_queue(E1000EPPCore *c, uint64_t addr, const uint8_t *d,
                           size_t size);
void e1000e_pp_rx_wb_flush(E1000EPPCore *c);
void e1000e_pp_rx_wb_write(E1000EPPCore *c, uint64_t addr, const uint8_t *d,
                           size_t size);
bool e1000e_pp_tx_wb_queue(E1000EPPCore *c, uint64_t addr,
                           const uint8_t *d);
bool e1000e_pp_tx_wb_flush(E1000EPPCore *c);
void e1000e_pp_tx_writeback(E1000EPPCore *c, bool ide);
void e1000e_pp_rx_delay_start(E1000EPPCore *c);
void e1000e_pp_tx_delay_start(E1000EPPCore *c, bool ide);
void e1000e_pp_delay_fired(E1000EPPCore *c, E1000EPPTimer timer);
void e1000e_pp_rdtr_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_tidv_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_moderation_reset(E1000EPPCore *c);

/* Transmit descriptor status: descriptor done (TDESC.STA). */
#define TXD_STA_DD      (1u << 0)

/*
 * RXDCTL/TXDCTL.WTHRESH as a descriptor count: GRAN (bit 24) = 1 counts
 * descriptors, GRAN = 0 cache lines of 256 bytes (82583V TXDCTL: "16
 * descriptors cacheline - 256 bytes"). Capped at what the model holds.
 */
static inline unsigned e1000e_pp_dctl_thresh(uint32_t dctl, unsigned shift,
                                             unsigned desc_bytes)
{
    unsigned w = (dctl >> shift) & 0x3f;

    if (!(dctl & (1u << 24))) {
        w *= 256 / desc_bytes;
    }
    return w;
}

static inline unsigned e1000e_pp_wthresh(uint32_t dctl, unsigned desc_bytes)
{
    unsigned w = e1000e_pp_dctl_thresh(dctl, 16, desc_bytes);

    return w > E1000E_PP_WB_MAX ? E1000E_PP_WB_MAX : w;
}

#endif
