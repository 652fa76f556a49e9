/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupts (82574L §7.4): ICR/ICS/IMS/IMC/IAM, INTx with
 * ICR.INT_ASSERTED, MSI, MSI-X routed by IVAR with EIAC auto-clear and
 * EIAME auto-mask, ITR/EITR throttling and the Rx/Tx delay timers
 * RDTR/RADV/TIDV/TADV.
 */
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
    c->rdtr_armed = c->radv_armed = false;
    c->tidv_armed = c->tadv_armed = false;
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

static void rx_delay_flush(E1000EPPCore *c)
{
    /* Expiry writes back what WTHRESH held, then interrupts (§7.1.9). */
    e1000e_pp_rx_wb_flush(c);
    e1000e_pp_disarm(c, E1000E_PP_TIMER_RDTR);
    e1000e_pp_disarm(c, E1000E_PP_TIMER_RADV);
    c->rdtr_armed = c->radv_armed = false;
    e1000e_pp_raise(c, ICR_RXT0);
}

static void tx_delay_flush(E1000EPPCore *c)
{
    e1000e_pp_tx_wb_flush(c);
    e1000e_pp_disarm(c, E1000E_PP_TIMER_TIDV);
    e1000e_pp_disarm(c, E1000E_PP_TIMER_TADV);
    c->tidv_armed = c->tadv_armed = false;
    e1000e_pp_raise(c, ICR_TXDW);
}

/*
 * §7.4.4 Receive: RDTR restarts on every frame, RADV runs from the first
 * frame after the last interrupt; whichever expires first raises RXT0.
 * RDTR = 0 means no delay at all.
 */
void e1000e_pp_rx_delay_start(E1000EPPCore *c)
{
    uint32_t rdtr = REG(c, RDTR) & 0xffff, radv = REG(c, RADV) & 0xffff;

    if (!rdtr) {
        /* An immediate interrupt also halts a running RADV (§7.4.4). */
        rx_delay_flush(c);
        return;
    }
    e1000e_pp_arm(c, E1000E_PP_TIMER_RDTR, (int64_t)rdtr * DELAY_UNIT_NS);
    c->rdtr_armed = true;
    if (radv && !c->radv_armed) {
        e1000e_pp_arm(c, E1000E_PP_TIMER_RADV,
                      (int64_t)radv * DELAY_UNIT_NS);
        c->radv_armed = true;
    }
}

/* §7.4.4 Transmit: the same pair, TIDV/TADV, for descriptors with IDE. */
void e1000e_pp_tx_delay_start(E1000EPPCore *c, bool ide)
{
    uint32_t tidv = REG(c, TIDV) & 0xffff, tadv = REG(c, TADV) & 0xffff;

    if (!ide || !tidv) {
        /* An immediate interrupt also halts a running TADV (§7.4.4). */
        tx_delay_flush(c);
        return;
    }
    e1000e_pp_arm(c, E1000E_PP_TIMER_TIDV, (int64_t)tidv * DELAY_UNIT_NS);
    c->tidv_armed = true;
    if (tadv && !c->tadv_armed) {
        e1000e_pp_arm(c, E1000E_PP_TIMER_TADV,
                      (int64_t)tadv * DELAY_UNIT_NS);
        c->tadv_armed = true;
    }
}

void e1000e_pp_delay_fired(E1000EPPCore *c, E1000EPPTimer timer)
{
    switch (timer) {
    case E1000E_PP_TIMER_RDTR:
        e1000e_pp_stat_inc(c, ICRXPTC);
        rx_delay_flush(c);
        break;
    case E1000E_PP_TIMER_RADV:
        e1000e_pp_stat_inc(c, ICRXATC);
        rx_delay_flush(c);
        break;
    case E1000E_PP_TIMER_TIDV:
        e1000e_pp_stat_inc(c, ICTXPTC);
        tx_delay_flush(c);
        break;
    case E1000E_PP_TIMER_TADV:
        e1000e_pp_stat_inc(c, ICTXATC);
        tx_delay_flush(c);
        break;
    default:
        break;
    }
}

void e1000e_pp_rdtr_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    REG(c, RDTR) = val & 0xffff;
    /*
     * FPD (bit 31, write-only): write back the descriptors held for
     * WTHRESH now, and fire a pending delayed interrupt with them.
     */
    if (val & RDTR_FPD) {
        e1000e_pp_rx_wb_flush(c);
        if (c->rdtr_armed || c->radv_armed) {
            rx_delay_flush(c);
        }
    }
}

void e1000e_pp_tidv_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    REG(c, TIDV) = val & 0xffff;
    if (val & TIDV_FPD) {
        e1000e_pp_tx_wb_flush(c);
        if (c->tidv_armed || c->tadv_armed) {
            tx_delay_flush(c);
        }
    }
}
