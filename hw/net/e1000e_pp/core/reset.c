/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reset clears, and in which order (82574L §4.6): the MAC reset
 * of CTRL.RST, and the function reset of power-on and D3hot->D0 that
 * also resets the PHY.
 */
#include <string.h>

#include "internal.h"

static void cancel_engine_timers(E1000EPPCore *c)
{
    int t;

    for (t = 0; t < E1000E_PP_TIMER_COUNT; t++) {
        if (t != E1000E_PP_TIMER_LINK) {
            e1000e_pp_disarm(c, t);
        }
    }
}

static void regs_reset(E1000EPPCore *c, bool keep_pba)
{
    uint32_t pba = REG(c, PBA);
    size_t i;
    unsigned n;

    memset(c->regs, 0, sizeof(c->regs));
    for (i = 0; i < e1000e_pp_reg_table_len; i++) {
        const RegInfo *ri = &e1000e_pp_reg_table[i];
        for (n = 0; n < ri->count; n++) {
            c->regs[e1000e_pp_reg_element(ri, n) >> 2] = ri->reset;
        }
    }
    /* CTRL.RST keeps the PBA split (docs/fidelity.md: a model choice). */
    if (keep_pba) {
        REG(c, PBA) = pba;
    }
}

/*
 * MAC reset: CTRL.RST, power-on, D3hot->D0. The PHY keeps its state.
 * The interrupt state goes first, so nothing raised from here on can
 * reach the guest through the IMS and mode being cleared.
 */
void e1000e_pp_mac_reset(E1000EPPCore *c, bool software)
{
    cancel_engine_timers(c);
    e1000e_pp_intr_reset(c);
    regs_reset(c, software);
    e1000e_pp_moderation_reset(c);
    e1000e_pp_tx_reset(c);
    e1000e_pp_rx_reset(c);
    c->work &= ~WORK_ENGINES;
    c->tx_halted = false;
    e1000e_pp_timesync_reset(c);
    /* RAR0 comes from the NVM MAC address (§7.1.1.1). */
    REG(c, RAL(0)) = get_le32(c->perm_mac);
    REG(c, RAH(0)) = get_le16(c->perm_mac + 4) | RAH_AV;
    e1000e_pp_nvm_reload(c);
}

/* Power-on and D3hot->D0: the MAC, then the PHY (§4.6.1). */
void e1000e_pp_function_reset(E1000EPPCore *c)
{
    memset(c->logged, 0, sizeof(c->logged));
    c->ioaddr = 0;
    e1000e_pp_mac_reset(c, false);
    /* The PHY's link change lands in the fresh ICR, with IMS = 0. */
    e1000e_pp_phy_reset(c);
}
