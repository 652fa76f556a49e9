/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp-tx-test: transmit, interrupt and moderation scenarios
 * (issue 4), one file per concept:
 *   e1000e-pp-tx-desc.c      descriptor forms, checksum offsets, VLAN,
 *                            padding, TDT rules, DD/RS, ring wrap
 *   e1000e-pp-tx-tso.c       TCP segmentation, IPv4 and IPv6
 *   e1000e-pp-irq-route.c    INTx, MSI, MSI-X, ICR/ICS/IMS/IMC, IAM,
 *                            EIAC, EIAME, the self-test's ICR bit walk
 *   e1000e-pp-irq-timers.c   ITR, EITR, RDTR/RADV, TIDV/TADV, FPD
 * Each scenario takes the -device name of the model under test.
 */

#ifndef E1000E_PP_TXQ_H
#define E1000E_PP_TXQ_H

#include "e1000e-pp-drv.h"

/* True for QEMU's stock model, whose known differences are asserted */
bool txq_is_stock(const char *model);
/*
 * On the stock model: skip the rest of the scenario, naming the known
 * difference ("stock e1000e: ..."), and return true.  The scenario then
 * stops its device and returns.
 */
bool txq_stock_differs(const char *model, const char *difference);

/* Internet checksum (RFC 1071): 16-bit big-endian words, folded */
uint32_t txq_csum_add(uint32_t sum, const uint8_t *p, size_t len);
uint16_t txq_csum_fold(uint32_t sum);

/* A frame to the peer: Ethernet header with the given EtherType */
void txq_eth_header(uint8_t *f, uint16_t ethertype);
/* Pattern bytes that differ per offset and per seed */
void txq_fill(uint8_t *p, size_t len, uint8_t seed);

/*
 * Collect one frame from the wire and compare it byte for byte; on a
 * mismatch name the first differing offset, dump the registers and fail.
 * `what` names the frame in the message ("segment 3 of 7").
 */
void txq_expect_frame(E1000epp *d, const uint8_t *want, size_t len,
                      const char *what);
/* Nothing more on the wire (after letting QEMU's main loop run) */
void txq_expect_wire_idle(E1000epp *d);

/*
 * Wait for a condition that depends on QEMU's main loop only (a frame
 * injected on the socket being received) without advancing virtual time:
 * polls in real time, bounded, dumps registers on failure.
 */
void txq_settle(E1000epp *d, E1000eppCond cond, void *opaque,
                const char *what);
/* Step virtual time to an absolute instant (no-op if already there) */
void txq_step_to(E1000epp *d, int64_t t_ns);

/* Context descriptor with the TSO fields (HDRLEN, MSS) in dword 3 */
void txq_txd_context(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                     uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                     uint16_t tucse, uint32_t paylen, uint32_t tucmd,
                     uint8_t hdrlen, uint16_t mss);

/* e1000e-pp-tx-desc.c */
void tx_legacy_ic_inserts_checksum_at_cso(const char *model);
void tx_context_then_data_offsets_from_context(const char *model);
void tx_context_tucse_limits_checksum(const char *model);
void tx_context_udp_ipv4_with_options(const char *model);
void tx_data_without_context_sent_as_is(const char *model);
void tx_vlan_insertion_vle_vme_vet(const char *model);
void tx_psp_pads_short_frames(const char *model);
void tx_packet_across_two_tdt_writes(const char *model);
void tx_dd_only_where_rs(const char *model);
void tx_ring_wrap(const char *model);
void tx_tdt_outside_ring_ignored(const char *model);

/* e1000e-pp-tx-tso.c */
void tso_ipv4_mss_536(const char *model);
void tso_ipv4_mss_1448(const char *model);
void tso_ipv4_mss_1460(const char *model);
void tso_ipv4_mss_8000_jumbo(const char *model);
void tso_ipv4_ip_id_wraps(const char *model);
void tso_ipv4_header_split_across_descriptors(const char *model);
void tso_ipv6_mss_536(const char *model);
void tso_ipv6_mss_1440(const char *model);
void tso_ipv6_mss_8000_jumbo(const char *model);
void tso_payload_multiple_of_mss(const char *model);

/* e1000e-pp-irq-route.c */
void irq_icr_clear_on_read_rules(const char *model);
void irq_ics_ims_imc_intx_level(const char *model);
void irq_iame_auto_mask_on_icr_read(const char *model);
void irq_selftest_icr_bits_0_to_14(const char *model);
void irq_msi_message_per_assertion(const char *model);
void irq_msix_ivar_routing_tx_rx_other(const char *model);
void irq_msix_eiac_auto_clear(const char *model);
void irq_msix_eiame_auto_mask(const char *model);
void irq_msix_other_aggregates_lsc(const char *model);

/* e1000e-pp-irq-timers.c */
void itr_throttles_intx_exact(const char *model);
void itr_small_value_no_forced_minimum(const char *model);
void eitr_per_vector_exact(const char *model);
void rdtr_restarts_per_frame(const char *model);
void radv_absolute_bound(const char *model);
void rdtr_fpd_flushes(const char *model);
void tidv_ide_delays_txdw(const char *model);
void tadv_absolute_bound(const char *model);
void tidv_fpd_flushes(const char *model);
void tidv_under_msix(const char *model);
void rdtr_under_msix(const char *model);

#endif /* E1000E_PP_TXQ_H */
