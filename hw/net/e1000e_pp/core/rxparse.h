/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive filters and parsing (rxparse.c, §7.1.1): destination
 * address and VLAN filters, L3/L4 parse.
 */
#ifndef E1000E_PP_RXPARSE_H
#define E1000E_PP_RXPARSE_H

#include "common.h"

bool e1000e_pp_rx_address_match(E1000EPPCore *c, const uint8_t *da);
bool e1000e_pp_rx_vlan_match(E1000EPPCore *c, uint16_t tci);
void e1000e_pp_rx_parse(E1000EPPCore *c, const uint8_t *f, size_t len,
                        size_t strip_off, E1000EPPRxInfo *info);

#endif
