/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The historical bug classes of descriptors and rings: zero-length and
 * zero-address descriptors, head or tail outside the ring, ring lengths
 * of 0 or not a multiple of 128, TSO with absurd MSS/HDRLEN/PAYLEN,
 * context descriptors without data.  Each runs wall-bounded
 * (robust.c) and asserts what each model does.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-scenario.h"
#include "robust.h"

/* ---------------------------------------------------------------- */
/* Zero-length and zero-address descriptors                         */
/* ---------------------------------------------------------------- */

static void tx_zero_length(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t desc[EPP_DESC_LEN];
    unsigned i, sent;

    /* Given: 62 descriptors of length 0 at address 0, legacy and data */
    epp_bring_up(d, &epp_default_config);
    for (i = 0; i < EPP_RING_COUNT - 2; i++) {
        if (i % 2) {
            epp_txd_data(desc, 0, 0, TXD_CMD_EOP | TXD_CMD_IFCS |
                         TXD_CMD_RS, 0);
        } else {
            epp_txd_legacy(desc, 0, 0, TXD_CMD_EOP | TXD_CMD_IFCS |
                           TXD_CMD_RS);
        }
        epp_tx_write(d, desc);
    }

    /* When: the tail hands them over */
    epp_tx_kick(d);

    /* Then: every one is done (DD, RS set) and QEMU answers */
    expect_tx_all_done(d, EPP_RING_COUNT - 2);
    sent = drain_wire(d);
    note("%s: %u frames on the wire from 62 empty descriptors", model,
         sent);
    /* Both models: an empty packet sends nothing */
    g_assert_cmpuint(sent, ==, 0);
    expect_responsive(d, "62 zero-length descriptors");
    epp_stop(d);
}

static void robust_tx_zero_length_descriptors(const char *model)
{
    bounded(model, tx_zero_length, RESPONSIVE);
}

static void rx_zero_address(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 128 };
    uint8_t f[LEN], got[LEN], wb[EPP_DESC_LEN];
    uint8_t low[LEN];
    int i;

    /* Given: four Rx descriptors whose buffer address is 0 */
    epp_bring_up(d, &epp_default_config);
    qtest_memread(d->qts, 0, low, LEN);
    for (i = 0; i < 4; i++) {
        epp_rx_post_addr(d->rx, 0);
    }

    /* When: a frame arrives */
    epp_frame_fill(f, LEN, false, 1);
    epp_inject(d, f, LEN);
    epp_rx_wait_dd(d->rx, 0);

    /*
     * Then: nothing lands at guest address 0. 82574L §7.1.7.2 null
     * descriptors: no data is stored, the descriptor comes back with DD
     * and every other bit unchanged; e1000e-pp uses all four that way
     * and the frame waits on the chip for a real buffer.
     */
    qtest_memread(d->qts, 0, got, LEN);
    epp_rx_desc_bytes(d->rx, 0, wb);
    if (epp_on_stock(model, "a buffer address of 0 means no buffer: the data "
                 "is dropped and the descriptor written back with length "
                 "0")) {
        g_assert_cmpmem(got, LEN, low, LEN);
        g_assert_cmpuint(epp_le16(wb + 8), ==, 0);
    } else {
        g_assert_cmpmem(got, LEN, low, LEN);
        g_assert_cmpuint(epp_le16(wb + 8), ==, 0);
        g_assert_cmphex(wb[12], ==, RXD_STA_DD);
        g_assert_cmpuint(epp_qom_u64(d, "rx-null-desc"), ==, 4);
        g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==, 0);
    }
    qtest_memwrite(d->qts, 0, low, LEN);
    expect_responsive(d, "a frame into a zero-address buffer");
    epp_stop(d);
}

static void robust_rx_zero_address_buffer(const char *model)
{
    bounded(model, rx_zero_address, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* Head or tail outside the ring; ring lengths 0 or unaligned        */
/* ---------------------------------------------------------------- */

static bool ring_untouched(EppDev *d, uint64_t ring, unsigned n)
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
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 100 };
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    unsigned i, sent;

    /* Given: both rings of 64, buffers posted, frames queued for Tx */
    epp_bring_up(d, &epp_default_config);
    for (i = 0; i < 8; i++) {
        epp_rx_post_addr(d->rx, epp_alloc(d, 2048));
    }
    epp_tx_eth_header(f, EPP_ETH_P_TEST);
    epp_fill_pattern(f + 14, LEN - 14, 7);
    epp_txd_legacy(desc, epp_alloc(d, LEN), LEN,
                   TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    for (i = 0; i < 8; i++) {
        epp_tx_write(d, desc);
    }

    /* When: heads and tails are written far outside the rings */
    epp_wr(d, RDH0, 1000);
    epp_wr(d, RDT0, 0xffff);
    epp_wr(d, TDH0, 5000);
    epp_wr(d, TDT0, 0xfff0);
    epp_frame_fill(f, LEN, false, 2);
    for (i = 0; i < 16; i++) {
        epp_inject(d, f, LEN);
    }
    epp_step(d, 10 * EPP_NS_PER_MS);

    /* Then: QEMU answers; neither ring does anything, on both models */
    expect_responsive(d, "head and tail outside the rings");
    sent = drain_wire(d);
    note("%s: RDH %u TDH %u, Rx ring %s, %u frames sent", model,
         epp_rd(d, RDH0), epp_rd(d, TDH0),
         ring_untouched(d, d->rx->ring, EPP_RING_COUNT) ? "untouched" :
         "written", sent);
    g_assert_true(ring_untouched(d, d->rx->ring, EPP_RING_COUNT));
    g_assert_true(ring_untouched(d, d->tx_ring, EPP_RING_COUNT));
    g_assert_cmpuint(sent, ==, 0);
    expect_responsive(d, "reading the rings back");
    epp_stop(d);
}

static void robust_head_tail_outside_ring(const char *model)
{
    bounded(model, head_tail_outside, RESPONSIVE);
}

static void ring_len_bad(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 100 };
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    unsigned i;
    static const uint32_t lens[] = { 0, 100, 0x80 + 16 };

    epp_bring_up(d, &epp_default_config);
    epp_tx_eth_header(f, EPP_ETH_P_TEST);
    epp_fill_pattern(f + 14, LEN - 14, 9);
    epp_txd_legacy(desc, epp_alloc(d, LEN), LEN,
                   TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    for (i = 0; i < 8; i++) {
        epp_tx_write(d, desc);
        epp_rx_post_addr(d->rx, epp_alloc(d, 2048));
    }
    for (i = 0; i < ARRAY_SIZE(lens); i++) {
        /*
         * Given: RDLEN/TDLEN of 0, 100 and 144 bytes (§10.2.5.6: the
         * length is a multiple of 128, bits 6:0 read as 0)
         */
        epp_wr(d, RDLEN0, lens[i]);
        epp_wr(d, TDLEN0, lens[i]);
        note("%s: RDLEN %u reads back 0x%x", model, lens[i],
                       epp_rd(d, RDLEN0));
        /* Both models */
        g_assert_cmphex(epp_rd(d, RDLEN0), ==, lens[i] & ~0x7fu);
        g_assert_cmphex(epp_rd(d, TDLEN0), ==, lens[i] & ~0x7fu);

        /* When: tails move and frames arrive */
        epp_wr(d, RDT0, 5);
        epp_wr(d, TDT0, 5);
        epp_frame_fill(f, LEN, false, i);
        epp_inject(d, f, LEN);
        epp_step(d, 10 * EPP_NS_PER_MS);

        /* Then: QEMU answers */
        expect_responsive(d, "a ring length of 0 or below 128");
    }
    note("%s: %u frames sent, RDH %u TDH %u", model,
                   drain_wire(d), epp_rd(d, RDH0), epp_rd(d, TDH0));
    epp_stop(d);
}

static void robust_ring_length_zero_or_unaligned(const char *model)
{
    bounded(model, ring_len_bad, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* TSO with absurd values; context descriptors without data          */
/* ---------------------------------------------------------------- */

/*
 * Frames on the wire: e1000e-pp sends nothing for a TSO it cannot cut
 * (MSS 0 or 1, a header that is not there), and for a PAYLEN that
 * disagrees with the data the segments the data fills; stock e1000e
 * sends each packet once, whatever the context says.
 */
typedef struct AbsurdTso {
    const char *what;
    uint8_t hdrlen;
    uint16_t mss;
    uint32_t paylen;
    uint32_t data_len;        /* bytes the data descriptor really has */
    unsigned pp_frames, stock_frames;
} AbsurdTso;

static const AbsurdTso absurd[] = {
    { "MSS 0", 54, 0, 1000, 54 + 1000, 0, 1 },
    { "MSS 1", 54, 1, 300, 54 + 300, 0, 1 },
    { "HDRLEN 255 beyond the data", 255, 536, 1000, 100, 0, 1 },
    { "HDRLEN 0", 0, 536, 1000, 1000, 0, 1 },
    { "PAYLEN 0xfffff, 100 bytes of data", 54, 1448, 0xfffff, 100, 1, 1 },
    { "PAYLEN 0 with data", 54, 536, 0, 1054, 2, 1 },
    { "MSS 0xffff", 54, 0xffff, 9000, 54 + 9000, 1, 1 },
};

static void tso_absurd(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t desc[EPP_DESC_LEN];
    uint64_t buf;
    unsigned i, n = 0, sent;

    epp_bring_up(d, &epp_default_config);
    buf = epp_alloc(d, 65536);
    for (i = 0; i < ARRAY_SIZE(absurd); i++) {
        const AbsurdTso *t = &absurd[i];
        uint32_t dlen = t->data_len;

        /* Given: a TSO context with absurd values, then its data */
        epp_txd_context(desc, 14, 24, 33, 34, 50, 0,
                        t->paylen | TXD_CTX_TUCMD_TSE |
                        TXD_CTX_TUCMD_IP | TXD_CTX_TUCMD_TCP);
        stl_le_p(desc + 12, (uint32_t)t->hdrlen << 8 |
                 (uint32_t)t->mss << 16);
        epp_tx_write(d, desc);
        epp_txd_data(desc, buf, dlen, TXD_CMD_EOP | TXD_CMD_IFCS |
                     TXD_CMD_RS | TXD_CMD_TSE,
                     TXD_POPTS_IXSM | TXD_POPTS_TXSM);
        epp_tx_write(d, desc);
        n += 2;

        /* When: it is handed over */
        epp_tx_kick(d);
        epp_tx_wait_done(d);

        /* Then: QEMU answers and the ring moves on */
        sent = drain_wire(d);
        note("%s, %s: %u frames", model, t->what, sent);
        g_assert_cmpuint(sent, ==, epp_by_model(model, t->pp_frames,
                                             t->stock_frames));
        expect_responsive(d, t->what);
    }
    epp_stop(d);
}

static void robust_tso_absurd_mss_hdrlen_paylen(const char *model)
{
    bounded(model, tso_absurd, RESPONSIVE);
}

static void context_only(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t desc[EPP_DESC_LEN];
    unsigned i;

    /* Given: 63 context descriptors (TSE, RS) and no data descriptor */
    epp_bring_up(d, &epp_default_config);
    for (i = 0; i < EPP_RING_COUNT - 1; i++) {
        epp_txd_context(desc, 14, 24, 33, 34, 50, 0,
                        9000 | TXD_CTX_TUCMD_TSE | TXD_CTX_TUCMD_IP |
                        TXD_CTX_TUCMD_TCP | TXD_CMD_RS);
        stl_le_p(desc + 12, 54u << 8 | 1448u << 16);
        epp_tx_write(d, desc);
    }

    /* When: handed over */
    epp_tx_kick(d);

    /* Then: each is done and nothing reaches the wire */
    expect_tx_all_done(d, EPP_RING_COUNT - 1);
    epp_expect_wire_idle(d);
    expect_responsive(d, "context descriptors without data");
    epp_stop(d);
}

static void robust_context_descriptors_without_data(const char *model)
{
    bounded(model, context_only, RESPONSIVE);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(robust_tx_zero_length_descriptors),
    EPP_SCENARIO(robust_rx_zero_address_buffer),
    EPP_SCENARIO(robust_head_tail_outside_ring),
    EPP_SCENARIO(robust_ring_length_zero_or_unaligned),
    EPP_SCENARIO(robust_tso_absurd_mss_hdrlen_paylen),
    EPP_SCENARIO(robust_context_descriptors_without_data),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
