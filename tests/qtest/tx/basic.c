/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: legacy and data descriptors, bytes on the wire.
 * Given/when/then against the 82574L datasheet.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"
#include "tx.h"

/* ---------------------------------------------------------------- */
/* Transmit                                                         */
/* ---------------------------------------------------------------- */

static void tx_legacy_descriptor_frame_bytes(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t a[60], b[100], c[1514];
    uint8_t desc[4][EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint64_t ga, gb, gc;
    int i;

    /* Given: a device up, three frames in guest memory */
    epp_bring_up(d, &epp_default_config);
    epp_frame_fill(a, sizeof(a), false, 0x10);
    epp_frame_fill(b, sizeof(b), false, 0x20);
    epp_frame_fill(c, sizeof(c), false, 0x30);
    ga = epp_alloc(d, sizeof(a));
    gb = epp_alloc(d, sizeof(b));
    gc = epp_alloc(d, sizeof(c));
    epp_memwrite(d, ga, a, sizeof(a));
    epp_memwrite(d, gb, b, sizeof(b));
    epp_memwrite(d, gc, c, sizeof(c));

    /*
     * When: four legacy descriptors are queued with one TDT write:
     * A with RS, B without RS, C split over two descriptors, RS on the
     * last one only.
     */
    epp_txd_legacy(desc[0], ga, sizeof(a),
                   TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    epp_txd_legacy(desc[1], gb, sizeof(b), TXD_CMD_EOP | TXD_CMD_IFCS);
    epp_txd_legacy(desc[2], gc, 1000, TXD_CMD_IFCS);
    epp_txd_legacy(desc[3], gc + 1000, sizeof(c) - 1000,
                   TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    for (i = 0; i < 4; i++) {
        epp_tx_write(d, desc[i]);
    }
    epp_tx_kick(d);
    epp_tx_wait_done(d);

    /* Then: exactly three frames, byte for byte, and nothing else */
    epp_expect_frame(d, a, sizeof(a), "frame a");
    epp_expect_frame(d, b, sizeof(b), "frame b");
    epp_expect_frame(d, c, sizeof(c), "frame c");
    g_assert_true(epp_wire_idle(d));

    /* Then: DD only where RS asked; nothing else in a descriptor changed */
    for (i = 0; i < 4; i++) {
        bool rs = i == 0 || i == 3;

        epp_tx_desc(d, i, wb);
        g_assert_cmpmem(wb, 12, desc[i], 12);
        g_assert_cmphex(epp_le32(wb + 12), ==, rs ? TXD_STA_DD : 0);
    }
    epp_stop(d);
}

static void tx_data_descriptor_frame_bytes(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { HDR = 14 + 20 + 8, PAY = 58, LEN = HDR + PAY };
    uint8_t f[LEN], want[LEN], desc[3][EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint8_t *ip = f + 14, *udp = f + 34;
    uint64_t g;
    uint32_t sum;
    uint16_t csum;
    int i;

    /* Given: a device up, an IPv4/UDP frame as the stack hands it over */
    epp_bring_up(d, &epp_default_config);
    epp_frame_fill(f, LEN, false, 0x40);
    f[12] = 0x08;
    f[13] = 0x00;
    memcpy(ip, (uint8_t[]) {
        0x45, 0x00, 0x00, 20 + 8 + PAY,     /* version/IHL, TOS, length */
        0x12, 0x34, 0x00, 0x00,             /* ID, flags/fragment */
        0x40, 0x11, 0x00, 0x00,             /* TTL, UDP, checksum = 0 */
        198, 18, 0, 2, 198, 18, 0, 1,       /* 198.18.0.2 -> 198.18.0.1 */
    }, 20);
    memcpy(udp, (uint8_t[]) {
        0x30, 0x39, 0x01, 0xbb, 0x00, 8 + PAY, 0x00, 0x00,
    }, 8);

    /* Expected bytes: the IPv4 header checksum ... */
    memcpy(want, f, LEN);
    stw_be_p(want + 14 + 10, ~epp_csum_fold(epp_csum_add(0, ip, 20)) & 0xffff);
    /* ... and the UDP checksum over pseudo-header, header and payload */
    sum = epp_csum_add(0, ip + 12, 8) + 0x11 + 8 + PAY;
    sum = epp_csum_add(sum, udp, 8 + PAY);
    csum = ~epp_csum_fold(sum) & 0xffff;
    g_assert_cmphex(csum, !=, 0);
    stw_be_p(want + 34 + 6, csum);

    /* The stack seeds the UDP checksum field with the pseudo-header sum */
    stw_be_p(udp + 6,
             epp_csum_fold(epp_csum_add(0, ip + 12, 8) + 0x11 + 8 + PAY));
    g = epp_alloc(d, LEN);
    epp_memwrite(d, g, f, LEN);

    /*
     * When: a context descriptor (IP header 14..33, checksum at 24; UDP
     * from 34 to the end, checksum at 40) and two data descriptors
     * (header, payload) with IXSM|TXSM are queued.
     */
    epp_txd_context(desc[0], 14, 24, 33, 34, 40, 0, TXD_CTX_TUCMD_IP);
    epp_txd_data(desc[1], g, HDR, TXD_CMD_IFCS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    epp_txd_data(desc[2], g + HDR, PAY,
                 TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    for (i = 0; i < 3; i++) {
        epp_tx_write(d, desc[i]);
    }
    epp_tx_kick(d);
    epp_tx_wait_done(d);

    /* Then: one frame with both checksums filled in, nothing else */
    epp_expect_frame(d, want, LEN, "the UDP frame");
    g_assert_true(epp_wire_idle(d));

    /* Then: DD on the RS descriptor only */
    for (i = 0; i < 3; i++) {
        epp_tx_desc(d, i, wb);
        g_assert_cmphex(epp_le32(wb + 12) & TXD_STA_DD, ==,
                        i == 2 ? TXD_STA_DD : 0);
    }
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(tx_legacy_descriptor_frame_bytes),
    EPP_SCENARIO(tx_data_descriptor_frame_bytes),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
