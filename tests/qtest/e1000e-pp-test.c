/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Foundation qtests for the 82574L model: what the unmodified Linux
 * e1000e driver relies on, checked against the 82574L datasheet.
 *
 * Every scenario runs on "e1000e-pp".  It also runs on the stock "e1000e"
 * so both models can be compared; where the stock model is known to
 * differ, the scenario says so and asserts the stock behaviour instead
 * (see the "stock e1000e:" comments).  Scenarios of a knob stock does
 * not have run on e1000e-pp only (pp_only[]); pp_only_properties says
 * once, for all of them, that stock has none.  A model that is not
 * built into the binary is skipped.
 *
 * Paths: /x86_64/<model>/<scenario>, e.g. /x86_64/e1000e-pp/pci_identity.
 * The scenarios live in e1000e-pp-test-*.c, one file per concept; the
 * receive, transmit and interrupt binaries have their own lists
 * (e1000e-pp-rx-test.c, -tx-test.c, -irq-test.c).
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-test.h"

/* ---------------------------------------------------------------- */
/* Registration                                                     */
/* ---------------------------------------------------------------- */

static const E1000eppScenario scenarios[] = {
    { "pci_identity", pci_identity },
    { "pm_capability_advertises_pme", pm_capability_advertises_pme },
    { "pm_d3hot_answers_all_ones_and_resets_on_d0",
      pm_d3hot_answers_all_ones_and_resets_on_d0 },
    { "pm_link_change_wakes_through_pme", pm_link_change_wakes_through_pme },
    { "reset_delay_widens_ctrl_rst", reset_delay_widens_ctrl_rst },
    { "pm_magic_packet_wakes_from_d3hot", pm_magic_packet_wakes_from_d3hot },
    { "pm_d1_d2_are_refused", pm_d1_d2_are_refused },
    { "gio_master_disable_holds_frames", gio_master_disable_holds_frames },
    { "nvm_mac_and_checksum", nvm_mac_and_checksum },
    { "reset_sets_auto_rd", reset_sets_auto_rd },
    { "phy_identity_via_mdic", phy_identity_via_mdic },
    { "phy_power_down_drops_link", phy_power_down_drops_link },
    { "pba_split", pba_split },
    { "stats_clear_on_read", stats_clear_on_read },
    { "link_change_lsc", link_change_lsc },
    { "prop_mac_sets_ral_rah_and_nvm", prop_mac_sets_ral_rah_and_nvm },
    { "props_bad_values_refused_on_command_line",
      props_bad_values_refused_on_command_line },
    { "pp_only_properties", pp_only_properties },
};

/* Knob scenarios: stock e1000e's side is pp_only_properties */
static const E1000eppScenario pp_only[] = {
    { "knob_tx_hold_stops_tdh", knob_tx_hold_stops_tdh },
    { "knob_link_drop_and_wake_event", knob_link_drop_and_wake_event },
    { "race_reset_task_vs_runtime_suspend",
      race_reset_task_vs_runtime_suspend },
    { "props_bad_values_refused_over_qmp",
      props_bad_values_refused_over_qmp },
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    props_add_cases();
    e1000epp_add_scenarios(scenarios, ARRAY_SIZE(scenarios));
    e1000epp_add_pp_scenarios(pp_only, ARRAY_SIZE(pp_only));
    return g_test_run();
}
