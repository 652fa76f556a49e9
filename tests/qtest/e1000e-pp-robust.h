/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp-robust-test: the historical bug classes of QEMU's e1000
 * family, one scenario each, in a wall-bounded subprocess:
 *   e1000e-pp-robust.c       the bound, the responsiveness check, main
 *   e1000e-pp-robust-desc.c  descriptors and rings
 *   e1000e-pp-robust-dma.c   DMA into the device's own BARs, loopback,
 *                            huge rings of unmapped buffers, an IOMMU
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
int64_t expect_responsive(E1000epp *d, const char *after);
/* Queue a frame unless the netdev socket is full; false when it was */
bool inject_nowait(E1000epp *d, const uint8_t *frame, size_t len);
/* Frames on the wire until it stays idle; how many (bounded) */
#define DRAIN_MAX_FRAMES    20000
unsigned drain_wire(E1000epp *d);
/* TDH reached the tail and each of the first n descriptors has DD */
void expect_tx_all_done(E1000epp *d, unsigned n);

/* e1000e-pp-robust-desc.c */
void robust_tx_zero_length_descriptors(const char *model);
void robust_rx_zero_address_buffer(const char *model);
void robust_head_tail_outside_ring(const char *model);
void robust_ring_length_zero_or_unaligned(const char *model);
void robust_tso_absurd_mss_hdrlen_paylen(const char *model);
void robust_context_descriptors_without_data(const char *model);

/* e1000e-pp-robust-dma.c */
void robust_rings_and_buffers_over_own_bars(const char *model);
void robust_loopback_storm(const char *model);
void robust_huge_ring_unmapped_buffers_burst(const char *model);
void robust_null_buffers_walk_a_huge_ring(const char *model);
void robust_iommu_faults_every_dma(const char *model);

#endif /* E1000E_PP_ROBUST_H */
