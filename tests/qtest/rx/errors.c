/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive scenarios, frame errors: the error-injection knobs
 * (x-rx-error-crc, -symbol, -data, -oversize) against both receive-driver
 * designs, in the three places a bad frame can end: the device drops it
 * (RCTL.SBP = 0), the driver drops it (SBP = 1 without NETIF_F_RXALL:
 * the stock driver's recycle branch, the page-pool design's discard
 * path), or the driver keeps it (NETIF_F_RXALL).
 *
 * e1000e-pp only: stock e1000e has no error injection, and no way to
 * produce a bad frame at all (pp_only_properties asserts the knobs are
 * absent there).
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-pagepool.h"
#include "rx.h"

typedef enum ErrMode {
    DEVICE_DROPS,           /* RCTL.SBP = 0 */
    DRIVER_DROPS,           /* SBP = 1, the driver drops bad frames */
    DRIVER_KEEPS,           /* NETIF_F_RXALL */
} ErrMode;

typedef struct ErrCase {
    EppRxDesign design;
    ErrMode mode;
    const EppRxErrKind *kind;
} ErrCase;

#define FRAME_LEN   1000
/* LPE = 0: 1518 bytes with FCS; an oversize frame is padded to 1519 */
#define OVERSIZE_LEN 1515

static void rx_frame_error_case(const char *model, const void *opaque)
{
    const ErrCase *c = opaque;
    const EppRxErrKind *k = c->kind;
    EppRxSetup s = {
        .design = c->design, .mtu = 1500, .format = EPP_RXF_EXTENDED,
        .sbp = c->mode != DEVICE_DROPS, .rxall = c->mode == DRIVER_KEEPS,
    };
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    uint8_t bad[OVERSIZE_LEN], good[FRAME_LEN];
    EppRx *rx = rx_start(model, &s);
    EppDev *d = rx->d;
    bool oversize = !k->err;
    bool stored = c->mode != DEVICE_DROPS;
    bool delivered_bad = stored && (oversize || c->mode == DRIVER_KEEPS);
    uint64_t region0 = rx->slot[0].buf[0].region;
    uint64_t unmaps = rx->dma_unmaps, stat;
    unsigned nfree = 0;

    epp_rx_arm_error(d, k);
    g_assert_cmpuint(epp_qom_u64(d, k->knob), ==, 1);
    if (c->design == EPP_RX_PAGEPOOL) {
        nfree = epp_rx_pagepool(rx)->nfree;
    }

    memset(bad, 0, sizeof(bad));
    epp_frame_fill(bad, FRAME_LEN, false, 1);
    epp_frame_fill(good, FRAME_LEN, false, 2);
    epp_inject(d, bad, FRAME_LEN);
    epp_inject(d, good, FRAME_LEN);
    wait_arrived(rx, 2);
    g_assert_cmpuint(epp_qom_u64(d, k->knob), ==, 0);

    if (delivered_bad) {
        epp_rx_wait_frame(rx, f, 100 * EPP_NS_PER_US);
        g_assert_cmpuint(f->first_desc, ==, 0);
        g_assert_cmpuint(f->errors & RXD_ERR_FRAME, ==, k->err);
        if (oversize) {
            g_assert_cmpuint(f->len, ==, OVERSIZE_LEN);
            g_assert_cmpmem(f->data, f->len, bad, OVERSIZE_LEN);
        } else {
            g_assert_cmpmem(f->data, f->len, bad, FRAME_LEN);
        }
        epp_rx_release(rx, f);
    }
    epp_rx_wait_frame(rx, f, 100 * EPP_NS_PER_US);
    g_assert_cmpuint(f->errors, ==, 0);
    g_assert_cmpmem(f->data, f->len, good, FRAME_LEN);
    /* A bad frame that was stored took descriptor 0. */
    g_assert_cmpuint(f->first_desc, ==, stored ? 1 : 0);
    g_assert_cmpuint(f->seq, ==, delivered_bad ? 1 : 0);
    epp_rx_release(rx, f);

    /* The counters: the error's own, GPRC for the good frame only */
    epp_rx_stats_update(rx);
    stat = oversize ? rx->roc : epp_rd(d, k->stat);
    g_assert_cmpuint(stat, ==, 1);
    g_assert_cmpuint(rx->gprc, ==, 1);
    g_assert_cmpuint(rx->tpr, ==, 2);
    g_assert_cmpuint(epp_qom_u64(d, oversize ? "rx-oversize" :
                                 "rx-errored"), ==, stored ? 0 : 1);
    g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==,
                     stored ? 2 : 1);

    if (c->mode == DRIVER_DROPS && !oversize) {
        /* The driver saw the error bit and dropped the frame... */
        g_assert_cmpuint(rx->frame_errors, ==, 1);
        g_assert_cmpuint(rx->frame_error_bits & RXD_ERR_FRAME, ==, k->err);
        if (c->design == EPP_RX_STOCK) {
            /*
             * ...e1000_clean_rx_irq: the skb stays on its descriptor,
             * unmapped (the good frame's skb went up the stack: its
             * unmap is the second)
             */
            g_assert_cmpuint(rx->slot[0].buf[0].region, ==, region0);
            g_assert_false(rx->slot[0].buf[0].mapped);
            g_assert_cmpuint(rx->dma_unmaps, ==, unmaps + 2);
        } else {
            /*
             * ...the page-pool design: its chunk is back in the pool,
             * beside the good frame's, released by the test
             */
            g_assert_cmpuint(epp_rx_pagepool(rx)->nfree, ==, nfree + 2);
        }
    } else {
        g_assert_cmpuint(rx->frame_errors, ==, 0);
    }
    epp_rx_refill(rx);
    if (c->design == EPP_RX_STOCK && c->mode == DRIVER_DROPS &&
        !oversize) {
        /* mapped again for the device, the same buffer */
        g_assert_cmpuint(rx->slot[0].buf[0].region, ==, region0);
        g_assert_true(rx->slot[0].buf[0].mapped);
    }
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

/*
 * Given the stock design at MTU 1500 with NETIF_F_RXALL (RCTL.SBP, LPE
 * = 0, RCTL.BSIZE 2048 but 1522-byte skbs), when a 1600-byte frame
 * arrives, then the device stores it (SBP keeps long frames) in one
 * descriptor of the 2048 bytes RCTL announces: the write-back reports
 * 1600 bytes for a buffer the driver mapped for 1522. A finding about
 * the stock design (docs/fidelity.md), asserted as the device's
 * behaviour; the ring's poison check is not run on it.
 *
 * stock e1000e: stores it too, but counts no ROC (its oversize check is
 * skipped under SBP).
 */
static void rx_sbp_long_frame_exceeds_stock_buffer(const char *model)
{
    EppRxSetup s = { .design = EPP_RX_STOCK, .mtu = 1500, .rxall = true };
    EppRx *rx = rx_start(model, &s);
    uint8_t wire[1600];
    EppRxWb w;

    epp_frame_fill(wire, sizeof(wire), false, 3);
    epp_inject(rx->d, wire, sizeof(wire));
    wait_arrived(rx, 1);
    epp_step(rx->d, 100 * EPP_NS_PER_US);
    epp_rx_flush(rx);
    epp_rx_desc_read(rx, 0, &w);
    g_assert_cmpuint(rx->roc, ==, epp_is_stock(model) ? 0 : 1);
    g_assert_true(w.dd && w.eop);
    g_assert_cmpuint(w.len[0], ==, 1600);
    g_assert_cmpuint(rx->slot[0].buf[0].map_len, ==, 1522);
    /* The ring is freed without polling: the overrun is not checked. */
    rx_stop(rx);
}

static void rx_add_frame_error_cases(void)
{
    static const struct {
        EppRxDesign design;
        const char *name;
    } designs[] = {
        { EPP_RX_STOCK, "stock" }, { EPP_RX_PAGEPOOL, "pagepool" },
    };
    static const char *const modes[] = {
        "device_drops", "driver_drops", "driver_keeps",
    };
    size_t i, m, k;

    for (i = 0; i < G_N_ELEMENTS(designs); i++) {
        for (m = 0; m < G_N_ELEMENTS(modes); m++) {
            for (k = 0; k < EPP_RX_ERR_KINDS; k++) {
                ErrCase *c = g_new0(ErrCase, 1);
                g_autofree char *path = NULL;

                c->design = designs[i].design;
                c->mode = m;
                c->kind = &epp_rx_err_kinds[k];
                path = g_strdup_printf("rx/frame_error/%s/%s/%s",
                                       designs[i].name, modes[m],
                                       epp_rx_err_kinds[k].name);
                epp_add_pp_case(path, rx_frame_error_case, c);
            }
        }
    }
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO_AS("rx/sbp_long_frame_exceeds_stock_buffer",
                    rx_sbp_long_frame_exceeds_stock_buffer),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    rx_add_frame_error_cases);
}
