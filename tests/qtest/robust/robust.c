/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The historical bug classes of QEMU's e1000 family, one scenario each:
 * a hostile guest programs the device in a way that once hung or
 * crashed the host's QEMU.  Each scenario asserts that QEMU stays
 * responsive and that the device does what the hardware would.
 *
 * Responsiveness is the one property measured in wall time here: a
 * stall keeps QEMU's main loop busy, so no virtual-time wait can see it.
 * Every scenario runs in a subprocess (g_test_trap_subprocess) with a
 * generous wall bound, QEMU's start included; where a model is known
 * to stall, the stall is asserted (it reaches the bound) as the recorded
 * difference, so CI neither hangs nor passes silently.  What each model
 * did is printed as '#' lines and recorded in docs/security.md.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"
#include "robust.h"

void bounded(const char *model, void (*body)(const char *model),
             Outcome stock)
{
    if (g_test_subprocess()) {
        body(model);
        return;
    }
    g_test_trap_subprocess(NULL, STALL_BOUND_US,
                           G_TEST_SUBPROCESS_INHERIT_STDERR);
    if (epp_is_stock(model) && stock == STALLS) {
        g_test_message("stock e1000e: QEMU stays busy for more than %d s",
                       (int)(STALL_BOUND_US / G_USEC_PER_SEC));
        g_assert_true(g_test_trap_reached_timeout());
        return;
    }
    if (g_test_trap_reached_timeout()) {
        g_test_message("%s: QEMU did not answer within %d s", model,
                       (int)(STALL_BOUND_US / G_USEC_PER_SEC));
    }
    g_assert_false(g_test_trap_reached_timeout());
    g_test_trap_assert_passed();
}

/* On stderr, which the parent passes through (GLib captures stdout) */
void note(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("# ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* The next qtest command answers: QEMU's main loop is free again */
int64_t expect_responsive(EppDev *d, const char *after)
{
    int64_t t0 = g_get_monotonic_time();
    uint32_t status = epp_rd(d, STATUS);
    int64_t ms = (g_get_monotonic_time() - t0) / 1000;

    note("%s on %s: next command answered after %" PRId64 " ms", after,
         d->model, ms);
    /* STATUS.LU: the device still reads as a device, link up */
    g_assert_cmphex(status & STATUS_LU, ==, STATUS_LU);
    return ms;
}

/*
 * Queue a frame on the netdev socket unless it is full (a model that
 * holds frames upstream stops reading it); false when it did not fit.
 */
bool inject_nowait(EppDev *d, const uint8_t *frame, size_t len)
{
    g_autofree uint8_t *msg = g_malloc(len + 4);

    stl_be_p(msg, len);
    memcpy(msg + 4, frame, len);
    return send(d->sock[0], msg, len + 4, MSG_DONTWAIT) == len + 4;
}

/*
 * Deadline: DRAIN_MAX_FRAMES, more than a storm of these scenarios can
 * produce (a model that sends forever fails here instead of hanging).
 */
unsigned drain_wire(EppDev *d)
{
    static uint8_t buf[65536 + 256];
    unsigned n = 0;

    epp_step(d, EPP_NS_PER_MS);
    while (!epp_wire_idle(d)) {
        if (n == DRAIN_MAX_FRAMES) {
            epp_dump_regs(d, "draining the wire");
            g_error("still sending after %u frames on %s", n, d->model);
        }
        epp_collect(d, buf, sizeof(buf));
        n++;
        epp_step(d, EPP_NS_PER_MS);
    }
    return n;
}

void expect_tx_all_done(EppDev *d, unsigned n)
{
    uint8_t wb[EPP_DESC_LEN];
    unsigned i;

    epp_tx_wait_done(d);
    for (i = 0; i < n; i++) {
        epp_tx_desc(d, i, wb);
        g_assert_cmphex(wb[12] & TXD_STA_DD, ==, TXD_STA_DD);
    }
}
