/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bus-master DMA of the e1000e-pp core (dma.c): the allowed case inline,
 * the refusals and the fault list out of line. Included where DMA is done.
 */
#ifndef E1000E_PP_DMA_H
#define E1000E_PP_DMA_H

#include "common.h"

/* dma.c: DMA with the error accounting §"DMA" of docs/fidelity.md gives. */
bool e1000e_pp_dma_refuse(E1000EPPCore *c, uint64_t addr, size_t len);

/*
 * Inline: several per frame, and the common case is three compares and
 * the host's call; the reasons for a refusal are in dma.c.
 */
static inline bool e1000e_pp_dma_read(E1000EPPCore *c, uint64_t addr,
                                      void *buf, size_t len)
{
    if (c->arch.power != E1000E_PP_D0 || !c->arch.bus_master ||
        addr + len < addr) {
        return e1000e_pp_dma_refuse(c, addr, len);
    }
    if (c->plat->dma_read(c->opaque, addr, buf, len)) {
        c->obs.dma_errors++;
        return false;
    }
    return true;
}

static inline bool e1000e_pp_dma_write(E1000EPPCore *c, uint64_t addr,
                                       const void *buf, size_t len)
{
    if (c->arch.power != E1000E_PP_D0 || !c->arch.bus_master ||
        addr + len < addr) {
        return e1000e_pp_dma_refuse(c, addr, len);
    }
    if (c->plat->dma_write(c->opaque, addr, buf, len)) {
        c->obs.dma_errors++;
        return false;
    }
    return true;
}
/* A failed access, recorded in the fault list and traced. */
void e1000e_pp_dma_fault(E1000EPPCore *c, const char *what, uint32_t desc,
                         uint64_t addr, uint32_t offset, uint32_t len,
                         bool write);

#endif
