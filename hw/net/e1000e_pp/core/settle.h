/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settle step (settle.c) and the brackets around every entry point:
 * the outermost one settles.
 */
#ifndef E1000E_PP_SETTLE_H
#define E1000E_PP_SETTLE_H

#include "common.h"

/*
 * settle.c. Every entry point is bracketed: e1000e_pp_enter (register
 * accesses: refuses one nested in a step) or e1000e_pp_begin (events),
 * then e1000e_pp_leave, whose outermost call settles.
 */
void e1000e_pp_settle(E1000EPPCore *c);
bool e1000e_pp_enter(E1000EPPCore *c, uint32_t off, const char *what);
void e1000e_pp_begin(E1000EPPCore *c);
void e1000e_pp_leave(E1000EPPCore *c);

#endif
