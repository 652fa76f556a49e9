/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The historical bug classes of QEMU's e1000 family, one scenario each:
 * a hostile guest programs the device in a way that once hung or
 * crashed the host's QEMU.  Each scenario asserts that QEMU stays
 * responsive and that the device does what the hardware would.
 *
 * Responsiveness is the one property measured in wall time here: a
 * stall keeps QEMU's main loop busy, so no virtual-time wait can see it.
 * Every scenario runs in a subprocess (g_test_trap_subprocess) with a
 * generous wall bound, QEMU's start included; where a model is known
 * to stall, the stall is asserted (it reaches the bound) as the recorded
 * difference, so CI neither hangs nor passes silently.  What each model
 * did is printed as '#' lines and recorded in docs/security.md.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

/* Wall time a scenario may take, QEMU's start and shutdown included */
#define STALL_BOUND_US      (15 * G_USEC_PER_SEC)

/* How a model fares with a scenario */
typedef enum Outcome {
    RESPONSIVE,     /* QEMU answers and the device behaves */
    STALLS,         /* QEMU's main loop stays busy past the bound */
} Outcome;

/*
 * Run body in a subprocess bounded by STALL_BOUND_US; on the stock model
 * expect `stock` (a stall is the recorded difference).
 */
static void bounded(const char *model, void (*body)(const char *model),
                    Outcome stock)
{
    if (g_test_subprocess()) {
        body(model);
        return;
    }
    g_test_trap_subprocess(NULL, STALL_BOUND_US,
                           G_TEST_SUBPROCESS_INHERIT_STDERR);
    if (is_stock(model) && stock == STALLS) {
        g_test_message("stock e1000e: QEMU stays busy for more than %d s",
                       (int)(STALL_BOUND_US / G_USEC_PER_SEC));
        g_assert_true(g_test_trap_reached_timeout());
        return;
    }
    if (g_test_trap_reached_timeout()) {
        g_test_message("%s: QEMU did not answer within %d s", model,
                       (int)(STALL_BOUND_US / G_USEC_PER_SEC));
    }
    g_assert_false(g_test_trap_reached_timeout());
    g_test_trap_assert_passed();
}

/*
 * What a model did, for docs/security.md: on stderr, which the parent
 * passes through (the subprocess's stdout is captured by GLib).
 */
static void G_GNUC_PRINTF(1, 2) note(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("# ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* The next qtest command answers: QEMU's main loop is free again */
static void expect_responsive(E1000epp *d, const char *after)
{
    int64_t t0 = g_get_monotonic_time();
    uint32_t status = e1000epp_rd(d, STATUS);

    note("%s on %s: next command answered after %" PRId64 " ms",
                   after, d->model,
                   (g_get_monotonic_time() - t0) / 1000);
    /* STATUS.LU: the device still reads as a device, link up */
    g_assert_cmphex(status & STATUS_LU, ==, STATUS_LU);
}

/*
 * Queue a frame on the netdev socket unless it is full (a model that
 * holds frames upstream stops reading it); false when it did not fit.
 */
static bool inject_nowait(E1000epp *d, const uint8_t *frame, size_t len)
{
    g_autofree uint8_t *msg = g_malloc(len + 4);

    stl_be_p(msg, len);
    memcpy(msg + 4, frame, len);
    return send(d->sock[0], msg, len + 4, MSG_DONTWAIT) == len + 4;
}

/* Frames on the wire until it stays idle; how many */
static unsigned drain_wire(E1000epp *d)
{
    static uint8_t buf[65536 + 256];
    unsigned n = 0;

    e1000epp_step(d, EPP_NS_PER_MS);
    while (!e1000epp_wire_idle(d)) {
        e1000epp_collect(d, buf, sizeof(buf));
        n++;
        e1000epp_step(d, EPP_NS_PER_MS);
    }
    return n;
}

static void expect_tx_all_done(E1000epp *d, unsigned n)
{
    uint8_t wb[EPP_DESC_LEN];
    unsigned i;

    e1000epp_tx_wait_done(d);
    for (i = 0; i < n; i++) {
        e1000epp_tx_desc(d, i, wb);
        g_assert_cmphex(wb[12] & TXD_STA_DD, ==, TXD_STA_DD);
    }
}

/* ---------------------------------------------------------------- */
/* Zero-length and zero-address descriptors                         */
/* ---------------------------------------------------------------- */

static void tx_zero_length(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    uint8_t desc[EPP_DESC_LEN];
    unsigned i, sent;

    /* Given: 62 descriptors of length 0 at address 0, legacy and data */
    e1000epp_bring_up(d, &e1000epp_default_config);
    for (i = 0; i < EPP_RING_COUNT - 2; i++) {
        if (i % 2) {
            e1000epp_txd_data(desc, 0, 0, TXD_CMD_EOP | TXD_CMD_IFCS |
                              TXD_CMD_RS, 0);
        } else {
            e1000epp_txd_legacy(desc, 0, 0, TXD_CMD_EOP | TXD_CMD_IFCS |
                                TXD_CMD_RS);
        }
        e1000epp_tx_write(d, desc);
    }

    /* When: the tail hands them over */
    e1000epp_tx_kick(d);

    /* Then: every one is done (DD, RS set) and QEMU answers */
    expect_tx_all_done(d, EPP_RING_COUNT - 2);
    sent = drain_wire(d);
    note("%s: %u frames on the wire from 62 empty descriptors",
                   model, sent);
    expect_responsive(d, "62 zero-length descriptors");
    e1000epp_stop(d);
}

static void robust_tx_zero_length_descriptors(const char *model)
{
    bounded(model, tx_zero_length, RESPONSIVE);
}

static void rx_zero_address(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { LEN = 128 };
    uint8_t f[LEN], got[LEN], wb[EPP_DESC_LEN];
    uint8_t low[LEN];
    int i;

    /* Given: four Rx descriptors whose buffer address is 0 */
    e1000epp_bring_up(d, &e1000epp_default_config);
    qtest_memread(d->qts, 0, low, LEN);
    for (i = 0; i < 4; i++) {
        e1000epp_rx_post(d, 0);
    }

    /* When: a frame arrives */
    frame_fill(f, LEN, false, 1);
    e1000epp_inject(d, f, LEN);
    e1000epp_rx_wait_dd(d, 0);

    /*
     * Then: nothing lands at guest address 0. 82574L §7.1.7.2 null
     * descriptors: no data is stored, the descriptor comes back with DD
     * and every other bit unchanged; e1000e-pp uses all four that way
     * and the frame waits on the chip for a real buffer.
     */
    qtest_memread(d->qts, 0, got, LEN);
    e1000epp_rx_desc(d, 0, wb);
    if (is_stock(model)) {
        /*
         * stock e1000e: takes address 0 for "no buffer" too, drops the
         * data and writes the descriptor back
         */
        note("e1000e: frame %s address 0, descriptor length %u",
             memcmp(got, f, LEN) ? "not written at" : "written at",
             e1000epp_le16(wb + 8));
    } else {
        g_assert_cmpmem(got, LEN, low, LEN);
        g_assert_cmpuint(e1000epp_le16(wb + 8), ==, 0);
        g_assert_cmphex(wb[12], ==, RXD_STA_DD);
        g_assert_cmpuint(e1000epp_qom_u64(d, "rx-null-desc"), ==, 4);
        g_assert_cmpuint(e1000epp_qom_u64(d, "rx-delivered"), ==, 0);
    }
    qtest_memwrite(d->qts, 0, low, LEN);
    expect_responsive(d, "a frame into a zero-address buffer");
    e1000epp_stop(d);
}

static void robust_rx_zero_address_buffer(const char *model)
{
    bounded(model, rx_zero_address, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* Head or tail outside the ring; ring lengths 0 or unaligned        */
/* ---------------------------------------------------------------- */

static bool ring_untouched(E1000epp *d, uint64_t ring, unsigned n)
{
    uint8_t desc[EPP_DESC_LEN];
    unsigned i;

    for (i = 0; i < n; i++) {
        qtest_memread(d->qts, ring + i * EPP_DESC_LEN, desc, EPP_DESC_LEN);
        if (desc[12] & 1) {      /* DD (Rx legacy status, Tx STA) */
            return false;
        }
    }
    return true;
}

static void head_tail_outside(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { LEN = 100 };
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    unsigned i;

    /* Given: both rings of 64, buffers posted, frames queued for Tx */
    e1000epp_bring_up(d, &e1000epp_default_config);
    for (i = 0; i < 8; i++) {
        e1000epp_rx_post(d, e1000epp_alloc(d, 2048));
    }
    tx_eth_header(f, ETH_P_TEST);
    fill_pattern(f + 14, LEN - 14, 7);
    e1000epp_txd_legacy(desc, e1000epp_alloc(d, LEN), LEN,
                        TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    for (i = 0; i < 8; i++) {
        e1000epp_tx_write(d, desc);
    }

    /* When: heads and tails are written far outside the rings */
    e1000epp_wr(d, RDH0, 1000);
    e1000epp_wr(d, RDT0, 0xffff);
    e1000epp_wr(d, TDH0, 5000);
    e1000epp_wr(d, TDT0, 0xfff0);
    frame_fill(f, LEN, false, 2);
    for (i = 0; i < 16; i++) {
        e1000epp_inject(d, f, LEN);
    }
    e1000epp_step(d, 10 * EPP_NS_PER_MS);

    /* Then: QEMU answers; what each ring did is reported */
    expect_responsive(d, "head and tail outside the rings");
    note("%s: RDH %u TDH %u, Rx ring %s, %u frames sent",
                   model, e1000epp_rd(d, RDH0), e1000epp_rd(d, TDH0),
                   ring_untouched(d, d->rx_ring, EPP_RING_COUNT) ?
                   "untouched" : "written", drain_wire(d));
    if (!is_stock(model)) {
        /* e1000e-pp: a ring whose head or tail is outside does nothing */
        g_assert_true(ring_untouched(d, d->rx_ring, EPP_RING_COUNT));
        g_assert_true(ring_untouched(d, d->tx_ring, EPP_RING_COUNT));
    }
    expect_responsive(d, "reading the rings back");
    e1000epp_stop(d);
}

static void robust_head_tail_outside_ring(const char *model)
{
    bounded(model, head_tail_outside, RESPONSIVE);
}

static void ring_len_bad(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { LEN = 100 };
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    unsigned i;
    static const uint32_t lens[] = { 0, 100, 0x80 + 16 };

    e1000epp_bring_up(d, &e1000epp_default_config);
    tx_eth_header(f, ETH_P_TEST);
    fill_pattern(f + 14, LEN - 14, 9);
    e1000epp_txd_legacy(desc, e1000epp_alloc(d, LEN), LEN,
                        TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    for (i = 0; i < 8; i++) {
        e1000epp_tx_write(d, desc);
        e1000epp_rx_post(d, e1000epp_alloc(d, 2048));
    }
    for (i = 0; i < ARRAY_SIZE(lens); i++) {
        /*
         * Given: RDLEN/TDLEN of 0, 100 and 144 bytes (§10.2.5.6: the
         * length is a multiple of 128, bits 6:0 read as 0)
         */
        e1000epp_wr(d, RDLEN0, lens[i]);
        e1000epp_wr(d, TDLEN0, lens[i]);
        note("%s: RDLEN %u reads back 0x%x", model, lens[i],
                       e1000epp_rd(d, RDLEN0));
        if (!is_stock(model)) {
            g_assert_cmphex(e1000epp_rd(d, RDLEN0), ==, lens[i] & ~0x7fu);
            g_assert_cmphex(e1000epp_rd(d, TDLEN0), ==, lens[i] & ~0x7fu);
        }

        /* When: tails move and frames arrive */
        e1000epp_wr(d, RDT0, 5);
        e1000epp_wr(d, TDT0, 5);
        frame_fill(f, LEN, false, i);
        e1000epp_inject(d, f, LEN);
        e1000epp_step(d, 10 * EPP_NS_PER_MS);

        /* Then: QEMU answers */
        expect_responsive(d, "a ring length of 0 or below 128");
    }
    note("%s: %u frames sent, RDH %u TDH %u", model,
                   drain_wire(d), e1000epp_rd(d, RDH0), e1000epp_rd(d, TDH0));
    e1000epp_stop(d);
}

static void robust_ring_length_zero_or_unaligned(const char *model)
{
    bounded(model, ring_len_bad, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* Rings and buffers over the device's own BARs                      */
/* ---------------------------------------------------------------- */

static void rings_over_bars(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { LEN = 200 };
    uint64_t bar0, msix;
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    uint32_t ims = 0x1f6dc, rctl;
    unsigned i;

    e1000epp_bring_up(d, &e1000epp_default_config);
    e1000epp_wr(d, IMS, ims);
    rctl = e1000epp_rd(d, RCTL);
    bar0 = d->mmio.addr;
    msix = qpci_iomap(d->pdev, 3, NULL).addr;

    /*
     * Given: Rx buffers in BAR0 at ICS and IMC, and in the MSI-X table;
     * a Tx descriptor whose data is BAR0 itself
     */
    e1000epp_rx_post(d, bar0 + ICS);
    e1000epp_rx_post(d, bar0 + IMC);
    e1000epp_rx_post(d, msix);
    e1000epp_rx_post(d, bar0 + RCTL);
    e1000epp_txd_legacy(desc, bar0, LEN, TXD_CMD_EOP | TXD_CMD_IFCS |
                        TXD_CMD_RS);
    e1000epp_tx_push(d, desc);

    /* When: frames arrive into those buffers */
    for (i = 0; i < 4; i++) {
        frame_fill(f, LEN, false, i);
        memset(f + 64, 0xff, LEN - 64);
        e1000epp_inject(d, f, LEN);
    }
    e1000epp_step(d, 10 * EPP_NS_PER_MS);
    expect_responsive(d, "DMA into BAR0 and the MSI-X table");

    /* Then: DMA did not reach the device: its registers are intact */
    if (is_stock(model)) {
        /* stock e1000e: a frame's DMA lands in its own IMC and RCTL */
        note("e1000e: after DMA into its BAR0, IMS 0x%x (was 0x%x), RCTL "
             "0x%x (was 0x%x)", e1000epp_rd(d, IMS), ims,
             e1000epp_rd(d, RCTL), rctl);
        e1000epp_wr(d, IMS, ims);
        e1000epp_wr(d, RCTL, rctl);
    } else {
        g_assert_cmphex(e1000epp_rd(d, IMS), ==, ims);
        g_assert_cmphex(e1000epp_rd(d, RCTL), ==, rctl);
    }
    drain_wire(d);

    /* Given: the rings themselves in BAR0 and in the MSI-X table */
    e1000epp_wr(d, RDBAL0, (uint32_t)bar0);
    e1000epp_wr(d, RDBAH0, (uint32_t)(bar0 >> 32));
    e1000epp_wr(d, TDBAL0, (uint32_t)msix);
    e1000epp_wr(d, TDBAH0, (uint32_t)(msix >> 32));
    e1000epp_wr(d, RDH0, 0);
    e1000epp_wr(d, TDH0, 0);
    /* When: tails hand them over and a frame arrives */
    e1000epp_wr(d, RDT0, 16);
    e1000epp_wr(d, TDT0, 16);
    e1000epp_inject(d, f, LEN);
    e1000epp_step(d, 10 * EPP_NS_PER_MS);
    expect_responsive(d, "rings in BAR0 and the MSI-X table");
    note("%s: IMS 0x%x after rings in its own BARs (was 0x%x)", model,
         e1000epp_rd(d, IMS), ims);
    if (!is_stock(model)) {
        g_assert_cmphex(e1000epp_rd(d, IMS), ==, ims);
        note("e1000e-pp: reentries-refused %" PRIu64
                       ", dma-errors %" PRIu64,
                       e1000epp_qom_u64(d, "reentries-refused"),
                       e1000epp_qom_u64(d, "dma-errors"));
    }
    drain_wire(d);
    e1000epp_stop(d);
}

static void robust_rings_and_buffers_over_own_bars(const char *model)
{
    bounded(model, rings_over_bars, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* Loopback storm                                                    */
/* ---------------------------------------------------------------- */

static void loopback_storm(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { LEN = 1514, ROUNDS = 16 };
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    uint64_t buf;
    unsigned i, r;

    /* Given: MAC loopback, promiscuous, 8 Rx buffers, a full Tx ring */
    e1000epp_bring_up(d, &e1000epp_default_config);
    e1000epp_wr(d, RCTL, e1000epp_rd(d, RCTL) | RCTL_UPE | RCTL_MPE |
                RCTL_LBM_MAC);
    for (i = 0; i < 8; i++) {
        e1000epp_rx_post(d, e1000epp_alloc(d, 2048));
    }
    frame_fill(f, LEN, false, 3);
    memcpy(f, epp_mac, 6);
    buf = e1000epp_alloc(d, LEN);
    e1000epp_memwrite(d, buf, f, LEN);
    e1000epp_txd_legacy(desc, buf, LEN, TXD_CMD_EOP | TXD_CMD_IFCS |
                        TXD_CMD_RS);
    for (i = 0; i < EPP_RING_COUNT; i++) {
        qtest_memwrite(d->qts, d->tx_ring + i * EPP_DESC_LEN, desc,
                       EPP_DESC_LEN);
    }

    /* When: the tail goes round the ring 16 times (1008 frames) */
    for (r = 0; r < ROUNDS; r++) {
        for (i = 0; i < 3; i++) {
            e1000epp_wr(d, TDT0, (e1000epp_rd(d, TDH0) + 63) %
                        EPP_RING_COUNT);
            e1000epp_step(d, EPP_NS_PER_MS);
        }
    }

    /* Then: QEMU answers, and every looped frame is accounted for */
    expect_responsive(d, "a loopback storm");
    if (!is_stock(model)) {
        static const char *const drops[] = {
            "rx-missed", "rx-filtered", "rx-oversize", "rx-undersize",
            "rx-not-ready", "rx-dma-error",
        };
        uint64_t offered = e1000epp_qom_u64(d, "rx-offered");
        uint64_t ended = e1000epp_qom_u64(d, "rx-delivered");

        for (i = 0; i < ARRAY_SIZE(drops); i++) {
            ended += e1000epp_qom_u64(d, drops[i]);
        }
        note("e1000e-pp: %" PRIu64 " looped back, %" PRIu64 " delivered, %"
             PRIu64 " missed, %" PRIu64 " still in the packet buffer",
             offered, e1000epp_qom_u64(d, "rx-delivered"),
             e1000epp_qom_u64(d, "rx-missed"), offered - ended);
        /* Each ends in one place; the rest wait in the 40 KB buffer */
        g_assert_cmpuint(ended, <=, offered);
        g_assert_cmpuint(offered - ended, <=, 40 * 1024 / (LEN + 4));
        g_assert_cmpuint(e1000epp_qom_u64(d, "rx-delivered"), ==, 8);
    }
    note("%s: %u frames reached the wire", model, drain_wire(d));
    e1000epp_stop(d);
}

static void robust_loopback_storm(const char *model)
{
    bounded(model, loopback_storm, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* TSO with absurd values; context descriptors without data          */
/* ---------------------------------------------------------------- */

typedef struct AbsurdTso {
    const char *what;
    uint8_t hdrlen;
    uint16_t mss;
    uint32_t paylen;
    uint32_t data_len;        /* bytes the data descriptor really has */
} AbsurdTso;

static const AbsurdTso absurd[] = {
    { "MSS 0", 54, 0, 1000, 54 + 1000 },
    { "MSS 1", 54, 1, 300, 54 + 300 },
    { "HDRLEN 255 beyond the data", 255, 536, 1000, 100 },
    { "HDRLEN 0", 0, 536, 1000, 1000 },
    { "PAYLEN 0xfffff, 100 bytes of data", 54, 1448, 0xfffff, 100 },
    { "PAYLEN 0 with data", 54, 536, 0, 1054 },
    { "MSS 0xffff", 54, 0xffff, 9000, 54 + 9000 },
};

static void tso_absurd(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    uint8_t desc[EPP_DESC_LEN];
    uint64_t buf;
    unsigned i, n = 0;

    e1000epp_bring_up(d, &e1000epp_default_config);
    buf = e1000epp_alloc(d, 65536);
    for (i = 0; i < ARRAY_SIZE(absurd); i++) {
        const AbsurdTso *t = &absurd[i];
        uint32_t dlen = t->data_len;

        /* Given: a TSO context with absurd values, then its data */
        e1000epp_txd_context(desc, 14, 24, 33, 34, 50, 0,
                             t->paylen | TXD_CTX_TUCMD_TSE |
                             TXD_CTX_TUCMD_IP | TXD_CTX_TUCMD_TCP);
        stl_le_p(desc + 12, (uint32_t)t->hdrlen << 8 |
                 (uint32_t)t->mss << 16);
        e1000epp_tx_write(d, desc);
        e1000epp_txd_data(desc, buf, dlen, TXD_CMD_EOP | TXD_CMD_IFCS |
                          TXD_CMD_RS | TXD_CMD_TSE,
                          TXD_POPTS_IXSM | TXD_POPTS_TXSM);
        e1000epp_tx_write(d, desc);
        n += 2;

        /* When: it is handed over */
        e1000epp_tx_kick(d);
        e1000epp_tx_wait_done(d);

        /* Then: QEMU answers and the ring moves on */
        note("%s, %s: %u frames", model, t->what, drain_wire(d));
        expect_responsive(d, t->what);
    }
    e1000epp_stop(d);
}

static void robust_tso_absurd_mss_hdrlen_paylen(const char *model)
{
    bounded(model, tso_absurd, RESPONSIVE);
}

static void context_only(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    uint8_t desc[EPP_DESC_LEN];
    unsigned i;

    /* Given: 63 context descriptors (TSE, RS) and no data descriptor */
    e1000epp_bring_up(d, &e1000epp_default_config);
    for (i = 0; i < EPP_RING_COUNT - 1; i++) {
        e1000epp_txd_context(desc, 14, 24, 33, 34, 50, 0,
                             9000 | TXD_CTX_TUCMD_TSE | TXD_CTX_TUCMD_IP |
                             TXD_CTX_TUCMD_TCP | TXD_CMD_RS);
        stl_le_p(desc + 12, 54u << 8 | 1448u << 16);
        e1000epp_tx_write(d, desc);
    }

    /* When: handed over */
    e1000epp_tx_kick(d);

    /* Then: each is done and nothing reaches the wire */
    expect_tx_all_done(d, EPP_RING_COUNT - 1);
    expect_wire_idle(d);
    expect_responsive(d, "context descriptors without data");
    e1000epp_stop(d);
}

static void robust_context_descriptors_without_data(const char *model)
{
    bounded(model, context_only, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* A huge ring of unmapped buffers and a burst of queued frames      */
/* ---------------------------------------------------------------- */

/* §10.2.5.6: RDLEN up to 0xfff80 bytes: 65528 descriptors */
#define HUGE_RING_BYTES     0xfff80u
#define HUGE_RING_DESCS     (HUGE_RING_BYTES / EPP_DESC_LEN)
/* Far above the q35 machine's RAM: nothing answers there */
#define UNMAPPED            0x7f0000000000ull

static void huge_ring_unmapped(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { LEN = 60, BURST = 4000 };
    g_autofree uint8_t *ring = g_malloc0(HUGE_RING_BYTES);
    uint64_t ring_addr = e1000epp_alloc(d, HUGE_RING_BYTES);
    uint8_t f[LEN];
    unsigned i;

    /* Given: a 65528-descriptor ring, every buffer unmapped */
    e1000epp_bring_up(d, &e1000epp_default_config);
    for (i = 0; i < HUGE_RING_DESCS; i++) {
        stq_le_p(ring + i * EPP_DESC_LEN, UNMAPPED + (uint64_t)i * 2048);
    }
    e1000epp_memwrite(d, ring_addr, ring, HUGE_RING_BYTES);
    e1000epp_wr(d, RDBAL0, (uint32_t)ring_addr);
    e1000epp_wr(d, RDBAH0, (uint32_t)(ring_addr >> 32));
    e1000epp_wr(d, RDLEN0, HUGE_RING_BYTES);
    e1000epp_wr(d, RDH0, 0);
    e1000epp_wr(d, RDT0, 0);
    expect_responsive(d, "a huge ring of unmapped buffers set up");

    /*
     * ... and a burst of frames while the ring is empty: stock e1000e
     * leaves them queued in QEMU, e1000e-pp holds what its packet buffer
     * takes and counts the rest as missed (MPC), as the hardware does
     */
    for (i = 0; i < BURST; i++) {
        frame_fill(f, LEN, false, i);
        if (!inject_nowait(d, f, LEN)) {
            break;
        }
        if (i == 0) {
            expect_responsive(d, "the first frame into an empty ring");
        }
    }
    note("%s: %u frames queued", model, i);
    e1000epp_step(d, EPP_NS_PER_MS);
    expect_responsive(d, "a burst into an empty ring");

    /* When: the whole ring is handed over */
    e1000epp_wr(d, RDT0, HUGE_RING_DESCS - 1);
    e1000epp_step(d, 10 * EPP_NS_PER_MS);

    /*
     * Then: QEMU answers; the failed writes are posted (lost, listed as
     * DMA faults), not retried forever
     */
    expect_responsive(d, "RDT over a huge ring of unmapped buffers");
    /* When: RCTL is written again (stopped nothing on e1000e-pp) */
    e1000epp_wr(d, RCTL, RCTL_EN | RCTL_BAM | RCTL_SECRC);
    e1000epp_step(d, 10 * EPP_NS_PER_MS);
    expect_responsive(d, "RCTL rewritten over the same ring");
    note("%s: RDH %u", model, e1000epp_rd(d, RDH0));
    if (!is_stock(model)) {
        uint64_t offered = e1000epp_qom_u64(d, "rx-offered");

        note("e1000e-pp: offered %" PRIu64 ", missed %" PRIu64
             ", dma-error %" PRIu64 ", dma-errors %" PRIu64, offered,
             e1000epp_qom_u64(d, "rx-missed"),
             e1000epp_qom_u64(d, "rx-dma-error"),
             e1000epp_qom_u64(d, "dma-errors"));
        g_assert_cmpuint(e1000epp_qom_u64(d, "dma-errors"), >, 0);
        /*
         * PCIe writes are posted: each frame's data is lost and its
         * descriptor still written back, so every frame the packet
         * buffer held counts as delivered; a fault is listed per frame.
         */
        g_assert_cmpuint(e1000epp_qom_u64(d, "rx-delivered"), ==,
                         offered - e1000epp_qom_u64(d, "rx-missed"));
        g_assert_cmpuint(e1000epp_qom_u64(d, "dma-fault-count"), ==,
                         e1000epp_qom_u64(d, "rx-delivered"));
    }
    e1000epp_stop(d);
}

static void robust_huge_ring_unmapped_buffers_burst(const char *model)
{
    bounded(model, huge_ring_unmapped, RESPONSIVE);
}

#define SCENARIO(fn) E1000EPP_SCENARIO(fn)

static const E1000eppScenario scenarios[] = {
    SCENARIO(robust_tx_zero_length_descriptors),
    SCENARIO(robust_rx_zero_address_buffer),
    SCENARIO(robust_head_tail_outside_ring),
    SCENARIO(robust_ring_length_zero_or_unaligned),
    SCENARIO(robust_rings_and_buffers_over_own_bars),
    SCENARIO(robust_loopback_storm),
    SCENARIO(robust_tso_absurd_mss_hdrlen_paylen),
    SCENARIO(robust_context_descriptors_without_data),
    SCENARIO(robust_huge_ring_unmapped_buffers_burst),
};

int main(int argc, char **argv)
{
    return e1000epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios));
}
