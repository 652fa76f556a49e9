/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI power management as the function sees it (82574L §5.6, PCI PM 1.2).
 *
 * The function implements D0 and D3hot (PMC advertises no D1/D2). In
 * D3hot it answers MMIO and I/O reads with all-ones and drops writes,
 * and masters no DMA: each such attempt is a power-state violation,
 * counted, traced and listed (e1000e_pp_power_d0). It signals no
 * interrupt (causes wait in ICR, intr.c) and takes only wake-up frames
 * (wake.c). Leaving D3hot for D0 resets the function, wake-up registers
 * excepted (PMCSR.No_Soft_Reset = 0); the adapter clears the PCI
 * configuration space.
 */
#include "intr.h"
#include "reset.h"
#include "settle.h"

unsigned e1000e_pp_power_set(E1000EPPCore *c, unsigned state)
{
    unsigned from = c->arch.power;

    if (state != E1000E_PP_D0 && state != E1000E_PP_D3HOT) {
        /* D1/D2: not supported, so the write leaves the state as it was. */
        return from;
    }
    if (state == from) {
        return from;
    }
    e1000e_pp_begin(c);
    if (c->plat->trace_pm) {
        c->plat->trace_pm(c->opaque, from, state);
    }
    if (state == E1000E_PP_D3HOT) {
        /* A function in D3hot signals nothing: INTx goes low now. */
        e1000e_pp_intr_reset(c);
        c->arch.power = state;
    } else {
        c->arch.power = state;
        e1000e_pp_function_reset(c, false);
    }
    e1000e_pp_leave(c);
    return state;
}
