/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive-driver designs cleaning per descriptor as Linux does
 * (EppRxSetup.per_desc, e1000e-pp-rxdrv-clean.c), in the situations the
 * device produces: a ring running dry at each chunk of a
 * frame, a jumbo frame split across polls, every injected frame error on
 * the jumbo, packet-split and multi-buffer paths, and a frame longer
 * than the buffer at MTU 1500 with RCTL.SBP (FLAG2_IS_DISCARDING; also
 * on the packet-split path at MTU 9000).
 *
 * Paths:
 *   pagepool     page-pool design, multi-buffer frames of 2 KB chunks
 *   stock_jumbo  e1000_clean_jumbo_rx_irq: pages, rx_skb_top
 *   stock_split  e1000_clean_rx_irq_ps (MTU 9000)
 *   stock_1500   e1000_clean_rx_irq: one buffer per frame, discarding
 *
 * stock e1000e: no x-rx-fetch-limit and no error injection (qom-set is
 * refused); a frame is written only once all its descriptors are
 * posted; asserted as such.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-stock.h"
#include "e1000e-pp-rxdrv-pagepool.h"
#include "rx.h"

#define JUMBO_LEN       9014    /* MTU 9000, FCS stripped */
#define GOOD_LEN        1000
#define DISCARD_LEN     9000    /* MTU 1500 + SBP: 2048 x 4 + 808 */
/* x-rx-error-oversize with LPE=1 pads to 9235 bytes with the FCS */
#define OVERSIZE_LPE    9231
#define OVERSIZE_1500   1515    /* LPE=0: 1519 with the FCS */
#define ROUNDS          40

typedef enum Path {
    PAGEPOOL,
    STOCK_JUMBO,
    STOCK_SPLIT,
    STOCK_1500,
} Path;

static const char *const path_names[] = {
    "pagepool", "stock_jumbo", "stock_split", "stock_1500",
};

static EppRxSetup path_setup(Path p)
{
    EppRxSetup s = { .per_desc = true, .sbp = true, .mtu = 9000,
                     .format = EPP_RXF_EXTENDED };

    s.design = p == PAGEPOOL ? EPP_RX_PAGEPOOL : EPP_RX_STOCK;
    s.no_packet_split = p == STOCK_JUMBO;
    if (p == STOCK_1500) {
        s.mtu = 1500;
    }
    return s;
}

/* Buffers held off the slots by the frame being built */
static unsigned held(EppRx *rx)
{
    if (rx->s.design == EPP_RX_PAGEPOOL) {
        return epp_rx_pagepool(rx)->n_held_chunks;
    }
    return epp_rx_stock_held(rx);
}

/*
 * Poll every 100 us of virtual time (the stock design's write-backs wait
 * for RDTR, 32.768 us) until a frame comes or until the ring has
 * discarded `discards` descriptors; when a poll finds nothing (and
 * nothing has DD) the test writes RDT again, as the stock design's
 * every-16th tail policy leaves the x-rx-fetch-limit cache empty (counted
 * in *nudges).
 */
static bool poll_until(EppRx *rx, EppRxFrame *f, uint64_t discards,
                       unsigned *nudges)
{
    unsigned r;

    for (r = 0; r < ROUNDS; r++) {
        uint64_t polls = rx->polls;

        step_us(rx->d, 100);
        if (epp_rx_poll(rx, f)) {
            return true;
        }
        if (discards && rx->discarded_descs >= discards) {
            return false;
        }
        if (rx->polls == polls && !epp_rx_dd_pending(rx)) {
            epp_wr(rx->d, RDT0, epp_rd(rx->d, RDT0));
            (*nudges)++;
        }
    }
    epp_dump_regs(rx->d, "per-descriptor poll");
    g_error("%s: no frame after %u polls on %s", rx->ops->name, ROUNDS,
            rx->d->model);
}

/* ---------------------------------------------------------------- */
/* The ring running dry at chunk k                                  */
/* ---------------------------------------------------------------- */

typedef struct DryCase {
    Path path;
    unsigned k;
    unsigned polls;         /* polls that cleaned something */
    unsigned writes;        /* RDT writes by the design's tail policy */
    unsigned nudges;        /* RDT writes the test had to make */
} DryCase;

/*
 * Given a design cleaning per descriptor at MTU 9000 and the device
 * started with x-rx-fetch-limit=k, when a 9014-byte frame arrives, then
 * each poll takes the k chunks that have DD, keeps the frame being
 * built and refills what it took; that refill's RDT write lets the next
 * k out, so the frame completes without anyone else writing RDT, after
 * ceil(chunks / k) polls and one tail write per poll before the last.
 * Page pool: 5 chunks of 2 KB; stock jumbo: 3 of 4 KB.
 *
 * stock e1000e: no such knob; the frame comes whole in one poll.
 */
static void dry_chained(const char *model, const void *opaque)
{
    const DryCase *c = opaque;
    bool stock = epp_is_stock(model);
    EppRxSetup s = path_setup(c->path);
    unsigned chunks = c->path == PAGEPOOL ? 5 : 3, nudges = 0;
    g_autofree char *props = g_strdup_printf("x-rx-fetch-limit=%u", c->k);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *wire = g_malloc(JUMBO_LEN);
    EppDev *d = epp_start_dev(model, stock ? NULL : props, NULL);
    EppRx *rx;

    epp_bring_up(d, &epp_default_config);
    rx = epp_rx_new(d, &s);
    epp_frame_fill(wire, JUMBO_LEN, false, c->k);
    epp_inject(d, wire, JUMBO_LEN);
    wait_arrived(rx, 1);
    g_assert_true(poll_until(rx, f, 0, &nudges));
    g_assert_cmpuint(nudges, ==, 0);
    g_assert_cmpuint(f->len, ==, JUMBO_LEN);
    g_assert_cmpmem(f->data, f->len, wire, JUMBO_LEN);
    g_assert_cmpuint(f->ndesc, ==, chunks);
    g_assert_cmpuint(rx->polls, ==, stock ? 1 : c->polls);
    g_assert_cmpuint(rx->tail_writes, ==, stock ? 0 : c->writes);
    g_assert_cmpuint(f->truesize, ==, c->path == PAGEPOOL ?
                     5 * 4096 + 256 : 768 + 3 * 4096);
    epp_rx_release(rx, f);
    g_assert_cmpuint(held(rx), ==, 0);
    epp_rx_check_pool(rx);
    epp_rx_stats_update(rx);
    g_assert_cmpuint(rx->gprc, ==, 1);
    g_assert_cmpuint(rx->gorc, ==, JUMBO_LEN + 4);
    rx_stop(rx);
}

/*
 * Given the stock design at MTU 1500 (one 1522-byte skb per descriptor,
 * RCTL.BSIZE 2048) with RCTL.SBP and x-rx-fetch-limit=k, when a 9000-byte
 * frame arrives (stored: SBP keeps long frames; 5 descriptors), then the
 * first descriptor without EOP sets FLAG2_IS_DISCARDING and the flag
 * survives the polls at the dry points: all 5 descriptors are dropped
 * and recycled, 4 of them written with 2048 bytes over a 1522-byte
 * mapping; the next 1000-byte frame comes intact from descriptor 5.
 * The design moves RDT only when it refills a descriptor whose index is
 * a multiple of 16 (RDT 48 at start, then 0 once slot 0 is refilled):
 * every other dry point needs an RDT write from outside.  Counted by
 * hand per k, polls / design RDT writes / outside writes (the last poll
 * takes the good frame): k=1 6/1/4, k=2 4/1/1, k=3 and 4 3/1/0.
 *
 * stock e1000e: the same without dry points, all 5 in one poll, whose
 * refill (slots 63, 0-3) writes RDT once; ROC not counted (it counts
 * only frames it drops) and GPRC counts the long frame.
 */
static void dry_discarding(const char *model, const void *opaque)
{
    const DryCase *c = opaque;
    bool stock = epp_is_stock(model);
    EppRxSetup s = path_setup(STOCK_1500);
    unsigned nudges = 0;
    g_autofree char *props = g_strdup_printf("x-rx-fetch-limit=%u", c->k);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *wire = g_malloc(DISCARD_LEN);
    uint8_t good[GOOD_LEN];
    EppDev *d = epp_start_dev(model, stock ? NULL : props, NULL);
    EppRx *rx;

    epp_bring_up(d, &epp_default_config);
    rx = epp_rx_new(d, &s);
    epp_frame_fill(wire, DISCARD_LEN, false, c->k);
    epp_frame_fill(good, GOOD_LEN, false, 100 + c->k);
    epp_inject(d, wire, DISCARD_LEN);
    wait_arrived(rx, 1);
    g_assert_false(poll_until(rx, f, 5, &nudges));
    g_assert_cmpuint(rx->discarded_descs, ==, 5);
    g_assert_false(rx->discarding);
    g_assert_cmpuint(rx->overruns, ==, 4);

    epp_inject(d, good, GOOD_LEN);
    wait_arrived(rx, 2);
    g_assert_true(poll_until(rx, f, 0, &nudges));
    g_assert_cmpuint(rx->polls, ==, stock ? 2 : c->polls);
    g_assert_cmpuint(rx->tail_writes, ==, c->writes);
    g_assert_cmpuint(nudges, ==, stock ? 0 : c->nudges);
    g_assert_cmpuint(f->first_desc, ==, 5);
    g_assert_cmpmem(f->data, f->len, good, GOOD_LEN);
    g_assert_cmpuint(f->seq, ==, 0);
    g_assert_cmpuint(rx->discarded_descs, ==, 5);
    g_assert_cmpuint(rx->frame_errors, ==, 0);
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    epp_rx_stats_update(rx);
    g_assert_cmpuint(rx->tpr, ==, 2);
    g_assert_cmpuint(rx->roc, ==, stock ? 0 : 1);
    g_assert_cmpuint(rx->gprc, ==, stock ? 2 : 1);
    rx_stop(rx);
}

/* ---------------------------------------------------------------- */
/* A jumbo frame split across polls                                 */
/* ---------------------------------------------------------------- */

/*
 * Given a design cleaning per descriptor at MTU 9000 with few
 * descriptors posted (page pool: 3, RDT 3; stock jumbo: 2, and its tail
 * policy gives the device only descriptor 0, RDT 1), when a 9014-byte
 * frame arrives, then the first poll takes the chunks with DD (3; 1)
 * into the frame being built, holds their buffers off the ring, and
 * refills the whole ring (page pool: RDT 2 = 3 + 63 mod 64; stock jumbo
 * RDT 63 = next_to_use 0 minus one); the next poll completes the frame.
 *
 * stock e1000e writes nothing until every descriptor the frame needs is
 * posted: the first poll finds nothing, the refill Linux makes at the
 * end of each poll posts them, and the frame comes whole.
 */
static void across_polls(const char *model, const void *opaque)
{
    const Path *p = opaque;
    bool stock = epp_is_stock(model);
    EppRxSetup s = path_setup(*p);
    unsigned first = *p == PAGEPOOL ? 3 : 1, nudges = 0;
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *wire = g_malloc(JUMBO_LEN);
    EppRx *rx;

    s.sbp = false;
    s.fill = *p == PAGEPOOL ? 3 : 2;
    rx = rx_start(model, &s);
    g_assert_cmpuint(epp_rd(rx->d, RDT0), ==, first);
    epp_frame_fill(wire, JUMBO_LEN, false, 5);
    epp_inject(rx->d, wire, JUMBO_LEN);
    wait_arrived(rx, stock ? 0 : 1);
    step_us(rx->d, 100);
    g_assert_false(epp_rx_poll(rx, f));
    if (stock) {
        g_assert_cmpuint(rx->chain->ndesc, ==, 0);
        epp_rx_refill(rx);
    } else {
        g_assert_cmpuint(rx->chain->ndesc, ==, first);
        g_assert_cmpuint(held(rx), ==, first);
        g_assert_cmpuint(rx->tail_writes, ==, 1);
        g_assert_cmpuint(epp_rd(rx->d, RDT0), ==,
                         *p == PAGEPOOL ? 2 : 63);
        epp_rx_check_pool(rx);
    }
    g_assert_true(poll_until(rx, f, 0, &nudges));
    g_assert_cmpuint(nudges, ==, 0);
    g_assert_cmpmem(f->data, f->len, wire, JUMBO_LEN);
    g_assert_cmpuint(f->ndesc, ==, *p == PAGEPOOL ? 5 : 3);
    g_assert_cmpuint(rx->polls, ==, stock ? 1 : 2);
    epp_rx_release(rx, f);
    g_assert_cmpuint(held(rx), ==, 0);
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

/* ---------------------------------------------------------------- */
/* Frame errors on the chained, split and single-buffer paths       */
/* ---------------------------------------------------------------- */

typedef struct ErrCase {
    Path path;
    const EppRxErrKind *kind;
} ErrCase;

/* Descriptors a frame of len bytes takes on each path (by hand) */
static unsigned descs_for(Path p, size_t len)
{
    switch (p) {
    case PAGEPOOL:
        return DIV_ROUND_UP(len, 2048);
    case STOCK_JUMBO:
        return DIV_ROUND_UP(len, 4096);
    default:
        return 1;           /* split: 128 + 3 x 4096; 1500: <= 2048 */
    }
}

/*
 * Given a design cleaning per descriptor with RCTL.SBP and without
 * NETIF_F_RXALL, and the next frame marked bad by a knob, when the bad
 * frame (MTU 9000: 9014 bytes; 1500: 1000) and a good 1000-byte frame
 * arrive, then the driver drops the bad one at its EOP (the chain built
 * so far is freed: page pool 4 chunks back to the pool, stock jumbo 2
 * pages freed; the EOP buffer recycled) and delivers the good one from
 * the next descriptor; an oversize frame carries no error bit and is
 * delivered (9231 bytes with LPE, 1515 without).  No buffer leaks.
 *
 * e1000e-pp only: stock e1000e has no error injection.
 */
static void frame_error_case(const char *model, const void *opaque)
{
    const ErrCase *c = opaque;
    const EppRxErrKind *k = c->kind;
    EppRxSetup s = path_setup(c->path);
    bool oversize = !k->err, jumbo = s.mtu > 1500;
    size_t bad_len = jumbo ? JUMBO_LEN : GOOD_LEN;
    size_t stored = !oversize ? bad_len :
                    jumbo ? OVERSIZE_LPE : OVERSIZE_1500;
    unsigned bad_descs = descs_for(c->path, stored), nudges = 0;
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *bad = g_malloc0(OVERSIZE_LPE);
    uint8_t good[GOOD_LEN];
    EppRx *rx = rx_start(model, &s);
    EppDev *d = rx->d;

    epp_rx_arm_error(d, k);
    epp_frame_fill(bad, bad_len, false, 1);
    epp_frame_fill(good, GOOD_LEN, false, 2);
    epp_inject(d, bad, bad_len);
    epp_inject(d, good, GOOD_LEN);
    wait_arrived(rx, 2);

    if (oversize) {
        g_assert_true(poll_until(rx, f, 0, &nudges));
        g_assert_cmpuint(f->errors & RXD_ERR_FRAME, ==, 0);
        g_assert_cmpuint(f->len, ==, stored);
        g_assert_cmpmem(f->data, f->len, bad, stored);
        g_assert_cmpuint(f->ndesc, ==, bad_descs);
        epp_rx_release(rx, f);
    }
    g_assert_true(poll_until(rx, f, 0, &nudges));
    g_assert_cmpuint(nudges, ==, 0);
    g_assert_cmpuint(f->errors, ==, 0);
    g_assert_cmpmem(f->data, f->len, good, GOOD_LEN);
    g_assert_cmpuint(f->first_desc, ==, bad_descs);
    g_assert_cmpuint(f->seq, ==, oversize ? 1 : 0);
    epp_rx_release(rx, f);
    g_assert_cmpuint(rx->frame_errors, ==, oversize ? 0 : 1);
    g_assert_cmpuint(rx->frame_error_bits & RXD_ERR_FRAME, ==, k->err);
    g_assert_cmpuint(rx->chain_drops, ==, !oversize && bad_descs > 1);
    g_assert_cmpuint(rx->discarded_descs, ==, 0);
    g_assert_cmpuint(held(rx), ==, 0);
    if (c->path == PAGEPOOL) {
        /* every chunk not on the ring is free: nothing leaked */
        g_assert_cmpuint(epp_rx_pagepool(rx)->nfree, ==,
                         epp_rx_pagepool(rx)->nchunks - rx->posted);
    }
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    epp_rx_stats_update(rx);
    g_assert_cmpuint(oversize ? rx->roc : epp_rd(d, k->stat), ==, 1);
    g_assert_cmpuint(rx->gprc, ==, 1);
    g_assert_cmpuint(rx->tpr, ==, 2);
    rx_stop(rx);
}

/* ---------------------------------------------------------------- */
/* Frames longer than the buffer at MTU 1500 with SBP               */
/* ---------------------------------------------------------------- */

/*
 * Given a design at MTU 1500 (LPE=0, RCTL.BSIZE 2048) cleaning per
 * descriptor with RCTL.SBP (NETIF_F_RXALL), when a 3000-byte frame
 * (2048 + 952), a 1600-byte frame and a good 1000-byte frame arrive:
 *
 * stock (1522-byte skbs): the 3000-byte frame is discarded
 * (FLAG2_IS_DISCARDING, 2 descriptors), its first buffer written with
 * 2048 bytes; the 1600-byte frame is one descriptor reporting 1600 bytes
 * in a 1522-byte mapping and is handed up (Linux: skb_put past the
 * skb's end); the 1000-byte frame comes intact.  2 overruns.
 *
 * page pool (2 KB chunks, 1984 bytes behind 64 of headroom, two per
 * page): the 3000-byte frame is built from 2 chunks and delivered
 * intact, but its first chunk was written with 2048 bytes: the last 64
 * land in the next chunk's headroom.  1 overrun.
 *
 * stock e1000e stores the long frames the same way.
 */
static void sbp_long(const char *model, const void *opaque)
{
    const Path *p = opaque;
    bool stock = epp_is_stock(model);
    EppRxSetup s = path_setup(*p);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    uint8_t a[3000], b[1600], good[GOOD_LEN];
    unsigned nudges = 0, i, hits = 0;
    EppRx *rx;

    s.rxall = true;
    s.mtu = 1500;
    s.tolerate_overrun = true;
    rx = rx_start(model, &s);
    epp_frame_fill(a, sizeof(a), false, 1);
    epp_frame_fill(b, sizeof(b), false, 2);
    epp_frame_fill(good, sizeof(good), false, 3);
    epp_inject(rx->d, a, sizeof(a));
    epp_inject(rx->d, b, sizeof(b));
    epp_inject(rx->d, good, sizeof(good));
    wait_arrived(rx, 3);

    if (*p == PAGEPOOL) {
        g_assert_true(poll_until(rx, f, 0, &nudges));
        g_assert_cmpuint(f->ndesc, ==, 2);
        g_assert_cmpmem(f->data, f->len, a, sizeof(a));
        epp_rx_release(rx, f);
        /* the neighbour's headroom: bytes 1984..2047 of the frame */
        for (i = 1984; i < 2048; i++) {
            hits += a[i] != 0xd7;
        }
        g_assert_cmpuint(rx->poison_hits, ==, hits);
    }
    g_assert_true(poll_until(rx, f, 0, &nudges));
    g_assert_cmpuint(f->first_desc, ==, 2);
    g_assert_cmpuint(f->desc_len[0], ==, sizeof(b));
    g_assert_cmpmem(f->data, f->len, b, sizeof(b));
    epp_rx_release(rx, f);
    g_assert_true(poll_until(rx, f, 0, &nudges));
    g_assert_cmpuint(f->first_desc, ==, 3);
    g_assert_cmpmem(f->data, f->len, good, sizeof(good));
    epp_rx_release(rx, f);
    g_assert_cmpuint(nudges, ==, 0);
    g_assert_cmpuint(rx->discarded_descs, ==, *p == PAGEPOOL ? 0 : 2);
    g_assert_cmpuint(rx->overruns, ==, *p == PAGEPOOL ? 1 : 2);
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    epp_rx_stats_update(rx);
    g_assert_cmpuint(rx->tpr, ==, 3);
    g_assert_cmpuint(rx->roc, ==, stock ? 0 : 2);
    rx_stop(rx);
}

/*
 * Given the stock design at MTU 9000 with packet split (128-byte header
 * buffer, three 4 KB pages: 12416 bytes per descriptor) and RCTL.SBP,
 * when a 14000-byte frame (longer than the LPE limit, stored with SBP)
 * and a good 1000-byte frame arrive, then e1000_clean_rx_irq_ps
 * discards the long one over its 2 descriptors (the header skbs freed,
 * the pages left posted) and delivers the good one from descriptor 2;
 * no buffer leaks, nothing is written past a buffer.
 *
 * stock e1000e stores the long frame the same way.
 */
static void sbp_split_discards(const char *model, const void *opaque)
{
    EppRxSetup s = path_setup(STOCK_SPLIT);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *big = g_malloc(14000);
    uint8_t good[GOOD_LEN];
    unsigned nudges = 0;
    EppRx *rx;

    s.rxall = true;
    rx = rx_start(model, &s);
    epp_frame_fill(big, 14000, false, 1);
    epp_frame_fill(good, sizeof(good), false, 2);
    epp_inject(rx->d, big, 14000);
    epp_inject(rx->d, good, sizeof(good));
    wait_arrived(rx, 2);
    g_assert_true(poll_until(rx, f, 0, &nudges));
    g_assert_cmpuint(rx->discarded_descs, ==, 2);
    g_assert_cmpuint(rx->overruns, ==, 0);
    g_assert_cmpuint(f->first_desc, ==, 2);
    g_assert_cmpmem(f->data, f->len, good, sizeof(good));
    epp_rx_release(rx, f);
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    epp_rx_stats_update(rx);
    g_assert_cmpuint(rx->tpr, ==, 2);
    g_assert_cmpuint(rx->roc, ==, epp_is_stock(model) ? 0 : 1);
    rx_stop(rx);
}

static void rx_designs_add_cases(void)
{
    /* chained: ceil(chunks / k) polls, a tail write after all but one */
    static const DryCase dry[] = {
        { PAGEPOOL, 1, 5, 4, 0 }, { PAGEPOOL, 2, 3, 2, 0 },
        { PAGEPOOL, 3, 2, 1, 0 }, { PAGEPOOL, 4, 2, 1, 0 },
        { STOCK_JUMBO, 1, 3, 2, 0 }, { STOCK_JUMBO, 2, 2, 1, 0 },
        { STOCK_1500, 1, 6, 1, 4 }, { STOCK_1500, 2, 4, 1, 1 },
        { STOCK_1500, 3, 3, 1, 0 }, { STOCK_1500, 4, 3, 1, 0 },
    };
    static const Path across[] = { PAGEPOOL, STOCK_JUMBO };
    static const Path errpaths[] = {
        PAGEPOOL, STOCK_JUMBO, STOCK_SPLIT, STOCK_1500,
    };
    static const Path sbp[] = { PAGEPOOL, STOCK_1500 };
    size_t i, k;

    for (i = 0; i < G_N_ELEMENTS(dry); i++) {
        g_autofree char *name =
            g_strdup_printf("rx/designs/dry_at_chunk/%s/%u",
                            path_names[dry[i].path], dry[i].k);

        epp_add_case(name, dry[i].path == STOCK_1500 ?
                     dry_discarding : dry_chained, &dry[i]);
    }
    for (i = 0; i < G_N_ELEMENTS(across); i++) {
        g_autofree char *name =
            g_strdup_printf("rx/designs/across_polls/%s",
                            path_names[across[i]]);

        epp_add_case(name, across_polls, &across[i]);
    }
    for (i = 0; i < G_N_ELEMENTS(errpaths); i++) {
        for (k = 0; k < EPP_RX_ERR_KINDS; k++) {
            ErrCase *c = g_new0(ErrCase, 1);
            g_autofree char *name = NULL;

            c->path = errpaths[i];
            c->kind = &epp_rx_err_kinds[k];
            name = g_strdup_printf("rx/designs/frame_error/%s/%s",
                                   path_names[c->path], c->kind->name);
            epp_add_pp_case(name, frame_error_case, c);
        }
    }
    for (i = 0; i < G_N_ELEMENTS(sbp); i++) {
        g_autofree char *name =
            g_strdup_printf("rx/designs/sbp_long/%s", path_names[sbp[i]]);

        epp_add_case(name, sbp_long, &sbp[i]);
    }
    epp_add_case("rx/designs/sbp_long/stock_split", sbp_split_discards,
                 NULL);
}

int main(int argc, char **argv)
{
    return epp_main(argc, argv, NULL, 0, rx_designs_add_cases);
}
