/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: interrupt moderation in virtual time (82574L §7.4.4):
 * ITR and EITR (256 ns units), RDTR/RADV and TIDV/TADV (1.024 us units),
 * IDE, and the FPD flush on RDTR/TIDV writes.  Every firing time is
 * exact: "not yet at T - 1 ns, fired at T".
 * Given/when/then against the 82574L datasheet; see lib/e1000e-pp-scenario.h.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "irq.h"

#define ITR_UNIT_NS     256
#define DELAY_UNIT_NS   1024

/* stock e1000e: ITR/EITR values below 500 are raised to 500 */
#define STOCK_MIN_XITR  500

typedef bool (*Fired)(EppDev *d, void *opaque);

/* Per-scenario state, reset by start_intx/start_msix */
static uint64_t tx_buf;         /* the 60-byte frame send_frame queues */
static uint32_t rx_good;        /* GPRC accumulated (it is read-clear) */

static bool line_high(EppDev *d, void *opaque)
{
    return irq_line_high(d);
}

/*
 * "Not yet at t - 1 ns, fired at t": step to t - 1, check quiet, step
 * 1 ns, check fired.  Dumps the registers on either failure.
 */
static void expect_fires_at(EppDev *d, int64_t t, Fired fired,
                            void *opaque, const char *what)
{
    g_autofree char *why = NULL;

    epp_step_to(d, t - 1);
    if (fired(d, opaque)) {
        why = g_strdup_printf("%s: already fired at %" PRId64 " ns, 1 ns "
                              "early", what, t - 1);
    } else {
        epp_step_to(d, t);
        if (!fired(d, opaque)) {
            why = g_strdup_printf("%s: not fired at %" PRId64 " ns", what,
                                  t);
        }
    }
    if (why) {
        epp_dump_regs(d, why);
        g_error("%s on %s", why, d->model);
    }
    g_test_message("%s: fired at +%" PRId64 " ns as expected", what, t);
}

static void expect_quiet(EppDev *d, Fired fired, void *opaque,
                         const char *what)
{
    if (fired(d, opaque)) {
        g_autofree char *why = g_strdup_printf("%s: fired early at %" PRId64
                                               " ns", what, d->now_ns);

        epp_dump_regs(d, why);
        g_error("%s on %s", why, d->model);
    }
}

/* A device up in INTx mode with the IOAPIC watched */
static EppDev *start_intx(const char *model)
{
    tx_buf = 0;
    rx_good = 0;
    return irq_start_intx(model);
}

/* ---------------------------------------------------------------- */
/* Traffic without moving virtual time                              */
/* ---------------------------------------------------------------- */

/* Queue one 60-byte frame; TDT write happens at the current time */
static void send_frame(EppDev *d, uint32_t cmd)
{
    tx_buf = irq_send_small(d, tx_buf, 0x71, cmd);
    /* Processed within the TDT write: no time passes */
    EPP_EXPECT_REG(d, TDH0, 0xffff, d->tx_tail);
}

static bool rx_counted(EppDev *d, void *opaque)
{
    rx_good += epp_rd(d, GPRC);
    return rx_good >= *(uint32_t *)opaque;
}

/*
 * Post a buffer, inject a frame, wait (real time only) until the MAC
 * has counted it.  Not DD: descriptor write-back may wait for the very
 * delay timer under test (§7.1.9, "pending receive descriptor writebacks
 * are flushed" on expiry).
 */
static void receive_frame(EppDev *d)
{
    uint8_t f[60];
    uint32_t want = rx_good + 1;

    epp_rx_post_addr(d->rx, epp_alloc(d, 2048));
    epp_frame_fill(f, sizeof(f), false, 0x17);
    epp_inject(d, f, sizeof(f));
    epp_run_until(d, rx_counted, &want, "frame counted in GPRC");
}

/* ---------------------------------------------------------------- */
/* ITR / EITR                                                       */
/* ---------------------------------------------------------------- */

static void itr_case(const char *model, uint32_t itr)
{
    EppDev *d = start_intx(model);
    uint32_t eff = itr;
    int64_t t0;

    if (epp_is_stock(model) && itr < STOCK_MIN_XITR) {
        /* stock e1000e: a forced minimum the datasheet does not have */
        eff = STOCK_MIN_XITR;
    }

    /* Given: ITR = itr (interval itr * 256 ns), IMS.TXDW */
    epp_wr(d, ITR, itr);
    epp_wr(d, IMS, ICR_TXDW);

    /* When: a first cause at T0 after a quiet time; Then: at once */
    epp_step(d, EPP_NS_PER_MS);
    t0 = d->now_ns;
    epp_wr(d, ICS, ICR_TXDW);
    g_assert_true(line_high(d, NULL));
    epp_rd(d, ICR);
    g_assert_false(line_high(d, NULL));

    /*
     * When: the next cause 1 us later; Then: held back until the
     * interval since the last assertion has passed.
     */
    epp_step(d, 1000);
    epp_wr(d, ICS, ICR_TXDW);
    expect_quiet(d, line_high, NULL, "ITR second cause");
    expect_fires_at(d, t0 + (int64_t)eff * ITR_UNIT_NS, line_high, NULL,
                    "ITR window end");
    epp_rd(d, ICR);
    epp_stop(d);
}

static void itr_throttles_intx_exact(const char *model)
{
    itr_case(model, 1000);
}

static void itr_small_value_no_forced_minimum(const char *model)
{
    /* 100 * 256 ns = 25.6 us: the datasheet's value, no minimum */
    itr_case(model, 100);
}

static uint64_t msix_slots;

static bool vector_fired(EppDev *d, void *opaque)
{
    int v = GPOINTER_TO_INT(opaque);

    return qtest_readl(d->qts, msix_slots + 4 * v) != 0;
}

static void vector_clear(EppDev *d, int v)
{
    qtest_writel(d->qts, msix_slots + 4 * v, 0);
}

/* MSI-X with Linux's IVAR layout; vectors 0-2 aimed at RAM dwords */
static EppDev *start_msix(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    int v;

    tx_buf = 0;
    rx_good = 0;
    epp_bring_up(d, &epp_default_config);
    msix_slots = epp_alloc(d, 16);
    qpci_msix_enable(d->pdev);
    for (v = 0; v < 3; v++) {
        vector_clear(d, v);
        epp_msix_vector_to_ram(d, v, msix_slots + 4 * v, 0x100 + v);
    }
    epp_wr(d, IVAR, ((IVAR_VALID | 0) << IVAR_RXQ0_SHIFT) |
           ((IVAR_VALID | 1) << IVAR_TXQ0_SHIFT) |
           ((IVAR_VALID | 2) << IVAR_OTHER_SHIFT));
    epp_wr(d, EIAC, ICR_RXQ0 | ICR_TXQ0);
    epp_wr(d, ICR, 0xffffffff);
    return d;
}

static void eitr_per_vector_exact(const char *model)
{
    EppDev *d = start_msix(model);
    int64_t t0;

    /* Given: EITR1 = 1000 (256 us) for Tx, EITR0 = 0 for Rx */
    epp_wr(d, EITR(1), 1000);
    epp_wr(d, EITR(0), 0);
    epp_wr(d, IMS, ICR_RXQ0 | ICR_TXQ0);
    epp_step(d, EPP_NS_PER_MS);

    /* When: TXQ0 at T0; Then: vector 1 at once */
    t0 = d->now_ns;
    epp_wr(d, ICS, ICR_TXQ0);
    g_assert_true(vector_fired(d, GINT_TO_POINTER(1)));
    vector_clear(d, 1);
    /* EIAC cleared IMS.TXQ0 with the message; the handler re-enables it */
    epp_wr(d, IMS, ICR_TXQ0);

    /* When: TXQ0 again 1 us later; Then: held until T0 + 256 us */
    epp_step(d, 1000);
    epp_wr(d, ICS, ICR_TXQ0);
    expect_quiet(d, vector_fired, GINT_TO_POINTER(1), "EITR1 second cause");

    /* Then: vector 0 is not throttled by vector 1's window */
    epp_wr(d, ICS, ICR_RXQ0);
    g_assert_true(vector_fired(d, GINT_TO_POINTER(0)));
    expect_fires_at(d, t0 + 1000 * ITR_UNIT_NS, vector_fired,
                    GINT_TO_POINTER(1), "EITR1 window end");
    qpci_msix_disable(d->pdev);
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* RDTR / RADV                                                      */
/* ---------------------------------------------------------------- */

static void rdtr_restarts_per_frame(const char *model)
{
    EppDev *d = start_intx(model);
    int64_t t0, t1;

    /* Given: RDTR = 100 (102.4 us), RADV = 0, IMS.RXT0 */
    epp_wr(d, RDTR, 100);
    epp_wr(d, RADV, 0);
    epp_wr(d, IMS, ICR_RXT0);

    /* When: one frame at T0; Then: RXT0 at T0 + 102.4 us exactly */
    t0 = d->now_ns;
    receive_frame(d);
    g_assert_cmpint(d->now_ns, ==, t0);
    expect_quiet(d, line_high, NULL, "RDTR just after the frame");
    expect_fires_at(d, t0 + 100 * DELAY_UNIT_NS, line_high, NULL,
                    "RDTR one frame");
    g_assert_cmphex(epp_rd(d, ICR) & ICR_RXT0, ==, ICR_RXT0);

    /*
     * When: a frame at T1 and another at T1 + 50 us; Then: the packet
     * timer restarted with the second frame: T1 + 50 us + 102.4 us.
     */
    epp_step(d, EPP_NS_PER_MS);
    t1 = d->now_ns;
    receive_frame(d);
    epp_step(d, 50000);
    receive_frame(d);
    expect_fires_at(d, t1 + 50000 + 100 * DELAY_UNIT_NS, line_high, NULL,
                    "RDTR restarted by the second frame");
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* TIDV / TADV                                                      */
/* ---------------------------------------------------------------- */

static void tidv_ide_delays_txdw(const char *model)
{
    EppDev *d = start_intx(model);
    int64_t t0, t1;

    /* Given: TIDV = 100 (102.4 us), TADV = 0, IMS.TXDW */
    epp_wr(d, TIDV, 100);
    epp_wr(d, TADV, 0);
    epp_wr(d, IMS, ICR_TXDW);

    /* When: a packet with RS but no IDE; Then: TXDW at once */
    send_frame(d, 0);
    g_assert_true(line_high(d, NULL));
    epp_rd(d, ICR);

    /* When: a packet with RS|IDE at T0; Then: TXDW at T0 + 102.4 us */
    epp_step(d, EPP_NS_PER_MS);
    t0 = d->now_ns;
    send_frame(d, TXD_CMD_IDE);
    expect_quiet(d, line_high, NULL, "TIDV just after the write-back");
    expect_fires_at(d, t0 + 100 * DELAY_UNIT_NS, line_high, NULL,
                    "TIDV one packet");
    g_assert_cmphex(epp_rd(d, ICR) & ICR_TXDW, ==, ICR_TXDW);

    /* When: IDE packets at T1 and T1 + 50 us; Then: restarted */
    epp_step(d, EPP_NS_PER_MS);
    t1 = d->now_ns;
    send_frame(d, TXD_CMD_IDE);
    epp_step(d, 50000);
    send_frame(d, TXD_CMD_IDE);
    expect_fires_at(d, t1 + 50000 + 100 * DELAY_UNIT_NS, line_high, NULL,
                    "TIDV restarted by the second packet");
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* The Rx and Tx delay pairs as data                                */
/* ---------------------------------------------------------------- */

/* One delay-timer pair: its registers, cause, vector and stimulus */
typedef struct DelayPath {
    const char *delay, *absolute;   /* register names for messages */
    uint32_t delay_reg, abs_reg;
    uint32_t cause, msix_cause;
    int vector;                     /* MSI-X vector in start_msix */
    void (*stimulus)(EppDev *d);  /* one frame / one IDE packet */
    bool no_time_passes;            /* assert the stimulus took 0 ns */
    uint32_t fpd;                   /* the delay register's FPD bit */
    const char *stock_fpd;          /* stock e1000e's FPD read-back */
} DelayPath;

static void one_frame(EppDev *d)
{
    receive_frame(d);
}

static void one_ide_packet(EppDev *d)
{
    send_frame(d, TXD_CMD_IDE);
}

static const DelayPath rx_path = {
    "RDTR", "RADV", RDTR, RADV, ICR_RXT0, ICR_RXQ0, 0, one_frame, true,
    RDTR_FPD, NULL,
};
static const DelayPath tx_path = {
    "TIDV", "TADV", TIDV, TADV, ICR_TXDW, ICR_TXQ0, 1, one_ide_packet, false,
    TIDV_FPD, "TIDV reads back 0 after a write with FPD",
};

/*
 * Given delay = 1000 (1.024 ms), the cause enabled, one write-back
 * pending, when the delay register is written with FPD, then the cause
 * fires at once, and (FPD being write-only) the delay keeps its value.
 */
static void fpd_flushes(const char *model, const DelayPath *p)
{
    EppDev *d = start_intx(model);
    g_autofree char *before = g_strdup_printf("%s before FPD", p->delay);

    epp_wr(d, p->delay_reg, 1000);
    epp_wr(d, IMS, p->cause);
    p->stimulus(d);
    epp_step(d, 10000);
    expect_quiet(d, line_high, NULL, before);

    epp_wr(d, p->delay_reg, 1000 | p->fpd);
    g_assert_true(line_high(d, NULL));
    g_assert_cmphex(epp_rd(d, ICR) & p->cause, ==, p->cause);
    if (p->stock_fpd && epp_on_stock(model, p->stock_fpd)) {
        /* stock e1000e stores the write whole, and reads FPD back 0 */
        EPP_EXPECT_REG(d, p->delay_reg, 0xffffffff, 0);
    } else {
        EPP_EXPECT_REG(d, p->delay_reg, 0xffffffff, 1000);
    }
    epp_stop(d);
}

static void rdtr_fpd_flushes(const char *model)
{
    fpd_flushes(model, &rx_path);
}

static void tidv_fpd_flushes(const char *model)
{
    fpd_flushes(model, &tx_path);
}

/*
 * Given delay = 100 (102.4 us), absolute = 150 (153.6 us), the cause
 * enabled, when a stimulus arrives at T0, T0 + 60 us and T0 + 120 us
 * (each restarting the delay, which alone would fire at T0 + 222.4 us),
 * then the absolute timer bounds the delay: T0 + 153.6 us.
 */
static void absolute_bound(const char *model, const DelayPath *p)
{
    EppDev *d = start_intx(model);
    g_autofree char *what = g_strdup_printf("%s absolute", p->absolute);
    int64_t t0;

    epp_wr(d, p->delay_reg, 100);
    epp_wr(d, p->abs_reg, 150);
    epp_wr(d, IMS, p->cause);

    t0 = d->now_ns;
    p->stimulus(d);
    epp_step(d, 60000);
    p->stimulus(d);
    epp_step(d, 60000);
    p->stimulus(d);

    expect_fires_at(d, t0 + 150 * DELAY_UNIT_NS, line_high, NULL, what);
    epp_stop(d);
}

static void radv_absolute_bound(const char *model)
{
    absolute_bound(model, &rx_path);
}

static void tadv_absolute_bound(const char *model)
{
    absolute_bound(model, &tx_path);
}

/*
 * Given MSI-X, the path on its vector (EITR = 0), delay = 100, absolute
 * 0, the queue cause enabled, when one stimulus arrives at T0, then the
 * vector fires at T0 + 102.4 us, not before.
 */
static void delay_under_msix(const char *model, const DelayPath *p)
{
    EppDev *d = start_msix(model);
    g_autofree char *what = g_strdup_printf("%s under MSI-X", p->delay);
    gpointer vec = GINT_TO_POINTER(p->vector);
    int64_t t0;

    epp_wr(d, EITR(p->vector), 0);
    epp_wr(d, p->delay_reg, 100);
    epp_wr(d, p->abs_reg, 0);
    epp_wr(d, IMS, p->msix_cause);

    t0 = d->now_ns;
    p->stimulus(d);
    if (p->no_time_passes) {
        g_assert_cmpint(d->now_ns, ==, t0);
    }

    if (epp_is_stock(model)) {
        /* stock e1000e: the delay timers do not apply under MSI-X */
        g_assert_true(vector_fired(d, vec));
        qpci_msix_disable(d->pdev);
        epp_stop(d);
        return;
    }

    expect_quiet(d, vector_fired, vec, what);
    expect_fires_at(d, t0 + 100 * DELAY_UNIT_NS, vector_fired, vec, what);
    qpci_msix_disable(d->pdev);
    epp_stop(d);
}

static void tidv_under_msix(const char *model)
{
    delay_under_msix(model, &tx_path);
}

static void rdtr_under_msix(const char *model)
{
    delay_under_msix(model, &rx_path);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(itr_throttles_intx_exact),
    EPP_SCENARIO(itr_small_value_no_forced_minimum),
    EPP_SCENARIO(eitr_per_vector_exact),
    EPP_SCENARIO(rdtr_restarts_per_frame),
    EPP_SCENARIO(tidv_ide_delays_txdw),
    EPP_SCENARIO(rdtr_fpd_flushes),
    EPP_SCENARIO(tidv_fpd_flushes),
    EPP_SCENARIO(radv_absolute_bound),
    EPP_SCENARIO(tadv_absolute_bound),
    EPP_SCENARIO(tidv_under_msix),
    EPP_SCENARIO(rdtr_under_msix),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
