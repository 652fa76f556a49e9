/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IEEE 1588 time sync (timesync.c, §7.8): SYSTIM, TIMINCA, TIMADJ and
 * the Rx/Tx time stamps.
 */
#ifndef E1000E_PP_TIMESYNC_H
#define E1000E_PP_TIMESYNC_H

#include "common.h"

uint32_t e1000e_pp_systiml_read(E1000EPPCore *c, uint32_t off);
uint32_t e1000e_pp_systimh_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_systim_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);
void e1000e_pp_timinca_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                             uint32_t old);
void e1000e_pp_timadj_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);
void e1000e_pp_timesync_reset(E1000EPPCore *c);
uint32_t e1000e_pp_stamp_high_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_timesync_tx(E1000EPPCore *c);
void e1000e_pp_timesync_rx(E1000EPPCore *c, const uint8_t *f, size_t len,
                           E1000EPPRxInfo *info);

#endif
