/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive benchmark through qtest (numbers, not a test).
 *
 * For each model (e1000e-pp and the stock e1000e, in the same run) and
 * each frame size (64, 1514, 9018 bytes without FCS), frames are injected
 * on the netdev socket in batches while a lean driver posts a batch of
 * extended descriptors with RXCSUM.PCSD (as Linux configures an 82574),
 * moves RDT and polls the DD bit of the batch's last descriptor. Frames
 * per second are wall-clock time over the whole run of each case, QEMU
 * start-up excluded; each case runs --repeat times (a fresh QEMU each
 * time) and the median is printed.
 *
 *   e1000e-pp-bench [--frames N] [--repeat R] [--crc stripped|kept|both]
 *                   [MODEL...]
 *
 * Output: a table, plus one "RESULT key=value ..." line per case for
 * scripts.
 *
 *   e1000e-pp-bench --insn [MODEL...]
 *
 * The deterministic mode, run by `./e1000e-pp bench --insn` with the
 * emulator under callgrind (e1000e-pp-insn.h): for every frame size
 * (64, 1518 and 9018 bytes on the wire), legacy and extended descriptors
 * and FCS stripped and kept, one QEMU per model posts INSN_RING - 1
 * descriptors, switches counting on, sends as many frames as they hold,
 * waits for the last write-back and switches counting off; dumped as
 * "rx-<bytes>-<legacy|extended>-<stripped|kept>". One "INSN key=value"
 * line per case tells the CLI the frames in each dump.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/cutils.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-insn.h"

#include <sys/ioctl.h>
#include <linux/sockios.h>

#define BENCH_RING      256             /* descriptors */
#define BENCH_BATCH     96              /* frames per batch */
#define BENCH_WAIT_US   (30 * 1000 * 1000)
/* Extended write-back: STATUS (DD = bit 0) in the byte at offset 8 */
#define BENCH_STATUS_AT 8

typedef struct BenchCase {
    const char *model;
    size_t len;
    bool keep_crc;
} BenchCase;

typedef struct BenchResult {
    uint64_t frames;
    double seconds;
    unsigned desc_per_frame;
} BenchResult;

static void bench_frame(uint8_t *f, size_t len, uint32_t seq)
{
    static const uint8_t src[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
    size_t i;

    memcpy(f, epp_mac, 6);
    memcpy(f + 6, src, 6);
    stw_be_p(f + 12, 0x88b5);
    stl_be_p(f + 14, seq);
    for (i = 18; i < len; i++) {
        f[i] = i * 13 + seq;
    }
}

/* Write descriptors [first, first + n) with their buffer addresses */
static void post(EppDev *d, uint64_t ring, const uint8_t *img,
                 unsigned first, unsigned n)
{
    unsigned k = MIN(n, BENCH_RING - first);

    qtest_memwrite(d->qts, ring + first * 16, img + first * 16, k * 16);
    if (k < n) {
        qtest_memwrite(d->qts, ring, img, (n - k) * 16);
    }
    epp_wr(d, RDT0, (first + n) % BENCH_RING);
}

/* Poll (no virtual time needed: RDTR = 0) for DD on descriptor i */
static void wait_dd(EppDev *d, uint64_t ring, unsigned i)
{
    int64_t deadline = g_get_monotonic_time() + BENCH_WAIT_US;
    uint8_t st;

    for (;;) {
        qtest_memread(d->qts, ring + i * 16 + BENCH_STATUS_AT, &st, 1);
        if (st & RXD_STA_DD) {
            return;
        }
        if (g_get_monotonic_time() > deadline) {
            epp_dump_regs(d, "bench: descriptor write-back");
            g_error("bench: descriptor %u not written back in 30 s on %s",
                    i, d->model);
        }
    }
}

static BenchResult run_case(const BenchCase *c, uint64_t frames)
{
    EppConfig cfg = epp_default_config;
    EppDev *d = epp_start(c->model, NULL);
    /* BSIZE 2048 up to 1514 bytes; 16384 (BSEX) with LPE for jumbo */
    size_t bs = c->len > 1514 ? 16384 : 2048;
    g_autofree uint8_t *img = g_malloc0(BENCH_RING * 16);
    g_autofree uint8_t *frame = g_malloc(c->len);
    g_autofree uint8_t *got = g_malloc(c->len);
    uint64_t ring, bufs, done = 0, seq = 0;
    unsigned head = 0, dpf, batch, i;
    BenchResult r = { 0 };
    int64_t t0;

    cfg.keep_crc = c->keep_crc;
    cfg.rctl_bsize = bs == 2048 ? RCTL_BSIZE_2048 : RCTL_BSEX | 0x00010000;
    epp_bring_up(d, &cfg);
    ring = epp_alloc(d, BENCH_RING * 16);
    bufs = epp_alloc(d, BENCH_RING * bs);
    for (i = 0; i < BENCH_RING; i++) {
        stq_le_p(img + i * 16, bufs + i * bs);
    }
    epp_wr(d, RCTL, epp_rd(d, RCTL) & ~RCTL_EN);
    epp_wr(d, RDBAL0, (uint32_t)ring);
    epp_wr(d, RDBAH0, (uint32_t)(ring >> 32));
    epp_wr(d, RDLEN0, BENCH_RING * 16);
    epp_wr(d, RDH0, 0);
    epp_wr(d, RDT0, 0);
    epp_wr(d, RFCTL, epp_rd(d, RFCTL) | RFCTL_EXTEN);
    epp_wr(d, RXCSUM, epp_rd(d, RXCSUM) | RXCSUM_PCSD);
    epp_wr(d, RCTL, RCTL_EN | RCTL_BAM | cfg.rctl_bsize |
           (c->len > 1514 ? RCTL_LPE : 0) |
           (c->keep_crc ? 0 : RCTL_SECRC));

    /* Warm-up: one frame tells how many descriptors a frame takes */
    post(d, ring, img, 0, BENCH_RING - 1);
    bench_frame(frame, c->len, seq++);
    epp_inject(d, frame, c->len);
    for (i = 0; i < 100000; i++) {
        if (epp_rd(d, RDH0) != 0) {
            break;
        }
    }
    epp_step(d, EPP_NS_PER_MS);
    dpf = epp_rd(d, RDH0);
    g_assert_cmpuint(dpf, >=, 1);
    wait_dd(d, ring, dpf - 1);
    epp_memread(d, bufs, got, c->len);
    g_assert_cmpmem(got, c->len, frame, c->len);
    /* Start the measured run with an empty ring at descriptor dpf */
    epp_wr(d, RCTL, epp_rd(d, RCTL) & ~RCTL_EN);
    epp_wr(d, RDH0, 0);
    epp_wr(d, RDT0, 0);
    epp_wr(d, RCTL, epp_rd(d, RCTL) | RCTL_EN);

    batch = MIN(BENCH_BATCH, (BENCH_RING - 1) / dpf);
    t0 = g_get_monotonic_time();
    while (done < frames) {
        unsigned n = MIN(batch, frames - done);

        post(d, ring, img, head, n * dpf);
        for (i = 0; i < n; i++) {
            stl_be_p(frame + 14, seq++);
            epp_inject(d, frame, c->len);
        }
        head = (head + n * dpf) % BENCH_RING;
        wait_dd(d, ring, (head + BENCH_RING - 1) % BENCH_RING);
        done += n;
    }
    r.seconds = (g_get_monotonic_time() - t0) / 1e6;
    r.frames = done;
    r.desc_per_frame = dpf;

    /* Every frame was counted once (the warm-up frame included) */
    g_assert_cmpuint(epp_rd(d, GPRC), ==, frames + 1);

    /* The last frame landed intact */
    epp_memread(d, bufs + ((head + BENCH_RING - dpf) % BENCH_RING) * bs,
                got, c->len);
    g_assert_cmpmem(got, c->len, frame, c->len);
    epp_stop(d);
    return r;
}

/*
 * --insn: a ring of INSN_RING descriptors, all but one posted, filled by
 * one batch of frames per case; buffers sized for the largest frame.
 */
#define INSN_RING       1024
#define INSN_WARM       64
#define INSN_BUF_MAX    16384

typedef struct InsnRing {
    uint64_t ring, bufs;
} InsnRing;

/*
 * Wait for descriptor `last`'s write-back, asking QEMU as little as we
 * can.  The one place in the qtests that sleeps on purpose: QEMU runs
 * under callgrind here and every qtest command it answers is counted in
 * the instructions this mode measures, so the waits sleep in wall time
 * between a few questions instead of polling (the frames need no virtual
 * time: RDTR = 0).  The throughput mode above measures wall time itself.
 */
static void insn_wait_dd(EppDev *d, uint64_t ring, unsigned last,
                         unsigned at)
{
    int64_t deadline = g_get_monotonic_time() + 10 * BENCH_WAIT_US;
    int unread = 1;
    uint8_t st;

    /* Every byte read by the netdev first: that costs QEMU no questions */
    while (unread > 0 && ioctl(d->sock[0], SIOCOUTQ, &unread) == 0) {
        if (g_get_monotonic_time() > deadline) {
            epp_dump_regs(d, "insn: frames into the netdev");
            g_error("insn: %d bytes still unread by the netdev on %s",
                    unread, d->model);
        }
        g_usleep(10 * 1000);
    }
    for (;;) {
        g_usleep(50 * 1000);
        qtest_memread(d->qts, ring + last * 16 + at, &st, 1);
        if (st & RXD_STA_DD) {
            return;
        }
        if (g_get_monotonic_time() > deadline) {
            epp_dump_regs(d, "insn: descriptor write-back");
            g_error("insn: descriptor %u not written back on %s", last,
                    d->model);
        }
    }
}

static void insn_rx_case(EppDev *d, const InsnRing *r, size_t wire,
                         bool extended, bool keep_crc)
{
    size_t len = wire - 4;                      /* the netdev has no FCS */
    size_t bs = wire > 1518 ? 16384 : 2048;
    uint32_t bsize = bs == 2048 ? RCTL_BSIZE_2048 : RCTL_BSEX | 0x00010000;
    unsigned at = extended ? 8 : 12;            /* STATUS in the write-back */
    g_autofree uint8_t *img = g_malloc0(INSN_RING * 16);
    g_autofree uint8_t *frame = g_malloc(len);
    g_autofree uint8_t *got = g_malloc(len);
    g_autofree char *name = NULL;
    uint32_t seq = 0, rfctl;
    unsigned i, dpf, frames;

    for (i = 0; i < INSN_RING; i++) {
        stq_le_p(img + i * 16, r->bufs + i * bs);
    }
    epp_wr(d, RCTL, epp_rd(d, RCTL) & ~RCTL_EN);
    epp_wr(d, RDBAL0, (uint32_t)r->ring);
    epp_wr(d, RDBAH0, (uint32_t)(r->ring >> 32));
    epp_wr(d, RDLEN0, INSN_RING * 16);
    epp_wr(d, RDH0, 0);
    epp_wr(d, RDT0, 0);
    rfctl = epp_rd(d, RFCTL);
    epp_wr(d, RFCTL, extended ? rfctl | RFCTL_EXTEN
                                   : rfctl & ~RFCTL_EXTEN);
    epp_wr(d, RXCSUM, epp_rd(d, RXCSUM) | RXCSUM_PCSD);
    epp_wr(d, RCTL, RCTL_EN | RCTL_BAM | bsize |
           (wire > 1518 ? RCTL_LPE : 0) | (keep_crc ? 0 : RCTL_SECRC));

    /*
     * Warm-up, not counted: the same path, so nothing is done first-time.
     * Its first frame tells how many descriptors a frame takes (stock
     * e1000e takes an extra one with the FCS kept).
     */
    qtest_memwrite(d->qts, r->ring, img, INSN_RING * 16);
    epp_wr(d, RDT0, INSN_RING - 1);
    bench_frame(frame, len, seq++);
    epp_inject(d, frame, len);
    /* Wall-clock sleeps, as in insn_wait_dd: questions cost instructions */
    for (i = 0; i < 100000 && !epp_rd(d, RDH0); i++) {
        g_usleep(1000);
    }
    insn_wait_dd(d, r->ring, epp_rd(d, RDH0) - 1, at);
    dpf = epp_rd(d, RDH0);
    g_assert_cmpuint(dpf, >=, 1);
    frames = (INSN_RING - 1) / dpf;
    for (i = 1; i < INSN_WARM; i++) {
        bench_frame(frame, len, seq++);
        epp_inject(d, frame, len);
    }
    insn_wait_dd(d, r->ring, INSN_WARM * dpf - 1, at);

    /* The measured batch: as many frames as the posted descriptors hold */
    epp_wr(d, RCTL, epp_rd(d, RCTL) & ~RCTL_EN);
    epp_wr(d, RDH0, 0);
    epp_wr(d, RDT0, 0);
    epp_wr(d, RCTL, epp_rd(d, RCTL) | RCTL_EN);
    qtest_memwrite(d->qts, r->ring, img, INSN_RING * 16);
    epp_wr(d, RDT0, frames * dpf);
    epp_rd(d, GPRC);                       /* clear on read */
    epp_insn_count(d, true);
    for (i = 0; i < frames; i++) {
        bench_frame(frame, len, seq++);
        epp_inject(d, frame, len);
    }
    insn_wait_dd(d, r->ring, frames * dpf - 1, at);
    epp_insn_count(d, false);

    name = g_strdup_printf("rx-%zu-%s-%s", wire,
                           extended ? "extended" : "legacy",
                           keep_crc ? "kept" : "stripped");
    epp_insn_dump(d, name);

    /* Every frame arrived, the last one intact */
    g_assert_cmpuint(epp_rd(d, GPRC), ==, frames);
    epp_memread(d, r->bufs + (frames - 1) * dpf * bs, got, len);
    g_assert_cmpmem(got, len, frame, len);
    printf("INSN model=%s case=%s frames=%u desc_per_frame=%u pid=%d\n",
           d->model, name, frames, dpf, (int)qtest_pid(d->qts));
    fflush(stdout);
}

static void insn_run(const char *model)
{
    static const size_t wires[] = { 64, 1518, 9018 };
    EppDev *d = epp_start(model, NULL);
    InsnRing r;
    int fmt, crc;
    size_t s;

    epp_insn_wide_socket(d);
    epp_bring_up(d, &epp_default_config);
    r.ring = epp_alloc(d, INSN_RING * 16);
    r.bufs = epp_alloc(d, (size_t)INSN_RING * INSN_BUF_MAX);
    for (crc = 0; crc < 2; crc++) {
        for (fmt = 0; fmt < 2; fmt++) {
            for (s = 0; s < ARRAY_SIZE(wires); s++) {
                insn_rx_case(d, &r, wires[s], fmt, crc);
            }
        }
    }
    epp_stop(d);
}

static int by_seconds(const void *a, const void *b)
{
    double x = ((const BenchResult *)a)->seconds;
    double y = ((const BenchResult *)b)->seconds;

    return x < y ? -1 : x > y;
}

static void usage(void)
{
    fprintf(stderr, "usage: e1000e-pp-bench [--frames N] [--repeat R] "
            "[--crc stripped|kept|both] [MODEL...]\n"
            "       e1000e-pp-bench --insn [MODEL...]   (under callgrind)\n"
            "  QTEST_QEMU_BINARY must name the emulator; MODEL defaults to "
            "e1000e-pp and e1000e\n");
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 64, 1514, 9018 };
    const char *models[8];
    size_t nmodels = 0, m, s;
    uint64_t frames = 100000, repeat = 3;
    int crc_lo = 0, crc_hi = 0, crc, i;
    double base[3][2] = { { 0 } };
    bool insn = false;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            if (qemu_strtou64(argv[++i], NULL, 10, &frames) < 0 ||
                frames == 0) {
                fprintf(stderr, "bench: --frames wants a positive number, "
                        "not '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            if (qemu_strtou64(argv[++i], NULL, 10, &repeat) < 0 ||
                repeat == 0 || repeat > 99) {
                fprintf(stderr, "bench: --repeat wants 1..99, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--crc") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "stripped")) {
                crc_lo = crc_hi = 0;
            } else if (!strcmp(argv[i], "kept")) {
                crc_lo = crc_hi = 1;
            } else if (!strcmp(argv[i], "both")) {
                crc_lo = 0;
                crc_hi = 1;
            } else {
                usage();
                return 2;
            }
        } else if (!strcmp(argv[i], "--insn")) {
            insn = true;
        } else if (argv[i][0] == '-') {
            usage();
            return 2;
        } else if (nmodels < ARRAY_SIZE(models)) {
            models[nmodels++] = argv[i];
        }
    }
    if (!getenv("QTEST_QEMU_BINARY")) {
        usage();
        return 2;
    }
    if (!nmodels) {
        models[nmodels++] = "e1000e-pp";
        models[nmodels++] = "e1000e";
    }
    for (m = 0; m < nmodels && !insn; m++) {
        if (!qtest_has_device(models[m])) {
            fprintf(stderr, "bench: device %s is not built into %s\n",
                    models[m], getenv("QTEST_QEMU_BINARY"));
            return 2;
        }
    }

    if (insn) {
        for (m = 0; m < nmodels; m++) {
            insn_run(models[m]);
        }
        return 0;
    }

    printf("Rx through qtest: %" PRIu64 " frames per case, batches of up "
           "to %d, extended descriptors, median of %" PRIu64 " runs\n",
           frames, BENCH_BATCH, repeat);
    printf("%-10s %6s %-8s %5s %9s %10s %8s\n", "model", "bytes", "FCS",
           "desc", "seconds", "frames/s", "vs first");
    for (crc = crc_lo; crc <= crc_hi; crc++) {
        for (s = 0; s < ARRAY_SIZE(sizes); s++) {
            for (m = 0; m < nmodels; m++) {
                BenchCase c = { models[m], sizes[s], crc };
                BenchResult runs[99], r;
                uint64_t k;
                double fps;

                for (k = 0; k < repeat; k++) {
                    runs[k] = run_case(&c, frames);
                }
                qsort(runs, repeat, sizeof(runs[0]), by_seconds);
                r = runs[repeat / 2];
                fps = r.frames / r.seconds;

                if (m == 0) {
                    base[s][crc] = fps;
                }
                printf("%-10s %6zu %-8s %5u %9.3f %10.0f %7.2fx\n",
                       models[m], sizes[s], crc ? "kept" : "stripped",
                       r.desc_per_frame, r.seconds, fps, fps / base[s][crc]);
                printf("RESULT model=%s bytes=%zu fcs=%s frames=%" PRIu64
                       " seconds=%.6f fps=%.1f desc_per_frame=%u\n",
                       models[m], sizes[s], crc ? "kept" : "stripped",
                       r.frames, r.seconds, fps, r.desc_per_frame);
                fflush(stdout);
            }
        }
    }
    return 0;
}
