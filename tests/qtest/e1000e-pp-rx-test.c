/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive-path qtests: bytes and write-backs with the plain ring verbs,
 * the page-pool design across every MTU breakpoint, FCS placement, all
 * seven buffer sizes, packet split, descriptor write-back batching, ring
 * exhaustion into the on-chip packet buffer and the x-rx-backpressure
 * property.  Every scenario runs on "e1000e-pp" and on the stock
 * "e1000e"; where the stock model differs it says so ("stock e1000e:")
 * and asserts the stock behaviour instead.
 *
 * Datasheet constants (buffer sizes, register values, bit positions) are
 * written as literals here on purpose: they must not come from the
 * model's headers.
 *
 *   e1000e-pp-rx-test --tap                 run the scenarios
 *   e1000e-pp-rx-test --report [MODEL] [--mtu A-B] [--step N]
 *                     [--json FILE|-]    the published table, measured
 *   e1000e-pp-rx-test --design-bench [--frames N] [--repeat R]
 *                                         stock vs page-pool design
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "e1000e-pp-rx-test.h"

/* ---------------------------------------------------------------- */
/* Expected bytes                                                   */
/* ---------------------------------------------------------------- */

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

EppRx *rx_start(const char *model, const EppRxSetup *s)
{
    E1000epp *d = e1000epp_start(model, NULL);

    e1000epp_bring_up(d, &e1000epp_default_config);
    return epp_rx_new(d, s);
}

void rx_stop(EppRx *rx)
{
    E1000epp *d = rx->d;

    epp_rx_free(rx);
    e1000epp_stop(d);
}

/* Inject and wait until the device has taken n frames in (TPR) */
void wait_arrived(EppRx *rx, uint64_t tpr)
{
    int i;

    /*
     * The netdev hands frames over in QEMU's main loop, not in virtual
     * time: poll without stepping the clock; each poll's register reads
     * are main-loop turns (bounded in turns, no sleep).
     */
    for (i = 0; i < EPP_MAIN_LOOP_TURNS; i++) {
        epp_rx_stats_update(rx);
        if (rx->tpr >= tpr) {
            g_assert_cmpuint(rx->tpr, ==, tpr);
            return;
        }
    }
    e1000epp_dump_regs(rx->d, "frames reaching the device");
    if (rx->tpr + rx->mpc == tpr) {
        /* 82574L §10.2.7 MPC: missed packets also count in TPR and TOR */
        g_error("TPR %" PRIu64 " + MPC %" PRIu64 " = %" PRIu64 " frames: "
                "missed frames are not counted in TPR on %s", rx->tpr,
                rx->mpc, tpr, rx->d->model);
    }
    g_error("TPR %" PRIu64 " of %" PRIu64 " frames after %d main-loop "
            "turns on %s", rx->tpr, tpr, EPP_MAIN_LOOP_TURNS, rx->d->model);
}

/* ---------------------------------------------------------------- */
/* Registration                                                     */
/* ---------------------------------------------------------------- */

static const E1000eppScenario scenarios[] = {
    { "rx_legacy_frame_bytes", rx_legacy_frame_bytes },
    { "rx_extended_frame_bytes", rx_extended_frame_bytes },
    { "rx_fcs_straddles_descriptors", rx_fcs_straddles_descriptors },
    { "rx/split_ring_pointers_16_byte_units",
      rx_split_ring_pointers_16_byte_units },
    { "rx/writeback_batches_wthresh", rx_writeback_batches_wthresh },
    { "rx/ring_exhaustion_packet_buffer", rx_ring_exhaustion_packet_buffer },
    { "rx/backpressure_on_holds_frames", rx_backpressure_on_holds_frames },
    { "rx/backpressure_off_drops_into_mpc",
      rx_backpressure_off_drops_into_mpc },
    { "rx_partial_frame_across_polls", rx_partial_frame_across_polls },
    { "rx_tail_before_contents_caught", rx_tail_before_contents_caught },
    { "rx_blocked_data_write_is_posted", rx_blocked_data_write_is_posted },
    { "rx_null_descriptor_skipped", rx_null_descriptor_skipped },
    { "rx_fetch_limit_set_at_run_time", rx_fetch_limit_set_at_run_time },
    { "rx_short_buffer_one_fault_record", rx_short_buffer_one_fault_record },
    { "rx/sbp_long_frame_exceeds_stock_buffer",
      rx_sbp_long_frame_exceeds_stock_buffer },
};

static void add_tests(void)
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

                    c->mtu = mtu_breakpoints[i];
                    c->keep_crc = crc;
                    c->strip = strip;
                    c->legacy = legacy;
                    path = g_strdup_printf(
                        "rx/pp_mtu/%u/%s/%s/%s", c->mtu,
                        crc ? "crc-kept" : "crc-stripped",
                        strip ? "tag-stripped" : "tag-kept",
                        legacy ? "legacy" : "extended");
                    e1000epp_add_case(path, pp_mtu_matrix, c);
                }
            }
        }
    }
    for (i = 0; i < ARRAY_SIZE(tails); i++) {
        for (r = 0; r <= 5; r++) {
            TailCase *c = g_new0(TailCase, 1);
            g_autofree char *path = NULL;

            c->l = tails[i] + r;
            path = g_strdup_printf("rx/fcs_tail/L%zu", c->l);
            e1000epp_add_case(path, fcs_tail, c);
        }
    }
    for (i = 0; i < ARRAY_SIZE(sizes); i++) {
        for (legacy = 0; legacy < 2; legacy++) {
            BsizeCase *c = g_new0(BsizeCase, 1);
            g_autofree char *path = NULL;

            c->bsize = sizes[i].bsize;
            c->rctl = sizes[i].rctl;
            c->legacy = legacy;
            path = g_strdup_printf("rx/buffer_size/%zu/%s", c->bsize,
                                   legacy ? "legacy" : "extended");
            e1000epp_add_case(path, rx_buffer_size, c);
        }
    }
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
            e1000epp_add_case(path, rx_packet_split, c);
        }
    }
    for (i = 0; i < 2; i++) {
        StockCase *c = g_new0(StockCase, 1);
        g_autofree char *path = NULL;

        c->mtu = i ? 9000 : 1500;
        path = g_strdup_printf("rx/stock_design/mtu%u", c->mtu);
        e1000epp_add_case(path, stock_design_delivers_in_order, c);
    }
    rx_partial_add_cases();
    rx_buffer_reposts_add_cases();
    rx_add_published_table_cases();
    rx_add_dma_cost_cases();
    rx_add_frame_error_cases();
    rx_designs_add_cases();
    e1000epp_add_scenarios(scenarios, ARRAY_SIZE(scenarios));
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--design-bench") == 0) {
        if (!getenv("QTEST_QEMU_BINARY")) {
            fprintf(stderr, "design-bench: set QTEST_QEMU_BINARY\n");
            return 2;
        }
        return design_bench(argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "--report") == 0) {
        if (!getenv("QTEST_QEMU_BINARY")) {
            fprintf(stderr, "report: set QTEST_QEMU_BINARY to the emulator\n");
            return 2;
        }
        return report(argc - 2, argv + 2);
    }
    g_test_init(&argc, &argv, NULL);
    add_tests();
    return g_test_run();
}
