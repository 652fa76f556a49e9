/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the e1000e-pp core driven by a hostile guest whose
 * every action comes from the input, with the device's behaviour checked
 * from outside, against a shadow of guest memory kept in the platform
 * callbacks.
 *
 * The input's encoding and its decoder are in fuzz-input.c, the
 * platform callbacks in fuzz-platform.c.  The shadow of guest memory and
 * the invariants checked against it are in fuzz-shadow.c (and its ring
 * hand-over in fuzz-ring.c) and fuzz-stats.c; the migration invariant (a
 * loaded copy runs the rest of the input beside the original) is below,
 * at migrate().
 *
 * Built with FUZZ_HOSTILE_STREAM (the fuzz-stream target), the state is
 * changed on its way to the copy, as a hostile migration stream would
 * change the device's section: at the migration point the input gives
 * 1-4 changes, each
 *
 *   where:u8 off:u32 how:u8 val:u32
 *
 * where (even: the architectural state, odd: the sizes presave set),
 * a byte offset into it, and how the bytes there change (0: one byte
 * replaced, 1: a bit flipped, 2: a 32-bit field set to val). The load
 * must refuse the state or take it; a state it takes then runs the
 * rest of the input without a sanitizer report or a hang, and must
 * still pass the validator at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-input.h"

#define MAX_OPS         4096

#ifdef FUZZ_HOSTILE_STREAM
/* The input's changes to the state a stream carries (see the top). */
static void corrupt_state(E1000EPPCore *c, Input *in, bool trace)
{
    unsigned n = get8(in) % 4 + 1, k;

    for (k = 0; k < n; k++) {
        bool sizes = get8(in) & 1;
        uint8_t *base = sizes ? (uint8_t *)&c->saved : (uint8_t *)&c->arch;
        size_t size = sizes ? sizeof(c->saved) : sizeof(c->arch);
        size_t off = get32(in) % size;
        unsigned how = get8(in) % 3;
        uint32_t val = get32(in);

        if (how == 0) {
            base[off] = (uint8_t)val;
        } else if (how == 1) {
            base[off] ^= (uint8_t)(1u << (val & 7));
        } else {
            off &= ~(size_t)3;
            memcpy(base + off, &val,
                   size - off < 4 ? size - off : sizeof(val));
        }
        if (trace) {
            fprintf(stderr, "stream: %s +0x%zx how %u val 0x%x\n",
                    sizes ? "sizes" : "arch", off, how, val);
        }
    }
}
#endif

/*
 * The state saved (presave: the canonical form a stream carries) and
 * copied into a fresh core, as a destination does: initialised from its
 * own configuration, then the architectural state, the sizes presave
 * set and the engine work left past a step's budget; not loaded yet.
 * The copy has its own guest memory and timers.
 */
static Harness *copy_state(Harness *h)
{
    static E1000EPPCore *core;
    static uint8_t *mem;
    static Harness t;
    int i;

    if (!core) {
        core = malloc(sizeof(*core));
        mem = malloc(GUEST_MEM);
    }
    e1000e_pp_state_presave(h->core);
    t = (Harness) {
        .core = core, .mem = mem, .now = h->now, .mode = h->mode,
        .frames = h->frames, .trace = h->trace, .twin = true,
    };
    for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
        t.timers[i] = -1;
    }
    memcpy(mem, h->mem, GUEST_MEM);
    e1000e_pp_core_init(core, &harness_platform, &t, &h->core->cfg);
    core->arch = h->core->arch;
    core->saved = h->core->saved;
    core->work = h->core->work;
    return &t;
}

#ifdef FUZZ_HOSTILE_STREAM
/* The copy, changed by the input, loaded; NULL if the load refused it. */
static Harness *migrate(Harness *h, Input *in)
{
    Harness *t = copy_state(h);
    char err[160];

    corrupt_state(t->core, in, h->trace);
    if (e1000e_pp_state_postload(t->core, err, sizeof(err))) {
        if (h->trace) {
            fprintf(stderr, "refused: %s\n", err);
        }
        return NULL;
    }
    return t;
}
#else
/*
 * The migration invariant.  At a point the input picks (the first
 * operation at or after a byte offset its hash chooses), the state is
 * copied (copy_state) and loaded: postload (the validator, the timers
 * re-armed).  The validator must take every state an input reaches,
 * and the loaded state saved again must be the same.
 * Then the loaded copy runs the rest of the input beside the original,
 * on its own copy of guest memory and timers, and after every operation
 * both must have done the same: the same DMA (addresses, lengths, the
 * bytes written), interrupts, frames sent, timers armed, values the
 * guest read and frames taken.  At the end their states and guest
 * memory must be equal.  The original keeps running after its presave,
 * as a source does when a migration fails or a snapshot is taken.
 */
static Harness *migrate(Harness *h)
{
    Harness *t = copy_state(h);
    E1000EPPCore *core = t->core;
    char err[160];

    if (e1000e_pp_state_postload(core, err, sizeof(err))) {
        fprintf(stderr, "refused: %s\n", err);
        shadow_violation("a reachable state was refused on load", 0, 0);
    }
    e1000e_pp_state_presave(core);
    if (memcmp(&core->arch, &h->core->arch, sizeof(core->arch)) ||
        memcmp(&core->saved, &h->core->saved, sizeof(core->saved))) {
        shadow_violation("a loaded state saved again differs", 0, 0);
    }
    if (memcmp(t->timers, h->timers, sizeof(t->timers))) {
        shadow_violation("the timers re-armed on load differ", 0, 0);
    }
    if (h->trace) {
        fprintf(stderr, "saved and loaded: the copy runs beside\n");
    }
    h->compare = t->compare = true;
    h->out = t->out = 0xcbf29ce484222325ull;
    h->nout = t->nout = 0;
    return t;
}

/* After the rest of the input: the same state, the same guest memory. */
static void compare_end(Harness *h, Harness *t)
{
    e1000e_pp_state_presave(h->core);
    e1000e_pp_state_presave(t->core);
    if (memcmp(&t->core->arch, &h->core->arch, sizeof(t->core->arch)) ||
        memcmp(&t->core->saved, &h->core->saved, sizeof(t->core->saved)) ||
        t->core->work != h->core->work) {
        shadow_violation("the loaded copy ended in another state", 0, 0);
    }
    if (memcmp(t->mem, h->mem, GUEST_MEM)) {
        shadow_violation("the loaded copy left guest memory otherwise", 0,
                         0);
    }
}
#endif

/* Where the input migrates: a byte offset from its hash (FNV-1a) */
static size_t split_point(const uint8_t *data, size_t size)
{
    uint64_t x = 0xcbf29ce484222325ull;
    size_t i;

    for (i = 0; i < size; i++) {
        x = (x ^ data[i]) * 0x100000001b3ull;
    }
    return size ? x % size : 0;
}

#ifdef FUZZ_HOSTILE_STREAM
/*
 * The driver's part of the input runs on the original under the shadow;
 * at the migration point the changed state is loaded into the copy, and
 * a copy the load took runs the rest alone (its state is the stream's,
 * not one the shadow followed, so only the sanitizers, the bounds of
 * every loop and the validator judge it).
 */
static void run(Harness *h, Input *in)
{
    size_t start = in->left, at = split_point(in->p, in->left);
    Harness *t = NULL;
    unsigned ops;
    char err[160];

    for (ops = 0; ops < MAX_OPS && in->left; ops++) {
        if (!t && start - in->left >= at) {
            t = migrate(h, in);
            if (!t) {
                return;         /* refused, as a destination must */
            }
        }
        fuzz_step(t ? t : h, in);
    }
    if (!t) {
        t = migrate(h, in);
    }
    if (t) {
        e1000e_pp_state_presave(t->core);
        if (e1000e_pp_state_validate(t->core, err, sizeof(err))) {
            fprintf(stderr, "refused: %s\n", err);
            shadow_violation("a state run from a loaded stream fails the "
                             "validator", 0, 0);
        }
    }
}
#else
static void run(Harness *h, Input *in)
{
    size_t start = in->left, at = split_point(in->p, in->left);
    Harness *t = NULL;
    unsigned ops;

    for (ops = 0; ops < MAX_OPS && in->left; ops++) {
        Input copy;

        if (!t && start - in->left >= at) {
            t = migrate(h);
        }
        copy = *in;
        fuzz_step(h, in);
        if (t) {
            fuzz_step(t, &copy);
            if (t->out != h->out || t->nout != h->nout) {
                shadow_violation("the loaded copy behaved otherwise "
                                 "(outputs, op)", t->nout, ops);
            }
        }
    }
    if (!t) {
        t = migrate(h);     /* the end state migrates all the same */
    }
    compare_end(h, t);
}
#endif

/* libFuzzer's entry point: one input, one fresh device. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const E1000EPPConfig cfg = {
        .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
    };
    /* Allocated once; each run starts from zeroed memory all the same. */
    static E1000EPPCore *core;
    static uint8_t *mem;
    static Unit *units;
    static uint32_t *armed;
    Harness h = { .mode = E1000E_PP_IRQ_INTX, .trace = !!getenv("FUZZ_TRACE") };
    Input in = { data, size };
    int i;

    if (!core) {
        core = malloc(sizeof(*core));
        mem = malloc(GUEST_MEM);
        units = malloc(UNITS * sizeof(Unit));
        armed = malloc(UNITS * sizeof(uint32_t));
    }
    memset(core, 0, sizeof(*core));
    memset(mem, 0, GUEST_MEM);
    memset(units, 0, UNITS * sizeof(Unit));
    h.core = core;
    h.mem = mem;
    h.units = units;
    h.armed = armed;
    for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
        h.timers[i] = -1;
    }
    e1000e_pp_core_init(h.core, &harness_platform, &h, &cfg);
    e1000e_pp_bus_master(h.core, true);
    shadow_snapshot(&h);
    run(&h, &in);
    return 0;
}
