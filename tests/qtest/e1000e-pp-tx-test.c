/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transmit, interrupt and moderation qtests for the 82574L model
 * (issue 4), checked against the 82574L datasheet.
 *
 * Every scenario runs on "e1000e-pp" and on the stock "e1000e".  Where
 * the stock model is known to differ, the scenario says so in a
 * "stock e1000e:" comment and asserts the stock behaviour or skips with
 * the reason.  A model that is not built into the binary is skipped.
 *
 * Paths: /x86_64/<model>/<scenario>, e.g. /x86_64/e1000e-pp/tso_ipv4_mss_536.
 * The scenarios live in e1000e-pp-tx-*.c and e1000e-pp-irq-*.c.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-txq.h"

#include <poll.h>

/* ---------------------------------------------------------------- */
/* Helpers shared by the scenarios                                  */
/* ---------------------------------------------------------------- */

bool txq_is_stock(const char *model)
{
    return strcmp(model, "e1000e") == 0;
}

bool txq_stock_differs(const char *model, const char *difference)
{
    g_autofree char *why = NULL;

    if (!txq_is_stock(model)) {
        return false;
    }
    why = g_strdup_printf("stock e1000e: %s", difference);
    g_test_message("%s", why);
    g_test_skip(why);
    return true;
}

uint32_t txq_csum_add(uint32_t sum, const uint8_t *p, size_t len)
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

uint16_t txq_csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return sum;
}

void txq_eth_header(uint8_t *f, uint16_t ethertype)
{
    /* To the peer (locally administered), from the device's own MAC */
    static const uint8_t peer[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

    memcpy(f, peer, 6);
    memcpy(f + 6, epp_mac, 6);
    stw_be_p(f + 12, ethertype);
}

void txq_fill(uint8_t *p, size_t len, uint8_t seed)
{
    size_t i;

    for (i = 0; i < len; i++) {
        p[i] = seed + i * 13 + (i >> 8);
    }
}

static void hex_row(const char *tag, size_t off, const uint8_t *p, size_t n)
{
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; i < n; i++) {
        g_string_append_printf(s, "%s%02x", i && !(i % 4) ? " " : "", p[i]);
    }
    g_test_message("  %04zx %s %s", off, tag, s->str);
    g_string_free(s, true);
}

void txq_expect_frame(E1000epp *d, const uint8_t *want, size_t len,
                      const char *what)
{
    g_autofree uint8_t *got = g_malloc(65536);
    size_t n = e1000epp_collect(d, got, 65536), common, first, row;
    g_autofree char *why = NULL;

    if (n == len && memcmp(got, want, len) == 0) {
        return;
    }
    common = MIN(n, len);
    for (first = 0; first < common && got[first] == want[first]; first++) {
        continue;
    }
    if (n != len) {
        why = g_strdup_printf("%s: %zu bytes on the wire, expected %zu "
                              "(first difference at byte %zu)",
                              what, n, len, first);
    } else {
        why = g_strdup_printf("%s: byte %zu is 0x%02x, expected 0x%02x "
                              "(%zu bytes)", what, first, got[first],
                              want[first], len);
    }
    /* The 16-byte rows around the first difference */
    row = first >= 32 ? (first & ~(size_t)15) - 32 : 0;
    for (; row < common && row < first + 48; row += 16) {
        hex_row("got ", row, got + row, MIN(16, common - row));
        hex_row("want", row, want + row, MIN(16, common - row));
    }
    e1000epp_dump_regs(d, why);
    g_error("%s on %s", why, d->model);
}

void txq_expect_wire_idle(E1000epp *d)
{
    uint8_t hdr[4];

    /* A register read lets QEMU's main loop flush anything queued */
    e1000epp_rd(d, STATUS);
    if (!e1000epp_wire_idle(d)) {
        g_autofree char *why = NULL;
        ssize_t n = recv(d->sock[0], hdr, sizeof(hdr), MSG_PEEK);

        why = g_strdup_printf("unexpected frame on the wire (%u bytes)",
                              n == 4 ? ldl_be_p(hdr) : 0);
        e1000epp_dump_regs(d, why);
        g_error("%s on %s", why, d->model);
    }
}

void txq_settle(E1000epp *d, E1000eppCond cond, void *opaque,
                const char *what)
{
    int i;

    /* 5 s of real time: a host event, not a device timing */
    for (i = 0; i < 5000; i++) {
        if (cond(d, opaque)) {
            return;
        }
        g_usleep(1000);
    }
    e1000epp_dump_regs(d, what);
    g_error("%s: not reached without advancing virtual time on %s", what,
            d->model);
}

void txq_step_to(E1000epp *d, int64_t t_ns)
{
    if (t_ns > d->now_ns) {
        e1000epp_step(d, t_ns - d->now_ns);
    }
    g_assert_cmpint(d->now_ns, ==, t_ns);
}

void txq_txd_context(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                     uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                     uint16_t tucse, uint32_t paylen, uint32_t tucmd,
                     uint8_t hdrlen, uint16_t mss)
{
    g_assert(paylen < (1u << 20));
    e1000epp_txd_context(desc, ipcss, ipcso, ipcse, tucss, tucso, tucse,
                         paylen | tucmd);
    /* §7.2.10.2 dword 3: STA 7:0, HDRLEN 15:8, MSS 31:16 */
    stl_le_p(desc + 12, ((uint32_t)hdrlen << 8) | ((uint32_t)mss << 16));
}

/* ---------------------------------------------------------------- */
/* Registration                                                     */
/* ---------------------------------------------------------------- */


#define SCENARIO(fn) E1000EPP_SCENARIO(fn)

static const E1000eppScenario scenarios[] = {
    /* Descriptor forms and offloads */
    SCENARIO(tx_legacy_ic_inserts_checksum_at_cso),
    SCENARIO(tx_context_then_data_offsets_from_context),
    SCENARIO(tx_context_tucse_limits_checksum),
    SCENARIO(tx_context_udp_ipv4_with_options),
    SCENARIO(tx_data_without_context_sent_as_is),
    SCENARIO(tx_vlan_insertion_vle_vme_vet),
    SCENARIO(tx_psp_pads_short_frames),
    SCENARIO(tx_packet_across_two_tdt_writes),
    SCENARIO(tx_dd_only_where_rs),
    SCENARIO(tx_ring_wrap),
    SCENARIO(tx_tdt_outside_ring_ignored),
    /* TCP segmentation */
    SCENARIO(tso_ipv4_mss_536),
    SCENARIO(tso_ipv4_mss_1448),
    SCENARIO(tso_ipv4_mss_1460),
    SCENARIO(tso_ipv4_mss_8000_jumbo),
    SCENARIO(tso_ipv4_ip_id_wraps),
    SCENARIO(tso_ipv4_header_split_across_descriptors),
    SCENARIO(tso_ipv6_mss_536),
    SCENARIO(tso_ipv6_mss_1440),
    SCENARIO(tso_ipv6_mss_8000_jumbo),
    SCENARIO(tso_payload_multiple_of_mss),
    /* Interrupt causes and routing */
    SCENARIO(irq_icr_clear_on_read_rules),
    SCENARIO(irq_ics_ims_imc_intx_level),
    SCENARIO(irq_iame_auto_mask_on_icr_read),
    SCENARIO(irq_selftest_icr_bits_0_to_14),
    SCENARIO(irq_msi_message_per_assertion),
    SCENARIO(irq_msix_ivar_routing_tx_rx_other),
    SCENARIO(irq_msix_eiac_auto_clear),
    SCENARIO(irq_msix_eiame_auto_mask),
    SCENARIO(irq_msix_other_aggregates_lsc),
    /* Moderation timers */
    SCENARIO(itr_throttles_intx_exact),
    SCENARIO(itr_small_value_no_forced_minimum),
    SCENARIO(eitr_per_vector_exact),
    SCENARIO(rdtr_restarts_per_frame),
    SCENARIO(radv_absolute_bound),
    SCENARIO(rdtr_fpd_flushes),
    SCENARIO(tidv_ide_delays_txdw),
    SCENARIO(tadv_absolute_bound),
    SCENARIO(tidv_fpd_flushes),
    SCENARIO(tidv_under_msix),
    SCENARIO(rdtr_under_msix),
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    e1000epp_add_scenarios(scenarios, ARRAY_SIZE(scenarios));
    return g_test_run();
}
