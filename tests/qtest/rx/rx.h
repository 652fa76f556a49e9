/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the receive scenario files in rx/ (one binary each) share:
 * expected bytes and chains, a device up with a ring (rx.c), the
 * published page-pool table (published.c), the DMA-cost stream and the
 * frame-error kinds.
 */
#ifndef E1000E_PP_RX_H
#define E1000E_PP_RX_H

#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-scenario.h"

#define RX_BUDGET_NS    (100 * EPP_NS_PER_MS)

extern const unsigned mtu_breakpoints[14];

/* Expected bytes and chains (rx.c) */
size_t expected_bytes(uint8_t *out, const uint8_t *wire, size_t len,
                      bool tagged, bool strip, bool keep_crc, bool stock);
void check_chain(EppRxFrame *f, const uint8_t *exp, size_t n, size_t bs,
                 bool keep_crc, bool stock);
void wait_arrived(EppRx *rx, uint64_t tpr);
/* A device up (default bring-up) with a receive ring set up as s */
EppRx *rx_start(const char *model, const EppRxSetup *s);
/* Free the ring and stop the device */
void rx_stop(EppRx *rx);

/* The published page-pool table (published.c) */
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
void measure(EppDev *d, Measure *m);

/* DMA-map cost per packet (rx.c; the scenarios in dmacost.c) */
typedef struct EppDmaCost {
    unsigned frames;
    uint64_t maps, unmaps, syncs;   /* during the stream */
    uint64_t maps_at_start;         /* filling the ring (and pool) */
} EppDmaCost;

/*
 * A steady stream of n frames (MTU + 14 bytes and 128 alternately) after
 * one to warm the ring up; n even
 */
void rx_dma_cost_stream(EppDev *d, const EppRxSetup *s, unsigned n,
                        EppDmaCost *cost);

/* Frame errors and RCTL.SBP (errors.c) */

/* Virtual time forward by us microseconds */
static inline void step_us(EppDev *d, unsigned us)
{
    epp_step(d, us * EPP_NS_PER_US);
}

/*
 * The frame errors the device injects on demand (x-rx-error-* knobs), the
 * ERRORS bit each sets with RCTL.SBP (82574L §7.1.4.1; 0: none) and the
 * statistics register that counts it; defined in rx.c.
 */
typedef struct EppRxErrKind {
    const char *name;
    const char *knob;
    uint8_t err;
    uint32_t stat;
} EppRxErrKind;

#define EPP_RX_ERR_KINDS 4
extern const EppRxErrKind epp_rx_err_kinds[EPP_RX_ERR_KINDS];
void epp_rx_arm_error(EppDev *d, const EppRxErrKind *k);

#endif
