/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transmit qtests for the 82574L model, checked against the 82574L
 * datasheet.
 *
 * Every scenario runs on "e1000e-pp" and on the stock "e1000e".  Where
 * the stock model is known to differ, the scenario says so in a
 * "stock e1000e:" comment and asserts the stock behaviour or skips with
 * the reason.  A model that is not built into the binary is skipped.
 *
 * Paths: /x86_64/<model>/<scenario>, e.g. /x86_64/e1000e-pp/tso_ipv4_mss_536.
 * The scenarios live in e1000e-pp-tx-*.c.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-tx-test.h"

/* Copy a buffer into fresh guest memory; its guest address */
uint64_t put_guest(E1000epp *d, const uint8_t *buf, size_t len)
{
    uint64_t g = e1000epp_alloc(d, len);

/* Queue n descriptors with one TDT write and wait until they are done */
    e1000epp_memwrite(d, g, buf, len);
    return g;
}

void push_all(E1000epp *d, uint8_t (*desc)[EPP_DESC_LEN], int n)
{
    int i;

    for (i = 0; i < n; i++) {
        e1000epp_tx_write(d, desc[i]);
    }
    e1000epp_tx_kick(d);
    e1000epp_tx_wait_done(d);
}

void txd_context_tso(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
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
    /* Bytes on the wire */
    SCENARIO(tx_legacy_descriptor_frame_bytes),
    SCENARIO(tx_data_descriptor_frame_bytes),
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
};

int main(int argc, char **argv)
{
    return e1000epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios));
}
