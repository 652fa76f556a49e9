/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive descriptors (§7.1.4): status and error bits, the
 * format RCTL.DTYP and RFCTL.EXTEN select, the ring's base and length.
 */
#ifndef E1000E_PP_RXDESC_H
#define E1000E_PP_RXDESC_H

#include "common.h"

/* Receive descriptor status and error bits (legacy layout, §7.1.4.1). */
#define RXD_STAT_DD     (1u << 0)
#define RXD_STAT_EOP    (1u << 1)
#define RXD_STAT_IXSM   (1u << 2)
#define RXD_STAT_VP     (1u << 3)
#define RXD_STAT_UDPCS  (1u << 4)
#define RXD_STAT_TCPCS  (1u << 5)
#define RXD_STAT_IPCS   (1u << 6)
#define RXD_STAT_TST    (1u << 8)   /* extended only: a time stamp taken */
#define RXD_ERR_TCPE    (1u << 5)
#define RXD_ERR_IPE     (1u << 6)

typedef enum RxFormat { RX_LEGACY, RX_EXTENDED, RX_SPLIT } RxFormat;

/* The Rx descriptor format RCTL.DTYP and RFCTL.EXTEN select. */
static inline RxFormat e1000e_pp_rx_format(E1000EPPCore *c)
{
    if ((REG(c, RCTL) & RCTL_DTYP_MASK) == RCTL_DTYP_PS) {
        return RX_SPLIT;
    }
    return (REG(c, RFCTL) & RFCTL_EXTEN) ? RX_EXTENDED : RX_LEGACY;
}

/*
 * RDH, RDT and RDLEN count 16-byte units in every format; a 32-byte
 * packet-split descriptor takes two (Linux writes "i << 1" to RDT).
 */
static inline unsigned e1000e_pp_rx_desc_units(RxFormat f)
{
    return f == RX_SPLIT ? 2 : 1;
}

static inline uint32_t e1000e_pp_rx_ring_units(E1000EPPCore *c)
{
    return (REG(c, RDLEN) & 0xfff80) / 16;
}

static inline uint64_t e1000e_pp_rx_ring_base(E1000EPPCore *c)
{
    return (uint64_t)REG(c, RDBAH) << 32 | (REG(c, RDBAL) & ~0xfu);
}

#endif
