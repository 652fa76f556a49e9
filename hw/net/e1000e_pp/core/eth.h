/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ethernet framing (IEEE 802.3): header, tag and FCS lengths, the
 * shortest frame, the broadcast address.
 */
#ifndef E1000E_PP_ETH_H
#define E1000E_PP_ETH_H

#include <stdbool.h>
#include <stdint.h>

/* Ethernet framing (IEEE 802.3) */
#define ETH_ALEN        6
#define ETH_HLEN        14
#define ETH_ZLEN        60      /* shortest frame on the wire, no FCS */
#define ETH_FCS_LEN     4
#define VLAN_HLEN       4

static inline bool eth_is_broadcast(const uint8_t *da)
{
    return (da[0] & da[1] & da[2] & da[3] & da[4] & da[5]) == 0xff;
}

#endif
