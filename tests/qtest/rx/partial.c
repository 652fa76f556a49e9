/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive scenarios of partial frames: frames
 * moved into host buffers descriptor by descriptor (DD on chunks before
 * the EOP, a ring running dry part-way and the rest following an RDT
 * write), the descriptor cache (a descriptor rewritten after the tail
 * write is not seen), posted data writes to an unreachable buffer, and
 * null descriptors.
 *
 * stock e1000e delivers a frame only whole, once every descriptor it
 * needs is posted, reads each descriptor at the moment of use, and skips
 * null descriptors writing a full write-back; each scenario asserts that.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

/* MTU 9000: a 9014-byte frame, FCS stripped (RCTL.SECRC) */
#define JUMBO_MTU       9000
#define JUMBO_LEN       9014
/* Unassigned guest-physical space (q35, 128 MB of RAM) */
#define UNREACHABLE     0x7f0000000000ull

/*
 * Descriptors the design has posted from next_to_clean on: DD and EOP
 * of the first n, as the driver sees them.
 */
static unsigned count_dd(EppRx *rx, unsigned n, bool *eop_seen)
{
    unsigned i, dd = 0;
    EppRxWb w;

    *eop_seen = false;
    for (i = 0; i < n; i++) {
        epp_rx_desc_read(rx, (rx->next_to_clean + i) % rx->count, &w);
        if (!w.dd) {
            break;
        }
        dd++;
        *eop_seen |= w.eop;
    }
    return dd;
}

static void expect_jumbo(EppRx *rx, EppRxFrame *f, const uint8_t *wire,
                         unsigned chunks)
{
    unsigned k;

    g_assert_cmpuint(f->len, ==, JUMBO_LEN);
    g_assert_cmpmem(f->data, f->len, wire, JUMBO_LEN);
    g_assert_cmpuint(f->ndesc, ==, chunks);
    for (k = 0; k < chunks; k++) {
        g_assert_cmpint(f->desc_eop[k], ==, k == chunks - 1);
    }
    epp_rx_release(rx, f);
    epp_rx_check_pool(rx);
}

/*
 * Given the page-pool design at MTU 9000 (2 KB chunks: 2048 x 4 + 822)
 * with only 3 descriptors posted, when a 9014-byte frame arrives, then
 * the first three chunks come back with DD and without EOP (the driver
 * polls and finds no complete frame); when it posts two more, then the
 * frame completes, byte for byte, EOP on the fifth descriptor.
 *
 * stock e1000e: nothing is written until all five descriptors are there.
 */
static void rx_partial_frame_across_polls(const char *model)
{
    EppRxSetup s = { .design = EPP_RX_PAGEPOOL, .mtu = JUMBO_MTU,
                     .fill = 3 };
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *wire = g_malloc(JUMBO_LEN);
    EppRx *rx = rx_start(model, &s);
    bool eop;

    epp_frame_fill(wire, JUMBO_LEN, false, 1);
    epp_inject(rx->d, wire, JUMBO_LEN);
    if (!epp_is_stock(model)) {
        wait_arrived(rx, 1);
    }
    /* (stock e1000e leaves it in QEMU's queue: TPR stays 0) */
    step_us(rx->d, 100);
    g_assert_cmpuint(count_dd(rx, 3, &eop), ==, epp_is_stock(model) ? 0 : 3);
    g_assert_false(eop);
    g_assert_false(epp_rx_poll(rx, f));
    if (!epp_is_stock(model)) {
        g_assert_cmpuint(epp_rd(rx->d, RDH0), ==, 3);
        g_assert_cmpuint(epp_qom_u64(rx->d, "rx-delivered"), ==, 0);
    }

    epp_rx_post_n(rx, 2);
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
    expect_jumbo(rx, f, wire, 5);
    rx_stop(rx);
}

/* The ring runs dry after chunk k of a frame (x-rx-fetch-limit=k) */
typedef struct DryCase {
    EppRxDesign design;
    unsigned k;
    unsigned rdt_writes;        /* until the EOP: ceil((chunks - k) / k) */
} DryCase;

/*
 * Given a design at MTU 9000 with its whole ring posted and the device
 * started with x-rx-fetch-limit=k (at most k descriptors per fetch, fetched
 * on RDT writes only), when a 9014-byte frame arrives, then exactly k
 * descriptors carry DD without EOP (page pool: 2 KB chunks, 5 of them;
 * stock's jumbo path: 4 KB, 3), the rest of the frame waits on the chip;
 * and each RDT write lets k more out until the EOP, the frame exact.
 *
 * stock e1000e has no such knob and fetches at use: the frame comes
 * whole with the first poll.
 */
static void rx_partial_dry_at_chunk(const char *model, const void *opaque)
{
    const DryCase *c = opaque;
    bool stock = epp_is_stock(model);
    EppRxSetup s = { .design = c->design, .mtu = JUMBO_MTU,
                     .no_packet_split = true };
    unsigned chunks = c->design == EPP_RX_PAGEPOOL ? 5 : 3, writes = 0;
    g_autofree char *props = g_strdup_printf("x-rx-fetch-limit=%u", c->k);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *wire = g_malloc(JUMBO_LEN);
    EppDev *d = epp_start_dev(model, stock ? NULL : props, NULL);
    EppRx *rx;
    bool eop;

    epp_bring_up(d, &epp_default_config);
    rx = epp_rx_new(d, &s);
    epp_frame_fill(wire, JUMBO_LEN, false, c->k);
    epp_inject(d, wire, JUMBO_LEN);
    wait_arrived(rx, 1);
    /* The stock design holds write-backs for RDTR (32.768 us) */
    step_us(d, 100);
    if (stock) {
        g_assert_true(epp_rx_poll(rx, f));
        expect_jumbo(rx, f, wire, chunks);
        rx_stop(rx);
        return;
    }
    g_assert_cmpuint(count_dd(rx, chunks, &eop), ==, c->k);
    g_assert_false(eop);
    g_assert_false(epp_rx_poll(rx, f));

    /* The driver writes the tail again: k more each time */
    while (!epp_rx_poll(rx, f)) {
        g_assert_cmpuint(writes, <, chunks);
        epp_wr(d, RDT0, epp_rd(d, RDT0));
        writes++;
        step_us(d, 100);
    }
    g_assert_cmpuint(writes, ==, c->rdt_writes);
    expect_jumbo(rx, f, wire, chunks);
    rx_stop(rx);
}

static void rx_partial_add_cases(void)
{
    /* Tail writes to the EOP, counted by hand: 5 chunks, or 3 */
    static const DryCase cases[] = {
        { EPP_RX_PAGEPOOL, 1, 4 }, { EPP_RX_PAGEPOOL, 2, 2 },
        { EPP_RX_PAGEPOOL, 3, 1 }, { EPP_RX_PAGEPOOL, 4, 1 },
        { EPP_RX_STOCK, 1, 2 }, { EPP_RX_STOCK, 2, 1 },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(cases); i++) {
        g_autofree char *name =
            g_strdup_printf("rx/partial/dry_at_chunk/%s/%u",
                            epp_rx_design_name(cases[i].design),
                            cases[i].k);

        epp_add_case(name, rx_partial_dry_at_chunk, &cases[i]);
    }
}

/* Fill n bytes of guest memory with the poison byte */
static uint64_t poisoned(EppDev *d, size_t n)
{
    uint64_t a = epp_alloc(d, n);

    qtest_memset(d->qts, a, 0xd7, n);
    return a;
}

static bool all_poison(EppDev *d, uint64_t a, size_t n)
{
    g_autofree uint8_t *b = g_malloc(n);
    size_t i;

    epp_memread(d, a, b, n);
    for (i = 0; i < n; i++) {
        if (b[i] != 0xd7) {
            return false;
        }
    }
    return true;
}

static void post_desc(EppDev *d, unsigned i, uint64_t buf)
{
    uint8_t desc[16] = { 0 };

    stq_le_p(desc, buf);
    epp_memwrite(d, d->rx->ring + i * 16, desc, 16);
}

/*
 * A driver bug: the tail moves before the descriptor's contents are
 * visible (a missing dma_wmb). Given descriptor 0 still holding an old
 * buffer A when RDT is written, and then buffer B written into it, when
 * a frame arrives, then the device uses A, as fetched at the tail write,
 * and B (what the driver will read) is untouched: the bug shows.
 *
 * stock e1000e reads the descriptor when the frame arrives: the frame
 * lands in B and the bug passes unseen.
 */
static void rx_tail_before_contents_caught(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t wire[200], got[200];
    uint64_t a, b;

    epp_bring_up(d, &epp_default_config);
    a = poisoned(d, 2048);
    b = poisoned(d, 2048);
    post_desc(d, 0, a);
    epp_wr(d, RDT0, 1);
    post_desc(d, 0, b);

    epp_frame_fill(wire, sizeof(wire), false, 7);
    epp_inject(d, wire, sizeof(wire));
    epp_rx_wait_dd(d->rx, 0);
    epp_memread(d, epp_is_stock(model) ? b : a, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), wire, sizeof(wire));
    g_assert_true(all_poison(d, epp_is_stock(model) ? a : b, 2048));
    epp_stop(d);
}

/*
 * Given descriptor 0 pointing at an address no memory answers (as an
 * IOMMU that unmapped the buffer would), and descriptor 1 at a real
 * buffer, when two frames arrive, then PCIe's posted write is lost, the
 * descriptor is still written back (DD, EOP, the length), one DMA fault
 * names descriptor 0, its buffer, offset 0 and the frame's length, and
 * the engine goes on: frame 2 lands in descriptor 1. A driver sees a
 * good frame whose bytes never came: corrupt data, not a stall.
 *
 * stock e1000e ignores the failed write the same way and records
 * nothing.
 */
static void rx_blocked_data_write_is_posted(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t wire[300], got[300], desc[16];
    uint64_t good;

    epp_bring_up(d, &epp_default_config);
    good = poisoned(d, 2048);
    epp_rx_post_addr(d->rx, UNREACHABLE);
    epp_rx_post_addr(d->rx, good);

    epp_frame_fill(wire, sizeof(wire), false, 1);
    epp_inject(d, wire, sizeof(wire));
    epp_rx_wait_dd(d->rx, 0);
    epp_frame_fill(wire, sizeof(wire), false, 2);
    epp_inject(d, wire, sizeof(wire));
    epp_rx_wait_dd(d->rx, 1);

    epp_rx_desc_bytes(d->rx, 0, desc);
    g_assert_cmphex(desc[12] & (RXD_STA_DD | RXD_STA_EOP), ==,
                    RXD_STA_DD | RXD_STA_EOP);
    g_assert_cmpuint(lduw_le_p(desc + 8), ==, sizeof(wire));
    epp_memread(d, good, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), wire, sizeof(wire));
    if (!epp_is_stock(model)) {
        g_autofree char *faults = epp_qom_str(d, "dma-faults");

        g_test_message("dma-faults: %s", faults);
        g_assert_cmpuint(epp_qom_u64(d, "dma-fault-count"), ==, 1);
        g_assert_nonnull(strstr(faults, " rx-data desc=0 addr=0x7f0000000000"
                                " offset=0 len=300 write\n"));
        g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==, 2);
    }
    epp_stop(d);
}

/*
 * Given descriptor 0 with buffer address 0 (its length field 0x5a5a
 * left by the driver) and descriptor 1 with a buffer, when a frame
 * arrives, then (§7.1.7.2) nothing is stored for descriptor 0, it comes
 * back with DD set and every other bit unchanged, and the frame lands in
 * descriptor 1 with EOP; rx-null-desc counts 1.
 *
 * stock e1000e skips it too but writes a full write-back: length 0.
 */
static void rx_null_descriptor_skipped(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t wire[100], got[100], desc[16] = { 0 }, low[64], low2[64];
    uint64_t buf;

    epp_bring_up(d, &epp_default_config);
    buf = poisoned(d, 2048);
    epp_memread(d, 0, low, sizeof(low));
    stw_le_p(desc + 8, 0x5a5a);
    epp_memwrite(d, d->rx->ring, desc, 16);
    post_desc(d, 1, buf);
    epp_wr(d, RDT0, 2);
    d->rx->next_to_use = 2;

    epp_frame_fill(wire, sizeof(wire), false, 3);
    epp_inject(d, wire, sizeof(wire));
    epp_rx_wait_dd(d->rx, 1);
    epp_rx_desc_bytes(d->rx, 0, desc);
    g_assert_cmphex(desc[12] & RXD_STA_DD, ==, RXD_STA_DD);
    g_assert_cmphex(ldq_le_p(desc), ==, 0);
    g_assert_cmphex(lduw_le_p(desc + 8), ==, epp_is_stock(model) ? 0 : 0x5a5a);
    if (!epp_is_stock(model)) {
        g_assert_cmphex(desc[12], ==, RXD_STA_DD);
        g_assert_cmpuint(epp_qom_u64(d, "rx-null-desc"), ==, 1);
    }
    epp_memread(d, 0, low2, sizeof(low2));
    g_assert_cmpmem(low2, sizeof(low2), low, sizeof(low));
    epp_rx_desc_bytes(d->rx, 1, desc);
    g_assert_cmphex(desc[12] & (RXD_STA_DD | RXD_STA_EOP), ==,
                    RXD_STA_DD | RXD_STA_EOP);
    epp_memread(d, buf, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), wire, sizeof(wire));
    epp_stop(d);
}

/*
 * Issue 12: how often a slot gets back the very buffer it had (no new
 * IOMMU mapping needed) versus a new one. Given a 32-descriptor ring and
 * 64 frames of 100 bytes, each taken, released and refilled at once:
 *
 * stock: copybreak (256) copies each frame and posts the same skb again
 * in the same slot: every slot is new once (32), every later fetch is a
 * re-post.
 * page-pool: a released chunk goes on top of the free stack and the next
 * refill, one slot further on, takes it: a slot never gets its old chunk
 * back, so nothing is a re-post.
 *
 * stock e1000e has no such counters: the frames are only checked.
 */
static void rx_buffer_reposts(const char *model, const void *opaque)
{
    const EppRxDesign *design = opaque;
    EppRxSetup s = { .design = *design, .mtu = 1500, .ring_count = 32 };
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppRx *rx = rx_start(model, &s);
    uint8_t wire[100];
    uint64_t fresh, again;
    unsigned i;

    for (i = 0; i < 64; i++) {
        epp_frame_fill(wire, sizeof(wire), false, i);
        epp_inject(rx->d, wire, sizeof(wire));
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpmem(f->data, f->len, wire, sizeof(wire));
        epp_rx_release(rx, f);
        epp_rx_refill(rx);
    }
    epp_rx_check_pool(rx);
    if (epp_is_stock(model)) {
        rx_stop(rx);
        return;
    }
    fresh = epp_qom_u64(rx->d, "rx-buf-new");
    again = epp_qom_u64(rx->d, "rx-buf-reposted");
    g_test_message("%s: rx-buf-new %" PRIu64 ", rx-buf-reposted %" PRIu64,
                   epp_rx_design_name(*design), fresh, again);
    /* 64 frames were fetched, and at most a cache's worth beyond them */
    g_assert_cmpuint(fresh + again, >=, 64);
    g_assert_cmpuint(fresh + again, <=, 64 + 32);
    if (*design == EPP_RX_STOCK) {
        g_assert_cmpuint(fresh, ==, 32);
    } else {
        g_assert_cmpuint(again, ==, 0);
    }
    rx_stop(rx);
}

static void rx_buffer_reposts_add_cases(void)
{
    static const EppRxDesign designs[] = { EPP_RX_STOCK, EPP_RX_PAGEPOOL };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(designs); i++) {
        g_autofree char *name =
            g_strdup_printf("rx/buffer_reposts/%s",
                            epp_rx_design_name(designs[i]));

        epp_add_case(name, rx_buffer_reposts, &designs[i]);
    }
}

/*
 * The knob at run time: given the page-pool design at MTU 9000 with its
 * ring up, when x-rx-fetch-limit is set to 2 with qom-set and the receiver
 * restarted (RCTL.EN off and on empties the cache), then a 9014-byte
 * frame stops after two chunks; set back to 0, one RDT write lets the
 * rest out. The change is listed in the event list.
 *
 * stock e1000e has no such property: qom-set fails.
 */
static void rx_fetch_limit_set_at_run_time(const char *model)
{
    EppRxSetup s = { .design = EPP_RX_PAGEPOOL, .mtu = JUMBO_MTU };
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    g_autofree uint8_t *wire = g_malloc(JUMBO_LEN);
    g_autofree char *events = NULL;
    EppRx *rx = rx_start(model, &s);
    EppDev *d = rx->d;
    bool eop;

    g_assert_cmpint(epp_qom_set(d, "x-rx-fetch-limit", 2), ==,
                    !epp_is_stock(model));
    if (epp_is_stock(model)) {
        rx_stop(rx);
        return;
    }
    g_assert_cmpuint(epp_qom_u64(d, "x-rx-fetch-limit"), ==, 2);
    events = epp_qom_str(d, "events");
    g_assert_nonnull(strstr(events, "knob-rx-fetch-limit reg=0x02818 "
                            "value=0x00000002"));
    epp_wr(d, RCTL, rx->rctl & ~RCTL_EN);
    epp_wr(d, RCTL, rx->rctl);

    epp_frame_fill(wire, JUMBO_LEN, false, 9);
    epp_inject(d, wire, JUMBO_LEN);
    wait_arrived(rx, 1);
    step_us(d, 100);
    g_assert_cmpuint(count_dd(rx, 5, &eop), ==, 2);
    g_assert_false(eop);

    g_assert_true(epp_qom_set(d, "x-rx-fetch-limit", 0));
    epp_wr(d, RDT0, epp_rd(d, RDT0));
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
    expect_jumbo(rx, f, wire, 5);
    rx_stop(rx);
}

static void add_cases(void)
{
    rx_partial_add_cases();
    rx_buffer_reposts_add_cases();
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(rx_partial_frame_across_polls),
    EPP_SCENARIO(rx_tail_before_contents_caught),
    EPP_SCENARIO(rx_blocked_data_write_is_posted),
    EPP_SCENARIO(rx_null_descriptor_skipped),
    EPP_SCENARIO(rx_fetch_limit_set_at_run_time),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    add_cases);
}
