/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive scenarios: write-back batching, the stock Linux design, ring
 * exhaustion into the packet buffer, and the page-pool report.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-stock.h"
#include "rx.h"

typedef struct StockCase {
    unsigned mtu;
} StockCase;
/* ---------------------------------------------------------------- */
/* Write-back batching (the stock driver's DMA-burst settings)      */
/* ---------------------------------------------------------------- */

static bool desc_dd(EppRx *rx, unsigned i)
{
    uint8_t b[16];

    epp_memread(rx->d, rx->ring + i * 16, b, 16);
    return b[8] & 1;            /* extended write-back: status bit 0 */
}

/*
 * Given the stock design (extended descriptors, RXDCTL 0x01040420:
 * WTHRESH 4 in descriptor units; RDTR = RADV = 0x20, 32.768 us),
 * when one frame arrives, then its descriptor is not written back before
 * the timers run out (still not at 32 us) and is at 34 us; when four
 * frames arrive, then reaching WTHRESH writes all four back at once
 * (within 1 us); when one more arrives and the driver flushes with
 * RDTR.FPD, then it is written back right away.
 *
 * stock e1000e: ignores RXDCTL.WTHRESH and FPD; every descriptor is
 * written back as soon as its frame lands.
 */
static void rx_writeback_batches_wthresh(const char *model)
{
    bool stock = epp_is_stock(model);
    EppRxSetup s = { .design = EPP_RX_STOCK, .mtu = 1500 };
    uint8_t wire[1000];
    EppDev *d = epp_start(model, NULL);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppRx *rx;
    int i;

    epp_bring_up(d, &epp_default_config);
    rx = epp_rx_new(d, &s);
    /* Linux's alloc loop leaves the tail at the last multiple of 16 */
    EPP_EXPECT_REG(d, RDT0, 0xffff, 48);
    EPP_EXPECT_REG(d, RXDCTL0, 0xffffffff, 0x01040420);

    /* One frame: held until RDTR/RADV expire */
    epp_frame_fill(wire, sizeof(wire), false, 0);
    epp_inject(d, wire, sizeof(wire));
    wait_arrived(rx, 1);
    if (stock) {
        g_assert_true(desc_dd(rx, 0));
    } else {
        epp_step(d, 32 * EPP_NS_PER_US);
        g_assert_false(desc_dd(rx, 0));
        epp_step(d, 2 * EPP_NS_PER_US);
        g_assert_true(desc_dd(rx, 0));
    }
    g_assert_true(epp_rx_poll(rx, f));

    /* Three frames stay pending; the fourth reaches WTHRESH */
    for (i = 1; i <= 4; i++) {
        epp_frame_fill(wire, sizeof(wire), false, i);
        epp_inject(d, wire, sizeof(wire));
        wait_arrived(rx, 1 + i);
        if (i < 4) {
            g_assert_cmpint(desc_dd(rx, i), ==, stock);
        }
    }
    epp_step(d, EPP_NS_PER_US);
    for (i = 1; i <= 4; i++) {
        g_assert_true(desc_dd(rx, i));
        g_assert_true(epp_rx_poll(rx, f));
        g_assert_cmpuint(epp_frame_seq(f->data, false), ==, i);
    }

    /* One more, then the driver's flush */
    epp_frame_fill(wire, sizeof(wire), false, 5);
    epp_inject(d, wire, sizeof(wire));
    wait_arrived(rx, 6);
    epp_step(d, EPP_NS_PER_US);
    g_assert_cmpint(desc_dd(rx, 5), ==, stock);
    epp_rx_flush(rx);
    epp_step(d, EPP_NS_PER_US);
    g_assert_true(desc_dd(rx, 5));
    g_assert_true(epp_rx_poll(rx, f));
    g_assert_cmpuint(epp_frame_seq(f->data, false), ==, 5);
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

/* ---------------------------------------------------------------- */
/* The stock design end to end                                      */
/* ---------------------------------------------------------------- */

/*
 * Given the stock design at MTU 1500 (extended descriptors, 1522-byte
 * buffers, tail moved every 16 descriptors, DMA-burst write-back) or at
 * MTU 9000 (packet split: 128-byte header buffer and three 4 KB pages),
 * when 100 frames of mixed sizes arrive, some below the 256-byte
 * copybreak, then every frame is delivered in order byte for byte, each
 * in one descriptor, short ones copied with their buffer left on the
 * ring, and no buffer is leaked or left behind.
 */
static void stock_design_delivers_in_order(const char *model,
                                           const void *opaque)
{
    const StockCase *c = opaque;
    EppRxSetup s = { .design = EPP_RX_STOCK, .mtu = c->mtu };
    static const size_t small[] = { 60, 100, 200, 255 };
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    size_t max = 14 + c->mtu;
    unsigned i, copied = 0, n = 100;
    EppDev *d;
    EppRx *rx;

    rx = rx_start(model, &s);
    d = rx->d;

    for (i = 0; i < n; i++) {
        size_t len = i % 3 ? max - (i * 37) % 700 : small[i % 4];

        epp_frame_fill(wire, len, false, i);
        epp_inject(d, wire, len);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpuint(f->ndesc, ==, 1);
        g_assert_cmpuint(f->len, ==, len);
        g_assert_cmpmem(f->data, f->len, wire, len);
        g_assert_cmphex(f->errors, ==, 0);
        copied += epp_rx_stock_copied(rx, f);
        /* e1000_clean_rx_irq refills once 16 descriptors are clean */
        if ((i + 1) % 16 == 0) {
            epp_rx_refill(rx);
        }
    }
    epp_rx_refill(rx);
    g_test_message("%u frames, %u copied (copybreak 256)", n, copied);
    /* Frames of 60, 100, 200, 255 bytes: every third frame */
    g_assert_cmpuint(copied, ==, c->mtu <= 1500 ? DIV_ROUND_UP(n, 3) : 0);
    g_assert_false(epp_rx_dd_pending(rx));
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

/* ---------------------------------------------------------------- */
/* Ring exhaustion: the packet buffer, RNBC, MPC, RXO               */
/* ---------------------------------------------------------------- */

/*
 * Given the page-pool design at MTU 1500 with 8 descriptors posted
 * (RDTR 0) and the Rx packet buffer PBA.RXA KB large, when 8 + H1
 * 1514-byte frames arrive (H1 chosen so that they surely fit: the
 * datasheet gives no exact per-frame overhead, so a frame is taken to
 * occupy its 1518 bytes rounded up to 16 plus a 16-byte status word,
 * 1536 bytes, and H1 = floor(RXA * 1024 / 1536) - 1), then 8 are
 * delivered, H1 wait in the packet buffer: RNBC = H1, MPC = 0, and ICR
 * shows RXT0 and RXDMT0 but no RXO.  When 12 more arrive, then the
 * buffer overflows: ICR.RXO, MPC counts the frames that did not fit,
 * RNBC counts every frame that found the ring dry.  When the ring is
 * refilled, then the held frames are delivered in order, none lost or
 * duplicated, their number H between H1 and floor(RXA * 1024 / 1518),
 * and offered = delivered + MPC; new frames flow again afterwards.
 *
 * stock e1000e: has no packet buffer; the netdev queue holds every frame
 * (back-pressure): RNBC and MPC stay 0, ICR.RXO is never raised (no
 * frame is offered to a dry ring), RXDMT0 is not seen at 8 of 64 free
 * descriptors, and after the refill every frame arrives.
 */
static void rx_ring_exhaustion_packet_buffer(const char *model)
{
    bool stock = epp_is_stock(model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = 1500, .format = EPP_RXF_EXTENDED,
        .fill = 8,
    };
    enum { K = 8, X = 12, FLEN = 1514, EXHAUST_ROUNDS = 600 };
    uint8_t wire[FLEN];
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppDev *d = epp_start(model, NULL);
    EppRx *rx;
    uint32_t rxa, icr, seq = 0, next = 0;
    uint64_t h1, hmax, held = 0, offered;
    unsigned rounds, idle;

    epp_bring_up(d, &epp_default_config);
    rxa = epp_rd(d, PBA) & 0xffff;
    g_test_message("PBA.RXA = %u KB", rxa);
    g_assert_cmpuint(rxa, >=, 8);
    h1 = rxa * 1024 / 1536 - 1;
    hmax = rxa * 1024 / 1518;
    rx = epp_rx_new(d, &s);
    epp_rd(d, ICR);

    /* Phase 1: the ring runs dry, frames wait */
    for (; seq < K + h1; seq++) {
        epp_frame_fill(wire, FLEN, false, seq);
        epp_inject(d, wire, FLEN);
    }
    if (!stock) {
        wait_arrived(rx, K + h1);
    }
    epp_step(d, 100 * EPP_NS_PER_US);
    for (; next < K; next++) {
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpuint(epp_frame_seq(f->data, false), ==, next);
        epp_rx_release(rx, f);
    }
    g_assert_false(epp_rx_poll(rx, f));
    epp_rx_stats_update(rx);
    icr = epp_rd(d, ICR);
    g_test_message("phase 1: RNBC %" PRIu64 " MPC %" PRIu64 " ICR 0x%08x",
                   rx->rnbc, rx->mpc, icr);
    if (stock) {
        g_assert_cmpuint(rx->rnbc, ==, 0);
        g_assert_cmphex(icr & (ICR_RXO | ICR_RXT0 | ICR_RXDMT0), ==,
                        ICR_RXT0);
    } else {
        g_assert_cmpuint(rx->rnbc, ==, h1);
        g_assert_cmphex(icr & (ICR_RXO | ICR_RXT0 | ICR_RXDMT0), ==,
                        ICR_RXT0 | ICR_RXDMT0);
    }
    g_assert_cmpuint(rx->mpc, ==, 0);

    /* Phase 2: the packet buffer overflows */
    for (; seq < K + h1 + X; seq++) {
        epp_frame_fill(wire, FLEN, false, seq);
        epp_inject(d, wire, FLEN);
    }
    offered = seq;
    if (!stock) {
        wait_arrived(rx, offered);
    }
    epp_step(d, 100 * EPP_NS_PER_US);
    g_assert_false(epp_rx_poll(rx, f));
    icr = epp_rd(d, ICR);
    g_test_message("phase 2: ICR 0x%08x", icr);
    g_assert_cmphex(icr & (ICR_RXO | ICR_RXT0 | ICR_RXDMT0), ==,
                    stock ? 0 : ICR_RXO);

    /*
     * Phase 3: refill; the held frames come out in order.  Deadline:
     * EXHAUST_ROUNDS refills (each 100 us of virtual time), far more
     * than the frames offered; stock's netdev queue drains in QEMU's
     * main loop, so after dry rounds there the test waits (main-loop
     * turns) until the netdev has read every frame still on the socket:
     * the refilled ring has room for all of them.
     */
    for (rounds = 0, idle = 0; idle < 20 || (stock && next < offered);
         rounds++) {
        unsigned got;

        if (rounds == EXHAUST_ROUNDS) {
            epp_dump_regs(d, "ring exhaustion refill");
            g_error("%u of %" PRIu64 " frames after %u refills on %s",
                    next, offered, EXHAUST_ROUNDS, model);
        }
        epp_rx_refill(rx);
        epp_step(d, 100 * EPP_NS_PER_US);
        for (got = 0; got <= offered && epp_rx_poll(rx, f); got++, next++) {
            g_assert_cmpuint(next, <, offered);
            g_assert_cmpuint(epp_frame_seq(f->data, false), ==, next);
            g_assert_cmpuint(f->len, ==, FLEN);
            epp_rx_release(rx, f);
        }
        idle = got ? 0 : idle + 1;
        if (stock && idle >= 20 && next < offered) {
            epp_wait_injected(d);
        }
    }
    epp_rx_stats_update(rx);
    held = next - K;
    g_test_message("held %" PRIu64 " (bounds %" PRIu64 "..%" PRIu64 "), "
                   "MPC %" PRIu64 ", RNBC %" PRIu64 ", GPRC %" PRIu64
                   ", TPR %" PRIu64, held, h1, hmax, rx->mpc, rx->rnbc,
                   rx->gprc, rx->tpr);
    if (stock) {
        g_assert_cmpuint(next, ==, offered);
        g_assert_cmpuint(rx->mpc, ==, 0);
        g_assert_cmpuint(rx->rnbc, ==, 0);
    } else {
        g_assert_cmpuint(held, >=, h1);
        g_assert_cmpuint(held, <=, hmax);
        g_assert_cmpuint(rx->mpc, ==, offered - next);
        g_assert_cmpuint(rx->rnbc, ==, h1 + X);
        g_assert_cmpuint(rx->tpr, ==, offered);
    }
    /* offered = delivered + MPC (no other discards in this scenario) */
    g_assert_cmpuint(offered, ==, next + rx->mpc);
    g_assert_cmpuint(rx->gprc, ==, next);

    /* Phase 4: delivery resumes with the next frame offered */
    for (next = seq; seq < offered + 3; seq++) {
        epp_frame_fill(wire, FLEN, false, seq);
        epp_inject(d, wire, FLEN);
    }
    for (; next < seq; next++) {
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpuint(epp_frame_seq(f->data, false), ==, next);
        epp_rx_release(rx, f);
    }
    g_assert_false(epp_rx_dd_pending(rx));
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

static void add_cases(void)
{
    size_t i;

    for (i = 0; i < 2; i++) {
        StockCase *c = g_new0(StockCase, 1);
        g_autofree char *path = NULL;

        c->mtu = i ? 9000 : 1500;
        path = g_strdup_printf("rx/stock_design/mtu%u", c->mtu);
        epp_add_case(path, stock_design_delivers_in_order, c);
    }
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO_AS("rx/writeback_batches_wthresh",
                    rx_writeback_batches_wthresh),
    EPP_SCENARIO_AS("rx/ring_exhaustion_packet_buffer",
                    rx_ring_exhaustion_packet_buffer),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    add_cases);
}
