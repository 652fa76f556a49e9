/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios of e1000e-pp-test (the device as the driver probes it), one
 * file per concept:
 *   e1000e-pp-test-config.c  PCI identity, PM, NVM, reset, packet buffer
 *   e1000e-pp-test-phy.c     PHY over MDIC, link
 *   e1000e-pp-test-stats.c   statistics registers
 *   e1000e-pp-test-props.c   bad property and knob values refused
 * Each scenario takes the -device name of the model under test.
 */

#ifndef E1000E_PP_TEST_H
#define E1000E_PP_TEST_H

#include "e1000e-pp-scenario.h"

/* e1000e-pp-test-config.c */
void pci_identity(const char *model);
void nvm_mac_and_checksum(const char *model);
void prop_mac_sets_ral_rah_and_nvm(const char *model);
void reset_sets_auto_rd(const char *model);
void pba_split(const char *model);
void pm_capability_advertises_pme(const char *model);
void pm_d3hot_answers_all_ones_and_resets_on_d0(const char *model);
void pm_link_change_wakes_through_pme(const char *model);
void reset_delay_widens_ctrl_rst(const char *model);
void knob_tx_hold_stops_tdh(const char *model);
void pm_magic_packet_wakes_from_d3hot(const char *model);
void pm_d1_d2_are_refused(const char *model);
void gio_master_disable_holds_frames(const char *model);
void knob_link_drop_and_wake_event(const char *model);
void race_reset_task_vs_runtime_suspend(const char *model);

/* e1000e-pp-test-phy.c */
void phy_identity_via_mdic(const char *model);
void phy_power_down_drops_link(const char *model);
void link_change_lsc(const char *model);

/* e1000e-pp-test-stats.c */
void stats_clear_on_read(const char *model);

/* e1000e-pp-test-props.c */
void props_bad_values_refused_over_qmp(const char *model);
void props_bad_values_refused_on_command_line(const char *model);
void props_add_cases(void);
void pp_only_properties(const char *model);

#endif /* E1000E_PP_TEST_H */
