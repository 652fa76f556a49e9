/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp-tx-test: transmit scenarios, one file per concept:
 *   e1000e-pp-tx-basic.c     legacy and data descriptors on the wire
 *   e1000e-pp-tx-desc.c      descriptor forms, checksum offsets, VLAN,
 *                            padding
 *   e1000e-pp-tx-ring.c      TDT rules, DD/RS, ring wrap
 *   e1000e-pp-tx-tso.c       TCP segmentation, IPv4 and IPv6
 * Each scenario takes the -device name of the model under test.
 */

#ifndef E1000E_PP_TX_TEST_H
#define E1000E_PP_TX_TEST_H

#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

/* Copy a buffer into fresh guest memory; its guest address */
uint64_t put_guest(E1000epp *d, const uint8_t *buf, size_t len);
/* Queue n descriptors with one TDT write and wait until they are done */
void push_all(E1000epp *d, uint8_t (*desc)[EPP_DESC_LEN], int n);

/* Context descriptor with the TSO fields (HDRLEN, MSS) in dword 3 */
void txd_context_tso(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                     uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                     uint16_t tucse, uint32_t paylen, uint32_t tucmd,
                     uint8_t hdrlen, uint16_t mss);

/* e1000e-pp-tx-basic.c */
void tx_legacy_descriptor_frame_bytes(const char *model);
void tx_data_descriptor_frame_bytes(const char *model);

/* e1000e-pp-tx-desc.c */
void tx_legacy_ic_inserts_checksum_at_cso(const char *model);
void tx_context_then_data_offsets_from_context(const char *model);
void tx_context_tucse_limits_checksum(const char *model);
void tx_context_udp_ipv4_with_options(const char *model);
void tx_data_without_context_sent_as_is(const char *model);
void tx_vlan_insertion_vle_vme_vet(const char *model);
void tx_psp_pads_short_frames(const char *model);

/* e1000e-pp-tx-ring.c */
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

#endif /* E1000E_PP_TX_TEST_H */
