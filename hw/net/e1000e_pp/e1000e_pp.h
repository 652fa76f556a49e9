/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp QEMU adapter: the device state, shared by e1000e_pp.c (PCI,
 * BARs, netdev, timers) and e1000e_pp_qom.c (counters, knobs and lists
 * read or set over QMP).
 */
#ifndef HW_NET_E1000E_PP_H
#define HW_NET_E1000E_PP_H

#include "chardev/char-fe.h"
#include "hw/pci/pci_device.h"
#include "net/net.h"
#include "qemu/timer.h"

#include "core/core.h"

#define TYPE_E1000E_PP "e1000e-pp"
OBJECT_DECLARE_SIMPLE_TYPE(E1000EPPState, E1000E_PP)

/* A knob line's bound: the longest name, '=' and a 64-bit value fit. */
#define E1000E_PP_KNOB_LINE 64

/* Lets a QEMU timer callback know which core timer fired. */
typedef struct TimerSlot {
    E1000EPPState *s;
    E1000EPPTimer id;
} TimerSlot;

struct E1000EPPState {
    PCIDevice parent_obj;

    NICState *nic;
    NICConf conf;
    MemoryRegion mmio, flash, io, msix;
    QEMUTimer *timers[E1000E_PP_TIMER_COUNT];
    TimerSlot timer_slots[E1000E_PP_TIMER_COUNT];
    QEMUBH *flush_bh;           /* offers frames the netdev held back */
    VMChangeStateEntry *vmse;   /* applies a carrier change on resume */
    bool link_resync;           /* post_load found the carrier changed */

    E1000EPPCore core;          /* core.cfg: the properties' one copy */

    /* The knob channel (x-knobs): its chardev and the line being read. */
    char *knob_chardev;
    CharBackend knob_chr;
    char knob_line[E1000E_PP_KNOB_LINE];
    int knob_len;
};

/* Capability offsets in configuration space, as the 82574L lays them. */
#define CAP_PM              0xc8
#define CAP_MSI             0xd0
#define CAP_PCIE            0xe0
#define CAP_MSIX            0xa0
#define EXTCAP_AER          0x100
#define EXTCAP_DSN          0x140

/* e1000e_pp_platform.c: the core's callbacks onto QEMU */
extern const E1000EPPPlatform e1000e_pp_platform;

/* e1000e_pp_qom.c: rx-* counters, events, unimplemented-registers, knobs */
void e1000e_pp_add_qom_properties(E1000EPPState *s);
bool e1000e_pp_is_knob(const char *name);

/* e1000e_pp_knob_channel.c: knobs set from a chardev (x-knobs) */
void e1000e_pp_knob_channel_class_init(ObjectClass *klass);
bool e1000e_pp_knob_channel_realize(E1000EPPState *s, Error **errp);
void e1000e_pp_knob_channel_unrealize(E1000EPPState *s);

/* e1000e_pp_vmstate.c: the migrated state, built once per class */
const VMStateDescription *e1000e_pp_vmstate_init(void);
void e1000e_pp_vmstate_realize(E1000EPPState *s);
void e1000e_pp_vmstate_unrealize(E1000EPPState *s);

#endif
