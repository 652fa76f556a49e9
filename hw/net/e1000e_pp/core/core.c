/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lifecycle, general registers (CTRL, STATUS, CTRL_EXT, PBA, SWSM),
 * DMA accounting and timer dispatch of the e1000e-pp core.
 */
#include <string.h>

#include "internal.h"

/*
 * After CTRL.RST the NVM is read again (NVM auto-load); EECD.AUTO_RD
 * stays clear until that finishes. Linux polls it at most 10 times 1-2 ms
 * apart (e1000e_get_auto_rd_done): the window must stay well inside 10 ms.
 */
#define NVM_AUTO_READ_NS    (1000 * 1000)

void e1000e_pp_core_init(E1000EPPCore *c, const E1000EPPPlatform *plat,
                         void *opaque, const uint8_t mac[6])
{
    memset(c, 0, sizeof(*c));
    c->plat = plat;
    c->opaque = opaque;
    memcpy(c->perm_mac, mac, 6);
    c->wire_up = true;
    c->bus_master = true;
    e1000e_pp_nvm_init(c, mac);
    e1000e_pp_core_reset(c);
}

static void cancel_engine_timers(E1000EPPCore *c)
{
    int t;

    for (t = 0; t < E1000E_PP_TIMER_COUNT; t++) {
        if (t != E1000E_PP_TIMER_LINK) {
            e1000e_pp_disarm(c, t);
        }
    }
}

/* MAC reset: CTRL.RST, power-on, D3hot->D0. The PHY keeps its state. */
static void mac_reset(E1000EPPCore *c, bool software)
{
    cancel_engine_timers(c);
    e1000e_pp_regs_reset(c, software);
    e1000e_pp_intr_reset(c);
    e1000e_pp_tx_reset(c);
    e1000e_pp_rx_reset(c);
    c->tx_halted = false;
    e1000e_pp_timesync_reset(c);
    /* RAR0 comes from the NVM MAC address (§7.1.1.1). */
    REG(c, RAL(0)) = get_le32(c->perm_mac);
    REG(c, RAH(0)) = get_le16(c->perm_mac + 4) | RAH_AV;
    e1000e_pp_nvm_reload(c);
}

void e1000e_pp_core_reset(E1000EPPCore *c)
{
    memset(c->logged, 0, sizeof(c->logged));
    e1000e_pp_phy_reset(c);
    mac_reset(c, false);
}

void e1000e_pp_nvm_reload(E1000EPPCore *c)
{
    REG(c, EECD) &= ~EECD_AUTO_RD;
    REG(c, EEMNGCTL) &= ~EEMNGCTL_CFG_DONE0;
    e1000e_pp_arm(c, E1000E_PP_TIMER_AUTO_RD, NVM_AUTO_READ_NS);
}

static void nvm_reload_done(E1000EPPCore *c)
{
    REG(c, EECD) |= EECD_AUTO_RD;
    /* EEMNGCTL.CFG_DONE0: Linux waits for it before touching the PHY. */
    REG(c, EEMNGCTL) |= EEMNGCTL_CFG_DONE0;
}

void e1000e_pp_ctrl_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    /* CTRL and its alias at 0x0004 are one register. */
    REG(c, CTRL) = val & ~(CTRL_RST | CTRL_PHY_RST);
    REG(c, 0x00004) = REG(c, CTRL);

    if (val & CTRL_RST) {
        mac_reset(c, true);
        e1000e_pp_irq_update(c);
        return;
    }
    if (val & CTRL_PHY_RST) {
        e1000e_pp_phy_reset(c);
    }
    /*
     * Speed, duplex and link come from the PHY's resolution (the model
     * has no forced-speed MAC modes); a write may let a held ring go on.
     */
    e1000e_pp_tx_run(c);
}

uint32_t e1000e_pp_status_read(E1000EPPCore *c, uint32_t off)
{
    uint32_t v = REG(c, STATUS) & STATUS_PHYRA;

    if (e1000e_pp_link_up(c)) {
        v |= STATUS_LU | STATUS_FD | STATUS_SPEED_1000;
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

void e1000e_pp_status_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    /* Only PHYRA is writable, and only to 0. */
    if (!(val & STATUS_PHYRA)) {
        REG(c, STATUS) &= ~STATUS_PHYRA;
    }
}

void e1000e_pp_ctrl_ext_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    REG(c, CTRL_EXT) = val & ~(CTRL_EXT_EE_RST | CTRL_EXT_PBA_CLR);
    if (val & CTRL_EXT_EE_RST) {
        e1000e_pp_nvm_reload(c);
    }
    /* PBA_CLR only selects MSI-X PBA clearing on read; nothing to do. */
    if (val & CTRL_EXT_PBA_CLR) {
        REG(c, CTRL_EXT) |= CTRL_EXT_PBA_CLR;
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

void e1000e_pp_bus_master(E1000EPPCore *c, bool enabled)
{
    c->bus_master = enabled;
    if (enabled) {
        e1000e_pp_tx_run(c);
        e1000e_pp_rx_drain(c);
    }
}

static bool dma_allowed(E1000EPPCore *c, uint64_t addr, size_t len)
{
    if (!c->bus_master || (REG(c, CTRL) & CTRL_GIO_MASTER_DISABLE)) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, CTRL,
                      "DMA to 0x%llx blocked: bus mastering is off",
                      (unsigned long long)addr);
        return false;
    }
    if (addr + len < addr) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, RDBAL,
                      "DMA range 0x%llx+%zu wraps",
                      (unsigned long long)addr, len);
        return false;
    }
    return true;
}

bool e1000e_pp_dma_read(E1000EPPCore *c, uint64_t addr, void *buf,
                        size_t len)
{
    if (!dma_allowed(c, addr, len) ||
        c->plat->dma_read(c->opaque, addr, buf, len)) {
        c->dma_errors++;
        return false;
    }
    return true;
}

bool e1000e_pp_dma_write(E1000EPPCore *c, uint64_t addr, const void *buf,
                         size_t len)
{
    if (!dma_allowed(c, addr, len) ||
        c->plat->dma_write(c->opaque, addr, buf, len)) {
        c->dma_errors++;
        return false;
    }
    return true;
}

void e1000e_pp_timer_fired(E1000EPPCore *c, E1000EPPTimer timer)
{
    switch (timer) {
    case E1000E_PP_TIMER_AUTO_RD:
        nvm_reload_done(c);
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
    case E1000E_PP_TIMER_TX_KICK:
        e1000e_pp_tx_run(c);
        break;
    default:
        if (timer >= E1000E_PP_TIMER_ITR && timer < E1000E_PP_TIMER_COUNT) {
            e1000e_pp_throttle_expired(c, timer);
        }
        break;
    }
}

void e1000e_pp_irq_update(E1000EPPCore *c)
{
    e1000e_pp_intr_update(c);
}
