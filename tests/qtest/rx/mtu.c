/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page-pool design across the MTU breakpoints: every breakpoint x
 * SECRC x VLAN strip x legacy/extended descriptors.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rxdrv-pagepool.h"
#include "rx.h"
typedef struct MtuCase {
    unsigned mtu;
    bool keep_crc;
    bool strip;
    bool legacy;
} MtuCase;

/* ---------------------------------------------------------------- */
/* Page-pool design across the MTU breakpoints                      */
/* ---------------------------------------------------------------- */

/*
 * What each case must give, as literals: the descriptor count from the
 * datasheet's rule (82574L: a frame longer than the buffer RCTL.BSIZE
 * announces, §7.1.2, here 2048 bytes, continues in the next descriptor,
 * and only the last has EOP, §7.1.4), where the FCS lands among them,
 * and the truesize the page-pool series' cover letter publishes for a
 * frame of that many pieces (/work/shared/seeds/e1000e-page-pool-
 * series.md, "Payload Density", series column: 2304 for the one 2 KB
 * chunk at MTU <= 1500; above it, a 4 KB page per piece: 1 piece 4352,
 * 2 pieces 8448, 3 pieces 12544, 4 pieces 16640, 5 pieces 20736; small
 * frames "are charged at the buffer's full 2 KB truesize at standard
 * MTU").  The published rows count the worst-case frame (MTU + 22: tag
 * and FCS in the buffers); where its last piece holds FCS bytes only
 * (MTU 2027, 4075, 6123, 8171 with the tag and the CRC kept, one to
 * three bytes past a 2 KB boundary) the driver gives that piece back
 * before the frame goes up, so the frame is charged one piece less than
 * the row above it says.
 *
 * stock e1000e writes the frame alone, then four zero bytes in a
 * descriptor of their own (stock_descs); the driver's pieces are the
 * same.
 */
typedef struct MtuWant {
    size_t bytes;           /* in the buffers, FCS included when kept */
    unsigned descs;         /* e1000e-pp: ceil(bytes / 2048) */
    EppFcsCase fcs;         /* where the FCS is, from the last length */
    unsigned kept;          /* pieces after the software FCS strip */
    size_t truesize;        /* published: kept pieces */
    unsigned stock_descs;
} MtuWant;

typedef struct MtuRow {
    unsigned mtu;
    bool keep_crc, strip;
    MtuWant full;           /* the tagged 18 + MTU-byte frame */
    MtuWant small;          /* the tagged 64-byte frame */
} MtuRow;

#define KEPT            true
#define STRP            false
#define TAG_STRIPPED    true
#define TAG_IN_FRAME    false
#define NONE            EPP_FCS_NONE
#define IN_LAST         EPP_FCS_IN_LAST
#define STRADDLES       EPP_FCS_STRADDLES
#define ALONE           EPP_FCS_ALONE

/* MTU, CRC kept or stripped, tag: { bytes, descs, FCS, kept, truesize } */
static const MtuRow mtu_rows[] = {
    /* published row <= 1500: 1 piece 2304 */
    { 1500, KEPT, TAG_IN_FRAME,
      { 1522, 1, IN_LAST, 1, 2304, 2 },
      { 68, 1, IN_LAST, 1, 2304, 2 } },
    { 1500, KEPT, TAG_STRIPPED,
      { 1518, 1, IN_LAST, 1, 2304, 2 },
      { 64, 1, IN_LAST, 1, 2304, 2 } },
    { 1500, STRP, TAG_IN_FRAME,
      { 1518, 1, NONE, 1, 2304, 1 },
      { 64, 1, NONE, 1, 2304, 1 } },
    { 1500, STRP, TAG_STRIPPED,
      { 1514, 1, NONE, 1, 2304, 1 },
      { 60, 1, NONE, 1, 2304, 1 } },
    /* published row 1501-2026: 1 piece 4352 */
    { 2026, KEPT, TAG_IN_FRAME,
      { 2048, 1, IN_LAST, 1, 4352, 2 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 2026, KEPT, TAG_STRIPPED,
      { 2044, 1, IN_LAST, 1, 4352, 2 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 2026, STRP, TAG_IN_FRAME,
      { 2044, 1, NONE, 1, 4352, 1 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 2026, STRP, TAG_STRIPPED,
      { 2040, 1, NONE, 1, 4352, 1 },
      { 60, 1, NONE, 1, 4352, 1 } },
    /* published row 2027-4074: 2 pieces 8448 */
    { 2027, KEPT, TAG_IN_FRAME,
      { 2049, 2, STRADDLES, 1, 4352, 2 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 2027, KEPT, TAG_STRIPPED,
      { 2045, 1, IN_LAST, 1, 4352, 2 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 2027, STRP, TAG_IN_FRAME,
      { 2045, 1, NONE, 1, 4352, 1 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 2027, STRP, TAG_STRIPPED,
      { 2041, 1, NONE, 1, 4352, 1 },
      { 60, 1, NONE, 1, 4352, 1 } },
    { 4074, KEPT, TAG_IN_FRAME,
      { 4096, 2, IN_LAST, 2, 8448, 3 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 4074, KEPT, TAG_STRIPPED,
      { 4092, 2, IN_LAST, 2, 8448, 3 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 4074, STRP, TAG_IN_FRAME,
      { 4092, 2, NONE, 2, 8448, 2 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 4074, STRP, TAG_STRIPPED,
      { 4088, 2, NONE, 2, 8448, 2 },
      { 60, 1, NONE, 1, 4352, 1 } },
    /* published row 4075-4096: 3 pieces 12544 */
    { 4075, KEPT, TAG_IN_FRAME,
      { 4097, 3, STRADDLES, 2, 8448, 3 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 4075, KEPT, TAG_STRIPPED,
      { 4093, 2, IN_LAST, 2, 8448, 3 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 4075, STRP, TAG_IN_FRAME,
      { 4093, 2, NONE, 2, 8448, 2 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 4075, STRP, TAG_STRIPPED,
      { 4089, 2, NONE, 2, 8448, 2 },
      { 60, 1, NONE, 1, 4352, 1 } },
    { 4096, KEPT, TAG_IN_FRAME,
      { 4118, 3, IN_LAST, 3, 12544, 4 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 4096, KEPT, TAG_STRIPPED,
      { 4114, 3, IN_LAST, 3, 12544, 4 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 4096, STRP, TAG_IN_FRAME,
      { 4114, 3, NONE, 3, 12544, 3 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 4096, STRP, TAG_STRIPPED,
      { 4110, 3, NONE, 3, 12544, 3 },
      { 60, 1, NONE, 1, 4352, 1 } },
    /* published row 4097-6122: 3 pieces 12544 */
    { 4097, KEPT, TAG_IN_FRAME,
      { 4119, 3, IN_LAST, 3, 12544, 4 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 4097, KEPT, TAG_STRIPPED,
      { 4115, 3, IN_LAST, 3, 12544, 4 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 4097, STRP, TAG_IN_FRAME,
      { 4115, 3, NONE, 3, 12544, 3 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 4097, STRP, TAG_STRIPPED,
      { 4111, 3, NONE, 3, 12544, 3 },
      { 60, 1, NONE, 1, 4352, 1 } },
    { 6122, KEPT, TAG_IN_FRAME,
      { 6144, 3, IN_LAST, 3, 12544, 4 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 6122, KEPT, TAG_STRIPPED,
      { 6140, 3, IN_LAST, 3, 12544, 4 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 6122, STRP, TAG_IN_FRAME,
      { 6140, 3, NONE, 3, 12544, 3 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 6122, STRP, TAG_STRIPPED,
      { 6136, 3, NONE, 3, 12544, 3 },
      { 60, 1, NONE, 1, 4352, 1 } },
    /* published row 6123-8170: 4 pieces 16640 */
    { 6123, KEPT, TAG_IN_FRAME,
      { 6145, 4, STRADDLES, 3, 12544, 4 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 6123, KEPT, TAG_STRIPPED,
      { 6141, 3, IN_LAST, 3, 12544, 4 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 6123, STRP, TAG_IN_FRAME,
      { 6141, 3, NONE, 3, 12544, 3 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 6123, STRP, TAG_STRIPPED,
      { 6137, 3, NONE, 3, 12544, 3 },
      { 60, 1, NONE, 1, 4352, 1 } },
    { 8170, KEPT, TAG_IN_FRAME,
      { 8192, 4, IN_LAST, 4, 16640, 5 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 8170, KEPT, TAG_STRIPPED,
      { 8188, 4, IN_LAST, 4, 16640, 5 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 8170, STRP, TAG_IN_FRAME,
      { 8188, 4, NONE, 4, 16640, 4 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 8170, STRP, TAG_STRIPPED,
      { 8184, 4, NONE, 4, 16640, 4 },
      { 60, 1, NONE, 1, 4352, 1 } },
    /* published row 8171-8192: 5 pieces 20736 */
    { 8171, KEPT, TAG_IN_FRAME,
      { 8193, 5, STRADDLES, 4, 16640, 5 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 8171, KEPT, TAG_STRIPPED,
      { 8189, 4, IN_LAST, 4, 16640, 5 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 8171, STRP, TAG_IN_FRAME,
      { 8189, 4, NONE, 4, 16640, 4 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 8171, STRP, TAG_STRIPPED,
      { 8185, 4, NONE, 4, 16640, 4 },
      { 60, 1, NONE, 1, 4352, 1 } },
    { 8192, KEPT, TAG_IN_FRAME,
      { 8214, 5, IN_LAST, 5, 20736, 6 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 8192, KEPT, TAG_STRIPPED,
      { 8210, 5, IN_LAST, 5, 20736, 6 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 8192, STRP, TAG_IN_FRAME,
      { 8210, 5, NONE, 5, 20736, 5 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 8192, STRP, TAG_STRIPPED,
      { 8206, 5, NONE, 5, 20736, 5 },
      { 60, 1, NONE, 1, 4352, 1 } },
    /* published row 8193-9212: 5 pieces 20736 */
    { 8193, KEPT, TAG_IN_FRAME,
      { 8215, 5, IN_LAST, 5, 20736, 6 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 8193, KEPT, TAG_STRIPPED,
      { 8211, 5, IN_LAST, 5, 20736, 6 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 8193, STRP, TAG_IN_FRAME,
      { 8211, 5, NONE, 5, 20736, 5 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 8193, STRP, TAG_STRIPPED,
      { 8207, 5, NONE, 5, 20736, 5 },
      { 60, 1, NONE, 1, 4352, 1 } },
    { 9212, KEPT, TAG_IN_FRAME,
      { 9234, 5, IN_LAST, 5, 20736, 6 },
      { 68, 1, IN_LAST, 1, 4352, 2 } },
    { 9212, KEPT, TAG_STRIPPED,
      { 9230, 5, IN_LAST, 5, 20736, 6 },
      { 64, 1, IN_LAST, 1, 4352, 2 } },
    { 9212, STRP, TAG_IN_FRAME,
      { 9230, 5, NONE, 5, 20736, 5 },
      { 64, 1, NONE, 1, 4352, 1 } },
    { 9212, STRP, TAG_STRIPPED,
      { 9226, 5, NONE, 5, 20736, 5 },
      { 60, 1, NONE, 1, 4352, 1 } },
};

#undef NONE
#undef IN_LAST
#undef STRADDLES
#undef ALONE

static const MtuRow *mtu_row(const MtuCase *c)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(mtu_rows); i++) {
        if (mtu_rows[i].mtu == c->mtu && mtu_rows[i].keep_crc == c->keep_crc &&
            mtu_rows[i].strip == c->strip) {
            return &mtu_rows[i];
        }
    }
    g_assert_not_reached();
}

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
static void pp_mtu_matrix(const char *model, const void *opaque)
{
    const MtuCase *c = opaque;
    bool stock = epp_is_stock(model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = c->mtu, .keep_crc = c->keep_crc,
        .vlan_strip = c->strip,
        .format = c->legacy ? EPP_RXF_LEGACY : EPP_RXF_EXTENDED,
    };
    const size_t lens[2] = { 18 + c->mtu, 64 };
    const MtuRow *row = mtu_row(c);
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppDev *d;
    EppRx *rx;
    int i;

    rx = rx_start(model, &s);
    d = rx->d;

    for (i = 0; i < 2; i++) {
        const MtuWant *w = i ? &row->small : &row->full;
        size_t n;

        epp_frame_fill(wire, lens[i], true, i);
        epp_inject(d, wire, lens[i]);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);

        n = expected_bytes(exp, wire, lens[i], true, c->strip, c->keep_crc,
                           stock);
        g_assert_cmpuint(n, ==, w->bytes);
        g_assert_cmpuint(f->ndesc, ==, stock ? w->stock_descs : w->descs);
        check_chain(f, exp, n, 2048, c->keep_crc, stock);

        /* Errors none; VP and the tag only when the tag was stripped */
        g_assert_cmphex(f->errors, ==, 0);
        g_assert_cmphex(f->status & 0x08, ==, c->strip ? 0x08 : 0);
        g_assert_cmphex(f->vlan, ==, c->strip ? EPP_VLAN_TCI : 0);

        /* What the stack gets: the frame without FCS, FCS set aside */
        g_assert_cmpuint(f->len, ==, n - (c->keep_crc ? 4 : 0));
        g_assert_cmpmem(f->data, f->len, exp, f->len);
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==,
                        epp_fcs_case_name(!stock ? w->fcs :
                                          c->keep_crc ? EPP_FCS_ALONE :
                                          EPP_FCS_NONE));
        if (c->keep_crc) {
            g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==,
                            stock ? 0 : epp_fcs(wire, lens[i]));
        }
        g_assert_cmpuint(f->pieces_kept, ==, w->kept);
        g_assert_cmpuint(f->truesize, ==, w->truesize);
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

/*
 * The matrix is four binaries, one per descriptor format and RCTL.SECRC
 * setting (meson.build builds this file with EPP_MTU_LEGACY and
 * EPP_MTU_KEEP_CRC set), so that no one test() holds most of the
 * receive scenarios.
 */
static void add_cases(void)
{
    const int crc = EPP_MTU_KEEP_CRC, legacy = EPP_MTU_LEGACY;
    size_t i;
    int strip;

    for (i = 0; i < ARRAY_SIZE(mtu_breakpoints); i++) {
        for (strip = 0; strip < 2; strip++) {
            MtuCase *c = g_new0(MtuCase, 1);
            g_autofree char *path = NULL;

            c->mtu = mtu_breakpoints[i];
            c->keep_crc = crc;
            c->strip = strip;
            c->legacy = legacy;
            path = g_strdup_printf("rx/pp_mtu/%u/%s/%s/%s", c->mtu,
                                   crc ? "crc-kept" : "crc-stripped",
                                   strip ? "tag-stripped" : "tag-kept",
                                   legacy ? "legacy" : "extended");
            epp_add_case(path, pp_mtu_matrix, c);
        }
    }
}

int main(int argc, char **argv)
{
    return epp_main(argc, argv, NULL, 0, add_cases);
}
