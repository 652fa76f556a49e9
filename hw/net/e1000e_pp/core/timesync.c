/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IEEE 1588 time sync (82574L §7.8, registers §10.2.9): SYSTIM advances
 * by TIMINCA.IV every TIMINCA.IP periods of 16 ns, derived from the
 * virtual clock so it is deterministic. Reading SYSTIML latches SYSTIMH.
 * Packet time stamping is not modelled: the stamp registers stay 0.
 */
#include "internal.h"

#define SYSTIM_TICK_NS  16

/* SYSTIM now, had TIMINCA been inca since the last rebase. */
static uint64_t systim_at_rate(E1000EPPCore *c, uint32_t inca)
{
    uint64_t ip = inca >> TIMINCA_IP_SHIFT, iv = inca & TIMINCA_IV_MASK;
    int64_t elapsed = c->plat->now_ns(c->opaque) - c->systim_base_ns;

    if (!ip || !iv || elapsed <= 0) {
        return c->systim_base;
    }
    return c->systim_base +
           (uint64_t)(elapsed / (SYSTIM_TICK_NS * (int64_t)ip)) * iv;
}

static uint64_t systim_now(E1000EPPCore *c)
{
    return systim_at_rate(c, REG(c, TIMINCA));
}

static void systim_rebase(E1000EPPCore *c, uint64_t value)
{
    c->systim_base = value;
    c->systim_base_ns = c->plat->now_ns(c->opaque);
}

void e1000e_pp_timesync_reset(E1000EPPCore *c)
{
    systim_rebase(c, 0);
    c->systimh_latch = 0;
}

uint32_t e1000e_pp_systiml_read(E1000EPPCore *c, uint32_t off)
{
    uint64_t now = systim_now(c);

    c->systimh_latch = (uint32_t)(now >> 32);
    return (uint32_t)now;
}

uint32_t e1000e_pp_systimh_read(E1000EPPCore *c, uint32_t off)
{
    return c->systimh_latch;
}

void e1000e_pp_systim_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old)
{
    uint64_t now = systim_now(c);

    if (off == SYSTIML) {
        now = (now & ~0xffffffffull) | val;
    } else {
        now = (now & 0xffffffffull) | (uint64_t)val << 32;
    }
    systim_rebase(c, now);
}

void e1000e_pp_timinca_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                             uint32_t old)
{
    /* Keep the time reached at the old rate; the new one applies now. */
    systim_rebase(c, systim_at_rate(c, old));
}

void e1000e_pp_timadj_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old)
{
    if (off == TIMADJH) {
        /* TIMADJH bit 31 is the sign of the adjustment. */
        uint64_t adj = REG(c, TIMADJL) |
                       (uint64_t)(REG(c, TIMADJH) & 0x7fffffff) << 32;
        uint64_t now = systim_now(c);
        systim_rebase(c, (val & 0x80000000u) ? now - adj : now + adj);
    }
}
