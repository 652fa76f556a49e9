/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ./e1000e-pp report: the page-pool series' published table in its own
 * layout, both designs measured on the device beside the published
 * values (published.c), the DMA API calls per packet of each
 * design and copybreak setting, and every number as JSON.
 *
 *   e1000e-pp-rx-report [--report] [MODEL] [--mtu A-B] [--step N]
 *                     [--json FILE|-]
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

/* The table's stream: stderr when the JSON goes to standard output */
static FILE *human;

static const char *fcs_name(bool kept)
{
    return kept ? "kept" : "stripped";
}

static const char *path_name(const Measure *m)
{
    if (m->design == EPP_RX_PAGEPOOL) {
        return "pagepool";
    }
    return m->mtu <= 1500 ? "standard" : m->no_ps ? "jumbo" : "split";
}

static void json_row(FILE *out, const Measure *m, bool first)
{
    const PubRow *r = pub_row(m->mtu);

    fprintf(out, "%s\n  {\"kind\": \"frame\", \"design\": \"%s\", "
            "\"path\": \"%s\", \"mtu\": %u, \"vlan\": %s, "
            "\"fcs\": \"%s\", \"descriptors\": %u, \"pieces\": %u, "
            "\"pieces_kept\": %u, \"fcs_case\": \"%s\", "
            "\"truesize\": %zu, \"charged_truesize\": %zu, "
            "\"density\": %.4f",
            first ? "" : ",", epp_rx_design_name(m->design), path_name(m),
            m->mtu,
            m->vlan ? "true" : "false", fcs_name(m->fcs_kept),
            m->descriptors, m->pieces, m->pieces_kept,
            epp_fcs_case_name(m->fcs_case), m->truesize, m->charged,
            m->density);
    if (r && !m->no_ps) {
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

        if (m->design != design || !m->vlan || !m->fcs_kept || m->no_ps ||
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

/* The DMA settings the report measures, in its column order */
static const struct {
    EppRxDesign design;
    EppCopybreak copybreak;
    const char *name;
} dma_settings[] = {
    { EPP_RX_STOCK, EPP_CB_LINUX, "copybreak" },
    { EPP_RX_STOCK, EPP_CB_OFF, "no-copybreak" },
    { EPP_RX_STOCK, EPP_CB_SYNC, "copybreak-no-remap" },
    { EPP_RX_PAGEPOOL, EPP_CB_LINUX, "page-pool" },
};

#define DMA_REPORT_FRAMES   32

typedef struct DmaRow {
    unsigned mtu;
    EppDmaCost cost[ARRAY_SIZE(dma_settings)];
} DmaRow;

/* DMA calls per packet at each row edge inside lo..hi */
static GArray *measure_dma(EppDev *d, unsigned lo, unsigned hi)
{
    GArray *rows = g_array_new(false, true, sizeof(DmaRow));
    size_t i, k, e;

    for (i = 0; i < rx_published_rows; i++) {
        unsigned edge[2] = { rx_published[i].lo, rx_published[i].hi };

        for (e = 0; e < 2; e++) {
            DmaRow row = { .mtu = edge[e] };

            if (edge[e] < lo || edge[e] > hi || (e && edge[1] == edge[0])) {
                continue;
            }
            for (k = 0; k < ARRAY_SIZE(dma_settings); k++) {
                EppRxSetup s = {
                    .design = dma_settings[k].design, .mtu = edge[e],
                    .copybreak = dma_settings[k].copybreak,
                };

                rx_dma_cost_stream(d, &s, DMA_REPORT_FRAMES, &row.cost[k]);
            }
            g_array_append_val(rows, row);
        }
    }
    return rows;
}

static void print_dma(const GArray *rows)
{
    size_t i, k;

    fprintf(human, "\nDMA API calls per packet, maps / unmaps / syncs (a "
            "steady stream of %u frames,\n128 bytes and MTU + 14 "
            "alternately, every cleaned slot refilled):\n%-6s",
            DMA_REPORT_FRAMES, "MTU");
    for (k = 0; k < ARRAY_SIZE(dma_settings); k++) {
        g_autofree char *h = g_strdup_printf("%s %s",
            epp_rx_design_name(dma_settings[k].design),
            dma_settings[k].name);

        fprintf(human, " | %-24s", dma_settings[k].design == EPP_RX_STOCK ?
                h : "page-pool");
    }
    fprintf(human, "\n");
    for (i = 0; i < rows->len; i++) {
        const DmaRow *r = &g_array_index(rows, DmaRow, i);

        fprintf(human, "%-6u", r->mtu);
        for (k = 0; k < ARRAY_SIZE(dma_settings); k++) {
            const EppDmaCost *c = &r->cost[k];
            g_autofree char *cell = g_strdup_printf("%.2f / %.2f / %.2f",
                (double)c->maps / c->frames, (double)c->unmaps / c->frames,
                (double)c->syncs / c->frames);

            fprintf(human, " | %-24s", cell);
        }
        fprintf(human, "\n");
    }
    fprintf(human, "page-pool maps its pages once, when the pool is filled "
            "(not per packet)\n");
}

static void json_dma(FILE *out, const GArray *rows, bool first)
{
    size_t i, k;

    for (i = 0; i < rows->len; i++) {
        const DmaRow *r = &g_array_index(rows, DmaRow, i);

        for (k = 0; k < ARRAY_SIZE(dma_settings); k++) {
            const EppDmaCost *c = &r->cost[k];

            fprintf(out, "%s\n  {\"kind\": \"dma\", \"design\": \"%s\", "
                    "\"mtu\": %u, \"copybreak\": \"%s\", \"frames\": %u, "
                    "\"maps\": %" PRIu64 ", \"unmaps\": %" PRIu64 ", "
                    "\"syncs\": %" PRIu64 ", \"maps_at_start\": %" PRIu64
                    "}", first ? "" : ",",
                    epp_rx_design_name(dma_settings[k].design), r->mtu,
                    dma_settings[k].name, c->frames, c->maps, c->unmaps,
                    c->syncs, c->maps_at_start);
            first = false;
        }
    }
}

static int usage(void)
{
    fprintf(stderr, "usage: e1000e-pp-rx-report [--report] [MODEL] [--mtu A-B] "
            "[--step N] [--json FILE|-]\n");
    return 2;
}

static int report(int argc, char **argv)
{
    const char *model = "e1000e-pp", *json = NULL;
    unsigned lo = MTU_MIN, hi = MTU_MAX, step = 64;
    static const EppRxDesign designs[] = { EPP_RX_STOCK, EPP_RX_PAGEPOOL };
    g_autoptr(GArray) mtus = NULL;
    g_autoptr(GArray) dma = NULL;
    GArray *ms = g_array_new(false, true, sizeof(Measure));
    FILE *out = NULL;
    EppDev *d;
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
    d = epp_start(model, NULL);
    epp_bring_up(d, &epp_default_config);
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
                    if (designs[k] == EPP_RX_STOCK && m.mtu > 1500) {
                        /* and the jumbo path (packet split off) */
                        m.no_ps = true;
                        measure(d, &m);
                        g_array_append_val(ms, m);
                    }
                }
            }
        }
    }
    dma = measure_dma(d, lo, hi);
    epp_stop(d);

    fprintf(human, "Receive designs on %s, %u MTUs from %u to %u: "
            "pieces / truesize / density,\nmeasured (worst-case frame: "
            "MTU + 22 with a VLAN tag and the FCS) beside the\npublished; "
            "* marks a difference; [charged]: the truesize the design "
            "actually charges\n\n", model, mtus->len, lo, hi);
    fprintf(human, "%-11s | %-24s %-24s   %-6s | %-24s %-24s   %s\n", "MTU",
           "stock measured", "stock published", "", "page-pool measured",
           "page-pool published", "");
    for (i = 0; i < rx_published_rows; i++) {
        const PubRow *r = &rx_published[i];
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
    fprintf(human, "\npieces: buffers the frame occupies (stock split: "
            "pages per descriptor);\ntruesize: pieces x piece cost + skb; "
            "density: (MTU + 14) / truesize\n");
    print_dma(dma);

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
        json_dma(out, dma, ms->len == 0);
        fprintf(out, "\n]\n");
        if (out != stdout) {
            fclose(out);
        }
    }
    g_array_free(ms, true);
    return 0;
}

int main(int argc, char **argv)
{
    if (!getenv("QTEST_QEMU_BINARY")) {
        fprintf(stderr, "report: set QTEST_QEMU_BINARY to the emulator\n");
        return 2;
    }
    /* The flag that chose the report in the binary it came from */
    if (argc >= 2 && !strcmp(argv[1], "--report")) {
        argc--;
        argv++;
    }
    return report(argc - 1, argv + 1);
}
