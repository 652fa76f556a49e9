/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the e1000e-pp-rx-test scenarios: frame helpers, the case
 * types the matrix is generated from, and the scenario entry points.
 */
#ifndef E1000E_PP_RX_TEST_H
#define E1000E_PP_RX_TEST_H

#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"

#define RX_BUDGET_NS    (100 * EPP_NS_PER_MS)
#define VLAN_TCI        0x2005          /* priority 1, VID 5 */
#define ETH_P_TEST      0x88b5          /* local experimental EtherType */

extern const uint8_t src_mac[6];
extern const unsigned mtu_breakpoints[14];

typedef struct MtuCase {
    const char *model;
    unsigned mtu;
    bool keep_crc;
    bool strip;
    bool legacy;
} MtuCase;

typedef struct TailCase {
    const char *model;
    size_t l;               /* bytes in the buffers, FCS included */
} TailCase;

typedef struct BsizeCase {
    const char *model;
    size_t bsize;
    uint32_t rctl;          /* BSIZE (17:16) | BSEX (25) */
    bool legacy;
} BsizeCase;

typedef struct SplitCase {
    const char *model;
    unsigned bsize0;        /* PSRCTL.BSIZE0, bytes (128-byte units) */
    unsigned bsize[3];      /* PSRCTL.BSIZE1..3, bytes (1 KB units) */
    bool keep_crc;
} SplitCase;

typedef struct StockCase {
    const char *model;
    unsigned mtu;
} StockCase;

/* Frame helpers (e1000e-pp-rx-test.c) */
bool is_stock(const char *model);
void frame_fill(uint8_t *f, size_t len, bool tagged, uint32_t seq);
uint32_t frame_seq(const uint8_t *f, bool tag_in_buffer);
size_t expected_bytes(uint8_t *out, const uint8_t *wire, size_t len,
                      bool tagged, bool strip, bool keep_crc, bool stock);
void check_chain(EppRxFrame *f, const uint8_t *exp, size_t n, size_t bs,
                 bool keep_crc, bool stock);
void wait_arrived(EppRx *rx, uint64_t tpr);

/* Page-pool MTU matrix, FCS tails, buffer sizes (e1000e-pp-rx-matrix.c) */
void pp_mtu_matrix(const void *opaque);
void fcs_tail(const void *opaque);
void rx_buffer_size(const void *opaque);

/* Packet split (e1000e-pp-rx-split.c) */
void rx_packet_split(const void *opaque);
void rx_split_ring_pointers_16_byte_units(const char *model);

/* Write-back, the stock design, exhaustion, report (e1000e-pp-rx-flow.c) */
void rx_writeback_batches_wthresh(const char *model);
void stock_design_delivers_in_order(const void *opaque);
void rx_ring_exhaustion_packet_buffer(const char *model);
int report(const char *model);

#endif
