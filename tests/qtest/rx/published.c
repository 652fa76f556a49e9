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
 * Shared by the scenarios that check it (table.c, binary
 * e1000e-pp-rx-table-test) and the report that prints it (report.c,
 * binary e1000e-pp-rx-report, run by ./e1000e-pp report).
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

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
void measure(EppDev *d, Measure *m)
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

    epp_frame_fill(wire, flen, m->vlan, m->mtu);
    epp_inject(d, wire, flen);
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
