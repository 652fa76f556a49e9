/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flow control received (pause.c, §3.7.5): a PAUSE frame holds the
 * transmitter for its quanta.
 */
#ifndef E1000E_PP_PAUSE_H
#define E1000E_PP_PAUSE_H

#include "common.h"

bool e1000e_pp_pause_received(E1000EPPCore *c, const uint8_t *f, size_t len);
void e1000e_pp_pause_expired(E1000EPPCore *c);

#endif
