/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the e1000e-pp device core, run without QEMU against a
 * fake platform. Register offsets and bits are written in the tests as
 * the 82574L datasheet gives them, not taken from the model's headers.
 * This file holds the helpers and the runner; the scenarios live in
 * core-test-{basic,rx,tx,intr}.c. Output is TAP.
 */
#include "core-test.h"

int test_failed;
static int failures;

uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

uint16_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

void put64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        p[i] = v >> (8 * i);
    }
}

/* Reference CRC-32 (bitwise), independent of the model's table version. */
uint32_t ref_crc32(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    int k;

    while (n--) {
        crc ^= *p++;
        for (k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
        }
    }
    return ~crc;
}

/* A device past reset and auto-negotiation, link up. */
Fake *up_device(void)
{
    Fake *f = fake_new();

    fake_step(f, 600 * MS);
    return f;
}

/* Rx ring of n extended/legacy descriptors, RDT = n - 1 (all posted). */
void rx_ring(Fake *f, unsigned n, uint32_t rctl, int extended)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        memset(f->mem + RX_RING + 16 * i, 0, 16);
        put64(f->mem + RX_RING + 16 * i, RX_BUF(i));
    }
    wr(f, 0x05008, extended ? 1u << 15 : 0);       /* RFCTL.EXTEN */
    wr(f, 0x02800, RX_RING);                        /* RDBAL */
    wr(f, 0x02804, 0);                              /* RDBAH */
    wr(f, 0x02808, n * 16);                         /* RDLEN */
    wr(f, 0x02810, 0);                              /* RDH */
    wr(f, 0x02818, n - 1);                          /* RDT */
    wr(f, 0x00100, rctl | 1u << 1 | 1u << 15);      /* RCTL.EN | BAM */
}

/*
 * 8 packet-split descriptors (RDLEN 256): buffer 0 of descriptor i at
 * RX_BUF(2i), buffer 1 at RX_BUF(2i + 1); RDT in 16-byte units.
 */
void rx_split_ring(Fake *f, uint32_t psrctl, uint32_t rdt, uint32_t rctl)
{
    unsigned i;

    memset(f->mem + RX_RING, 0, 256);
    for (i = 0; i < 8; i++) {
        put64(f->mem + RX_RING + 32 * i, RX_BUF(2 * i));
        put64(f->mem + RX_RING + 32 * i + 8, RX_BUF(2 * i + 1));
    }
    wr(f, 0x02170, psrctl);                         /* PSRCTL */
    wr(f, 0x02800, RX_RING);                        /* RDBAL */
    wr(f, 0x02808, 256);                            /* RDLEN */
    wr(f, 0x02810, 0);                              /* RDH */
    wr(f, 0x02818, rdt);                            /* RDT */
    wr(f, 0x00100, rctl);                           /* RCTL */
}

void make_frame(uint8_t *buf, size_t len, uint8_t seed)
{
    static const uint8_t da[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    size_t i;

    memcpy(buf, da, 6);
    memcpy(buf + 6, "\x02\x00\x00\x00\x00\x01", 6);
    buf[12] = 0x88;      /* local experimental EtherType 0x88b5 */
    buf[13] = 0xb5;
    for (i = 14; i < len; i++) {
        buf[i] = (uint8_t)(i * 7 + seed);
    }
}

/* RFC 1071 checksum, one 16-bit word at a time. */
uint16_t ref_csum(const uint8_t *p, size_t n)
{
    uint32_t sum = 0;
    size_t i;

    for (i = 0; i + 1 < n; i += 2) {
        sum += p[i] << 8 | p[i + 1];
    }
    if (n & 1) {
        sum += p[n - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}

uint16_t mdic_read(Fake *f, unsigned reg)
{
    uint32_t v;

    wr(f, 0x00020, 2u << 26 | 1u << 21 | reg << 16);
    v = rd(f, 0x00020);
    CHECK(v & 1u << 28);                            /* READY */
    CHECK(!(v & 1u << 30));                         /* ERROR */
    CHECK_EQ((v >> 16) & 0x1f, reg);                /* REGADD echoed */
    return (uint16_t)v;
}

void mdic_write(Fake *f, unsigned reg, uint16_t val)
{
    wr(f, 0x00020, 1u << 26 | 1u << 21 | reg << 16 | val);
    CHECK(rd(f, 0x00020) & 1u << 28);
}

void tx_ring(Fake *f, unsigned n)
{
    memset(f->mem + TX_RING, 0, n * 16);
    wr(f, 0x03800, TX_RING);
    wr(f, 0x03804, 0);
    wr(f, 0x03808, n * 16);
    wr(f, 0x03810, 0);
    wr(f, 0x03818, 0);
    wr(f, 0x00400, 1u << 1 | 1u << 3);              /* TCTL.EN | PSP */
}

void tx_push(Fake *f, unsigned i, size_t len, uint8_t cmd)
{
    uint8_t *d = f->mem + TX_RING + 16 * i;

    memset(d, 0, 16);
    put64(d, TX_BUF);
    d[8] = len & 0xff;
    d[9] = len >> 8;
    d[11] = cmd;
}

/* A TSO context descriptor: IPv4/TCP, the given HDRLEN and MSS. */
void tx_push_tso_context(Fake *f, unsigned i, uint8_t hdrlen,
                                uint16_t mss, uint32_t paylen)
{
    uint8_t *d = f->mem + TX_RING + 16 * i;

    memset(d, 0, 16);
    d[0] = 14;                                      /* IPCSS */
    d[1] = 24;                                      /* IPCSO */
    d[4] = 34;                                      /* TUCSS */
    d[5] = 50;                                      /* TUCSO */
    d[8] = paylen & 0xff;
    d[9] = (paylen >> 8) & 0xff;
    d[10] = (paylen >> 16) & 0x0f;                  /* DTYP 0: context */
    d[11] = 0x20 | 0x04 | 0x02 | 0x01;              /* DEXT TSE IP TCP */
    d[13] = hdrlen;
    d[14] = mss & 0xff;
    d[15] = mss >> 8;
}

/* A TSO data descriptor of len bytes at addr. */
void tx_push_tso_data(Fake *f, unsigned i, uint64_t addr,
                             uint32_t len, bool eop)
{
    uint8_t *d = f->mem + TX_RING + 16 * i;

    memset(d, 0, 16);
    put64(d, addr);
    d[8] = len & 0xff;
    d[9] = (len >> 8) & 0xff;
    d[10] = 0x10 | ((len >> 16) & 0x0f);            /* DTYP 1: data */
    d[11] = 0x20 | 0x04 | (eop ? 0x01 : 0);         /* DEXT TSE EOP */
    d[13] = 0x02;                                   /* POPTS.TXSM */
}

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
#define T(fn) { #fn, fn }
    T(test_crc32_check_value),
    T(test_crc32_every_folding_variant),
    T(test_internet_checksum_matches_rfc1071),
    T(test_nvm_mac_and_checksum_via_eerd),
    T(test_reset_sets_auto_rd_within_driver_window),
    T(test_phy_identity_and_unimplemented_reads_zero),
    T(test_phy_power_down_drops_link_and_raises_lsc),
    T(test_pba_txa_is_what_rxa_leaves),
    T(test_rx_fcs_counted_in_one_descriptor),
    T(test_rx_fcs_straddles_two_chunks),
    T(test_rx_fcs_alone_in_last_chunk),
    T(test_rx_secrc_strips_fcs),
    T(test_rx_waits_in_packet_buffer_when_ring_is_empty),
    T(test_rx_packet_buffer_overflow_counts_mpc_and_rxo),
    T(test_rx_frame_bigger_than_packet_buffer_is_missed),
    T(test_rx_address_filters),
    T(test_rx_packet_split_header_split_never_passes_rdt),
    T(test_rx_packet_split_without_buffers_1_to_3_spends_nothing),
    T(test_rx_mta_mo3_uses_address_bits_43_32),
    T(test_rx_rss_hash_matches_toeplitz_vectors),
    T(test_rx_checksum_status_from_the_frame),
    T(test_rx_vlan_filter_and_strip),
    T(test_rx_rxdmt0_at_rdmts_threshold),
    T(test_rx_wthresh_holds_writeback_until_rdtr_expires),
    T(test_rx_xoff_when_buffer_passes_fcrth),
    T(test_phy_loopback_returns_tx_frames_to_rx_only),
    T(test_rx_oversize_without_lpe_counts_roc),
    T(test_tx_legacy_frame_bytes_and_dd_only_with_rs),
    T(test_tx_pads_short_frames_with_psp),
    T(test_tx_udp_checksum_of_zero_goes_out_as_ffff),
    T(test_tx_wthresh_holds_dd_until_tidv),
    T(test_tso_context_reload_mid_packet_cannot_overrun_txbuf),
    T(test_tso_mss_zero_mid_packet_does_not_hang),
    T(test_ivar_bit31_tx_interrupt_skips_ide_delay),
    T(test_tx_tail_outside_ring_is_ignored),
    T(test_stats_clear_on_read_and_high_half_clears_both),
    T(test_intx_int_asserted_and_icr_read_deasserts),
    T(test_msix_ivar_routes_and_eiac_clears),
    T(test_itr_throttles_intx_assertions),
    T(test_rdtr_delays_rxt0_and_fpd_flushes),
    T(test_rx_cache_uses_descriptor_as_fetched),
    T(test_rx_ring_dry_part_way_resumes_after_rdt),
    T(test_rx_fetch_limit_puts_dry_point_at_each_chunk),
    T(test_rx_hold_desc_stops_a_frame_until_released),
    T(test_rx_partial_writeback_flushed_by_rdtr),
    T(test_rx_null_descriptor_gets_dd_and_no_data),
    T(test_rx_failed_data_write_is_posted_and_listed),
    T(test_rx_failed_descriptor_fetch_waits_and_retries),
    T(test_rx_legacy_packet_checksum_on_first_descriptor),
    T(test_rx_split_no_hs_when_buffer0_takes_nothing),
    T(test_rx_buffer_addresses_new_and_reposted),
    T(test_rx_flxbuf_sets_buffer_size_in_1k_units),
    T(test_rx_reserved_buffer_size_is_2048_and_logged),
    T(test_d3hot_answers_all_ones_and_d0_resets),
    T(test_d3hot_takes_no_frame_and_signals_nothing),
    T(test_reset_raises_nothing_through_the_state_it_clears),
    T(test_register_table_access_kinds),
    T(test_dma_into_bar0_is_refused_not_reentered),
    T(test_rx_backpressure_config_keeps_every_frame),
    T(test_rx_backpressure_held_frame_counts_once),
    T(test_wake_on_link_change_sets_pme_and_wus_sticks),
    T(test_wake_frames_in_d3hot),
    T(test_no_pme_without_pme_en),
    T(test_d0_apme_notes_wake_in_wus_only),
    T(test_ctrl_rst_window_then_auto_rd),
    T(test_eerd_in_ctrl_rst_window_waits_for_auto_rd),
    T(test_ctrl_rst_flushes_frames_waiting_in_packet_buffer),
    T(test_bus_master_off_holds_engines_and_lists_refused_dma),
    T(test_gio_master_disable_holds_frames_without_dma_errors),
    T(test_knobs_hold_tx_and_drop_the_link),
    T(test_rx_pause_frame_holds_tx_for_its_quanta),
    T(test_rx_rss_hash_with_the_mrqc_linux_writes),
    T(test_rx_error_dropped_without_sbp_counts_each_kind),
    T(test_rx_error_stored_with_sbp_carries_its_bit),
    T(test_rx_error_injection_marks_the_next_n_frames_in_order),
    T(test_rx_oversize_injection_roc_drop_or_store_with_sbp),
    T(test_rx_sbp_stores_long_frames_up_to_16k),
    T(test_rx_roc_counts_only_frames_passing_the_filters),
    T(test_systim_advances_40_ns_per_tick_at_linux_timinca),
    T(test_tx_stamp_latched_for_a_tstamp_descriptor),
    T(test_rx_stamp_for_ptp_v2_l2_sync_sets_tst),
    T(test_rx_stamp_for_ptp_v1_udp_port_319),
    T(test_timesync_registers_keep_what_linux_writes),
    T(test_tx_writeback_whole_descriptor_with_wthresh),
    T(test_tx_one_tdt_write_walks_at_most_256_descriptors),
    T(test_tx_descriptor_read_failure_stops_tx_until_tctl_en),
    T(test_tx_data_read_failure_writes_no_dd_and_stops),
    T(test_icr_write_of_bit_31_keeps_int_asserted),
    T(test_ctrl_slu_gates_the_link_and_frcspd_forces_speed),
    T(test_swsm_smbi_is_acquired_by_reading),
    T(test_rx_runt_shorter_than_a_header_counts_ruc),
    T(test_extcnf_ctrl_mdio_ownership_is_always_granted),
    T(test_phy_soft_reset_keeps_registers_phy_rst_restores),
    T(test_pba_split_kept_across_ctrl_rst_not_d3hot),
    T(test_cover_fcs_straddle_and_alone),
    T(test_cover_ring_dry_split_polls_and_wb_flushes),
    T(test_cover_dry_ring_moving_nothing_counts_nothing),
    T(test_cover_rnbc_and_injected_errors),
    T(test_cover_fault_record_names_the_frame),
    T(test_knob_dma_fault_writes_rejects_the_next_data_write),
    T(test_events_carry_the_replay_instruction_count),
    T(test_migrate_mid_frame_completes_the_frame_identically),
    T(test_migrate_pending_delay_timer_fires_at_its_deadline),
    T(test_migrate_refuses_each_corrupted_field),
#undef T
};

int main(void)
{
    size_t i, n = sizeof(tests) / sizeof(tests[0]);

    printf("1..%zu\n", n);
    for (i = 0; i < n; i++) {
        test_failed = 0;
        tests[i].fn();
        printf("%s %zu - %s\n", test_failed ? "not ok" : "ok", i + 1,
               tests[i].name);
        failures += test_failed;
    }
    return failures ? 1 : 0;
}
