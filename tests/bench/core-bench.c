/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core-only receive benchmark: ns per received frame for 64, 1514 and
 * 9018-byte frames through e1000e_pp_receive, with the FCS stripped
 * (RCTL.SECRC=1) and kept (SECRC=0, so the model must compute the real
 * CRC-32 and write it after the frame), extended descriptors, a
 * 256-descriptor ring that the "driver" re-arms by moving RDT), against a
 * floor of what any faithful model must do per frame: copy the bytes
 * into guest memory once and compute their CRC-32 (the core's own
 * e1000e_pp_crc32, so the floor and the model use the same CRC code).
 *
 *   core-bench
 *
 * Prints a table and one "RESULT key=value ..." line per case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake-platform.h"
#include "regs-82574l.h"

#define MEM_BYTES       (8u << 20)
#define RING            256
#define RING_ADDR       0x1000
#define BUF_ADDR        0x10000
#define MIN_SECONDS     0.3

/*
 * The unit tests' fake platform (its memory, clock and timers), with the
 * callbacks the core makes for every frame replaced by ones that do only
 * what the frame needs, so that what bench --insn counts is the core's
 * work: DMA that copies and nothing more, and no interrupt line, MSI-X
 * or Rx-ready bookkeeping.
 */
static int b_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Fake *b = opaque;

    if (addr >= MEM_BYTES || len > MEM_BYTES - addr) {
        return -1;
    }
    memcpy(buf, b->mem + addr, len);
    return 0;
}

static int b_dma_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    Fake *b = opaque;

    if (addr >= MEM_BYTES || len > MEM_BYTES - addr) {
        return -1;
    }
    memcpy(b->mem + addr, buf, len);
    return 0;
}

static E1000EPPIrqMode b_irq_mode(void *opaque)
{
    return E1000E_PP_IRQ_INTX;
}

static void b_set_intx(void *opaque, int level)
{
}

static void b_notify(void *opaque, unsigned vector)
{
}

static void b_rx_ready(void *opaque)
{
}

static E1000EPPPlatform bench_platform;

static double seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const E1000EPPConfig cfg = {
    .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
};

static void die(const char *what)
{
    fprintf(stderr, "core-bench: %s\n", what);
    exit(1);
}

/*
 * Bring the core up: link, address filter, and a ring of RING extended
 * descriptors with RXCSUM.PCSD, as the Linux driver configures an 82574
 * (e1000_configure_rx with RSS hashing on). Not inlined: `bench --insn`
 * has callgrind dump its counts before each case (--dump-before=bench_up).
 */
static __attribute__((noinline)) Fake *bench_up(size_t bufsize, int lpe,
                                                int keep_crc)
{
    Fake *b;
    uint64_t i;

    bench_platform = fake_platform;
    bench_platform.dma_read = b_dma_read;
    bench_platform.dma_write = b_dma_write;
    bench_platform.irq_mode = b_irq_mode;
    bench_platform.set_intx = b_set_intx;
    bench_platform.notify = b_notify;
    bench_platform.rx_ready = b_rx_ready;
    b = fake_new_on(&cfg, &bench_platform, MEM_BYTES);
    if (!b) {
        die("out of memory");
    }
    e1000e_pp_core_reset(b->core);
    fake_step(b, 100 * 1000 * 1000);
    e1000e_pp_bus_master(b->core, true);
    e1000e_pp_set_link(b->core, true);
    e1000e_pp_write(b->core, R_CTRL,
                    e1000e_pp_read(b->core, R_CTRL) | CTRL_SLU);
    fake_step(b, 5000LL * 1000 * 1000);
    if (!(e1000e_pp_read(b->core, R_STATUS) & STATUS_LU)) {
        die("link did not come up");
    }
    e1000e_pp_write(b->core, R_RAL0, mac[0] | mac[1] << 8 | mac[2] << 16 |
                    (uint32_t)mac[3] << 24);
    e1000e_pp_write(b->core, R_RAH0, mac[4] | mac[5] << 8 | RAH_AV);
    for (i = 0; i < RING; i++) {
        uint64_t a = BUF_ADDR + i * bufsize;
        int k;

        for (k = 0; k < 8; k++) {
            b->mem[RING_ADDR + i * 16 + k] = a >> (8 * k);
        }
    }
    e1000e_pp_write(b->core, R_RDBAL, RING_ADDR);
    e1000e_pp_write(b->core, R_RDBAH, 0);
    e1000e_pp_write(b->core, R_RDLEN, RING * 16);
    e1000e_pp_write(b->core, R_RDH, 0);
    e1000e_pp_write(b->core, R_RDT, RING - 1);
    e1000e_pp_write(b->core, R_RFCTL, RFCTL_EXTEN);
    e1000e_pp_write(b->core, R_RXCSUM,
                    e1000e_pp_read(b->core, R_RXCSUM) | RXCSUM_PCSD);
    e1000e_pp_write(b->core, R_RDTR, 0);
    e1000e_pp_write(b->core, R_RADV, 0);
    e1000e_pp_write(b->core, R_RCTL, RCTL_EN | RCTL_BAM |
                    (keep_crc ? 0 : RCTL_SECRC) |
                    (bufsize == 2048 ? 0 : RCTL_SZ_16384) |
                    (lpe ? RCTL_LPE : 0));
    return b;
}

static void frame_fill(uint8_t *f, size_t len)
{
    size_t i;

    memcpy(f, mac, 6);
    memset(f + 6, 0x02, 6);
    f[12] = 0x88;
    f[13] = 0xb5;
    for (i = 14; i < len; i++) {
        f[i] = i * 7;
    }
}

static void post_buffer(Fake *b, uint32_t i, size_t bufsize)
{
    uint64_t a = BUF_ADDR + (uint64_t)i * bufsize;
    uint8_t *d = b->mem + RING_ADDR + i * 16;
    int k;

    for (k = 0; k < 8; k++) {
        d[k] = a >> (8 * k);
    }
    memset(d + 8, 0, 8);
}

/*
 * Frames per configuration when fixed (--frames N): instruction counts
 * (valgrind --tool=callgrind) then repeat exactly from run to run.
 */
static uint64_t fixed_frames;

/* ns per frame through the core; every frame must be taken */
static double run_core(size_t len, int keep_crc, uint64_t *frames_out)
{
    size_t bufsize = len > 1514 ? 16384 : 2048;
    Fake *b = bench_up(bufsize, len > 1514, keep_crc);
    uint8_t *frame = malloc(len);
    uint64_t n = 0, batch = 1024, gprc = 0;
    uint32_t tail = RING - 1;
    double t0, t;

    frame_fill(frame, len);
    t0 = seconds();
    do {
        uint64_t k;

        for (k = 0; k < batch; k++) {
            if (!e1000e_pp_receive(b->core, frame, len)) {
                die("the core refused a frame with descriptors posted");
            }
            /*
             * The driver re-arms the descriptor just used: an extended
             * write-back overwrote its buffer address.
             */
            post_buffer(b, tail, bufsize);
            tail = (tail + 1) % RING;
            e1000e_pp_write(b->core, R_RDT, tail);
        }
        n += batch;
        t = seconds() - t0;
    } while (fixed_frames ? n < fixed_frames : t < MIN_SECONDS);
    gprc = e1000e_pp_read(b->core, R_GPRC);
    if (gprc != n) {
        fprintf(stderr, "core-bench: GPRC %" PRIu64 " for %" PRIu64
                " frames\n", gprc, n);
        exit(1);
    }
    if (memcmp(b->mem + BUF_ADDR + ((tail + RING - 1) % RING) * bufsize,
               frame, len)) {
        die("the last frame did not land intact");
    }
    *frames_out = n;
    free(frame);
    fake_free(b);
    return t * 1e9 / n;
}

/*
 * One frame of the floor, a function of its own so that callgrind can
 * count it alone (--toggle-collect=floor_frame), as it counts
 * e1000e_pp_receive for the core.
 */
static __attribute__((noinline)) uint32_t floor_frame(uint8_t *dst,
                                                      const uint8_t *frame,
                                                      size_t len)
{
    memcpy(dst, frame, len);
    return e1000e_pp_crc32(frame, len);
}

/* Floor: copy into a rotating guest buffer plus the frame's CRC-32 */
static double run_floor(size_t len)
{
    size_t bufsize = len > 1514 ? 16384 : 2048;
    uint8_t *mem = calloc(RING, bufsize);
    uint8_t *frame = malloc(len);
    /* volatile: keeps the compiler from dropping the CRC as unused */
    volatile uint32_t sink = 0;
    uint64_t n = 0, k;
    unsigned slot = 0;
    double t0, t;

    frame_fill(frame, len);
    t0 = seconds();
    do {
        for (k = 0; k < 1024; k++) {
            sink ^= floor_frame(mem + slot * bufsize, frame, len);
            slot = (slot + 1) % RING;
        }
        n += 1024;
        t = seconds() - t0;
    } while (fixed_frames ? n < fixed_frames : t < MIN_SECONDS);
    (void)sink;
    free(frame);
    free(mem);
    return t * 1e9 / n;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 64, 1514, 9018 };
    size_t s;
    int keep;

    if (argc == 3 && !strcmp(argv[1], "--frames") && atoi(argv[2]) > 0) {
        fixed_frames = (uint64_t)atoi(argv[2]);
    } else if (argc > 1) {
        fprintf(stderr, "usage: core-bench [--frames N]\n");
        return 2;
    }
    printf("e1000e-pp core receive, extended descriptors (RXCSUM.PCSD, as "
           "Linux sets them), no QEMU; floor = "
           "memcpy + CRC-32\n");
    printf("%6s %-8s %12s %12s %14s %10s\n", "bytes", "FCS", "ns/frame",
           "floor ns", "ratio to floor", "frames");
    for (keep = 0; keep < 2; keep++) {
        for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            uint64_t frames;
            double core = run_core(sizes[s], keep, &frames);
            double floor = run_floor(sizes[s]);

            printf("%6zu %-8s %12.1f %12.1f %14.2f %10" PRIu64 "\n",
                   sizes[s], keep ? "kept" : "stripped", core, floor,
                   core / floor, frames);
            printf("RESULT bytes=%zu fcs=%s ns_per_frame=%.1f floor_ns=%.1f "
                   "ratio=%.3f\n", sizes[s], keep ? "kept" : "stripped",
                   core, floor, core / floor);
            fflush(stdout);
        }
    }
    return 0;
}
