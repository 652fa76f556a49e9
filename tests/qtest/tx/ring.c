/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: the transmit ring rules: a packet across TDT writes, DD only
 * where RS asks, ring wrap, TDT outside the ring.
 * Given/when/then against the 82574L datasheet; see lib/e1000e-pp-scenario.h.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "tx.h"

/* ---------------------------------------------------------------- */
/* Ring rules                                                       */
/* ---------------------------------------------------------------- */

static void tx_packet_across_two_tdt_writes(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 1000 };
    uint8_t f[LEN], desc[2][EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint64_t g;

    /* Given: a device up, one frame in guest memory */
    epp_bring_up(d, &epp_default_config);
    epp_tx_eth_header(f, 0x88b5);
    epp_fill_pattern(f + 14, LEN - 14, 0x66);
    g = put_guest(d, f, LEN);

    /* When: its first descriptor (no EOP) is handed over alone */
    epp_txd_legacy(desc[0], g, 300, TXD_CMD_IFCS);
    epp_tx_push(d, desc[0]);
    epp_step(d, EPP_NS_PER_MS);

    /* Then: nothing is sent; the device took the descriptor (TDH 1) */
    epp_expect_wire_idle(d);
    EPP_EXPECT_REG(d, TDH0, 0xffff, 1);

    /* When: the rest follows with a second TDT write */
    epp_txd_legacy(desc[1], g + 300, LEN - 300,
                   TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    epp_tx_push(d, desc[1]);
    epp_tx_wait_done(d);
    if (epp_on_stock(model, "the bytes of the descriptor handed over by the "
                 "first TDT write are lost (700 of 1000 bytes sent)")) {
        epp_expect_frame(d, f + 300, LEN - 300, "the second descriptor alone");
    } else {
        /* Then: one frame with all bytes in order */
        epp_expect_frame(d, f, LEN, "frame over two TDT writes");
    }
    /* Then: DD on the RS descriptor only */
    epp_expect_wire_idle(d);
    epp_tx_desc(d, 0, wb);
    g_assert_cmphex(wb[12] & TXD_STA_DD, ==, 0);
    epp_tx_desc(d, 1, wb);
    g_assert_cmphex(wb[12] & TXD_STA_DD, ==, TXD_STA_DD);
    epp_stop(d);
}

static void tx_dd_only_where_rs(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { N = 8, LEN = 80 };
    uint8_t f[N][LEN], desc[N + 2][EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint64_t g[N];
    int i;

    /* Given: a device up, eight frames */
    epp_bring_up(d, &epp_default_config);
    for (i = 0; i < N; i++) {
        epp_tx_eth_header(f[i], 0x88b5);
        epp_fill_pattern(f[i] + 14, LEN - 14, i * 17);
        g[i] = put_guest(d, f[i], LEN);
    }

    /*
     * When: eight single-descriptor packets, RS on the odd ones; then a
     * context descriptor with RS (TUCMD.RS, §7.2.10.2) and a data
     * descriptor without.
     */
    for (i = 0; i < N; i++) {
        epp_txd_legacy(desc[i], g[i], LEN, TXD_CMD_EOP | TXD_CMD_IFCS |
                       (i & 1 ? TXD_CMD_RS : 0));
    }
    txd_context_tso(desc[N], 14, 24, 33, 34, 40, 0, 0, TXD_CMD_RS, 0, 0);
    epp_txd_data(desc[N + 1], g[0], LEN, TXD_CMD_EOP | TXD_CMD_IFCS,
                 0);
    push_all(d, desc, N + 2);

    /* Then: every frame on the wire, in order */
    for (i = 0; i < N; i++) {
        epp_expect_frame(d, f[i], LEN, "RS/DD frame");
    }
    epp_expect_frame(d, f[0], LEN, "data after context");
    epp_expect_wire_idle(d);

    /*
     * Then: DD exactly where RS was set; every other byte of every
     * descriptor is as the driver wrote it (§7.2.3: only STA changes).
     */
    for (i = 0; i < N + 2; i++) {
        bool rs = (i < N && (i & 1)) || i == N;

        epp_tx_desc(d, i, wb);
        g_assert_cmpmem(wb, 12, desc[i], 12);
        g_assert_cmphex(wb[12], ==, desc[i][12] | (rs ? TXD_STA_DD : 0));
        g_assert_cmpmem(wb + 13, 3, desc[i] + 13, 3);
    }
    epp_stop(d);
}

static void tx_ring_wrap(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { FIRST = 50, SECOND = 30, LEN = 64 };
    uint8_t f[FIRST + SECOND][LEN], desc[EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint64_t g = 0;
    int i;

    /* Given: a device up, a 64-descriptor ring */
    epp_bring_up(d, &epp_default_config);
    EPP_EXPECT_REG(d, TDLEN0, 0xffffffff, EPP_RING_COUNT * EPP_DESC_LEN);
    for (i = 0; i < FIRST + SECOND; i++) {
        epp_tx_eth_header(f[i], 0x88b5);
        stw_be_p(f[i] + 14, i);
        epp_fill_pattern(f[i] + 16, LEN - 16, i);
    }

    /* When: 50 frames, then 30 more that cross the end of the ring */
    for (i = 0; i < FIRST + SECOND; i++) {
        g = put_guest(d, f[i], LEN);
        epp_txd_legacy(desc, g, LEN,
                       TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
        epp_tx_write(d, desc);
        if (i == FIRST - 1 || i == FIRST + SECOND - 1) {
            epp_tx_kick(d);
            epp_tx_wait_done(d);
        }
    }

    /* Then: 80 frames in order; TDH wrapped to 80 - 64 = 16 */
    for (i = 0; i < FIRST + SECOND; i++) {
        g_autofree char *what = g_strdup_printf("frame %d", i);

        epp_expect_frame(d, f[i], LEN, what);
    }
    epp_expect_wire_idle(d);
    EPP_EXPECT_REG(d, TDH0, 0xffff, (FIRST + SECOND) % EPP_RING_COUNT);
    for (i = 0; i < EPP_RING_COUNT; i++) {
        epp_tx_desc(d, i, wb);
        g_assert_cmphex(wb[12] & TXD_STA_DD, ==, TXD_STA_DD);
    }
    epp_stop(d);
}

static void tx_tdt_outside_ring_ignored(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 70 };
    uint8_t f[2][LEN], desc[EPP_DESC_LEN];
    int i;

    /* Given: a device up, two frames queued in descriptors 0 and 1 */
    epp_bring_up(d, &epp_default_config);
    for (i = 0; i < 2; i++) {
        epp_tx_eth_header(f[i], 0x88b5);
        epp_fill_pattern(f[i] + 14, LEN - 14, 0x80 + i);
        epp_txd_legacy(desc, put_guest(d, f[i], LEN), LEN,
                       TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
        epp_tx_write(d, desc);
    }

    /*
     * When: TDT is written beyond the ring (64 entries): 64, 100, 0xffff.
     * A guest error: the device must neither send nor walk off the ring
     * nor hang.
     */
    epp_wr(d, TDT0, EPP_RING_COUNT);
    epp_step(d, EPP_NS_PER_MS);
    epp_wr(d, TDT0, 100);
    epp_step(d, EPP_NS_PER_MS);
    epp_wr(d, TDT0, 0xffff);
    epp_step(d, EPP_NS_PER_MS);

    /* Then: nothing sent, TDH still 0 */
    epp_expect_wire_idle(d);
    EPP_EXPECT_REG(d, TDH0, 0xffff, 0);

    /* When: a valid TDT follows; Then: the device resumes normally */
    epp_tx_kick(d);
    epp_tx_wait_done(d);
    epp_expect_frame(d, f[0], LEN, "first frame after recovery");
    epp_expect_frame(d, f[1], LEN, "second frame after recovery");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(tx_packet_across_two_tdt_writes),
    EPP_SCENARIO(tx_dd_only_where_rs),
    EPP_SCENARIO(tx_ring_wrap),
    EPP_SCENARIO(tx_tdt_outside_ring_ignored),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
