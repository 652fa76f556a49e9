/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bus-master DMA as the engines see it: refused while PCI COMMAND.BME is
 * clear or the function is outside D0, and every failure counted
 * (docs/fidelity.md, "DMA"). CTRL.GIO_MASTER_DISABLE is no failure: the
 * engines simply start no new work while it is set.
 *
 * PCIe memory writes are posted: a write the host's IOMMU (or an
 * unassigned address) rejects is simply lost, and the device goes on as
 * if it had landed. What the engines report here is kept in a bounded
 * fault list (qom-get <nic> dma-faults) and traced.
 */

#include "log.h"
#include "power.h"
#include "coverage.h"
#include "dma.h"

/* Why a DMA may not go out; logged and counted by the caller. */
static bool dma_refused(E1000EPPCore *c, uint64_t addr, size_t len)
{
    if (!e1000e_pp_power_d0(c, "dma", addr)) {
        return true;
    }
    if (!c->arch.bus_master) {
        /* After PCI bus-master disable: a violation, listed like D3hot's. */
        e1000e_pp_event(c, "dma-bus-master-off", (uint32_t)addr, 0);
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, CTRL,
                      "DMA to 0x%llx blocked: bus mastering is off",
                      (unsigned long long)addr);
        return true;
    }
    e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, RDBAL,
                  "DMA range 0x%llx+%zu wraps", (unsigned long long)addr, len);
    return true;
}

/* A DMA the function may not do now: logged, counted, never issued. */
bool e1000e_pp_dma_refuse(E1000EPPCore *c, uint64_t addr, size_t len)
{
    dma_refused(c, addr, len);
    c->obs.dma_errors++;
    return false;
}

void e1000e_pp_dma_fault(E1000EPPCore *c, const char *what, uint32_t desc,
                         uint64_t addr, uint32_t offset, uint32_t len,
                         bool write)
{
    E1000EPPDmaFault *f = &c->obs.faults[c->obs.nfaults % E1000E_PP_DMA_FAULTS];

    f->ns = c->plat->now_ns(c->opaque);
    f->what = what;
    f->desc = desc;
    f->addr = addr;
    f->offset = offset;
    f->len = len;
    f->write = write;
    /* Frames leave for the ring in order: this one follows the last EOP. */
    f->frame = what[0] == 'r' ? c->obs.rxstat.delivered + 1 : 0;
    c->obs.nfaults++;
    e1000e_pp_cover(c, SIT_DMA_FAULT);
    if (c->plat->trace_dma_fault) {
        c->plat->trace_dma_fault(c->opaque, what, desc, addr, offset, len,
                                 write);
    }
}

static size_t fault_line(char *buf, size_t size, size_t len,
                         const void *entry)
{
    const E1000EPPDmaFault *f = entry;

    return e1000e_pp_text_add(buf, size, len,
                              "%lld frame=%llu %s desc=%u addr=0x%llx "
                              "offset=%u len=%u %s\n", (long long)f->ns,
                              (unsigned long long)f->frame, f->what,
                              f->desc, (unsigned long long)f->addr,
                              f->offset, f->len,
                              f->write ? "write" : "read");
}

size_t e1000e_pp_dma_faults(E1000EPPCore *c, char *buf, size_t size)
{
    return e1000e_pp_ring_text(buf, size, c->obs.faults,
                               sizeof(c->obs.faults[0]),
                               E1000E_PP_DMA_FAULTS, c->obs.nfaults,
                               fault_line);
}
