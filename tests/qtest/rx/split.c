/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive scenarios: packet split.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

typedef struct SplitCase {
    unsigned bsize0;        /* PSRCTL.BSIZE0, bytes (128-byte units) */
    unsigned bsize[3];      /* PSRCTL.BSIZE1..3, bytes (1 KB units) */
    bool keep_crc;
} SplitCase;
/* ---------------------------------------------------------------- */
/* Packet split                                                     */
/* ---------------------------------------------------------------- */

typedef enum SplitKind {
    SPLIT_UDP,              /* IPv4/UDP: header 42 bytes */
    SPLIT_TCP_OPTS,         /* IPv4/TCP with 12 option bytes: header 66 */
    SPLIT_HDR_TOO_BIG,      /* IPv4 + 40 option bytes, TCP with 40: 134 */
    SPLIT_NOT_IP,           /* EtherType 0x88b5: never split */
} SplitKind;

/* A frame of len bytes of the given kind; returns its header length */
static size_t split_frame(uint8_t *f, size_t len, SplitKind kind,
                          uint32_t seq)
{
    size_t ihl = kind == SPLIT_HDR_TOO_BIG ? 60 : 20;
    size_t l4 = kind == SPLIT_UDP ? 8 : kind == SPLIT_TCP_OPTS ? 32 : 60;
    uint8_t *ip = f + 14, *th = f + 14 + ihl;
    size_t i;

    epp_frame_fill(f, len, false, seq);
    if (kind == SPLIT_NOT_IP) {
        return 0;
    }
    stw_be_p(f + 12, 0x0800);
    memset(ip, 0, ihl + l4);
    ip[0] = 0x40 | (ihl / 4);
    stw_be_p(ip + 2, len - 14);
    stw_be_p(ip + 4, seq);
    ip[8] = 64;
    ip[9] = kind == SPLIT_UDP ? 17 : 6;
    memcpy(ip + 12, (uint8_t[]) { 198, 18, 0, 1, 198, 18, 0, 2 }, 8);
    for (i = 20; i < ihl; i++) {
        ip[i] = 1;                      /* IP option NOP */
    }
    stw_be_p(th, 1000 + seq);
    stw_be_p(th + 2, 2000);
    if (kind == SPLIT_UDP) {
        stw_be_p(th + 4, len - 14 - ihl);
    } else {
        th[12] = (l4 / 4) << 4;
        th[13] = 0x18;                  /* PSH, ACK */
        for (i = 20; i < l4; i++) {
            th[i] = 1;                  /* TCP option NOP */
        }
    }
    return 14 + ihl + l4;
}

/*
 * Given packet-split descriptors (RCTL.DTYP=01) with PSRCTL buffer sizes
 * BSIZE0 for the header and BSIZE1..3 for data, when frames arrive,
 * then (82574L §7.1.5): a frame whose IPv4 UDP/TCP header fits BSIZE0 is
 * split - the header alone in buffer 0, HDRSP set with the header length
 * - and the rest fills buffers 1, 2, 3 in order; a frame that is not
 * split fills buffer 0 first; a frame larger than one descriptor
 * continues in the next one with buffer 0 left empty (the Linux driver
 * relies on length0 == 0 there); the FCS, when kept, is counted in the
 * last buffer.  Only the bytes reported are written.
 *
 * stock e1000e: the same placement for the frame itself, but with
 * SECRC=0 the four FCS bytes are zeros in a descriptor of their own.
 */
static void rx_packet_split(const char *model, const void *opaque)
{
    const SplitCase *c = opaque;
    bool stock = epp_is_stock(model);
    uint32_t psrctl = c->bsize0 / 128 | (c->bsize[0] / 1024) << 8 |
                      (c->bsize[1] / 1024) << 16 | (c->bsize[2] / 1024) << 24;
    EppRxSetup s = {
        .design = EPP_RX_FIXED, .keep_crc = c->keep_crc, .lpe = true,
        .format = EPP_RXF_SPLIT, .psrctl = psrctl, .ring_count = 16,
        .fill = 7,
    };
    size_t data_cap = c->bsize[0] + c->bsize[1] + c->bsize[2];
    struct {
        SplitKind kind;
        size_t len;
    } frames[] = {
        { SPLIT_UDP, 200 },
        { SPLIT_TCP_OPTS, 1514 },
        { SPLIT_HDR_TOO_BIG, 600 },
        { SPLIT_NOT_IP, 300 },
        { SPLIT_UDP, MIN(data_cap + 1000, 9000) },
    };
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppDev *d;
    EppRx *rx;
    size_t i;

    rx = rx_start(model, &s);
    d = rx->d;

    for (i = 0; i < ARRAY_SIZE(frames); i++) {
        size_t len = frames[i].len, hdr, n, off, k, j, want_desc = 0;
        bool split;
        uint32_t want_len[EPP_RX_MAX_PIECES][4] = { { 0 } };

        hdr = split_frame(wire, len, frames[i].kind, i);
        split = hdr && hdr <= c->bsize0;
        n = expected_bytes(exp, wire, len, false, false, c->keep_crc, stock);

        /* Expected placement, descriptor by descriptor */
        {
            size_t data = stock && c->keep_crc ? n - 4 : n;

            off = 0;
            while (off < data) {
                g_assert_cmpuint(want_desc, <, 6);
                if (want_desc == 0) {
                    want_len[0][0] = split ? hdr : MIN(c->bsize0, data);
                    off = want_len[0][0];
                }
                for (j = 1; j < 4 && off < data; j++) {
                    want_len[want_desc][j] = MIN(c->bsize[j - 1],
                                                 data - off);
                    off += want_len[want_desc][j];
                }
                want_desc++;
            }
            if (stock && c->keep_crc) {
                /* stock: FCS zeros in buffer 0 of a descriptor of their own */
                want_len[want_desc++][0] = 4;
            }
        }
        g_test_message("frame %zu (%zu bytes, header %zu, %s): %zu "
                       "descriptors expected", i, len, hdr,
                       split ? "split" : "not split", want_desc);
        epp_inject(d, wire, len);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);

        g_assert_cmpuint(f->raw_len, ==, n);
        g_assert_cmpmem(f->raw, n, exp, n);
        g_assert_cmpuint(f->ndesc, ==, want_desc);
        g_assert_cmphex(f->hdr_status & 0x8000, ==, split ? 0x8000 : 0);
        if (split) {
            g_assert_cmpuint(f->hdr_status & 0x3ff, ==, hdr);
        }
        /* Per-buffer lengths, in the order they were filled */
        {
            unsigned p = 0;

            for (k = 0; k < want_desc; k++) {
                for (j = 0; j < 4; j++) {
                    if (want_len[k][j]) {
                        g_assert_cmpuint(p, <, f->npieces);
                        g_assert_cmpuint(f->piece_len[p], ==,
                                         want_len[k][j]);
                        p++;
                    }
                }
                g_assert_cmpuint(f->desc_len[k], ==, want_len[k][0]);
            }
            g_assert_cmpuint(p, ==, f->npieces);
        }
        epp_rx_post_n(rx, f->ndesc);
    }
    g_assert_false(epp_rx_dd_pending(rx));
    epp_rx_check_pool(rx);
    rx_stop(rx);
}

/*
 * Given packet-split descriptors (32 bytes), when the driver posts 7 of
 * them by writing RDT = 14 as Linux does (i << 1) and one frame arrives,
 * then RDH reads 2: RDH and RDT count 16-byte units, so a packet-split
 * descriptor moves them by two (the in-tree driver's
 * e1000_alloc_rx_buffers_ps writes i << 1 to the tail).
 */
static void rx_split_ring_pointers_16_byte_units(const char *model)
{
    EppRxSetup s = {
        .design = EPP_RX_FIXED, .keep_crc = false, .lpe = true,
        .format = EPP_RXF_SPLIT, .psrctl = 1 | 4 << 8,
        .ring_count = 16, .fill = 7,
    };
    g_autofree uint8_t *wire = g_malloc(2048);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppDev *d = epp_start(model, NULL);
    EppRx *rx;

    epp_bring_up(d, &epp_default_config);
    rx = epp_rx_new(d, &s);
    EPP_EXPECT_REG(d, RDT0, 0xffff, 14);
    split_frame(wire, 1000, SPLIT_UDP, 1);
    epp_inject(d, wire, 1000);
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
    g_assert_cmpuint(f->ndesc, ==, 1);
    EPP_EXPECT_REG(d, RDH0, 0xffff, 2);
    rx_stop(rx);
}

static void add_cases(void)
{
    static const struct {
        unsigned b0, b[3];
    } splits[] = {
        { 128, { 4096, 0, 0 } },
        { 128, { 4096, 4096, 4096 } },
        { 256, { 1024, 2048, 0 } },
        { 1024, { 2048, 2048, 2048 } },
    };
    size_t i;
    int crc;

    for (i = 0; i < ARRAY_SIZE(splits); i++) {
        for (crc = 0; crc < 2; crc++) {
            SplitCase *c = g_new0(SplitCase, 1);
            g_autofree char *path = NULL;

            c->bsize0 = splits[i].b0;
            memcpy(c->bsize, splits[i].b, sizeof(c->bsize));
            c->keep_crc = crc;
            path = g_strdup_printf("rx/packet_split/hdr%u-%u-%u-%u/%s",
                                   c->bsize0, c->bsize[0],
                                   c->bsize[1], c->bsize[2],
                                   crc ? "crc-kept" : "crc-stripped");
            epp_add_case(path, rx_packet_split, c);
        }
    }
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO_AS("rx/split_ring_pointers_16_byte_units",
                    rx_split_ring_pointers_16_byte_units),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    add_cases);
}
