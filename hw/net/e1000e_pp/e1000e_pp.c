/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp: QEMU adapter for the 82574L device core.
 *
 * Everything PCI lives here: the QOM type, configuration space and its
 * capabilities (PM, MSI, PCIe, MSI-X, AER, DSN), the four BARs, the
 * netdev, timers and DMA. The device behaviour is in core/, which sees
 * QEMU only through the E1000EPPPlatform callbacks below.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/eth.h"
#include "system/dma.h"
#include "system/replay.h"
#include "system/system.h"
#include "trace.h"

#include "e1000e_pp.h"

/* BAR layout of the 82574L (datasheet: PCI configuration space). */
#define BAR_MMIO            0
#define BAR_FLASH           1
#define BAR_IO              2
#define BAR_MSIX            3
#define MMIO_SIZE           (128 * KiB)
#define FLASH_SIZE          (128 * KiB)
#define IO_SIZE             32
#define MSIX_SIZE           (16 * KiB)
#define MSIX_TABLE_OFFSET   0x0000
#define MSIX_PBA_OFFSET     0x2000

/* ---- timers ---- */

static void e1000e_pp_timer_cb(void *opaque)
{
    TimerSlot *slot = opaque;

    /* Timers run from the main loop, never inside a core step. */
    assert(!slot->s->core.depth);
    e1000e_pp_timer_fired(&slot->s->core, slot->id);
}

static void e1000e_pp_flush_bh(void *opaque)
{
    E1000EPPState *s = opaque;

    qemu_flush_queued_packets(qemu_get_queue(s->nic));
}

/* ---- BARs: the core answers, D3hot and nested accesses included ---- */

static uint64_t e1000e_pp_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    return e1000e_pp_read(&((E1000EPPState *)opaque)->core, addr);
}

static void e1000e_pp_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                                 unsigned size)
{
    e1000e_pp_write(&((E1000EPPState *)opaque)->core, addr, val);
}

static const MemoryRegionOps e1000e_pp_mmio_ops = {
    .read = e1000e_pp_mmio_read,
    .write = e1000e_pp_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static uint64_t e1000e_pp_ioport_read(void *opaque, hwaddr addr,
                                      unsigned size)
{
    return e1000e_pp_io_read(&((E1000EPPState *)opaque)->core, addr);
}

static void e1000e_pp_ioport_write(void *opaque, hwaddr addr, uint64_t val,
                                   unsigned size)
{
    e1000e_pp_io_write(&((E1000EPPState *)opaque)->core, addr, val);
}

static const MemoryRegionOps e1000e_pp_io_ops = {
    .read = e1000e_pp_ioport_read,
    .write = e1000e_pp_ioport_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/* ---- netdev ---- */

static bool e1000e_pp_nc_can_receive(NetClientState *nc)
{
    E1000EPPState *s = qemu_get_nic_opaque(nc);

    return e1000e_pp_can_receive(&s->core);
}

static ssize_t e1000e_pp_nc_receive(NetClientState *nc, const uint8_t *buf,
                                    size_t size)
{
    E1000EPPState *s = qemu_get_nic_opaque(nc);

    return e1000e_pp_receive(&s->core, buf, size) ? size : 0;
}

static void e1000e_pp_nc_link_status_changed(NetClientState *nc)
{
    E1000EPPState *s = qemu_get_nic_opaque(nc);

    e1000e_pp_set_link(&s->core, !nc->link_down);
}

static NetClientInfo e1000e_pp_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = e1000e_pp_nc_can_receive,
    .receive = e1000e_pp_nc_receive,
    .link_status_changed = e1000e_pp_nc_link_status_changed,
};

/* ---- PCI configuration space ---- */

/*
 * PCI PM capability, added by hand rather than with pci_pm_init(): that
 * helper unmaps the BARs outside D0, so the device would never see (and
 * could not count) the accesses a driver makes while it sleeps.
 */
static void e1000e_pp_add_pm_cap(PCIDevice *d, Error **errp)
{
    int off = pci_add_capability(d, PCI_CAP_ID_PM, CAP_PM, PCI_PM_SIZEOF,
                                 errp);

    if (off < 0) {
        return;
    }
    /* Version 1.2, PME from D0, D3hot and D3cold, DSI (PCI PM capability). */
    pci_set_word(d->config + off + PCI_PM_PMC,
                 0x3 | PCI_PM_CAP_DSI | PCI_PM_CAP_PME_D0 |
                 PCI_PM_CAP_PME_D3hot | PCI_PM_CAP_PME_D3cold);
    pci_set_word(d->wmask + off + PCI_PM_CTRL,
                 PCI_PM_CTRL_STATE_MASK | PCI_PM_CTRL_PME_ENABLE);
    pci_set_word(d->w1cmask + off + PCI_PM_CTRL, PCI_PM_CTRL_PME_STATUS);
}

/*
 * D3hot -> D0 with No_Soft_Reset = 0 (PCI PM 1.2 §5.4): the function
 * loses its configuration — command register, BARs, MSI and MSI-X — and
 * the driver must restore it, as Linux's pci_restore_state does. PME_En
 * and PME_Status are sticky and stay.
 */
static void e1000e_pp_config_reset(PCIDevice *d)
{
    int i;

    trace_e1000e_pp_config_reset();
    pci_default_write_config(d, PCI_COMMAND, 0, 2);
    for (i = 0; i < PCI_NUM_REGIONS - 1; i++) {
        pci_default_write_config(d, PCI_BASE_ADDRESS_0 + 4 * i, 0, 4);
    }
    msi_reset(d);
    msix_reset(d);
}

/* PMCSR written: PME_En and the power state go to the core. */
static void e1000e_pp_pm_transition(PCIDevice *d)
{
    E1000EPPState *s = E1000E_PP(d);
    uint16_t pmcsr = pci_get_word(d->config + CAP_PM + PCI_PM_CTRL);
    unsigned from = s->core.arch.power, state;

    e1000e_pp_pme_enable(&s->core, pmcsr & PCI_PM_CTRL_PME_ENABLE);
    state = e1000e_pp_power_set(&s->core, pmcsr & PCI_PM_CTRL_STATE_MASK);
    pci_set_word(d->config + CAP_PM + PCI_PM_CTRL,
                 (pmcsr & ~PCI_PM_CTRL_STATE_MASK) | state);
    if (from == E1000E_PP_D3HOT && state == E1000E_PP_D0) {
        e1000e_pp_config_reset(d);
    }
}

static void e1000e_pp_write_config(PCIDevice *d, uint32_t addr, uint32_t val,
                                   int len)
{
    E1000EPPState *s = E1000E_PP(d);

    pci_default_write_config(d, addr, val, len);
    if (range_covers_byte(addr, len, PCI_COMMAND)) {
        e1000e_pp_bus_master(&s->core,
                             d->config[PCI_COMMAND] & PCI_COMMAND_MASTER);
    }
    if (ranges_overlap(addr, len, CAP_PM + PCI_PM_CTRL, 2)) {
        e1000e_pp_pm_transition(d);
    }
    if (ranges_overlap(addr, len, CAP_MSI, 24) ||
        ranges_overlap(addr, len, CAP_MSIX, 12)) {
        e1000e_pp_irq_update(&s->core);
    }
}

/* The DSN the 82574L builds from its MAC: OUI, FF-FF, then the NIC part. */
static uint64_t e1000e_pp_dsn(const uint8_t *mac)
{
    return (uint64_t)mac[0] << 56 | (uint64_t)mac[1] << 48 |
           (uint64_t)mac[2] << 40 | 0xffffull << 24 |
           (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];
}

static void e1000e_pp_realize(PCIDevice *d, Error **errp)
{
    E1000EPPState *s = E1000E_PP(d);
    E1000EPPConfig cfg;
    int i;

    /* The 82574L's RAL0/RAH0 and NVM words 0-2 hold a station address. */
    if (is_multicast_ether_addr(s->conf.macaddr.a)) {
        error_setg(errp, "Property 'mac' takes a unicast address (bit 0 of "
                   "the first byte clear)");
        return;
    }
    if (!e1000e_pp_knob_channel_realize(s, errp)) {
        return;
    }

    d->config_write = e1000e_pp_write_config;
    d->config[PCI_CACHE_LINE_SIZE] = 0x10;
    d->config[PCI_INTERRUPT_PIN] = 1;
    pci_set_word(d->config + PCI_SUBSYSTEM_VENDOR_ID, PCI_VENDOR_ID_INTEL);
    pci_set_word(d->config + PCI_SUBSYSTEM_ID, 0);

    memory_region_init_io(&s->mmio, OBJECT(s), &e1000e_pp_mmio_ops, s,
                          "e1000e-pp-mmio", MMIO_SIZE);
    pci_register_bar(d, BAR_MMIO, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->mmio);
    /* The 82574L has no flash of its own behind BAR1; it reads as RAM-less. */
    memory_region_init(&s->flash, OBJECT(s), "e1000e-pp-flash", FLASH_SIZE);
    pci_register_bar(d, BAR_FLASH, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->flash);
    memory_region_init_io(&s->io, OBJECT(s), &e1000e_pp_io_ops, s,
                          "e1000e-pp-io", IO_SIZE);
    pci_register_bar(d, BAR_IO, PCI_BASE_ADDRESS_SPACE_IO, &s->io);
    memory_region_init(&s->msix, OBJECT(s), "e1000e-pp-msix", MSIX_SIZE);
    pci_register_bar(d, BAR_MSIX, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->msix);

    if (msix_init(d, E1000E_PP_MSIX_VECTORS, &s->msix, BAR_MSIX,
                  MSIX_TABLE_OFFSET, &s->msix, BAR_MSIX, MSIX_PBA_OFFSET,
                  CAP_MSIX, errp) < 0) {
        return;
    }
    for (i = 0; i < E1000E_PP_MSIX_VECTORS; i++) {
        msix_vector_use(d, i);
    }
    if (pcie_endpoint_cap_v1_init(d, CAP_PCIE) < 0) {
        error_setg(errp, "e1000e-pp: cannot add the PCIe capability");
        return;
    }
    if (msi_init(d, CAP_MSI, 1, true, false, errp) < 0) {
        return;
    }
    e1000e_pp_add_pm_cap(d, errp);
    if (*errp) {
        return;
    }
    if (pcie_aer_init(d, PCI_ERR_VER, EXTCAP_AER, PCI_ERR_SIZEOF, errp) < 0) {
        return;
    }
    qemu_macaddr_default_if_unset(&s->conf.macaddr);
    pcie_dev_ser_num_init(d, EXTCAP_DSN, e1000e_pp_dsn(s->conf.macaddr.a));

    s->nic = qemu_new_nic(&e1000e_pp_net_info, &s->conf,
                          object_get_typename(OBJECT(s)), DEVICE(s)->id,
                          &DEVICE(s)->mem_reentrancy_guard, s);
    qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);

    for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
        s->timer_slots[i].s = s;
        s->timer_slots[i].id = i;
        s->timers[i] = timer_new_ns(QEMU_CLOCK_VIRTUAL, e1000e_pp_timer_cb,
                                    &s->timer_slots[i]);
    }
    s->flush_bh = qemu_bh_new_guarded(e1000e_pp_flush_bh, s,
                                      &DEVICE(s)->mem_reentrancy_guard);
    e1000e_pp_vmstate_realize(s);
    /*
     * The properties set the core's configuration before realize; it is
     * taken out for core_init, which clears the core and puts it back.
     */
    cfg = s->core.cfg;
    memcpy(cfg.mac, s->conf.macaddr.a, sizeof(cfg.mac));
    e1000e_pp_core_init(&s->core, &e1000e_pp_platform, s, &cfg);
    if (cfg.reset_ns > E1000E_PP_RESET_NS_DRIVER_MAX) {
        warn_report("e1000e-pp: x-reset-delay-ns=%" PRIu64 " is beyond what "
                    "Linux waits for EECD.AUTO_RD: this exercises the "
                    "driver's reset-failure path", cfg.reset_ns);
    }
    e1000e_pp_bus_master(&s->core, d->config[PCI_COMMAND] &
                         PCI_COMMAND_MASTER);
    e1000e_pp_set_link(&s->core, !qemu_get_queue(s->nic)->link_down);
}

static void e1000e_pp_exit(PCIDevice *d)
{
    E1000EPPState *s = E1000E_PP(d);
    int i;

    e1000e_pp_knob_channel_unrealize(s);
    for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
        timer_free(s->timers[i]);
        s->timers[i] = NULL;
    }
    e1000e_pp_vmstate_unrealize(s);
    qemu_bh_delete(s->flush_bh);
    qemu_del_nic(s->nic);
    pcie_aer_exit(d);
    pcie_cap_exit(d);
    msix_uninit(d, &s->msix, &s->msix);
    msi_uninit(d);
}

/*
 * Resettable: QEMU's RESET_TYPE_COLD (power-on, system reset, the PCI bus
 * reset and FLR that reach us through device_cold_reset) is the 82574L's
 * power-on reset: D0, PME_En clear, every register, the PHY and the
 * wake-up registers back to their reset values. RESET_TYPE_SNAPSHOT_LOAD
 * does the same before a snapshot's state is loaded over it. CTRL.RST
 * (a MAC reset) and D3hot->D0 (a function reset) are the device's own:
 * the core runs them from the guest's register or PMCSR write and QEMU's
 * reset machinery never sees them (docs/architecture.md).
 *
 * No enter phase: the core's reset ends with its settle step, which
 * lowers INTx, a side effect the enter phase must not have.
 */
static void e1000e_pp_reset_hold(Object *obj, ResetType type)
{
    E1000EPPState *s = E1000E_PP(obj);

    e1000e_pp_power_set(&s->core, E1000E_PP_D0);
    e1000e_pp_pme_enable(&s->core, false);
    e1000e_pp_core_reset(&s->core);
}

/*
 * Leaving reset: COMMAND has been cleared by the bus's own hold phase
 * (after ours), so BME is read now; the PHY starts auto-negotiation on
 * the carrier the netdev reports.
 */
static void e1000e_pp_reset_exit(Object *obj, ResetType type)
{
    E1000EPPState *s = E1000E_PP(obj);

    e1000e_pp_bus_master(&s->core, PCI_DEVICE(s)->config[PCI_COMMAND] &
                         PCI_COMMAND_MASTER);
    e1000e_pp_set_link(&s->core, !qemu_get_queue(s->nic)->link_down);
}

static const Property e1000e_pp_properties[] = {
    DEFINE_NIC_PROPERTIES(E1000EPPState, conf),
    /*
     * Off (the hardware): a full packet buffer drops frames into MPC.
     * On: the netdev holds them instead, so nothing is ever lost.
     */
    DEFINE_PROP_BOOL("x-rx-backpressure", E1000EPPState,
                     core.cfg.rx_backpressure, false),
    DEFINE_PROP_STRING("x-knobs", E1000EPPState, knob_chardev),
};

static void e1000e_pp_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = e1000e_pp_realize;
    k->exit = e1000e_pp_exit;
    k->vendor_id = PCI_VENDOR_ID_INTEL;
    k->device_id = 0x10d3;      /* 82574L */
    k->revision = 0;
    k->romfile = "efi-e1000e.rom";
    k->class_id = PCI_CLASS_NETWORK_ETHERNET;
    dc->desc = "Intel 82574L GbE Controller (faithful model for driver "
               "validation)";
    dc->vmsd = e1000e_pp_vmstate_init();
    rc->phases.hold = e1000e_pp_reset_hold;
    rc->phases.exit = e1000e_pp_reset_exit;
    device_class_set_props(dc, e1000e_pp_properties);
    object_class_property_set_description(klass, "x-rx-backpressure",
        "on/off: hold frames in the netdev when the packet buffer is "
        "full instead of dropping them into MPC");
    e1000e_pp_knob_channel_class_init(klass);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static void e1000e_pp_instance_init(Object *obj)
{
    E1000EPPState *s = E1000E_PP(obj);

    e1000e_pp_add_qom_properties(s);
    device_add_bootindex_property(obj, &s->conf.bootindex, "bootindex",
                                  "/ethernet-phy@0", DEVICE(obj));
}

static const TypeInfo e1000e_pp_info = {
    .name = TYPE_E1000E_PP,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(E1000EPPState),
    .class_init = e1000e_pp_class_init,
    .instance_init = e1000e_pp_instance_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void e1000e_pp_register_types(void)
{
    type_register_static(&e1000e_pp_info);
}

type_init(e1000e_pp_register_types)
