/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every file of the e1000e-pp core shares: the state (core.h),
 * the register names (regs.h), the byte helpers, REG() into the register
 * file, and arming the timers, whose deadlines the architectural state
 * keeps so that a migrated timer is re-armed.
 */
#ifndef E1000E_PP_COMMON_H
#define E1000E_PP_COMMON_H

#include "core.h"
#include "regs.h"
#include "bytes.h"

/* The register file is indexed by dword; offsets below are in bytes. */
#define REG(c, off)     ((c)->arch.regs[(off) >> 2])

#define ARRAY_LEN(a)    (sizeof(a) / sizeof((a)[0]))

/* The deadline is kept with the state, so a migrated timer is re-armed. */
static inline void e1000e_pp_arm(E1000EPPCore *c, E1000EPPTimer t,
                                 int64_t delay_ns)
{
    int64_t when = c->plat->now_ns(c->opaque) + delay_ns;

    c->arch.timer_deadline[t] = when;
    c->plat->timer_arm(c->opaque, t, when);
}

static inline void e1000e_pp_disarm(E1000EPPCore *c, E1000EPPTimer t)
{
    c->arch.timer_deadline[t] = E1000E_PP_TIMER_OFF;
    c->plat->timer_cancel(c->opaque, t);
}

#endif
