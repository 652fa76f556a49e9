/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Migration for qtests: save a scenario's VM to a file, load it into a
 * second QEMU and go on there (e1000e-pp-migrate.h).
 *
 * The stream goes through a file ("file:" URI), so the two QEMUs never
 * run at once and nothing depends on wall-clock time: each side waits
 * for its MIGRATION event. The qtest accelerator's virtual clock is not
 * part of the stream, so the destination's is moved to the source's
 * before the load; the device then re-arms its timers at their saved
 * deadlines on the same time line.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-migrate.h"
#include "e1000e-pp-scenario.h"

char *epp_stream_path(void)
{
    static unsigned n;

    return g_strdup_printf("%s/e1000e-pp-%d-%u.mig", g_get_tmp_dir(),
                           (int)getpid(), n++);
}

const EppConfig epp_ext_keep_crc = {
    .rx_extended = true,
    .keep_crc = true,
    .rctl_bsize = RCTL_BSIZE_2048,
};

void epp_mid_frame(EppDev *d, uint64_t first)
{
    g_autofree uint8_t *wire = g_malloc(EPP_MID_FRAME_LEN);

    epp_bring_up(d, &epp_ext_keep_crc);
    epp_wr(d, RCTL, epp_rd(d, RCTL) | RCTL_LPE);
    epp_rx_post_addr(d->rx, first ? first :
                     epp_alloc(d, EPP_MID_FRAME_BUF));
    epp_frame_fill(wire, EPP_MID_FRAME_LEN, false, 1);
    epp_inject(d, wire, EPP_MID_FRAME_LEN);
    epp_wait_injected(d);
    epp_step(d, 100 * EPP_NS_PER_US);
}

void epp_migration_events(QTestState *qts)
{
    qtest_qmp_assert_success(qts, "{'execute': 'migrate-set-capabilities',"
                             " 'arguments': {'capabilities': ["
                             "{'capability': 'events', 'state': true}]}}");
}

/* The MIGRATION event that ends it: "completed" or "failed". */
char *epp_migration_end(QTestState *qts)
{
    for (;;) {
        QDict *ev = qtest_qmp_eventwait_ref(qts, "MIGRATION");
        QDict *data = qdict_get_qdict(ev, "data");
        char *status = g_strdup(qdict_get_str(data, "status"));

        qobject_unref(ev);
        if (!strcmp(status, "completed") || !strcmp(status, "failed")) {
            return status;
        }
        g_free(status);
    }
}

void epp_save(EppDev *src, const char *path)
{
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *status = NULL;

    epp_migration_events(src->qts);
    qtest_qmp_assert_success(src->qts, "{'execute': 'migrate',"
                             " 'arguments': {'uri': %s}}", uri);
    status = epp_migration_end(src->qts);
    g_assert_cmpstr(status, ==, "completed");
}

EppDev *epp_restore(EppDev *src, const char *path,
                    const char *dev_props, const char *extra_args)
{
    g_autofree char *args = g_strdup_printf("-incoming defer %s",
                                            extra_args ? extra_args : "");
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *status = NULL;
    EppDev *dst = epp_start_dev(src->model, dev_props, args);
    QDict *rsp;

    if (src->now_ns) {
        dst->now_ns = qtest_clock_set(dst->qts, src->now_ns);
    }
    epp_migration_events(dst->qts);
    qtest_qmp_assert_success(dst->qts, "{'execute': 'migrate-incoming',"
                             " 'arguments': {'uri': %s}}", uri);
    status = epp_migration_end(dst->qts);
    g_assert_cmpstr(status, ==, "completed");
    rsp = qtest_qmp_assert_success_ref(dst->qts,
                                       "{'execute': 'query-status'}");
    if (!qdict_get_bool(rsp, "running")) {
        qtest_qmp_assert_success(dst->qts, "{'execute': 'cont'}");
    }
    qobject_unref(rsp);

    /* The driver goes on where it was: same rings, tails, allocations. */
    migrate_allocator(&src->alloc, &dst->alloc);
    dst->mmio = src->mmio;
    dst->tx_ring = src->tx_ring;
    dst->tx_tail = src->tx_tail;
    epp_rx_ring_continue(dst->rx, src->rx);
    dst->now_ns = src->now_ns;
    if (src->intx_watched) {
        epp_watch_intx(dst);
    }
    return dst;
}

EppDev *epp_migrate(EppDev *src, const char *dev_props,
                    const char *extra_args)
{
    g_autofree char *path = epp_stream_path();
    EppDev *dst;

    epp_save(src, path);
    dst = epp_restore(src, path, dev_props, extra_args);
    epp_stop(src);
    unlink(path);
    return dst;
}

char *epp_restore_refused(const char *model, const char *dev_props,
                          const char *path)
{
    g_autofree char *err = epp_stream_path();
    /*
     * libqtest starts QEMU through the shell: its stderr, where the
     * refusal is reported, goes to a file of its own.
     */
    g_autofree char *args = g_strdup_printf("-incoming defer 2>%s", err);
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    EppDev *dst = epp_start_dev(model, dev_props, args);
    char *text = NULL;

    qtest_set_expected_status(dst->qts, EXIT_FAILURE);
    qtest_qmp_send(dst->qts, "{'execute': 'migrate-incoming',"
                   " 'arguments': {'uri': %s}}", uri);
    qtest_wait_qemu(dst->qts);
    epp_stop(dst);
    g_assert_true(g_file_get_contents(err, &text, NULL, NULL));
    unlink(err);
    return text;
}
