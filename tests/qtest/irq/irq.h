/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the interrupt scenario files share (defined in irq.c); each file
 * is its own binary, e1000e-pp-irq-<file>-test:
 *   basic.c     INT_ASSERTED on INTx, MSI-X IVAR routing
 *   intx.c      INTx and MSI: ICR/ICS/IMS/IMC, IAM/IAME, the self-test's
 *               ICR bit walk
 *   msix.c      MSI-X: IVAR routing, EIAC, EIAME, OTHER
 *   timers.c    ITR, EITR, RDTR/RADV, TIDV/TADV, FPD
 */

#ifndef E1000E_PP_IRQ_H
#define E1000E_PP_IRQ_H

#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

/* The device's INTx line is asserted (its IOAPIC input is high) */
bool irq_line_high(EppDev *d);
/* A device started with INTx watched, brought up, ICR read empty */
EppDev *irq_start_intx(const char *model);
/*
 * Queue one 60-byte frame to the peer (EOP|IFCS|RS + extra_cmd) from
 * guest buffer g, written first when g is 0; returns the buffer
 */
uint64_t irq_send_small(EppDev *d, uint64_t g, uint8_t seed,
                        uint32_t extra_cmd);

#endif /* E1000E_PP_IRQ_H */
