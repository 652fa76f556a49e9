/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive engine (rx.c): RDT and RCTL, the frames from the wire and
 * from loopback, draining the packet buffer.
 */
#ifndef E1000E_PP_RX_H
#define E1000E_PP_RX_H

#include "common.h"

void e1000e_pp_rdt_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_rctl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_rx_drain(E1000EPPCore *c);
void e1000e_pp_rx_reset(E1000EPPCore *c);
bool e1000e_pp_rx_wire(E1000EPPCore *c, const uint8_t *frame, size_t len);
bool e1000e_pp_rx_loopback(E1000EPPCore *c, const uint8_t *frame, size_t len);
bool e1000e_pp_loopback(E1000EPPCore *c);

#endif
