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
 * experimental properties; settable with qom-set at run time (and, for
 * x-reset-delay-ns and x-rx-fetch-limit, on the command line):
 * x-tx-hold, x-reset-delay-ns, x-link-drop-ms, x-wake-event,
 * x-rx-fetch-limit, the error injection x-rx-error-crc,
 * x-rx-error-symbol, x-rx-error-data, x-rx-error-oversize (the next N
 * frames from the wire carry that error; reading gives how many are
 * left), and x-dma-fault-writes (the next N Rx data writes rejected as
 * an IOMMU would; reading gives how many are left). Before realize they
 * only configure.
 */
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
static void e1000e_pp_knob_get_u64(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    E1000EPPState *s = E1000E_PP(obj);
    uint64_t value = 0;

    if (!strcmp(name, "x-reset-delay-ns")) {
        value = DEVICE(obj)->realized ? s->core.cfg.reset_ns :
                s->cfg.reset_ns;
    } else if (!strcmp(name, "x-tx-hold")) {
        value = s->core.arch.tx_hold;
    } else if (!strcmp(name, "x-rx-fetch-limit")) {
        value = DEVICE(obj)->realized ? s->core.cfg.rx_fetch_limit :
                s->cfg.rx_fetch_limit;
    } else if (!strcmp(name, "x-dma-fault-writes")) {
        value = s->core.dma_fault_writes;
    } else if (rx_error_kind(name) != E1000E_PP_RXERR_NONE) {
        value = e1000e_pp_rx_error_pending(&s->core, rx_error_kind(name));
    }
    visit_type_uint64(v, name, &value, errp);
}

static void e1000e_pp_knob_set_u64(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    E1000EPPState *s = E1000E_PP(obj);
    bool live = DEVICE(obj)->realized;
    uint64_t value;

    if (!visit_type_uint64(v, name, &value, errp)) {
        return;
    }
    if (!strcmp(name, "x-reset-delay-ns")) {
        s->cfg.reset_ns = value;
        if (live) {
            e1000e_pp_knob_reset_ns(&s->core, value);
        }
    } else if (!strcmp(name, "x-rx-fetch-limit")) {
        s->cfg.rx_fetch_limit = MIN(value, UINT32_MAX);
        if (live) {
            e1000e_pp_knob_rx_fetch_limit(&s->core, s->cfg.rx_fetch_limit);
        }
    } else if (!live) {
        error_setg(errp, "%s is a run-time knob: set it with qom-set", name);
    } else if (!strcmp(name, "x-tx-hold")) {
        e1000e_pp_knob_tx_hold(&s->core, value != 0);
    } else if (!strcmp(name, "x-link-drop-ms")) {
        e1000e_pp_knob_link_drop(&s->core, MIN(value, UINT32_MAX));
    } else if (!strcmp(name, "x-wake-event")) {
        e1000e_pp_knob_wake(&s->core, (uint32_t)value);
    } else if (!strcmp(name, "x-dma-fault-writes")) {
        e1000e_pp_knob_dma_fault_writes(&s->core, MIN(value, UINT32_MAX));
    } else if (rx_error_kind(name) != E1000E_PP_RXERR_NONE) {
        e1000e_pp_knob_rx_error(&s->core, rx_error_kind(name),
                                MIN(value, UINT32_MAX));
    }
}

static void add_knobs(E1000EPPState *s)
{
    static const char *const knobs[] = {
        "x-reset-delay-ns", "x-tx-hold", "x-link-drop-ms", "x-wake-event",
        "x-rx-fetch-limit", "x-dma-fault-writes",
    };
    size_t i;

    s->cfg.reset_ns = E1000E_PP_RESET_NS_DEFAULT;
    for (i = 0; i < ARRAY_SIZE(knobs); i++) {
        object_property_add(OBJECT(s), knobs[i], "uint64",
                            e1000e_pp_knob_get_u64, e1000e_pp_knob_set_u64,
                            NULL, NULL);
    }
    for (i = E1000E_PP_RXERR_CRC; i < E1000E_PP_RXERR_KINDS; i++) {
        object_property_add(OBJECT(s), e1000e_pp_rx_error_name(i), "uint64",
                            e1000e_pp_knob_get_u64, e1000e_pp_knob_set_u64,
                            NULL, NULL);
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
