/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Descriptor write-back and interrupt moderation (82574L §7.1.7, §7.2.4,
 * §7.4.4): Rx and Tx descriptors held per RXDCTL/TXDCTL.WTHRESH, and the
 * delay timers that bound how long — RDTR/RADV for receive, TIDV/TADV
 * for transmit — which write the held descriptors back and raise the
 * cause. The engines queue here; nothing here calls an engine.
 */
#include <string.h>

#include "common.h"
#include "intr.h"
#include "moderation.h"
#include "rxdesc.h"
#include "stats.h"
#include "coverage.h"
#include "dma.h"

/* The delay timers count in 1.024 us units. */
#define DELAY_UNIT_NS   1024

void e1000e_pp_moderation_reset(E1000EPPCore *c)
{
    c->arch.rxwb.count = 0;
    c->arch.txwb.count = 0;
    memset(c->arch.delay_armed, 0, sizeof(c->arch.delay_armed));
}

/*
 * One Rx descriptor written back. A posted write: a failure is lost,
 * listed as a fault (descriptor index from its address), nothing undone.
 */
void e1000e_pp_rx_wb_write(E1000EPPCore *c, uint64_t addr, const uint8_t *d,
                           size_t size)
{
    if (!e1000e_pp_dma_write(c, addr, d, size)) {
        e1000e_pp_dma_fault(c, "rx-desc-wb",
                            (uint32_t)((addr - e1000e_pp_rx_ring_base(c)) /
                                       size), addr, 0, (uint32_t)size, true);
    }
}

void e1000e_pp_rx_wb_flush(E1000EPPCore *c)
{
    E1000EPPRxWriteback *wb = &c->arch.rxwb;
    unsigned i;

    /* Held descriptors that reached WTHRESH (§7.1.7) go out together. */
    if (wb->count > 1 &&
        wb->count >= e1000e_pp_wthresh(REG(c, RXDCTL), wb->size[0])) {
        e1000e_pp_cover(c, SIT_WB_THRESHOLD);
    }
    for (i = 0; i < wb->count; i++) {
        e1000e_pp_rx_wb_write(c, wb->addr[i], wb->desc[i], wb->size[i]);
    }
    wb->count = 0;
}

void e1000e_pp_rx_wb_queue(E1000EPPCore *c, uint64_t addr, const uint8_t *d,
                           size_t size)
{
    E1000EPPRxWriteback *wb = &c->arch.rxwb;

    if (wb->count == E1000E_PP_WB_MAX) {
        e1000e_pp_rx_wb_flush(c);
    }
    wb->addr[wb->count] = addr;
    memcpy(wb->desc[wb->count], d, size);
    wb->size[wb->count] = (uint8_t)size;
    wb->count++;
}

/*
 * Write back the Tx status bytes held for TXDCTL.WTHRESH. Returns false
 * if a write failed: the transmit engine then stops.
 */
bool e1000e_pp_tx_wb_flush(E1000EPPCore *c)
{
    E1000EPPTxWriteback *wb = &c->arch.txwb;
    unsigned i;

    for (i = 0; i < wb->count; i++) {
        if (!e1000e_pp_dma_write(c, wb->addr[i], wb->desc[i], wb->size[i])) {
            c->arch.tx_halted = true;
            wb->count = 0;
            return false;
        }
    }
    wb->count = 0;
    return true;
}

/*
 * Descriptor d at addr is done (RS): DD goes into its status byte
 * (TDESC.STA, byte 12). §7.2.4.2: with TXDCTL.WTHRESH = 0 only that
 * byte is written back and the rest is left unchanged; with bursts
 * (WTHRESH >= 1) the whole 16-byte descriptor is written.
 */
bool e1000e_pp_tx_wb_queue(E1000EPPCore *c, uint64_t addr, const uint8_t *d)
{
    E1000EPPTxWriteback *wb = &c->arch.txwb;
    bool whole = (REG(c, TXDCTL) >> 16) & 0x3f;

    if (wb->count == E1000E_PP_WB_MAX && !e1000e_pp_tx_wb_flush(c)) {
        return false;
    }
    if (whole) {
        memcpy(wb->desc[wb->count], d, 16);
        wb->desc[wb->count][12] |= TXD_STA_DD;
        wb->addr[wb->count] = addr;
        wb->size[wb->count] = 16;
    } else {
        wb->desc[wb->count][0] = d[12] | TXD_STA_DD;
        wb->addr[wb->count] = addr + 12;
        wb->size[wb->count] = 1;
    }
    wb->count++;
    return true;
}

/*
 * TXDCTL.WTHRESH: RS descriptors are written back in bursts of WTHRESH;
 * 0 or 1 writes each back at once. A held burst goes out when TIDV/TADV
 * expire or TIDV.FPD is written; TXDW follows the write-back.
 */
void e1000e_pp_tx_writeback(E1000EPPCore *c, bool ide)
{
    unsigned w = e1000e_pp_wthresh(REG(c, TXDCTL), 16);

    if (w <= 1 || c->arch.txwb.count >= w || !(REG(c, TIDV) & 0xffff)) {
        if (!e1000e_pp_tx_wb_flush(c)) {
            return;
        }
        /*
         * IVAR.TX_INT_EVERY_WB (bit 31, MSI-X): the Tx cause fires on
         * every write-back, without the IDE delay (docs/fidelity.md).
         */
        if (c->plat->irq_mode(c->opaque) == E1000E_PP_IRQ_MSIX &&
            (REG(c, IVAR) & IVAR_TX_INT_EVERY_WB)) {
            ide = false;
        }
        e1000e_pp_tx_delay_start(c, ide);
        return;
    }
    /* Held for WTHRESH: the delay timers bound how long. */
    e1000e_pp_tx_delay_start(c, true);
}

/*
 * §7.4.4 interrupt delay timers, one pair per direction: the packet
 * timer (RDTR, TIDV) restarts with every frame, the absolute one (RADV,
 * TADV) runs from the first frame after the last interrupt; whichever
 * expires first writes back what WTHRESH held and raises the cause. A
 * zero packet timer (or, for Tx, a descriptor without IDE) means no
 * delay at all, and such an immediate interrupt halts both timers.
 */
typedef struct DelayPair {
    E1000EPPTimer packet, absolute;
    uint32_t packet_reg, absolute_reg;
    uint32_t packet_stat, absolute_stat;
    uint32_t cause;
    bool rx;
} DelayPair;

static const DelayPair rx_delay = {
    E1000E_PP_TIMER_RDTR, E1000E_PP_TIMER_RADV, RDTR, RADV,
    ICRXPTC, ICRXATC, ICR_RXT0, true,
};
static const DelayPair tx_delay = {
    E1000E_PP_TIMER_TIDV, E1000E_PP_TIMER_TADV, TIDV, TADV,
    ICTXPTC, ICTXATC, ICR_TXDW, false,
};

static bool *armed(E1000EPPCore *c, E1000EPPTimer t)
{
    return &c->arch.delay_armed[t - E1000E_PP_TIMER_RDTR];
}

static void wb_flush(E1000EPPCore *c, const DelayPair *p)
{
    if (p->rx) {
        if (c->arch.rxwb.count) {    /* nothing held: the common case */
            e1000e_pp_rx_wb_flush(c);
        }
    } else {
        e1000e_pp_tx_wb_flush(c);
    }
}

/*
 * A timer whose flag is clear is not running (it is set on every arm and
 * cleared here, the only place they stop but a MAC reset, which cancels
 * them all and clears the flags): only running timers are cancelled, so
 * an immediate write-back (RDTR = 0, the common case) costs the host no
 * timer calls per frame.
 */
static inline void delay_disarm(E1000EPPCore *c, E1000EPPTimer t)
{
    if (*armed(c, t)) {
        e1000e_pp_disarm(c, t);
        *armed(c, t) = false;
    }
}

static inline void delay_flush(E1000EPPCore *c, const DelayPair *p)
{
    wb_flush(c, p);
    delay_disarm(c, p->packet);
    delay_disarm(c, p->absolute);
    e1000e_pp_raise(c, p->cause);
}

static void delay_start(E1000EPPCore *c, const DelayPair *p, bool delay)
{
    uint32_t pkt = REG(c, p->packet_reg) & 0xffff;
    uint32_t abs = REG(c, p->absolute_reg) & 0xffff;

    if (!delay || !pkt) {
        delay_flush(c, p);
        return;
    }
    e1000e_pp_arm(c, p->packet, (int64_t)pkt * DELAY_UNIT_NS);
    *armed(c, p->packet) = true;
    if (abs && !*armed(c, p->absolute)) {
        e1000e_pp_arm(c, p->absolute, (int64_t)abs * DELAY_UNIT_NS);
        *armed(c, p->absolute) = true;
    }
}

/* FPD (bit 31 of RDTR/TIDV, reads 0): flush held descriptors now. */
static void delay_fpd(E1000EPPCore *c, const DelayPair *p, uint32_t val)
{
    if (!(val & DELAY_FPD)) {
        return;
    }
    if (*armed(c, p->packet) || *armed(c, p->absolute)) {
        delay_flush(c, p);      /* the pending interrupt goes with them */
    } else {
        wb_flush(c, p);
    }
}

void e1000e_pp_rx_delay_start(E1000EPPCore *c)
{
    delay_start(c, &rx_delay, true);
}

void e1000e_pp_tx_delay_start(E1000EPPCore *c, bool ide)
{
    delay_start(c, &tx_delay, ide);
}

void e1000e_pp_delay_fired(E1000EPPCore *c, E1000EPPTimer timer)
{
    const DelayPair *p = timer == rx_delay.packet ||
                         timer == rx_delay.absolute ? &rx_delay : &tx_delay;

    e1000e_pp_stat_inc(c, timer == p->packet ? p->packet_stat :
                                               p->absolute_stat);
    if (p == &rx_delay && c->arch.rxwb.count) {
        e1000e_pp_cover(c, SIT_WB_TIMER);
        /* A frame part-way out: its first descriptors go before its EOP. */
        const E1000EPPPktBuf *pb = &c->arch.pktbuf;

        if (pb->count && pb->q[pb->head].done) {
            e1000e_pp_cover(c, SIT_SPLIT_POLLS);
        }
    }
    delay_flush(c, p);
}

void e1000e_pp_rdtr_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    delay_fpd(c, &rx_delay, val);
}

void e1000e_pp_tidv_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    delay_fpd(c, &tx_delay, val);
}
