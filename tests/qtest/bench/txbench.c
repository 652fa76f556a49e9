/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp-txbench: a qtest-driven transmit benchmark.  Numbers, not a
 * test: for each model (e1000e-pp and the stock e1000e by default) and
 * each case (64-byte frames, 1514-byte frames, 64 KiB TSO packets cut
 * at MSS 1448) it queues batches of packets on the Tx ring, writes TDT
 * once per batch, drains the frames from the netdev socket and reports
 * packets/s, frames/s and bytes/s over a fixed wall-clock budget.
 * Each (case, model) pair runs --repeat times, the models interleaved so
 * that a noisy host hits both alike; the run with the median packet rate
 * is reported.
 *
 * What is measured is the whole path a qtest can drive: descriptor
 * writes into guest memory over the qtest socket, the TDT write, the
 * device model's ring walk, DMA, offloads and netdev send, and the
 * host-side socket read.  Both models see the same driver, the same
 * batches and the same frames, so the ratio between them is the number
 * to look at.  Bytes are frame bytes as the netdev carries them (no FCS).
 *
 * Usage:
 *   QTEST_QEMU_BINARY=build/qemu/qemu-system-x86_64 \
 *       e1000e-pp-txbench [--seconds S] [--repeat N] [--model NAME]...
 *                         [--tsv]
 * --tsv prints one tab-separated line per model and case:
 *   model case packets frames bytes seconds
 *
 *   e1000e-pp-txbench --insn [--model NAME]...
 * is the deterministic mode run by `./e1000e-pp bench --insn` with the
 * emulator under callgrind (e1000e-pp-insn.h): per case, INSN_WINDOWS
 * batches; the descriptors are put on the ring uncounted, counting is on
 * only for the TDT write that hands a batch over (both models send the
 * whole batch before the write returns: e1000e-pp's per-write budget of
 * 256 descriptors and 1 MiB is respected), and the count of all windows
 * is dumped as "tx-<case>". One "INSN key=value" line per case tells the
 * CLI the packets and frames in each dump.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/cutils.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-insn.h"

#include <poll.h>

/*
 * A ring of its own, larger than the driver's 64 entries, so that one
 * TDT write hands over a batch big enough to amortise the qtest round
 * trips.  A batch is half the ring, and no more than the 256 descriptors
 * e1000e-pp walks within one register write.
 */
#define BENCH_RING      512
#define BATCH_DESCS     256
#define TSO_TOTAL       65536       /* bytes per TSO packet, headers included */
#define TSO_HDRLEN      54          /* Ethernet + IPv4 + TCP, no options */
#define TSO_MSS         1448
#define TSO_PER_DESC    8192        /* Linux's E1000_MAX_PER_TXD */
#define DRAIN_CAP       (1 << 20)
#define INSN_WINDOWS    4
#define INSN_BYTE_CAP   (1 << 20)   /* e1000e-pp's Tx bytes per write */

typedef enum { CASE_64, CASE_1514, CASE_TSO64K, CASE_COUNT } BenchCase;

static const char *const case_names[CASE_COUNT] = {
    "64B", "1514B", "TSO-64KiB",
};

typedef struct BenchResult {
    uint64_t packets;           /* packets handed to the device */
    uint64_t frames;            /* frames that came out of the netdev */
    uint64_t bytes;             /* their bytes */
    double seconds;
} BenchResult;

typedef struct Drain {
    uint8_t *buf;
    size_t have;                /* bytes buffered, not yet parsed */
} Drain;

/* Read frames from the socket until `frames` more have been seen */
static void drain_frames(EppDev *d, Drain *dr, uint64_t frames,
                         size_t expect_len, BenchResult *res)
{
    while (frames) {
        struct pollfd pfd = { .fd = d->sock[0], .events = POLLIN };
        size_t off = 0;
        ssize_t n;

        if (poll(&pfd, 1, 10000) != 1) {
            fprintf(stderr, "txbench: %s: no frame within 10 s "
                    "(%" PRIu64 " still expected)\n", d->model, frames);
            exit(1);
        }
        n = recv(d->sock[0], dr->buf + dr->have, DRAIN_CAP - dr->have, 0);
        if (n <= 0) {
            fprintf(stderr, "txbench: %s: netdev socket closed\n", d->model);
            exit(1);
        }
        dr->have += n;
        while (frames && dr->have - off >= 4) {
            uint32_t len = ldl_be_p(dr->buf + off);

            if (dr->have - off < 4 + len) {
                break;
            }
            if (expect_len && len != expect_len) {
                fprintf(stderr, "txbench: %s: %u-byte frame, expected %zu\n",
                        d->model, len, expect_len);
                exit(1);
            }
            off += 4 + len;
            res->frames++;
            res->bytes += len;
            frames--;
        }
        memmove(dr->buf, dr->buf + off, dr->have - off);
        dr->have -= off;
    }
}

/* Move the Tx ring to a BENCH_RING-entry one (TCTL.EN off meanwhile) */
static void ring_setup(EppDev *d)
{
    uint32_t tctl = epp_rd(d, TCTL);

    d->tx_ring = epp_alloc(d, BENCH_RING * EPP_DESC_LEN);
    d->tx_tail = 0;
    epp_wr(d, TCTL, tctl & ~TCTL_EN);
    epp_wr(d, TDBAL0, (uint32_t)d->tx_ring);
    epp_wr(d, TDBAH0, (uint32_t)(d->tx_ring >> 32));
    epp_wr(d, TDLEN0, BENCH_RING * EPP_DESC_LEN);
    epp_wr(d, TDH0, 0);
    epp_wr(d, TDT0, 0);
    epp_wr(d, TCTL, tctl);
}

/* Put n descriptors on the ring (at most two qtest writes) */
static void ring_put(EppDev *d, const uint8_t *descs, uint32_t n)
{
    uint32_t first = MIN(n, BENCH_RING - d->tx_tail);

    qtest_memwrite(d->qts, d->tx_ring + d->tx_tail * EPP_DESC_LEN, descs,
                   first * EPP_DESC_LEN);
    if (n > first) {
        qtest_memwrite(d->qts, d->tx_ring, descs + first * EPP_DESC_LEN,
                       (n - first) * EPP_DESC_LEN);
    }
    d->tx_tail = (d->tx_tail + n) % BENCH_RING;
}

static void fill_frame(uint8_t *f, size_t len, uint16_t ethertype)
{
    static const uint8_t peer[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
    size_t i;

    memcpy(f, peer, 6);
    memcpy(f + 6, epp_mac, 6);
    stw_be_p(f + 12, ethertype);
    for (i = 14; i < len; i++) {
        f[i] = i * 7;
    }
}

/* IPv4/TCP header prepared as Linux's e1000_tso leaves it */
static void tso_header(uint8_t *f)
{
    static const uint8_t src[4] = { 198, 18, 0, 2 };
    static const uint8_t dst[4] = { 198, 18, 0, 1 };
    uint8_t *ip = f + 14, *tcp = f + 34;
    uint32_t sum = 0;
    int i;

    fill_frame(f, TSO_HDRLEN, 0x0800);
    memset(ip, 0, 20);
    ip[0] = 0x45;
    stw_be_p(ip + 4, 1);
    ip[8] = 64;
    ip[9] = 6;
    memcpy(ip + 12, src, 4);
    memcpy(ip + 16, dst, 4);
    memset(tcp, 0, 20);
    stw_be_p(tcp, 40000);
    stw_be_p(tcp + 2, 5201);
    tcp[12] = 5 << 4;
    tcp[13] = 0x18;                     /* ACK|PSH */
    stw_be_p(tcp + 14, 0xffff);
    for (i = 0; i < 4; i += 2) {
        sum += lduw_be_p(src + i) + lduw_be_p(dst + i);
    }
    sum += 6;
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    stw_be_p(tcp + 16, sum);            /* pseudo-header, no length */
}

typedef struct Batch {
    uint8_t *descs;             /* BATCH_DESCS descriptors' room */
    uint32_t ndesc;             /* descriptors in one batch */
    uint32_t per_batch;         /* packets in one batch */
    uint32_t nsegs;             /* frames per packet */
    size_t expect_len;          /* length of every frame (0: TSO, varies) */
} Batch;

/*
 * One packet image in guest memory, every descriptor pointing at it, and
 * a batch of up to max_pkts packets that stays within BATCH_DESCS.
 */
static void batch_build(EppDev *d, BenchCase bc, uint32_t max_pkts,
                        Batch *b)
{
    g_autofree uint8_t *frame = NULL;
    uint32_t descs_per_pkt, i, j;
    size_t len, off;
    uint64_t g;

    b->nsegs = 1;
    switch (bc) {
    case CASE_64:
    case CASE_1514:
        len = bc == CASE_64 ? 60 : 1514;
        b->expect_len = len;
        frame = g_malloc(len);
        fill_frame(frame, len, 0x88b5);
        descs_per_pkt = 1;
        break;
    default:
        len = TSO_TOTAL;
        b->expect_len = 0;
        frame = g_malloc0(len);
        tso_header(frame);
        for (i = TSO_HDRLEN; i < len; i++) {
            frame[i] = i;
        }
        descs_per_pkt = 1 + DIV_ROUND_UP(len, TSO_PER_DESC);
        b->nsegs = DIV_ROUND_UP(len - TSO_HDRLEN, TSO_MSS);
        break;
    }
    g = epp_alloc(d, len);
    epp_memwrite(d, g, frame, len);

    /* The batch of descriptors, identical for every TDT write */
    b->per_batch = MIN(BATCH_DESCS / descs_per_pkt, max_pkts);
    for (i = 0, j = 0; i < b->per_batch; i++) {
        uint8_t *p = b->descs + j * EPP_DESC_LEN;

        if (descs_per_pkt == 1) {
            epp_txd_legacy(p, g, len,
                           TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
            j++;
            continue;
        }
        epp_txd_context(p, 14, 24, 33, 34, 50, 0,
                        (len - TSO_HDRLEN) | TXD_CTX_TUCMD_TSE |
                        TXD_CTX_TUCMD_TCP | TXD_CTX_TUCMD_IP);
        stl_le_p(p + 12, (TSO_HDRLEN << 8) | (TSO_MSS << 16));
        j++;
        for (off = 0; off < len; off += TSO_PER_DESC) {
            uint32_t chunk = MIN(TSO_PER_DESC, len - off);
            bool last = off + chunk == len;

            epp_txd_data(b->descs + j * EPP_DESC_LEN, g + off, chunk,
                         TXD_CMD_TSE | TXD_CMD_IFCS |
                         (last ? TXD_CMD_EOP | TXD_CMD_RS : 0),
                         TXD_POPTS_IXSM | TXD_POPTS_TXSM);
            j++;
        }
    }
    b->ndesc = j;
    g_assert(j == b->per_batch * descs_per_pkt && j <= BATCH_DESCS);
}

static BenchResult run_case(const char *model, BenchCase bc, double budget)
{
    EppDev *d = epp_start(model, NULL);
    Batch b = { .descs = g_malloc(BATCH_DESCS * EPP_DESC_LEN) };
    Drain dr = { .buf = g_malloc(DRAIN_CAP) };
    BenchResult res = { 0 };
    gint64 t0 = 0;
    bool warm = false;

    epp_bring_up(d, &epp_default_config);
    ring_setup(d);
    batch_build(d, bc, UINT32_MAX, &b);

    /* Warm up with one batch, then run batches until the budget is spent */
    for (;;) {
        ring_put(d, b.descs, b.ndesc);
        epp_tx_kick(d);
        drain_frames(d, &dr, (uint64_t)b.per_batch * b.nsegs, b.expect_len,
                     &res);
        if (!warm) {
            warm = true;
            res = (BenchResult){ 0 };
            t0 = g_get_monotonic_time();
            continue;
        }
        res.packets += b.per_batch;
        res.seconds = (g_get_monotonic_time() - t0) / 1e6;
        if (res.seconds >= budget) {
            break;
        }
    }

    /* Every descriptor was consumed: TDH caught up with TDT */
    if (epp_rd(d, TDH0) != d->tx_tail) {
        fprintf(stderr, "txbench: %s: TDH %u, TDT %u after the run\n",
                model, epp_rd(d, TDH0), d->tx_tail);
        exit(1);
    }
    g_free(dr.buf);
    g_free(b.descs);
    epp_stop(d);
    return res;
}

/* --insn: INSN_WINDOWS counted TDT writes per case, one QEMU per model */
static void insn_run(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    Drain dr = { .buf = g_malloc(DRAIN_CAP) };
    int bc, w;

    epp_insn_wide_socket(d);
    epp_bring_up(d, &epp_default_config);
    ring_setup(d);
    for (bc = 0; bc < CASE_COUNT; bc++) {
        Batch b = { .descs = g_malloc(BATCH_DESCS * EPP_DESC_LEN) };
        BenchResult res = { 0 };
        g_autofree char *name = NULL;

        /* Within one write's byte budget, so no timer finishes the batch */
        batch_build(d, bc, bc == CASE_TSO64K ? INSN_BYTE_CAP / TSO_TOTAL - 1 :
                    UINT32_MAX, &b);
        /* Warm-up, not counted */
        ring_put(d, b.descs, b.ndesc);
        epp_tx_kick(d);
        drain_frames(d, &dr, (uint64_t)b.per_batch * b.nsegs, b.expect_len,
                     &res);
        res = (BenchResult){ 0 };
        for (w = 0; w < INSN_WINDOWS; w++) {
            ring_put(d, b.descs, b.ndesc);
            epp_insn_count(d, true);
            epp_tx_kick(d);
            epp_insn_count(d, false);
            drain_frames(d, &dr, (uint64_t)b.per_batch * b.nsegs,
                         b.expect_len, &res);
            res.packets += b.per_batch;
        }
        name = g_strdup_printf("tx-%s", case_names[bc]);
        epp_insn_dump(d, name);
        if (epp_rd(d, TDH0) != d->tx_tail) {
            fprintf(stderr, "txbench: %s: TDH %u, TDT %u after the run\n",
                    model, epp_rd(d, TDH0), d->tx_tail);
            exit(1);
        }
        printf("INSN model=%s case=%s packets=%" PRIu64 " frames=%" PRIu64
               " bytes=%" PRIu64 " pid=%d\n", model, name, res.packets,
               res.frames, res.bytes, (int)qtest_pid(d->qts));
        fflush(stdout);
        g_free(b.descs);
    }
    g_free(dr.buf);
    epp_stop(d);
}

static int by_rate(const void *a, const void *b)
{
    const BenchResult *x = a, *y = b;
    double rx = x->packets / x->seconds, ry = y->packets / y->seconds;

    return rx < ry ? -1 : rx > ry;
}

static void usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--seconds S] [--repeat N] [--model NAME]... "
            "[--tsv] [--insn]\n"
            "  QTEST_QEMU_BINARY must name qemu-system-x86_64\n", argv0);
    exit(2);
}

int main(int argc, char **argv)
{
    const char *models[8];
    int nmodels = 0, i, m, r, repeat = 3;
    double seconds = 1.0;
    BenchResult runs[8][16];
    bool tsv = false, insn = false;
    char *end;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
            seconds = strtod(argv[++i], &end);
            if (*end || seconds <= 0 || seconds > 600) {
                fprintf(stderr, "txbench: --seconds wants a number in "
                        "(0, 600], not '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            if (qemu_strtoi(argv[++i], NULL, 10, &repeat) < 0 ||
                repeat < 1 || repeat > 15) {
                fprintf(stderr, "txbench: --repeat wants 1..15, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--model") && i + 1 < argc) {
            if (nmodels == ARRAY_SIZE(models)) {
                usage(argv[0]);
            }
            models[nmodels++] = argv[++i];
        } else if (!strcmp(argv[i], "--tsv")) {
            tsv = true;
        } else if (!strcmp(argv[i], "--insn")) {
            insn = true;
        } else {
            usage(argv[0]);
        }
    }
    if (!getenv("QTEST_QEMU_BINARY")) {
        usage(argv[0]);
    }
    if (!nmodels) {
        models[nmodels++] = "e1000e-pp";
        models[nmodels++] = "e1000e";
    }
    /* libqtest expects GLib's test framework to be initialised */
    g_test_init(&(int){ 1 }, &(char **){ argv }, NULL);

    if (insn) {
        for (m = 0; m < nmodels; m++) {
            insn_run(models[m]);
        }
        return 0;
    }
    if (!tsv) {
        printf("%-10s %-10s %10s %12s %12s %10s\n", "model", "case",
               "packets/s", "frames/s", "bytes/s", "MB/s");
    }
    for (m = 0; m < nmodels; m++) {
        if (!qtest_has_device(models[m])) {
            fprintf(stderr, "txbench: device %s not in this binary\n",
                    models[m]);
            return 1;
        }
    }
    for (i = 0; i < CASE_COUNT; i++) {
        for (r = 0; r < repeat; r++) {
            for (m = 0; m < nmodels; m++) {
                runs[m][r] = run_case(models[m], i, seconds);
            }
        }
        for (m = 0; m < nmodels; m++) {
            BenchResult med;

            qsort(runs[m], repeat, sizeof(runs[m][0]), by_rate);
            med = runs[m][repeat / 2];
            if (tsv) {
                printf("%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
                       "\t%.6f\n", models[m], case_names[i], med.packets,
                       med.frames, med.bytes, med.seconds);
            } else {
                printf("%-10s %-10s %10.0f %12.0f %12.0f %10.1f\n",
                       models[m], case_names[i], med.packets / med.seconds,
                       med.frames / med.seconds, med.bytes / med.seconds,
                       med.bytes / med.seconds / 1e6);
            }
            fflush(stdout);
        }
    }
    return 0;
}
