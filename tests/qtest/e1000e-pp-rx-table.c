/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page-pool series' published table, reproduced on the device.
 *
 * The series publishes, per MTU range, the pieces per frame, truesize
 * and payload density of the stock e1000e receive path and of the
 * series' 2 KB-chunk design.  It is typed in below as data; the
 * scenarios measure both qtest designs on the device at every MTU of a
 * sweep (the breakpoints and their neighbours always included) and
 * compare.  Definitions, as the table uses them:
 *   pieces    buffers the worst-case frame occupies: MTU + 22 bytes on
 *             the wire side of the device (one VLAN tag, not stripped,
 *             and the FCS, RCTL.SECRC = 0); for the stock split path the
 *             pages the driver posts per descriptor;
 *   truesize  pieces x what a piece costs + the skb, as the design
 *             defines its cost (published_cost); the design's actual
 *             charge after the software FCS strip is f->truesize;
 *   density   (MTU + 14) / truesize.
 *
 * The report that prints it (./e1000e-pp report) is in
 * e1000e-pp-rx-report.c.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rx-test.h"

/* The published table, as printed in the series */
const PubRow rx_published[] = {
    { 68, 1500, { 1, 2688, -1, 0.56 }, { 1, 2304, -1, 0.66 } },
    { 1501, 2026, { 1, 4864, 0.31, 0.42 }, { 1, 4352, 0.35, 0.47 } },
    { 2027, 4074, { 1, 4864, 0.42, 0.84 }, { 2, 8448, 0.24, 0.48 } },
    { 4075, 4096, { 1, 4864, 0.84, 0.84 }, { 3, 12544, 0.33, 0.33 } },
    { 4097, 6122, { 2, 8960, 0.46, 0.68 }, { 3, 12544, 0.33, 0.49 } },
    { 6123, 8170, { 2, 8960, 0.68, 0.91 }, { 4, 16640, 0.37, 0.49 } },
    { 8171, 8192, { 2, 8960, 0.91, 0.92 }, { 5, 20736, 0.39, 0.40 } },
    { 8193, 9212, { 3, 13056, 0.63, 0.71 }, { 5, 20736, 0.40, 0.44 } },
};

const size_t rx_published_rows = ARRAY_SIZE(rx_published);

const PubRow *pub_row(unsigned mtu)
{
    size_t i;

    for (i = 0; i < rx_published_rows; i++) {
        if (mtu >= rx_published[i].lo && mtu <= rx_published[i].hi) {
            return &rx_published[i];
        }
    }
    return NULL;
}

const PubCell *pub_cell(const PubRow *r, EppRxDesign design)
{
    return design == EPP_RX_STOCK ? &r->stock : &r->pagepool;
}

/* ---------------------------------------------------------------- */
/* Sweep                                                            */
/* ---------------------------------------------------------------- */

static gint cmp_uint(gconstpointer a, gconstpointer b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

    return x < y ? -1 : x > y;
}

/*
 * MTUs lo..hi every `step`, plus every row edge and its neighbours
 * inside lo..hi, sorted, without repeats.
 */
GArray *sweep_mtus(unsigned lo, unsigned hi, unsigned step)
{
    GArray *a = g_array_new(false, false, sizeof(unsigned));
    GArray *out = g_array_new(false, false, sizeof(unsigned));
    unsigned m, k;
    size_t i;
    int dv;

    for (m = lo; m <= hi; m += step) {
        g_array_append_val(a, m);
    }
    g_array_append_val(a, hi);
    for (i = 0; i < rx_published_rows; i++) {
        for (dv = -1; dv <= 1; dv++) {
            unsigned e[2] = {
                rx_published[i].lo + dv, rx_published[i].hi + dv,
            };

            for (k = 0; k < 2; k++) {
                if (e[k] >= lo && e[k] <= hi) {
                    g_array_append_val(a, e[k]);
                }
            }
        }
    }
    g_array_sort(a, cmp_uint);
    for (i = 0; i < a->len; i++) {
        m = g_array_index(a, unsigned, i);
        if (!out->len || g_array_index(out, unsigned, out->len - 1) != m) {
            g_array_append_val(out, m);
        }
    }
    g_array_free(a, true);
    return out;
}

/* ---------------------------------------------------------------- */
/* Measuring one frame                                              */
/* ---------------------------------------------------------------- */

/*
 * Receive the largest frame the MTU allows (+ a VLAN tag left in the
 * buffer when vlan) through a fresh ring of the design on device d.
 */
void measure(E1000epp *d, Measure *m)
{
    EppRxSetup s = {
        .design = m->design, .mtu = m->mtu, .keep_crc = m->fcs_kept,
        .format = EPP_RXF_EXTENDED,
        .ring_count = m->design == EPP_RX_STOCK ? 32 : 8,
        .no_packet_split = m->no_ps,
    };
    size_t flen = m->mtu + 14 + (m->vlan ? 4 : 0);
    g_autofree uint8_t *wire = g_malloc(flen);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppRx *rx = epp_rx_new(d, &s);

    frame_fill(wire, flen, m->vlan, m->mtu);
    e1000epp_inject(d, wire, flen);
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
    g_assert_cmpuint(f->len, ==, flen);
    g_assert_cmpmem(f->data, f->len, wire, flen);
    m->descriptors = f->ndesc;
    m->pieces_kept = f->pieces_kept;
    m->fcs_case = f->fcs_case;
    m->charged = f->truesize;
    rx->ops->published_cost(rx, f, &m->pieces, &m->truesize);
    m->density = (double)(m->mtu + 14) / m->truesize;
    epp_rx_release(rx, f);
    epp_rx_free(rx);
}

/* A density (positive) at two decimals, in hundredths */
long hundredths(double v)
{
    return (long)(v * 100 + 0.5);
}

/* ---------------------------------------------------------------- */
/* The scenarios                                                    */
/* ---------------------------------------------------------------- */

typedef struct TableCase {
    EppRxDesign design;
    unsigned step;
} TableCase;

/*
 * Given one device and the design, when at each MTU of the sweep (68 to
 * 9212, every 4th plus each row edge and its neighbours) the worst-case
 * frame (MTU + 14 bytes, one VLAN tag left in the buffer, the FCS kept
 * by the device) is received on a fresh ring, then pieces and truesize
 * equal the published row's, byte for byte the frame is intact, and at
 * each row edge (MTU + 14) / truesize equals the published density at
 * two decimals.  The expected numbers are the published table's.
 *
 * stock e1000e: writes the FCS (four zero bytes) in a descriptor of its
 * own, so its chunk counts are not the hardware's: at every MTU of the
 * sweep the frame with the FCS kept takes exactly one descriptor more
 * than the same frame with the FCS stripped.
 */
void rx_published_table(const char *model, const void *opaque)
{
    const TableCase *c = opaque;
    g_autoptr(GArray) mtus = NULL;
    E1000epp *d;
    size_t i;

    mtus = sweep_mtus(MTU_MIN, MTU_MAX, c->step);
    d = e1000epp_start(model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    if (on_stock(model, "the FCS takes a descriptor of its own")) {
        for (i = 0; i < mtus->len; i++) {
            Measure kept = {
                .design = c->design, .mtu = g_array_index(mtus, unsigned, i),
                .vlan = true, .fcs_kept = true,
            };
            Measure stripped = kept;

            stripped.fcs_kept = false;
            measure(d, &stripped);
            measure(d, &kept);
            if (kept.descriptors != stripped.descriptors + 1) {
                g_error("%s MTU %u: %u descriptors with the FCS, %u "
                        "without", epp_rx_design_name(c->design), kept.mtu,
                        kept.descriptors, stripped.descriptors);
            }
        }
        e1000epp_stop(d);
        return;
    }
    for (i = 0; i < mtus->len; i++) {
        Measure m = {
            .design = c->design, .mtu = g_array_index(mtus, unsigned, i),
            .vlan = true, .fcs_kept = true,
        };
        const PubRow *r = pub_row(m.mtu);
        const PubCell *p = pub_cell(r, c->design);

        measure(d, &m);
        if (m.pieces != p->pieces || m.truesize != p->truesize) {
            g_error("%s MTU %u: %u pieces / truesize %zu, published "
                    "%u / %zu", epp_rx_design_name(c->design), m.mtu,
                    m.pieces, m.truesize, p->pieces, p->truesize);
        }
        if (m.mtu == r->hi) {
            g_assert_cmpint(hundredths(m.density), ==,
                            hundredths(p->density_hi));
        }
        if (m.mtu == r->lo && p->density_lo >= 0) {
            g_assert_cmpint(hundredths(m.density), ==,
                            hundredths(p->density_lo));
        }
    }
    g_test_message("%s: %u MTUs from %u to %u match the published table",
                   epp_rx_design_name(c->design), mtus->len, MTU_MIN,
                   MTU_MAX);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* The stock paths                                                  */
/* ---------------------------------------------------------------- */

typedef enum StockPath {
    PATH_STANDARD,          /* MTU <= 1500 */
    PATH_SPLIT,             /* above: packet split */
    PATH_JUMBO,             /* above, packet split off */
} StockPath;

/*
 * Given the stock design on the path the driver takes, when at each MTU
 * breakpoint (1500 and 68 for the standard path) the largest frame
 * arrives with the FCS kept and stripped, a VLAN tag on and off, then it
 * comes back intact in the descriptors the buffer sizes dictate and is
 * charged as Linux charges it: the standard path 2688 (the published
 * row), packet split the 768-byte head + 4096 per page holding bytes
 * (a non-IP frame fills the 128-byte header buffer first), the jumbo
 * path the head + 4096 per descriptor (pages of rx_buffer_len: 2048
 * while MTU + 22 fits, else 4096).
 * stock e1000e: the same with the FCS stripped; with it kept, its four
 * zero bytes take one descriptor more than the stripped frame did.
 */
void rx_stock_paths(const char *model, const void *opaque)
{
    StockPath path = GPOINTER_TO_INT(opaque);
    static const unsigned standard_mtus[] = { 68, 1500 };
    const unsigned *mtus = path == PATH_STANDARD ? standard_mtus :
                           mtu_breakpoints + 1;
    size_t n = path == PATH_STANDARD ? 2 : ARRAY_SIZE(mtu_breakpoints) - 1;
    E1000epp *d;
    size_t i;
    int v, fk;

    d = e1000epp_start(model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    for (i = 0; i < n; i++) {
        for (v = 0; v < 2; v++) {
            unsigned stripped_desc = 0;

            for (fk = 0; fk < 2; fk++) {
                Measure m = {
                    .design = EPP_RX_STOCK, .mtu = mtus[i], .vlan = v,
                    .fcs_kept = fk, .no_ps = path == PATH_JUMBO,
                };
                size_t bytes = mtus[i] + 14 + 4 * v + 4 * fk;
                size_t bsize = mtus[i] + 22 > 2048 ? 4096 : 2048;
                unsigned want_desc = 1;
                size_t want_ts = 2688;

                measure(d, &m);
                if (path == PATH_SPLIT) {
                    want_ts = 768 + 4096 * DIV_ROUND_UP(bytes - 128, 4096);
                } else if (path == PATH_JUMBO) {
                    want_desc = DIV_ROUND_UP(bytes, bsize);
                    want_ts = 768 + 4096 * want_desc;
                }
                g_test_message("MTU %u FCS %s VLAN %s: %u descriptors, "
                               "truesize %zu", m.mtu,
                               fk ? "kept" : "stripped", v ? "on" : "off",
                               m.descriptors, m.charged);
                if (fk && on_stock(model, "the FCS takes a descriptor of "
                                   "its own")) {
                    g_assert_cmpuint(m.descriptors, ==, stripped_desc + 1);
                    continue;
                }
                g_assert_cmpuint(m.descriptors, ==, want_desc);
                g_assert_cmpuint(m.charged, ==, want_ts);
                stripped_desc = m.descriptors;
            }
        }
    }
    e1000epp_stop(d);
}

void rx_add_published_table_cases(void)
{
    static const char *const paths[] = { "standard", "split", "jumbo" };
    static const TableCase cases[] = {
        { EPP_RX_PAGEPOOL, 4 },
        { EPP_RX_STOCK, 4 },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(cases); i++) {
        g_autofree char *path = g_strdup_printf(
            "rx/published_table/%s", epp_rx_design_name(cases[i].design));

        e1000epp_add_case(path, rx_published_table, &cases[i]);
    }
    for (i = 0; i < ARRAY_SIZE(paths); i++) {
        g_autofree char *path = g_strdup_printf("rx/stock_paths/%s",
                                                paths[i]);

        e1000epp_add_case(path, rx_stock_paths, GINT_TO_POINTER(i));
    }
}
