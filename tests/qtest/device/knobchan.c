/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The knob channel (x-knobs=<chardev>): the knobs set by NAME=VALUE
 * lines on a chardev, the path a run under record/replay takes (a
 * qom-set is not in the replay log; a chardev's input is). Each line
 * gets one answer; the value then reads back over QMP and the device's
 * event list has the change, as after a qom-set. Hostile lines (not a
 * knob, not an integer, out of range, over-long) are refused with the
 * same messages as qom-set's and leave the knob as it was; the channel
 * goes on reading after each.
 *
 * stock e1000e: has no such property (device/props.c asserts that for
 * every e1000e-pp property), so these run on e1000e-pp alone.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

/* QEMU answers within milliseconds; this only bounds a lost answer. */
#define ANSWER_TIMEOUT_MS   (10 * 1000)

typedef struct KnobChannel {
    EppDev *d;
    int fd;
    char *path;
} KnobChannel;

static KnobChannel *channel_start(void)
{
    KnobChannel *k = g_new0(KnobChannel, 1);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    g_autofree char *args = NULL;

    k->path = g_strdup_printf("%s/epp-knobs-%d.sock", g_get_tmp_dir(),
                              getpid());
    args = g_strdup_printf("-chardev socket,id=knobs,path=%s,server=on,"
                           "wait=off", k->path);
    k->d = epp_start_dev("e1000e-pp", "x-knobs=knobs", args);
    k->fd = socket(AF_UNIX, SOCK_STREAM, 0);
    g_assert_cmpint(k->fd, >=, 0);
    g_assert_cmpuint(strlen(k->path), <, sizeof(sa.sun_path));
    strcpy(sa.sun_path, k->path);
    g_assert_cmpint(connect(k->fd, (struct sockaddr *)&sa, sizeof(sa)),
                    ==, 0);
    return k;
}

static void channel_stop(KnobChannel *k)
{
    close(k->fd);
    epp_stop(k->d);
    unlink(k->path);
    g_free(k->path);
    g_free(k);
}

/* One line out, one answer line back (without its newline). */
static char *ask(KnobChannel *k, const char *line)
{
    GString *answer = g_string_new(NULL);
    struct pollfd pfd = { .fd = k->fd, .events = POLLIN };
    size_t len = strlen(line);
    char c;

    g_assert_cmpint(write(k->fd, line, len), ==, len);
    for (;;) {
        g_assert_cmpint(poll(&pfd, 1, ANSWER_TIMEOUT_MS), ==, 1);
        g_assert_cmpint(read(k->fd, &c, 1), ==, 1);
        if (c == '\n') {
            break;
        }
        g_string_append_c(answer, c);
        g_assert_cmpuint(answer->len, <, 4096);
    }
    return g_string_free(answer, false);
}

static void expect_answer(KnobChannel *k, const char *line, const char *want)
{
    g_autofree char *got = ask(k, line);

    g_assert_cmpstr(got, ==, want);
}

/*
 * Given the channel, when a knob's line comes, then the answer is "ok"
 * with the value as the device took it (0x accepted), qom-get reads it
 * and the event list has the change.
 */
static void knobchan_sets_knobs(const char *model)
{
    KnobChannel *k = channel_start();
    g_autofree char *events = NULL;

    expect_answer(k, "x-tx-hold=1\n", "ok x-tx-hold=1");
    g_assert_cmpuint(epp_qom_u64(k->d, "x-tx-hold"), ==, 1);
    expect_answer(k, "x-reset-delay-ns=0x10\n", "ok x-reset-delay-ns=16");
    g_assert_cmpuint(epp_qom_u64(k->d, "x-reset-delay-ns"), ==, 16);
    expect_answer(k, "x-rx-error-crc=3\n", "ok x-rx-error-crc=3");
    g_assert_cmpuint(epp_qom_u64(k->d, "x-rx-error-crc"), ==, 3);
    events = epp_qom_str(k->d, "events");
    /* The knob's register: TDH (0x03810), CTRL (0x00000). */
    g_assert_nonnull(strstr(events, " knob-tx-hold reg=0x03810 "
                            "value=0x00000001\n"));
    g_assert_nonnull(strstr(events, " knob-reset-ns reg=0x00000 "
                            "value=0x00000010\n"));
    expect_answer(k, "x-tx-hold=0\n", "ok x-tx-hold=0");
    g_assert_cmpuint(epp_qom_u64(k->d, "x-tx-hold"), ==, 0);
    channel_stop(k);
}

/*
 * Given the channel, when a line is not a knob's (a qdev property, no
 * '=', no integer, out of range, longer than the 63 bytes a line may
 * have), then it is refused with the reason, the knob keeps its value,
 * and the next line is read whole.
 */
static void knobchan_refuses_hostile_lines(const char *model)
{
    KnobChannel *k = channel_start();
    g_autofree char *longline = g_strdup_printf("x-tx-hold=%0200d\n", 1);

    expect_answer(k, "x-tx-hold=1\n", "ok x-tx-hold=1");
    expect_answer(k, "mac=52:54:00:12:34:56\n",
                  "error mac: not a knob of e1000e-pp");
    expect_answer(k, "x-tx-hold\n", "error x-tx-hold: not NAME=VALUE");
    expect_answer(k, "x-tx-hold=abc\n",
                  "error x-tx-hold: 'abc' is not an integer");
    expect_answer(k, "x-tx-hold=-1\n",
                  "error x-tx-hold: '-1' is not an integer");
    expect_answer(k, "x-tx-hold=2\n",
                  "error x-tx-hold: Property 'x-tx-hold' takes 0 or 1");
    expect_answer(k, "x-link-drop-ms=0\n", "error x-link-drop-ms: Property "
                  "'x-link-drop-ms' takes an integer from 1 to 60000 (ms)");
    expect_answer(k, longline, "error: a line longer than 63 bytes");
    g_assert_cmpuint(epp_qom_u64(k->d, "x-tx-hold"), ==, 1);
    expect_answer(k, "x-tx-hold=0\n", "ok x-tx-hold=0");
    g_assert_cmpuint(epp_qom_u64(k->d, "x-tx-hold"), ==, 0);
    channel_stop(k);
}

static const EppScenario scenarios[] = {
    EPP_PP_SCENARIO(knobchan_sets_knobs),
    EPP_PP_SCENARIO(knobchan_refuses_hostile_lines),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios), NULL);
}
