/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small 82574L driver for qtests: bring-up script plus verbs.
 *
 * The bring-up follows the 82574L datasheet, §4.6 "Software
 * Initialization Sequence", and the order the Linux e1000e driver uses
 * for the 82574 (e1000_reset_hw_82571, e1000_configure_tx/rx).  The
 * data-path verbs are in e1000e-pp-drv-io.c.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci-pc.h"
#include "libqos/malloc-pc.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"

/* PCI slot of the device under test on the q35 root bus */
#define EPP_SLOT            4

const uint8_t epp_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

const EppConfig epp_default_config = {
    .rx_extended = false,
    .keep_crc = false,
    .rctl_bsize = RCTL_BSIZE_2048,
    .ims = 0,
};

/* Statistics registers the driver clears at bring-up (§10.2.7) */
static const uint32_t epp_stats_regs[] = {
    0x4000, 0x4004, 0x4008, 0x400c, 0x4010, 0x4014, 0x4018, 0x401c,
    0x4020, 0x4028, 0x4030, 0x4034, 0x4038, 0x403c, 0x4040, 0x4048,
    0x404c, 0x4050, 0x4054, 0x4058, 0x405c, 0x4060, 0x4064, 0x4068,
    0x406c, 0x4070, 0x4074, 0x4078, 0x407c, 0x4080, 0x4088, 0x408c,
    0x4090, 0x4094, 0x40a0, 0x40a4, 0x40a8, 0x40ac, 0x40b0, 0x40b4,
    0x40b8, 0x40bc, 0x40c0, 0x40c4, 0x40c8, 0x40cc, 0x40d0, 0x40d4,
    0x40d8, 0x40dc, 0x40e0, 0x40e4, 0x40e8, 0x40ec, 0x40f0, 0x40f4,
    0x40f8, 0x40fc, 0x4100, 0x4104, 0x4108, 0x410c, 0x4110, 0x4118,
    0x411c, 0x4120, 0x4124,
};

/* ---------------------------------------------------------------- */
/* Life cycle                                                       */
/* ---------------------------------------------------------------- */

EppDev *epp_start(const char *model, const char *extra_args)
{
    return epp_start_dev(model, NULL, extra_args);
}

EppDev *epp_start_dev(const char *model, const char *dev_props,
                      const char *extra_args)
{
    return epp_start_pre(model, dev_props, NULL, extra_args);
}

EppDev *epp_start_pre(const char *model, const char *dev_props,
                      const char *pre_args, const char *extra_args)
{
    EppDev *d = g_new0(EppDev, 1);
    g_autofree char *props = NULL;
    uint16_t vendor, device;
    int ret;

    d->model = model;
    ret = socketpair(AF_UNIX, SOCK_STREAM, 0, d->sock);
    g_assert_cmpint(ret, ==, 0);

    /* Our MAC unless the scenario gives its own */
    if (!dev_props) {
        props = g_strdup("mac=" EPP_MAC_STR);
    } else if (!strstr(dev_props, "mac=")) {
        props = g_strdup_printf("mac=" EPP_MAC_STR ",%s", dev_props);
    } else {
        props = g_strdup(dev_props);
    }

    /*
     * q35 with nothing but the device under test on the root bus: libqos
     * config access reaches bus 0 only.  romfile= keeps option ROMs out;
     * the netdev is the QEMU end of our socketpair.
     */
    d->qts = qtest_initf("-M q35 -nodefaults -L /usr/share/seabios %s "
                         "-netdev socket,fd=%d,id=hs0 "
                         "-device %s,id=" EPP_DEV_ID ",netdev=hs0,%s,"
                         "romfile=,addr=0x%x "
                         "%s",
                         pre_args ? pre_args : "", d->sock[1], model, props,
                         EPP_SLOT, extra_args ? extra_args : "");

    pc_alloc_init(&d->alloc, d->qts, ALLOC_NO_FLAGS);
    d->bus = qpci_new_pc(d->qts, NULL);
    d->pdev = qpci_device_find(d->bus, QPCI_DEVFN(EPP_SLOT, 0));
    g_assert(d->pdev != NULL);

    vendor = qpci_config_readw(d->pdev, PCI_VENDOR_ID);
    device = qpci_config_readw(d->pdev, PCI_DEVICE_ID);
    g_assert_cmphex(vendor, ==, EPP_VENDOR_INTEL);
    g_assert_cmphex(device, ==, EPP_DEVICE_82574L);

    /* Memory and I/O decode plus bus mastering; INTx stays enabled */
    qpci_device_enable(d->pdev);
    d->mmio = qpci_iomap(d->pdev, 0, NULL);

    d->tx_ring = guest_alloc(&d->alloc, EPP_RING_COUNT * EPP_DESC_LEN);
    d->rx = epp_rx_ring_new(d, guest_alloc(&d->alloc, EPP_RING_COUNT *
                                           EPP_DESC_LEN), EPP_RING_COUNT);
    g_assert(d->tx_ring != 0 && d->rx->ring != 0);
    return d;
}

void epp_stop(EppDev *d)
{
    qtest_quit(d->qts);
    close(d->sock[0]);
    close(d->sock[1]);
    g_free(d->pdev);
    qpci_free_pc(d->bus);
    alloc_destroy(&d->alloc);
    epp_rx_ring_free(d->rx);
    g_free(d);
}

/* ---------------------------------------------------------------- */
/* Registers                                                        */
/* ---------------------------------------------------------------- */

uint32_t epp_rd(EppDev *d, uint32_t reg)
{
    return qpci_io_readl(d->pdev, d->mmio, reg);
}

void epp_wr(EppDev *d, uint32_t reg, uint32_t val)
{
    qpci_io_writel(d->pdev, d->mmio, reg, val);
}

/* Registers the dump shows, by datasheet name */
static const struct {
    const char *name;
    uint32_t reg;
} epp_dump_set[] = {
    { "CTRL", CTRL }, { "STATUS", STATUS }, { "EECD", EECD },
    { "CTRL_EXT", CTRL_EXT }, { "IMS", IMS }, { "IVAR", IVAR },
    { "RCTL", RCTL }, { "RFCTL", RFCTL }, { "RDLEN", RDLEN0 },
    { "RDH", RDH0 }, { "RDT", RDT0 }, { "TCTL", TCTL },
    { "TDLEN", TDLEN0 }, { "TDH", TDH0 }, { "TDT", TDT0 },
    { "PBA", PBA }, { "MPC", MPC }, { "GPRC", GPRC }, { "GPTC", GPTC },
};

static const char *epp_reg_name(uint32_t reg)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(epp_dump_set); i++) {
        if (epp_dump_set[i].reg == reg) {
            return epp_dump_set[i].name;
        }
    }
    return "register";
}

/*
 * The register dump printed before any timeout failure.  ICR is not read
 * (that would clear it); IMS shows which causes are enabled.  MPC, GPRC and
 * GPTC are read-clear: the dump consumes them, which is fine because it
 * only runs right before the test fails.
 */
void epp_dump_regs(EppDev *d, const char *why)
{
    GString *s = g_string_new(NULL);
    size_t i;

    g_string_append_printf(s, "%s on %s at virtual %" PRId64 " ns:",
                           why, d->model, d->now_ns);
    for (i = 0; i < ARRAY_SIZE(epp_dump_set); i++) {
        g_string_append_printf(s, "%s%s=0x%08x", i % 5 ? " " : "\n  ",
                               epp_dump_set[i].name,
                               epp_rd(d, epp_dump_set[i].reg));
    }
    g_test_message("%s", s->str);
    g_string_free(s, true);
}

void epp_expect_reg(EppDev *d, const char *name, uint32_t reg,
                    uint32_t mask, uint32_t value, const char *file,
                    int line)
{
    uint32_t v = epp_rd(d, reg);
    g_autofree char *what = NULL;

    if ((v & mask) == value) {
        return;
    }
    what = g_strdup_printf("%s:%d: %s = 0x%08x, & 0x%08x expected 0x%08x",
                           file, line, name, v, mask, value);
    epp_dump_regs(d, what);
    g_error("%s on %s", what, d->model);
}

/* ---------------------------------------------------------------- */
/* Waiting in virtual time                                          */
/* ---------------------------------------------------------------- */

/* qtest's clock_step refuses 0 ns, so the driver keeps the time itself */
void epp_step(EppDev *d, uint64_t ns)
{
    g_assert(ns > 0);
    d->now_ns = qtest_clock_step(d->qts, ns);
}

void epp_wait_until(EppDev *d, EppCond cond, void *opaque,
                    uint64_t step_ns, uint64_t budget_ns,
                    const char *what)
{
    uint64_t waited = 0;

    g_assert(step_ns > 0);
    for (;;) {
        if (cond(d, opaque)) {
            return;
        }
        if (waited >= budget_ns) {
            break;
        }
        epp_step(d, step_ns);
        waited += step_ns;
    }
    epp_dump_regs(d, what);
    g_error("%s: not reached within %" PRIu64 " ns of virtual time on %s",
            what, budget_ns, d->model);
}

typedef struct RegCond {
    uint32_t reg, mask, value;
} RegCond;

static bool reg_cond(EppDev *d, void *opaque)
{
    RegCond *c = opaque;

    return (epp_rd(d, c->reg) & c->mask) == c->value;
}

void epp_wait_reg(EppDev *d, uint32_t reg, uint32_t mask,
                  uint32_t value, uint64_t budget_ns)
{
    RegCond c = { reg, mask, value };
    g_autofree char *what = g_strdup_printf(
        "%s (0x%05x) & 0x%08x == 0x%08x", epp_reg_name(reg), reg, mask,
        value);
    uint64_t step = MAX(budget_ns / 1000, EPP_NS_PER_US);

    epp_wait_until(d, reg_cond, &c, step, budget_ns, what);
}

void epp_wait_link_up(EppDev *d)
{
    epp_wait_reg(d, STATUS, STATUS_LU, STATUS_LU, EPP_LINK_BUDGET_NS);
}

void epp_watch_intx(EppDev *d)
{
    if (!d->intx_watched) {
        qtest_irq_intercept_in(d->qts, "ioapic");
        d->intx_watched = true;
    }
}

int epp_intx_pin(EppDev *d)
{
    int pin, high = -1;

    g_assert(d->intx_watched);
    /*
     * PCI INTx reaches the IOAPIC through PIRQA-H on inputs 16-23; the
     * ISA inputs below (the PIT on input 0, ...) toggle on their own.
     */
    for (pin = 16; pin < 24; pin++) {
        if (qtest_get_irq(d->qts, pin)) {
            g_assert_cmpint(high, ==, -1);
            high = pin;
        }
    }
    return high;
}

static bool intx_asserted(EppDev *d, void *opaque)
{
    return epp_intx_pin(d) >= 0;
}

int epp_wait_intx(EppDev *d, uint64_t budget_ns)
{
    epp_wait_until(d, intx_asserted, NULL, MAX(budget_ns / 1000, 1000),
                   budget_ns, "INTx asserted");
    return epp_intx_pin(d);
}

static bool msix_pending(EppDev *d, void *opaque)
{
    return qpci_msix_pending(d->pdev, *(uint16_t *)opaque);
}

void epp_wait_msix_pending(EppDev *d, uint16_t vector,
                           uint64_t budget_ns)
{
    g_autofree char *what = g_strdup_printf("MSI-X vector %u pending",
                                            vector);

    epp_wait_until(d, msix_pending, &vector,
                   MAX(budget_ns / 1000, 1000), budget_ns, what);
}

void epp_msi_enable(EppDev *d, uint64_t addr, uint16_t data)
{
    uint8_t cap = qpci_find_capability(d->pdev, PCI_CAP_ID_MSI, 0);
    uint16_t flags;

    g_assert(cap != 0);
    flags = qpci_config_readw(d->pdev, cap + PCI_MSI_FLAGS);
    qpci_config_writel(d->pdev, cap + PCI_MSI_ADDRESS_LO, (uint32_t)addr);
    if (flags & PCI_MSI_FLAGS_64BIT) {
        qpci_config_writel(d->pdev, cap + PCI_MSI_ADDRESS_HI, addr >> 32);
        qpci_config_writew(d->pdev, cap + PCI_MSI_DATA_64, data);
    } else {
        g_assert(addr >> 32 == 0);
        qpci_config_writew(d->pdev, cap + PCI_MSI_DATA_32, data);
    }
    /* One message: Multiple Message Enable stays 0 */
    qpci_config_writew(d->pdev, cap + PCI_MSI_FLAGS,
                       (flags & ~PCI_MSI_FLAGS_QSIZE) | PCI_MSI_FLAGS_ENABLE);
}

void epp_msix_vector_to_ram(EppDev *d, uint16_t vector, uint64_t addr,
                            uint32_t data)
{
    uint64_t entry = d->pdev->msix_table_off + vector * PCI_MSIX_ENTRY_SIZE;
    QPCIBar bar = d->pdev->msix_table_bar;

    g_assert(d->pdev->msix_enabled);
    qpci_io_writel(d->pdev, bar, entry + PCI_MSIX_ENTRY_LOWER_ADDR,
                   (uint32_t)addr);
    qpci_io_writel(d->pdev, bar, entry + PCI_MSIX_ENTRY_UPPER_ADDR,
                   addr >> 32);
    qpci_io_writel(d->pdev, bar, entry + PCI_MSIX_ENTRY_DATA, data);
    qpci_io_writel(d->pdev, bar, entry + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
}

/* ---------------------------------------------------------------- */
/* Reset, NVM, PHY                                                  */
/* ---------------------------------------------------------------- */

/*
 * Global reset the way the Linux driver does it for the 82574
 * (e1000_reset_hw_82571), each step bounded in virtual time.
 */
void epp_global_reset(EppDev *d)
{
    int i;

    /* 1. Stop new bus-master requests; wait for GIO_MASTER_ENABLE to drop */
    epp_wr(d, CTRL, epp_rd(d, CTRL) | CTRL_GIO_MASTER_DIS);
    epp_wait_reg(d, STATUS, STATUS_GIO_MASTER_EN, 0,
                 80 * EPP_NS_PER_MS);

    /* 2. Mask every cause, stop Rx and Tx, let in-flight DMA finish */
    epp_wr(d, IMC, 0xffffffff);
    epp_wr(d, RCTL, 0);
    epp_wr(d, TCTL, epp_rd(d, TCTL) & ~TCTL_EN);
    epp_rd(d, STATUS);
    epp_step(d, 10 * EPP_NS_PER_MS);

    /* 3. Claim MDIO ownership, then CTRL.RST (self-clearing) */
    epp_wr(d, EXTCNF_CTRL,
           epp_rd(d, EXTCNF_CTRL) | EXTCNF_CTRL_MDIO_SW_OWNERSHIP);
    epp_wr(d, CTRL, epp_rd(d, CTRL) | CTRL_RST);
    epp_wr(d, EXTCNF_CTRL,
           epp_rd(d, EXTCNF_CTRL) & ~EXTCNF_CTRL_MDIO_SW_OWNERSHIP);

    /*
     * 4. EECD.AUTO_RD: the driver polls only ten times, 1-2 ms apart; the
     * shortest spacing (1 ms) is the strictest bound, so use it.
     */
    for (i = 0; i < 10; i++) {
        if (epp_rd(d, EECD) & EECD_AUTO_RD) {
            break;
        }
        epp_step(d, EPP_NS_PER_MS);
    }
    if (i == 10) {
        epp_dump_regs(d, "EECD.AUTO_RD after CTRL.RST");
        g_error("EECD.AUTO_RD not set within 10 polls 1 ms apart on %s",
                d->model);
    }

    /* 5. PHY configuration from NVM runs after AUTO_RD: 25 ms */
    epp_step(d, 25 * EPP_NS_PER_MS);

    /* 6. Clear whatever the reset left pending */
    epp_wr(d, IMC, 0xffffffff);
    epp_rd(d, ICR);
}

/* Write a command register, then poll it until `bit` is set */
typedef struct RegPoll {
    uint32_t reg, bit, val;
} RegPoll;

static bool reg_bit_set(EppDev *d, void *opaque)
{
    RegPoll *p = opaque;

    p->val = epp_rd(d, p->reg);
    return p->val & p->bit;
}

static uint32_t command_and_poll(EppDev *d, uint32_t reg, uint32_t cmd,
                                 uint32_t bit, uint64_t step_ns,
                                 uint64_t budget_ns, const char *what)
{
    RegPoll p = { .reg = reg, .bit = bit };

    epp_wr(d, reg, cmd);
    epp_wait_until(d, reg_bit_set, &p, step_ns, budget_ns, what);
    return p.val;
}

uint16_t epp_nvm_read(EppDev *d, uint16_t word)
{
    /* The driver polls EERD.DONE every 5 us */
    return command_and_poll(d, EERD, (word << EERD_ADDR_SHIFT) | EERD_START,
                            EERD_DONE, 5 * EPP_NS_PER_US, 10 * EPP_NS_PER_MS,
                            "EERD.DONE") >> EERD_DATA_SHIFT;
}

uint32_t epp_mdic(EppDev *d, uint32_t cmd)
{
    /* The driver polls MDIC.READY every 50 us, 640 times at most */
    return command_and_poll(d, MDIC, cmd, MDIC_READY, 50 * EPP_NS_PER_US,
                            640 * 50 * EPP_NS_PER_US, "MDIC.READY");
}

/* The 82574L's internal PHY answers at MDIO address 1 */
#define EPP_PHY_ADDR        1

uint16_t epp_phy_read(EppDev *d, uint8_t reg)
{
    uint32_t v = epp_mdic(d, MDIC_OP_READ |
                          (EPP_PHY_ADDR << MDIC_PHYADD_SHIFT) |
                          ((uint32_t)reg << MDIC_REGADD_SHIFT));

    g_assert_cmphex(v & MDIC_ERROR, ==, 0);
    return v & MDIC_DATA_MASK;
}

void epp_phy_write(EppDev *d, uint8_t reg, uint16_t val)
{
    uint32_t v = epp_mdic(d, MDIC_OP_WRITE |
                          (EPP_PHY_ADDR << MDIC_PHYADD_SHIFT) |
                          ((uint32_t)reg << MDIC_REGADD_SHIFT) | val);

    g_assert_cmphex(v & MDIC_ERROR, ==, 0);
}

/* ---------------------------------------------------------------- */
/* Bring-up: 82574L §4.6, in datasheet order                         */
/* ---------------------------------------------------------------- */

/*
 * A ring's five registers sit at the same offsets from its base (BAL)
 * for Rx and Tx (§10.2.5, §10.2.6): BAH +4, LEN +8, head +0x10, tail
 * +0x18.  Empty: head = tail = 0.
 */
static void ring_setup(EppDev *d, uint32_t bal, uint64_t ring)
{
    QEMU_BUILD_BUG_ON(RDBAH0 - RDBAL0 != 0x04 || TDBAH0 - TDBAL0 != 0x04);
    QEMU_BUILD_BUG_ON(RDLEN0 - RDBAL0 != 0x08 || TDLEN0 - TDBAL0 != 0x08);
    QEMU_BUILD_BUG_ON(RDH0 - RDBAL0 != 0x10 || TDH0 - TDBAL0 != 0x10);
    QEMU_BUILD_BUG_ON(RDT0 - RDBAL0 != 0x18 || TDT0 - TDBAL0 != 0x18);
    epp_wr(d, bal, (uint32_t)ring);
    epp_wr(d, bal + 0x04, (uint32_t)(ring >> 32));
    epp_wr(d, bal + 0x08, EPP_RING_COUNT * EPP_DESC_LEN);
    epp_wr(d, bal + 0x10, 0);
    epp_wr(d, bal + 0x18, 0);
}

void epp_bring_up(EppDev *d, const EppConfig *cfg)
{
    uint32_t rctl;
    size_t i;

    /* §4.6.1 Interrupts off while initialising */
    epp_wr(d, IMC, 0xffffffff);

    /* §4.6.2 Global reset; waits for EECD.AUTO_RD; interrupts off again */
    epp_global_reset(d);

    /* §4.6.3 No flow control: FCAL/FCAH/FCT/FCTTV zero */
    epp_wr(d, FCAL, 0);
    epp_wr(d, FCAH, 0);
    epp_wr(d, FCT, 0);
    epp_wr(d, FCTTV, 0);

    /*
     * §4.6.4 Link: copper with the internal PHY auto-negotiating.  SLU
     * lets the MAC follow the PHY; speed and duplex are not forced.
     */
    epp_wr(d, CTRL, (epp_rd(d, CTRL) | CTRL_SLU) &
           ~(CTRL_FRCSPD | CTRL_FRCDPX));
    epp_wait_link_up(d);

    /* §4.6.5 Statistics: every counter is read-clear */
    for (i = 0; i < ARRAY_SIZE(epp_stats_regs); i++) {
        epp_rd(d, epp_stats_regs[i]);
    }

    /* §4.6.6 Receive: address filter, ring, then RCTL.EN last */
    epp_wr(d, RAL0, ldl_le_p(epp_mac));
    epp_wr(d, RAH0, lduw_le_p(epp_mac + 4) | RAH_AV);
    for (i = 0; i < 128; i++) {
        epp_wr(d, MTA + 4 * i, 0);
    }
    ring_setup(d, RDBAL0, d->rx->ring);
    epp_rx_ring_reset(d->rx, cfg->rx_extended ? EPP_RXF_EXTENDED :
                      EPP_RXF_LEGACY);
    epp_wr(d, RDTR, 0);
    epp_wr(d, RADV, 0);
    epp_wr(d, ITR, 0);
    epp_wr(d, RFCTL, cfg->rx_extended ? RFCTL_EXTEN : 0);
    rctl = RCTL_EN | RCTL_BAM | cfg->rctl_bsize;
    if (!cfg->keep_crc) {
        rctl |= RCTL_SECRC;
    }
    epp_wr(d, RCTL, rctl);

    /* §4.6.7 Transmit: ring, IPG, then TCTL.EN */
    ring_setup(d, TDBAL0, d->tx_ring);
    d->tx_tail = 0;
    epp_wr(d, TIDV, 0);
    epp_wr(d, TADV, 0);
    /* IPGT 8, IPGR1 8, IPGR2 6: the copper values the driver uses */
    epp_wr(d, TIPG, 8 | (8 << 10) | (6 << 20));
    epp_wr(d, TCTL, TCTL_EN | TCTL_PSP | (0x0f << TCTL_CT_SHIFT) |
           (0x3f << TCTL_COLD_SHIFT));

    /* The driver owns the device from here on */
    epp_wr(d, CTRL_EXT, epp_rd(d, CTRL_EXT) | CTRL_EXT_DRV_LOAD);

    /* Enable interrupts last */
    if (cfg->ims) {
        epp_wr(d, IMS, cfg->ims);
    }
}
