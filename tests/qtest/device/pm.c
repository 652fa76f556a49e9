/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Power management, reset timing and the race-tooling knobs: wake-up
 * through PME (82574L §5.6.3, PCI PM 1.2), the CTRL.RST window and its
 * property, GIO master disable with frames in flight, and the knobs set
 * with qom-set at run time.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "qobject/qdict.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-scenario.h"




/*
 * Given the driver's runtime-suspend setup (WUFC.LNKC, WUC.PME_En, then
 * PMCSR.PME_En with D3hot), when the cable comes back, then PME_Status
 * is set in PMCSR (what the guest's PME poll looks for) and, after the
 * resume, WUS says "link change".
 * stock e1000e: no PME support; PME_Status never sets.
 */
static void pm_link_change_wakes_through_pme(const char *model)
{
    EppDev *d = epp_start(model, NULL);

    epp_bring_up(d, &epp_default_config);
    qtest_qmp_assert_success(d->qts, "{'execute': 'set_link', 'arguments':"
                             " {'name': 'hs0', 'up': false}}");
    epp_wr(d, WUFC, WU_LNKC);
    epp_wr(d, WUC, WUC_PME_EN);
    epp_pmcsr_write(d, EPP_PMCSR_PME_EN | 3);

    qtest_qmp_assert_success(d->qts, "{'execute': 'set_link', 'arguments':"
                             " {'name': 'hs0', 'up': true}}");
    epp_step(d, EPP_LINK_BUDGET_NS);
    if (epp_on_stock(model, "no PME: PME_Status stays clear")) {
        g_assert_cmphex(epp_pmcsr(d) & EPP_PMCSR_PME_STATUS, ==, 0);
        epp_stop(d);
        return;
    }
    g_assert_cmphex(epp_pmcsr(d) & EPP_PMCSR_PME_STATUS, ==,
                    EPP_PMCSR_PME_STATUS);
    /* PME_Status is write-1-to-clear; back to D0 */
    epp_pmcsr_write(d, EPP_PMCSR_PME_STATUS | EPP_PMCSR_PME_EN);
    g_assert_cmphex(epp_pmcsr(d) & (EPP_PMCSR_PME_STATUS | 3), ==, 0);
    epp_stop(d);
}

/*
 * Given x-reset-delay-ns=5000000 on the command line, when the driver
 * sets CTRL.RST, then EECD.AUTO_RD stays clear for the 5 ms window and
 * the 1 ms NVM reload after it, and is set by 6 ms; the write listed in
 * "events" shows a register write the driver made too early.
 * stock e1000e: resets at once; AUTO_RD is always set.
 */
static void reset_delay_widens_ctrl_rst(const char *model)
{
    bool stock = epp_is_stock(model);
    EppDev *d = stock ? epp_start(model, NULL) :
                  epp_start_dev(model, "x-reset-delay-ns=5000000", NULL);
    g_autofree char *events = NULL;
    uint64_t early = 0;

    epp_bring_up(d, &epp_default_config);
    if (!stock) {
        /* The bring-up's own reset already met the window (EXTCNF_CTRL) */
        early = epp_qom_u64(d, "reset-accesses");
    }
    epp_wr(d, CTRL, epp_rd(d, CTRL) | CTRL_RST);
    if (epp_on_stock(model, "CTRL.RST completes at once")) {
        g_assert_cmphex(epp_rd(d, EECD) & EECD_AUTO_RD, ==,
                        EECD_AUTO_RD);
        g_assert_false(epp_qom_has(d, "x-reset-delay-ns"));
        epp_stop(d);
        return;
    }
    epp_wr(d, IMC, 0xffffffff);        /* too early: listed */
    epp_step(d, 5999 * EPP_NS_PER_US);
    g_assert_cmphex(epp_rd(d, EECD) & EECD_AUTO_RD, ==, 0);
    epp_step(d, 2 * EPP_NS_PER_US);
    g_assert_cmphex(epp_rd(d, EECD) & EECD_AUTO_RD, ==, EECD_AUTO_RD);
    g_assert_cmpuint(epp_qom_u64(d, "reset-accesses"), ==, early + 1);
    events = epp_qom_str(d, "events");
    g_assert_nonnull(strstr(events, "write-during-reset reg=0x000d8"));
    epp_stop(d);
}

/*
 * Given a Tx ring with one frame posted, when x-tx-hold is set with
 * qom-set, then TDH stays where it is and nothing is sent; when it is
 * released, the frame goes and TDH moves; both changes are in "events".
 * e1000e-pp only (stock e1000e has no knobs: pp_only_properties).
 */
static void knob_tx_hold_stops_tdh(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    g_autofree char *events = NULL;
    uint8_t desc[16];
    uint64_t buf;

    epp_bring_up(d, &epp_default_config);
    g_assert_true(epp_qom_set(d, "x-tx-hold", 1));
    buf = epp_alloc(d, 64);
    epp_txd_legacy(desc, buf, 60, TXD_CMD_EOP | TXD_CMD_IFCS |
                   TXD_CMD_RS);
    epp_tx_push(d, desc);
    epp_step(d, 100 * EPP_NS_PER_US);
    g_assert_cmpuint(epp_rd(d, TDH0), ==, 0);
    g_assert_true(epp_qom_set(d, "x-tx-hold", 0));
    epp_step(d, 100 * EPP_NS_PER_US);
    g_assert_cmpuint(epp_rd(d, TDH0), ==, 1);
    events = epp_qom_str(d, "events");
    g_assert_nonnull(strstr(events, "knob-tx-hold reg=0x03810 "
                            "value=0x00000001"));
    g_assert_nonnull(strstr(events, "knob-tx-hold reg=0x03810 "
                            "value=0x00000000"));
    epp_stop(d);
}

static bool qom_reached(EppDev *d, void *opaque)
{
    const char *property = opaque;

    return epp_qom_u64(d, property) > 0;
}

/*
 * Given the function in D3hot with WUFC.MAG and PME_En, when a magic
 * packet (6 x 0xff, then our address 16 times, in a broadcast UDP frame)
 * arrives, then it is taken as a wake event (rx-wake), nothing is
 * written to the posted buffer, and PMCSR.PME_Status is set.
 * stock e1000e: no PME support: the frame is taken, nothing wakes.
 */
static void pm_magic_packet_wakes_from_d3hot(const char *model)
{
    EppDev *d;
    uint8_t frame[200] = { 0 };
    size_t off = 42, i;

    d = epp_start(model, NULL);
    epp_bring_up(d, &epp_default_config);
    memset(frame, 0xff, 6);
    memcpy(frame + 6, epp_mac, 6);
    frame[12] = 0x08;
    memset(frame + off, 0xff, 6);
    for (i = 0; i < 16; i++) {
        memcpy(frame + off + 6 + 6 * i, epp_mac, 6);
    }
    epp_wr(d, WUFC, WU_MAG);
    epp_wr(d, WUC, WUC_PME_EN);
    epp_pmcsr_write(d, EPP_PMCSR_PME_EN | 3);

    epp_inject(d, frame, off + 6 + 16 * 6);
    if (epp_on_stock(model, "no PME, no wake filters")) {
        /* The frame reaches the stock model; nothing wakes */
        epp_run_until(d, epp_netdev_took_all, NULL, "the magic packet");
        epp_step(d, 100 * EPP_NS_PER_MS);
        g_assert_cmphex(epp_pmcsr(d) & EPP_PMCSR_PME_STATUS, ==, 0);
        g_assert_false(epp_qom_has(d, "rx-wake"));
        epp_stop(d);
        return;
    }
    epp_wait_until(d, qom_reached, (void *)"rx-wake",
                   10 * EPP_NS_PER_US, 100 * EPP_NS_PER_MS,
                   "the magic packet");
    g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==, 0);
    g_assert_cmphex(epp_pmcsr(d) & EPP_PMCSR_PME_STATUS, ==,
                    EPP_PMCSR_PME_STATUS);
    epp_stop(d);
}

/*
 * PMC advertises D0 and D3hot only (no D1/D2 support bits): a write of
 * D1 or D2 to PMCSR.PowerState leaves the function in the state it was.
 */
static void pm_d1_d2_are_refused(const char *model)
{
    EppDev *d = epp_start(model, NULL);

    epp_pmcsr_write(d, 1);
    g_assert_cmphex(epp_pmcsr(d) & 3, ==, 0);
    epp_pmcsr_write(d, 2);
    g_assert_cmphex(epp_pmcsr(d) & 3, ==, 0);
    epp_stop(d);
}

/*
 * Given CTRL.GIO_MASTER_DISABLE set with Rx buffers posted, when a frame
 * arrives, then no DMA starts (RDH stays, STATUS.GIO_MASTER_ENABLE is
 * clear, dma-errors stays 0) and the frame waits in the packet buffer;
 * when the bit is cleared, then it lands.
 * stock e1000e: keeps receiving with the bit set: the frame lands.
 */
static void gio_master_disable_holds_frames(const char *model)
{
    EppDev *d;
    uint8_t frame[600], got[600];
    uint64_t buf;

    d = epp_start(model, NULL);
    epp_bring_up(d, &epp_default_config);
    buf = epp_alloc(d, 2048);
    epp_rx_post_addr(d->rx, buf);
    epp_wr(d, CTRL, epp_rd(d, CTRL) | CTRL_GIO_MASTER_DIS);
    g_assert_cmphex(epp_rd(d, STATUS) & STATUS_GIO_MASTER_EN, ==, 0);

    epp_frame_fill(frame, sizeof(frame), false, 7);
    epp_inject(d, frame, sizeof(frame));
    if (epp_on_stock(model, "DMA goes on under GIO master disable")) {
        /* The frame lands at once, the bit set */
        epp_rx_wait_dd(d->rx, 0);
        g_assert_cmpuint(epp_rd(d, RDH0), ==, 1);
        epp_memread(d, buf, got, sizeof(got));
        g_assert_cmpmem(got, sizeof(got), frame, sizeof(frame));
        epp_stop(d);
        return;
    }
    epp_wait_until(d, qom_reached, (void *)"rx-offered",
                   10 * EPP_NS_PER_US, 100 * EPP_NS_PER_MS,
                   "the frame to reach the MAC");
    g_assert_cmpuint(epp_rd(d, RDH0), ==, 0);
    g_assert_cmpuint(epp_qom_u64(d, "dma-errors"), ==, 0);

    epp_wr(d, CTRL, epp_rd(d, CTRL) & ~CTRL_GIO_MASTER_DIS);
    epp_rx_wait_dd(d->rx, 0);
    epp_memread(d, buf, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), frame, sizeof(frame));
    epp_stop(d);
}

/*
 * x-link-drop-ms takes the link away for that long (STATUS.LU clears at
 * once and returns after auto-negotiation); x-wake-event with WUC.APME in
 * D0 records the cause in WUS only.
 * e1000e-pp only (stock e1000e has no knobs: pp_only_properties).
 */
static void knob_link_drop_and_wake_event(const char *model)
{
    EppDev *d;

    d = epp_start(model, NULL);
    epp_bring_up(d, &epp_default_config);
    g_assert_true(epp_qom_set(d, "x-link-drop-ms", 10));
    g_assert_cmphex(epp_rd(d, STATUS) & STATUS_LU, ==, 0);
    epp_step(d, 10 * EPP_NS_PER_MS);
    epp_wait_link_up(d);

    epp_wr(d, WUFC, WU_LNKC);
    epp_wr(d, WUC, WUC_APME);
    g_assert_true(epp_qom_set(d, "x-wake-event", WU_LNKC));
    g_assert_cmphex(epp_rd(d, WUS), ==, WU_LNKC);
    g_assert_cmphex(epp_pmcsr(d) & EPP_PMCSR_PME_STATUS, ==, 0);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(pm_link_change_wakes_through_pme),
    EPP_SCENARIO(reset_delay_widens_ctrl_rst),
    EPP_SCENARIO(pm_magic_packet_wakes_from_d3hot),
    EPP_SCENARIO(pm_d1_d2_are_refused),
    EPP_SCENARIO(gio_master_disable_holds_frames),
    EPP_PP_SCENARIO(knob_tx_hold_stops_tdh),
    EPP_PP_SCENARIO(knob_link_drop_and_wake_event),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
