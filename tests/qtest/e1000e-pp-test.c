/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Foundation qtests for the 82574L model: what the unmodified Linux
 * e1000e driver relies on, checked against the 82574L datasheet.
 *
 * Every scenario runs on "e1000e-pp".  It also runs on the stock "e1000e"
 * so both models can be compared; where the stock model is known to
 * differ, the scenario says so and asserts the stock behaviour instead
 * (see the "stock e1000e:" comments).  A model that is not built into
 * the binary is skipped.
 *
 * Paths: /x86_64/<model>/<scenario>, e.g. /x86_64/e1000e-pp/pci_identity.
 * The scenarios live in e1000e-pp-test-*.c, one file per concept.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-test.h"


bool is_stock(const char *model)
{
    return strcmp(model, "e1000e") == 0;
}

void make_frame(uint8_t *f, size_t len, uint8_t seed)
{
    static const uint8_t src[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
    size_t i;

    g_assert(len >= 14);
    memcpy(f, epp_mac, 6);
    memcpy(f + 6, src, 6);
    f[12] = 0x88;
    f[13] = 0xb5;
    for (i = 14; i < len; i++) {
        f[i] = seed + i * 7;
    }
}

/* ---------------------------------------------------------------- */
/* Registration                                                     */
/* ---------------------------------------------------------------- */

static const E1000eppScenario scenarios[] = {
    { "pci_identity", pci_identity },
    { "pm_capability_advertises_pme", pm_capability_advertises_pme },
    { "pm_d3hot_answers_all_ones_and_resets_on_d0",
      pm_d3hot_answers_all_ones_and_resets_on_d0 },
    { "nvm_mac_and_checksum", nvm_mac_and_checksum },
    { "reset_sets_auto_rd", reset_sets_auto_rd },
    { "phy_identity_via_mdic", phy_identity_via_mdic },
    { "phy_power_down_drops_link", phy_power_down_drops_link },
    { "pba_split", pba_split },
    { "stats_clear_on_read", stats_clear_on_read },
    { "tx_legacy_descriptor_frame_bytes", tx_legacy_descriptor_frame_bytes },
    { "tx_data_descriptor_frame_bytes", tx_data_descriptor_frame_bytes },
    { "rx_legacy_frame_bytes", rx_legacy_frame_bytes },
    { "rx_extended_frame_bytes", rx_extended_frame_bytes },
    { "rx_fcs_straddles_descriptors", rx_fcs_straddles_descriptors },
    { "intx_int_asserted", intx_int_asserted },
    { "msix_ivar_routing", msix_ivar_routing },
    { "link_change_lsc", link_change_lsc },
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    e1000epp_add_scenarios(scenarios, ARRAY_SIZE(scenarios));
    return g_test_run();
}
