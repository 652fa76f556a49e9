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
 *   e1000e-pp-rx-test --report [MODEL] [--mtu A-B] [--step N]
 *                     [--json FILE|-]
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rx-test.h"

/* One design's published cell: pieces / truesize / density range */
typedef struct PubCell {
    unsigned pieces;
    size_t truesize;
    double density_lo;      /* at the row's first MTU; < 0: not given */
    double density_hi;      /* at the row's last MTU */
} PubCell;

typedef struct PubRow {
    unsigned lo, hi;        /* MTU range */
    PubCell stock, pagepool;
} PubRow;

/* The published table, as printed in the series */
static const PubRow published[] = {
    { 68, 1500, { 1, 2688, -1, 0.56 }, { 1, 2304, -1, 0.66 } },
    { 1501, 2026, { 1, 4864, 0.31, 0.42 }, { 1, 4352, 0.35, 0.47 } },
    { 2027, 4074, { 1, 4864, 0.42, 0.84 }, { 2, 8448, 0.24, 0.48 } },
    { 4075, 4096, { 1, 4864, 0.84, 0.84 }, { 3, 12544, 0.33, 0.33 } },
    { 4097, 6122, { 2, 8960, 0.46, 0.68 }, { 3, 12544, 0.33, 0.49 } },
    { 6123, 8170, { 2, 8960, 0.68, 0.91 }, { 4, 16640, 0.37, 0.49 } },
    { 8171, 8192, { 2, 8960, 0.91, 0.92 }, { 5, 20736, 0.39, 0.40 } },
    { 8193, 9212, { 3, 13056, 0.63, 0.71 }, { 5, 20736, 0.40, 0.44 } },
};

#define MTU_MIN     68
#define MTU_MAX     9212

static const PubRow *pub_row(unsigned mtu)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(published); i++) {
        if (mtu >= published[i].lo && mtu <= published[i].hi) {
            return &published[i];
        }
    }
    return NULL;
}

static const PubCell *pub_cell(const PubRow *r, EppRxDesign design)
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
static GArray *sweep_mtus(unsigned lo, unsigned hi, unsigned step)
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
    for (i = 0; i < ARRAY_SIZE(published); i++) {
        for (dv = -1; dv <= 1; dv++) {
            unsigned e[2] = { published[i].lo + dv, published[i].hi + dv };

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

typedef struct Measure {
    EppRxDesign design;
    unsigned mtu;
    bool vlan, fcs_kept;
    unsigned descriptors;   /* descriptors the frame took */
    unsigned pieces;        /* published definition */
    unsigned pieces_kept;   /* pieces attached after the FCS strip */
    EppFcsCase fcs_case;
    size_t truesize;        /* published definition */
    size_t charged;         /* what the design charges */
    double density;         /* (MTU + 14) / truesize */
} Measure;

/*
 * Receive the largest frame the MTU allows (+ a VLAN tag left in the
 * buffer when vlan) through a fresh ring of the design on device d.
 */
static void measure(E1000epp *d, Measure *m)
{
    EppRxSetup s = {
        .design = m->design, .mtu = m->mtu, .keep_crc = m->fcs_kept,
        .format = EPP_RXF_EXTENDED,
        .ring_count = m->design == EPP_RX_STOCK ? 32 : 8,
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
static long hundredths(double v)
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
 * stock e1000e: writes the FCS as a descriptor of its own, so the chunk
 * counts are not the hardware's; skipped.
 */
void rx_published_table(const char *model, const void *opaque)
{
    const TableCase *c = opaque;
    g_autoptr(GArray) mtus = NULL;
    E1000epp *d;
    size_t i;

    if (stock_differs(model, "the FCS takes a descriptor of its own")) {
        return;
    }
    mtus = sweep_mtus(MTU_MIN, MTU_MAX, c->step);
    d = e1000epp_start(model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
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

void rx_add_published_table_cases(void)
{
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
}

/* ---------------------------------------------------------------- */
/* The report                                                       */
/* ---------------------------------------------------------------- */

/* The table's stream: stderr when the JSON goes to standard output */
static FILE *human;

static const char *fcs_name(bool kept)
{
    return kept ? "kept" : "stripped";
}

static void json_row(FILE *out, const Measure *m, bool first)
{
    const PubRow *r = pub_row(m->mtu);

    fprintf(out, "%s\n  {\"design\": \"%s\", \"mtu\": %u, \"vlan\": %s, "
            "\"fcs\": \"%s\", \"descriptors\": %u, \"pieces\": %u, "
            "\"pieces_kept\": %u, \"fcs_case\": \"%s\", "
            "\"truesize\": %zu, \"charged_truesize\": %zu, "
            "\"density\": %.4f",
            first ? "" : ",", epp_rx_design_name(m->design), m->mtu,
            m->vlan ? "true" : "false", fcs_name(m->fcs_kept),
            m->descriptors, m->pieces, m->pieces_kept,
            epp_fcs_case_name(m->fcs_case), m->truesize, m->charged,
            m->density);
    if (r) {
        const PubCell *p = pub_cell(r, m->design);

        fprintf(out, ", \"published_pieces\": %u, "
                "\"published_truesize\": %zu", p->pieces, p->truesize);
    }
    fprintf(out, "}");
}

/* min..max of a field over the worst-case rows of one design and row */
typedef struct Span {
    size_t lo, hi;
    unsigned n;
} Span;

static void span_add(Span *s, size_t v)
{
    s->lo = s->n ? MIN(s->lo, v) : v;
    s->hi = s->n ? MAX(s->hi, v) : v;
    s->n++;
}

static char *span_str(const Span *s)
{
    return s->lo == s->hi ? g_strdup_printf("%zu", s->lo) :
                            g_strdup_printf("%zu-%zu", s->lo, s->hi);
}

static char *density_str(double lo, double hi)
{
    if (lo < 0 || hundredths(lo) == hundredths(hi)) {
        return g_strdup_printf("%.2f", hi);
    }
    return g_strdup_printf("%.2f-%.2f", lo, hi);
}

static void print_cell(const GArray *ms, const PubRow *r, EppRxDesign design)
{
    const PubCell *p = pub_cell(r, design);
    Span pieces = { 0 }, ts = { 0 }, charged = { 0 };
    double dlo = -1, dhi = -1;
    g_autofree char *pub = NULL, *got = NULL, *gp = NULL, *gt = NULL;
    g_autofree char *gd = NULL, *pd = NULL, *gc = NULL;
    bool same;
    size_t i;

    for (i = 0; i < ms->len; i++) {
        const Measure *m = &g_array_index(ms, Measure, i);

        if (m->design != design || !m->vlan || !m->fcs_kept ||
            m->mtu < r->lo || m->mtu > r->hi) {
            continue;
        }
        span_add(&pieces, m->pieces);
        span_add(&ts, m->truesize);
        span_add(&charged, m->charged);
        if (m->mtu == r->lo && p->density_lo >= 0) {
            dlo = m->density;
        }
        if (m->mtu == r->hi) {
            dhi = m->density;
        }
    }
    if (!pieces.n) {
        fprintf(human, " | %-24s %-24s  ", "(not in sweep)", "");
        return;
    }
    gp = span_str(&pieces);
    gt = span_str(&ts);
    gc = span_str(&charged);
    gd = dhi < 0 ? g_strdup("-") : density_str(dlo, dhi);
    pd = density_str(p->density_lo, p->density_hi);
    pub = g_strdup_printf("%u / %zu / %s", p->pieces, p->truesize, pd);
    got = g_strdup_printf("%s / %s / %s", gp, gt, gd);
    same = pieces.lo == p->pieces && pieces.hi == p->pieces &&
           ts.lo == p->truesize && ts.hi == p->truesize &&
           (dhi < 0 || hundredths(dhi) == hundredths(p->density_hi)) &&
           (dlo < 0 || hundredths(dlo) == hundredths(p->density_lo));
    fprintf(human, " | %-24s %-24s%s [%s]", got, pub, same ? " " : "*", gc);
}

static int usage(void)
{
    fprintf(stderr, "usage: e1000e-pp-rx-test --report [MODEL] [--mtu A-B] "
            "[--step N] [--json FILE|-]\n");
    return 2;
}

int report(int argc, char **argv)
{
    const char *model = "e1000e-pp", *json = NULL;
    unsigned lo = MTU_MIN, hi = MTU_MAX, step = 64;
    static const EppRxDesign designs[] = { EPP_RX_STOCK, EPP_RX_PAGEPOOL };
    g_autoptr(GArray) mtus = NULL;
    GArray *ms = g_array_new(false, true, sizeof(Measure));
    FILE *out = NULL;
    E1000epp *d;
    size_t i, k;
    int a, v, fk;

    for (a = 0; a < argc; a++) {
        if (!strcmp(argv[a], "--mtu") && a + 1 < argc) {
            if (sscanf(argv[++a], "%u-%u", &lo, &hi) != 2) {
                return usage();
            }
        } else if (!strcmp(argv[a], "--step") && a + 1 < argc) {
            step = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--json") && a + 1 < argc) {
            json = argv[++a];
        } else if (argv[a][0] != '-') {
            model = argv[a];
        } else {
            return usage();
        }
    }
    if (lo < MTU_MIN || hi > MTU_MAX || lo > hi || step < 1) {
        fprintf(stderr, "report: MTUs %u-%u, step >= 1\n", MTU_MIN, MTU_MAX);
        return 2;
    }
    if (!qtest_has_device(model)) {
        fprintf(stderr, "report: device %s is not built into %s\n", model,
                getenv("QTEST_QEMU_BINARY"));
        return 2;
    }
    human = json && !strcmp(json, "-") ? stderr : stdout;
    mtus = sweep_mtus(lo, hi, step);
    d = e1000epp_start(model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    for (k = 0; k < ARRAY_SIZE(designs); k++) {
        for (i = 0; i < mtus->len; i++) {
            for (fk = 1; fk >= 0; fk--) {
                for (v = 1; v >= 0; v--) {
                    Measure m = {
                        .design = designs[k],
                        .mtu = g_array_index(mtus, unsigned, i),
                        .vlan = v, .fcs_kept = fk,
                    };

                    measure(d, &m);
                    g_array_append_val(ms, m);
                }
            }
        }
    }
    e1000epp_stop(d);

    fprintf(human, "Receive designs on %s, %u MTUs from %u to %u: pieces / truesize"
           " / density,\nmeasured (worst-case frame: MTU + 22 with a VLAN "
           "tag and the FCS) beside the published;\n* marks a difference; "
           "[charged]: the truesize the design actually charges\n\n",
           model, mtus->len, lo, hi);
    fprintf(human, "%-11s | %-24s %-24s   %-6s | %-24s %-24s   %s\n", "MTU",
           "stock measured", "stock published", "", "page-pool measured",
           "page-pool published", "");
    for (i = 0; i < ARRAY_SIZE(published); i++) {
        const PubRow *r = &published[i];
        g_autofree char *range = r->lo == MTU_MIN ?
            g_strdup_printf("<= %u", r->hi) :
            g_strdup_printf("%u-%u", r->lo, r->hi);

        if (r->hi < lo || r->lo > hi) {
            continue;
        }
        fprintf(human, "%-11s", range);
        print_cell(ms, r, EPP_RX_STOCK);
        print_cell(ms, r, EPP_RX_PAGEPOOL);
        fprintf(human, "\n");
    }
    fprintf(human, "\npieces: buffers the frame occupies (stock split: pages per "
           "descriptor);\ntruesize: pieces x piece cost + skb; density: "
           "(MTU + 14) / truesize\n");

    if (json) {
        out = strcmp(json, "-") ? fopen(json, "w") : stdout;
        if (!out) {
            fprintf(stderr, "report: cannot write %s\n", json);
            return 2;
        }
        fprintf(out, "[");
        for (i = 0; i < ms->len; i++) {
            json_row(out, &g_array_index(ms, Measure, i), i == 0);
        }
        fprintf(out, "\n]\n");
        if (out != stdout) {
            fclose(out);
        }
    }
    g_array_free(ms, true);
    return 0;
}
