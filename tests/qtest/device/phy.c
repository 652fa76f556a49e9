/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: the PHY behind MDIC and the link it reports.
 * Given/when/then against the 82574L datasheet; see lib/e1000e-pp-scenario.h.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

/* ---------------------------------------------------------------- */
/* PHY over MDIC                                                    */
/* ---------------------------------------------------------------- */

/* Link up again at 1000 Mb/s full duplex, with ICR.LSC */
static void expect_link_back(EppDev *d)
{
    uint32_t status;

    epp_wait_link_up(d);
    status = epp_rd(d, STATUS);
    g_assert_cmphex(status & (STATUS_FD | STATUS_SPEED_MASK), ==,
                    STATUS_FD | STATUS_SPEED_1000);
    EPP_EXPECT_REG(d, ICR, ICR_LSC, ICR_LSC);
}

static uint32_t mdic_read_cmd(uint8_t phy, uint8_t reg)
{
    return MDIC_OP_READ | ((uint32_t)phy << MDIC_PHYADD_SHIFT) |
           ((uint32_t)reg << MDIC_REGADD_SHIFT);
}

static void phy_identity_via_mdic(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint32_t v;

    /* Given: a device up */
    epp_bring_up(d, &epp_default_config);

    /* When: PHY 1 registers 2 and 3 are read through MDIC */
    v = epp_mdic(d, mdic_read_cmd(1, PHY_ID1));
    /* Then: READY, no ERROR, REGADD/PHYADD read back, BM PHY ID 0x0141 */
    g_assert_cmphex(v & (MDIC_READY | MDIC_ERROR), ==, MDIC_READY);
    g_assert_cmphex(v & (MDIC_REGADD_MASK | MDIC_PHYADD_MASK), ==,
                    (PHY_ID1 << MDIC_REGADD_SHIFT) | (1 << MDIC_PHYADD_SHIFT));
    g_assert_cmphex(v & MDIC_DATA_MASK, ==, 0x0141);
    v = epp_mdic(d, mdic_read_cmd(1, PHY_ID2));
    g_assert_cmphex(v & (MDIC_READY | MDIC_ERROR), ==, MDIC_READY);
    g_assert_cmphex(v & MDIC_REGADD_MASK, ==, PHY_ID2 << MDIC_REGADD_SHIFT);
    g_assert_cmphex(v & MDIC_DATA_MASK, ==, 0x0cb1);

    /*
     * When: an unimplemented register (11, IEEE reserved) is read
     * Then: it reads 0, never 0xffff (the driver's PHY-hang check resets
     * on 0xffff).  A PHY that answers does not raise MDIC.ERROR.
     * stock e1000e: reads 0 but flags MDIC.ERROR.
     */
    v = epp_mdic(d, mdic_read_cmd(1, 11));
    g_assert_cmphex(v & MDIC_DATA_MASK, ==, 0);
    g_assert_cmphex(v & MDIC_READY, ==, MDIC_READY);
    g_assert_cmphex(v & MDIC_ERROR, ==, epp_is_stock(model) ? MDIC_ERROR : 0);

    /* When: a PHY address nobody answers (2) is read; Then: ERROR */
    v = epp_mdic(d, mdic_read_cmd(2, PHY_ID1));
    g_assert_cmphex(v & MDIC_ERROR, ==, MDIC_ERROR);

    /*
     * When: page 2 is selected through register 22
     * Then: it reads back; registers 0-15 are not paged, so the ID
     * still reads 0x0141; page 0 restores.
     */
    epp_phy_write(d, PHY_PAGE_SELECT, 2);
    g_assert_cmphex(epp_phy_read(d, PHY_PAGE_SELECT), ==, 2);
    g_assert_cmphex(epp_phy_read(d, PHY_ID1), ==, 0x0141);
    epp_phy_write(d, PHY_PAGE_SELECT, 0);
    g_assert_cmphex(epp_phy_read(d, PHY_PAGE_SELECT), ==, 0);
    g_assert_cmphex(epp_phy_read(d, PHY_ID2), ==, 0x0cb1);
    epp_stop(d);
}

static void phy_power_down_drops_link(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint16_t bmcr;

    /* Given: a device up with link, ICR drained */
    epp_bring_up(d, &epp_default_config);
    epp_rd(d, ICR);
    bmcr = epp_phy_read(d, PHY_BMCR);

    /* When: BMCR.PDOWN */
    epp_phy_write(d, PHY_BMCR, bmcr | BMCR_PDOWN);

    if (epp_is_stock(model)) {
        /* stock e1000e: ignores BMCR.PDOWN, the link stays up */
        epp_step(d, 100 * EPP_NS_PER_MS);
        EPP_EXPECT_REG(d, STATUS, STATUS_LU, STATUS_LU);
        epp_stop(d);
        return;
    }

    /* Then: STATUS.LU drops, ICR.LSC is raised, BMSR shows no link */
    epp_wait_reg(d, STATUS, STATUS_LU, 0, 100 * EPP_NS_PER_MS);
    EPP_EXPECT_REG(d, ICR, ICR_LSC, ICR_LSC);
    g_assert_cmphex(epp_phy_read(d, PHY_BMSR) & BMSR_LSTATUS, ==, 0);

    /* When: PDOWN cleared, auto-negotiation restarted */
    epp_phy_write(d, PHY_BMCR, (bmcr & ~BMCR_PDOWN) | BMCR_ANENABLE |
                  BMCR_ANRESTART);

    /* Then: link back after (virtual) negotiation time, 1000 Mb/s full */
    expect_link_back(d);
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Link                                                             */
/* ---------------------------------------------------------------- */

static void set_link(EppDev *d, bool up)
{
    qtest_qmp_assert_success(d->qts,
                             "{'execute': 'set_link', 'arguments': "
                             "{'name': 'hs0', 'up': %i}}", up);
}

static void link_change_lsc(const char *model)
{
    EppDev *d = epp_start(model, NULL);

    /* Given: a device up with link, ICR drained */
    epp_bring_up(d, &epp_default_config);
    epp_rd(d, ICR);

    /* When: the peer drops the link; Then: STATUS.LU=0 and ICR.LSC */
    set_link(d, false);
    epp_wait_reg(d, STATUS, STATUS_LU, 0, 100 * EPP_NS_PER_MS);
    EPP_EXPECT_REG(d, ICR, ICR_LSC, ICR_LSC);

    /* When: the link comes back; Then: LU, 1000 Mb/s full, ICR.LSC */
    set_link(d, true);
    expect_link_back(d);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(phy_identity_via_mdic),
    EPP_SCENARIO(phy_power_down_drops_link),
    EPP_SCENARIO(link_change_lsc),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
