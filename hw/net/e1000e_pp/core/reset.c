/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reset clears, and in which order (82574L §4.6): the MAC reset
 * of CTRL.RST, and the function reset of power-on and D3hot->D0 that
 * also resets the PHY.
 */
#include <string.h>

#include "common.h"
#include "intr.h"
#include "moderation.h"
#include "nvm.h"
#include "phy.h"
#include "regtable.h"
#include "reset.h"
#include "rx.h"
#include "timesync.h"
#include "tx.h"
#include "work.h"

static void cancel_engine_timers(E1000EPPCore *c)
{
    int t;

    for (t = 0; t < E1000E_PP_TIMER_COUNT; t++) {
        /* The link and the link knob belong to the wire, not the MAC. */
        if (t != E1000E_PP_TIMER_LINK && t != E1000E_PP_TIMER_LINK_KNOB) {
            e1000e_pp_disarm(c, t);
        }
    }
}

/* The wake-up registers survive every reset but power-on (§5.6.3). */
static const uint32_t sticky_wake[] = { WUC, WUFC, WUS };

static void regs_reset(E1000EPPCore *c, bool keep_pba, bool keep_wake)
{
    uint32_t pba = REG(c, PBA), wake[ARRAY_LEN(sticky_wake)];
    size_t i;
    unsigned n;

    for (i = 0; i < ARRAY_LEN(sticky_wake); i++) {
        wake[i] = REG(c, sticky_wake[i]);
    }
    memset(c->arch.regs, 0, sizeof(c->arch.regs));
    for (i = 0; i < e1000e_pp_reg_table_len; i++) {
        const RegInfo *ri = &e1000e_pp_reg_table[i];
        for (n = 0; n < ri->count; n++) {
            c->arch.regs[e1000e_pp_reg_element(ri, n) >> 2] = ri->reset;
        }
    }
    /* CTRL.RST keeps the PBA split (docs/fidelity.md: a model choice). */
    if (keep_pba) {
        REG(c, PBA) = pba;
    }
    for (i = 0; keep_wake && i < ARRAY_LEN(sticky_wake); i++) {
        REG(c, sticky_wake[i]) = wake[i];
    }
}

/*
 * MAC reset: CTRL.RST, power-on, D3hot->D0. The PHY keeps its state.
 * The interrupt state goes first, so nothing raised from here on can
 * reach the guest through the IMS and mode being cleared. CTRL.RST
 * then keeps the MAC in reset for cfg.reset_ns (the engines start
 * nothing, the packet buffer is already empty) before the NVM reload
 * that ends with EECD.AUTO_RD.
 */
void e1000e_pp_mac_reset(E1000EPPCore *c, bool software, bool keep_wake)
{
    cancel_engine_timers(c);
    e1000e_pp_intr_reset(c);
    regs_reset(c, software, keep_wake);
    e1000e_pp_moderation_reset(c);
    e1000e_pp_tx_reset(c);
    e1000e_pp_rx_reset(c);
    c->work &= ~WORK_ENGINES;
    c->arch.tx_halted = false;
    c->arch.tx_paused = false;
    e1000e_pp_timesync_reset(c);
    /* RAR0 comes from the NVM MAC address (§7.1.1.1). */
    REG(c, RAL(0)) = get_le32(c->arch.perm_mac);
    REG(c, RAH(0)) = get_le16(c->arch.perm_mac + 4) | RAH_AV;
    if (software && c->cfg.reset_ns) {
        c->arch.resetting = true;
        REG(c, EECD) &= ~EECD_AUTO_RD;
        e1000e_pp_arm(c, E1000E_PP_TIMER_RESET, (int64_t)c->cfg.reset_ns);
        return;
    }
    c->arch.resetting = false;
    e1000e_pp_nvm_reload(c);
}

/* The CTRL.RST window is over: the NVM reload follows. */
void e1000e_pp_reset_done(E1000EPPCore *c)
{
    c->arch.resetting = false;
    e1000e_pp_nvm_reload(c);
    e1000e_pp_schedule(c, WORK_ENGINES);
}

/* Power-on and D3hot->D0: the MAC, then the PHY (§4.6.1). */
void e1000e_pp_function_reset(E1000EPPCore *c, bool power_on)
{
    memset(c->obs.logged, 0, sizeof(c->obs.logged));
    c->arch.ioaddr = 0;
    e1000e_pp_mac_reset(c, false, !power_on);
    /* The PHY's link change lands in the fresh ICR, with IMS = 0. */
    e1000e_pp_phy_reset(c);
}
