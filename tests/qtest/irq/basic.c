/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: INTx and MSI-X delivery.
 * Given/when/then against the 82574L datasheet; see lib/e1000e-pp-scenario.h.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-scenario.h"
#include "irq.h"

/* ---------------------------------------------------------------- */
/* Interrupts                                                       */
/* ---------------------------------------------------------------- */

static void intx_int_asserted(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint32_t icr;
    int pin;

    /* Given: a device up, INTx (no MSI/MSI-X), IOAPIC inputs watched */
    epp_watch_intx(d);
    epp_bring_up(d, &epp_default_config);
    g_assert_cmpint(epp_intx_pin(d), ==, -1);

    /* When: a cause is set while it is masked; Then: the line stays low */
    epp_wr(d, ICS, ICR_TXDW);
    epp_step(d, EPP_NS_PER_MS);
    g_assert_cmpint(epp_intx_pin(d), ==, -1);
    EPP_EXPECT_REG(d, ICR, ICR_TXDW, ICR_TXDW);
    g_assert_cmpint(epp_intx_pin(d), ==, -1);

    /* When: an enabled cause is pending */
    epp_wr(d, IMS, ICR_TXDW);
    epp_wr(d, ICS, ICR_TXDW);

    /* Then: the line is asserted (PIRQ -> IOAPIC input 16..23) */
    pin = epp_wait_intx(d, EPP_NS_PER_MS);
    g_test_message("INTA# reaches IOAPIC input %d", pin);
    g_assert_cmpint(pin, >=, 16);
    g_assert_cmpint(pin, <=, 23);

    /* Then: ICR shows the cause and INT_ASSERTED; the read deasserts */
    icr = epp_rd(d, ICR);
    g_assert_cmphex(icr, ==, ICR_INT_ASSERTED | ICR_TXDW);
    g_assert_false(qtest_get_irq(d->qts, pin));
    EPP_EXPECT_REG(d, ICR, 0xffffffff, 0);
    epp_stop(d);
}

#define MSIX_RXQ0_VECTOR    3
#define MSIX_MSG_DATA       0x5eed0003u

static void msix_ivar_routing(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t frame[60];
    uint64_t msg, entry;
    uint32_t landed;
    int v;

    /* Given: a device up, MSI-X on, all vectors masked (reset state) */
    epp_bring_up(d, &epp_default_config);
    qpci_msix_enable(d->pdev);
    for (v = 0; v < 5; v++) {
        g_assert_true(qpci_msix_masked(d->pdev, v));
        g_assert_false(qpci_msix_pending(d->pdev, v));
    }

    /* Given: IVAR sends Rx queue 0 to vector 3, Tx 0 to 1, other to 0 */
    epp_wr(d, IVAR,
           ((IVAR_VALID | MSIX_RXQ0_VECTOR) << IVAR_RXQ0_SHIFT) |
           ((IVAR_VALID | 1) << IVAR_TXQ0_SHIFT) |
           ((IVAR_VALID | 0) << IVAR_OTHER_SHIFT));
    epp_wr(d, IMS, ICR_RXQ0);

    /* When: a frame is received */
    epp_rx_post_addr(d->rx, epp_alloc(d, 2048));
    epp_frame_fill(frame, sizeof(frame), false, 0x60);
    epp_inject(d, frame, sizeof(frame));
    epp_rx_wait_dd(d->rx, 0);

    /* Then: vector 3 alone is pending */
    epp_wait_msix_pending(d, MSIX_RXQ0_VECTOR, 10 * EPP_NS_PER_MS);
    for (v = 0; v < 5; v++) {
        g_assert_cmpint(qpci_msix_pending(d->pdev, v), ==,
                        v == MSIX_RXQ0_VECTOR);
    }

    /* When: vector 3 gets an address in guest RAM and is unmasked */
    msg = epp_alloc(d, 4);
    qtest_writel(d->qts, msg, 0);
    entry = d->pdev->msix_table_off + MSIX_RXQ0_VECTOR * PCI_MSIX_ENTRY_SIZE;
    qpci_io_writel(d->pdev, d->pdev->msix_table_bar,
                   entry + PCI_MSIX_ENTRY_LOWER_ADDR, (uint32_t)msg);
    qpci_io_writel(d->pdev, d->pdev->msix_table_bar,
                   entry + PCI_MSIX_ENTRY_UPPER_ADDR, msg >> 32);
    qpci_io_writel(d->pdev, d->pdev->msix_table_bar,
                   entry + PCI_MSIX_ENTRY_DATA, MSIX_MSG_DATA);
    qpci_io_writel(d->pdev, d->pdev->msix_table_bar,
                   entry + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);

    /* Then: the pending message lands and the pending bit clears */
    landed = qtest_readl(d->qts, msg);
    g_assert_cmphex(landed, ==, MSIX_MSG_DATA);
    g_assert_false(qpci_msix_pending(d->pdev, MSIX_RXQ0_VECTOR));
    qpci_msix_disable(d->pdev);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(intx_int_asserted),
    EPP_SCENARIO(msix_ivar_routing),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
