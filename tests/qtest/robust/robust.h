/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The historical bug classes of QEMU's e1000 family, one scenario each,
 * in a wall-bounded subprocess:
 *   robust.c   the bound and the responsiveness check (this header)
 *   desc.c     descriptors and rings (e1000e-pp-robust-desc-test)
 *   dma.c      DMA into the device's own BARs, loopback, huge rings of
 *              unmapped buffers, an IOMMU (e1000e-pp-robust-dma-test)
 */

#ifndef E1000E_PP_ROBUST_H
#define E1000E_PP_ROBUST_H

#include "e1000e-pp-drv.h"

/* Wall time a scenario may take, QEMU's start and shutdown included */
#define STALL_BOUND_US      (15 * G_USEC_PER_SEC)

/* How a model fares with a scenario */
typedef enum Outcome {
    RESPONSIVE,     /* QEMU answers and the device behaves */
    STALLS,         /* QEMU's main loop stays busy past the bound */
} Outcome;

/*
 * Run body in a subprocess bounded by STALL_BOUND_US; on the stock model
 * expect `stock` (a stall is the recorded difference).
 */
void bounded(const char *model, void (*body)(const char *model),
             Outcome stock);
/* What a model did, for docs/security.md, as a '#' line on stderr */
void G_GNUC_PRINTF(1, 2) note(const char *fmt, ...);
/* The next qtest command answers; the wall milliseconds it took */
int64_t expect_responsive(EppDev *d, const char *after);
/* Queue a frame unless the netdev socket is full; false when it was */
bool inject_nowait(EppDev *d, const uint8_t *frame, size_t len);
/* Frames on the wire until it stays idle; how many (bounded) */
#define DRAIN_MAX_FRAMES    20000
unsigned drain_wire(EppDev *d);
/* TDH reached the tail and each of the first n descriptors has DD */
void expect_tx_all_done(EppDev *d, unsigned n);

#endif /* E1000E_PP_ROBUST_H */
