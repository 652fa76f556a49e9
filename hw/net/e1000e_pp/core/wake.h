/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Wake-up (wake.c, §5.6.3): wake events in D3hot and the wake-up frame
 * filters.
 */
#ifndef E1000E_PP_WAKE_H
#define E1000E_PP_WAKE_H

#include "common.h"

bool e1000e_pp_wake_event(E1000EPPCore *c, uint32_t cause);
uint32_t e1000e_pp_wake_frame(E1000EPPCore *c, const uint8_t *f, size_t len);

#endif
