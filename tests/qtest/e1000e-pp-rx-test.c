/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive-path qtests (issue 3): the page-pool design across every MTU
 * breakpoint, FCS placement, all seven buffer sizes, packet split,
 * descriptor write-back batching and ring exhaustion into the on-chip
 * packet buffer.  Every scenario runs on "e1000e-pp" and on the stock
 * "e1000e"; where the stock model differs it says so ("stock e1000e:")
 * and asserts the stock behaviour instead.
 *
 * Datasheet constants (buffer sizes, register values, bit positions) are
 * written as literals here on purpose: they must not come from the
 * model's headers.
 *
 *   e1000e-pp-rx-test --tap                 run the scenarios
 *   e1000e-pp-rx-test --report [MODEL]      per-MTU page-pool table
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"

#define RX_BUDGET_NS    (100 * EPP_NS_PER_MS)
#define VLAN_TCI        0x2005          /* priority 1, VID 5 */
#define ETH_P_TEST      0x88b5          /* local experimental EtherType */

static const uint8_t src_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const char *const models[] = { "e1000e-pp", "e1000e" };

static bool is_stock(const char *model)
{
    return strcmp(model, "e1000e") == 0;
}

/* ---------------------------------------------------------------- */
/* Frames                                                           */
/* ---------------------------------------------------------------- */

/*
 * A frame to our MAC: optional 802.1Q tag, EtherType 0x88b5, a 32-bit
 * sequence number, then a pattern that differs per frame and per byte.
 */
static void frame_fill(uint8_t *f, size_t len, bool tagged, uint32_t seq)
{
    size_t off = 12, i;

    g_assert(len >= 60);
    memcpy(f, epp_mac, 6);
    memcpy(f + 6, src_mac, 6);
    if (tagged) {
        stw_be_p(f + 12, 0x8100);
        stw_be_p(f + 14, VLAN_TCI);
        off = 16;
    }
    stw_be_p(f + off, ETH_P_TEST);
    stl_be_p(f + off + 2, seq);
    for (i = off + 6; i < len; i++) {
        f[i] = seq * 31 + i * 7 + (i >> 8);
    }
}

static uint32_t frame_seq(const uint8_t *f, bool tag_in_buffer)
{
    return ldl_be_p(f + (tag_in_buffer ? 16 : 12) + 2);
}

/*
 * The bytes the device should place in the buffers for a wire frame:
 * the tag removed when stripped, then the FCS (CRC-32 of the frame as it
 * was on the wire, least significant byte first) when RCTL.SECRC=0.
 * stock e1000e writes four zero bytes instead of the FCS.
 */
static size_t expected_bytes(uint8_t *out, const uint8_t *wire, size_t len,
                             bool tagged, bool strip, bool keep_crc,
                             bool stock)
{
    size_t n;

    if (tagged && strip) {
        memcpy(out, wire, 12);
        memcpy(out + 12, wire + 16, len - 16);
        n = len - 4;
    } else {
        memcpy(out, wire, len);
        n = len;
    }
    if (keep_crc) {
        stl_le_p(out + n, stock ? 0 : e1000epp_fcs(wire, len));
        n += 4;
    }
    return n;
}

/*
 * Descriptor lengths for bytes chained through buffers of bs bytes:
 * ceil(n / bs) descriptors, all full but the last.  stock e1000e: the
 * frame alone is chained, then the 4 FCS bytes get a descriptor of their
 * own.
 */
static unsigned expected_chain(uint32_t *lens, size_t n, size_t bs,
                               bool keep_crc, bool stock)
{
    size_t data = stock && keep_crc ? n - 4 : n, off;
    unsigned k = 0;

    for (off = 0; off < data; off += lens[k++]) {
        lens[k] = MIN(bs, data - off);
    }
    if (stock && keep_crc) {
        lens[k++] = 4;
    }
    return k;
}

static void check_chain(EppRxFrame *f, const uint8_t *exp, size_t n,
                        size_t bs, bool keep_crc, bool stock)
{
    uint32_t lens[EPP_RX_MAX_PIECES];
    unsigned k, nd = expected_chain(lens, n, bs, keep_crc, stock);

    g_test_message("frame at descriptor %u: %u descriptors, last %u bytes",
                   f->first_desc, f->ndesc, f->desc_len[f->ndesc - 1]);
    g_assert_cmpuint(f->ndesc, ==, nd);
    for (k = 0; k < nd; k++) {
        g_assert_cmpuint(f->desc_len[k], ==, lens[k]);
        g_assert_cmpint(f->desc_eop[k], ==, k == nd - 1);
    }
    g_assert_cmpuint(f->raw_len, ==, n);
    g_assert_cmpmem(f->raw, f->raw_len, exp, n);
}

/* Inject and wait until the device has taken n frames in (TPR) */
static void wait_arrived(EppRx *rx, uint64_t tpr)
{
    int i;

    /*
     * The netdev hands frames over in QEMU's main loop, not in virtual
     * time: poll without stepping the clock (bounded in wall time).
     */
    for (i = 0; i < 2000; i++) {
        epp_rx_stats_update(rx);
        if (rx->tpr >= tpr) {
            g_assert_cmpuint(rx->tpr, ==, tpr);
            return;
        }
        g_usleep(1000);
    }
    e1000epp_dump_regs(rx->d, "frames reaching the device");
    if (rx->tpr + rx->mpc == tpr) {
        /* 82574L §10.2.7 MPC: missed packets also count in TPR and TOR */
        g_error("TPR %" PRIu64 " + MPC %" PRIu64 " = %" PRIu64 " frames: "
                "missed frames are not counted in TPR on %s", rx->tpr,
                rx->mpc, tpr, rx->d->model);
    }
    g_error("TPR %" PRIu64 " of %" PRIu64 " frames after 2 s on %s",
            rx->tpr, tpr, rx->d->model);
}

/* ---------------------------------------------------------------- */
/* Page-pool design across the MTU breakpoints                      */
/* ---------------------------------------------------------------- */

typedef struct MtuCase {
    const char *model;
    unsigned mtu;
    bool keep_crc;
    bool strip;
    bool legacy;
} MtuCase;

static const unsigned mtu_breakpoints[] = {
    1500, 2026, 2027, 4074, 4075, 4096, 4097, 6122, 6123, 8170, 8171,
    8192, 8193, 9212,
};

/*
 * Given the page-pool design at MTU m (BSIZE 2048, LPE above 1500),
 * SECRC on or off, VLAN strip on or off, legacy or extended descriptors,
 * when a full-size tagged frame (18 + m bytes) and a 64-byte tagged frame
 * arrive, then each fills ceil(bytes / 2048) descriptors with EOP on the
 * last only, the buffers hold the frame byte for byte with the real FCS
 * when kept, software strips the FCS wherever it landed, the VLAN tag is
 * in the descriptor when stripped, truesize is libeth's, the device
 * wrote nothing outside the reported bytes and no chunk leaked.
 */
static void pp_mtu_matrix(const void *opaque)
{
    const MtuCase *c = opaque;
    bool stock = is_stock(c->model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = c->mtu, .keep_crc = c->keep_crc,
        .vlan_strip = c->strip,
        .format = c->legacy ? EPP_RXF_LEGACY : EPP_RXF_EXTENDED,
    };
    const size_t lens[2] = { 18 + c->mtu, 64 };
    /* libeth chunk truesize: 2048 at MTU 1500, 4096 at every other */
    size_t chunk_truesize = c->mtu <= 1500 ? 2048 : 4096;
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    E1000epp *d;
    EppRx *rx;
    int i;

    if (!qtest_has_device(c->model)) {
        g_test_skip("device not built into this QEMU binary");
        return;
    }
    d = e1000epp_start(c->model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    rx = epp_rx_new(d, &s);

    for (i = 0; i < 2; i++) {
        size_t n, last;
        EppFcsCase want;

        frame_fill(wire, lens[i], true, i);
        e1000epp_inject(d, wire, lens[i]);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);

        n = expected_bytes(exp, wire, lens[i], true, c->strip, c->keep_crc,
                           stock);
        check_chain(f, exp, n, 2048, c->keep_crc, stock);

        /* Errors none; VP and the tag only when the tag was stripped */
        g_assert_cmphex(f->errors, ==, 0);
        g_assert_cmphex(f->status & 0x08, ==, c->strip ? 0x08 : 0);
        g_assert_cmphex(f->vlan, ==, c->strip ? VLAN_TCI : 0);

        /* What the stack gets: the frame without FCS, FCS set aside */
        g_assert_cmpuint(f->len, ==, n - (c->keep_crc ? 4 : 0));
        g_assert_cmpmem(f->data, f->len, exp, f->len);
        last = f->desc_len[f->ndesc - 1];
        if (!c->keep_crc) {
            want = EPP_FCS_NONE;
        } else if (last > 4) {
            want = EPP_FCS_IN_LAST;
        } else if (last == 4) {
            want = EPP_FCS_ALONE;
        } else {
            want = EPP_FCS_STRADDLES;
        }
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==,
                        epp_fcs_case_name(want));
        if (c->keep_crc) {
            g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==,
                            stock ? 0 : e1000epp_fcs(wire, lens[i]));
        }
        g_assert_cmpuint(f->pieces_kept, ==,
                         f->ndesc - (want == EPP_FCS_ALONE ||
                                     want == EPP_FCS_STRADDLES));
        g_assert_cmpuint(f->truesize, ==,
                         f->pieces_kept * chunk_truesize + 256);
        g_test_message("MTU %u frame %zu: %u pieces, fcs %s, truesize %zu",
                       c->mtu, lens[i], f->ndesc,
                       epp_fcs_case_name(f->fcs_case), f->truesize);
        epp_rx_release(rx, f);
    }
    g_assert_false(epp_rx_dd_pending(rx));

    /* Then: every chunk accounted for after refilling the ring */
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    g_assert_cmpuint(rx->n_posted_chunks, ==, 63);
    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* FCS placement: L mod 2048 in 0..5                                */
/* ---------------------------------------------------------------- */

typedef struct TailCase {
    const char *model;
    size_t l;               /* bytes in the buffers, FCS included */
} TailCase;

/*
 * Given the page-pool design at MTU 9000 with SECRC=0 (2 KB buffers),
 * when an untagged frame of L - 4 bytes arrives (L bytes with its FCS),
 * then L mod 2048 decides where the FCS lands: 0 - at the end of a full
 * last piece; 1..3 - straddling the last two pieces; 4 - alone in the
 * last piece; 5 - with one data byte.  Software strips it in every case,
 * drops a piece that held only FCS bytes, and truesize counts the
 * pieces kept.
 *
 * stock e1000e: the frame fills ceil((L - 4) / 2048) pieces and four
 * zero bytes follow in a descriptor of their own, so the FCS always
 * "stands alone" and is zero.
 */
static void fcs_tail(const void *opaque)
{
    const TailCase *c = opaque;
    bool stock = is_stock(c->model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = 9000, .keep_crc = true,
        .format = EPP_RXF_EXTENDED,
    };
    size_t flen = c->l - 4, r = c->l % 2048, n;
    unsigned full = c->l / 2048;
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    static const EppFcsCase want[6] = {
        EPP_FCS_IN_LAST, EPP_FCS_STRADDLES, EPP_FCS_STRADDLES,
        EPP_FCS_STRADDLES, EPP_FCS_ALONE, EPP_FCS_IN_LAST,
    };
    E1000epp *d;
    EppRx *rx;

    if (!qtest_has_device(c->model)) {
        g_test_skip("device not built into this QEMU binary");
        return;
    }
    d = e1000epp_start(c->model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    rx = epp_rx_new(d, &s);

    frame_fill(wire, flen, false, 7);
    e1000epp_inject(d, wire, flen);
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);

    n = expected_bytes(exp, wire, flen, false, false, true, stock);
    check_chain(f, exp, n, 2048, true, stock);
    g_assert_cmpuint(f->len, ==, flen);
    g_assert_cmpmem(f->data, f->len, wire, flen);
    if (stock) {
        g_assert_cmpuint(f->ndesc, ==, DIV_ROUND_UP(flen, 2048) + 1);
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==, "alone");
        g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==, 0);
    } else {
        g_assert_cmpuint(f->ndesc, ==, full + (r != 0));
        g_assert_cmpstr(epp_fcs_case_name(f->fcs_case), ==,
                        epp_fcs_case_name(want[r]));
        g_assert_cmphex((uint32_t)ldl_le_p(f->fcs), ==,
                        e1000epp_fcs(wire, flen));
        /* Pieces kept: the bytes of the frame alone, in 2 KB pieces */
        g_assert_cmpuint(f->pieces_kept, ==, DIV_ROUND_UP(flen, 2048));
        g_assert_cmpuint(f->truesize, ==, f->pieces_kept * 4096 + 256);
    }
    epp_rx_release(rx, f);
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* All seven buffer sizes                                           */
/* ---------------------------------------------------------------- */

typedef struct BsizeCase {
    const char *model;
    size_t bsize;
    uint32_t rctl;          /* BSIZE (17:16) | BSEX (25) */
    bool legacy;
} BsizeCase;

/*
 * Given fixed buffers of exactly the size RCTL.BSIZE/BSEX announces
 * (256, 512, 1024, 2048 with BSEX=0; 4096, 8192, 16384 with BSEX=1),
 * SECRC=0 and LPE=1, when frames arrive whose bytes with FCS are 64,
 * bsize - 1, bsize, bsize + 1, 2 * bsize + 3 and 9234 (the longest the
 * driver sizes for; larger ones are skipped),
 * then each fills ceil(L / bsize) buffers, never writes past a buffer
 * and ends with the real FCS.
 */
static void rx_buffer_size(const void *opaque)
{
    const BsizeCase *c = opaque;
    bool stock = is_stock(c->model);
    EppRxSetup s = {
        .design = EPP_RX_FIXED, .keep_crc = true, .lpe = true,
        .format = c->legacy ? EPP_RXF_LEGACY : EPP_RXF_EXTENDED,
        .rctl_bsize = c->rctl,
    };
    const size_t cand[6] = {
        64, c->bsize - 1, c->bsize, c->bsize + 1, 2 * c->bsize + 3, 9234,
    };
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree uint8_t *exp = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    E1000epp *d;
    EppRx *rx;
    size_t i, n, tested = 0, prev = 0;

    if (!qtest_has_device(c->model)) {
        g_test_skip("device not built into this QEMU binary");
        return;
    }
    d = e1000epp_start(c->model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    rx = epp_rx_new(d, &s);

    for (i = 0; i < ARRAY_SIZE(cand); i++) {
        size_t flen = cand[i] - 4;

        if (cand[i] > 9234 || cand[i] <= prev) {
            continue;
        }
        prev = cand[i];
        frame_fill(wire, flen, false, i);
        e1000epp_inject(d, wire, flen);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        n = expected_bytes(exp, wire, flen, false, false, true, stock);
        check_chain(f, exp, n, c->bsize, true, stock);
        g_assert_cmphex(f->errors, ==, 0);
        tested++;
        epp_rx_refill(rx);
    }
    g_assert_cmpuint(tested, >=, 2);
    g_assert_false(epp_rx_dd_pending(rx));
    epp_rx_check_pool(rx);
    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Packet split                                                     */
/* ---------------------------------------------------------------- */

typedef struct SplitCase {
    const char *model;
    unsigned bsize0;        /* PSRCTL.BSIZE0, bytes (128-byte units) */
    unsigned bsize[3];      /* PSRCTL.BSIZE1..3, bytes (1 KB units) */
    bool keep_crc;
} SplitCase;

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

    frame_fill(f, len, false, seq);
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
static void rx_packet_split(const void *opaque)
{
    const SplitCase *c = opaque;
    bool stock = is_stock(c->model);
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
    E1000epp *d;
    EppRx *rx;
    size_t i;

    if (!qtest_has_device(c->model)) {
        g_test_skip("device not built into this QEMU binary");
        return;
    }
    d = e1000epp_start(c->model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    rx = epp_rx_new(d, &s);

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
        e1000epp_inject(d, wire, len);
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
    epp_rx_free(rx);
    e1000epp_stop(d);
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
    E1000epp *d = e1000epp_start(model, NULL);
    EppRx *rx;

    e1000epp_bring_up(d, &e1000epp_default_config);
    rx = epp_rx_new(d, &s);
    EPP_EXPECT_REG(d, RDT0, 0xffff, 14);
    split_frame(wire, 1000, SPLIT_UDP, 1);
    e1000epp_inject(d, wire, 1000);
    epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
    g_assert_cmpuint(f->ndesc, ==, 1);
    EPP_EXPECT_REG(d, RDH0, 0xffff, 2);
    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Write-back batching (the stock driver's DMA-burst settings)      */
/* ---------------------------------------------------------------- */

static bool desc_dd(EppRx *rx, unsigned i)
{
    uint8_t b[16];

    e1000epp_memread(rx->d, rx->ring + i * 16, b, 16);
    return b[8] & 1;            /* extended write-back: status bit 0 */
}

/*
 * Given the stock design (extended descriptors, RXDCTL 0x01040420:
 * WTHRESH 4 in descriptor units; RDTR = RADV = 0x20, 32.768 us),
 * when one frame arrives, then its descriptor is not written back before
 * the timers run out (still not at 32 us) and is at 34 us; when four
 * frames arrive, then reaching WTHRESH writes all four back at once
 * (within 1 us); when one more arrives and the driver flushes with
 * RDTR.FPD, then it is written back right away.
 *
 * stock e1000e: ignores RXDCTL.WTHRESH and FPD; every descriptor is
 * written back as soon as its frame lands.
 */
static void rx_writeback_batches_wthresh(const char *model)
{
    bool stock = is_stock(model);
    EppRxSetup s = { .design = EPP_RX_STOCK, .mtu = 1500 };
    uint8_t wire[1000];
    E1000epp *d = e1000epp_start(model, NULL);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    EppRx *rx;
    int i;

    e1000epp_bring_up(d, &e1000epp_default_config);
    rx = epp_rx_new(d, &s);
    /* Linux's alloc loop leaves the tail at the last multiple of 16 */
    EPP_EXPECT_REG(d, RDT0, 0xffff, 48);
    EPP_EXPECT_REG(d, RXDCTL0, 0xffffffff, 0x01040420);

    /* One frame: held until RDTR/RADV expire */
    frame_fill(wire, sizeof(wire), false, 0);
    e1000epp_inject(d, wire, sizeof(wire));
    wait_arrived(rx, 1);
    if (stock) {
        g_assert_true(desc_dd(rx, 0));
    } else {
        e1000epp_step(d, 32 * EPP_NS_PER_US);
        g_assert_false(desc_dd(rx, 0));
        e1000epp_step(d, 2 * EPP_NS_PER_US);
        g_assert_true(desc_dd(rx, 0));
    }
    g_assert_true(epp_rx_poll(rx, f));

    /* Three frames stay pending; the fourth reaches WTHRESH */
    for (i = 1; i <= 4; i++) {
        frame_fill(wire, sizeof(wire), false, i);
        e1000epp_inject(d, wire, sizeof(wire));
        wait_arrived(rx, 1 + i);
        if (i < 4) {
            g_assert_cmpint(desc_dd(rx, i), ==, stock);
        }
    }
    e1000epp_step(d, EPP_NS_PER_US);
    for (i = 1; i <= 4; i++) {
        g_assert_true(desc_dd(rx, i));
        g_assert_true(epp_rx_poll(rx, f));
        g_assert_cmpuint(frame_seq(f->data, false), ==, i);
    }

    /* One more, then the driver's flush */
    frame_fill(wire, sizeof(wire), false, 5);
    e1000epp_inject(d, wire, sizeof(wire));
    wait_arrived(rx, 6);
    e1000epp_step(d, EPP_NS_PER_US);
    g_assert_cmpint(desc_dd(rx, 5), ==, stock);
    epp_rx_flush(rx);
    e1000epp_step(d, EPP_NS_PER_US);
    g_assert_true(desc_dd(rx, 5));
    g_assert_true(epp_rx_poll(rx, f));
    g_assert_cmpuint(frame_seq(f->data, false), ==, 5);
    epp_rx_check_pool(rx);
    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* The stock design end to end                                      */
/* ---------------------------------------------------------------- */

typedef struct StockCase {
    const char *model;
    unsigned mtu;
} StockCase;

/*
 * Given the stock design at MTU 1500 (extended descriptors, 1522-byte
 * buffers, tail moved every 16 descriptors, DMA-burst write-back) or at
 * MTU 9000 (packet split: 128-byte header buffer and three 4 KB pages),
 * when 100 frames of mixed sizes arrive, some below the 256-byte
 * copybreak, then every frame is delivered in order byte for byte, each
 * in one descriptor, short ones copied with their buffer left on the
 * ring, and no buffer is leaked or left behind.
 */
static void stock_design_delivers_in_order(const void *opaque)
{
    const StockCase *c = opaque;
    EppRxSetup s = { .design = EPP_RX_STOCK, .mtu = c->mtu };
    static const size_t small[] = { 60, 100, 200, 255 };
    g_autofree uint8_t *wire = g_malloc(16384);
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    size_t max = 14 + c->mtu;
    unsigned i, copied = 0, n = 100;
    E1000epp *d;
    EppRx *rx;

    if (!qtest_has_device(c->model)) {
        g_test_skip("device not built into this QEMU binary");
        return;
    }
    d = e1000epp_start(c->model, NULL);
    e1000epp_bring_up(d, &e1000epp_default_config);
    rx = epp_rx_new(d, &s);

    for (i = 0; i < n; i++) {
        size_t len = i % 3 ? max - (i * 37) % 700 : small[i % 4];

        frame_fill(wire, len, false, i);
        e1000epp_inject(d, wire, len);
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpuint(f->ndesc, ==, 1);
        g_assert_cmpuint(f->len, ==, len);
        g_assert_cmpmem(f->data, f->len, wire, len);
        g_assert_cmphex(f->errors, ==, 0);
        copied += f->copybreak;
        /* e1000_clean_rx_irq refills once 16 descriptors are clean */
        if ((i + 1) % 16 == 0) {
            epp_rx_refill(rx);
        }
    }
    epp_rx_refill(rx);
    g_test_message("%u frames, %u copied (copybreak 256)", n, copied);
    /* Frames of 60, 100, 200, 255 bytes: every third frame */
    g_assert_cmpuint(copied, ==, c->mtu <= 1500 ? DIV_ROUND_UP(n, 3) : 0);
    g_assert_false(epp_rx_dd_pending(rx));
    epp_rx_check_pool(rx);
    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Ring exhaustion: the packet buffer, RNBC, MPC, RXO               */
/* ---------------------------------------------------------------- */

/*
 * Given the page-pool design at MTU 1500 with 8 descriptors posted
 * (RDTR 0) and the Rx packet buffer PBA.RXA KB large, when 8 + H1
 * 1514-byte frames arrive (H1 chosen so that they surely fit: the
 * datasheet gives no exact per-frame overhead, so a frame is taken to
 * occupy its 1518 bytes rounded up to 16 plus a 16-byte status word,
 * 1536 bytes, and H1 = floor(RXA * 1024 / 1536) - 1), then 8 are
 * delivered, H1 wait in the packet buffer: RNBC = H1, MPC = 0, and ICR
 * shows RXT0 and RXDMT0 but no RXO.  When 12 more arrive, then the
 * buffer overflows: ICR.RXO, MPC counts the frames that did not fit,
 * RNBC counts every frame that found the ring dry.  When the ring is
 * refilled, then the held frames are delivered in order, none lost or
 * duplicated, their number H between H1 and floor(RXA * 1024 / 1518),
 * and offered = delivered + MPC; new frames flow again afterwards.
 *
 * stock e1000e: has no packet buffer; the netdev queue holds every frame
 * (back-pressure): RNBC and MPC stay 0, ICR.RXO is never raised (no
 * frame is offered to a dry ring), RXDMT0 is not seen at 8 of 64 free
 * descriptors, and after the refill every frame arrives.
 */
static void rx_ring_exhaustion_packet_buffer(const char *model)
{
    bool stock = is_stock(model);
    EppRxSetup s = {
        .design = EPP_RX_PAGEPOOL, .mtu = 1500, .format = EPP_RXF_EXTENDED,
        .fill = 8,
    };
    enum { K = 8, X = 12, FLEN = 1514 };
    uint8_t wire[FLEN];
    g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
    E1000epp *d = e1000epp_start(model, NULL);
    EppRx *rx;
    uint32_t rxa, icr, seq = 0, next = 0;
    uint64_t h1, hmax, held = 0, offered;

    e1000epp_bring_up(d, &e1000epp_default_config);
    rxa = e1000epp_rd(d, PBA) & 0xffff;
    g_test_message("PBA.RXA = %u KB", rxa);
    g_assert_cmpuint(rxa, >=, 8);
    h1 = rxa * 1024 / 1536 - 1;
    hmax = rxa * 1024 / 1518;
    rx = epp_rx_new(d, &s);
    e1000epp_rd(d, ICR);

    /* Phase 1: the ring runs dry, frames wait */
    for (; seq < K + h1; seq++) {
        frame_fill(wire, FLEN, false, seq);
        e1000epp_inject(d, wire, FLEN);
    }
    if (!stock) {
        wait_arrived(rx, K + h1);
    }
    e1000epp_step(d, 100 * EPP_NS_PER_US);
    for (; next < K; next++) {
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpuint(frame_seq(f->data, false), ==, next);
        epp_rx_release(rx, f);
    }
    g_assert_false(epp_rx_poll(rx, f));
    epp_rx_stats_update(rx);
    icr = e1000epp_rd(d, ICR);
    g_test_message("phase 1: RNBC %" PRIu64 " MPC %" PRIu64 " ICR 0x%08x",
                   rx->rnbc, rx->mpc, icr);
    if (stock) {
        g_assert_cmpuint(rx->rnbc, ==, 0);
        g_assert_cmphex(icr & (ICR_RXO | ICR_RXT0 | ICR_RXDMT0), ==,
                        ICR_RXT0);
    } else {
        g_assert_cmpuint(rx->rnbc, ==, h1);
        g_assert_cmphex(icr & (ICR_RXO | ICR_RXT0 | ICR_RXDMT0), ==,
                        ICR_RXT0 | ICR_RXDMT0);
    }
    g_assert_cmpuint(rx->mpc, ==, 0);

    /* Phase 2: the packet buffer overflows */
    for (; seq < K + h1 + X; seq++) {
        frame_fill(wire, FLEN, false, seq);
        e1000epp_inject(d, wire, FLEN);
    }
    offered = seq;
    if (!stock) {
        wait_arrived(rx, offered);
    }
    e1000epp_step(d, 100 * EPP_NS_PER_US);
    g_assert_false(epp_rx_poll(rx, f));
    icr = e1000epp_rd(d, ICR);
    g_test_message("phase 2: ICR 0x%08x", icr);
    g_assert_cmphex(icr & (ICR_RXO | ICR_RXT0 | ICR_RXDMT0), ==,
                    stock ? 0 : ICR_RXO);

    /* Phase 3: refill; the held frames come out in order */
    for (;;) {
        unsigned idle = 0, got;

        while (idle < 20) {
            epp_rx_refill(rx);
            e1000epp_step(d, 100 * EPP_NS_PER_US);
            for (got = 0; epp_rx_poll(rx, f); got++, next++) {
                g_assert_cmpuint(frame_seq(f->data, false), ==, next);
                g_assert_cmpuint(f->len, ==, FLEN);
                epp_rx_release(rx, f);
            }
            idle = got ? 0 : idle + 1;
        }
        /* stock: the netdev queue drains in QEMU's main loop */
        if (!stock || next == offered) {
            break;
        }
        g_usleep(10000);
    }
    epp_rx_stats_update(rx);
    held = next - K;
    g_test_message("held %" PRIu64 " (bounds %" PRIu64 "..%" PRIu64 "), "
                   "MPC %" PRIu64 ", RNBC %" PRIu64 ", GPRC %" PRIu64
                   ", TPR %" PRIu64, held, h1, hmax, rx->mpc, rx->rnbc,
                   rx->gprc, rx->tpr);
    if (stock) {
        g_assert_cmpuint(next, ==, offered);
        g_assert_cmpuint(rx->mpc, ==, 0);
        g_assert_cmpuint(rx->rnbc, ==, 0);
    } else {
        g_assert_cmpuint(held, >=, h1);
        g_assert_cmpuint(held, <=, hmax);
        g_assert_cmpuint(rx->mpc, ==, offered - next);
        g_assert_cmpuint(rx->rnbc, ==, h1 + X);
        g_assert_cmpuint(rx->tpr, ==, offered);
    }
    /* offered = delivered + MPC (no other discards in this scenario) */
    g_assert_cmpuint(offered, ==, next + rx->mpc);
    g_assert_cmpuint(rx->gprc, ==, next);

    /* Phase 4: delivery resumes with the next frame offered */
    for (next = seq; seq < offered + 3; seq++) {
        frame_fill(wire, FLEN, false, seq);
        e1000epp_inject(d, wire, FLEN);
    }
    for (; next < seq; next++) {
        epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
        g_assert_cmpuint(frame_seq(f->data, false), ==, next);
        epp_rx_release(rx, f);
    }
    g_assert_false(epp_rx_dd_pending(rx));
    epp_rx_refill(rx);
    epp_rx_check_pool(rx);
    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* Report: pieces, truesize and density per MTU                     */
/* ---------------------------------------------------------------- */

/*
 * For each MTU breakpoint, receive a full-size frame with one VLAN tag
 * left in the buffer (18 + MTU bytes: the breakpoints are where 18 + MTU
 * + 4 FCS bytes cross a 2 KB piece) through the page-pool design on the
 * model, with the FCS stripped by the device and by software, and print
 * what it cost.
 */
static int report(const char *model)
{
    size_t m;
    int k;

    if (!qtest_has_device(model)) {
        fprintf(stderr, "report: device %s is not built into %s\n", model,
                getenv("QTEST_QEMU_BINARY"));
        return 2;
    }
    printf("page-pool receive design on %s: RCTL.BSIZE 2048, 4 KB pages, "
           "64-byte headroom;\nframes of 18 + MTU bytes (one VLAN tag, "
           "not stripped)\n", model);
    printf("%6s %6s %-6s %6s %6s %-9s %7s %8s %5s %9s %8s\n",
           "MTU", "frame", "SECRC", "descs", "kept", "FCS", "buf_len",
           "truesize", "c/pg", "skb_true", "density");
    for (m = 0; m < ARRAY_SIZE(mtu_breakpoints); m++) {
        for (k = 1; k >= 0; k--) {
            unsigned mtu = mtu_breakpoints[m];
            EppRxSetup s = {
                .design = EPP_RX_PAGEPOOL, .mtu = mtu, .keep_crc = !k,
                .format = EPP_RXF_EXTENDED,
            };
            size_t flen = 18 + mtu;
            g_autofree uint8_t *wire = g_malloc(flen);
            g_autofree EppRxFrame *f = g_new0(EppRxFrame, 1);
            E1000epp *d = e1000epp_start(model, NULL);
            EppRx *rx;

            e1000epp_bring_up(d, &e1000epp_default_config);
            rx = epp_rx_new(d, &s);
            frame_fill(wire, flen, true, 1);
            e1000epp_inject(d, wire, flen);
            epp_rx_wait_frame(rx, f, RX_BUDGET_NS);
            if (f->len != flen || memcmp(f->data, wire, flen)) {
                fprintf(stderr, "report: MTU %u frame came back wrong\n",
                        mtu);
                return 1;
            }
            printf("%6u %6zu %-6s %6u %6u %-9s %7zu %8zu %5u %9zu %7.1f%%\n",
                   mtu, flen, k ? "1 (hw)" : "0 (sw)", f->ndesc,
                   f->pieces_kept, epp_fcs_case_name(f->fcs_case),
                   rx->buf_len, rx->chunk_truesize, rx->chunks_per_page,
                   f->truesize, 100.0 * mtu / f->truesize);
            epp_rx_release(rx, f);
            epp_rx_free(rx);
            e1000epp_stop(d);
        }
    }
    printf("descs: descriptors the frame took; kept: 2 KB pieces attached "
           "after the FCS strip;\ntruesize: libeth chunk truesize; c/pg: "
           "chunks per 4 KB page; skb_true: kept x truesize + 256 (sk_buff);"
           "\ndensity: MTU / skb_true\n");
    return 0;
}

/* ---------------------------------------------------------------- */
/* Registration                                                     */
/* ---------------------------------------------------------------- */

typedef struct Plain {
    const char *model;
    void (*fn)(const char *model);
} Plain;

static void run_plain(const void *opaque)
{
    const Plain *p = opaque;

    if (!qtest_has_device(p->model)) {
        g_test_skip("device not built into this QEMU binary");
        return;
    }
    p->fn(p->model);
}

static void add_plain(const char *model, const char *name,
                      void (*fn)(const char *))
{
    Plain *p = g_new0(Plain, 1);
    g_autofree char *path = g_strdup_printf("%s/rx/%s", model, name);

    p->model = model;
    p->fn = fn;
    qtest_add_data_func(path, p, run_plain);
}

static void add_tests(const char *model)
{
    static const struct {
        size_t bsize;
        uint32_t rctl;
    } sizes[] = {
        /* RCTL.BSIZE in bits 17:16, BSEX in bit 25 */
        { 256, 0x00030000 }, { 512, 0x00020000 }, { 1024, 0x00010000 },
        { 2048, 0x00000000 }, { 4096, 0x02030000 }, { 8192, 0x02020000 },
        { 16384, 0x02010000 },
    };
    static const struct {
        unsigned b0, b[3];
    } splits[] = {
        { 128, { 4096, 0, 0 } },
        { 128, { 4096, 4096, 4096 } },
        { 256, { 1024, 2048, 0 } },
        { 1024, { 2048, 2048, 2048 } },
    };
    static const size_t tails[] = { 2048, 4096, 8192 };
    size_t i, r;
    int crc, strip, legacy;

    for (i = 0; i < ARRAY_SIZE(mtu_breakpoints); i++) {
        for (crc = 0; crc < 2; crc++) {
            for (strip = 0; strip < 2; strip++) {
                for (legacy = 0; legacy < 2; legacy++) {
                    MtuCase *c = g_new0(MtuCase, 1);
                    g_autofree char *path = NULL;

                    c->model = model;
                    c->mtu = mtu_breakpoints[i];
                    c->keep_crc = crc;
                    c->strip = strip;
                    c->legacy = legacy;
                    path = g_strdup_printf(
                        "%s/rx/pp_mtu/%u/%s/%s/%s", model, c->mtu,
                        crc ? "crc-kept" : "crc-stripped",
                        strip ? "tag-stripped" : "tag-kept",
                        legacy ? "legacy" : "extended");
                    qtest_add_data_func(path, c, pp_mtu_matrix);
                }
            }
        }
    }
    for (i = 0; i < ARRAY_SIZE(tails); i++) {
        for (r = 0; r <= 5; r++) {
            TailCase *c = g_new0(TailCase, 1);
            g_autofree char *path = NULL;

            c->model = model;
            c->l = tails[i] + r;
            path = g_strdup_printf("%s/rx/fcs_tail/L%zu", model, c->l);
            qtest_add_data_func(path, c, fcs_tail);
        }
    }
    for (i = 0; i < ARRAY_SIZE(sizes); i++) {
        for (legacy = 0; legacy < 2; legacy++) {
            BsizeCase *c = g_new0(BsizeCase, 1);
            g_autofree char *path = NULL;

            c->model = model;
            c->bsize = sizes[i].bsize;
            c->rctl = sizes[i].rctl;
            c->legacy = legacy;
            path = g_strdup_printf("%s/rx/buffer_size/%zu/%s", model,
                                   c->bsize, legacy ? "legacy" : "extended");
            qtest_add_data_func(path, c, rx_buffer_size);
        }
    }
    for (i = 0; i < ARRAY_SIZE(splits); i++) {
        for (crc = 0; crc < 2; crc++) {
            SplitCase *c = g_new0(SplitCase, 1);
            g_autofree char *path = NULL;

            c->model = model;
            c->bsize0 = splits[i].b0;
            memcpy(c->bsize, splits[i].b, sizeof(c->bsize));
            c->keep_crc = crc;
            path = g_strdup_printf("%s/rx/packet_split/hdr%u-%u-%u-%u/%s",
                                   model, c->bsize0, c->bsize[0],
                                   c->bsize[1], c->bsize[2],
                                   crc ? "crc-kept" : "crc-stripped");
            qtest_add_data_func(path, c, rx_packet_split);
        }
    }
    for (i = 0; i < 2; i++) {
        StockCase *c = g_new0(StockCase, 1);
        g_autofree char *path = NULL;

        c->model = model;
        c->mtu = i ? 9000 : 1500;
        path = g_strdup_printf("%s/rx/stock_design/mtu%u", model, c->mtu);
        qtest_add_data_func(path, c, stock_design_delivers_in_order);
    }
    add_plain(model, "split_ring_pointers_16_byte_units",
              rx_split_ring_pointers_16_byte_units);
    add_plain(model, "writeback_batches_wthresh",
              rx_writeback_batches_wthresh);
    add_plain(model, "ring_exhaustion_packet_buffer",
              rx_ring_exhaustion_packet_buffer);
}

int main(int argc, char **argv)
{
    size_t m;

    if (argc >= 2 && strcmp(argv[1], "--report") == 0) {
        if (!getenv("QTEST_QEMU_BINARY")) {
            fprintf(stderr, "report: set QTEST_QEMU_BINARY to the emulator\n");
            return 2;
        }
        return report(argc >= 3 ? argv[2] : "e1000e-pp");
    }
    g_test_init(&argc, &argv, NULL);
    for (m = 0; m < ARRAY_SIZE(models); m++) {
        add_tests(models[m]);
    }
    return g_test_run();
}
