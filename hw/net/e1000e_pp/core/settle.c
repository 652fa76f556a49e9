/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settle step that ends every entry point of the core.
 *
 * Register hooks, frame arrival, timers and PCI events only change state
 * and record work (WORK_* and interrupt causes). Once the outermost
 * entry point is done, the engines run here, in a fixed order and each
 * within its budget, until none has work left; what is still left then
 * continues from E1000E_PP_TIMER_KICK. Interrupts are committed once, at
 * the end, and the netdev is told last that frames may flow again.
 *
 * A register access that arrives while the device is inside a step can
 * only come from its own DMA aimed at BAR0 (or the MSI-X table): it is
 * refused and counted, as QEMU's re-entrancy guard would, so no engine is
 * ever re-entered.
 */
#include "common.h"
#include "intr.h"
#include "log.h"
#include "power.h"
#include "rx.h"
#include "settle.h"
#include "tx.h"
#include "work.h"

/*
 * Rounds of the engine loop per step: a Tx walk yields after every frame
 * it loops back, so the Rx engine can take it; that is at most one yield
 * per descriptor of the Tx budget.
 */
#define SETTLE_ROUNDS   (E1000E_PP_TX_BUDGET + 2)

void e1000e_pp_settle(E1000EPPCore *c)
{
    unsigned round;

    if (!c->work && !c->irq_dirty) {
        return;
    }
    c->tx_budget = E1000E_PP_TX_BUDGET;
    c->tx_bytes = E1000E_PP_TX_BYTE_BUDGET;
    for (round = 0; round < SETTLE_ROUNDS && (c->work & WORK_ENGINES);
         round++) {
        uint32_t work = c->work & WORK_ENGINES;

        c->work &= ~WORK_ENGINES;
        if (work & WORK_RX) {
            e1000e_pp_rx_drain(c);
        }
        if (work & WORK_TX) {
            e1000e_pp_tx_run(c);
        }
    }
    if (c->work & WORK_ENGINES) {
        /* Budget spent: one guest action stays bounded; go on later. */
        e1000e_pp_arm(c, E1000E_PP_TIMER_KICK, 0);
    }
    e1000e_pp_intr_commit(c);
    if (c->work & WORK_RX_READY) {
        c->work &= ~WORK_RX_READY;
        c->plat->rx_ready(c->opaque);
    }
}

bool e1000e_pp_enter(E1000EPPCore *c, uint32_t off, const char *what)
{
    if (c->depth) {
        c->obs.reentries++;
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, off,
                      "%s of 0x%05x while the device is busy (its own DMA "
                      "aimed at BAR0?): ignored", what, off);
        return false;
    }
    if (!e1000e_pp_power_d0(c, what, off)) {
        return false;
    }
    c->depth++;
    return true;
}

void e1000e_pp_begin(E1000EPPCore *c)
{
    c->depth++;
}

void e1000e_pp_leave(E1000EPPCore *c)
{
    if (c->depth == 1) {
        e1000e_pp_settle(c);
    }
    c->depth--;
}
