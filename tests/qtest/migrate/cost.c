/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device section's save and load time (numbers, not a test):
 *
 *   e1000e-pp-migrate-cost [--cost] [N] [MODEL]
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-migrate.h"

/*
 * Add to us the microseconds between "pid@sec.usec:" log lines: one with
 * event "begin" naming "bid", the next with "end" naming "eid".
 */
static void section_times(GArray *us, const char *log, const char *begin,
                          const char *bid, const char *end, const char *eid)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    double t0 = -1, sec;
    unsigned i, pid;

    g_assert_true(g_file_get_contents(log, &text, NULL, NULL));
    lines = g_strsplit(text, "\n", -1);
    for (i = 0; lines[i]; i++) {
        if (sscanf(lines[i], "%u@%lf:", &pid, &sec) != 2) {
            continue;
        }
        if (strstr(lines[i], begin) && strstr(lines[i], bid)) {
            t0 = sec;
        } else if (t0 >= 0 && strstr(lines[i], end) && strstr(lines[i], eid)) {
            double d = (sec - t0) * 1e6;

            g_array_append_val(us, d);
            t0 = -1;
        }
    }
}

static int cmp_double(gconstpointer a, gconstpointer b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static void print_times(const char *what, GArray *us)
{
    double sum = 0;
    unsigned i;

    g_array_sort(us, cmp_double);
    for (i = 0; i < us->len; i++) {
        sum += g_array_index(us, double, i);
    }
    printf("%s: %u runs, median %.0f us, mean %.0f us, min %.0f us, "
           "max %.0f us\n", what, us->len,
           g_array_index(us, double, us->len / 2), sum / us->len,
           g_array_index(us, double, 0),
           g_array_index(us, double, us->len - 1));
}

/*
 * e1000e-pp-migrate-cost [--cost] [N] [MODEL]: the mid-frame state saved
 * N times and loaded N times (a destination QEMU each); the device
 * section's save and load time from QEMU's own trace points, with log
 * time stamps. Numbers, not a test; the last stream file is kept.
 */
static int migrate_cost(int argc, char **argv)
{
    unsigned n = argc > 0 ? atoi(argv[0]) : 100, i;
    const char *model = argc > 1 ? argv[1] : "e1000e-pp";
    g_autofree char *save_log = epp_stream_path();
    g_autofree char *load_log = epp_stream_path();
    g_autofree char *path = epp_stream_path();
    g_autofree char *src_args = g_strdup_printf(
        "-msg timestamp=on -trace savevm_section_start "
        "-trace savevm_section_end -D %s", save_log);
    g_autofree char *dst_args = g_strdup_printf(
        "-msg timestamp=on -trace vmstate_load "
        "-trace vmstate_load_state_end -D %s", load_log);
    GArray *save_us = g_array_new(false, false, sizeof(double));
    GArray *load_us = g_array_new(false, false, sizeof(double));
    /* "savevm_section_start 0000:00:04.0/e1000e-pp, section_id 36" */
    g_autofree char *section = g_strdup_printf("/%s,", model);
    /* "vmstate_load_state_end e1000e-pp end/0" (not a subsection's) */
    g_autofree char *top = g_strdup_printf(" %s end/", model);
    EppDev *d = NULL;

    /* A source can be migrated once: one per run. */
    for (i = 0; i < n; i++) {
        if (d) {
            epp_stop(d);
        }
        d = epp_start_dev(model, NULL, src_args);
        epp_mid_frame(d, 0);
        epp_save(d, path);
        /* Each QEMU starts its log afresh: take its time now. */
        section_times(save_us, save_log, "savevm_section_start", section,
                      "savevm_section_end", section);
    }
    for (i = 0; i < n; i++) {
        epp_stop(epp_restore(d, path, NULL, dst_args));
        section_times(load_us, load_log, "vmstate_load ", section,
                      "vmstate_load_state_end", top);
    }
    epp_stop(d);
    printf("%s device section, the mid-frame state (stream: %s)\n", model,
           path);
    print_times("save", save_us);
    print_times("load", load_us);
    unlink(save_log);
    unlink(load_log);
    g_array_free(save_us, true);
    g_array_free(load_us, true);
    return 0;
}

int main(int argc, char **argv)
{
    /* The flag that chose this in the binary it came from */
    if (argc >= 2 && !strcmp(argv[1], "--cost")) {
        argc--;
        argv++;
    }
    return migrate_cost(argc - 1, argv + 1);
}
