/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bad values for the device's properties and knobs, from a hostile user:
 * through qom-set (QMP) in D0 and in D3hot, and on the command line.
 * Each is refused with an error that names the property and what it
 * takes, and the device keeps what it had; the values in range are
 * accepted. The ranges are docs/usage/qemu.md's, written here as literals.
 *
 * stock e1000e: has none of the knobs (one scenario says so), and its
 * command line refuses them as unknown properties.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#include "qapi/error.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

#include <poll.h>
#include <sys/syscall.h>

#define NIC_PATH    "/machine/peripheral/" EPP_DEV_ID

typedef struct KnobCase {
    const char *name;
    uint64_t min, max;
    const char *takes;          /* the error message's "takes ..." part */
    bool readable;              /* qom-get gives the value set */
    uint64_t normal;            /* what it is left at */
} KnobCase;

#define COUNT_TAKES "an integer from 0 to 4294967295 (frames; 0 cancels)"

static const KnobCase knobs[] = {
    { "x-reset-delay-ns", 0, 1000000000,
      "an integer from 0 to 1000000000 (ns)", true, 1000 },
    { "x-tx-hold", 0, 1, "0 or 1", true, 0 },
    { "x-link-drop-ms", 1, 60000, "an integer from 1 to 60000 (ms)", false },
    { "x-wake-event", 1, 0x1f,
      "a WUS cause mask from 0x1 to 0x1f (LNKC 0x1, MAG 0x2, EX 0x4, "
      "MC 0x8, BC 0x10)", false },
    { "x-rx-fetch-limit", 0, 32,
      "an integer from 0 to 32 (descriptors; 0 is off)", true, 0 },
    { "x-dma-fault-writes", 0, 4294967295u, COUNT_TAKES, true, 0 },
    { "x-rx-error-crc", 0, 4294967295u, COUNT_TAKES, true, 0 },
    { "x-rx-error-symbol", 0, 4294967295u, COUNT_TAKES, true, 0 },
    { "x-rx-error-data", 0, 4294967295u, COUNT_TAKES, true, 0 },
    { "x-rx-error-oversize", 0, 4294967295u, COUNT_TAKES, true, 0 },
};

/* qom-set with a JSON value; the error's text, or NULL when accepted */
static char *qom_set_json(EppDev *d, const char *property,
                          const char *json)
{
    QObject *value = qobject_from_json(json, &error_abort);
    QDict *rsp = qtest_qmp(d->qts, "{'execute': 'qom-set', 'arguments': "
                           "{'path': %s, 'property': %s, 'value': %p}}",
                           NIC_PATH, property, value);
    char *desc = NULL;

    if (qdict_haskey(rsp, "error")) {
        desc = g_strdup(qdict_get_str(qdict_get_qdict(rsp, "error"),
                                      "desc"));
    } else {
        g_assert(qdict_haskey(rsp, "return"));
    }
    qobject_unref(rsp);
    return desc;
}

static void expect_refused(EppDev *d, const char *property,
                           const char *json, const char *want)
{
    g_autofree char *desc = qom_set_json(d, property, json);

    if (!desc) {
        g_error("qom-set %s %s was accepted", property, json);
    }
    g_assert_cmpstr(desc, ==, want);
}

static void expect_accepted(EppDev *d, const KnobCase *k, uint64_t v)
{
    g_autofree char *json = g_strdup_printf("%" PRIu64, v);
    g_autofree char *desc = qom_set_json(d, k->name, json);

    if (desc) {
        g_error("qom-set %s %s refused: %s", k->name, json, desc);
    }
    if (k->readable) {
        g_assert_cmpuint(epp_qom_u64(d, k->name), ==, v);
    }
}

/*
 * Every bad value of every knob: below and above its range, negative,
 * past 64 bits, a fraction, a string, a bool, null, an object. Then the
 * knob reads what it did and the event list (where every knob change
 * lands) is as it was.
 */
static void refuse_bad_values(EppDev *d)
{
    g_autofree char *events = epp_qom_str(d, "events");
    g_autofree char *after = NULL;
    size_t i, j;

    for (i = 0; i < ARRAY_SIZE(knobs); i++) {
        const KnobCase *k = &knobs[i];
        g_autofree char *want = g_strdup_printf("Property '%s' takes %s",
                                                k->name, k->takes);
        g_autofree char *above = g_strdup_printf("%" PRIu64, k->max + 1);
        const char *bad[] = {
            above, "-1", "-4294967296", "18446744073709551615",
            "18446744073709551616", "1e30", "1.5", "'1'", "'abc'", "true",
            "null", "{}", k->min ? "0" : "-9223372036854775808",
        };
        uint64_t before = k->readable ? epp_qom_u64(d, k->name) : 0;

        for (j = 0; j < ARRAY_SIZE(bad); j++) {
            expect_refused(d, k->name, bad[j], want);
        }
        if (k->readable) {
            g_assert_cmpuint(epp_qom_u64(d, k->name), ==, before);
        }
    }
    after = epp_qom_str(d, "events");
    g_assert_cmpstr(after, ==, events);

    /* The static properties are fixed once realized: QEMU says so. */
    expect_refused(d, "x-rx-backpressure", "true",
                   "Attempt to set property 'x-rx-backpressure' on device "
                   "'nic0' (type 'e1000e-pp') after it was realized");
    expect_refused(d, "mac", "'02:00:00:00:00:02'",
                   "Attempt to set property 'mac' on device 'nic0' "
                   "(type 'e1000e-pp') after it was realized");
}

/* Both ends of each range are taken; then back to the usual value. */
static void accept_range_ends(EppDev *d)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(knobs); i++) {
        const KnobCase *k = &knobs[i];

        expect_accepted(d, k, k->min);
        expect_accepted(d, k, k->max);
        if (k->readable) {
            expect_accepted(d, k, k->normal);
        }
    }
}



/*
 * Given a realized device in D0, when every knob is given every bad
 * value through qom-set, then each is refused with its name and range
 * and nothing changes; the same in D3hot (PMCSR.PowerState 3), where
 * the device still answers QMP and stays in D3hot; and both ends of
 * every range are accepted in either state.
 *
 * e1000e-pp only: stock e1000e has none of the knobs (pp_only_properties).
 */
static void props_bad_values_refused_over_qmp(const char *model)
{
    EppDev *d = epp_start(model, NULL);

    refuse_bad_values(d);
    accept_range_ends(d);

    epp_pmcsr_write(d, 3);
    g_assert_cmphex(epp_pmcsr(d) & 3, ==, 3);
    refuse_bad_values(d);
    g_assert_cmphex(epp_pmcsr(d) & 3, ==, 3);
    accept_range_ends(d);
    g_assert_cmphex(epp_pmcsr(d) & 3, ==, 3);

    epp_pmcsr_write(d, 0);
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* What stock e1000e does not have                                  */
/* ---------------------------------------------------------------- */

/*
 * Every property e1000e-pp has and stock e1000e does not: the knobs of
 * docs/usage/qemu.md's property table (all but mac), and the counters and
 * lists docs/usage/qemu.md, docs/fidelity.md and the scenarios read.
 */
static const char *const pp_only_props[] = {
    "x-rx-backpressure", "x-reset-delay-ns", "x-rx-fetch-limit",
    "x-tx-hold", "x-link-drop-ms", "x-wake-event", "x-dma-fault-writes",
    "x-rx-error-crc", "x-rx-error-symbol", "x-rx-error-data",
    "x-rx-error-oversize", "x-knobs",
    "rx-offered", "rx-delivered", "rx-missed", "rx-wake", "rx-errored",
    "rx-oversize", "rx-not-ready", "rx-null-desc", "rx-buf-new",
    "rx-buf-reposted", "dma-errors", "dma-fault-count", "dma-faults",
    "pm-violations", "reset-accesses", "reentries-refused", "events",
    "situations",
};

/*
 * Given a realized device, then e1000e-pp has every property above and
 * stock e1000e none of them, and qom-set of each run-time knob (those of
 * `knobs`) is refused there: the one stock scenario of every knob
 * scenario that runs on e1000e-pp only (epp_add_pp_case: the frame
 * error matrices of the rx binaries, x-tx-hold, x-link-drop-ms and
 * x-wake-event, the reset/suspend race's counters, the knobs' ranges).
 */
static void pp_only_properties(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    bool stock = epp_on_stock(model, "none of e1000e-pp's knobs, counters or "
                          "lists");
    size_t i;

    for (i = 0; i < ARRAY_SIZE(pp_only_props); i++) {
        if (epp_qom_has(d, pp_only_props[i]) == stock) {
            g_error("%s %s property %s", model, stock ? "has" : "lacks",
                    pp_only_props[i]);
        }
    }
    for (i = 0; stock && i < ARRAY_SIZE(knobs); i++) {
        g_assert_false(epp_qom_set(d, knobs[i].name, knobs[i].min));
    }
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* The command line                                                 */
/* ---------------------------------------------------------------- */

typedef struct CmdlineCase {
    const char *props;
    const char *message;        /* after "-device MODEL,...PROPS...: " */
} CmdlineCase;

static const CmdlineCase cmdline_pp[] = {
    { "x-tx-hold=2", "Property 'x-tx-hold' takes 0 or 1" },
    { "x-tx-hold=1", "Property 'x-tx-hold' is a run-time knob: set it with "
      "qom-set once the device is realized" },
    { "x-link-drop-ms=0",
      "Property 'x-link-drop-ms' takes an integer from 1 to 60000 (ms)" },
    { "x-wake-event=32", "Property 'x-wake-event' takes a WUS cause mask "
      "from 0x1 to 0x1f (LNKC 0x1, MAG 0x2, EX 0x4, MC 0x8, BC 0x10)" },
    { "x-reset-delay-ns=1000000001", "Property 'x-reset-delay-ns' takes "
      "an integer from 0 to 1000000000 (ns)" },
    { "x-reset-delay-ns=-1", "Property 'x-reset-delay-ns' takes "
      "an integer from 0 to 1000000000 (ns)" },
    { "x-rx-fetch-limit=33", "Property 'x-rx-fetch-limit' takes "
      "an integer from 0 to 32 (descriptors; 0 is off)" },
    { "x-rx-fetch-limit=abc", "Property 'x-rx-fetch-limit' takes "
      "an integer from 0 to 32 (descriptors; 0 is off)" },
    { "x-rx-error-crc=4294967296",
      "Property 'x-rx-error-crc' takes " COUNT_TAKES },
    { "x-dma-fault-writes=18446744073709551616",
      "Property 'x-dma-fault-writes' takes " COUNT_TAKES },
    { "x-rx-backpressure=2",
      "Parameter 'x-rx-backpressure' expects 'on' or 'off'" },
    { "x-knobs=nosuch", "Property 'x-knobs' names no chardev: 'nosuch'" },
    { "mac=01:02:03:04:05:06", "Property 'mac' takes a unicast address "
      "(bit 0 of the first byte clear)" },
};

static const CmdlineCase cmdline_stock = {
    "x-rx-fetch-limit=4", "Property 'e1000e.x-rx-fetch-limit' not found"
};

/*
 * In the child: QEMU must refuse the command line and exit with 1, its
 * message on our stderr for the parent to check.  The wait is on the
 * exit itself (poll on a pidfd), not a sleep; a QEMU that still runs
 * after 30 s took the value and is killed (a hang guard only: refusing
 * takes QEMU milliseconds).
 */
static void cmdline_child(const void *opaque)
{
    const CmdlineCase *c = opaque;
    const char *model = c == &cmdline_stock ? "e1000e" : "e1000e-pp";
    g_autofree char *dev = g_strdup_printf("%s,id=" EPP_DEV_ID ",%s", model,
                                           c->props);
    const char *argv[] = {
        g_getenv("QTEST_QEMU_BINARY"), "-M", "q35", "-nodefaults",
        "-display", "none", "-S", "-accel", "qtest", "-device", dev, NULL,
    };
    GError *gerr = NULL;
    struct pollfd pfd = { .events = POLLIN };
    GPid pid;
    int status;
    pid_t done;

    g_assert_nonnull(argv[0]);
    g_spawn_async(NULL, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                  NULL, NULL, &pid, &gerr);
    g_assert_no_error(gerr);
    pfd.fd = syscall(SYS_pidfd_open, pid, 0);
    g_assert_cmpint(pfd.fd, >=, 0);
    /* Readable once the process has exited */
    g_assert_cmpint(poll(&pfd, 1, 30 * 1000), >=, 0);
    close(pfd.fd);
    done = waitpid(pid, &status, WNOHANG);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        g_error("QEMU took -device %s", dev);
    }
    g_assert_cmpint(done, ==, pid);
    g_assert_true(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, 1);
}

static void expect_cmdline_refused(const char *model, size_t i,
                                   const CmdlineCase *c)
{
    g_autofree char *path = g_strdup_printf(
        "/%s/%s/props_cmdline/subprocess/%zu", qtest_get_arch(), model, i);
    g_autofree char *want = g_strdup_printf("*-device %s,*%s: %s\n*", model,
                                            c->props, c->message);

    g_test_trap_subprocess(path, 60 * G_USEC_PER_SEC,
                           0);
    g_test_trap_assert_passed();
    g_test_trap_assert_stderr(want);
}

/*
 * Given a bad value on the command line (out of range, negative, too
 * big for 64 bits, not a number, a run-time knob, a multicast MAC),
 * then QEMU exits with status 1 and prints the property and its range.
 *
 * stock e1000e: knows no x- property; one refusal says so.
 */
static void props_bad_values_refused_on_command_line(const char *model)
{
    size_t i;

    if (epp_on_stock(model, "no x- knobs: the command line names it unknown")) {
        expect_cmdline_refused(model, 0, &cmdline_stock);
        return;
    }
    for (i = 0; i < ARRAY_SIZE(cmdline_pp); i++) {
        expect_cmdline_refused(model, i, &cmdline_pp[i]);
    }
}

/* The children above, as test paths only a trap runs ("subprocess"). */
static void props_add_cases(void)
{
    g_autofree char *stock = g_strdup("e1000e/props_cmdline/subprocess/0");
    size_t i;

    for (i = 0; i < ARRAY_SIZE(cmdline_pp); i++) {
        g_autofree char *path = g_strdup_printf(
            "e1000e-pp/props_cmdline/subprocess/%zu", i);

        qtest_add_data_func(path, &cmdline_pp[i], cmdline_child);
    }
    qtest_add_data_func(stock, &cmdline_stock, cmdline_child);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(props_bad_values_refused_on_command_line),
    EPP_SCENARIO(pp_only_properties),
    EPP_PP_SCENARIO(props_bad_values_refused_over_qmp),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    props_add_cases);
}
