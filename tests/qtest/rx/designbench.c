/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Design benchmark (./e1000e-pp bench): the stock and the page-pool
 * receive designs on the same e1000e-pp device, runs interleaved, at
 * MTU 1500 and 9000.  For each it prints frames/s through the qtest
 * driver and the work the device does per frame, counted on the
 * driver's side of the ring: descriptors fetched and written back,
 * bytes DMA'd into buffers and into the ring, and the DMA API calls the
 * design's Linux code path makes.  Numbers, not a test:
 *
 *   RESULT design=pagepool mtu=9000 run=1 fps=... desc=... wb=...
 *          bytes=... ring_bytes=... maps=... unmaps=... syncs=...
 *
 *   e1000e-pp-rx-designbench [--design-bench] [--frames N] [--repeat R]
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

#define DB_BATCH    16          /* frames injected before the driver polls */

typedef struct DbRun {
    uint64_t frames, desc, bytes, ring_bytes;
    uint64_t maps, unmaps, syncs;
    double seconds;
} DbRun;

/* n full-size frames through a fresh ring of the design, in batches */
static void db_run(EppDev *d, EppRxDesign design, unsigned mtu,
                   unsigned n, DbRun *r)
{
    EppRxSetup s = {
        .design = design, .mtu = mtu, .format = EPP_RXF_EXTENDED,
        .ring_count = 256,
    };
    size_t len = mtu + 14;
    g_autofree uint8_t *wire = g_malloc(len);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppRx *rx = epp_rx_new(d, &s);
    gint64 t0;
    unsigned i, k;

    memset(r, 0, sizeof(*r));
    rx->dma_maps = rx->dma_unmaps = rx->dma_syncs = 0;
    epp_frame_fill(wire, len, false, 1);
    t0 = g_get_monotonic_time();
    for (i = 0; i < n; i += DB_BATCH) {
        for (k = 0; k < DB_BATCH && i + k < n; k++) {
            epp_inject(d, wire, len);
        }
        for (k = 0; k < DB_BATCH && i + k < n; k++) {
            epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
            g_assert_cmpuint(f->len, ==, len);
            r->desc += f->ndesc;
            r->bytes += f->raw_len;
            epp_rx_release(rx, f);
        }
        epp_rx_refill(rx);
    }
    r->seconds = (g_get_monotonic_time() - t0) / 1e6;
    r->frames = n;
    /* each descriptor is fetched and written back: desc_len bytes each */
    r->ring_bytes = 2 * r->desc * rx->desc_len;
    r->maps = rx->dma_maps;
    r->unmaps = rx->dma_unmaps;
    r->syncs = rx->dma_syncs;
    epp_rx_free(rx);
}

static int design_bench(int argc, char **argv)
{
    static const EppRxDesign designs[] = { EPP_RX_STOCK, EPP_RX_PAGEPOOL };
    static const unsigned mtus[] = { 1500, 9000 };
    unsigned frames = 2000, repeat = 3, run, m, k;
    EppDev *d;
    int a;

    for (a = 0; a < argc; a++) {
        if (!strcmp(argv[a], "--frames") && a + 1 < argc) {
            frames = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--repeat") && a + 1 < argc) {
            repeat = atoi(argv[++a]);
        } else {
            fprintf(stderr, "usage: e1000e-pp-rx-designbench [--design-bench] "
                    "[--frames N] [--repeat R]\n");
            return 2;
        }
    }
    if (!frames || !repeat) {
        fprintf(stderr, "design-bench: --frames and --repeat must be > 0\n");
        return 2;
    }
    d = epp_start("e1000e-pp", NULL);
    epp_bring_up(d, &epp_default_config);
    /* Interleaved: each run measures every design at every MTU once */
    for (run = 1; run <= repeat; run++) {
        for (m = 0; m < ARRAY_SIZE(mtus); m++) {
            for (k = 0; k < ARRAY_SIZE(designs); k++) {
                DbRun r;

                db_run(d, designs[k], mtus[m], frames, &r);
                printf("RESULT design=%s mtu=%u run=%u fps=%.0f "
                       "desc=%.3f wb=%.3f bytes=%.1f ring_bytes=%.1f "
                       "maps=%.3f unmaps=%.3f syncs=%.3f\n",
                       epp_rx_design_name(designs[k]), mtus[m], run,
                       r.frames / r.seconds, (double)r.desc / r.frames,
                       (double)r.desc / r.frames,
                       (double)r.bytes / r.frames,
                       (double)r.ring_bytes / r.frames,
                       (double)r.maps / r.frames,
                       (double)r.unmaps / r.frames,
                       (double)r.syncs / r.frames);
                fflush(stdout);
            }
        }
    }
    epp_stop(d);
    return 0;
}

int main(int argc, char **argv)
{
    if (!getenv("QTEST_QEMU_BINARY")) {
        fprintf(stderr, "design-bench: set QTEST_QEMU_BINARY\n");
        return 2;
    }
    /* The flag that chose the benchmark in the binary it came from */
    if (argc >= 2 && !strcmp(argv[1], "--design-bench")) {
        argc--;
        argv++;
    }
    return design_bench(argc - 1, argv + 1);
}
