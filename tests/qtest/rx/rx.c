/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the receive scenario files share (rx.h): the bytes and chains a
 * frame should give, a device brought up with a ring, the wait for frames
 * to reach it, the MTU breakpoints, the frame-error kinds and the DMA-cost
 * stream.  Linked into every e1000e-pp-rx-* binary.
 *
 * Datasheet constants (buffer sizes, register values, bit positions) are
 * written as literals in the scenarios on purpose: they must not come
 * from the model's headers.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

/* ---------------------------------------------------------------- */
/* Expected bytes                                                   */
/* ---------------------------------------------------------------- */

/*
 * The bytes the device should place in the buffers for a wire frame:
 * the tag removed when stripped, then the FCS (CRC-32 of the frame as it
 * was on the wire, least significant byte first) when RCTL.SECRC=0.
 * stock e1000e writes four zero bytes instead of the FCS.
 */
size_t expected_bytes(uint8_t *out, const uint8_t *wire, size_t len,
                      bool tagged, bool strip, bool keep_crc, bool stock)
{
    size_t n;

    if (tagged && strip) {
        memcpy(out, wire, 12);
        memcpy(out + 12, wire + 16, len - 16);
        n = len - 4;
    } else {
        memcpy(out, wire, len);
        n = len;
    }
    if (keep_crc) {
        stl_le_p(out + n, stock ? 0 : epp_fcs(wire, len));
        n += 4;
    }
    return n;
}

/*
 * Descriptor lengths for bytes chained through buffers of bs bytes:
 * ceil(n / bs) descriptors, all full but the last.  stock e1000e: the
 * frame alone is chained, then the 4 FCS bytes get a descriptor of their
 * own.
 */
static unsigned expected_chain(uint32_t *lens, size_t n, size_t bs,
                               bool keep_crc, bool stock)
{
    size_t data = stock && keep_crc ? n - 4 : n, off;
    unsigned k = 0;

    for (off = 0; off < data; off += lens[k++]) {
        lens[k] = MIN(bs, data - off);
    }
    if (stock && keep_crc) {
        lens[k++] = 4;
    }
    return k;
}

void check_chain(EppRxFrame *f, const uint8_t *exp, size_t n, size_t bs,
                 bool keep_crc, bool stock)
{
    uint32_t lens[EPP_RX_MAX_PIECES];
    unsigned k, nd = expected_chain(lens, n, bs, keep_crc, stock);

    g_test_message("frame at descriptor %u: %u descriptors, last %u bytes",
                   f->first_desc, f->ndesc, f->desc_len[f->ndesc - 1]);
    g_assert_cmpuint(f->ndesc, ==, nd);
    for (k = 0; k < nd; k++) {
        g_assert_cmpuint(f->desc_len[k], ==, lens[k]);
        g_assert_cmpint(f->desc_eop[k], ==, k == nd - 1);
    }
    g_assert_cmpuint(f->raw_len, ==, n);
    g_assert_cmpmem(f->raw, f->raw_len, exp, n);
}

EppRx *rx_start(const char *model, const EppRxSetup *s)
{
    EppDev *d = epp_start(model, NULL);

    epp_bring_up(d, &epp_default_config);
    return epp_rx_new(d, s);
}

void rx_stop(EppRx *rx)
{
    EppDev *d = rx->d;

    epp_rx_free(rx);
    epp_stop(d);
}

/* Inject and wait until the device has taken n frames in (TPR) */
void wait_arrived(EppRx *rx, uint64_t tpr)
{
    int i;

    /*
     * The netdev hands frames over in QEMU's main loop, not in virtual
     * time: poll without stepping the clock; each poll's register reads
     * are main-loop turns (bounded in turns, no sleep).
     */
    for (i = 0; i < EPP_MAIN_LOOP_TURNS; i++) {
        epp_rx_stats_update(rx);
        if (rx->tpr >= tpr) {
            g_assert_cmpuint(rx->tpr, ==, tpr);
            return;
        }
    }
    epp_dump_regs(rx->d, "frames reaching the device");
    if (rx->tpr + rx->mpc == tpr) {
        /* 82574L §10.2.7 MPC: missed packets also count in TPR and TOR */
        g_error("TPR %" PRIu64 " + MPC %" PRIu64 " = %" PRIu64 " frames: "
                "missed frames are not counted in TPR on %s", rx->tpr,
                rx->mpc, tpr, rx->d->model);
    }
    g_error("TPR %" PRIu64 " of %" PRIu64 " frames after %d main-loop "
            "turns on %s", rx->tpr, tpr, EPP_MAIN_LOOP_TURNS, rx->d->model);
}

/* The page-pool MTU breakpoints (e1000e-pp-rx-matrix, -table) */
const unsigned mtu_breakpoints[14] = {
    1500, 2026, 2027, 4074, 4075, 4096, 4097, 6122, 6123, 8170, 8171,
    8192, 8193, 9212,
};

const EppRxErrKind epp_rx_err_kinds[EPP_RX_ERR_KINDS] = {
    { "crc", "x-rx-error-crc", RXD_ERR_CE, CRCERRS },
    { "symbol", "x-rx-error-symbol", RXD_ERR_SE, SYMERRS },
    { "data", "x-rx-error-data", RXD_ERR_RXE, RXERRC },
    { "oversize", "x-rx-error-oversize", 0, ROC },
};

/* Arm one frame error of kind k (qom-set <knob> 1) */
void epp_rx_arm_error(EppDev *d, const EppRxErrKind *k)
{
    g_assert_true(epp_qom_set(d, k->knob, 1));
}

/* The small frame of rx_dma_cost_stream, between full-size ones */
#define DMA_SMALL       128

void rx_dma_cost_stream(EppDev *d, const EppRxSetup *setup,
                        unsigned nframes, EppDmaCost *cost)
{
    EppRxSetup s = *setup;
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppRx *rx;
    unsigned i;

    s.format = EPP_RXF_EXTENDED;
    rx = epp_rx_new(d, &s);
    cost->maps_at_start = rx->dma_maps;
    /*
     * Frame 0 warms the ring up: its refill fills the one slot never
     * posted (RDH == RDT keeps one empty).  From then on every refill
     * re-fills the slot of the frame before, so the window's maps and
     * unmaps cover the same mix of frames.
     */
    for (i = 0; i <= nframes; i++) {
        size_t len = i % 2 ? s.mtu + 14 : DMA_SMALL;

        if (i == 1) {
            rx->dma_maps = rx->dma_unmaps = rx->dma_syncs = 0;
        }
        epp_frame_fill(wire, len, false, i);
        epp_inject(d, wire, len);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpuint(f->len, ==, len);
        g_assert_cmpmem(f->data, f->len, wire, len);
        epp_rx_release(rx, f);
        /* NAPI refills what it cleaned */
        epp_rx_refill(rx);
    }
    cost->frames = nframes;
    cost->maps = rx->dma_maps;
    cost->unmaps = rx->dma_unmaps;
    cost->syncs = rx->dma_syncs;
    epp_rx_check_pool(rx);
    epp_rx_free(rx);
}
