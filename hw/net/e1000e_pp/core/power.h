/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI power management (power.c, §5.6): the D0 check every register
 * access, DMA and interrupt makes.
 */
#ifndef E1000E_PP_POWER_H
#define E1000E_PP_POWER_H

#include "common.h"
#include "log.h"

/*
 * Outside D0 (power.c) the function answers no access, masters no DMA
 * and signals no interrupt: each attempt is a counted violation.
 */
static inline bool e1000e_pp_power_d0(E1000EPPCore *c, const char *what,
                                      uint64_t addr)
{
    if (c->arch.power == E1000E_PP_D0) {
        return true;
    }
    c->obs.pm_violations++;
    if (c->plat->trace_violation) {
        c->plat->trace_violation(c->opaque, what, addr);
    }
    e1000e_pp_event(c, what, (uint32_t)addr, c->arch.power);
    return false;
}

#endif
