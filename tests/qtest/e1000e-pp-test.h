/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios of e1000e-pp-test, one file per concept:
 *   e1000e-pp-test-config.c  PCI identity, NVM, reset, packet buffer
 *   e1000e-pp-test-phy.c     PHY over MDIC, link
 *   e1000e-pp-test-rxtx.c    statistics, transmit, receive
 *   e1000e-pp-test-irq.c     INTx, MSI-X
 * Each scenario takes the -device name of the model under test.
 */

#ifndef E1000E_PP_TEST_H
#define E1000E_PP_TEST_H

/* True for QEMU's stock model, whose known differences are asserted */
bool is_stock(const char *model);

/* A test frame to our MAC: local source, EtherType 0x88b5, pattern body */
void make_frame(uint8_t *f, size_t len, uint8_t seed);

/* e1000e-pp-test-config.c */
void pci_identity(const char *model);
void nvm_mac_and_checksum(const char *model);
void reset_sets_auto_rd(const char *model);
void pba_split(const char *model);
void pm_capability_advertises_pme(const char *model);
void pm_d3hot_answers_all_ones_and_resets_on_d0(const char *model);

/* e1000e-pp-test-phy.c */
void phy_identity_via_mdic(const char *model);
void phy_power_down_drops_link(const char *model);
void link_change_lsc(const char *model);

/* e1000e-pp-test-rxtx.c */
void stats_clear_on_read(const char *model);
void tx_legacy_descriptor_frame_bytes(const char *model);
void tx_data_descriptor_frame_bytes(const char *model);
void rx_legacy_frame_bytes(const char *model);
void rx_extended_frame_bytes(const char *model);
void rx_fcs_straddles_descriptors(const char *model);

/* e1000e-pp-test-irq.c */
void intx_int_asserted(const char *model);
void msix_ivar_routing(const char *model);

#endif /* E1000E_PP_TEST_H */
