/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * General registers (§10.2.2, general.c): the CTRL, STATUS, CTRL_EXT, PBA
 * and SWSM hooks.
 */
#ifndef E1000E_PP_GENERAL_H
#define E1000E_PP_GENERAL_H

#include "common.h"

/* Register hooks, one file per datasheet concern; general.c first. */
uint32_t e1000e_pp_status_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_status_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);
void e1000e_pp_ctrl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_ctrl_ext_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                              uint32_t old);
uint32_t e1000e_pp_pba_read(E1000EPPCore *c, uint32_t off);
uint32_t e1000e_pp_swsm_read(E1000EPPCore *c, uint32_t off);

#endif
