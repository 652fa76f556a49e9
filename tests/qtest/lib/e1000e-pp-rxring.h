/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive ring of the qtest driver (e1000e-pp-rxring.c), the one
 * every qtest uses: descriptors in guest memory, next_to_use and
 * next_to_clean, the tail, write-back reads and DD waits, and the
 * read-clear statistics.
 *
 * A ring comes in one of two ways:
 * - epp_bring_up programs the device's own ring (EppDev.rx, 64
 *   legacy or extended descriptors): the scenario posts buffers of its
 *   own, or addresses it chose on purpose (0, BAR0, unmapped), with
 *   epp_rx_post_addr and reads the write-backs itself;
 * - epp_rx_new (e1000e-pp-rxdrv.h, the Rx binary) builds a ring for a
 *   receive-driver design, which allocates, poisons, posts and cleans
 *   the buffers the way that design does.
 *
 * The ring's invariants:
 * - the driver fills descriptors at next_to_use and reads them back at
 *   next_to_clean; posted = descriptors between the two;
 * - RDH == RDT means "the ring holds no descriptors for the device";
 * - RDH/RDT count 16-byte units: a 32-byte packet-split descriptor moves
 *   them by two (the Linux driver writes i << 1 to RDT for that ring).
 */

#ifndef E1000E_PP_RXRING_H
#define E1000E_PP_RXRING_H

#include "e1000e-pp-drv.h"

typedef enum EppRxDesign {
    EPP_RX_STOCK,
    EPP_RX_PAGEPOOL,
    EPP_RX_FIXED,
} EppRxDesign;

typedef enum EppRxFormat {
    EPP_RXF_LEGACY,
    EPP_RXF_EXTENDED,
    EPP_RXF_SPLIT,
} EppRxFormat;

/* The stock design's copybreak (netdev.c copybreak, default 256) */
typedef enum EppCopybreak {
    EPP_CB_LINUX,           /* 256; a copied frame's buffer is re-mapped */
    EPP_CB_OFF,             /* copybreak=0: nothing is copied */
    EPP_CB_SYNC,            /* 256; the copied buffer stays mapped: syncs */
} EppCopybreak;

/* How epp_rx_new sets a design's ring up (unused by bring-up's ring) */
typedef struct EppRxSetup {
    EppRxDesign design;
    unsigned mtu;               /* stock and pagepool: picks LPE and sizes */
    bool keep_crc;              /* RCTL.SECRC = 0 */
    bool vlan_strip;            /* CTRL.VME */
    EppRxFormat format;         /* pagepool and fixed; stock picks its own */
    unsigned ring_count;        /* descriptors in the ring; 0: 64 */
    unsigned fill;              /* descriptors posted at start; 0: all */
    uint32_t rctl_bsize;        /* fixed: RCTL BSIZE|BSEX bits */
    uint32_t psrctl;            /* fixed + split: PSRCTL */
    bool lpe;                   /* fixed: RCTL.LPE */
    bool rdmts_half;            /* RCTL.RDMTS = 1/2 (the driver's choice) */
    bool dma_burst;             /* stock timing on another design */
    EppCopybreak copybreak;     /* stock */
    bool no_packet_split;       /* stock above 1500: the jumbo path */
    bool sbp;                   /* RCTL.SBP: the device stores bad frames */
    bool rxall;                 /* NETIF_F_RXALL: SBP, bad frames kept */
    /*
     * Clean descriptor by descriptor as Linux does (e1000e-pp-rxdrv-
     * clean.c): a frame is built across polls (stock jumbo path,
     * page-pool multi-buffer) or, where the design takes one buffer per
     * frame, a descriptor without EOP starts FLAG2_IS_DISCARDING; the
     * ring refills (and moves the tail) as it cleans.  Off: a frame is
     * taken only once every descriptor to its EOP has DD.
     */
    bool per_desc;
    /*
     * A write-back longer than the buffer's mapping, and poison written
     * outside the reported bytes, are counted (EppRx.overruns,
     * poison_hits) instead of failing: for scenarios that show a
     * design's buffers are too small for what the device may store.
     */
    bool tolerate_overrun;
} EppRxSetup;

/* A buffer a descriptor points at (design rings) */
typedef struct EppRxBuf {
    uint64_t region;            /* start of what the driver owns */
    uint32_t region_len;
    uint64_t dma;               /* address given to the device */
    uint32_t map_len;           /* bytes the device may write */
    int chunk;                  /* pagepool chunk index, else -1 */
    bool mapped;                /* DMA-mapped for the device (counted) */
} EppRxBuf;

typedef struct EppRxSlot {
    EppRxBuf buf[4];
    unsigned nbuf;
    bool posted;
} EppRxSlot;

typedef struct EppRxDesignOps EppRxDesignOps;
typedef struct EppRxFrame EppRxFrame;

struct EppRx {
    EppDev *d;
    EppRxSetup s;
    const EppRxDesignOps *ops;  /* NULL: bring-up's ring, no design */
    void *design;               /* the design's own state */
    EppRxFormat format;
    unsigned count;             /* descriptors */
    unsigned desc_len;          /* 16 or 32 */
    uint64_t ring;
    EppRxSlot *slot;            /* design rings: one per descriptor */
    unsigned next_to_use;       /* next descriptor the driver fills */
    unsigned next_to_clean;     /* next descriptor the driver reads */
    unsigned posted;            /* descriptors owned by the device */
    uint32_t rctl;
    size_t hw_bufsize;          /* legacy/extended buffer size */
    size_t ps_size[4];          /* split buffer sizes */
    uint8_t poison;
    bool burst;                 /* DMA-burst timing, FPD flush on waits */
    unsigned live_bufs;         /* buffers from epp_rx_buf_alloc */

    /* accumulated read-clear statistics */
    uint64_t mpc, rnbc, gprc, tpr, roc, ruc, gorc;
    /* frames delivered to the test by the driver */
    uint64_t delivered;
    /* frames the driver dropped for a frame error (see frame_error) */
    uint64_t frame_errors;
    uint32_t frame_error_bits;  /* ERRORS of the last one */
    /*
     * DMA API calls the design's Linux code path would make: map/unmap
     * (dma_map_single/page and their unmaps) and syncs (for the CPU or
     * for the device), counted where that code makes them.
     */
    uint64_t dma_maps, dma_unmaps, dma_syncs;
    /* RDT writes the driver made (tail policy), from epp_rx_new on */
    uint64_t tail_writes;

    /* Per-descriptor cleaning (s.per_desc) */
    EppRxFrame *chain;          /* rx_skb_top / the multi-buffer frame */
    bool discarding;            /* FLAG2_IS_DISCARDING */
    unsigned cleaned;           /* descriptors cleaned, not yet refilled */
    uint64_t polls;             /* poll calls that cleaned something */
    uint64_t discarded_descs;   /* descriptors dropped while discarding */
    uint64_t chain_drops;       /* partial frames freed by a frame error */
    uint64_t overruns;          /* write-backs longer than the mapping */
    uint64_t poison_hits;       /* bytes written outside reported ones */
};

/* A descriptor's write-back, decoded for its format */
typedef struct EppRxWb {
    bool dd, eop;
    uint32_t status, errors;
    uint16_t vlan, hdr_status;
    uint16_t len[4];            /* buffer lengths (split: all four) */
} EppRxWb;

/*
 * The ring bring-up programs: count 16-byte descriptors at guest
 * address ring (epp_start allocates it, epp_bring_up writes
 * RDBAL/RDLEN and picks the format from RFCTL.EXTEN); epp_rx_ring_free
 * frees the EppRx, not the guest memory.
 */
EppRx *epp_rx_ring_new(EppDev *d, uint64_t ring, unsigned count);
void epp_rx_ring_free(EppRx *rx);
/* bring-up: RDH = RDT = 0 again, descriptors in this format */
void epp_rx_ring_reset(EppRx *rx, EppRxFormat format);
/* After a migration: dst's ring goes on where src's was */
void epp_rx_ring_continue(EppRx *dst, const EppRx *src);

/*
 * Post one descriptor pointing at addr (read format: the buffer address,
 * the rest zero) at next_to_use and move the tail past it; returns its
 * index.  The address is the caller's: a buffer of its own or one chosen
 * to be wrong.
 */
unsigned epp_rx_post_addr(EppRx *rx, uint64_t addr);
/* The 16 (or 32) bytes of descriptor i as they are in guest memory */
void epp_rx_desc_bytes(EppRx *rx, unsigned i, uint8_t *desc);
/* Descriptor i's write-back, decoded */
void epp_rx_desc_read(EppRx *rx, unsigned i, EppRxWb *w);
/* Wait (virtual time, 100 ms) for DD on descriptor i */
void epp_rx_wait_dd(EppRx *rx, unsigned i);
/* True if the descriptor at next_to_clean has DD */
bool epp_rx_dd_pending(EppRx *rx);

unsigned epp_rx_ring_next(EppRx *rx, unsigned i);
/* Guest address of descriptor i */
uint64_t epp_rx_desc_addr(EppRx *rx, unsigned i);
/* RDT = i (in 16-byte units), counted in tail_writes */
void epp_rx_write_tail(EppRx *rx, unsigned i);

/* Read-clear statistics into the 64-bit totals */
void epp_rx_stats_update(EppRx *rx);

#endif /* E1000E_PP_RXRING_H */
