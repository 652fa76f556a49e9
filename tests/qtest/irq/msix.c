/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: MSI-X (82574L §7.4.2-7.4.3): IVAR routing of RxQ0, TxQ0
 * and the OTHER cause, EIAC auto-clear, EIAME auto-mask, and OTHER
 * aggregating LSC.  Given/when/then against the 82574L datasheet; where
 * stock e1000e differs, what it does is asserted on it (epp_on_stock).
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "irq.h"

#define MSIX_DATA(v)        (0x5eed0000u | (v))
#define NVEC                5

/* Causes the Linux driver routes to the OTHER vector (IMS_OTHER_MASK) */
#define OTHER_CAUSES_LINUX  (ICR_LSC | ICR_RXO | ICR_MDAC)

/* ---------------------------------------------------------------- */
/* MSI-X                                                            */
/* ---------------------------------------------------------------- */

typedef struct MsixRig {
    uint64_t slots;             /* NVEC dwords in guest RAM */
} MsixRig;

/* MSI-X on, every vector unmasked and aimed at its own RAM dword */
static void msix_rig(EppDev *d, MsixRig *r)
{
    int v;

    r->slots = epp_alloc(d, 4 * NVEC);
    qpci_msix_enable(d->pdev);
    for (v = 0; v < NVEC; v++) {
        qtest_writel(d->qts, r->slots + 4 * v, 0);
        epp_msix_vector_to_ram(d, v, r->slots + 4 * v, MSIX_DATA(v));
    }
}

/* Which vectors sent a message since the last call (bit per vector) */
static uint32_t msix_fired(EppDev *d, MsixRig *r)
{
    uint32_t fired = 0, val;
    int v;

    for (v = 0; v < NVEC; v++) {
        val = qtest_readl(d->qts, r->slots + 4 * v);
        if (val) {
            g_assert_cmphex(val, ==, MSIX_DATA(v));
            fired |= 1u << v;
            qtest_writel(d->qts, r->slots + 4 * v, 0);
        }
    }
    return fired;
}

/* The Linux layout: Rx queue 0 -> 0, Tx queue 0 -> 1, other -> 2 */
static void ivar_linux(EppDev *d)
{
    epp_wr(d, IVAR, ((IVAR_VALID | 0) << IVAR_RXQ0_SHIFT) |
           ((IVAR_VALID | 1) << IVAR_TXQ0_SHIFT) |
           ((IVAR_VALID | 2) << IVAR_OTHER_SHIFT));
}

/* The device up, MSI-X on with every vector to RAM, IVAR as Linux's */
static void msix_up(EppDev *d, MsixRig *r)
{
    epp_bring_up(d, &epp_default_config);
    msix_rig(d, r);
    ivar_linux(d);
}

static bool rx0_dd(EppDev *d, void *opaque)
{
    uint8_t desc[EPP_DESC_LEN];

    epp_rx_desc_bytes(d->rx, *(uint32_t *)opaque, desc);
    return desc[12] & RXD_STA_DD;
}

/* Inject a frame for the posted buffer idx; wait for DD in place */
static void receive_one(EppDev *d, uint32_t idx)
{
    uint8_t f[60];

    epp_frame_fill(f, sizeof(f), false, 0x3c);
    epp_inject(d, f, sizeof(f));
    epp_run_until(d, rx0_dd, &idx, "Rx descriptor DD");
}

static void irq_msix_ivar_routing_tx_rx_other(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    MsixRig r;
    uint32_t idx;

    /*
     * Given: MSI-X as Linux sets it up: IVAR Rx->0, Tx->1, other->2,
     * EIAC = RXQ0|TXQ0, IMS = RXQ0|TXQ0|OTHER + the other causes.
     */
    epp_watch_intx(d);
    msix_up(d, &r);
    epp_wr(d, EIAC, ICR_RXQ0 | ICR_TXQ0);
    epp_wr(d, ICR, 0xffffffff);
    epp_wr(d, IMS, ICR_RXQ0 | ICR_TXQ0 | ICR_OTHER |
           OTHER_CAUSES_LINUX);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);

    /* When: a frame is sent with RS; Then: vector 1 alone */
    irq_send_small(d, 0, 0x5a, 0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);

    /* When: a frame is received; Then: vector 0 alone */
    idx = epp_rx_post_addr(d->rx, epp_alloc(d, 2048));
    receive_one(d, idx);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 0);

    /* When: LSC is forced; Then: vector 2 (OTHER) alone */
    epp_wr(d, ICS, ICR_LSC);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);

    /* Then: INTx never moved */
    g_assert_false(irq_line_high(d));
    qpci_msix_disable(d->pdev);
    epp_stop(d);
}

/*
 * Force a cause with ICS after 1 ms of quiet: far from any throttle
 * window.  (stock e1000e throttles every vector for at least 500 * 256 ns
 * even with EITR = 0.)
 */
static void force_later(EppDev *d, uint32_t cause)
{
    epp_step(d, EPP_NS_PER_MS);
    epp_wr(d, ICS, cause);
}

static void irq_msix_eiac_auto_clear(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    MsixRig r;
    uint32_t icr;

    /* Given: MSI-X, Tx queue 0 on vector 1, IMS.TXQ0, EIAC = 0 */
    msix_up(d, &r);
    epp_wr(d, EIAC, 0);
    epp_wr(d, ICR, 0xffffffff);
    epp_wr(d, IMS, ICR_TXQ0);

    /* When: TXQ0 fires; Then: vector 1; ICR.TXQ0 and IMS.TXQ0 stay set */
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, ICR_TXQ0);
    icr = epp_rd(d, ICR);
    g_assert_cmphex(icr & ICR_TXQ0, ==, ICR_TXQ0);
    epp_wr(d, ICR, 0xffffffff);

    /*
     * When: EIAC.TXQ0 is set and TXQ0 fires; Then: §7.4.3, "the
     * corresponding bit in ICR and in IMS is automatically cleared
     * following an interrupt".
     */
    epp_wr(d, EIAC, ICR_TXQ0);
    EPP_EXPECT_REG(d, EIAC, 0xffffffff, ICR_TXQ0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, 0);
    icr = epp_rd(d, ICR);
    g_assert_cmphex(icr & ICR_TXQ0, ==, 0);

    /* Then: while IMS.TXQ0 is clear, a Tx completion sends nothing */
    epp_step(d, EPP_NS_PER_MS);
    irq_send_small(d, 0, 0x5a, 0);
    if (epp_on_stock(model, "vector 1 fires for a Tx completion while "
                 "IMS.TXQ0 is clear")) {
        g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
        EPP_EXPECT_REG(d, IMS, 0xffffffff, 0);
    } else {
        g_assert_cmphex(msix_fired(d, &r), ==, 0);
    }
    epp_wr(d, ICR, 0xffffffff);

    /* When: the handler re-enables IMS.TXQ0 (as Linux does) */
    epp_wr(d, IMS, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);

    /* Then: the next Tx completion fires and auto-clears again */
    epp_step(d, EPP_NS_PER_MS);
    irq_send_small(d, 0, 0x5a, 0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, 0);
    icr = epp_rd(d, ICR);
    g_assert_cmphex(icr & ICR_TXQ0, ==, 0);
    qpci_msix_disable(d->pdev);
    epp_stop(d);
}

static void irq_msix_eiame_auto_mask(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint32_t base = ICR_RXQ0 | ICR_TXQ0 | ICR_OTHER | ICR_LSC;
    MsixRig r;

    /*
     * Given: MSI-X, CTRL_EXT.EIAME, IAM all ones (as Linux), EIAC = 0 so
     * that only the auto-mask acts, IMS = RXQ0|TXQ0|OTHER|LSC.
     */
    msix_up(d, &r);
    epp_wr(d, IAM, 0xffffffff);
    epp_wr(d, EIAC, 0);
    epp_wr(d, CTRL_EXT, (epp_rd(d, CTRL_EXT) & ~CTRL_EXT_IAME) |
           CTRL_EXT_EIAME);
    epp_wr(d, ICR, 0xffffffff);
    epp_wr(d, IMS, base);

    /* When: vector 1 fires; Then: its cause TXQ0 is masked, no other */
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    if (epp_on_stock(model, "EIAME clears the cause from IAM instead of "
                 "masking it in IMS")) {
        EPP_EXPECT_REG(d, IMS, 0xffffffff, base);
        EPP_EXPECT_REG(d, IAM, 0xffffffff, ~ICR_TXQ0);
        /* So the next TXQ0 fires again */
        epp_wr(d, ICR, ICR_TXQ0);
        force_later(d, ICR_TXQ0);
        g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
        qpci_msix_disable(d->pdev);
        epp_stop(d);
        return;
    }
    EPP_EXPECT_REG(d, IMS, 0xffffffff, base & ~ICR_TXQ0);

    /* Then: while masked, TXQ0 sends nothing */
    epp_wr(d, ICR, ICR_TXQ0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);
    epp_wr(d, ICR, ICR_TXQ0);

    /* When: the handler re-enables it; Then: the next one fires again */
    epp_wr(d, IMS, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, base & ~ICR_TXQ0);
    epp_wr(d, ICR, ICR_TXQ0);

    /* When: EIAME is clear; Then: firing leaves IMS alone */
    epp_wr(d, CTRL_EXT, epp_rd(d, CTRL_EXT) & ~CTRL_EXT_EIAME);
    epp_wr(d, IMS, ICR_TXQ0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, base);
    qpci_msix_disable(d->pdev);
    epp_stop(d);
}

static void irq_msix_other_aggregates_lsc(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    MsixRig r;
    uint32_t icr;

    /* Given: MSI-X, OTHER on vector 2, IMS = OTHER|LSC, link up */
    msix_up(d, &r);
    epp_wr(d, ICR, 0xffffffff);
    epp_wr(d, IMS, ICR_OTHER | ICR_LSC);

    /* When: LSC is forced; Then: vector 2; ICR shows LSC and OTHER */
    epp_wr(d, ICS, ICR_LSC);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);
    icr = epp_rd(d, ICR);
    g_assert_cmphex(icr & (ICR_LSC | ICR_OTHER), ==, ICR_LSC | ICR_OTHER);
    epp_wr(d, ICR, 0xffffffff);

    /*
     * Then: nothing more.  stock e1000e: its EITR timer (at least
     * 500 x 256 ns) sends the vector's message again when it runs out,
     * whether or not a cause was held back.
     */
    epp_step(d, EPP_NS_PER_MS);
    g_assert_cmphex(msix_fired(d, &r), ==, epp_by_model(model, 0, 1u << 2));

    /*
     * When: the link really drops (PHY power-down, BMCR bit 11) and
     * comes back; Then: each change is an LSC on vector 2.
     */
    epp_phy_write(d, 0, epp_phy_read(d, 0) | 0x0800);
    if (epp_on_stock(model, "BMCR power-down does not drop the link")) {
        epp_step(d, 100 * EPP_NS_PER_MS);
        EPP_EXPECT_REG(d, STATUS, STATUS_LU, STATUS_LU);
        g_assert_cmphex(msix_fired(d, &r), ==, 0);
        qpci_msix_disable(d->pdev);
        epp_stop(d);
        return;
    }
    epp_wait_reg(d, STATUS, STATUS_LU, 0, 100 * EPP_NS_PER_MS);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);
    icr = epp_rd(d, ICR);
    g_assert_cmphex(icr & (ICR_LSC | ICR_OTHER), ==, ICR_LSC | ICR_OTHER);
    epp_wr(d, ICR, 0xffffffff);
    epp_phy_write(d, 0, epp_phy_read(d, 0) & ~0x0800);
    epp_wait_link_up(d);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);
    qpci_msix_disable(d->pdev);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(irq_msix_ivar_routing_tx_rx_other),
    EPP_SCENARIO(irq_msix_eiac_auto_clear),
    EPP_SCENARIO(irq_msix_eiame_auto_mask),
    EPP_SCENARIO(irq_msix_other_aggregates_lsc),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
