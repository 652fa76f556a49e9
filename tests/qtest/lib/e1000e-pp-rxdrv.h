/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive-driver designs for the qtests, on the one receive ring
 * (e1000e-pp-rxring.h): three designs plugged in through a small
 * operations table (EppRxDesignOps below), one file each:
 * e1000e-pp-rxdrv-stock.c, -pagepool.c and -fixed.c.  What every design
 * does is here (e1000e-pp-rxdrv.c: buffers, poison checks, software FCS
 * strip, frames, waits); a design decides how buffers are sized and
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

#include "e1000e-pp-rxring.h"

/* Where the FCS was found when software stripped it */
typedef enum EppFcsCase {
    EPP_FCS_NONE,           /* RCTL.SECRC=1: the device stripped it */
    EPP_FCS_IN_LAST,        /* all four bytes in the last piece, with data */
    EPP_FCS_STRADDLES,      /* split over the last two pieces */
    EPP_FCS_ALONE,          /* the last piece holds the FCS and nothing else */
} EppFcsCase;

#define EPP_RX_MAX_PIECES   64
#define EPP_RX_MAX_FRAME    16384

/* One frame as the driver hands it to the stack */
struct EppRxFrame {
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
};

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
/* Tail policy: move the tail after each batch, to next_to_use */
void epp_rx_tail_per_batch(EppRx *rx, int i);
EppRxBuf epp_rx_buf_alloc(EppRx *rx, uint32_t headroom, uint32_t map_len,
                          uint32_t tail_slack);
void epp_rx_buf_free(EppRx *rx, EppRxBuf *b);
/* check for designs whose buffers all come from epp_rx_buf_alloc */
void epp_rx_check_bufs(EppRx *rx);

/* Frame assembly, shared by both cleaners (e1000e-pp-rxdrv.c) */
void epp_rx_frame_reset(EppRx *rx, EppRxFrame *f, unsigned first);
/* Append descriptor i (written back as w) to f: bytes, lengths, status */
void epp_rx_frame_add_desc(EppRx *rx, EppRxFrame *f, unsigned i,
                           const EppRxWb *w);
/* All descriptors are in: pieces kept, software FCS strip, data */
void epp_rx_frame_finish(EppRx *rx, EppRxFrame *f);
/* Per-descriptor cleaning: one poll, up to the next frame (clean.c) */
bool epp_rx_clean_poll(EppRx *rx, EppRxFrame *f);

/*
 * Set up the receive side on a device that went through
 * epp_bring_up: Rx is disabled, the ring and buffer registers are
 * programmed, buffers posted, Rx enabled.
 */
EppRx *epp_rx_new(EppDev *d, const EppRxSetup *s);
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
/* The stock driver's e1000e_flush_descriptors: RDTR with FPD, twice */
void epp_rx_flush(EppRx *rx);

/* Give a frame's buffers back (pagepool: recycle; stock: free) */
void epp_rx_release(EppRx *rx, EppRxFrame *f);

/* Pool accounting: free + posted + held == total, counts agree */
void epp_rx_check_pool(EppRx *rx);

/* Human-readable names for messages */
const char *epp_rx_design_name(EppRxDesign d);
const char *epp_fcs_case_name(EppFcsCase c);

#endif /* E1000E_PP_RXDRV_H */
