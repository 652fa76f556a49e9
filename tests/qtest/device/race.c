/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reset task against runtime suspend, every interleaving.
 *
 * The two driver flows are step lists in the order Linux's e1000e takes
 * them: the reset task (e1000e_reset_task -> e1000e_reinit_locked: down,
 * CTRL.RST, wait for the NVM reload, up) and runtime suspend
 * (e1000e_pm_runtime_suspend -> __e1000_shutdown arming link-change wake,
 * then the PCI core's PME_En and D3hot). Every interleaving of the two
 * runs on a fresh device, CTRL.RST widened to 1 ms (x-reset-delay-ns), and
 * the device says what went wrong: an access to the sleeping function
 * (pm-violations) or a register write inside the reset window
 * (reset-accesses). The guarded flows — the reset task holding a runtime
 * PM reference, so suspend waits for it or is undone first — must show
 * none. With E1000EPP_RACE_REPORT=FILE the table is also written there.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "qobject/qdict.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

#define RACE_RESET_NS       1000000     /* CTRL.RST window for the race */

typedef struct RaceCtx {
    EppDev *d;
    uint8_t pm;                 /* PM capability offset */
    uint32_t bars[4];           /* what pci_save_state kept */
    uint16_t cmd;
} RaceCtx;

typedef struct RaceStep {
    const char *name;
    void (*run)(RaceCtx *r);
} RaceStep;

static void r_down(RaceCtx *r)
{
    /* e1000e_down: Tx off (82574 keeps RCTL.EN: FLAG2_NO_DISABLE_RX) */
    epp_wr(r->d, TCTL, epp_rd(r->d, TCTL) & ~TCTL_EN);
    epp_wr(r->d, IMC, 0xffffffff);
}

static void r_reset(RaceCtx *r)
{
    epp_wr(r->d, CTRL, epp_rd(r->d, CTRL) | CTRL_RST);
}

static void r_wait(RaceCtx *r)
{
    /* e1000e_get_auto_rd_done: polls EECD; the test just lets time pass */
    epp_step(r->d, 2 * RACE_RESET_NS);
    epp_rd(r->d, EECD);
}

static void r_up(RaceCtx *r)
{
    epp_wr(r->d, TCTL, epp_rd(r->d, TCTL) | TCTL_EN);
    epp_wr(r->d, IMS, epp_default_config.ims);
}

static void s_arm_wake(RaceCtx *r)
{
    /* __e1000_shutdown for runtime PM: link-change wake only */
    epp_wr(r->d, WUFC, WU_LNKC);
    epp_wr(r->d, WUC, WUC_PME_EN);
}

static void s_d3hot(RaceCtx *r)
{
    qpci_config_writew(r->d->pdev, r->pm + PCI_PM_CTRL, EPP_PMCSR_PME_EN | 3);
}

static void resume(RaceCtx *r)
{
    /* pm_runtime_get_sync: D0, then pci_restore_state */
    int i;

    qpci_config_writew(r->d->pdev, r->pm + PCI_PM_CTRL, EPP_PMCSR_PME_EN);
    for (i = 0; i < 4; i++) {
        qpci_config_writel(r->d->pdev, PCI_BASE_ADDRESS_0 + 4 * i,
                           r->bars[i]);
    }
    qpci_config_writew(r->d->pdev, PCI_COMMAND, r->cmd);
    epp_step(r->d, 2 * EPP_NS_PER_MS);
}

static const RaceStep reset_task[] = {
    { "R1:down", r_down }, { "R2:CTRL.RST", r_reset },
    { "R3:wait-AUTO_RD", r_wait }, { "R4:up", r_up },
};
static const RaceStep suspend[] = {
    { "S1:arm-wake", s_arm_wake }, { "S2:D3hot", s_d3hot },
};
#define NR  ARRAY_SIZE(reset_task)
#define NS  ARRAY_SIZE(suspend)

typedef struct RaceResult {
    uint64_t pm_violations;
    uint64_t reset_accesses;
    char *events;               /* the device's event list afterwards */
} RaceResult;

/* order[i]: 0 = next reset-task step, 1 = next suspend step */
static RaceResult race_run(const char *model, const uint8_t *order,
                           size_t n, bool guard_resume)
{
    RaceCtx r = { 0 };
    RaceResult res;
    size_t i, ri = 0, si = 0;
    int b;

    r.d = epp_start_dev(model, "x-reset-delay-ns=1000000", NULL);
    epp_bring_up(r.d, &epp_default_config);
    r.pm = qpci_find_capability(r.d->pdev, PCI_CAP_ID_PM, 0);
    r.cmd = qpci_config_readw(r.d->pdev, PCI_COMMAND);
    for (b = 0; b < 4; b++) {
        r.bars[b] = qpci_config_readl(r.d->pdev, PCI_BASE_ADDRESS_0 + 4 * b);
    }
    res.pm_violations = epp_qom_u64(r.d, "pm-violations");
    res.reset_accesses = epp_qom_u64(r.d, "reset-accesses");
    for (i = 0; i < n; i++) {
        if (order[i]) {
            suspend[si++].run(&r);
        } else {
            if (guard_resume && si == NS && ri == 0) {
                resume(&r);
            }
            reset_task[ri++].run(&r);
        }
    }
    res.pm_violations = epp_qom_u64(r.d, "pm-violations") -
                        res.pm_violations;
    res.reset_accesses = epp_qom_u64(r.d, "reset-accesses") -
                         res.reset_accesses;
    res.events = epp_qom_str(r.d, "events");
    epp_stop(r.d);
    return res;
}

static void order_name(const uint8_t *order, size_t n, GString *out)
{
    size_t i, ri = 0, si = 0;

    for (i = 0; i < n; i++) {
        g_string_append_printf(out, "%s%s", i ? " " : "",
                               order[i] ? suspend[si++].name :
                               reset_task[ri++].name);
    }
}

/*
 * What the hardware rules predict for an order, independent of the model:
 * once D3hot is reached every later register access of the reset task is
 * refused (PCI PM), and a wake-up register write between CTRL.RST and
 * the end of the wait lands in the reset window.
 */
static void predict(const uint8_t *order, size_t n, bool *pm, bool *rst)
{
    size_t i, ri = 0, si = 0;
    bool asleep = false, in_reset = false;

    *pm = *rst = false;
    for (i = 0; i < n; i++) {
        if (order[i]) {
            if (si == 0 && in_reset) {
                *rst = true;
            }
            asleep = asleep || si == 1;
            si++;
        } else {
            *pm = *pm || asleep;
            in_reset = ri == 1 ? true : ri == 2 ? false : in_reset;
            ri++;
        }
    }
}

static void report_line(GString *table, const char *what, RaceResult res)
{
    g_string_append_printf(table, "%-64s %s%s%s\n", what,
                           res.pm_violations ? "pm-violations " : "",
                           res.reset_accesses ? "write-during-reset" : "",
                           res.pm_violations || res.reset_accesses ?
                           "" : "clean");
}

static void report_write(GString *table)
{
    const char *path = g_getenv("E1000EPP_RACE_REPORT");

    g_test_message("%s", table->str);
    if (path) {
        g_assert_true(g_file_set_contents(path, table->str, -1, NULL));
    }
}

static void race_reset_task_vs_runtime_suspend(const char *model)
{
    g_autoptr(GString) table = g_string_new("");
    g_autoptr(GString) first = NULL;
    g_autofree char *first_events = NULL;
    unsigned mask, runs = 0, bad = 0;
    const size_t n = NR + NS;

    g_string_append_printf(table, "interleavings of the reset task (%zu "
                           "steps) and runtime suspend (%zu steps):\n",
                           (size_t)NR, (size_t)NS);
    /* Every choice of the NS positions the suspend steps take */
    for (mask = 0; mask < (1u << n); mask++) {
        uint8_t order[NR + NS];
        g_autoptr(GString) name = g_string_new("");
        RaceResult res;
        bool pm, rst;
        size_t i;

        if (__builtin_popcount(mask) != NS) {
            continue;
        }
        for (i = 0; i < n; i++) {
            order[i] = (mask >> i) & 1;
        }
        order_name(order, n, name);
        res = race_run(model, order, n, false);
        report_line(table, name->str, res);
        predict(order, n, &pm, &rst);
        g_assert_cmpint(res.pm_violations != 0, ==, pm);
        g_assert_cmpint(res.reset_accesses != 0, ==, rst);
        runs++;
        if (pm || rst) {
            bad++;
            if (!first) {
                first = g_string_new(name->str);
                first_events = g_strdup(res.events);
            }
        }
        g_free(res.events);
    }
    g_string_append_printf(table, "%u interleavings, %u with a violation; "
                           "first: %s\nwhat the device listed for it "
                           "(qom-get events: ns, what, register, value):\n%s",
                           runs, bad, first ? first->str : "none",
                           first_events ? first_events : "");
    /* C(6, 2) orders; the race is real: some of them violate */
    g_assert_cmpuint(runs, ==, 15);
    g_assert_cmpuint(bad, >, 0);

    /* Guarded: suspend after the reset task, or undone before it */
    {
        static const uint8_t after[] = { 0, 0, 0, 0, 1, 1 };
        static const uint8_t undone[] = { 1, 1, 0, 0, 0, 0 };
        RaceResult a = race_run(model, after, n, true);
        RaceResult u = race_run(model, undone, n, true);

        report_line(table, "guarded: R1..R4 then S1 S2", a);
        report_line(table, "guarded: S1 S2, resume (get_sync), R1..R4", u);
        g_assert_cmpuint(a.pm_violations + a.reset_accesses, ==, 0);
        g_assert_cmpuint(u.pm_violations + u.reset_accesses, ==, 0);
        g_free(a.events);
        g_free(u.events);
    }
    report_write(table);
}

static const EppScenario scenarios[] = {
    EPP_PP_SCENARIO(race_reset_task_vs_runtime_suspend),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
