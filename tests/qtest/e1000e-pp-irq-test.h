/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp-irq-test: interrupt and moderation scenarios, one file per
 * concept:
 *   e1000e-pp-irq-basic.c    INT_ASSERTED on INTx, MSI-X IVAR routing
 *   e1000e-pp-irq-intx.c     INTx and MSI: ICR/ICS/IMS/IMC, IAM/IAME,
 *                            the self-test's ICR bit walk
 *   e1000e-pp-irq-msix.c     MSI-X: IVAR routing, EIAC, EIAME, OTHER
 *   e1000e-pp-irq-timers.c   ITR, EITR, RDTR/RADV, TIDV/TADV, FPD
 * Each scenario takes the -device name of the model under test.
 */

#ifndef E1000E_PP_IRQ_TEST_H
#define E1000E_PP_IRQ_TEST_H

#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

/* The device's INTx line is asserted (its IOAPIC input is high) */
bool irq_line_high(E1000epp *d);
/* A device started with INTx watched, brought up, ICR read empty */
E1000epp *irq_start_intx(const char *model);
/*
 * Queue one 60-byte frame to the peer (EOP|IFCS|RS + extra_cmd) from
 * guest buffer g, written first when g is 0; returns the buffer
 */
uint64_t irq_send_small(E1000epp *d, uint64_t g, uint8_t seed,
                        uint32_t extra_cmd);

/* e1000e-pp-irq-basic.c */
void intx_int_asserted(const char *model);
void msix_ivar_routing(const char *model);

/* e1000e-pp-irq-intx.c */
void irq_icr_clear_on_read_rules(const char *model);
void irq_ics_ims_imc_intx_level(const char *model);
void irq_iame_auto_mask_on_icr_read(const char *model);
void irq_selftest_icr_bits_0_to_14(const char *model);
void irq_msi_message_per_assertion(const char *model);

/* e1000e-pp-irq-msix.c */
void irq_msix_ivar_routing_tx_rx_other(const char *model);
void irq_msix_eiac_auto_clear(const char *model);
void irq_msix_eiame_auto_mask(const char *model);
void irq_msix_other_aggregates_lsc(const char *model);

/* e1000e-pp-irq-timers.c */
void itr_throttles_intx_exact(const char *model);
void itr_small_value_no_forced_minimum(const char *model);
void eitr_per_vector_exact(const char *model);
void rdtr_restarts_per_frame(const char *model);
void radv_absolute_bound(const char *model);
void rdtr_fpd_flushes(const char *model);
void tidv_ide_delays_txdw(const char *model);
void tadv_absolute_bound(const char *model);
void tidv_fpd_flushes(const char *model);
void tidv_under_msix(const char *model);
void rdtr_under_msix(const char *model);

#endif /* E1000E_PP_IRQ_TEST_H */
