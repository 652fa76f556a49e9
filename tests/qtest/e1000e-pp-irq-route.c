/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: interrupt causes and their delivery (82574L §7.4,
 * §10.2.4): ICR read/clear rules, ICS, IMS/IMC, INTx level with
 * ICR.INT_ASSERTED, IAM/IAME auto-mask, MSI, MSI-X routed by IVAR with
 * EIAC auto-clear, EIAME auto-mask and the OTHER cause, and the Linux
 * driver's interrupt self-test walk over ICR bits 0-14.
 * Given/when/then against the 82574L datasheet; see e1000e-pp-tx-test.c.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-irq-test.h"

#define MSI_DATA            0x4d53
#define MSIX_DATA(v)        (0x5eed0000u | (v))
#define NVEC                5

/* Causes the Linux driver routes to the OTHER vector (IMS_OTHER_MASK) */
#define OTHER_CAUSES_LINUX  (ICR_LSC | ICR_RXO | ICR_MDAC)

static bool line_high(E1000epp *d)
{
    return e1000epp_intx_pin(d) >= 0;
}

/* ---------------------------------------------------------------- */
/* INTx: ICR, ICS, IMS, IMC, IAM                                    */
/* ---------------------------------------------------------------- */

void irq_icr_clear_on_read_rules(const char *model)
{
    E1000epp *d = irq_start_intx(model);
    uint32_t icr;

    /* Given: a device up in INTx mode, every cause masked, ICR empty */
    EPP_EXPECT_REG(d, IMS, 0xffffffff, 0);

    /*
     * Rule 1 (§10.2.4.1): with IMS = 0 a read returns the causes and
     * clears them.
     */
    e1000epp_wr(d, ICS, ICR_TXDW | ICR_LSC);
    g_assert_false(line_high(d));
    icr = e1000epp_rd(d, ICR);
    if (stock_differs(model, "ICR reads INT_ASSERTED with IMS = 0 "
                          "(0x80000005), and outside MSI-X every ICR read "
                          "clears, whatever IMS and INT_ASSERTED say")) {
        e1000epp_stop(d);
        return;
    }
    g_assert_cmphex(icr, ==, ICR_TXDW | ICR_LSC);
    EPP_EXPECT_REG(d, ICR, 0xffffffff, 0);

    /*
     * Rule 2: with an enabled cause pending (INT_ASSERTED) a read returns
     * every cause, INT_ASSERTED included, and clears them all - the
     * masked LSC too - and deasserts the line.
     */
    e1000epp_wr(d, IMS, ICR_TXDW);
    e1000epp_wr(d, ICS, ICR_TXDW | ICR_LSC);
    g_assert_true(line_high(d));
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr, ==, ICR_INT_ASSERTED | ICR_TXDW | ICR_LSC);
    g_assert_false(line_high(d));
    EPP_EXPECT_REG(d, ICR, 0xffffffff, 0);

    /*
     * Rule 3: IMS != 0 but only masked causes pending (INT_ASSERTED
     * clear): the read has no side effect; the cause stays until a write
     * of 1 clears it.
     */
    e1000epp_wr(d, ICS, ICR_LSC);
    g_assert_false(line_high(d));
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr, ==, ICR_LSC);
    EPP_EXPECT_REG(d, ICR, 0xffffffff, ICR_LSC);
    e1000epp_wr(d, ICR, ICR_LSC);
    EPP_EXPECT_REG(d, ICR, 0xffffffff, 0);
    g_assert_false(line_high(d));
    e1000epp_stop(d);
}

void irq_ics_ims_imc_intx_level(const char *model)
{
    E1000epp *d = irq_start_intx(model);
    uint32_t icr;

    /* Given: a device up in INTx mode */

    /* IMS sets, IMC clears, IMS reads back the mask */
    e1000epp_wr(d, IMS, ICR_TXDW | ICR_RXT0 | ICR_LSC);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, ICR_TXDW | ICR_RXT0 | ICR_LSC);
    e1000epp_wr(d, IMC, ICR_RXT0 | ICR_LSC);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, ICR_TXDW);

    /* When: an enabled cause is set by ICS; Then: the line goes high */
    e1000epp_wr(d, ICS, ICR_TXDW);
    g_assert_true(line_high(d));

    /* Then: a level: still high 10 ms later */
    e1000epp_step(d, 10 * EPP_NS_PER_MS);
    g_assert_true(line_high(d));

    /* When: IMC masks the cause; Then: the line drops, the cause stays */
    e1000epp_wr(d, IMC, ICR_TXDW);
    g_assert_false(line_high(d));

    /* When: IMS enables it again; Then: the pending cause raises the line */
    e1000epp_wr(d, IMS, ICR_TXDW);
    if (stock_differs(model, "an IMS write does not re-assert INTx "
                          "for a cause already pending in ICR")) {
        e1000epp_stop(d);
        return;
    }
    g_assert_true(line_high(d));

    /* When: ICR is read; Then: cause + INT_ASSERTED, and the line drops */
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr, ==, ICR_INT_ASSERTED | ICR_TXDW);
    g_assert_false(line_high(d));

    /* When: a real transmit completion with RS; Then: TXDW raises it */
    {
        uint8_t f[60], desc[EPP_DESC_LEN];
        uint64_t g = e1000epp_alloc(d, sizeof(f));

        tx_eth_header(f, 0x88b5);
        fill_pattern(f + 14, sizeof(f) - 14, 3);
        e1000epp_memwrite(d, g, f, sizeof(f));
        e1000epp_txd_legacy(desc, g, sizeof(f),
                            TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
        e1000epp_tx_push(d, desc);
    }
    g_assert_true(line_high(d));
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & (ICR_INT_ASSERTED | ICR_TXDW), ==,
                    ICR_INT_ASSERTED | ICR_TXDW);
    g_assert_false(line_high(d));
    e1000epp_stop(d);
}

void irq_iame_auto_mask_on_icr_read(const char *model)
{
    E1000epp *d = irq_start_intx(model);
    uint32_t icr;

    /* Given: INTx, CTRL_EXT.IAME, IAM = TXDW|LSC, IMS = TXDW|LSC|RXT0 */
    e1000epp_wr(d, IAM, ICR_TXDW | ICR_LSC);
    e1000epp_wr(d, CTRL_EXT, e1000epp_rd(d, CTRL_EXT) | CTRL_EXT_IAME);
    e1000epp_wr(d, IMS, ICR_TXDW | ICR_LSC | ICR_RXT0);

    /* When: an interrupt is asserted and ICR is read */
    e1000epp_wr(d, ICS, ICR_TXDW);
    g_assert_true(line_high(d));
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr, ==, ICR_INT_ASSERTED | ICR_TXDW);
    if (stock_differs(model, "outside MSI-X the ICR read clears ICR "
                          "before IAME is looked at, so IMS is never "
                          "auto-masked")) {
        e1000epp_stop(d);
        return;
    }

    /* Then: §10.2.4.1 case 2, the read wrote IAM to IMC */
    EPP_EXPECT_REG(d, IMS, 0xffffffff, ICR_RXT0);
    g_assert_false(line_high(d));

    /* Then: LSC is now masked: forcing it raises nothing */
    e1000epp_wr(d, ICS, ICR_LSC);
    g_assert_false(line_high(d));

    /* When: ICR is read without INT_ASSERTED; Then: IMS is untouched */
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & ICR_INT_ASSERTED, ==, 0);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, ICR_RXT0);
    e1000epp_wr(d, ICR, 0xffffffff);

    /* When: IAME is clear; Then: an asserted read leaves IMS alone */
    e1000epp_wr(d, CTRL_EXT, e1000epp_rd(d, CTRL_EXT) & ~CTRL_EXT_IAME);
    e1000epp_wr(d, IMS, ICR_TXDW | ICR_LSC);
    e1000epp_wr(d, ICS, ICR_TXDW);
    g_assert_true(line_high(d));
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr, ==, ICR_INT_ASSERTED | ICR_TXDW);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, ICR_TXDW | ICR_LSC | ICR_RXT0);
    e1000epp_stop(d);
}

/*
 * The self-test's handler: called after each 10 ms sleep; if the line is
 * high it reads ICR (the handler's only register access) and ORs it in.
 */
static uint32_t selftest_sleep_and_handle(E1000epp *d)
{
    uint32_t icr = 0;

    e1000epp_step(d, 10 * EPP_NS_PER_MS);
    if (line_high(d)) {
        icr = e1000epp_rd(d, ICR);
        g_assert_false(line_high(d));
    }
    return icr;
}

void irq_selftest_icr_bits_0_to_14(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    uint32_t mask, test_icr, dropped = 0;
    int i;

    /*
     * Given: INTx on an unshared line, as e1000_intr_test runs it even
     * when MSI-X is the driver's default.
     */
    e1000epp_watch_intx(d);
    e1000epp_bring_up(d, &e1000epp_default_config);
    e1000epp_wr(d, IMC, 0xffffffff);
    e1000epp_step(d, 10 * EPP_NS_PER_MS);

    /*
     * When: for each ICR bit 0-9, the three steps of the self-test;
     * step 3 forces every other bit of 0-14 while they are masked.
     */
    for (i = 0; i < 10; i++) {
        mask = 1u << i;

        /* 1. masked and forced: no interrupt may carry it */
        e1000epp_wr(d, IMC, mask);
        e1000epp_wr(d, ICS, mask);
        test_icr = selftest_sleep_and_handle(d);
        if (test_icr & mask) {
            e1000epp_dump_regs(d, "self-test step 1");
            g_error("ICR bit %d: interrupt while masked (ICR 0x%08x) on %s",
                    i, test_icr, model);
        }

        /* 2. enabled and forced: an interrupt must carry it */
        e1000epp_wr(d, IMS, mask);
        e1000epp_wr(d, ICS, mask);
        test_icr = selftest_sleep_and_handle(d);
        if (!(test_icr & mask)) {
            if (is_stock(model)) {
                dropped |= mask;
                continue;
            }
            e1000epp_dump_regs(d, "self-test step 2");
            g_error("ICR bit %d: no interrupt when enabled (ICR 0x%08x) "
                    "on %s", i, test_icr, model);
        }

        /* 3. every other cause of 0-14 masked and forced: no interrupt */
        e1000epp_wr(d, IMC, ~mask & 0x00007fff);
        e1000epp_wr(d, ICS, ~mask & 0x00007fff);
        test_icr = selftest_sleep_and_handle(d);
        if (test_icr) {
            e1000epp_dump_regs(d, "self-test step 3");
            g_error("ICR bit %d: interrupt from masked causes (ICR 0x%08x) "
                    "on %s", i, test_icr, model);
        }
    }

    /*
     * Then: every bit passed.  stock e1000e: its IMS keeps no bits 3, 5
     * and 8, so those three never interrupt (the self-test's "interrupt
     * test" failure on QEMU).
     */
    g_test_message("bits that never interrupted: 0x%03x", dropped);
    g_assert_cmphex(dropped, ==, is_stock(model) ? 0x128 : 0);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* MSI                                                              */
/* ---------------------------------------------------------------- */

void irq_msi_message_per_assertion(const char *model)
{
    E1000epp *d = irq_start_intx(model);
    uint64_t slot = e1000epp_alloc(d, 4);
    uint8_t f[60], desc[EPP_DESC_LEN];
    uint64_t g;
    uint32_t icr;

    /* Given: MSI enabled, its message address in guest RAM */
    qtest_writel(d->qts, slot, 0);
    e1000epp_msi_enable(d, slot, MSI_DATA);

    /* When: a masked cause is forced; Then: no message */
    e1000epp_wr(d, ICS, ICR_LSC);
    g_assert_cmphex(qtest_readl(d->qts, slot), ==, 0);
    e1000epp_wr(d, ICR, 0xffffffff);

    /* When: an enabled cause is forced; Then: one message, INTx idle */
    e1000epp_wr(d, IMS, ICR_TXDW);
    e1000epp_wr(d, ICS, ICR_TXDW);
    g_assert_cmphex(qtest_readl(d->qts, slot), ==, MSI_DATA);
    g_assert_false(line_high(d));
    qtest_writel(d->qts, slot, 0);

    /* When: forced again before ICR is read; Then: no second message */
    if (stock_differs(model, "every ICS sends another MSI message, "
                          "even while the previous cause is unread")) {
        e1000epp_stop(d);
        return;
    }
    e1000epp_wr(d, ICS, ICR_TXDW);
    e1000epp_step(d, EPP_NS_PER_MS);
    g_assert_cmphex(qtest_readl(d->qts, slot), ==, 0);

    /* When: the handler reads ICR; Then: cause + INT_ASSERTED, cleared */
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr, ==, ICR_INT_ASSERTED | ICR_TXDW);
    EPP_EXPECT_REG(d, ICR, 0xffffffff, 0);

    /* When: a transmit completes with RS; Then: the next message */
    g = e1000epp_alloc(d, sizeof(f));
    tx_eth_header(f, 0x88b5);
    fill_pattern(f + 14, sizeof(f) - 14, 9);
    e1000epp_memwrite(d, g, f, sizeof(f));
    e1000epp_txd_legacy(desc, g, sizeof(f),
                        TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    e1000epp_tx_push(d, desc);
    g_assert_cmphex(qtest_readl(d->qts, slot), ==, MSI_DATA);
    g_assert_false(line_high(d));
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & (ICR_INT_ASSERTED | ICR_TXDW), ==,
                    ICR_INT_ASSERTED | ICR_TXDW);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* MSI-X                                                            */
/* ---------------------------------------------------------------- */

typedef struct MsixRig {
    uint64_t slots;             /* NVEC dwords in guest RAM */
} MsixRig;

/* MSI-X on, every vector unmasked and aimed at its own RAM dword */
static void msix_rig(E1000epp *d, MsixRig *r)
{
    int v;

    r->slots = e1000epp_alloc(d, 4 * NVEC);
    qpci_msix_enable(d->pdev);
    for (v = 0; v < NVEC; v++) {
        qtest_writel(d->qts, r->slots + 4 * v, 0);
        e1000epp_msix_vector_to_ram(d, v, r->slots + 4 * v, MSIX_DATA(v));
    }
}

/* Which vectors sent a message since the last call (bit per vector) */
static uint32_t msix_fired(E1000epp *d, MsixRig *r)
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
static void ivar_linux(E1000epp *d)
{
    e1000epp_wr(d, IVAR, ((IVAR_VALID | 0) << IVAR_RXQ0_SHIFT) |
                ((IVAR_VALID | 1) << IVAR_TXQ0_SHIFT) |
                ((IVAR_VALID | 2) << IVAR_OTHER_SHIFT));
}

/* The device up, MSI-X on with every vector to RAM, IVAR as Linux's */
static void msix_up(E1000epp *d, MsixRig *r)
{
    e1000epp_bring_up(d, &e1000epp_default_config);
    msix_rig(d, r);
    ivar_linux(d);
}

static bool rx0_dd(E1000epp *d, void *opaque)
{
    uint8_t desc[EPP_DESC_LEN];

    e1000epp_rx_desc(d, *(uint32_t *)opaque, desc);
    return desc[12] & RXD_STA_DD;
}

/* Inject a frame for the posted buffer idx; wait for DD in place */
static void receive_one(E1000epp *d, uint32_t idx)
{
    uint8_t f[60];

    frame_fill(f, sizeof(f), false, 0x3c);
    e1000epp_inject(d, f, sizeof(f));
    settle(d, rx0_dd, &idx, "Rx descriptor DD");
}

void irq_msix_ivar_routing_tx_rx_other(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    MsixRig r;
    uint32_t idx;

    /*
     * Given: MSI-X as Linux sets it up: IVAR Rx->0, Tx->1, other->2,
     * EIAC = RXQ0|TXQ0, IMS = RXQ0|TXQ0|OTHER + the other causes.
     */
    e1000epp_watch_intx(d);
    msix_up(d, &r);
    e1000epp_wr(d, EIAC, ICR_RXQ0 | ICR_TXQ0);
    e1000epp_wr(d, ICR, 0xffffffff);
    e1000epp_wr(d, IMS, ICR_RXQ0 | ICR_TXQ0 | ICR_OTHER |
                OTHER_CAUSES_LINUX);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);

    /* When: a frame is sent with RS; Then: vector 1 alone */
    irq_send_small(d, 0, 0x5a, 0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);

    /* When: a frame is received; Then: vector 0 alone */
    idx = e1000epp_rx_post(d, e1000epp_alloc(d, 2048));
    receive_one(d, idx);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 0);

    /* When: LSC is forced; Then: vector 2 (OTHER) alone */
    e1000epp_wr(d, ICS, ICR_LSC);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);

    /* Then: INTx never moved */
    g_assert_false(line_high(d));
    qpci_msix_disable(d->pdev);
    e1000epp_stop(d);
}

/*
 * Force a cause with ICS after 1 ms of quiet: far from any throttle
 * window.  (stock e1000e throttles every vector for at least 500 * 256 ns
 * even with EITR = 0.)
 */
static void force_later(E1000epp *d, uint32_t cause)
{
    e1000epp_step(d, EPP_NS_PER_MS);
    e1000epp_wr(d, ICS, cause);
}

void irq_msix_eiac_auto_clear(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    MsixRig r;
    uint32_t icr;

    /* Given: MSI-X, Tx queue 0 on vector 1, IMS.TXQ0, EIAC = 0 */
    msix_up(d, &r);
    e1000epp_wr(d, EIAC, 0);
    e1000epp_wr(d, ICR, 0xffffffff);
    e1000epp_wr(d, IMS, ICR_TXQ0);

    /* When: TXQ0 fires; Then: vector 1; ICR.TXQ0 and IMS.TXQ0 stay set */
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, ICR_TXQ0);
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & ICR_TXQ0, ==, ICR_TXQ0);
    e1000epp_wr(d, ICR, 0xffffffff);

    /*
     * When: EIAC.TXQ0 is set and TXQ0 fires; Then: §7.4.3, "the
     * corresponding bit in ICR and in IMS is automatically cleared
     * following an interrupt".
     */
    e1000epp_wr(d, EIAC, ICR_TXQ0);
    EPP_EXPECT_REG(d, EIAC, 0xffffffff, ICR_TXQ0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, 0);
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & ICR_TXQ0, ==, 0);

    /* Then: while IMS.TXQ0 is clear, a Tx completion sends nothing */
    e1000epp_step(d, EPP_NS_PER_MS);
    irq_send_small(d, 0, 0x5a, 0);
    if (stock_differs(model, "vector 1 fires for a Tx completion "
                          "while IMS.TXQ0 is clear")) {
        qpci_msix_disable(d->pdev);
        e1000epp_stop(d);
        return;
    }
    g_assert_cmphex(msix_fired(d, &r), ==, 0);
    e1000epp_wr(d, ICR, 0xffffffff);

    /* When: the handler re-enables IMS.TXQ0 (as Linux does) */
    e1000epp_wr(d, IMS, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);

    /* Then: the next Tx completion fires and auto-clears again */
    e1000epp_step(d, EPP_NS_PER_MS);
    irq_send_small(d, 0, 0x5a, 0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, 0);
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & ICR_TXQ0, ==, 0);
    qpci_msix_disable(d->pdev);
    e1000epp_stop(d);
}

void irq_msix_eiame_auto_mask(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    uint32_t base = ICR_RXQ0 | ICR_TXQ0 | ICR_OTHER | ICR_LSC;
    MsixRig r;

    /*
     * Given: MSI-X, CTRL_EXT.EIAME, IAM all ones (as Linux), EIAC = 0 so
     * that only the auto-mask acts, IMS = RXQ0|TXQ0|OTHER|LSC.
     */
    msix_up(d, &r);
    e1000epp_wr(d, IAM, 0xffffffff);
    e1000epp_wr(d, EIAC, 0);
    e1000epp_wr(d, CTRL_EXT, (e1000epp_rd(d, CTRL_EXT) & ~CTRL_EXT_IAME) |
                CTRL_EXT_EIAME);
    e1000epp_wr(d, ICR, 0xffffffff);
    e1000epp_wr(d, IMS, base);

    /* When: vector 1 fires; Then: its cause TXQ0 is masked, no other */
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    if (stock_differs(model, "EIAME clears the cause from IAM "
                          "instead of masking it in IMS")) {
        qpci_msix_disable(d->pdev);
        e1000epp_stop(d);
        return;
    }
    EPP_EXPECT_REG(d, IMS, 0xffffffff, base & ~ICR_TXQ0);

    /* Then: while masked, TXQ0 sends nothing */
    e1000epp_wr(d, ICR, ICR_TXQ0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);
    e1000epp_wr(d, ICR, ICR_TXQ0);

    /* When: the handler re-enables it; Then: the next one fires again */
    e1000epp_wr(d, IMS, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, base & ~ICR_TXQ0);
    e1000epp_wr(d, ICR, ICR_TXQ0);

    /* When: EIAME is clear; Then: firing leaves IMS alone */
    e1000epp_wr(d, CTRL_EXT, e1000epp_rd(d, CTRL_EXT) & ~CTRL_EXT_EIAME);
    e1000epp_wr(d, IMS, ICR_TXQ0);
    force_later(d, ICR_TXQ0);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 1);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, base);
    qpci_msix_disable(d->pdev);
    e1000epp_stop(d);
}

void irq_msix_other_aggregates_lsc(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    MsixRig r;
    uint32_t icr;

    /* Given: MSI-X, OTHER on vector 2, IMS = OTHER|LSC, link up */
    msix_up(d, &r);
    e1000epp_wr(d, ICR, 0xffffffff);
    e1000epp_wr(d, IMS, ICR_OTHER | ICR_LSC);

    /* When: LSC is forced; Then: vector 2; ICR shows LSC and OTHER */
    e1000epp_wr(d, ICS, ICR_LSC);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & (ICR_LSC | ICR_OTHER), ==, ICR_LSC | ICR_OTHER);
    e1000epp_wr(d, ICR, 0xffffffff);

    /*
     * When: the link really drops (PHY power-down, BMCR bit 11) and
     * comes back; Then: each change is an LSC on vector 2.
     */
    if (stock_differs(model, "BMCR power-down does not drop the "
                          "link")) {
        qpci_msix_disable(d->pdev);
        e1000epp_stop(d);
        return;
    }
    e1000epp_phy_write(d, 0, e1000epp_phy_read(d, 0) | 0x0800);
    e1000epp_wait_reg(d, STATUS, STATUS_LU, 0, 100 * EPP_NS_PER_MS);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);
    icr = e1000epp_rd(d, ICR);
    g_assert_cmphex(icr & (ICR_LSC | ICR_OTHER), ==, ICR_LSC | ICR_OTHER);
    e1000epp_wr(d, ICR, 0xffffffff);
    e1000epp_phy_write(d, 0, e1000epp_phy_read(d, 0) & ~0x0800);
    e1000epp_wait_link_up(d);
    g_assert_cmphex(msix_fired(d, &r), ==, 1u << 2);
    qpci_msix_disable(d->pdev);
    e1000epp_stop(d);
}
