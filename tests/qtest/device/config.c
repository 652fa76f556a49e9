/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: PCI identity, NVM, reset, packet buffer allocation.
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
/* PCI identity                                                     */
/* ---------------------------------------------------------------- */

/* Size a BAR the way firmware does: write all-ones, read the mask back */
static uint32_t bar_probe(QPCIDevice *pdev, int bar, uint32_t *type)
{
    uint8_t off = PCI_BASE_ADDRESS_0 + 4 * bar;
    uint32_t orig = qpci_config_readl(pdev, off);
    uint32_t mask;

    qpci_config_writel(pdev, off, 0xffffffff);
    mask = qpci_config_readl(pdev, off);
    qpci_config_writel(pdev, off, orig);
    if (mask == 0) {
        *type = 0;
        return 0;
    }
    if (mask & PCI_BASE_ADDRESS_SPACE_IO) {
        *type = mask & 0x3;
        return ~(mask & ~0x3u) + 1;
    }
    *type = mask & 0xf;
    return ~(mask & ~0xfu) + 1;
}

/*
 * Extended configuration space through q35's MMCONFIG window: program
 * the MCH PCIEXBAR (host bridge 00.0, offset 0x60) to 0xb0000000, 256
 * buses, enabled.  Firmware does not run under qtest, so nobody else has.
 */
#define ECAM_BASE 0xb0000000ULL

static void ecam_enable(EppDev *d)
{
    QPCIDevice *host = qpci_device_find(d->bus, 0);

    g_assert(host != NULL);
    qpci_config_writel(host, 0x64, 0);
    qpci_config_writel(host, 0x60, (uint32_t)ECAM_BASE | 1);
    g_free(host);
}

static uint32_t ecam_readl(EppDev *d, uint16_t off)
{
    return qtest_readl(d->qts, ECAM_BASE + (d->pdev->devfn << 12) + off);
}

static void pci_identity(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    QPCIDevice *pdev = d->pdev;
    bool seen_pm = false, seen_msi = false, seen_exp = false;
    bool seen_msix = false, seen_aer = false, seen_dsn = false;
    uint32_t size, type, hdr, table, pba;
    uint16_t cmd, msix_flags;
    uint8_t cap, msix = 0;
    uint16_t ext;
    int n;

    /* Given: the device as firmware would find it */
    /* Then: 82574L identity, Ethernet controller class */
    g_assert_cmphex(qpci_config_readw(pdev, PCI_VENDOR_ID), ==, 0x8086);
    g_assert_cmphex(qpci_config_readw(pdev, PCI_DEVICE_ID), ==, 0x10d3);
    g_assert_cmphex(qpci_config_readl(pdev, PCI_CLASS_REVISION) >> 8, ==,
                    0x020000);
    g_assert_cmphex(qpci_config_readb(pdev, PCI_HEADER_TYPE) & 0x7f, ==, 0);
    /* NVM defaults: subsystem vendor Intel, subsystem ID 0 */
    g_assert_cmphex(qpci_config_readw(pdev, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    0x8086);
    g_assert_cmphex(qpci_config_readw(pdev, PCI_SUBSYSTEM_ID), ==, 0x0000);

    /* BARs: sized with decoding off */
    cmd = qpci_config_readw(pdev, PCI_COMMAND);
    qpci_config_writew(pdev, PCI_COMMAND,
                       cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
    size = bar_probe(pdev, 0, &type);
    g_assert_cmphex(size, ==, 128 * 1024);   /* BAR0: 128 KiB registers */
    g_assert_cmphex(type, ==, 0x0);          /* 32-bit, non-prefetchable */
    size = bar_probe(pdev, 1, &type);
    g_test_message("BAR1 (flash) size 0x%x type 0x%x", size, type);
    g_assert_cmphex(size, !=, 0);            /* BAR1: flash, memory */
    g_assert_cmphex(type & PCI_BASE_ADDRESS_SPACE_IO, ==, 0);
    size = bar_probe(pdev, 2, &type);
    g_assert_cmphex(size, ==, 32);           /* BAR2: 32 bytes of I/O */
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_SPACE_IO);
    size = bar_probe(pdev, 3, &type);
    g_assert_cmphex(size, ==, 16 * 1024);    /* BAR3: MSI-X, 16 KiB */
    g_assert_cmphex(type, ==, 0x0);
    g_assert_cmphex(bar_probe(pdev, 4, &type), ==, 0);
    g_assert_cmphex(bar_probe(pdev, 5, &type), ==, 0);
    qpci_config_writew(pdev, PCI_COMMAND, cmd);

    /* Capability list: PM, MSI, PCIe, MSI-X, each once */
    g_assert_cmphex(qpci_config_readw(pdev, PCI_STATUS) & PCI_STATUS_CAP_LIST,
                    ==, PCI_STATUS_CAP_LIST);
    cap = qpci_config_readb(pdev, PCI_CAPABILITY_LIST);
    for (n = 0; cap && n < 48; n++) {
        uint8_t id = qpci_config_readb(pdev, cap);

        g_test_message("capability 0x%02x at 0x%02x", id, cap);
        switch (id) {
        case 0x01:
            g_assert_false(seen_pm);
            seen_pm = true;
            break;
        case 0x05:
            g_assert_false(seen_msi);
            seen_msi = true;
            break;
        case 0x10:
            g_assert_false(seen_exp);
            seen_exp = true;
            break;
        case 0x11:
            g_assert_false(seen_msix);
            seen_msix = true;
            msix = cap;
            break;
        default:
            break;
        }
        cap = qpci_config_readb(pdev, cap + 1);
    }
    g_assert_cmpint(cap, ==, 0);
    g_assert_true(seen_pm && seen_msi && seen_exp && seen_msix);

    /* MSI-X: 5 vectors, table at BAR3 + 0, PBA at BAR3 + 0x2000 */
    msix_flags = qpci_config_readw(pdev, msix + PCI_MSIX_FLAGS);
    g_assert_cmpint((msix_flags & 0x7ff) + 1, ==, 5);
    table = qpci_config_readl(pdev, msix + PCI_MSIX_TABLE);
    pba = qpci_config_readl(pdev, msix + PCI_MSIX_PBA);
    g_assert_cmphex(table, ==, 0x00000003);
    g_assert_cmphex(pba, ==, 0x00002003);

    /* Extended capabilities: AER and DSN */
    ecam_enable(d);
    g_assert_cmphex(ecam_readl(d, 0) & 0xffff, ==, 0x8086);
    ext = 0x100;
    for (n = 0; ext && n < 64; n++) {
        hdr = ecam_readl(d, ext);
        g_test_message("extended capability 0x%04x v%u at 0x%03x",
                       hdr & 0xffff, (hdr >> 16) & 0xf, ext);
        if ((hdr & 0xffff) == 0x0001) {
            seen_aer = true;
        } else if ((hdr & 0xffff) == 0x0003) {
            seen_dsn = true;
        }
        ext = hdr >> 20;
    }
    g_assert_cmpint(ext, ==, 0);
    g_assert_true(seen_aer);
    g_assert_true(seen_dsn);

    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* NVM                                                              */
/* ---------------------------------------------------------------- */

static void nvm_mac_and_checksum(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint16_t sum = 0;
    uint16_t w;
    int i;

    /* Given: a device powered up with mac=52:54:00:12:34:56 */
    epp_wait_reg(d, EECD, EECD_AUTO_RD, EECD_AUTO_RD,
                 10 * EPP_NS_PER_MS);

    /* When: words 0x00-0x3f are read through EERD */
    for (i = 0; i <= 0x3f; i++) {
        w = epp_nvm_read(d, i);
        sum += w;
        /* Then: words 0-2 hold the MAC, least significant byte first */
        if (i < 3) {
            g_assert_cmphex(w, ==, lduw_le_p(epp_mac + 2 * i));
        }
    }

    /* Then: the checksum word makes the sum 0xbaba */
    g_assert_cmphex(sum, ==, 0xbaba);
    epp_stop(d);
}

/*
 * Given a device started with mac=02:a1:b2:c3:d4:e5 (not the MAC every
 * other scenario uses), when the NVM has been auto-read, then RAL0/RAH0
 * hold that address with RAH.AV set (§10.2.5.15-16: entry 0 is loaded
 * from the NVM), and NVM words 0-2 read through EERD hold it, least
 * significant byte first.
 */
static void prop_mac_sets_ral_rah_and_nvm(const char *model)
{
    EppDev *d = epp_start_dev(model, "mac=02:a1:b2:c3:d4:e5", NULL);

    epp_wait_reg(d, EECD, EECD_AUTO_RD, EECD_AUTO_RD,
                 10 * EPP_NS_PER_MS);
    EPP_EXPECT_REG(d, RAL0, 0xffffffff, 0xc3b2a102);
    EPP_EXPECT_REG(d, RAH0, 0xffffffff, RAH_AV | 0xe5d4);
    g_assert_cmphex(epp_nvm_read(d, 0), ==, 0xa102);
    g_assert_cmphex(epp_nvm_read(d, 1), ==, 0xc3b2);
    g_assert_cmphex(epp_nvm_read(d, 2), ==, 0xe5d4);
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Reset                                                            */
/* ---------------------------------------------------------------- */

static void reset_sets_auto_rd(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint32_t eecd = 0;
    int polls;

    /* Given: a device up, with an interrupt mask and Rx configured */
    epp_bring_up(d, &epp_default_config);
    epp_wr(d, IMS, ICR_LSC | ICR_RXT0);

    /* When: CTRL.RST, as the driver writes it */
    epp_wr(d, IMC, 0xffffffff);
    epp_wr(d, RCTL, 0);
    epp_wr(d, CTRL, epp_rd(d, CTRL) | CTRL_RST);

    /* Then: EECD.AUTO_RD within 10 polls 1 ms apart (driver: 1-2 ms) */
    for (polls = 1; polls <= 10; polls++) {
        eecd = epp_rd(d, EECD);
        if (eecd & EECD_AUTO_RD) {
            break;
        }
        epp_step(d, EPP_NS_PER_MS);
    }
    g_test_message("EECD=0x%08x after %d poll(s)", eecd, polls);
    if (!(eecd & EECD_AUTO_RD)) {
        epp_dump_regs(d, "EECD.AUTO_RD after CTRL.RST");
    }
    g_assert_cmphex(eecd & EECD_AUTO_RD, ==, EECD_AUTO_RD);

    /* Then: RST has cleared itself and the mask is back to its default */
    EPP_EXPECT_REG(d, CTRL, CTRL_RST, 0);
    EPP_EXPECT_REG(d, IMS, 0xffffffff, 0);
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Packet buffer                                                    */
/* ---------------------------------------------------------------- */

static void pba_split(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    static const uint32_t rxa[] = { 26, 12, 32 };
    uint32_t v;
    size_t i;

    /* Given: a device after power-up: 20 KB Rx, 20 KB Tx */
    epp_wait_reg(d, EECD, EECD_AUTO_RD, EECD_AUTO_RD,
                 10 * EPP_NS_PER_MS);
    EPP_EXPECT_REG(d, PBA, 0xffffffff, (20 << PBA_TXA_SHIFT) | 20);

    for (i = 0; i < ARRAY_SIZE(rxa); i++) {
        /* When: PBA.RXA is written (the TXA half written as 0) */
        epp_wr(d, PBA, rxa[i]);
        v = epp_rd(d, PBA);
        g_assert_cmpuint(v & PBA_RXA_MASK, ==, rxa[i]);
        if (epp_is_stock(model)) {
            /* stock e1000e: stores PBA verbatim, TXA is not derived */
            g_assert_cmpuint(v >> PBA_TXA_SHIFT, ==, 0);
            continue;
        }
        /* Then: TXA reads back the rest of the 40 KB buffer */
        g_assert_cmpuint(v >> PBA_TXA_SHIFT, ==, PBA_TOTAL_KB - rxa[i]);
    }
    epp_stop(d);
}

/*
 * PCI PM capability: PME can be signalled from D3hot and D3cold, which is
 * what lets Linux enable runtime PM for the function.
 * stock e1000e: advertises no PME support at all.  Asserted as such.
 */
static void pm_capability_advertises_pme(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t pm = qpci_find_capability(d->pdev, 0x01, 0);
    uint16_t pmc, pmcsr;

    /* Given: the PM capability */
    g_assert_cmphex(pm, !=, 0);
    pmc = qpci_config_readw(d->pdev, pm + PCI_PM_PMC);
    pmcsr = qpci_config_readw(d->pdev, pm + PCI_PM_CTRL);
    g_test_message("PMC=0x%04x PMCSR=0x%04x", pmc, pmcsr);

    /* Then: PME_Support covers D3hot and D3cold (PMC bits 14, 15) */
    g_assert_cmphex(pmc & (PCI_PM_CAP_PME_D3hot | PCI_PM_CAP_PME_D3cold), ==,
                    epp_is_stock(model) ? 0 :
                    PCI_PM_CAP_PME_D3hot | PCI_PM_CAP_PME_D3cold);

    /* Then: the function starts in D0 */
    g_assert_cmphex(pmcsr & PCI_PM_CTRL_STATE_MASK, ==, 0);
    epp_stop(d);
}

static void pm_d3hot_answers_all_ones_and_resets_on_d0(const char *model)
{
    EppDev *d;
    uint8_t pm;
    uint32_t bars[4];
    uint16_t cmd;
    int i;

    d = epp_start(model, NULL);
    epp_bring_up(d, &epp_default_config);
    pm = qpci_find_capability(d->pdev, 0x01, 0);
    epp_wr(d, RCTL, RCTL_EN);
    /* The driver saves its configuration first (pci_save_state) */
    cmd = qpci_config_readw(d->pdev, PCI_COMMAND);
    for (i = 0; i < 4; i++) {
        bars[i] = qpci_config_readl(d->pdev, PCI_BASE_ADDRESS_0 + 4 * i);
    }

    /* When: the driver puts the function in D3hot */
    qpci_config_writew(d->pdev, pm + PCI_PM_CTRL, 3);

    if (epp_on_stock(model, "pci_pm_init unmaps the BARs outside D0: reads "
                 "answer 0, nothing is counted, and D3hot->D0 keeps the "
                 "function's state")) {
        /* Then: nothing answers the read; the write goes nowhere */
        g_assert_cmphex(epp_rd(d, STATUS), ==, 0);
        epp_wr(d, RCTL, 0);
        g_assert_false(epp_qom_has(d, "pm-violations"));

        /* When: back to D0; Then: no reset, configuration space kept */
        qpci_config_writew(d->pdev, pm + PCI_PM_CTRL, 0);
        g_assert_cmphex(qpci_config_readw(d->pdev, PCI_COMMAND), ==, cmd);
        g_assert_cmphex(qpci_config_readl(d->pdev, PCI_BASE_ADDRESS_0), ==,
                        bars[0]);
        g_assert_cmphex(epp_rd(d, RCTL), ==, RCTL_EN);
        epp_stop(d);
        return;
    }

    /* Then: MMIO reads answer all-ones, writes are dropped, both counted */
    g_assert_cmphex(epp_rd(d, STATUS), ==, 0xffffffff);
    epp_wr(d, RCTL, 0);
    g_assert_cmpuint(epp_qom_u64(d, "pm-violations"), ==, 2);

    /* When: it comes back to D0 (PMCSR.No_Soft_Reset = 0) */
    qpci_config_writew(d->pdev, pm + PCI_PM_CTRL, 0);

    /* Then: the configuration space was lost (PCI PM 1.2 §5.4)... */
    g_assert_cmphex(qpci_config_readw(d->pdev, PCI_COMMAND) &
                    (PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER), ==, 0);
    g_assert_cmphex(qpci_config_readl(d->pdev, PCI_BASE_ADDRESS_0) &
                    PCI_BASE_ADDRESS_MEM_MASK, ==, 0);
    /* ...and the driver restores it (pci_restore_state) */
    for (i = 0; i < 4; i++) {
        qpci_config_writel(d->pdev, PCI_BASE_ADDRESS_0 + 4 * i, bars[i]);
    }
    qpci_config_writew(d->pdev, PCI_COMMAND, cmd);

    /* Then: the function was reset: RCTL is 0 and the NVM reloads */
    g_assert_cmphex(epp_rd(d, RCTL), ==, 0);
    g_assert_cmphex(epp_rd(d, EECD) & EECD_AUTO_RD, ==, 0);
    epp_wait_reg(d, EECD, EECD_AUTO_RD, EECD_AUTO_RD,
                 10 * EPP_NS_PER_MS);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(pci_identity),
    EPP_SCENARIO(pm_capability_advertises_pme),
    EPP_SCENARIO(pm_d3hot_answers_all_ones_and_resets_on_d0),
    EPP_SCENARIO(nvm_mac_and_checksum),
    EPP_SCENARIO(reset_sets_auto_rd),
    EPP_SCENARIO(pba_split),
    EPP_SCENARIO(prop_mac_sets_ral_rah_and_nvm),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
