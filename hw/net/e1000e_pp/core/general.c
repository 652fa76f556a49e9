/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The general registers (82574L §10.2.2): CTRL with its reset commands,
 * STATUS as the link and the bus master report it, CTRL_EXT, PBA and
 * the SWSM semaphore.
 */
#include "common.h"
#include "general.h"
#include "log.h"
#include "nvm.h"
#include "phy.h"
#include "reset.h"
#include "work.h"

void e1000e_pp_ctrl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    if (val & CTRL_RST) {
        /* Listed: a driver's reset task shows as this software reset. */
        e1000e_pp_event(c, "ctrl-rst", CTRL, val);
        e1000e_pp_mac_reset(c, true, true);
        return;
    }
    if (val & CTRL_PHY_RST) {
        e1000e_pp_phy_reset(c);
    }
    /*
     * CTRL.SLU lets the MAC see the PHY's link: a change is an LSC. A
     * write may let a held ring go on, and clearing GIO_MASTER_DISABLE
     * lets both engines start again.
     */
    if ((old ^ val) & CTRL_SLU) {
        e1000e_pp_link_report(c);
    }
    e1000e_pp_schedule(c, (old & ~val & CTRL_GIO_MASTER_DISABLE) ?
                          WORK_ENGINES : WORK_TX);
}

/*
 * STATUS.FD and SPEED: the PHY's resolution (1000/Full), unless
 * CTRL.FRCDPLX forces CTRL.FD and CTRL.FRCSPD (or CTRL_EXT.SPD_BYPS)
 * forces CTRL.SPEED (8254x SDM §8.6.2: "Software can override the duplex
 * setting via the CTRL.FD bit when the CTRL.FRCDPLX bit is set").
 */
static uint32_t mac_speed_duplex(E1000EPPCore *c)
{
    uint32_t ctrl = REG(c, CTRL), v = STATUS_SPEED_1000 | STATUS_FD;

    if ((ctrl & CTRL_FRCSPD) || (REG(c, CTRL_EXT) & CTRL_EXT_SPD_BYPS)) {
        /* CTRL.SPEED (9:8) and STATUS.SPEED (7:6) share the encoding. */
        v = (v & ~STATUS_SPEED_MASK) | ((ctrl >> 8) & 3) << 6;
    }
    if (ctrl & CTRL_FRCDPX) {
        v = (v & ~STATUS_FD) | (ctrl & CTRL_FD ? STATUS_FD : 0);
    }
    return v;
}

uint32_t e1000e_pp_status_read(E1000EPPCore *c, uint32_t off)
{
    uint32_t v = REG(c, STATUS) & (STATUS_PHYRA | STATUS_TXOFF);

    if (e1000e_pp_link_up(c)) {
        v |= STATUS_LU | mac_speed_duplex(c);
    }
    v |= STATUS_ASDV_1000;
    /*
     * §10.2.2.2: GIO_MASTER_ENABLE clears once CTRL.GIO_MASTER_DISABLE
     * is set and no request is pending; our DMA never stays pending.
     */
    if (!(REG(c, CTRL) & CTRL_GIO_MASTER_DISABLE)) {
        v |= STATUS_GIO_MASTER_ENABLE;
    }
    return v;
}

void e1000e_pp_status_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old)
{
    /* Only PHYRA is writable, and only to 0. */
    if (!(val & STATUS_PHYRA)) {
        REG(c, STATUS) &= ~STATUS_PHYRA;
    }
}

void e1000e_pp_ctrl_ext_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                              uint32_t old)
{
    /* EE_RST reloads the NVM; PBA_CLR only selects MSI-X PBA clearing. */
    if (val & CTRL_EXT_EE_RST) {
        e1000e_pp_nvm_reload(c);
    }
}

uint32_t e1000e_pp_pba_read(E1000EPPCore *c, uint32_t off)
{
    uint32_t rxa = REG(c, PBA) & PBA_RXA_MASK;
    uint32_t txa = rxa < PBA_TOTAL_KB ? PBA_TOTAL_KB - rxa : 0;

    /* PBA.TXA (31:16) reports what RXA leaves of the 40 KB buffer. */
    return rxa | txa << 16;
}

uint32_t e1000e_pp_swsm_read(E1000EPPCore *c, uint32_t off)
{
    uint32_t v = REG(c, SWSM);

    /* SWSM.SMBI is a read-to-acquire semaphore bit. */
    REG(c, SWSM) |= SWSM_SMBI;
    return v;
}
