/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page-pool series' published table (published.c) checked on the
 * device: both designs at every 4th MTU from 68 to 9212, and the stock
 * paths (standard, packet split, jumbo) at every breakpoint.  Built twice
 * (meson.build): with EPP_TABLE_PAGEPOOL the page-pool design's sweep,
 * without it the stock design's sweep and the stock paths.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

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
static void rx_published_table(const char *model, const void *opaque)
{
    const TableCase *c = opaque;
    g_autoptr(GArray) mtus = NULL;
    EppDev *d;
    size_t i;

    mtus = sweep_mtus(MTU_MIN, MTU_MAX, c->step);
    d = epp_start(model, NULL);
    epp_bring_up(d, &epp_default_config);
    if (epp_on_stock(model, "the FCS takes a descriptor of its own")) {
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
        epp_stop(d);
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
    epp_stop(d);
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
static void rx_stock_paths(const char *model, const void *opaque)
{
    StockPath path = GPOINTER_TO_INT(opaque);
    static const unsigned standard_mtus[] = { 68, 1500 };
    const unsigned *mtus = path == PATH_STANDARD ? standard_mtus :
                           mtu_breakpoints + 1;
    size_t n = path == PATH_STANDARD ? 2 : ARRAY_SIZE(mtu_breakpoints) - 1;
    EppDev *d;
    size_t i;
    int v, fk;

    d = epp_start(model, NULL);
    epp_bring_up(d, &epp_default_config);
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
                if (fk && epp_on_stock(model, "the FCS takes a descriptor of "
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
    epp_stop(d);
}

static void rx_add_published_table_cases(void)
{
    static const char *const paths[] = { "standard", "split", "jumbo" };
    static const TableCase sweep = {
        EPP_TABLE_PAGEPOOL ? EPP_RX_PAGEPOOL : EPP_RX_STOCK, 4
    };
    g_autofree char *table = g_strdup_printf(
        "rx/published_table/%s", epp_rx_design_name(sweep.design));
    size_t i;

    epp_add_case(table, rx_published_table, &sweep);
    for (i = 0; !EPP_TABLE_PAGEPOOL && i < ARRAY_SIZE(paths); i++) {
        g_autofree char *path = g_strdup_printf("rx/stock_paths/%s",
                                                paths[i]);

        epp_add_case(path, rx_stock_paths, GINT_TO_POINTER(i));
    }
}

int main(int argc, char **argv)
{
    return epp_main(argc, argv, NULL, 0, rx_add_published_table_cases);
}
