/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Resets (reset.c, §4.6): what a MAC reset and a function reset clear.
 */
#ifndef E1000E_PP_RESET_H
#define E1000E_PP_RESET_H

#include "common.h"

void e1000e_pp_mac_reset(E1000EPPCore *c, bool software, bool keep_wake);
void e1000e_pp_function_reset(E1000EPPCore *c, bool power_on);
void e1000e_pp_reset_done(E1000EPPCore *c);

#endif
