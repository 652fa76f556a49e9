/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the e1000e-pp-rx-test scenarios: expected bytes, the case
 * types the matrix is generated from, and the scenario entry points.
 */
#ifndef E1000E_PP_RX_TEST_H
#define E1000E_PP_RX_TEST_H

#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-scenario.h"

#define RX_BUDGET_NS    (100 * EPP_NS_PER_MS)

extern const unsigned mtu_breakpoints[14];

typedef struct MtuCase {
    unsigned mtu;
    bool keep_crc;
    bool strip;
    bool legacy;
} MtuCase;

typedef struct TailCase {
    size_t l;               /* bytes in the buffers, FCS included */
} TailCase;

typedef struct BsizeCase {
    size_t bsize;
    uint32_t rctl;          /* BSIZE (17:16) | BSEX (25) */
    bool legacy;
} BsizeCase;

typedef struct SplitCase {
    unsigned bsize0;        /* PSRCTL.BSIZE0, bytes (128-byte units) */
    unsigned bsize[3];      /* PSRCTL.BSIZE1..3, bytes (1 KB units) */
    bool keep_crc;
} SplitCase;

typedef struct StockCase {
    unsigned mtu;
} StockCase;

/* Expected bytes and chains (e1000e-pp-rx-test.c) */
size_t expected_bytes(uint8_t *out, const uint8_t *wire, size_t len,
                      bool tagged, bool strip, bool keep_crc, bool stock);
void check_chain(EppRxFrame *f, const uint8_t *exp, size_t n, size_t bs,
                 bool keep_crc, bool stock);
void wait_arrived(EppRx *rx, uint64_t tpr);
/* A device up (default bring-up) with a receive ring set up as s */
EppRx *rx_start(const char *model, const EppRxSetup *s);
/* Free the ring and stop the device */
void rx_stop(EppRx *rx);

/* Plain ring verbs: bytes, write-backs, FCS (e1000e-pp-rx-basic.c) */
void rx_legacy_frame_bytes(const char *model);
void rx_extended_frame_bytes(const char *model);
void rx_fcs_straddles_descriptors(const char *model);

/* Page-pool MTU matrix, FCS tails, buffer sizes (e1000e-pp-rx-matrix.c) */
void pp_mtu_matrix(const char *model, const void *opaque);
void fcs_tail(const char *model, const void *opaque);
void rx_buffer_size(const char *model, const void *opaque);

/* Packet split (e1000e-pp-rx-split.c) */
void rx_packet_split(const char *model, const void *opaque);
void rx_split_ring_pointers_16_byte_units(const char *model);

/* Write-back, the stock design, exhaustion (e1000e-pp-rx-flow.c) */
void rx_writeback_batches_wthresh(const char *model);
void stock_design_delivers_in_order(const char *model, const void *opaque);
void rx_ring_exhaustion_packet_buffer(const char *model);

/* Partial frames, descriptor cache, posted writes (e1000e-pp-rx-partial.c) */
void rx_partial_frame_across_polls(const char *model);
void rx_partial_dry_at_chunk(const char *model, const void *opaque);
void rx_partial_add_cases(void);
void rx_buffer_reposts_add_cases(void);
void rx_tail_before_contents_caught(const char *model);
void rx_blocked_data_write_is_posted(const char *model);
void rx_null_descriptor_skipped(const char *model);
void rx_fetch_limit_set_at_run_time(const char *model);
/* DMA-fault diagnosis, situations (e1000e-pp-rx-diag.c) */
void rx_short_buffer_one_fault_record(const char *model);

/* Designs cleaning per descriptor (e1000e-pp-rx-designs.c) */
void rx_designs_add_cases(void);

/* The published page-pool table (e1000e-pp-rx-table.c) */
/* One design's published cell: pieces / truesize / density range */
typedef struct PubCell {
    unsigned pieces;
    size_t truesize;
    double density_lo;      /* at the row's first MTU; < 0: not given */
    double density_hi;      /* at the row's last MTU */
} PubCell;

typedef struct PubRow {
    unsigned lo, hi;        /* MTU range */
    PubCell stock, pagepool;
} PubRow;

extern const PubRow rx_published[];
extern const size_t rx_published_rows;

#define MTU_MIN     68
#define MTU_MAX     9212

const PubRow *pub_row(unsigned mtu);
const PubCell *pub_cell(const PubRow *r, EppRxDesign design);
/* lo..hi every step, plus every row edge and its neighbours, sorted */
GArray *sweep_mtus(unsigned lo, unsigned hi, unsigned step);
/* A density (positive) at two decimals, in hundredths */
long hundredths(double v);

typedef struct Measure {
    EppRxDesign design;
    unsigned mtu;
    bool vlan, fcs_kept;
    bool no_ps;             /* stock above 1500: the jumbo path */
    unsigned descriptors;   /* descriptors the frame took */
    unsigned pieces;        /* published definition */
    unsigned pieces_kept;   /* pieces attached after the FCS strip */
    EppFcsCase fcs_case;
    size_t truesize;        /* published definition */
    size_t charged;         /* what the design charges */
    double density;         /* (MTU + 14) / truesize */
} Measure;

/* The largest frame at m->mtu through a fresh ring of m->design */
void measure(E1000epp *d, Measure *m);

void rx_published_table(const char *model, const void *opaque);
void rx_add_published_table_cases(void);
void rx_stock_paths(const char *model, const void *opaque);
int report(int argc, char **argv);

/* DMA-map cost per packet (e1000e-pp-rx-dmacost.c) */
typedef struct EppDmaCost {
    unsigned frames;
    uint64_t maps, unmaps, syncs;   /* during the stream */
    uint64_t maps_at_start;         /* filling the ring (and pool) */
} EppDmaCost;

/*
 * A steady stream of n frames (MTU + 14 bytes and 128 alternately) after
 * one to warm the ring up; n even
 */
void rx_dma_cost_stream(E1000epp *d, const EppRxSetup *s, unsigned n,
                        EppDmaCost *cost);
void rx_add_dma_cost_cases(void);

/* Design benchmark, --design-bench (e1000e-pp-rx-designbench.c) */
int design_bench(int argc, char **argv);

/* Frame errors and RCTL.SBP (e1000e-pp-rx-errors.c) */
void rx_add_frame_error_cases(void);
void rx_sbp_long_frame_exceeds_stock_buffer(const char *model);

/* The x-rx-backpressure property (e1000e-pp-rx-backpressure.c) */
void rx_backpressure_on_holds_frames(const char *model);
void rx_backpressure_off_drops_into_mpc(const char *model);

/* Virtual time forward by us microseconds */
static inline void step_us(E1000epp *d, unsigned us)
{
    e1000epp_step(d, us * EPP_NS_PER_US);
}

/*
 * The frame errors the device injects on demand (x-rx-error-* knobs), the
 * ERRORS bit each sets with RCTL.SBP (82574L §7.1.4.1; 0: none) and the
 * statistics register that counts it; defined in e1000e-pp-rx-errors.c.
 */
typedef struct EppRxErrKind {
    const char *name;
    const char *knob;
    uint8_t err;
    uint32_t stat;
} EppRxErrKind;

#define EPP_RX_ERR_KINDS 4
extern const EppRxErrKind epp_rx_err_kinds[EPP_RX_ERR_KINDS];
void epp_rx_arm_error(E1000epp *d, const EppRxErrKind *k);

#endif
