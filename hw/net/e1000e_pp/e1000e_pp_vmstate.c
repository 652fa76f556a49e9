/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp migration: the VMStateDescription of the architectural state
 * (core.arch, core.h), the PCI function and its MSI-X table and PBA.
 *
 * The register file is described from the core's register table, one
 * field per register named as the datasheet names it. What is only
 * sometimes present travels in a subsection: the frames held in the
 * packet buffer (the oldest one possibly part-moved into the ring) with
 * only their bytes, held descriptor write-backs, a Tx packet being
 * gathered (TSO mid-segment included) with only its bytes, an open
 * throttle window or running delay timer, D3hot or an armed PME, the
 * CTRL.RST window. Timer deadlines always travel (they are idle as -1).
 * The observation state (counters, lists, log-once flags) does not
 * migrate: the destination reports from zero. The knob settings come
 * from the destination's command line.
 *
 * pre_save puts the state in canonical form (core/state.c); post_load
 * refuses a stream whose values would index, bound or size anything
 * outside the device, naming the field, and re-arms the timers. It
 * raises no interrupt: a carrier that differs from the saved one is
 * applied when the VM resumes (record/replay's rule, below).
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci_device.h"
#include "migration/vmstate.h"
#include "system/runstate.h"

#include "e1000e_pp.h"

/* An inline byte array whose used length is another field. */
#define VMSTATE_E1000E_PP_BYTES(_name, _field, _len) {                  \
    .name = (_name),                                                    \
    .size_offset = vmstate_offset_value(E1000EPPState, _len, uint32_t), \
    .info = &vmstate_info_buffer,                                       \
    .flags = VMS_VBUFFER,                                               \
    .offset = offsetof(E1000EPPState, _field),                          \
}

/* ---- the register file, named from the core's register table ---- */

/*
 * Filled once from the table (class init); room for every row plus the
 * RAL/RAH elements, checked there.
 */
#define E1000E_PP_REG_FIELDS 512
static VMStateField e1000e_pp_reg_fields[E1000E_PP_REG_FIELDS + 1];

static const VMStateDescription e1000e_pp_vmstate_regs = {
    .name = "e1000e-pp/registers",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = e1000e_pp_reg_fields,
};

static void reg_field(VMStateField *f, const char *name, uint32_t off,
                      unsigned num)
{
    f->name = name;
    f->offset = offsetof(E1000EPPArch, regs) + off;
    f->size = sizeof(uint32_t);
    f->info = &vmstate_info_uint32;
    f->flags = num > 1 ? VMS_ARRAY : VMS_SINGLE;
    f->num = num > 1 ? num : 0;
}

/*
 * A row of contiguous dwords is one array field; an interleaved one
 * (RAL/RAH, stride 8) one field per element, RAL0, RAL1, ...
 */
static void e1000e_pp_vmstate_regs_init(void)
{
    size_t rows = e1000e_pp_reg_spans(NULL, 0), i, n = 0;
    g_autofree E1000EPPRegSpan *span = g_new(E1000EPPRegSpan, rows);
    unsigned e;

    e1000e_pp_reg_spans(span, rows);
    for (i = 0; i < rows; i++) {
        unsigned fields = span[i].stride == 4 ? 1 : span[i].count;

        /* The register table is ours: outgrowing the array is our bug. */
        g_assert(n + fields <= E1000E_PP_REG_FIELDS);
        if (span[i].stride == 4) {
            reg_field(&e1000e_pp_reg_fields[n++], span[i].name,
                      span[i].offset, span[i].count);
            continue;
        }
        for (e = 0; e < span[i].count; e++) {
            reg_field(&e1000e_pp_reg_fields[n++],
                      g_strdup_printf("%s%u", span[i].name, e),
                      span[i].offset + e * span[i].stride, 1);
        }
    }
    e1000e_pp_reg_fields[n].flags = VMS_END;
}

/* ---- structures inside the state ---- */

static const VMStateDescription e1000e_pp_vmstate_txctx = {
    .name = "e1000e-pp/tx-context",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(ipcss, E1000EPPTxContext),
        VMSTATE_UINT8(ipcso, E1000EPPTxContext),
        VMSTATE_UINT16(ipcse, E1000EPPTxContext),
        VMSTATE_UINT8(tucss, E1000EPPTxContext),
        VMSTATE_UINT8(tucso, E1000EPPTxContext),
        VMSTATE_UINT16(tucse, E1000EPPTxContext),
        VMSTATE_UINT32(paylen, E1000EPPTxContext),
        VMSTATE_UINT8(tucmd, E1000EPPTxContext),
        VMSTATE_UINT8(hdrlen, E1000EPPTxContext),
        VMSTATE_UINT16(mss, E1000EPPTxContext),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription e1000e_pp_vmstate_rxframe = {
    .name = "e1000e-pp/pktbuf-frame",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(start, E1000EPPRxQueued),
        VMSTATE_UINT32(len, E1000EPPRxQueued),
        VMSTATE_UINT32(done, E1000EPPRxQueued),
        VMSTATE_UINT32(charge, E1000EPPRxQueued),
        VMSTATE_UINT16(info.vlan, E1000EPPRxQueued),
        VMSTATE_BOOL(info.vp, E1000EPPRxQueued),
        VMSTATE_UINT32(info.status, E1000EPPRxQueued),
        VMSTATE_UINT32(info.errors, E1000EPPRxQueued),
        VMSTATE_UINT16(info.ip_id, E1000EPPRxQueued),
        VMSTATE_UINT16(info.pkt_csum, E1000EPPRxQueued),
        VMSTATE_UINT32(info.rss_hash, E1000EPPRxQueued),
        VMSTATE_UINT8(info.rss_type, E1000EPPRxQueued),
        VMSTATE_UINT16(info.hdr_len, E1000EPPRxQueued),
        VMSTATE_END_OF_LIST()
    },
};

/* ---- subsections: what is only sometimes present ---- */

static bool pktbuf_needed(void *opaque)
{
    return ((E1000EPPState *)opaque)->core.arch.pktbuf.count;
}

/* Frames waiting for descriptors; the oldest may be part-moved (done). */
static const VMStateDescription e1000e_pp_vmstate_pktbuf = {
    .name = "e1000e-pp/pktbuf",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = pktbuf_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_VARRAY_UINT32(core.arch.pktbuf.q, E1000EPPState,
                                     core.saved.pktbuf_frames, 1,
                                     e1000e_pp_vmstate_rxframe,
                                     E1000EPPRxQueued),
        VMSTATE_E1000E_PP_BYTES("pktbuf.bytes", core.arch.pktbuf.bytes,
                                core.saved.pktbuf_bytes),
        VMSTATE_END_OF_LIST()
    },
};

static bool rxwb_needed(void *opaque)
{
    return ((E1000EPPState *)opaque)->core.arch.rxwb.count;
}

/* Rx descriptors written back only at RXDCTL.WTHRESH or a delay timer. */
static const VMStateDescription e1000e_pp_vmstate_rxwb = {
    .name = "e1000e-pp/rx-writeback",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = rxwb_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(core.arch.rxwb.count, E1000EPPState),
        VMSTATE_UINT64_ARRAY(core.arch.rxwb.addr, E1000EPPState,
                             E1000E_PP_WB_MAX),
        VMSTATE_UINT8_2DARRAY(core.arch.rxwb.desc, E1000EPPState,
                              E1000E_PP_WB_MAX, 32),
        VMSTATE_UINT8_ARRAY(core.arch.rxwb.size, E1000EPPState,
                            E1000E_PP_WB_MAX),
        VMSTATE_END_OF_LIST()
    },
};

static bool txwb_needed(void *opaque)
{
    return ((E1000EPPState *)opaque)->core.arch.txwb.count;
}

/* Tx descriptors held for TXDCTL.WTHRESH. */
static const VMStateDescription e1000e_pp_vmstate_txwb = {
    .name = "e1000e-pp/tx-writeback",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = txwb_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(core.arch.txwb.count, E1000EPPState),
        VMSTATE_UINT64_ARRAY(core.arch.txwb.addr, E1000EPPState,
                             E1000E_PP_WB_MAX),
        VMSTATE_UINT8_2DARRAY(core.arch.txwb.desc, E1000EPPState,
                              E1000E_PP_WB_MAX, 16),
        VMSTATE_UINT8_ARRAY(core.arch.txwb.size, E1000EPPState,
                            E1000E_PP_WB_MAX),
        VMSTATE_END_OF_LIST()
    },
};

static bool txpkt_needed(void *opaque)
{
    static const E1000EPPTxPacket idle;
    E1000EPPState *s = opaque;

    return memcmp(&s->core.arch.txpkt, &idle, sizeof(idle));
}

/* A packet gathered from Tx data descriptors, TSO state included. */
static const VMStateDescription e1000e_pp_vmstate_txpkt = {
    .name = "e1000e-pp/tx-packet",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = txpkt_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(core.arch.txpkt.started, E1000EPPState),
        VMSTATE_UINT32(core.saved.txpkt_len, E1000EPPState),
        VMSTATE_STRUCT(core.arch.txpkt.ctx, E1000EPPState, 1,
                       e1000e_pp_vmstate_txctx, E1000EPPTxContext),
        VMSTATE_BOOL(core.arch.txpkt.tse, E1000EPPState),
        VMSTATE_BOOL(core.arch.txpkt.ixsm, E1000EPPState),
        VMSTATE_BOOL(core.arch.txpkt.txsm, E1000EPPState),
        VMSTATE_BOOL(core.arch.txpkt.ic, E1000EPPState),
        VMSTATE_UINT8(core.arch.txpkt.css, E1000EPPState),
        VMSTATE_UINT8(core.arch.txpkt.cso, E1000EPPState),
        VMSTATE_BOOL(core.arch.txpkt.vle, E1000EPPState),
        VMSTATE_UINT16(core.arch.txpkt.vlan, E1000EPPState),
        VMSTATE_BOOL(core.arch.txpkt.dropping, E1000EPPState),
        VMSTATE_BOOL(core.arch.txpkt.tstamp, E1000EPPState),
        VMSTATE_UINT32(core.arch.txpkt.payload_sent, E1000EPPState),
        VMSTATE_UINT32(core.arch.txpkt.segments, E1000EPPState),
        VMSTATE_UINT16(core.arch.txpkt.ip_id, E1000EPPState),
        VMSTATE_UINT32(core.arch.txpkt.tcp_seq, E1000EPPState),
        VMSTATE_UINT8_ARRAY(core.arch.txpkt.header, E1000EPPState, 256),
        VMSTATE_E1000E_PP_BYTES("txbuf", core.arch.txbuf,
                                core.saved.txbuf_bytes),
        VMSTATE_END_OF_LIST()
    },
};

static bool moderation_needed(void *opaque)
{
    E1000EPPArch *a = &((E1000EPPState *)opaque)->core.arch;
    int i;

    for (i = 0; i < E1000E_PP_MSIX_VECTORS; i++) {
        if (a->eitr_window[i] || a->eitr_pending[i]) {
            return true;
        }
    }
    return a->itr_window || a->itr_pending || a->delay_armed[0] ||
           a->delay_armed[1] || a->delay_armed[2] || a->delay_armed[3];
}

/* §7.4.4: an open ITR/EITR window, a cause waiting, a delay running. */
static const VMStateDescription e1000e_pp_vmstate_moderation = {
    .name = "e1000e-pp/moderation",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = moderation_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(core.arch.itr_window, E1000EPPState),
        VMSTATE_BOOL(core.arch.itr_pending, E1000EPPState),
        VMSTATE_BOOL_ARRAY(core.arch.eitr_window, E1000EPPState,
                           E1000E_PP_MSIX_VECTORS),
        VMSTATE_BOOL_ARRAY(core.arch.eitr_pending, E1000EPPState,
                           E1000E_PP_MSIX_VECTORS),
        VMSTATE_BOOL_ARRAY(core.arch.delay_armed, E1000EPPState, 4),
        VMSTATE_END_OF_LIST()
    },
};

static bool pm_needed(void *opaque)
{
    E1000EPPArch *a = &((E1000EPPState *)opaque)->core.arch;

    return a->power != E1000E_PP_D0 || a->pme_enabled;
}

/* PMCSR as the function holds it: D3hot, PME_En (§5.6). */
static const VMStateDescription e1000e_pp_vmstate_pm = {
    .name = "e1000e-pp/power",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = pm_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(core.arch.power, E1000EPPState),
        VMSTATE_BOOL(core.arch.pme_enabled, E1000EPPState),
        VMSTATE_END_OF_LIST()
    },
};

static bool reset_needed(void *opaque)
{
    return ((E1000EPPState *)opaque)->core.arch.resetting;
}

/* CTRL.RST in progress: it ends when TIMER_RESET fires. */
static const VMStateDescription e1000e_pp_vmstate_reset = {
    .name = "e1000e-pp/ctrl-rst",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = reset_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(core.arch.resetting, E1000EPPState),
        VMSTATE_END_OF_LIST()
    },
};

/* ---- the device ---- */

static int e1000e_pp_pre_save(void *opaque)
{
    E1000EPPState *s = opaque;

    /* The main loop saves devices, never from inside a core step. */
    assert(!s->core.depth);
    e1000e_pp_state_presave(&s->core);
    return 0;
}

/* Before a buffer is read into: its length from the stream fits it. */
static bool e1000e_pp_sizes_valid(void *opaque, int version_id)
{
    E1000EPPState *s = opaque;

    if (!e1000e_pp_state_sizes_ok(&s->core)) {
        error_report("e1000e-pp: migration stream refused: buffer sizes "
                     "(%u frames, %u packet-buffer bytes, %u Tx bytes) "
                     "exceed the device's", s->core.saved.pktbuf_frames,
                     s->core.saved.pktbuf_bytes, s->core.saved.txbuf_bytes);
        return false;
    }
    return true;
}

static int e1000e_pp_post_load(void *opaque, int version_id)
{
    E1000EPPState *s = opaque;
    char err[160];
    bool carrier = !qemu_get_queue(s->nic)->link_down;

    if (e1000e_pp_state_postload(&s->core, err, sizeof(err))) {
        error_report("e1000e-pp: migration stream refused: %s", err);
        return -EINVAL;
    }
    /*
     * The destination's cable is what it is: a difference is a change.
     * Not made here: a link change raises LSC, and post_load must not
     * raise interrupts, since the other devices (the MSI target, the
     * interrupt controller) may not be loaded yet; record/replay needs
     * a load that only restores (docs/devel/replay.rst, "Saving/restoring
     * the VM state"). It is made when the VM resumes, before the guest
     * runs an instruction.
     */
    s->link_resync = carrier != s->core.arch.wire_up;
    return 0;
}

static void e1000e_pp_vm_state_change(void *opaque, bool running,
                                      RunState state)
{
    E1000EPPState *s = opaque;
    bool carrier = !qemu_get_queue(s->nic)->link_down;

    if (!running || !s->link_resync) {
        return;
    }
    s->link_resync = false;
    if (carrier != s->core.arch.wire_up) {
        e1000e_pp_set_link(&s->core, carrier);
    }
}

void e1000e_pp_vmstate_realize(E1000EPPState *s)
{
    s->vmse = qemu_add_vm_change_state_handler(e1000e_pp_vm_state_change, s);
}

void e1000e_pp_vmstate_unrealize(E1000EPPState *s)
{
    qemu_del_vm_change_state_handler(s->vmse);
    s->vmse = NULL;
}

static const VMStateDescription e1000e_pp_vmstate = {
    .name = "e1000e-pp",
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = e1000e_pp_pre_save,
    .post_load = e1000e_pp_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, E1000EPPState),
        VMSTATE_MSIX(parent_obj, E1000EPPState),
        VMSTATE_STRUCT(core.arch, E1000EPPState, 1, e1000e_pp_vmstate_regs,
                       E1000EPPArch),
        VMSTATE_UINT16_ARRAY(core.arch.nvm, E1000EPPState,
                             E1000E_PP_NVM_WORDS),
        VMSTATE_UINT8_ARRAY(core.arch.perm_mac, E1000EPPState, 6),
        VMSTATE_UINT16_ARRAY(core.arch.phy, E1000EPPState,
                             E1000E_PP_PHY_REGS),
        VMSTATE_UINT16_2DARRAY(core.arch.phy_paged, E1000EPPState,
                               E1000E_PP_PHY_PAGES, E1000E_PP_PHY_REGS - 16),
        VMSTATE_UINT16(core.arch.phy_page, E1000EPPState),
        VMSTATE_BOOL(core.arch.wire_up, E1000EPPState),
        VMSTATE_BOOL(core.arch.autoneg_running, E1000EPPState),
        VMSTATE_BOOL(core.arch.link_reported, E1000EPPState),
        VMSTATE_BOOL(core.arch.intx_level, E1000EPPState),
        VMSTATE_BOOL(core.arch.msi_delivered, E1000EPPState),
        VMSTATE_UINT64(core.arch.systim_base, E1000EPPState),
        VMSTATE_INT64(core.arch.systim_base_ns, E1000EPPState),
        VMSTATE_UINT32(core.arch.systimh_latch, E1000EPPState),
        VMSTATE_STRUCT(core.arch.txctx, E1000EPPState, 1,
                       e1000e_pp_vmstate_txctx, E1000EPPTxContext),
        VMSTATE_UINT8_ARRAY(core.arch.rxcache.bytes, E1000EPPState,
                            E1000E_PP_RX_CACHE * 32),
        VMSTATE_UINT32(core.arch.rxcache.head, E1000EPPState),
        VMSTATE_UINT32(core.arch.rxcache.count, E1000EPPState),
        VMSTATE_UINT32(core.arch.rxcache.dsz, E1000EPPState),
        VMSTATE_BOOL(core.arch.rxcache.fetch_pending, E1000EPPState),
        VMSTATE_UINT32(core.arch.pktbuf.head, E1000EPPState),
        VMSTATE_UINT32(core.arch.pktbuf.count, E1000EPPState),
        VMSTATE_UINT32(core.arch.pktbuf.write, E1000EPPState),
        VMSTATE_UINT32(core.arch.pktbuf.used, E1000EPPState),
        VMSTATE_BOOL(core.arch.pktbuf.xoff_sent, E1000EPPState),
        VMSTATE_BOOL(core.arch.tx_paused, E1000EPPState),
        VMSTATE_BOOL(core.arch.rxdmt_low, E1000EPPState),
        VMSTATE_BOOL(core.arch.tx_halted, E1000EPPState),
        VMSTATE_BOOL(core.arch.bus_master, E1000EPPState),
        VMSTATE_UINT32(core.arch.ioaddr, E1000EPPState),
        VMSTATE_BOOL(core.arch.tx_hold, E1000EPPState),
        VMSTATE_BOOL(core.arch.link_knob_down, E1000EPPState),
        VMSTATE_INT64_ARRAY(core.arch.timer_deadline, E1000EPPState,
                            E1000E_PP_TIMER_COUNT),
        /* Engine work past a step's budget, continued by TIMER_KICK. */
        VMSTATE_UINT32(core.work, E1000EPPState),
        VMSTATE_UINT32(core.saved.pktbuf_frames, E1000EPPState),
        VMSTATE_UINT32(core.saved.pktbuf_bytes, E1000EPPState),
        VMSTATE_UINT32(core.saved.txbuf_bytes, E1000EPPState),
        VMSTATE_VALIDATE("buffer sizes", e1000e_pp_sizes_valid),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &e1000e_pp_vmstate_pktbuf,
        &e1000e_pp_vmstate_rxwb,
        &e1000e_pp_vmstate_txwb,
        &e1000e_pp_vmstate_txpkt,
        &e1000e_pp_vmstate_moderation,
        &e1000e_pp_vmstate_pm,
        &e1000e_pp_vmstate_reset,
        NULL
    },
};

const VMStateDescription *e1000e_pp_vmstate_init(void)
{
    e1000e_pp_vmstate_regs_init();
    return &e1000e_pp_vmstate;
}
