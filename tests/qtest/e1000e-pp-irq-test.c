/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupt and moderation qtests for the 82574L model, checked against
 * the 82574L datasheet.
 *
 * Every scenario runs on "e1000e-pp" and on the stock "e1000e".  Where
 * the stock model is known to differ, the scenario names the difference
 * (on_stock) and asserts what stock does instead.  A model that is not
 * built into the binary is skipped (and the runner fails the run).
 *
 * Paths: /x86_64/<model>/<scenario>, e.g. /x86_64/e1000e-pp/rdtr_fpd_flushes.
 * The scenarios live in e1000e-pp-irq-*.c.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-irq-test.h"

bool irq_line_high(E1000epp *d)
{
    return e1000epp_intx_pin(d) >= 0;
}

E1000epp *irq_start_intx(const char *model)
{
    E1000epp *d = e1000epp_start(model, NULL);

    e1000epp_watch_intx(d);
    e1000epp_bring_up(d, &e1000epp_default_config);
    e1000epp_rd(d, ICR);
    return d;
}

uint64_t irq_send_small(E1000epp *d, uint64_t g, uint8_t seed,
                        uint32_t extra_cmd)
{
    uint8_t f[60], desc[EPP_DESC_LEN];

    if (!g) {
        g = e1000epp_alloc(d, sizeof(f));
        tx_eth_header(f, 0x88b5);
        fill_pattern(f + 14, sizeof(f) - 14, seed);
        e1000epp_memwrite(d, g, f, sizeof(f));
    }
    e1000epp_txd_legacy(desc, g, sizeof(f),
                        TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS | extra_cmd);
    e1000epp_tx_push(d, desc);
    return g;
}

#define SCENARIO(fn) E1000EPP_SCENARIO(fn)

static const E1000eppScenario scenarios[] = {
    /* Delivery */
    SCENARIO(intx_int_asserted),
    SCENARIO(msix_ivar_routing),
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
    return e1000epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios));
}
