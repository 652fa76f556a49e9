/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupts (82574L §7.4): ICR/ICS/IMS/IMC/IAM, INTx with
 * ICR.INT_ASSERTED, MSI, MSI-X routed by IVAR with EIAC auto-clear and
 * EIAME auto-mask, ITR/EITR throttling and the Rx/Tx delay timers
 * RDTR/RADV/TIDV/TADV.
 */
#include <string.h>

#include "internal.h"

/* MSI-X causes in IVAR order: RxQ0, RxQ1, TxQ0, TxQ1, Other (§10.2.4.9). */
static const uint32_t msix_causes[5] = {
    ICR_RXQ0, ICR_RXQ1, ICR_TXQ0, ICR_TXQ1, ICR_OTHER,
};

/* ITR/EITR count in 256 ns units, the delay timers in 1.024 us units. */
#define ITR_UNIT_NS     256
#define DELAY_UNIT_NS   1024

static E1000EPPIrqMode irq_mode(E1000EPPCore *c)
{
    return c->plat->irq_mode(c->opaque);
}

static void trace(E1000EPPCore *c, const char *what, unsigned vector)
{
    if (c->plat->trace_irq) {
        c->plat->trace_irq(c->opaque, what, REG(c, ICR), REG(c, IMS),
                           vector);
    }
}

void e1000e_pp_intr_reset(E1000EPPCore *c)
{
    unsigned v;

    c->itr_window = false;
    c->itr_pending = false;
    for (v = 0; v < E1000E_PP_MSIX_VECTORS; v++) {
        c->eitr_window[v] = false;
        c->eitr_pending[v] = false;
    }
    memset(c->delay_armed, 0, sizeof(c->delay_armed));
    c->msi_delivered = false;
    if (c->intx_level) {
        c->intx_level = false;
        c->plat->set_intx(c->opaque, 0);
    }
}

/* Open a throttle window of ITR/EITR * 256 ns; false if one is open. */
static bool throttle_pass(E1000EPPCore *c, bool *window, bool *pending,
                          uint32_t itr, E1000EPPTimer timer)
{
    uint32_t interval = itr & 0xffff;

    if (*window) {
        *pending = true;
        return false;
    }
    *pending = false;
    if (interval) {
        *window = true;
        e1000e_pp_arm(c, timer, (int64_t)interval * ITR_UNIT_NS);
    }
    return true;
}

/* INTx and MSI: one line, asserted while ICR & IMS has a cause. */
static void update_line(E1000EPPCore *c)
{
    E1000EPPIrqMode mode = irq_mode(c);
    uint32_t pending = REG(c, ICR) & REG(c, IMS) & ~ICR_INT_ASSERTED;

    if (!pending) {
        REG(c, ICR) &= ~ICR_INT_ASSERTED;
        c->msi_delivered = false;
        if (c->intx_level) {
            c->intx_level = false;
            c->plat->set_intx(c->opaque, 0);
            trace(c, "intx-deassert", 0);
        }
        return;
    }
    if (mode == E1000E_PP_IRQ_MSI) {
        if (c->intx_level) {
            c->intx_level = false;
            c->plat->set_intx(c->opaque, 0);
        }
        if (c->msi_delivered) {
            return;
        }
        if (throttle_pass(c, &c->itr_window, &c->itr_pending, REG(c, ITR),
                          E1000E_PP_TIMER_ITR)) {
            REG(c, ICR) |= ICR_INT_ASSERTED;
            c->msi_delivered = true;
            e1000e_pp_stat_inc(c, IAC);
            c->plat->notify(c->opaque, 0);
            trace(c, "msi", 0);
        }
        return;
    }
    if (c->intx_level) {
        return;
    }
    if (throttle_pass(c, &c->itr_window, &c->itr_pending, REG(c, ITR),
                      E1000E_PP_TIMER_ITR)) {
        REG(c, ICR) |= ICR_INT_ASSERTED;
        c->intx_level = true;
        e1000e_pp_stat_inc(c, IAC);
        c->plat->set_intx(c->opaque, 1);
        trace(c, "intx-assert", 0);
    }
}

/* MSI-X: fire the vectors of the given causes that IMS enables. */
static void msix_fire(E1000EPPCore *c, uint32_t causes)
{
    uint32_t ivar = REG(c, IVAR);
    unsigned i;

    for (i = 0; i < ARRAY_LEN(msix_causes); i++) {
        uint32_t cause = msix_causes[i];
        uint32_t entry = (ivar >> (4 * i)) & 0xf;
        unsigned vec = entry & IVAR_VECTOR_MASK;

        if (!(causes & cause & REG(c, ICR) & REG(c, IMS))) {
            continue;
        }
        if (!(entry & IVAR_ENTRY_VALID) || vec >= E1000E_PP_MSIX_VECTORS) {
            e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, IVAR,
                          "IVAR 0x%08x: cause %u has no valid vector",
                          ivar, i);
            continue;
        }
        if (!throttle_pass(c, &c->eitr_window[vec], &c->eitr_pending[vec],
                           REG(c, EITR(vec)), E1000E_PP_TIMER_EITR0 + vec)) {
            continue;
        }
        /* §7.4.3: EIAME masks the IAM bits of the cause on firing... */
        if (REG(c, CTRL_EXT) & CTRL_EXT_EIAME) {
            REG(c, IMS) &= ~(REG(c, IAM) & cause);
        }
        /* ...and EIAC clears the cause in ICR and in IMS (§7.4.3). */
        REG(c, ICR) &= ~(REG(c, EIAC) & cause);
        REG(c, IMS) &= ~(REG(c, EIAC) & cause);
        e1000e_pp_stat_inc(c, IAC);
        c->plat->notify(c->opaque, vec);
        trace(c, "msix", vec);
    }
}

void e1000e_pp_intr_update(E1000EPPCore *c)
{
    if (irq_mode(c) == E1000E_PP_IRQ_MSIX) {
        if (c->intx_level) {
            c->intx_level = false;
            c->plat->set_intx(c->opaque, 0);
        }
        if (REG(c, ICR) & REG(c, IMS) & ~ICR_INT_ASSERTED) {
            REG(c, ICR) |= ICR_INT_ASSERTED;
        } else {
            REG(c, ICR) &= ~ICR_INT_ASSERTED;
        }
        return;
    }
    update_line(c);
}

void e1000e_pp_raise(E1000EPPCore *c, uint32_t causes)
{
    if (irq_mode(c) == E1000E_PP_IRQ_MSIX) {
        /* The per-queue and "other" causes the vectors are routed by. */
        if (causes & ICR_RXT0) {
            causes |= ICR_RXQ0;
        }
        if (causes & ICR_TXDW) {
            causes |= ICR_TXQ0;
        }
        if (causes & ICR_OTHER_CAUSES) {
            causes |= ICR_OTHER;
        }
    }
    REG(c, ICR) |= causes & ~ICR_INT_ASSERTED;
    trace(c, "raise", 0);
    if (irq_mode(c) == E1000E_PP_IRQ_MSIX) {
        msix_fire(c, causes);
    }
    e1000e_pp_intr_update(c);
}

void e1000e_pp_throttle_expired(E1000EPPCore *c, E1000EPPTimer timer)
{
    unsigned vec = timer - E1000E_PP_TIMER_EITR0;
    uint32_t ivar = REG(c, IVAR), causes = 0;
    unsigned i;

    if (timer == E1000E_PP_TIMER_ITR) {
        c->itr_window = false;
        if (c->itr_pending) {
            c->itr_pending = false;
            e1000e_pp_intr_update(c);
        }
        return;
    }

    c->eitr_window[vec] = false;
    if (!c->eitr_pending[vec]) {
        return;
    }
    c->eitr_pending[vec] = false;
    for (i = 0; i < ARRAY_LEN(msix_causes); i++) {
        uint32_t entry = (ivar >> (4 * i)) & 0xf;
        if ((entry & IVAR_ENTRY_VALID) &&
            (entry & IVAR_VECTOR_MASK) == vec) {
            causes |= msix_causes[i];
        }
    }
    msix_fire(c, causes);
}

uint32_t e1000e_pp_icr_read(E1000EPPCore *c, uint32_t off)
{
    uint32_t v;

    e1000e_pp_intr_update(c);
    v = REG(c, ICR);
    /*
     * §10.2.4.1: a read clears ICR when IMS is 0 or INT_ASSERTED is set
     * (then, with CTRL_EXT.IAME, IAM is also written to IMC); with only
     * masked causes pending the read has no side effect.
     */
    if ((v & ICR_INT_ASSERTED) && (REG(c, CTRL_EXT) & CTRL_EXT_IAME)) {
        REG(c, IMS) &= ~REG(c, IAM);
    }
    if (!REG(c, IMS) || (v & ICR_INT_ASSERTED)) {
        REG(c, ICR) = 0;
    }
    e1000e_pp_intr_update(c);
    return v;
}

void e1000e_pp_icr_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    REG(c, ICR) &= ~val;
    e1000e_pp_intr_update(c);
}

void e1000e_pp_ics_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    e1000e_pp_raise(c, val & ~ICR_INT_ASSERTED);
}

void e1000e_pp_ims_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    uint32_t newly = val & ~REG(c, IMS);

    REG(c, IMS) |= val & 0x01ffffff;
    if (irq_mode(c) == E1000E_PP_IRQ_MSIX) {
        msix_fire(c, newly);
    }
    e1000e_pp_intr_update(c);
}

void e1000e_pp_imc_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    REG(c, IMS) &= ~val;
    e1000e_pp_intr_update(c);
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
    return &c->delay_armed[t - E1000E_PP_TIMER_RDTR];
}

static void delay_flush(E1000EPPCore *c, const DelayPair *p)
{
    if (p->rx) {
        e1000e_pp_rx_wb_flush(c);
    } else {
        e1000e_pp_tx_wb_flush(c);
    }
    e1000e_pp_disarm(c, p->packet);
    e1000e_pp_disarm(c, p->absolute);
    *armed(c, p->packet) = *armed(c, p->absolute) = false;
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

/* FPD (bit 31 of RDTR/TIDV, write-only): flush held descriptors now. */
static void delay_fpd(E1000EPPCore *c, const DelayPair *p, uint32_t val)
{
    REG(c, p->packet_reg) = val & 0xffff;
    if (!(val & (1u << 31))) {
        return;
    }
    if (*armed(c, p->packet) || *armed(c, p->absolute)) {
        delay_flush(c, p);      /* the pending interrupt goes with them */
    } else if (p->rx) {
        e1000e_pp_rx_wb_flush(c);
    } else {
        e1000e_pp_tx_wb_flush(c);
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
    delay_flush(c, p);
}

void e1000e_pp_rdtr_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    delay_fpd(c, &rx_delay, val);
}

void e1000e_pp_tidv_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    delay_fpd(c, &tx_delay, val);
}
