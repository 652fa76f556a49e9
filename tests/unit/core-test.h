/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the unit tests of the device core: guest memory layout,
 * CHECK macros, the bring-up helpers and the scenario list.
 */
#ifndef CORE_TEST_H
#define CORE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-platform.h"
#include "regs-82574l.h"

#define MS              (1000 * 1000LL)
#define RX_RING         0x10000u
#define RX_BUF(i)       (0x20000u + (i) * 0x4000u)
#define TX_RING         0x18000u
#define TX_BUF          0x80000u

/* Set by a failed CHECK; the runner reports the scenario as not ok. */
extern int test_failed;

#define CHECK(cond) do { \
        if (!(cond)) { \
            printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #cond); \
            test_failed = 1; \
        } \
    } while (0)
#define CHECK_EQ(a, b) do { \
        unsigned long long va_ = (a), vb_ = (b); \
        if (va_ != vb_) { \
            printf("# %s:%d: %s = 0x%llx, expected 0x%llx\n", __FILE__, \
                   __LINE__, #a, va_, vb_); \
            test_failed = 1; \
        } \
    } while (0)

/* core-test-rxengine.c: descriptor cache, partial frames, posted writes */
void test_rx_cache_uses_descriptor_as_fetched(void);
void test_rx_ring_dry_part_way_resumes_after_rdt(void);
void test_rx_fetch_limit_puts_dry_point_at_each_chunk(void);
void test_rx_hold_desc_stops_a_frame_until_released(void);
void test_rx_partial_writeback_flushed_by_rdtr(void);
void test_rx_null_descriptor_gets_dd_and_no_data(void);
void test_rx_failed_data_write_is_posted_and_listed(void);
void test_rx_failed_descriptor_fetch_waits_and_retries(void);
void test_rx_legacy_packet_checksum_on_first_descriptor(void);
void test_rx_split_no_hs_when_buffer0_takes_nothing(void);
void test_rx_buffer_addresses_new_and_reposted(void);
void test_rx_flxbuf_sets_buffer_size_in_1k_units(void);
void test_rx_reserved_buffer_size_is_2048_and_logged(void);

/* core-test-coverage.c: situation coverage, the fault's frame number */
void test_cover_fcs_straddle_and_alone(void);
void test_cover_ring_dry_split_polls_and_wb_flushes(void);
void test_cover_dry_ring_moving_nothing_counts_nothing(void);
void test_cover_rnbc_and_injected_errors(void);
void test_cover_fault_record_names_the_frame(void);
void test_knob_dma_fault_writes_rejects_the_next_data_write(void);
void test_events_carry_the_replay_instruction_count(void);

/* core-test-migrate.c: save, load into a fresh core, refuse bad state */
void test_migrate_mid_frame_completes_the_frame_identically(void);
void test_migrate_pending_delay_timer_fires_at_its_deadline(void);
void test_migrate_refuses_each_corrupted_field(void);

/* Helpers (core-test.c) */
Fake *up_device(void);
uint32_t le32(const uint8_t *p);
uint16_t le16(const uint8_t *p);
void put64(uint8_t *p, uint64_t v);
uint32_t ref_crc32(const uint8_t *p, size_t n);
void rx_ring(Fake *f, unsigned n, uint32_t rctl, int extended);
void rx_split_ring(Fake *f, uint32_t psrctl, uint32_t rdt, uint32_t rctl);
void make_frame(uint8_t *buf, size_t len, uint8_t seed);
uint16_t ref_csum(const uint8_t *p, size_t n);
uint16_t mdic_read(Fake *f, unsigned reg);
void mdic_write(Fake *f, unsigned reg, uint16_t val);
void tx_ring(Fake *f, unsigned n);
void tx_push(Fake *f, unsigned i, size_t len, uint8_t cmd);
void tx_push_tso_context(Fake *f, unsigned i, uint8_t hdrlen,
                                uint16_t mss, uint32_t paylen);
void tx_push_tso_data(Fake *f, unsigned i, uint64_t addr,
                             uint32_t len, bool eop);

/* core-test-basic.c: NVM, reset, PHY, PBA, statistics, frame arithmetic */
void test_crc32_check_value(void);
void test_crc32_every_folding_variant(void);
void test_wake_on_link_change_sets_pme_and_wus_sticks(void);
void test_wake_frames_in_d3hot(void);
void test_no_pme_without_pme_en(void);
void test_d0_apme_notes_wake_in_wus_only(void);
void test_ctrl_rst_window_then_auto_rd(void);
void test_eerd_in_ctrl_rst_window_waits_for_auto_rd(void);
void test_ctrl_rst_flushes_frames_waiting_in_packet_buffer(void);
void test_bus_master_off_holds_engines_and_lists_refused_dma(void);
void test_gio_master_disable_holds_frames_without_dma_errors(void);
void test_knobs_hold_tx_and_drop_the_link(void);
void test_rx_pause_frame_holds_tx_for_its_quanta(void);
void test_d3hot_answers_all_ones_and_d0_resets(void);
void test_d3hot_takes_no_frame_and_signals_nothing(void);
void test_reset_raises_nothing_through_the_state_it_clears(void);
void test_register_table_access_kinds(void);
void test_dma_into_bar0_is_refused_not_reentered(void);
void test_rx_backpressure_config_keeps_every_frame(void);
void test_rx_backpressure_held_frame_counts_once(void);
void test_internet_checksum_matches_rfc1071(void);
void test_nvm_mac_and_checksum_via_eerd(void);
void test_reset_sets_auto_rd_within_driver_window(void);
void test_phy_identity_and_unimplemented_reads_zero(void);
void test_phy_power_down_drops_link_and_raises_lsc(void);
void test_pba_txa_is_what_rxa_leaves(void);
void test_stats_clear_on_read_and_high_half_clears_both(void);
void test_ctrl_slu_gates_the_link_and_frcspd_forces_speed(void);
void test_swsm_smbi_is_acquired_by_reading(void);
void test_rx_runt_shorter_than_a_header_counts_ruc(void);
void test_extcnf_ctrl_mdio_ownership_is_always_granted(void);
void test_phy_soft_reset_keeps_registers_phy_rst_restores(void);
void test_pba_split_kept_across_ctrl_rst_not_d3hot(void);

/* core-test-rx.c: receive */
void test_rx_fcs_counted_in_one_descriptor(void);
void test_rx_fcs_straddles_two_chunks(void);
void test_rx_fcs_alone_in_last_chunk(void);
void test_rx_secrc_strips_fcs(void);
void test_rx_waits_in_packet_buffer_when_ring_is_empty(void);
void test_rx_packet_buffer_overflow_counts_mpc_and_rxo(void);
void test_rx_frame_bigger_than_packet_buffer_is_missed(void);
void test_rx_wthresh_holds_writeback_until_rdtr_expires(void);
void test_rx_xoff_when_buffer_passes_fcrth(void);
void test_rx_address_filters(void);
void test_rx_vlan_filter_and_strip(void);
void test_rx_rxdmt0_at_rdmts_threshold(void);
void test_rx_packet_split_header_split_never_passes_rdt(void);
void test_rx_packet_split_without_buffers_1_to_3_spends_nothing(void);
void test_rx_mta_mo3_uses_address_bits_43_32(void);
void test_rx_rss_hash_matches_toeplitz_vectors(void);
void test_rx_checksum_status_from_the_frame(void);
void test_rx_oversize_without_lpe_counts_roc(void);
void test_rx_rss_hash_with_the_mrqc_linux_writes(void);

/* core-test-errors.c: frame errors, SBP, length statistics */
void test_rx_error_dropped_without_sbp_counts_each_kind(void);
void test_rx_error_stored_with_sbp_carries_its_bit(void);
void test_rx_error_injection_marks_the_next_n_frames_in_order(void);
void test_rx_oversize_injection_roc_drop_or_store_with_sbp(void);
void test_rx_sbp_stores_long_frames_up_to_16k(void);
void test_rx_roc_counts_only_frames_passing_the_filters(void);

/* core-test-timesync.c: SYSTIM, time stamps */
void test_systim_advances_40_ns_per_tick_at_linux_timinca(void);
void test_tx_stamp_latched_for_a_tstamp_descriptor(void);
void test_rx_stamp_for_ptp_v2_l2_sync_sets_tst(void);
void test_rx_stamp_for_ptp_v1_udp_port_319(void);
void test_timesync_registers_keep_what_linux_writes(void);

/* core-test-tx.c: transmit and loopback */
void test_tx_legacy_frame_bytes_and_dd_only_with_rs(void);
void test_phy_loopback_returns_tx_frames_to_rx_only(void);
void test_tx_wthresh_holds_dd_until_tidv(void);
void test_ivar_bit31_tx_interrupt_skips_ide_delay(void);
void test_tso_context_reload_mid_packet_cannot_overrun_txbuf(void);
void test_tso_mss_zero_mid_packet_does_not_hang(void);
void test_tx_pads_short_frames_with_psp(void);
void test_tx_udp_checksum_of_zero_goes_out_as_ffff(void);
void test_tx_tail_outside_ring_is_ignored(void);
void test_tx_writeback_whole_descriptor_with_wthresh(void);
void test_tx_one_tdt_write_walks_at_most_256_descriptors(void);
void test_tx_descriptor_read_failure_stops_tx_until_tctl_en(void);
void test_tx_data_read_failure_writes_no_dd_and_stops(void);

/* core-test-intr.c: interrupts and moderation */
void test_intx_int_asserted_and_icr_read_deasserts(void);
void test_msix_ivar_routes_and_eiac_clears(void);
void test_itr_throttles_intx_assertions(void);
void test_rdtr_delays_rxt0_and_fpd_flushes(void);
void test_icr_write_of_bit_31_keeps_int_asserted(void);

#endif
