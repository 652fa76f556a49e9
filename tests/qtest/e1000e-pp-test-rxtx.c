/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: statistics, transmit and receive bytes on the wire.
 * Given/when/then against the 82574L datasheet; see e1000e-pp-test.c.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-test.h"

/* ---------------------------------------------------------------- */
/* Statistics                                                       */
/* ---------------------------------------------------------------- */

void stats_clear_on_read(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { NFRAMES = 3, LEN = 60 };
    uint8_t frame[LEN], got[2048], desc[EPP_DESC_LEN];
    uint64_t buf = e1000epp_alloc(d, LEN);
    uint32_t idx = 0;
    int i;

    /* Given: a device up, counters cleared by bring-up */
    e1000epp_bring_up(d, &e1000epp_default_config);

    /* When: three 60-byte frames are sent and two are received */
    make_frame(frame, LEN, 1);
    e1000epp_memwrite(d, buf, frame, LEN);
    for (i = 0; i < NFRAMES; i++) {
        e1000epp_txd_legacy(desc, buf, LEN,
                            TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
        e1000epp_tx_push(d, desc);
    }
    e1000epp_tx_wait_done(d);
    for (i = 0; i < NFRAMES; i++) {
        g_assert_cmpuint(e1000epp_collect(d, got, sizeof(got)), ==, LEN);
    }
    for (i = 0; i < 2; i++) {
        idx = e1000epp_rx_post(d, e1000epp_alloc(d, 2048));
        e1000epp_inject(d, frame, LEN);
        e1000epp_rx_wait_dd(d, idx);
    }

    /* Then: exact counts; octets include the 4-byte FCS */
    EPP_EXPECT_REG(d, GPTC, 0xffffffff, NFRAMES);
    EPP_EXPECT_REG(d, TPT, 0xffffffff, NFRAMES);
    EPP_EXPECT_REG(d, GOTCL, 0xffffffff, NFRAMES * (LEN + 4));
    EPP_EXPECT_REG(d, GOTCH, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GPRC, 0xffffffff, 2);
    EPP_EXPECT_REG(d, TPR, 0xffffffff, 2);
    EPP_EXPECT_REG(d, GORCL, 0xffffffff, 2 * (LEN + 4));
    EPP_EXPECT_REG(d, GORCH, 0xffffffff, 0);

    /* Then: a second read finds every one of them cleared */
    EPP_EXPECT_REG(d, GPTC, 0xffffffff, 0);
    EPP_EXPECT_REG(d, TPT, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GOTCL, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GOTCH, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GPRC, 0xffffffff, 0);
    EPP_EXPECT_REG(d, TPR, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GORCL, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GORCH, 0xffffffff, 0);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Transmit                                                         */
/* ---------------------------------------------------------------- */

static void expect_wire_frame(E1000epp *d, const uint8_t *want, size_t len)
{
    g_autofree uint8_t *got = g_malloc(16384);
    size_t n = e1000epp_collect(d, got, 16384);

    g_assert_cmpuint(n, ==, len);
    g_assert_cmpmem(got, n, want, len);
}

void tx_legacy_descriptor_frame_bytes(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    uint8_t a[60], b[100], c[1514];
    uint8_t desc[4][EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint64_t ga, gb, gc;
    int i;

    /* Given: a device up, three frames in guest memory */
    e1000epp_bring_up(d, &e1000epp_default_config);
    make_frame(a, sizeof(a), 0x10);
    make_frame(b, sizeof(b), 0x20);
    make_frame(c, sizeof(c), 0x30);
    ga = e1000epp_alloc(d, sizeof(a));
    gb = e1000epp_alloc(d, sizeof(b));
    gc = e1000epp_alloc(d, sizeof(c));
    e1000epp_memwrite(d, ga, a, sizeof(a));
    e1000epp_memwrite(d, gb, b, sizeof(b));
    e1000epp_memwrite(d, gc, c, sizeof(c));

    /*
     * When: four legacy descriptors are queued with one TDT write:
     * A with RS, B without RS, C split over two descriptors, RS on the
     * last one only.
     */
    e1000epp_txd_legacy(desc[0], ga, sizeof(a),
                        TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    e1000epp_txd_legacy(desc[1], gb, sizeof(b), TXD_CMD_EOP | TXD_CMD_IFCS);
    e1000epp_txd_legacy(desc[2], gc, 1000, TXD_CMD_IFCS);
    e1000epp_txd_legacy(desc[3], gc + 1000, sizeof(c) - 1000,
                        TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    for (i = 0; i < 4; i++) {
        e1000epp_tx_write(d, desc[i]);
    }
    e1000epp_tx_kick(d);
    e1000epp_tx_wait_done(d);

    /* Then: exactly three frames, byte for byte, and nothing else */
    expect_wire_frame(d, a, sizeof(a));
    expect_wire_frame(d, b, sizeof(b));
    expect_wire_frame(d, c, sizeof(c));
    g_assert_true(e1000epp_wire_idle(d));

    /* Then: DD only where RS asked; nothing else in a descriptor changed */
    for (i = 0; i < 4; i++) {
        bool rs = i == 0 || i == 3;

        e1000epp_tx_desc(d, i, wb);
        g_assert_cmpmem(wb, 12, desc[i], 12);
        g_assert_cmphex(e1000epp_le32(wb + 12), ==, rs ? TXD_STA_DD : 0);
    }
    e1000epp_stop(d);
}

/* Internet checksum (RFC 1071) helpers */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += (p[i] << 8) | p[i + 1];
    }
    if (len & 1) {
        sum += p[len - 1] << 8;
    }
    return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return sum;
}

void tx_data_descriptor_frame_bytes(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    enum { HDR = 14 + 20 + 8, PAY = 58, LEN = HDR + PAY };
    uint8_t f[LEN], want[LEN], desc[3][EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint8_t *ip = f + 14, *udp = f + 34;
    uint64_t g;
    uint32_t sum;
    uint16_t csum;
    int i;

    /* Given: a device up, an IPv4/UDP frame as the stack hands it over */
    e1000epp_bring_up(d, &e1000epp_default_config);
    make_frame(f, LEN, 0x40);
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
    stw_be_p(want + 14 + 10, ~csum_fold(csum_add(0, ip, 20)) & 0xffff);
    /* ... and the UDP checksum over pseudo-header, header and payload */
    sum = csum_add(0, ip + 12, 8) + 0x11 + 8 + PAY;
    sum = csum_add(sum, udp, 8 + PAY);
    csum = ~csum_fold(sum) & 0xffff;
    g_assert_cmphex(csum, !=, 0);
    stw_be_p(want + 34 + 6, csum);

    /* The stack seeds the UDP checksum field with the pseudo-header sum */
    stw_be_p(udp + 6,
             csum_fold(csum_add(0, ip + 12, 8) + 0x11 + 8 + PAY));
    g = e1000epp_alloc(d, LEN);
    e1000epp_memwrite(d, g, f, LEN);

    /*
     * When: a context descriptor (IP header 14..33, checksum at 24; UDP
     * from 34 to the end, checksum at 40) and two data descriptors
     * (header, payload) with IXSM|TXSM are queued.
     */
    e1000epp_txd_context(desc[0], 14, 24, 33, 34, 40, 0, TXD_CTX_TUCMD_IP);
    e1000epp_txd_data(desc[1], g, HDR, TXD_CMD_IFCS,
                      TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    e1000epp_txd_data(desc[2], g + HDR, PAY,
                      TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS,
                      TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    for (i = 0; i < 3; i++) {
        e1000epp_tx_write(d, desc[i]);
    }
    e1000epp_tx_kick(d);
    e1000epp_tx_wait_done(d);

    /* Then: one frame with both checksums filled in, nothing else */
    expect_wire_frame(d, want, LEN);
    g_assert_true(e1000epp_wire_idle(d));

    /* Then: DD on the RS descriptor only */
    for (i = 0; i < 3; i++) {
        e1000epp_tx_desc(d, i, wb);
        g_assert_cmphex(e1000epp_le32(wb + 12) & TXD_STA_DD, ==,
                        i == 2 ? TXD_STA_DD : 0);
    }
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Receive                                                          */
/* ---------------------------------------------------------------- */

/*
 * Shared body of the Rx byte scenarios: post four 2 KiB buffers filled
 * with 0xa5, inject a 60-byte and a 1514-byte frame, and check the
 * buffers, the write-backs and the untouched third descriptor.
 */
static void rx_frame_bytes(const char *model, bool extended)
{
    E1000epp *d = e1000epp_start(model, NULL);
    E1000eppConfig cfg = e1000epp_default_config;
    static const size_t lens[2] = { 60, 1514 };
    uint8_t frame[1514], got[2048], fill[2048], desc[EPP_DESC_LEN];
    uint64_t buf[4];
    uint32_t len, status, errors;
    int i;

    /* Given: a device up, RCTL.SECRC=1, 2 KiB buffers, four posted */
    cfg.rx_extended = extended;
    e1000epp_bring_up(d, &cfg);
    memset(fill, 0xa5, sizeof(fill));
    for (i = 0; i < 4; i++) {
        buf[i] = e1000epp_alloc(d, 2048);
        e1000epp_memwrite(d, buf[i], fill, sizeof(fill));
        e1000epp_rx_post(d, buf[i]);
    }

    for (i = 0; i < 2; i++) {
        /* When: a frame to our MAC arrives on the wire */
        make_frame(frame, lens[i], 0x50 + i);
        e1000epp_inject(d, frame, lens[i]);
        e1000epp_rx_wait_dd(d, i);

        /* Then: the buffer holds the frame and nothing past it */
        e1000epp_memread(d, buf[i], got, sizeof(got));
        g_assert_cmpmem(got, lens[i], frame, lens[i]);
        g_assert_cmpmem(got + lens[i], sizeof(got) - lens[i],
                        fill + lens[i], sizeof(got) - lens[i]);

        /* Then: length exact, DD|EOP, no errors */
        e1000epp_rx_desc(d, i, desc);
        if (extended) {
            /* Extended write-back: status/errors dword 2, length dword 3 */
            status = e1000epp_le32(desc + 8) & 0xfffff;
            errors = e1000epp_le32(desc + 8) >> 20;
            len = e1000epp_le16(desc + 12);
        } else {
            /* Legacy: length, checksum, status, errors, special */
            len = e1000epp_le16(desc + 8);
            status = desc[12];
            errors = desc[13];
            g_assert_cmphex(ldq_le_p(desc), ==, buf[i]);
        }
        g_test_message("Rx %u bytes: status 0x%x errors 0x%x",
                       len, status, errors);
        g_assert_cmpuint(len, ==, lens[i]);
        g_assert_cmphex(status & (RXD_STA_DD | RXD_STA_EOP), ==,
                        RXD_STA_DD | RXD_STA_EOP);
        g_assert_cmphex(errors, ==, 0);
    }

    /* Then: two descriptors consumed, the third untouched */
    EPP_EXPECT_REG(d, RDH0, 0xffffffff, 2);
    e1000epp_rx_desc(d, 2, desc);
    g_assert_cmphex(ldq_le_p(desc), ==, buf[2]);
    g_assert_cmphex(ldq_le_p(desc + 8), ==, 0);
    e1000epp_stop(d);
}

void rx_legacy_frame_bytes(const char *model)
{
    rx_frame_bytes(model, false);
}

void rx_extended_frame_bytes(const char *model)
{
    rx_frame_bytes(model, true);
}

/*
 * RCTL.SECRC=0: the FCS is part of the frame as far as the buffers are
 * concerned.  With 256-byte buffers a frame of N bytes takes
 * ceil((N + 4) / 256) descriptors, EOP on the last one only, and the
 * four FCS bytes (CRC-32, least significant byte first) may straddle.
 *
 * stock e1000e: fills ceil(N / 256) descriptors with the frame, then
 * writes four zero bytes as the FCS in a descriptor of their own; every
 * frame costs one extra descriptor.  Asserted as such.
 */
void rx_fcs_straddles_descriptors(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);
    E1000eppConfig cfg = e1000epp_default_config;
    static const size_t lens[] = { 60, 254, 256 };
    enum { BUF = 256, NBUF = 8 };
    uint8_t frame[256 + 4], got[NBUF * BUF], desc[EPP_DESC_LEN];
    size_t seg[NBUF];
    uint64_t buf[NBUF];
    uint32_t idx = 0, fcs;
    size_t i, total, ndesc, k, off;
    bool stock = is_stock(model);

    /* Given: a device up, CRC kept, 256-byte buffers, eight posted */
    cfg.keep_crc = true;
    cfg.rctl_bsize = RCTL_BSIZE_256;
    e1000epp_bring_up(d, &cfg);
    for (i = 0; i < NBUF; i++) {
        buf[i] = e1000epp_alloc(d, BUF);
        e1000epp_rx_post(d, buf[i]);
    }

    for (i = 0; i < ARRAY_SIZE(lens); i++) {
        /* When: a frame of 60, 254 or 256 bytes arrives */
        make_frame(frame, lens[i], 0x70 + i);
        e1000epp_inject(d, frame, lens[i]);

        /* Expected buffer fill: frame and FCS back to back */
        total = lens[i] + 4;
        fcs = stock ? 0 : e1000epp_fcs(frame, lens[i]);
        stl_le_p(frame + lens[i], fcs);
        ndesc = 0;
        for (off = 0; off < total; off += seg[ndesc++]) {
            seg[ndesc] = MIN(total - off, BUF);
            if (stock && off < lens[i]) {
                seg[ndesc] = MIN(lens[i] - off, BUF);
            }
        }
        g_assert_cmpuint(idx + ndesc, <=, NBUF);
        e1000epp_rx_wait_dd(d, idx + ndesc - 1);

        /* Then: every descriptor as expected, EOP on the last only */
        for (k = 0, off = 0; k < ndesc; off += seg[k], k++) {
            e1000epp_rx_desc(d, idx + k, desc);
            g_test_message("frame %zu descriptor %zu: length %u status 0x%x",
                           lens[i], idx + k, e1000epp_le16(desc + 8),
                           desc[12]);
            g_assert_cmpuint(e1000epp_le16(desc + 8), ==, seg[k]);
            g_assert_cmphex(desc[12] & (RXD_STA_DD | RXD_STA_EOP), ==,
                            RXD_STA_DD | (k == ndesc - 1 ? RXD_STA_EOP : 0));
            g_assert_cmphex(desc[13], ==, 0);
            e1000epp_memread(d, buf[idx + k], got + off, seg[k]);
        }
        /* Then: the buffers hold the frame and its FCS byte for byte */
        g_assert_cmpmem(got, total, frame, total);
        idx += ndesc;
    }

    /* Then: 1 + 2 + 2 descriptors used (stock: 2 + 2 + 2) */
    EPP_EXPECT_REG(d, RDH0, 0xffffffff, stock ? 6 : 5);
    e1000epp_stop(d);
}
