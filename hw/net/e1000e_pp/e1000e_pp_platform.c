/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp: the platform the device core runs on (E1000EPPPlatform),
 * one-liners onto QEMU: DMA through the PCI function, interrupts, the
 * netdev, the virtual clock and its timers, the log and trace events,
 * and the record/replay instruction count.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "system/dma.h"
#include "system/replay.h"
#include "trace.h"

#include "e1000e_pp.h"

/* The PCI function: the opaque's first member, no QOM cast per frame */
static inline PCIDevice *plat_pci(void *opaque)
{
    return &((E1000EPPState *)opaque)->parent_obj;
}

static int plat_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    return pci_dma_read(plat_pci(opaque), addr, buf, len) != MEMTX_OK;
}

static int plat_dma_write(void *opaque, uint64_t addr, const void *buf,
                          size_t len)
{
    return pci_dma_write(plat_pci(opaque), addr, buf, len) != MEMTX_OK;
}

static E1000EPPIrqMode plat_irq_mode(void *opaque)
{
    PCIDevice *d = plat_pci(opaque);

    return msix_enabled(d) ? E1000E_PP_IRQ_MSIX :
           msi_enabled(d) ? E1000E_PP_IRQ_MSI : E1000E_PP_IRQ_INTX;
}

static void plat_set_intx(void *opaque, int level)
{
    pci_set_irq(plat_pci(opaque), level);
}

static void plat_notify(void *opaque, unsigned vector)
{
    PCIDevice *d = plat_pci(opaque);

    if (msix_enabled(d)) {
        msix_notify(d, vector);
    } else if (msi_enabled(d)) {
        msi_notify(d, vector);
    }
}

static void plat_send(void *opaque, const uint8_t *frame, size_t len)
{
    E1000EPPState *s = opaque;

    qemu_send_packet(qemu_get_queue(s->nic), frame, len);
}

/* Bottom half via the replay log: guest-visible DMA, no core re-entry */
static void plat_rx_ready(void *opaque)
{
    replay_bh_schedule_event(((E1000EPPState *)opaque)->flush_bh);
}

static int64_t plat_now_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void plat_timer_arm(void *opaque, E1000EPPTimer t, int64_t expire)
{
    timer_mod(((E1000EPPState *)opaque)->timers[t], expire);
}

static void plat_timer_cancel(void *opaque, E1000EPPTimer t)
{
    timer_del(((E1000EPPState *)opaque)->timers[t]);
}

static void plat_log(void *opaque, E1000EPPLog kind, const char *msg)
{
    qemu_log_mask(kind == E1000E_PP_LOG_GUEST_ERROR ? LOG_GUEST_ERROR :
                  LOG_UNIMP, "e1000e-pp: %s\n", msg);
}

static void plat_trace_reg(void *opaque, int is_write, const char *name,
                           uint32_t offset, uint32_t value)
{
    if (is_write) {
        trace_e1000e_pp_reg_write(name, offset, value);
    } else {
        trace_e1000e_pp_reg_read(name, offset, value);
    }
}

static void plat_trace_irq(void *opaque, const char *what, uint32_t icr,
                           uint32_t ims, unsigned vector)
{
    trace_e1000e_pp_irq(what, icr, ims, vector);
}

static void plat_trace_rx(void *opaque, size_t len, uint32_t rdh,
                          unsigned descriptors, const char *verdict)
{
    trace_e1000e_pp_rx(len, rdh, descriptors, verdict);
}

static void plat_trace_tx(void *opaque, size_t len, uint32_t tdh,
                          const char *what)
{
    trace_e1000e_pp_tx(len, tdh, what);
}

static void plat_trace_pm(void *opaque, unsigned from, unsigned to)
{
    trace_e1000e_pp_pm_state(from, to);
}

static void plat_trace_violation(void *opaque, const char *what,
                                 uint64_t addr)
{
    trace_e1000e_pp_pm_violation(what, addr);
}

static void plat_trace_event(void *opaque, const char *what, uint32_t reg,
                             uint32_t value)
{
    trace_e1000e_pp_event(what, reg, value);
}

/* The replay stops at this count when asked for the event's moment. */
static uint64_t plat_icount(void *opaque)
{
    return replay_mode == REPLAY_MODE_NONE ? 0 : replay_get_current_icount();
}

/* QEMU sends no PME message: the guest finds PME_Status by polling. */
static void plat_pme(void *opaque)
{
    PCIDevice *d = plat_pci(opaque);

    pci_word_test_and_set_mask(d->config + CAP_PM + PCI_PM_CTRL,
                               PCI_PM_CTRL_PME_STATUS);
}

static void plat_trace_dma_fault(void *opaque, const char *what,
                                 uint32_t desc, uint64_t addr,
                                 uint32_t offset, uint32_t len, int is_write)
{
    trace_e1000e_pp_dma_fault(what, desc, addr, offset, len,
                              is_write ? "write" : "read");
}

const E1000EPPPlatform e1000e_pp_platform = {
    .dma_read = plat_dma_read,
    .dma_write = plat_dma_write,
    .irq_mode = plat_irq_mode,
    .set_intx = plat_set_intx,
    .notify = plat_notify,
    .send = plat_send,
    .rx_ready = plat_rx_ready,
    .now_ns = plat_now_ns,
    .timer_arm = plat_timer_arm,
    .timer_cancel = plat_timer_cancel,
    .log = plat_log,
    .trace_reg = plat_trace_reg,
    .trace_irq = plat_trace_irq,
    .trace_rx = plat_trace_rx,
    .trace_tx = plat_trace_tx,
    .trace_pm = plat_trace_pm,
    .trace_violation = plat_trace_violation,
    .trace_event = plat_trace_event,
    .icount = plat_icount,
    .trace_dma_fault = plat_trace_dma_fault,
    .pme = plat_pme,
};
