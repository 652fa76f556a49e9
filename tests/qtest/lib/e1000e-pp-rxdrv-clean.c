/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-descriptor cleaning (EppRxSetup.per_desc): the receive ring read
 * the way the Linux e1000e clean routines read it, one descriptor at a
 * time while DD is set, instead of waiting for every descriptor of a
 * frame (the ring's default in e1000e-pp-rxdrv.c).
 *
 * Designs that take one buffer per frame (stock at MTU <= 1500,
 * e1000_clean_rx_irq; stock packet split, e1000_clean_rx_irq_ps): a
 * descriptor without EOP sets FLAG2_IS_DISCARDING, and every descriptor
 * up to and including the next EOP is dropped, its buffer recycled as
 * for a frame error.  The flag is the adapter's: it survives polls.
 *
 * Designs that chain (stock jumbo, e1000_clean_jumbo_rx_irq with
 * rx_skb_top; page-pool multi-buffer frames): each descriptor's buffer
 * joins the frame being built and leaves its slot, which is refilled;
 * the frame survives polls.  A frame error (valid on the EOP only)
 * recycles the EOP descriptor's buffer and frees the frame being built.
 *
 * Refill as Linux does: after every 16 descriptors cleaned
 * (E1000_RX_BUFFER_WRITE) and when a poll finds no more DD.  A poll
 * here ends early when a frame completes (the test takes it); the next
 * poll goes on.  The end-of-poll refill runs only after a poll that
 * cleaned something (Linux polls only after an interrupt), so a test
 * that posts part of the ring keeps it that way until frames come.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-rxdrv.h"

#define EPP_CLEAN_WRITE     16      /* E1000_RX_BUFFER_WRITE */

typedef enum CleanResult {
    CLEAN_NOTHING,
    CLEAN_FRAME,
} CleanResult;

/* Descriptor i, dropped: the design recycles its buffers */
static void drop_desc(EppRx *rx, unsigned i, const EppRxWb *w)
{
    g_autofree EppRxFrame *one = g_new0(EppRxFrame, 1);

    epp_rx_frame_reset(rx, one, i);
    one->ndesc = 1;
    one->status = w->status;
    one->errors = w->errors;
    if (rx->ops->frame_error) {
        rx->ops->frame_error(rx, one);
    }
}

/*
 * A write-back longer than what the driver mapped: the device wrote past
 * the buffer.  Linux reads no bytes of a dropped descriptor, so this is
 * where the overrun shows (and is counted), not in the poison check.
 */
static void note_overrun(EppRx *rx, unsigned i, const EppRxWb *w)
{
    EppRxSlot *sl = &rx->slot[i];
    unsigned j;

    for (j = 0; j < sl->nbuf; j++) {
        if (sl->buf[j].region && w->len[j] > sl->buf[j].map_len) {
            rx->overruns++;
        }
    }
}

static bool frame_error(EppRx *rx, const EppRxWb *w)
{
    return w->eop && (w->errors & RXD_ERR_FRAME) && !rx->s.rxall;
}

/* e1000_clean_rx_irq[_ps]: a frame must fit one descriptor */
static CleanResult clean_single(EppRx *rx, unsigned i, const EppRxWb *w,
                                EppRxFrame *f)
{
    if (!w->eop) {
        rx->discarding = true;
    }
    if (rx->discarding) {
        note_overrun(rx, i, w);
        drop_desc(rx, i, w);
        rx->discarded_descs++;
        if (w->eop) {
            rx->discarding = false;
        }
        return CLEAN_NOTHING;
    }
    if (frame_error(rx, w)) {
        drop_desc(rx, i, w);
        rx->frame_errors++;
        rx->frame_error_bits = w->errors;
        return CLEAN_NOTHING;
    }
    epp_rx_frame_reset(rx, f, i);
    epp_rx_frame_add_desc(rx, f, i, w);
    epp_rx_frame_finish(rx, f);
    if (rx->ops->frame_done) {
        rx->ops->frame_done(rx, f);
    }
    return CLEAN_FRAME;
}

/* e1000_clean_jumbo_rx_irq, page-pool multi-buffer: frames chain */
static CleanResult clean_chained(EppRx *rx, unsigned i, const EppRxWb *w,
                                 EppRxFrame *f)
{
    EppRxFrame *top = rx->chain;

    if (frame_error(rx, w)) {
        /* the EOP buffer is recycled; the chain goes out with it */
        drop_desc(rx, i, w);
        if (top->ndesc) {
            rx->ops->chain_drop(rx, top);
            rx->chain_drops++;
            top->ndesc = 0;
        }
        rx->frame_errors++;
        rx->frame_error_bits = w->errors;
        return CLEAN_NOTHING;
    }
    if (!top->ndesc && w->eop) {
        /* no chain: the frame is this one buffer (copybreak applies) */
        return clean_single(rx, i, w, f);
    }
    if (!top->ndesc) {
        epp_rx_frame_reset(rx, top, i);
    }
    epp_rx_frame_add_desc(rx, top, i, w);
    rx->ops->chain_add(rx, i, top);
    if (!w->eop) {
        return CLEAN_NOTHING;
    }
    epp_rx_frame_finish(rx, top);
    memcpy(f, top, sizeof(*f));
    top->ndesc = 0;
    rx->ops->chain_done(rx, f);
    return CLEAN_FRAME;
}

static void refill_cleaned(EppRx *rx)
{
    unsigned n = rx->cleaned;

    rx->cleaned = 0;
    epp_rx_post_n(rx, n);
}

bool epp_rx_clean_poll(EppRx *rx, EppRxFrame *f)
{
    bool chains = rx->ops->chains(rx);
    bool cleaned = false;
    unsigned guard;
    EppRxWb w;

    /* At most a ring's worth of descriptors per poll */
    for (guard = 0; guard < rx->count && rx->posted; guard++) {
        unsigned i = rx->next_to_clean;
        CleanResult r;

        epp_rx_desc_read(rx, i, &w);
        if (!w.dd) {
            break;
        }
        cleaned = true;
        rx->next_to_clean = epp_rx_ring_next(rx, i);
        rx->posted--;
        rx->cleaned++;
        rx->slot[i].posted = false;
        r = chains ? clean_chained(rx, i, &w, f) :
                     clean_single(rx, i, &w, f);
        if (rx->cleaned >= EPP_CLEAN_WRITE) {
            refill_cleaned(rx);
        }
        if (r == CLEAN_FRAME) {
            rx->polls++;
            rx->delivered++;
            return true;
        }
    }
    if (cleaned) {
        rx->polls++;
        /* e1000_desc_unused: everything the ring lacks */
        rx->cleaned = 0;
        epp_rx_refill(rx);
    }
    return false;
}
