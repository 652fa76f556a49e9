/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transmit engine (tx.c, §7.2): TDT and TCTL hooks, the ring walk.
 */
#ifndef E1000E_PP_TX_H
#define E1000E_PP_TX_H

#include "common.h"

/*
 * tx.c. The Tx buffer keeps TX_HEADROOM bytes before the frame so a
 * VLAN tag can be inserted; without TSO the 82574 sends at most a 16 KB
 * packet.
 */
#define TX_HEADROOM     4
#define TX_MAX_PLAIN    16384
#define TX_ROOM         (E1000E_PP_TX_BUF_BYTES - TX_HEADROOM)
void e1000e_pp_tdt_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_tctl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_tx_run(E1000EPPCore *c);
void e1000e_pp_tx_reset(E1000EPPCore *c);

#endif
