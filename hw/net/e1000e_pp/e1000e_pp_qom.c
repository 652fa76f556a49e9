/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp QOM properties beyond the qdev ones: read-only counters and
 * lists for tests and the harness (qom-get), and the race-tooling knobs
 * (qom-set at run time). The values live in the device core.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/qdev-core.h"

#include "e1000e_pp.h"

/* Read-only counters for tests: qom-get <dev> rx-offered, ... */
static void add_counters(E1000EPPState *s)
{
    Object *obj = OBJECT(s);
    E1000EPPRxCounters *rx = &s->core.obs.rxstat;
    const struct {
        const char *name;
        uint64_t *v;
    } counters[] = {
        { "rx-offered", &rx->offered },
        { "rx-delivered", &rx->delivered },
        { "rx-missed", &rx->missed },
        { "rx-filtered", &rx->filtered },
        { "rx-oversize", &rx->oversize },
        { "rx-undersize", &rx->undersize },
        { "rx-not-ready", &rx->not_ready },
        { "rx-dma-error", &rx->dma_error },
        { "rx-flushed", &rx->flushed },
        { "rx-wake", &rx->wake },
        { "rx-errored", &rx->errored },
        { "rx-long-stored", &rx->long_stored },
        { "reset-accesses", &s->core.obs.reset_accesses },
        { "dma-errors", &s->core.obs.dma_errors },
        { "pm-violations", &s->core.obs.pm_violations },
        { "reentries-refused", &s->core.obs.reentries },
        { "tx-sent", &s->core.obs.tx_sent },
        { "tx-pause-sent", &s->core.obs.pause_sent },
        { "irq-messages-0", &s->core.obs.irq_messages[0] },
        { "irq-messages-1", &s->core.obs.irq_messages[1] },
        { "irq-messages-2", &s->core.obs.irq_messages[2] },
        { "irq-messages-3", &s->core.obs.irq_messages[3] },
        { "irq-messages-4", &s->core.obs.irq_messages[4] },
        { "intx-asserts", &s->core.obs.intx_asserts },
        { "dma-fault-count", &s->core.obs.nfaults },
        { "rx-null-desc", &s->core.obs.rxslots.null_desc },
        { "rx-buf-new", &s->core.obs.rxslots.buf_new },
        { "rx-buf-reposted", &s->core.obs.rxslots.buf_reposted },
    };
    size_t i;

    for (i = 0; i < ARRAY_SIZE(counters); i++) {
        object_property_add_uint64_ptr(obj, counters[i].name, counters[i].v,
                                       OBJ_PROP_FLAG_READ);
    }
}

/* The core's text lists: measured first, then written into a new string. */
typedef size_t (*CoreTextFn)(E1000EPPCore *c, char *buf, size_t size);

static char *core_text(Object *obj, CoreTextFn fn)
{
    E1000EPPState *s = E1000E_PP(obj);
    size_t len = fn(&s->core, NULL, 0);
    char *buf = g_malloc(len + 1);

    fn(&s->core, buf, len + 1);
    return buf;
}

/* qom-get <dev> events: knob changes and violations, oldest first. */
static char *e1000e_pp_get_events(Object *obj, Error **errp)
{
    return core_text(obj, e1000e_pp_events);
}

/* qom-get <dev> dma-faults: failed DMAs, oldest first. */
static char *e1000e_pp_get_dma_faults(Object *obj, Error **errp)
{
    return core_text(obj, e1000e_pp_dma_faults);
}

/* qom-get <dev> situations: "name count" per datapath situation. */
static char *e1000e_pp_get_situations(Object *obj, Error **errp)
{
    return core_text(obj, e1000e_pp_situations);
}

/* qom-get <dev> unimplemented-registers: what the guest touched. */
static char *e1000e_pp_get_unimplemented(Object *obj, Error **errp)
{
    return core_text(obj, e1000e_pp_unimplemented);
}

/*
 * Race-tooling knobs, test-only and so named with QEMU's x- prefix for
 * experimental properties; set with qom-set at run time (x-reset-delay-ns,
 * x-rx-fetch-limit and x-rx-hold-desc also on the command line, where
 * they configure the core before realize). Each knob takes one bounded
 * integer: a value out of its range, negative (the visitor hands it over
 * as a huge unsigned one) or not an integer is refused with the knob's
 * name and range, and the device keeps what it had. The ranges and their
 * reasons are in docs/usage/qemu.md.
 */
typedef struct Knob {
    const char *name;
    uint64_t min, max;
    const char *range;          /* how the error message states min..max */
    bool boot;                  /* also before realize (command line) */
} Knob;

enum {
    KNOB_RESET_NS, KNOB_TX_HOLD, KNOB_LINK_DROP, KNOB_WAKE, KNOB_FETCH,
    KNOB_DMA_FAULT, KNOB_RX_HOLD,
};

/* A frame count: the core counts down in 32 bits. */
#define KNOB_COUNT_RANGE "an integer from 0 to 4294967295 (frames; 0 cancels)"

static const Knob knobs[] = {
    /* Beyond 1 s of virtual time no driver is still waiting. */
    [KNOB_RESET_NS] = { "x-reset-delay-ns", 0, 1000 * 1000 * 1000,
                        "an integer from 0 to 1000000000 (ns)", true },
    [KNOB_TX_HOLD] = { "x-tx-hold", 0, 1, "0 or 1" },
    /* A minute without link is a cable pulled: use set_link for that. */
    [KNOB_LINK_DROP] = { "x-link-drop-ms", 1, 60 * 1000,
                         "an integer from 1 to 60000 (ms)" },
    /* The WUS causes the model raises: LNKC, MAG, EX, MC, BC. */
    [KNOB_WAKE] = { "x-wake-event", 1, 0x1f,
                    "a WUS cause mask from 0x1 to 0x1f (LNKC 0x1, MAG 0x2, "
                    "EX 0x4, MC 0x8, BC 0x10)" },
    /* The descriptor cache holds E1000E_PP_RX_CACHE descriptors. */
    [KNOB_FETCH] = { "x-rx-fetch-limit", 0, E1000E_PP_RX_CACHE,
                     "an integer from 0 to 32 (descriptors; 0 is off)",
                     true },
    [KNOB_DMA_FAULT] = { "x-dma-fault-writes", 0, UINT32_MAX,
                         KNOB_COUNT_RANGE },
    /* A 16 KB frame (the packet buffer's largest) in 256-byte buffers. */
    [KNOB_RX_HOLD] = { "x-rx-hold-desc", 0, 64,
                       "an integer from 0 to 64 (descriptors; 0 releases)",
                       true },
};
/* x-rx-error-crc, -symbol, -data, -oversize share one entry. */
static const Knob rx_error_knob = { NULL, 0, UINT32_MAX, KNOB_COUNT_RANGE };

QEMU_BUILD_BUG_ON(E1000E_PP_RX_CACHE != 32);

static E1000EPPRxErr rx_error_kind(const char *name)
{
    unsigned k;

    for (k = E1000E_PP_RXERR_CRC; k < E1000E_PP_RXERR_KINDS; k++) {
        if (!strcmp(name, e1000e_pp_rx_error_name(k))) {
            return k;
        }
    }
    return E1000E_PP_RXERR_NONE;
}

static void e1000e_pp_knob_get(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    E1000EPPState *s = E1000E_PP(obj);
    const Knob *k = opaque;
    uint64_t value = 0;

    if (k == &knobs[KNOB_RESET_NS]) {
        value = s->core.cfg.reset_ns;
    } else if (k == &knobs[KNOB_TX_HOLD]) {
        value = s->core.arch.tx_hold;
    } else if (k == &knobs[KNOB_FETCH]) {
        value = s->core.cfg.rx_fetch_limit;
    } else if (k == &knobs[KNOB_DMA_FAULT]) {
        value = s->core.dma_fault_writes;
    } else if (k == &knobs[KNOB_RX_HOLD]) {
        value = s->core.cfg.rx_hold_desc;
    } else if (k == &rx_error_knob) {
        value = e1000e_pp_rx_error_pending(&s->core, rx_error_kind(name));
    }
    visit_type_uint64(v, name, &value, errp);
}

/*
 * Before realize the configuration is written straight into the core's
 * (core_init keeps it); after, the core's knob entry point changes it and
 * lists the change.
 */
static void e1000e_pp_knob_set(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    E1000EPPState *s = E1000E_PP(obj);
    const Knob *k = opaque;
    bool live = DEVICE(obj)->realized;
    Error *err = NULL;
    uint64_t value;

    if (!visit_type_uint64(v, name, &value, &err) ||
        value < k->min || value > k->max) {
        error_free(err);
        error_setg(errp, "Property '%s' takes %s", name, k->range);
        return;
    }
    if (!live && !k->boot) {
        error_setg(errp, "Property '%s' is a run-time knob: set it with "
                   "qom-set once the device is realized", name);
        return;
    }
    if (k == &knobs[KNOB_RESET_NS]) {
        if (live) {
            e1000e_pp_knob_reset_ns(&s->core, value);
        } else {
            s->core.cfg.reset_ns = value;
        }
    } else if (k == &knobs[KNOB_FETCH]) {
        if (live) {
            e1000e_pp_knob_rx_fetch_limit(&s->core, value);
        } else {
            s->core.cfg.rx_fetch_limit = value;
        }
    } else if (k == &knobs[KNOB_RX_HOLD]) {
        if (live) {
            e1000e_pp_knob_rx_hold_desc(&s->core, value);
        } else {
            s->core.cfg.rx_hold_desc = value;
        }
    } else if (k == &knobs[KNOB_TX_HOLD]) {
        e1000e_pp_knob_tx_hold(&s->core, value);
    } else if (k == &knobs[KNOB_LINK_DROP]) {
        e1000e_pp_knob_link_drop(&s->core, value);
    } else if (k == &knobs[KNOB_WAKE]) {
        e1000e_pp_knob_wake(&s->core, value);
    } else if (k == &knobs[KNOB_DMA_FAULT]) {
        e1000e_pp_knob_dma_fault_writes(&s->core, value);
    } else if (k == &rx_error_knob) {
        e1000e_pp_knob_rx_error(&s->core, rx_error_kind(name), value);
    }
}

/* The properties the knob channel may set: the knobs, nothing else. */
bool e1000e_pp_is_knob(const char *name)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(knobs); i++) {
        if (!strcmp(name, knobs[i].name)) {
            return true;
        }
    }
    return rx_error_kind(name) != E1000E_PP_RXERR_NONE;
}

static void add_knobs(E1000EPPState *s)
{
    size_t i;

    s->core.cfg.reset_ns = E1000E_PP_RESET_NS_DEFAULT;
    for (i = 0; i < ARRAY_SIZE(knobs); i++) {
        object_property_add(OBJECT(s), knobs[i].name, "uint64",
                            e1000e_pp_knob_get, e1000e_pp_knob_set,
                            NULL, (void *)&knobs[i]);
        object_property_set_description(OBJECT(s), knobs[i].name,
                                        knobs[i].range);
    }
    for (i = E1000E_PP_RXERR_CRC; i < E1000E_PP_RXERR_KINDS; i++) {
        object_property_add(OBJECT(s), e1000e_pp_rx_error_name(i), "uint64",
                            e1000e_pp_knob_get, e1000e_pp_knob_set,
                            NULL, (void *)&rx_error_knob);
        object_property_set_description(OBJECT(s),
                                        e1000e_pp_rx_error_name(i),
                                        rx_error_knob.range);
    }
    object_property_add_str(OBJECT(s), "events", e1000e_pp_get_events, NULL);
    object_property_add_str(OBJECT(s), "dma-faults", e1000e_pp_get_dma_faults,
                            NULL);
}

void e1000e_pp_add_qom_properties(E1000EPPState *s)
{
    add_counters(s);
    object_property_add_str(OBJECT(s), "unimplemented-registers",
                            e1000e_pp_get_unimplemented, NULL);
    object_property_add_str(OBJECT(s), "situations",
                            e1000e_pp_get_situations, NULL);
    add_knobs(s);
}
