/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the FCS lands at every 2 KB boundary (the page-pool design at
 * MTU 9000), and all seven buffer sizes RCTL announces.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-pagepool.h"
#include "rx.h"
typedef struct TailCase {
    size_t l;               /* bytes in the buffers, FCS included */
} TailCase;

typedef struct BsizeCase {
    size_t bsize;
    uint32_t rctl;          /* BSIZE (17:16) | BSEX (25) */
    bool legacy;
} BsizeCase;

#define NONE            EPP_FCS_NONE
#define IN_LAST         EPP_FCS_IN_LAST
#define STRADDLES       EPP_FCS_STRADDLES
#define ALONE           EPP_FCS_ALONE

/*
 * fcs_tail at MTU 9000 (4 KB pages): L bytes with the FCS, the pieces
 * the frame keeps without its FCS, ceil((L - 4) / 2048), and the
 * published truesize for that many pieces (as above).
 */
static const struct {
    size_t l;
    unsigned descs;
    EppFcsCase fcs;
    unsigned kept;
    size_t truesize;
    unsigned stock_descs;
} tail_rows[] = {
    { 2048, 1, IN_LAST, 1, 4352, 2 },
    { 2049, 2, STRADDLES, 1, 4352, 2 },
    { 2050, 2, STRADDLES, 1, 4352, 2 },
    { 2051, 2, STRADDLES, 1, 4352, 2 },
    { 2052, 2, ALONE, 1, 4352, 2 },
    { 2053, 2, IN_LAST, 2, 8448, 3 },
    { 4096, 2, IN_LAST, 2, 8448, 3 },
    { 4097, 3, STRADDLES, 2, 8448, 3 },
    { 4098, 3, STRADDLES, 2, 8448, 3 },
    { 4099, 3, STRADDLES, 2, 8448, 3 },
    { 4100, 3, ALONE, 2, 8448, 3 },
    { 4101, 3, IN_LAST, 3, 12544, 4 },
    { 8192, 4, IN_LAST, 4, 16640, 5 },
    { 8193, 5, STRADDLES, 4, 16640, 5 },
    { 8194, 5, STRADDLES, 4, 16640, 5 },
    { 8195, 5, STRADDLES, 4, 16640, 5 },
    { 8196, 5, ALONE, 4, 16640, 5 },
    { 8197, 5, IN_LAST, 5, 20736, 6 },
};

#undef NONE
#undef IN_LAST
#undef STRADDLES
#undef ALONE

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
static void fcs_tail(const char *model, const void *opaque)
{
    const TailCase *c = opaque;
    bool stock = epp_is_stock(model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = 9000, .keep_crc = true,
        .format = EPP_RXF_EXTENDED,
    };
    size_t flen = c->l - 4, n;
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppDev *d;
    EppRx *rx;
    size_t t;

    for (t = 0; tail_rows[t].l != c->l; t++) {
        g_assert_cmpuint(t + 1, <, ARRAY_SIZE(tail_rows));
    }

    rx = rx_start(model, &s);
    d = rx->d;

    epp_frame_fill(wire, flen, false, 7);
    epp_inject(d, wire, flen);
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);

    n = expected_bytes(exp, wire, flen, false, false, true, stock);
    check_chain(f, exp, n, 2048, true, stock);
    g_assert_cmpuint(f->len, ==, flen);
    g_assert_cmpmem(f->data, f->len, wire, flen);
    if (stock) {
        g_assert_cmpuint(f->ndesc, ==, tail_rows[t].stock_descs);
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==, "alone");
        g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==, 0);
    } else {
        g_assert_cmpuint(f->ndesc, ==, tail_rows[t].descs);
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==,
                        epp_fcs_case_name(tail_rows[t].fcs));
        g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==,
                        epp_fcs(wire, flen));
        /* Pieces kept: the bytes of the frame alone, in 2 KB pieces */
        g_assert_cmpuint(f->pieces_kept, ==, tail_rows[t].kept);
        g_assert_cmpuint(f->truesize, ==, tail_rows[t].truesize);
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
static void rx_buffer_size(const char *model, const void *opaque)
{
    const BsizeCase *c = opaque;
    bool stock = epp_is_stock(model);
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
    EppDev *d;
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
        epp_frame_fill(wire, flen, false, i);
        epp_inject(d, wire, flen);
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

static void add_cases(void)
{
    static const struct {
        size_t bsize;
        uint32_t rctl;
    } sizes[] = {
        /* RCTL.BSIZE in bits 17:16, BSEX in bit 25 */
        { 256, 0x00030000 }, { 512, 0x00020000 }, { 1024, 0x00010000 },
        { 2048, 0x00000000 }, { 4096, 0x02030000 }, { 8192, 0x02020000 },
        { 16384, 0x02010000 },
    };
    static const size_t tails[] = { 2048, 4096, 8192 };
    size_t i, r;
    int legacy;

    for (i = 0; i < ARRAY_SIZE(tails); i++) {
        for (r = 0; r <= 5; r++) {
            TailCase *c = g_new0(TailCase, 1);
            g_autofree char *path = NULL;

            c->l = tails[i] + r;
            path = g_strdup_printf("rx/fcs_tail/L%zu", c->l);
            epp_add_case(path, fcs_tail, c);
        }
    }
    for (i = 0; i < ARRAY_SIZE(sizes); i++) {
        for (legacy = 0; legacy < 2; legacy++) {
            BsizeCase *c = g_new0(BsizeCase, 1);
            g_autofree char *path = NULL;

            c->bsize = sizes[i].bsize;
            c->rctl = sizes[i].rctl;
            c->legacy = legacy;
            path = g_strdup_printf("rx/buffer_size/%zu/%s", c->bsize,
                                   legacy ? "legacy" : "extended");
            epp_add_case(path, rx_buffer_size, c);
        }
    }
}

int main(int argc, char **argv)
{
    return epp_main(argc, argv, NULL, 0, add_cases);
}
