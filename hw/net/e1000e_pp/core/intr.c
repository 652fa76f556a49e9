/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupts (82574L §7.4): ICR/ICS/IMS/IMC/IAM, INTx with
 * ICR.INT_ASSERTED, MSI, MSI-X routed by IVAR with EIAC auto-clear and
 * EIAME auto-mask, ITR/EITR throttling.
 *
 * A leaf: the engines and hooks only record causes here (raise, a newly
 * enabled IMS bit, an expired throttle window); the settle step commits
 * them once per entry point, and nothing here calls back into an engine.
 * Outside D0 the function signals nothing (power.c counts the attempt).
 */
#include <string.h>

#include "common.h"
#include "intr.h"
#include "log.h"
#include "power.h"
#include "stats.h"
#include "coverage.h"

/* MSI-X causes in IVAR order: RxQ0, RxQ1, TxQ0, TxQ1, Other (§10.2.4.9). */
static const uint32_t msix_causes[5] = {
    ICR_RXQ0, ICR_RXQ1, ICR_TXQ0, ICR_TXQ1, ICR_OTHER,
};

/* ITR/EITR count in 256 ns units. */
#define ITR_UNIT_NS     256

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

/*
 * The line may always drop; asserting it or sending a message needs D0.
 * In D3hot the commit does not even try (the causes stay in ICR until
 * the D3hot->D0 reset), so only a path that bypasses it counts.
 */
static void set_intx(E1000EPPCore *c, bool level)
{
    if (level && !e1000e_pp_power_d0(c, "intx", 0)) {
        return;
    }
    if (level && !c->arch.intx_level) {
        c->obs.intx_asserts++;
    }
    c->arch.intx_level = level;
    c->plat->set_intx(c->opaque, level);
}

static void send_message(E1000EPPCore *c, unsigned vector)
{
    if (e1000e_pp_power_d0(c, "interrupt", vector)) {
        c->obs.irq_messages[vector]++;
        c->plat->notify(c->opaque, vector);
    }
}

void e1000e_pp_intr_reset(E1000EPPCore *c)
{
    unsigned v;

    c->arch.itr_window = false;
    c->arch.itr_pending = false;
    for (v = 0; v < E1000E_PP_MSIX_VECTORS; v++) {
        c->arch.eitr_window[v] = false;
        c->arch.eitr_pending[v] = false;
    }
    c->irq_raise = c->irq_fire = 0;
    c->irq_dirty = false;
    c->arch.msi_delivered = false;
    if (c->arch.intx_level) {
        set_intx(c, false);
    }
}

/* Open a throttle window of ITR/EITR * 256 ns; false if one is open. */
static bool throttle_pass(E1000EPPCore *c, bool *window, bool *pending,
                          uint32_t itr, E1000EPPTimer timer)
{
    uint32_t interval = itr & 0xffff;

    if (*window) {
        *pending = true;
        e1000e_pp_cover(c, SIT_IRQ_THROTTLED);
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
static void update_line(E1000EPPCore *c, E1000EPPIrqMode mode)
{
    uint32_t pending = REG(c, ICR) & REG(c, IMS) & ~ICR_INT_ASSERTED;

    if (!pending) {
        REG(c, ICR) &= ~ICR_INT_ASSERTED;
        c->arch.msi_delivered = false;
        if (c->arch.intx_level) {
            set_intx(c, false);
            trace(c, "intx-deassert", 0);
        }
        return;
    }
    if (mode == E1000E_PP_IRQ_MSI) {
        if (c->arch.intx_level) {
            set_intx(c, false);
        }
        if (c->arch.msi_delivered) {
            return;
        }
        if (throttle_pass(c, &c->arch.itr_window, &c->arch.itr_pending,
                          REG(c, ITR), E1000E_PP_TIMER_ITR)) {
            REG(c, ICR) |= ICR_INT_ASSERTED;
            c->arch.msi_delivered = true;
            e1000e_pp_stat_inc(c, IAC);
            send_message(c, 0);
            trace(c, "msi", 0);
        }
        return;
    }
    if (c->arch.intx_level) {
        return;
    }
    if (throttle_pass(c, &c->arch.itr_window, &c->arch.itr_pending, REG(c, ITR),
                      E1000E_PP_TIMER_ITR)) {
        REG(c, ICR) |= ICR_INT_ASSERTED;
        e1000e_pp_stat_inc(c, IAC);
        set_intx(c, true);
        trace(c, "intx-assert", 0);
    }
}

/* MSI-X: fire the vectors of the given causes that IMS enables. */
static void msix_fire(E1000EPPCore *c, uint32_t causes)
{
    uint32_t ivar = REG(c, IVAR);
    uint32_t sent = 0;
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
        /*
         * Causes that share a vector share its message: a second cause in
         * the same pass is carried by the message just sent, and must not
         * hold the vector's window pending (that re-fired the vector at
         * every EITR expiry forever, with nothing new to report).
         */
        if (!(sent & (1u << vec)) &&
            !throttle_pass(c, &c->arch.eitr_window[vec],
                           &c->arch.eitr_pending[vec], REG(c, EITR(vec)),
                           E1000E_PP_TIMER_EITR0 + vec)) {
            continue;
        }
        /* §7.4.3: EIAME masks the IAM bits of the cause on firing... */
        if (REG(c, CTRL_EXT) & CTRL_EXT_EIAME) {
            REG(c, IMS) &= ~(REG(c, IAM) & cause);
        }
        /* ...and EIAC clears the cause in ICR and in IMS (§7.4.3). */
        REG(c, ICR) &= ~(REG(c, EIAC) & cause);
        REG(c, IMS) &= ~(REG(c, EIAC) & cause);
        if (sent & (1u << vec)) {
            continue;
        }
        sent |= 1u << vec;
        e1000e_pp_stat_inc(c, IAC);
        send_message(c, vec);
        trace(c, "msix", vec);
    }
}

static void intr_update(E1000EPPCore *c, E1000EPPIrqMode mode)
{
    if (mode == E1000E_PP_IRQ_MSIX) {
        if (c->arch.intx_level) {
            set_intx(c, false);
        }
        if (REG(c, ICR) & REG(c, IMS) & ~ICR_INT_ASSERTED) {
            REG(c, ICR) |= ICR_INT_ASSERTED;
        } else {
            REG(c, ICR) &= ~ICR_INT_ASSERTED;
        }
        return;
    }
    update_line(c, mode);
}

void e1000e_pp_raise(E1000EPPCore *c, uint32_t causes)
{
    c->irq_raise |= causes & ~ICR_INT_ASSERTED;
    c->irq_dirty = true;
}

void e1000e_pp_intr_commit(E1000EPPCore *c)
{
    uint32_t causes = c->irq_raise, fire = c->irq_fire;
    E1000EPPIrqMode mode;
    bool msix;

    if (!c->irq_dirty) {
        return;
    }
    /* Asked once per commit: the host answers from PCI config space. */
    mode = irq_mode(c);
    msix = mode == E1000E_PP_IRQ_MSIX;
    c->irq_raise = c->irq_fire = 0;
    c->irq_dirty = false;
    if (c->arch.power != E1000E_PP_D0) {
        /* Asleep: latch the causes; a wake-up goes through PME instead. */
        REG(c, ICR) |= causes & ~ICR_INT_ASSERTED;
        return;
    }
    if (causes) {
        if (msix) {
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
        REG(c, ICR) |= causes;
        trace(c, "raise", 0);
        fire |= causes;
    }
    if (msix && fire) {
        msix_fire(c, fire);
    }
    intr_update(c, mode);
}

void e1000e_pp_throttle_expired(E1000EPPCore *c, E1000EPPTimer timer)
{
    unsigned vec = timer - E1000E_PP_TIMER_EITR0;
    uint32_t ivar = REG(c, IVAR);
    unsigned i;

    if (timer == E1000E_PP_TIMER_ITR) {
        c->arch.itr_window = false;
        if (c->arch.itr_pending) {
            c->arch.itr_pending = false;
            c->irq_dirty = true;
        }
        return;
    }

    c->arch.eitr_window[vec] = false;
    if (!c->arch.eitr_pending[vec]) {
        return;
    }
    c->arch.eitr_pending[vec] = false;
    for (i = 0; i < ARRAY_LEN(msix_causes); i++) {
        uint32_t entry = (ivar >> (4 * i)) & 0xf;
        if ((entry & IVAR_ENTRY_VALID) &&
            (entry & IVAR_VECTOR_MASK) == vec) {
            c->irq_fire |= msix_causes[i];
        }
    }
    c->irq_dirty = true;
}

uint32_t e1000e_pp_icr_read(E1000EPPCore *c, uint32_t off)
{
    uint32_t v = REG(c, ICR);

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
    c->irq_dirty = true;
    return v;
}

/* ICR (write 1 to clear) and IMC: the line follows at commit. */
void e1000e_pp_intr_changed(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old)
{
    c->irq_dirty = true;
}

void e1000e_pp_ics_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old)
{
    e1000e_pp_raise(c, val);
}

void e1000e_pp_ims_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old)
{
    /* A cause already pending fires as soon as IMS enables it. */
    c->irq_fire |= val & ~old;
    c->irq_dirty = true;
}
