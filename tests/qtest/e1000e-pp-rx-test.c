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
#include "e1000e-pp-rx-test.h"

const uint8_t src_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const char *const models[] = { "e1000e-pp", "e1000e" };

bool is_stock(const char *model)
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
void frame_fill(uint8_t *f, size_t len, bool tagged, uint32_t seq)
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

uint32_t frame_seq(const uint8_t *f, bool tag_in_buffer)
{
    return ldl_be_p(f + (tag_in_buffer ? 16 : 12) + 2);
}

/*
 * The bytes the device should place in the buffers for a wire frame:
 * the tag removed when stripped, then the FCS (CRC-32 of the frame as it
 * was on the wire, least significant byte first) when RCTL.SECRC=0.
 * stock e1000e writes four zero bytes instead of the FCS.
 */
size_t expected_bytes(uint8_t *out, const uint8_t *wire, size_t len,
                      bool tagged, bool strip, bool keep_crc, bool stock)
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

void check_chain(EppRxFrame *f, const uint8_t *exp, size_t n, size_t bs,
                 bool keep_crc, bool stock)
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
void wait_arrived(EppRx *rx, uint64_t tpr)
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
