/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: receive bytes, write-backs and the FCS across descriptors
 * with the plain ring verbs of the driver.
 * Given/when/then against the 82574L datasheet.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-scenario.h"
#include "rx.h"

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
    EppDev *d = epp_start(model, NULL);
    EppConfig cfg = epp_default_config;
    static const size_t lens[2] = { 60, 1514 };
    uint8_t frame[1514], got[2048], fill[2048], desc[EPP_DESC_LEN];
    uint64_t buf[4];
    uint32_t len, status, errors;
    int i;

    /* Given: a device up, RCTL.SECRC=1, 2 KiB buffers, four posted */
    cfg.rx_extended = extended;
    epp_bring_up(d, &cfg);
    memset(fill, 0xa5, sizeof(fill));
    for (i = 0; i < 4; i++) {
        buf[i] = epp_alloc(d, 2048);
        epp_memwrite(d, buf[i], fill, sizeof(fill));
        epp_rx_post_addr(d->rx, buf[i]);
    }

    for (i = 0; i < 2; i++) {
        /* When: a frame to our MAC arrives on the wire */
        epp_frame_fill(frame, lens[i], false, 0x50 + i);
        epp_inject(d, frame, lens[i]);
        epp_rx_wait_dd(d->rx, i);

        /* Then: the buffer holds the frame and nothing past it */
        epp_memread(d, buf[i], got, sizeof(got));
        g_assert_cmpmem(got, lens[i], frame, lens[i]);
        g_assert_cmpmem(got + lens[i], sizeof(got) - lens[i],
                        fill + lens[i], sizeof(got) - lens[i]);

        /* Then: length exact, DD|EOP, no errors */
        epp_rx_desc_bytes(d->rx, i, desc);
        if (extended) {
            /* Extended write-back: status/errors dword 2, length dword 3 */
            status = epp_le32(desc + 8) & 0xfffff;
            errors = epp_le32(desc + 8) >> 20;
            len = epp_le16(desc + 12);
        } else {
            /* Legacy: length, checksum, status, errors, special */
            len = epp_le16(desc + 8);
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
    epp_rx_desc_bytes(d->rx, 2, desc);
    g_assert_cmphex(ldq_le_p(desc), ==, buf[2]);
    g_assert_cmphex(ldq_le_p(desc + 8), ==, 0);
    epp_stop(d);
}

static void rx_legacy_frame_bytes(const char *model)
{
    rx_frame_bytes(model, false);
}

static void rx_extended_frame_bytes(const char *model)
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
static void rx_fcs_straddles_descriptors(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    EppConfig cfg = epp_default_config;
    static const size_t lens[] = { 60, 254, 256 };
    enum { BUF = 256, NBUF = 8 };
    uint8_t frame[256 + 4], got[NBUF * BUF], desc[EPP_DESC_LEN];
    size_t seg[NBUF];
    uint64_t buf[NBUF];
    uint32_t idx = 0, fcs;
    size_t i, total, ndesc, k, off;
    bool stock = epp_is_stock(model);

    /* Given: a device up, CRC kept, 256-byte buffers, eight posted */
    cfg.keep_crc = true;
    cfg.rctl_bsize = RCTL_BSIZE_256;
    epp_bring_up(d, &cfg);
    for (i = 0; i < NBUF; i++) {
        buf[i] = epp_alloc(d, BUF);
        epp_rx_post_addr(d->rx, buf[i]);
    }

    for (i = 0; i < ARRAY_SIZE(lens); i++) {
        /* When: a frame of 60, 254 or 256 bytes arrives */
        epp_frame_fill(frame, lens[i], false, 0x70 + i);
        epp_inject(d, frame, lens[i]);

        /* Expected buffer fill: frame and FCS back to back */
        total = lens[i] + 4;
        fcs = stock ? 0 : epp_fcs(frame, lens[i]);
        stl_le_p(frame + lens[i], fcs);
        ndesc = 0;
        for (off = 0; off < total; off += seg[ndesc++]) {
            seg[ndesc] = MIN(total - off, BUF);
            if (stock && off < lens[i]) {
                seg[ndesc] = MIN(lens[i] - off, BUF);
            }
        }
        g_assert_cmpuint(idx + ndesc, <=, NBUF);
        epp_rx_wait_dd(d->rx, idx + ndesc - 1);

        /* Then: every descriptor as expected, EOP on the last only */
        for (k = 0, off = 0; k < ndesc; off += seg[k], k++) {
            epp_rx_desc_bytes(d->rx, idx + k, desc);
            g_test_message("frame %zu descriptor %zu: length %u status 0x%x",
                           lens[i], idx + k, epp_le16(desc + 8),
                           desc[12]);
            g_assert_cmpuint(epp_le16(desc + 8), ==, seg[k]);
            g_assert_cmphex(desc[12] & (RXD_STA_DD | RXD_STA_EOP), ==,
                            RXD_STA_DD | (k == ndesc - 1 ? RXD_STA_EOP : 0));
            g_assert_cmphex(desc[13], ==, 0);
            epp_memread(d, buf[idx + k], got + off, seg[k]);
        }
        /* Then: the buffers hold the frame and its FCS byte for byte */
        g_assert_cmpmem(got, total, frame, total);
        idx += ndesc;
    }

    /* Then: 1 + 2 + 2 descriptors used (stock: 2 + 2 + 2) */
    EPP_EXPECT_REG(d, RDH0, 0xffffffff, stock ? 6 : 5);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(rx_legacy_frame_bytes),
    EPP_SCENARIO(rx_extended_frame_bytes),
    EPP_SCENARIO(rx_fcs_straddles_descriptors),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
