/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x-rx-backpressure device property, set on the -device command line
 * and observed through the device: off (the hardware, the default), a
 * full packet buffer drops frames into MPC; on, the netdev holds them
 * and nothing is lost.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

enum {
    BP_POSTED = 8,          /* descriptors posted before the flood */
    BP_RXA_KB = 8,          /* PBA.RXA: an 8 KB packet buffer */
    BP_EXTRA = 24,          /* frames beyond the ring: 36 KB > 8 KB */
    BP_FLEN = 1514,
    BP_ROUNDS = 600,        /* refills before the drain gives up */
};

/*
 * Flood a ring of BP_POSTED descriptors with BP_POSTED + BP_EXTRA frames
 * (PBA.RXA = 8 KB), then refill until no more frames come, each checked
 * byte for byte and in order.  takes_all: the device takes every frame
 * off the wire (dropping what does not fit), so the flood is in before
 * the drain starts.  Returns the frames delivered.
 */
static unsigned flood_then_drain(EppDev *d, EppRx **rxp, bool expect_all,
                                 bool takes_all)
{
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = 1500, .format = EPP_RXF_EXTENDED,
        .fill = BP_POSTED,
    };
    const unsigned offered = BP_POSTED + BP_EXTRA;
    uint8_t wire[BP_FLEN];
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    unsigned seq, next = 0, idle = 0, got, rounds;
    EppRx *rx;

    epp_bring_up(d, &epp_default_config);
    epp_wr(d, PBA, BP_RXA_KB);
    rx = epp_rx_new(d, &s);
    *rxp = rx;

    for (seq = 0; seq < offered; seq++) {
        epp_frame_fill(wire, BP_FLEN, false, seq);
        epp_inject(d, wire, BP_FLEN);
    }
    /*
     * Frames reach the device in QEMU's main loop.  A device that takes
     * every frame (e1000e-pp without back-pressure) has them all before
     * the drain; one that refuses them leaves them in the socket, for
     * the drain below to fetch.
     */
    if (takes_all) {
        epp_wait_injected(d);
    }
    epp_step(d, 100 * EPP_NS_PER_US);
    epp_rx_stats_update(rx);
    g_test_message("after the flood: MPC %" PRIu64 " RNBC %" PRIu64
                   " TPR %" PRIu64, rx->mpc, rx->rnbc, rx->tpr);

    /*
     * Refill until nothing more comes (and, when all must, all came).
     * Deadline: BP_ROUNDS refills, far more than the frames offered.
     */
    for (rounds = 0; idle < 20 || (expect_all && next < offered);
         rounds++) {
        if (rounds == BP_ROUNDS) {
            epp_dump_regs(d, "flood drain");
            g_error("%u of %u frames after %u refills on %s", next, offered,
                    BP_ROUNDS, d->model);
        }
        epp_rx_refill(rx);
        epp_step(d, 100 * EPP_NS_PER_US);
        for (got = 0; got <= offered && epp_rx_poll(rx, f); got++, next++) {
            g_assert_cmpuint(next, <, offered);
            epp_frame_fill(wire, BP_FLEN, false, next);
            g_assert_cmpuint(f->len, ==, BP_FLEN);
            g_assert_cmpmem(f->data, f->len, wire, BP_FLEN);
            epp_rx_release(rx, f);
        }
        idle = got ? 0 : idle + 1;
    }
    epp_rx_stats_update(rx);
    return next;
}

/*
 * Given e1000e-pp with x-rx-backpressure=on, PBA.RXA = 8 KB and 8
 * descriptors posted, when 8 + 24 full-size frames arrive (far more
 * than the packet buffer holds), then none is dropped: MPC stays 0 and
 * qom-get rx-missed stays 0; when descriptors are posted, then all 32
 * are delivered in order, byte for byte.
 *
 * stock e1000e: has no such property; it always holds frames in the
 * netdev queue, so the same flood loses nothing there either.
 */
static void rx_backpressure_on_holds_frames(const char *model)
{
    EppDev *d;
    EppRx *rx;
    unsigned delivered;
    uint64_t missed = 0;

    if (epp_on_stock(model, "no x-rx-backpressure property: frames always wait "
                 "in the netdev queue")) {
        d = epp_start(model, NULL);
        g_assert_false(epp_qom_has(d, "x-rx-backpressure"));
    } else {
        d = epp_start_dev(model, "x-rx-backpressure=on", NULL);
    }
    delivered = flood_then_drain(d, &rx, true, false);
    if (!epp_is_stock(model)) {
        missed = epp_qom_u64(d, "rx-missed");
    }
    g_test_message("x-rx-backpressure=on: MPC %" PRIu64 ", rx-missed %" PRIu64
                   ", %u of %u frames delivered", rx->mpc, missed, delivered,
                   BP_POSTED + BP_EXTRA);
    g_assert_cmpuint(rx->mpc, ==, 0);
    g_assert_cmpuint(missed, ==, 0);
    g_assert_cmpuint(delivered, ==, BP_POSTED + BP_EXTRA);
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

/*
 * Given e1000e-pp with the default x-rx-backpressure (off), the same ring
 * and packet buffer, when the same 32 frames arrive, then frames beyond
 * the packet buffer are dropped: 8 + 5 delivered, MPC 19, qom-get
 * rx-missed equals MPC, every delivered frame in order and byte for
 * byte.
 *
 * stock e1000e: no packet buffer: the netdev holds every frame, none is
 * dropped (MPC stays 0) and all 32 arrive once descriptors are posted.
 */
static void rx_backpressure_off_drops_into_mpc(const char *model)
{
    const unsigned offered = BP_POSTED + BP_EXTRA;
    EppDev *d;
    EppRx *rx;
    unsigned delivered;
    bool stock = epp_on_stock(model, "no packet buffer, never drops");

    d = epp_start_dev(model, NULL, NULL);
    delivered = flood_then_drain(d, &rx, stock, !stock);
    g_test_message("delivered %u of %u, MPC %" PRIu64, delivered, offered,
                   rx->mpc);
    if (stock) {
        g_assert_cmpuint(rx->mpc, ==, 0);
        g_assert_false(epp_qom_has(d, "rx-missed"));
    } else {
        /*
         * The posted descriptors take 8 frames; an 8 KB packet buffer
         * holds 5 more of 1514 bytes (6 would need 9084 bytes before any
         * per-frame overhead): the other 19 are missed.
         */
        g_assert_cmpuint(delivered, ==, BP_POSTED + 5);
        g_assert_cmpuint(rx->mpc, ==, offered - BP_POSTED - 5);
        g_assert_cmpuint(epp_qom_u64(d, "rx-missed"), ==, rx->mpc);
    }
    g_assert_cmpuint(delivered + rx->mpc, ==, offered);
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO_AS("rx/backpressure_on_holds_frames",
                    rx_backpressure_on_holds_frames),
    EPP_SCENARIO_AS("rx/backpressure_off_drops_into_mpc",
                    rx_backpressure_off_drops_into_mpc),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
