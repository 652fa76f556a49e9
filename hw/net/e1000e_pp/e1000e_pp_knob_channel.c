/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp knob channel (x-knobs=<chardev id>): the race-tooling knobs
 * set by lines read from a chardev, for runs under record/replay.
 *
 * A qom-set takes effect at whatever instruction the vCPU is at when the
 * monitor runs, and no log holds that moment: a replay diverges there.
 * A chardev's input, once the chardev is registered with record/replay
 * (the "chardev:" form of qemu_chr_new does that, as -serial does), is
 * an event of the replay log, delivered at the same instruction in the
 * record and in the replay, and so are the device's answers.
 *
 * Each line is NAME=VALUE: a knob's property name (the same ones as
 * qom-set) and an integer, decimal or 0x. Each gets one answer line,
 * "ok NAME=VALUE" or "error LINE: why". Lines are bounded; a longer one
 * is refused whole.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "qom/object.h"
#include "chardev/char.h"
#include "chardev/char-fe.h"

#include "e1000e_pp.h"

static void knob_answer(E1000EPPState *s, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

static void knob_answer(E1000EPPState *s, const char *fmt, ...)
{
    g_autofree char *text = NULL;
    va_list ap;

    va_start(ap, fmt);
    text = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    qemu_chr_fe_write_all(&s->knob_chr, (const uint8_t *)text,
                          strlen(text));
}

static void knob_line(E1000EPPState *s, char *line)
{
    char *eq = strchr(line, '=');
    Error *err = NULL;
    uint64_t value;

    if (!eq) {
        knob_answer(s, "error %s: not NAME=VALUE\n", line);
        return;
    }
    *eq = '\0';
    if (!e1000e_pp_is_knob(line)) {
        knob_answer(s, "error %s: not a knob of e1000e-pp\n", line);
        return;
    }
    /* qemu_strtou64 would take "-1" as UINT64_MAX: digits only. */
    if (!g_ascii_isdigit(eq[1]) || qemu_strtou64(eq + 1, NULL, 0, &value)) {
        knob_answer(s, "error %s: '%s' is not an integer\n", line, eq + 1);
        return;
    }
    if (!object_property_set_uint(OBJECT(s), line, value, &err)) {
        knob_answer(s, "error %s: %s\n", line, error_get_pretty(err));
        error_free(err);
        return;
    }
    knob_answer(s, "ok %s=%" PRIu64 "\n", line, value);
}

static int knob_can_read(void *opaque)
{
    return E1000E_PP_KNOB_LINE;
}

/*
 * Bytes are taken one at a time into a bounded line: under record/replay
 * the reads are deferred events, so more may come than one can_read
 * offered.
 */
static void knob_read(void *opaque, const uint8_t *buf, int size)
{
    E1000EPPState *s = opaque;
    int i;

    for (i = 0; i < size; i++) {
        if (buf[i] != '\n') {
            /* knob_len stops at the bound: a line past it is refused */
            if (s->knob_len < E1000E_PP_KNOB_LINE - 1) {
                s->knob_line[s->knob_len] = buf[i];
            }
            if (s->knob_len < E1000E_PP_KNOB_LINE) {
                s->knob_len++;
            }
            continue;
        }
        if (s->knob_len >= E1000E_PP_KNOB_LINE) {
            knob_answer(s, "error: a line longer than %d bytes\n",
                        E1000E_PP_KNOB_LINE - 1);
        } else if (s->knob_len) {
            s->knob_line[s->knob_len] = '\0';
            knob_line(s, s->knob_line);
        }
        s->knob_len = 0;
    }
}

void e1000e_pp_knob_channel_class_init(ObjectClass *klass)
{
    object_class_property_set_description(klass, "x-knobs",
        "a chardev id: its NAME=VALUE lines set the run-time knobs, in "
        "the replay log under record/replay (qom-set is not)");
}

bool e1000e_pp_knob_channel_realize(E1000EPPState *s, Error **errp)
{
    g_autofree char *spec = NULL;
    Chardev *chr;

    if (!s->knob_chardev) {
        return true;
    }
    spec = g_strdup_printf("chardev:%s", s->knob_chardev);
    chr = qemu_chr_new("e1000e-pp-knobs", spec, NULL);
    if (!chr) {
        error_setg(errp, "Property 'x-knobs' names no chardev: '%s'",
                   s->knob_chardev);
        return false;
    }
    if (!qemu_chr_fe_init(&s->knob_chr, chr, errp)) {
        return false;
    }
    s->knob_len = 0;
    qemu_chr_fe_set_handlers(&s->knob_chr, knob_can_read, knob_read, NULL,
                             NULL, s, NULL, true);
    return true;
}

void e1000e_pp_knob_channel_unrealize(E1000EPPState *s)
{
    qemu_chr_fe_deinit(&s->knob_chr, false);
}
