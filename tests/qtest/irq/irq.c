/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interrupt and moderation qtests for the 82574L model, checked against
 * the 82574L datasheet.
 *
 * Every scenario runs on "e1000e-pp" and on the stock "e1000e".  Where
 * the stock model is known to differ, the scenario names the difference
 * (epp_on_stock) and asserts what stock does instead.  A model that is not
 * built into the binary is skipped (and the runner fails the run).
 *
 * Paths: /x86_64/<model>/<scenario>, e.g. /x86_64/e1000e-pp/rdtr_fpd_flushes.
 * The helpers the interrupt scenario files in irq/ share; each file is
 * its own binary, e1000e-pp-irq-<file>-test.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "irq.h"

bool irq_line_high(EppDev *d)
{
    return epp_intx_pin(d) >= 0;
}

EppDev *irq_start_intx(const char *model)
{
    EppDev *d = epp_start(model, NULL);

    epp_watch_intx(d);
    epp_bring_up(d, &epp_default_config);
    epp_rd(d, ICR);
    return d;
}

uint64_t irq_send_small(EppDev *d, uint64_t g, uint8_t seed,
                        uint32_t extra_cmd)
{
    uint8_t f[60], desc[EPP_DESC_LEN];

    if (!g) {
        g = epp_alloc(d, sizeof(f));
        epp_tx_eth_header(f, 0x88b5);
        epp_fill_pattern(f + 14, sizeof(f) - 14, seed);
        epp_memwrite(d, g, f, sizeof(f));
    }
    epp_txd_legacy(desc, g, sizeof(f),
                   TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS | extra_cmd);
    epp_tx_push(d, desc);
    return g;
}
