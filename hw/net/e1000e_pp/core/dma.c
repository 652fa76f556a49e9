/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bus-master DMA as the engines see it: refused while PCI COMMAND.BME is
 * clear or the function is outside D0, and every failure counted
 * (docs/fidelity.md, "DMA"). CTRL.GIO_MASTER_DISABLE is no failure: the
 * engines simply start no new work while it is set.
 */
#include "internal.h"

/* Why a DMA may not go out; logged and counted by the caller. */
static bool dma_refused(E1000EPPCore *c, uint64_t addr, size_t len)
{
    if (!e1000e_pp_power_d0(c, "dma", addr)) {
        return true;
    }
    if (!c->bus_master) {
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

/* The common case in a few compares; the reasons only when refused. */
static inline bool dma_allowed(E1000EPPCore *c, uint64_t addr, size_t len)
{
    if (c->power == E1000E_PP_D0 && c->bus_master && addr + len >= addr) {
        return true;
    }
    return !dma_refused(c, addr, len);
}

bool e1000e_pp_dma_read(E1000EPPCore *c, uint64_t addr, void *buf,
                        size_t len)
{
    if (!dma_allowed(c, addr, len) ||
        c->plat->dma_read(c->opaque, addr, buf, len)) {
        c->dma_errors++;
        return false;
    }
    return true;
}

bool e1000e_pp_dma_write(E1000EPPCore *c, uint64_t addr, const void *buf,
                         size_t len)
{
    if (!dma_allowed(c, addr, len) ||
        c->plat->dma_write(c->opaque, addr, buf, len)) {
        c->dma_errors++;
        return false;
    }
    return true;
}
