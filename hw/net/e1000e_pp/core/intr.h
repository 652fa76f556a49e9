/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupts (intr.c, §7.4): causes, masks, INTx/MSI/MSI-X delivery and
 * the ITR/EITR throttle.
 */
#ifndef E1000E_PP_INTR_H
#define E1000E_PP_INTR_H

#include "common.h"

/*
 * intr.c, a leaf: causes are recorded here and committed once, at the
 * end of e1000e_pp_settle().
 */
void e1000e_pp_raise(E1000EPPCore *c, uint32_t causes);
void e1000e_pp_intr_commit(E1000EPPCore *c);
void e1000e_pp_intr_reset(E1000EPPCore *c);
void e1000e_pp_throttle_expired(E1000EPPCore *c, E1000EPPTimer timer);
uint32_t e1000e_pp_icr_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_ics_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_ims_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_intr_changed(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);

#endif
