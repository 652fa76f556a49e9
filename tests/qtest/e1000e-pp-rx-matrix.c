/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive scenarios: the page-pool design across the MTU breakpoints, FCS
 * tails and every buffer size.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-pagepool.h"
#include "e1000e-pp-rx-test.h"
/* ---------------------------------------------------------------- */
/* Page-pool design across the MTU breakpoints                      */
/* ---------------------------------------------------------------- */

const unsigned mtu_breakpoints[14] = {
    1500, 2026, 2027, 4074, 4075, 4096, 4097, 6122, 6123, 8170, 8171,
    8192, 8193, 9212,
};

/*
 * Given the page-pool design at MTU m (BSIZE 2048, LPE above 1500),
 * SECRC on or off, VLAN strip on or off, legacy or extended descriptors,
 * when a full-size tagged frame (18 + m bytes) and a 64-byte tagged frame
 * arrive, then each fills ceil(bytes / 2048) descriptors with EOP on the
 * last only, the buffers hold the frame byte for byte with the real FCS
 * when kept, software strips the FCS wherever it landed, the VLAN tag is
 * in the descriptor when stripped, truesize is libeth's, the device
 * wrote nothing outside the reported bytes and no chunk leaked.
 */
void pp_mtu_matrix(const char *model, const void *opaque)
{
    const MtuCase *c = opaque;
    bool stock = is_stock(model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = c->mtu, .keep_crc = c->keep_crc,
        .vlan_strip = c->strip,
        .format = c->legacy ? EPP_RXF_LEGACY : EPP_RXF_EXTENDED,
    };
    const size_t lens[2] = { 18 + c->mtu, 64 };
    /* libeth chunk truesize: 2048 at MTU 1500, 4096 at every other */
    size_t chunk_truesize = c->mtu <= 1500 ? 2048 : 4096;
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    E1000epp *d;
    EppRx *rx;
    int i;

    rx = rx_start(model, &s);
    d = rx->d;

    for (i = 0; i < 2; i++) {
        size_t n, last;
        EppFcsCase want;

        frame_fill(wire, lens[i], true, i);
        e1000epp_inject(d, wire, lens[i]);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);

        n = expected_bytes(exp, wire, lens[i], true, c->strip, c->keep_crc,
                           stock);
        check_chain(f, exp, n, 2048, c->keep_crc, stock);

        /* Errors none; VP and the tag only when the tag was stripped */
        g_assert_cmphex(f->errors, ==, 0);
        g_assert_cmphex(f->status & 0x08, ==, c->strip ? 0x08 : 0);
        g_assert_cmphex(f->vlan, ==, c->strip ? VLAN_TCI : 0);

        /* What the stack gets: the frame without FCS, FCS set aside */
        g_assert_cmpuint(f->len, ==, n - (c->keep_crc ? 4 : 0));
        g_assert_cmpmem(f->data, f->len, exp, f->len);
        last = f->desc_len[f->ndesc - 1];
        if (!c->keep_crc) {
            want = EPP_FCS_NONE;
        } else if (last > 4) {
            want = EPP_FCS_IN_LAST;
        } else if (last == 4) {
            want = EPP_FCS_ALONE;
        } else {
            want = EPP_FCS_STRADDLES;
        }
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==,
                        epp_fcs_case_name(want));
        if (c->keep_crc) {
            g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==,
                            stock ? 0 : e1000epp_fcs(wire, lens[i]));
        }
        g_assert_cmpuint(f->pieces_kept, ==,
                         f->ndesc - (want == EPP_FCS_ALONE ||
                                     want == EPP_FCS_STRADDLES));
        g_assert_cmpuint(f->truesize, ==,
                         f->pieces_kept * chunk_truesize + 256);
        g_test_message("MTU %u frame %zu: %u pieces, fcs %s, truesize %zu",
                       c->mtu, lens[i], f->ndesc,
                       epp_fcs_case_name(f->fcs_case), f->truesize);
        epp_rx_release(rx, f);
    }
    g_assert_false(epp_rx_dd_pending(rx));

    /* Then: every chunk accounted for after refilling the ring */
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    g_assert_cmpuint(epp_rx_pagepool(rx)->n_posted_chunks, ==, 63);
    rx_stop(rx);
}

/* ---------------------------------------------------------------- */
/* FCS placement: L mod 2048 in 0..5                                */
/* ---------------------------------------------------------------- */

/*
 * Given the page-pool design at MTU 9000 with SECRC=0 (2 KB buffers),
 * when an untagged frame of L - 4 bytes arrives (L bytes with its FCS),
 * then L mod 2048 decides where the FCS lands: 0 - at the end of a full
 * last piece; 1..3 - straddling the last two pieces; 4 - alone in the
 * last piece; 5 - with one data byte.  Software strips it in every case,
 * drops a piece that held only FCS bytes, and truesize counts the
 * pieces kept.
 *
 * stock e1000e: the frame fills ceil((L - 4) / 2048) pieces and four
 * zero bytes follow in a descriptor of their own, so the FCS always
 * "stands alone" and is zero.
 */
void fcs_tail(const char *model, const void *opaque)
{
    const TailCase *c = opaque;
    bool stock = is_stock(model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = 9000, .keep_crc = true,
        .format = EPP_RXF_EXTENDED,
    };
    size_t flen = c->l - 4, r = c->l % 2048, n;
    unsigned full = c->l / 2048;
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    static const EppFcsCase want[6] = {
        EPP_FCS_IN_LAST, EPP_FCS_STRADDLES, EPP_FCS_STRADDLES,
        EPP_FCS_STRADDLES, EPP_FCS_ALONE, EPP_FCS_IN_LAST,
    };
    E1000epp *d;
    EppRx *rx;

    rx = rx_start(model, &s);
    d = rx->d;

    frame_fill(wire, flen, false, 7);
    e1000epp_inject(d, wire, flen);
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);

    n = expected_bytes(exp, wire, flen, false, false, true, stock);
    check_chain(f, exp, n, 2048, true, stock);
    g_assert_cmpuint(f->len, ==, flen);
    g_assert_cmpmem(f->data, f->len, wire, flen);
    if (stock) {
        g_assert_cmpuint(f->ndesc, ==, DIV_ROUND_UP(flen, 2048) + 1);
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==, "alone");
        g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==, 0);
    } else {
        g_assert_cmpuint(f->ndesc, ==, full + (r != 0));
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==,
                        epp_fcs_case_name(want[r]));
        g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==,
                        e1000epp_fcs(wire, flen));
        /* Pieces kept: the bytes of the frame alone, in 2 KB pieces */
        g_assert_cmpuint(f->pieces_kept, ==, DIV_ROUND_UP(flen, 2048));
        g_assert_cmpuint(f->truesize, ==, f->pieces_kept * 4096 + 256);
    }
    epp_rx_release(rx, f);
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

/* ---------------------------------------------------------------- */
/* All seven buffer sizes                                           */
/* ---------------------------------------------------------------- */

/*
 * Given fixed buffers of exactly the size RCTL.BSIZE/BSEX announces
 * (256, 512, 1024, 2048 with BSEX=0; 4096, 8192, 16384 with BSEX=1),
 * SECRC=0 and LPE=1, when frames arrive whose bytes with FCS are 64,
 * bsize - 1, bsize, bsize + 1, 2 * bsize + 3 and 9234 (the longest the
 * driver sizes for; larger ones are skipped),
 * then each fills ceil(L / bsize) buffers, never writes past a buffer
 * and ends with the real FCS.
 */
void rx_buffer_size(const char *model, const void *opaque)
{
    const BsizeCase *c = opaque;
    bool stock = is_stock(model);
    EppRxSetup s = {
        .design = EPP_RX_FIXED, .keep_crc = true, .lpe = true,
        .format = c->legacy ? EPP_RXF_LEGACY : EPP_RXF_EXTENDED,
        .rctl_bsize = c->rctl,
    };
    const size_t cand[6] = {
        64, c->bsize - 1, c->bsize, c->bsize + 1, 2 * c->bsize + 3, 9234,
    };
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    E1000epp *d;
    EppRx *rx;
    size_t i, n, tested = 0, prev = 0;

    rx = rx_start(model, &s);
    d = rx->d;

    for (i = 0; i < ARRAY_SIZE(cand); i++) {
        size_t flen = cand[i] - 4;

        if (cand[i] > 9234 || cand[i] <= prev) {
            continue;
        }
        prev = cand[i];
        frame_fill(wire, flen, false, i);
        e1000epp_inject(d, wire, flen);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        n = expected_bytes(exp, wire, flen, false, false, true, stock);
        check_chain(f, exp, n, c->bsize, true, stock);
        g_assert_cmphex(f->errors, ==, 0);
        tested++;
        epp_rx_refill(rx);
    }
    g_assert_cmpuint(tested, >=, 2);
    g_assert_false(epp_rx_dd_pending(rx));
    epp_rx_check_pool(rx);
    rx_stop(rx);
}
