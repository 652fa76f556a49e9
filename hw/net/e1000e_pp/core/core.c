/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lifecycle and the entry points for the wire, timers and PCI events.
 * Each is bracketed by e1000e_pp_begin/e1000e_pp_leave, so the work it
 * records is done by one settle step (settle.c) when it returns.
 */
#include <string.h>

#include "intr.h"
#include "knobs.h"
#include "moderation.h"
#include "nvm.h"
#include "pause.h"
#include "phy.h"
#include "reset.h"
#include "rx.h"
#include "settle.h"
#include "work.h"

void e1000e_pp_core_init(E1000EPPCore *c, const E1000EPPPlatform *plat,
                         void *opaque, const E1000EPPConfig *cfg)
{
    int t;

    memset(c, 0, sizeof(*c));
    for (t = 0; t < E1000E_PP_TIMER_COUNT; t++) {
        c->arch.timer_deadline[t] = E1000E_PP_TIMER_OFF;
    }
    c->plat = plat;
    c->opaque = opaque;
    c->cfg = *cfg;
    memcpy(c->arch.perm_mac, cfg->mac, 6);
    c->arch.wire_up = true;
    c->arch.bus_master = true;
    e1000e_pp_nvm_init(c, cfg->mac);
    e1000e_pp_core_reset(c);
}

void e1000e_pp_core_reset(E1000EPPCore *c)
{
    e1000e_pp_begin(c);
    e1000e_pp_function_reset(c, true);
    e1000e_pp_leave(c);
}

bool e1000e_pp_receive(E1000EPPCore *c, const uint8_t *frame, size_t len)
{
    bool taken;

    if (c->depth) {
        /* Our own transmission came straight back (a hub): offer later. */
        e1000e_pp_schedule(c, WORK_RX_READY);
        return false;
    }
    e1000e_pp_begin(c);
    taken = e1000e_pp_rx_wire(c, frame, len);
    e1000e_pp_leave(c);
    return taken;
}

void e1000e_pp_set_link(E1000EPPCore *c, bool up)
{
    e1000e_pp_begin(c);
    e1000e_pp_phy_wire(c, up);
    e1000e_pp_leave(c);
}

void e1000e_pp_bus_master(E1000EPPCore *c, bool enabled)
{
    e1000e_pp_begin(c);
    c->arch.bus_master = enabled;
    if (enabled) {
        e1000e_pp_schedule(c, WORK_ENGINES);
    }
    e1000e_pp_leave(c);
}

void e1000e_pp_timer_fired(E1000EPPCore *c, E1000EPPTimer timer)
{
    if ((unsigned)timer >= E1000E_PP_TIMER_COUNT) {
        return;
    }
    c->arch.timer_deadline[timer] = E1000E_PP_TIMER_OFF;
    e1000e_pp_begin(c);
    switch (timer) {
    case E1000E_PP_TIMER_AUTO_RD:
        e1000e_pp_nvm_reload_done(c);
        break;
    case E1000E_PP_TIMER_LINK:
        e1000e_pp_link_autoneg_done(c);
        break;
    case E1000E_PP_TIMER_RDTR:
    case E1000E_PP_TIMER_RADV:
    case E1000E_PP_TIMER_TIDV:
    case E1000E_PP_TIMER_TADV:
        e1000e_pp_delay_fired(c, timer);
        break;
    case E1000E_PP_TIMER_KICK:
        e1000e_pp_schedule(c, WORK_ENGINES);
        break;
    case E1000E_PP_TIMER_RESET:
        e1000e_pp_reset_done(c);
        break;
    case E1000E_PP_TIMER_LINK_KNOB:
        e1000e_pp_knob_link_return(c);
        break;
    case E1000E_PP_TIMER_PAUSE:
        e1000e_pp_pause_expired(c);
        break;
    default:
        if (timer >= E1000E_PP_TIMER_ITR && timer < E1000E_PP_TIMER_COUNT) {
            e1000e_pp_throttle_expired(c, timer);
        }
        break;
    }
    e1000e_pp_leave(c);
}

void e1000e_pp_irq_update(E1000EPPCore *c)
{
    e1000e_pp_begin(c);
    c->irq_dirty = true;
    e1000e_pp_leave(c);
}
