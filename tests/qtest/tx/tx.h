/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the transmit scenario files share (defined in tx.c); each file
 * is its own binary, e1000e-pp-tx-<file>-test:
 *   basic.c     legacy and data descriptors on the wire
 *   desc.c      descriptor forms, checksum offsets, VLAN, padding
 *   ring.c      TDT rules, DD/RS, ring wrap
 *   tso.c       TCP segmentation, IPv4 and IPv6
 */

#ifndef E1000E_PP_TX_H
#define E1000E_PP_TX_H

#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

/* Copy a buffer into fresh guest memory; its guest address */
uint64_t put_guest(EppDev *d, const uint8_t *buf, size_t len);
/* Queue n descriptors with one TDT write and wait until they are done */
void push_all(EppDev *d, uint8_t (*desc)[EPP_DESC_LEN], int n);

/* Context descriptor with the TSO fields (HDRLEN, MSS) in dword 3 */
void txd_context_tso(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                     uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                     uint16_t tucse, uint32_t paylen, uint32_t tucmd,
                     uint8_t hdrlen, uint16_t mss);

#endif /* E1000E_PP_TX_H */
