/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive ring driver for the qtests: one ring (e1000e-pp-rxdrv.c) and
 * three receive-driver designs plugged into it through a small
 * operations table (EppRxDesignOps below), one file each:
 * e1000e-pp-rxdrv-stock.c, -pagepool.c and -fixed.c.  The ring does
 * what every design does (descriptors, poison checks, software FCS
 * strip, statistics, waits); a design decides how buffers are sized and
 * filled, when the tail moves, what a finished frame keeps and how it
 * gives its buffers back.
 *
 * stock     The in-tree Linux e1000e choices for the 82574
 *           (netdev.c: e1000_setup_rctl, e1000_configure_rx,
 *           e1000_alloc_rx_buffers[_ps], e1000_clean_rx_irq[_ps]):
 *           MTU <= 1500: extended descriptors, 1522-byte buffers under
 *           RCTL.BSIZE 2048 with LPE=0, copybreak 256; MTU > 1500: packet
 *           split with a 128-byte header buffer and 4 KB pages.  The
 *           FLAG2_DMA_BURST defaults decide when descriptors become
 *           visible: RXDCTL 0x01040420 (granularity 1, WTHRESH 4,
 *           HTHRESH 4, PTHRESH 0x20), RDTR = RADV = 0x20, and a flush
 *           with RDTR.FPD before the driver concludes anything.  The tail
 *           moves every 16 descriptors, as E1000_RX_BUFFER_WRITE makes it.
 *
 * pagepool  One path at every MTU: RCTL.BSIZE 2048, buffers carved from
 *           4 KB pages (two 2 KB chunks per page while the chunk
 *           truesize is 2048 and LPE=0, one buffer per page above),
 *           DMA address = chunk start + 64 bytes of headroom, frames
 *           assembled from 2 KB pieces, FCS stripped in software when
 *           RCTL.SECRC=0 (also when it straddles two pieces or sits
 *           alone in the last one), truesize as libeth computes it, and
 *           pool accounting that proves no chunk leaks.
 *
 * fixed     Every descriptor gets buffers of exactly the size RCTL (or
 *           PSRCTL) announces; no software FCS handling.  For the
 *           datasheet's buffer-size and packet-split rules.
 *
 * Every buffer is poisoned before it is posted; when a descriptor comes
 * back the driver checks that the device wrote nothing outside the
 * bytes the write-back reports (no write before the DMA address, none
 * past the reported length up to the end of the chunk or mapping).
 *
 * The driver only reads descriptors whose DD bit is set.
 */

#ifndef E1000E_PP_RXDRV_H
#define E1000E_PP_RXDRV_H

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

/* Where the FCS was found when software stripped it */
typedef enum EppFcsCase {
    EPP_FCS_NONE,           /* RCTL.SECRC=1: the device stripped it */
    EPP_FCS_IN_LAST,        /* all four bytes in the last piece, with data */
    EPP_FCS_STRADDLES,      /* split over the last two pieces */
    EPP_FCS_ALONE,          /* the last piece holds the FCS and nothing else */
} EppFcsCase;

/* The stock design's copybreak (netdev.c copybreak, default 256) */
typedef enum EppCopybreak {
    EPP_CB_LINUX,           /* 256; a copied frame's buffer is re-mapped */
    EPP_CB_OFF,             /* copybreak=0: nothing is copied */
    EPP_CB_SYNC,            /* 256; the copied buffer stays mapped: syncs */
} EppCopybreak;

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

#define EPP_RX_MAX_PIECES   64
#define EPP_RX_MAX_FRAME    16384

/* One frame as the driver hands it to the stack */
typedef struct EppRxFrame {
    uint8_t data[EPP_RX_MAX_FRAME];   /* after software FCS strip */
    size_t len;
    uint8_t raw[EPP_RX_MAX_FRAME + 8];  /* every byte the device wrote */
    size_t raw_len;
    unsigned first_desc;        /* ring index of its first descriptor */
    unsigned ndesc;             /* descriptors it took */
    unsigned npieces;           /* buffers holding bytes, in order */
    uint32_t piece_len[EPP_RX_MAX_PIECES];
    uint32_t desc_len[EPP_RX_MAX_PIECES];     /* write-back length field */
    bool desc_eop[EPP_RX_MAX_PIECES];
    uint32_t status;            /* EOP descriptor: status (DD/EOP incl.) */
    uint32_t errors;            /* EOP descriptor: errors, legacy layout */
    uint16_t vlan;              /* EOP descriptor: VLAN tag field */
    uint16_t hdr_status;        /* split: header status of the first desc */
    uint8_t fcs[4];             /* bytes software stripped, if any */
    EppFcsCase fcs_case;
    unsigned pieces_kept;       /* pieces attached to the frame */
    size_t truesize;            /* what the design charges the stack */
    uint64_t seq;               /* delivery number on this ring, from 0 */
} EppRxFrame;

/* A buffer a descriptor points at */
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

typedef struct EppRx {
    E1000epp *d;
    EppRxSetup s;
    const EppRxDesignOps *ops;
    void *design;               /* the design's own state */
    EppRxFormat format;
    unsigned count;             /* descriptors */
    unsigned desc_len;          /* 16 or 32 */
    uint64_t ring;
    EppRxSlot *slot;
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
} EppRx;

/*
 * A receive-driver design.  The ring calls these in this order:
 * configure and start once; fill_slot then tail for every descriptor it
 * posts and tail(-1) after each batch; frame_done when every descriptor
 * of a frame is back (bytes taken, FCS stripped when sw_fcs_strip);
 * release when the test is done with the frame; check for the
 * accounting; destroy last.
 */
struct EppRxDesignOps {
    const char *name;
    /* Set format, buffer sizes, RCTL and RFCTL bits */
    void (*configure)(EppRx *rx, uint32_t *rctl, uint32_t *rfctl);
    /* Allocate the design's state once the ring exists (may be NULL) */
    void (*start)(EppRx *rx);
    /* Give slot i its buffers (reusing any still attached); false: none */
    bool (*fill_slot)(EppRx *rx, unsigned i);
    /* Tail policy: slot i was just posted, or the batch ended (i = -1) */
    void (*tail)(EppRx *rx, int i);
    /* Strip the FCS in software when RCTL.SECRC=0 */
    bool sw_fcs_strip;
    /* DMA-burst RXDCTL/RDTR/RADV and FPD flushes before concluding */
    bool dma_burst;
    /* The frame's buffers: which go with it, which stay; its truesize */
    void (*frame_done)(EppRx *rx, EppRxFrame *f);
    /*
     * The frame's cost as the published page-pool table counts it:
     * buffers the frame occupies and their truesize (may be NULL).
     * f->truesize is what the design actually charges.
     */
    void (*published_cost)(EppRx *rx, const EppRxFrame *f,
                           unsigned *pieces, size_t *truesize);
    /*
     * The EOP descriptor reports a frame error (RXD_ERR_FRAME) and the
     * driver does not keep bad frames (rxall off): the frame is dropped
     * and its buffers go back as the design recycles them (NULL: they
     * stay on their descriptors); the ring then looks at the next frame.
     */
    void (*frame_error)(EppRx *rx, EppRxFrame *f);
    /* The test is done with a frame (may be NULL) */
    void (*release)(EppRx *rx, EppRxFrame *f);
    /* Every buffer is in exactly one place; counts agree */
    void (*check)(EppRx *rx);
    /*
     * Per-descriptor cleaning (EppRxSetup.per_desc).  chains: true if
     * this ring builds a frame over several descriptors and keeps it
     * across polls; false if a frame must fit one descriptor (a
     * descriptor without EOP starts discarding).  chain_add: slot i's
     * buffers leave the slot and join the frame being built;
     * chain_done: that frame is complete (its buffers go up with it,
     * truesize); chain_drop: a frame error on the EOP frees the frame
     * being built.  Single-descriptor frames and dropped descriptors
     * use frame_done and frame_error with ndesc = 1.
     */
    bool (*chains)(EppRx *rx);
    void (*chain_add)(EppRx *rx, unsigned i, EppRxFrame *chain);
    void (*chain_done)(EppRx *rx, EppRxFrame *f);
    void (*chain_drop)(EppRx *rx, EppRxFrame *chain);
    /* Free the design's state (may be NULL) */
    void (*destroy)(EppRx *rx);
};

extern const EppRxDesignOps epp_rx_stock_ops;
extern const EppRxDesignOps epp_rx_pagepool_ops;
extern const EppRxDesignOps epp_rx_fixed_ops;

/* Ring services for the designs (e1000e-pp-rxdrv.c) */
typedef struct EppRxWb {
    bool dd, eop;
    uint32_t status, errors;
    uint16_t vlan, hdr_status;
    uint16_t len[4];            /* buffer lengths (split: all four) */
} EppRxWb;

void epp_rx_desc_read(EppRx *rx, unsigned i, EppRxWb *w);
unsigned epp_rx_ring_next(EppRx *rx, unsigned i);
void epp_rx_write_tail(EppRx *rx, unsigned i);
/* Tail policy: move the tail after each batch, to next_to_use */
void epp_rx_tail_per_batch(EppRx *rx, int i);
EppRxBuf epp_rx_buf_alloc(EppRx *rx, uint32_t headroom, uint32_t map_len,
                          uint32_t tail_slack);
void epp_rx_buf_free(EppRx *rx, EppRxBuf *b);
/* check for designs whose buffers all come from epp_rx_buf_alloc */
void epp_rx_check_bufs(EppRx *rx);
/* Buffers a design holds off the slots (stock: its chain's pages) */
unsigned epp_rx_stock_held(EppRx *rx);

/* Frame assembly, shared by both cleaners (e1000e-pp-rxdrv.c) */
void epp_rx_frame_reset(EppRx *rx, EppRxFrame *f, unsigned first);
/* Append descriptor i (written back as w) to f: bytes, lengths, status */
void epp_rx_frame_add_desc(EppRx *rx, EppRxFrame *f, unsigned i,
                           const EppRxWb *w);
/* All descriptors are in: pieces kept, software FCS strip, data */
void epp_rx_frame_finish(EppRx *rx, EppRxFrame *f);
/* Per-descriptor cleaning: one poll, up to the next frame (clean.c) */
bool epp_rx_clean_poll(EppRx *rx, EppRxFrame *f);

/* Page-pool state, for scenarios and the report */
typedef enum EppChunkState {
    EPP_CHUNK_FREE,
    EPP_CHUNK_POSTED,
    EPP_CHUNK_HELD,             /* part of a frame not yet released */
} EppChunkState;

typedef struct EppPagePool {
    unsigned npages;
    unsigned chunks_per_page;
    unsigned nchunks;
    uint64_t pool;              /* guest address of page 0 */
    EppChunkState *chunk_state;
    uint64_t *chunk_owner;      /* held chunks: the frame's seq */
    unsigned *free_stack;
    unsigned nfree;
    unsigned n_posted_chunks, n_held_chunks;
    size_t buf_len;             /* libeth buf_len */
    size_t chunk_truesize;      /* libeth truesize of one chunk */
    unsigned chain_last;        /* per_desc: last chunk of the frame */
} EppPagePool;

EppPagePool *epp_rx_pagepool(EppRx *rx);

/* stock: was this frame copied into a small buffer (copybreak)? */
bool epp_rx_stock_copied(EppRx *rx, const EppRxFrame *f);

/* libeth-style sizes (x86-64: NET_SKB_PAD 64, skb_shared_info 320) */
#define EPP_PP_HEADROOM         64
#define EPP_PP_SHINFO           320
#define EPP_PP_SKB              256
#define EPP_PP_PAGE             4096

size_t epp_pp_buf_len(unsigned mtu);
size_t epp_pp_chunk_truesize(unsigned mtu);
unsigned epp_pp_chunks_per_page(unsigned mtu);

/*
 * Set up the receive side on a device that went through
 * e1000epp_bring_up: Rx is disabled, the ring and buffer registers are
 * programmed, buffers posted, Rx enabled.
 */
EppRx *epp_rx_new(E1000epp *d, const EppRxSetup *s);
void epp_rx_free(EppRx *rx);

/* Post buffers on every free descriptor (design rules for the tail) */
void epp_rx_refill(EppRx *rx);
/* Post at most n more descriptors and move the tail past them */
void epp_rx_post_n(EppRx *rx, unsigned n);

/*
 * Take the next complete frame if the device has written back every
 * descriptor of it (DD); false if not (yet).  The bytes the device wrote
 * are checked against the poison outside the reported lengths.
 */
bool epp_rx_poll(EppRx *rx, EppRxFrame *f);
/* Wait (virtual time) for the next frame; dump and fail on timeout */
void epp_rx_wait_frame(EppRx *rx, EppRxFrame *f, uint64_t budget_ns);
/* True if the descriptor at next_to_clean has DD */
bool epp_rx_dd_pending(EppRx *rx);
/* The stock driver's e1000e_flush_descriptors: RDTR with FPD, twice */
void epp_rx_flush(EppRx *rx);

/* Give a frame's buffers back (pagepool: recycle; stock: free) */
void epp_rx_release(EppRx *rx, EppRxFrame *f);

/* Pool accounting: free + posted + held == total, counts agree */
void epp_rx_check_pool(EppRx *rx);

/* Read-clear statistics into the 64-bit totals */
void epp_rx_stats_update(EppRx *rx);

/* Human-readable names for messages */
const char *epp_rx_design_name(EppRxDesign d);
const char *epp_fcs_case_name(EppFcsCase c);

#endif /* E1000E_PP_RXDRV_H */
