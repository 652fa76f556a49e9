/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run-time knobs for reproducing reset and power-management races: hold
 * the Tx engine (TDH stops, so the driver's hang check fires and
 * schedules its reset task), widen the CTRL.RST window, drop the link for
 * a while, raise a wake event, reject Rx data writes as an IOMMU would,
 * hold a frame part-way.
 * Each change is an entry point of its own and lands in the event list.
 */
#include "common.h"
#include "knobs.h"
#include "log.h"
#include "phy.h"
#include "rxcache.h"
#include "settle.h"
#include "wake.h"
#include "work.h"

void e1000e_pp_knob_tx_hold(E1000EPPCore *c, bool hold)
{
    e1000e_pp_begin(c);
    c->arch.tx_hold = hold;
    e1000e_pp_event(c, "knob-tx-hold", TDH, hold);
    e1000e_pp_schedule(c, WORK_TX);
    e1000e_pp_leave(c);
}

void e1000e_pp_knob_reset_ns(E1000EPPCore *c, uint64_t ns)
{
    c->cfg.reset_ns = ns;
    e1000e_pp_event(c, "knob-reset-ns", CTRL,
                    ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns);
    if (ns > E1000E_PP_RESET_NS_DRIVER_MAX) {
        e1000e_pp_log(c, E1000E_PP_LOG_UNIMP, EECD,
                      "reset window of %llu ns: beyond what Linux waits "
                      "for EECD.AUTO_RD, this exercises its reset-failure "
                      "path", (unsigned long long)ns);
    }
}

void e1000e_pp_knob_link_drop(E1000EPPCore *c, uint32_t ms)
{
    e1000e_pp_begin(c);
    e1000e_pp_event(c, "knob-link-drop-ms", STATUS, ms);
    c->arch.link_knob_down = true;
    e1000e_pp_phy_relink(c);
    e1000e_pp_arm(c, E1000E_PP_TIMER_LINK_KNOB, (int64_t)ms * 1000 * 1000);
    e1000e_pp_leave(c);
}

void e1000e_pp_knob_link_return(E1000EPPCore *c)
{
    c->arch.link_knob_down = false;
    e1000e_pp_event(c, "knob-link-return", STATUS, 0);
    e1000e_pp_phy_relink(c);
}

void e1000e_pp_knob_wake(E1000EPPCore *c, uint32_t cause)
{
    e1000e_pp_begin(c);
    e1000e_pp_event(c, "knob-wake", WUS, cause);
    e1000e_pp_wake_event(c, cause);
    e1000e_pp_leave(c);
}

void e1000e_pp_knob_rx_fetch_limit(E1000EPPCore *c, uint32_t n)
{
    /* Applies to the next fetch; what is cached stays. */
    e1000e_pp_begin(c);
    c->cfg.rx_fetch_limit = n;
    e1000e_pp_event(c, "knob-rx-fetch-limit", RDT, n);
    e1000e_pp_schedule(c, WORK_RX);
    e1000e_pp_leave(c);
}

void e1000e_pp_knob_rx_hold_desc(E1000EPPCore *c, uint32_t n)
{
    /* A frame held part-way goes on at the next drain once released. */
    e1000e_pp_begin(c);
    e1000e_pp_rxcache_hold(c, n);
    e1000e_pp_event(c, "knob-rx-hold-desc", RDH, n);
    e1000e_pp_schedule(c, WORK_RX);
    e1000e_pp_leave(c);
}

void e1000e_pp_knob_dma_fault_writes(E1000EPPCore *c, uint32_t n)
{
    c->dma_fault_writes = n;
    e1000e_pp_event(c, "knob-dma-fault-writes", RDBAL, n);
}
