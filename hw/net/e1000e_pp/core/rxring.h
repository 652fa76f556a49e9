/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Moving a frame into host buffers (rxring.c, §7.1.4): buffer sizes and
 * descriptors needed.
 */
#ifndef E1000E_PP_RXRING_H
#define E1000E_PP_RXRING_H

#include "rxframe.h"

size_t e1000e_pp_rx_buf_size(E1000EPPCore *c);
unsigned e1000e_pp_rx_descriptors_needed(E1000EPPCore *c, const RxFrame *fr);
bool e1000e_pp_rx_ring_move(E1000EPPCore *c, const RxFrame *fr,
                            uint32_t *done);

#endif
