/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the e1000e-pp core driven by a hostile guest whose
 * every action comes from the input, with the device's behaviour checked
 * from outside, against a shadow of guest memory kept in the platform
 * callbacks.
 *
 * Input: a sequence of operations, one opcode byte each, then its
 * arguments (little-endian; a short input reads zeros and ends the run).
 * tests/fuzz/make-seeds.py writes the same encoding.
 *
 *   0 WRITE  reg:u8 [off:u16 when reg >= HOT_REGS] val:u32   BAR0 write
 *   1 READ   reg:u8 [off:u16]                           BAR0 read
 *   2 DESC   ring:u8 slot:u8 kind:u8 addr:u32 rest:8B   a descriptor
 *   3 MEM    addr:u32 len:u8 bytes                      guest memory
 *   4 FRAME  len:u16 dst:u8 fill:u8 [n:u8 head:nB]      one frame
 *   5 TIME   ns:u16 shift:u8                            virtual time
 *   6 BME    on:u8                                      COMMAND.BME
 *   7 POWER  state:u8                                   PMCSR write
 *   8 LINK   up:u8                                      carrier
 *   9 IRQ    mode:u8                                    INTx/MSI/MSI-X
 *  10 IO     write:u8 port:u8 val:u32                   I/O BAR
 *  11 RESET                                             power-on reset
 *  12 TAIL   ring:u8 val:u16                            RDT or TDT
 *  13 BURST  n:u8 len:u16 dst:u8                        n frames
 *
 * Guest memory is GUEST_MEM bytes at address 0; BAR0 also answers DMA at
 * BAR0_DMA (DMA aimed at the device's own registers must be refused, not
 * re-enter it); anything else fails like an unmapped address.
 *
 * The shadow of guest memory and the invariants checked against it are
 * in fuzz-shadow.c and fuzz-stats.c; the migration invariant (a loaded
 * copy runs the rest of the input beside the original) is below, at
 * migrate().
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

#include "fuzz-shadow.h"
#include "hot-regs.h"

#define MAX_OPS         4096


typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

static uint8_t get8(Input *in)
{
    if (!in->left) {
        return 0;
    }
    in->left--;
    return *in->p++;
}

static uint32_t get16(Input *in)
{
    uint32_t lo = get8(in);

    return lo | (uint32_t)get8(in) << 8;
}

static uint32_t get32(Input *in)
{
    uint32_t lo = get16(in);

    return lo | get16(in) << 16;
}

static E1000EPPIrqMode h_irq_mode(void *opaque)
{
    return ((Harness *)opaque)->mode;
}

/*
 * 64-bit FNV-1a over a tag, a value and bytes, 8 at a time: the loaded
 * copy's outputs must hash as the original's do.
 */
void harness_out(Harness *h, char kind, uint64_t v, const void *p,
                 size_t len)
{
    const uint64_t prime = 0x100000001b3ull;
    uint64_t x = h->out;
    size_t i;

    x = (x ^ (uint8_t)kind) * prime;
    x = (x ^ v) * prime;
    x = (x ^ len) * prime;
    for (i = 0; p && i < len; i += 8) {
        uint64_t w = 0;

        memcpy(&w, (const uint8_t *)p + i, len - i < 8 ? len - i : 8);
        x = (x ^ w) * prime;
    }
    h->out = x;
    h->nout++;
    if (h->trace) {
        fprintf(stderr, "%s out %c 0x%llx+%zu #%llu\n",
                h->twin ? "loaded" : "source", kind, (unsigned long long)v,
                len, (unsigned long long)h->nout);
    }
}

static void h_set_intx(void *opaque, int level)
{
    Harness *h = opaque;

    if (h->compare) {
        harness_out(h, 'i', level, NULL, 0);
    }
}

static void h_notify(void *opaque, unsigned vector)
{
    Harness *h = opaque;

    if (vector >= E1000E_PP_MSIX_VECTORS) {
        shadow_violation("MSI-X vector out of range", vector, 0);
    }
    if (h->compare) {
        harness_out(h, 'm', vector, NULL, 0);
    }
}

static void h_send(void *opaque, const uint8_t *frame, size_t len)
{
    Harness *h = opaque;

    if (len > E1000E_PP_TX_BUF_BYTES) {
        shadow_violation("frame longer than the Tx buffer", len, 0);
    }
    if (h->compare) {
        harness_out(h, 's', 0, frame, len);
    }
}

static void h_rx_ready(void *opaque)
{
    Harness *h = opaque;

    if (h->compare) {
        harness_out(h, 'q', 0, NULL, 0);
    }
}

static int64_t h_now(void *opaque)
{
    return ((Harness *)opaque)->now;
}

static void h_arm(void *opaque, E1000EPPTimer t, int64_t expire)
{
    Harness *h = opaque;

    h->timers[t] = expire;
    if (h->compare) {
        harness_out(h, 't', (uint64_t)t << 56 ^ (uint64_t)expire, NULL, 0);
    }
}

static void h_cancel(void *opaque, E1000EPPTimer t)
{
    Harness *h = opaque;

    h->timers[t] = -1;
    if (h->compare) {
        harness_out(h, 'c', t, NULL, 0);
    }
}

static void h_log(void *opaque, E1000EPPLog kind, const char *msg)
{
    if (getenv("FUZZ_VERBOSE")) {
        fprintf(stderr, "log %d: %s\n", kind, msg);
    }
}

static const E1000EPPPlatform platform = {
    .dma_read = shadow_dma_read,
    .dma_write = shadow_dma_write,
    .irq_mode = h_irq_mode,
    .set_intx = h_set_intx,
    .notify = h_notify,
    .send = h_send,
    .rx_ready = h_rx_ready,
    .now_ns = h_now,
    .timer_arm = h_arm,
    .timer_cancel = h_cancel,
    .log = h_log,
};

static void step_time(Harness *h, int64_t ns)
{
    int64_t end = h->now + ns;
    unsigned fired = 0;

    for (;;) {
        int i, next = -1;

        for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
            if (h->timers[i] >= 0 && h->timers[i] <= end &&
                (next < 0 || h->timers[i] < h->timers[next])) {
                next = i;
            }
        }
        if (next < 0) {
            break;
        }
        if (++fired > 100000) {
            shadow_violation("timers keep firing without time passing",
                             next, 0);
        }
        if (h->timers[next] > h->now) {
            h->now = h->timers[next];
        }
        h->timers[next] = -1;
        e1000e_pp_timer_fired(h->core, next);
    }
    h->now = end;
}

static uint32_t pick_reg(Input *in)
{
    unsigned r = get8(in);

    return r < HOT_REGS ? hot_regs[r] : (get16(in) * 4) % BAR0_BYTES;
}

static uint64_t pick_addr(Input *in, unsigned kind)
{
    uint32_t a = get32(in);

    switch (kind % 4) {
    case 0:
        return a % GUEST_MEM;
    case 1:
        return BAR0_DMA + a % BAR0_BYTES;
    case 2:
        return (uint64_t)a << 20 | a;
    default:
        return a;
    }
}

static void make_frame(Harness *h, uint8_t *f, size_t len, unsigned dst,
                       unsigned fill)
{
    static const uint8_t own[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    size_t i;

    for (i = 0; i < len; i++) {
        f[i] = (uint8_t)(fill + i * 7);
    }
    if (len >= 14) {
        switch (dst % 4) {
        case 0:
            memcpy(f, own, 6);
            break;
        case 1:
            memset(f, 0xff, 6);
            break;
        case 2:
            f[0] |= 1;      /* multicast */
            break;
        }
        f[12] = dst & 4 ? 0x81 : 0x08;  /* VLAN-tagged or IPv4 */
        f[13] = 0x00;
        if (len >= 34 && !(dst & 4)) {
            f[14] = 0x45;   /* a plausible IPv4 header start */
            f[23] = dst & 8 ? 17 : 6;
        }
    }
}

static bool resets(uint32_t off, uint32_t val)
{
    /* CTRL.RST (26) and CTRL.DEV_RST (29), or writes to the counters. */
    return ((off == O_CTRL || off == 4) && (val & (1u << 26 | 1u << 29))) ||
           (off >= O_STATS && off < O_STATS_END);
}

/* What the guest reads is an output too (the loaded copy must agree). */
static void seen(Harness *h, uint32_t val)
{
    if (h->compare) {
        harness_out(h, 'R', val, NULL, 0);
    }
}

/* One operation of the input, with the checks that follow it. */
static void step(Harness *h, Input *in)
{
    static uint8_t frame[E1000E_PP_MAX_FRAME + 64];
    E1000EPPCore *c = h->core;
    unsigned op = get8(in) % 14, i;
    bool may_clear = false;
    uint32_t off, val, len;
    uint64_t addr;

    if (h->trace) {
        fprintf(stderr, "%sop %u (%zu bytes left)\n",
                h->twin ? "loaded " : "", op, in->left);
    }
    switch (op) {
    case 0:
        off = pick_reg(in);
        val = get32(in);
        may_clear = resets(off, val);
        shadow_post(h, off, val);
        e1000e_pp_write(c, off, val);
        break;
    case 1:
        seen(h, e1000e_pp_read(c, pick_reg(in)));
        may_clear = true;
        break;
    case 2: {
        unsigned ring = get8(in), slot = get8(in), kind = get8(in);
        uint32_t bal = ring & 1 ? O_TDBAL : O_RDBAL;
        uint8_t rest[8];

        addr = pick_addr(in, kind);
        for (i = 0; i < 8; i++) {
            rest[i] = get8(in);
        }
        /* The descriptor slot, at the ring base the guest programmed. */
        off = (shadow_reg(h, bal) & ~15u) + slot * 16 * (kind & 4 ? 2 : 1) +
              (kind & 4 && ring & 2 ? 16 : 0);
        if (off < GUEST_MEM - 16) {
            for (i = 0; i < 8; i++) {
                h->mem[off + i] = (uint8_t)(addr >> (8 * i));
            }
            memcpy(h->mem + off + 8, rest, 8);
        }
        break;
    }
    case 3:
        addr = get32(in) % GUEST_MEM;
        len = get8(in);
        for (i = 0; i < len; i++) {
            uint8_t b = get8(in);

            if (addr + i < GUEST_MEM) {
                h->mem[addr + i] = b;
            }
        }
        break;
    case 4: {
        unsigned dst, fill;

        len = get16(in) % sizeof(frame);
        dst = get8(in);
        fill = get8(in);
        make_frame(h, frame, len, dst, fill);
        /* dst bit 4: the frame's first n bytes come from the input. */
        if (dst & 0x10) {
            unsigned n = get8(in);

            for (i = 0; i < n; i++) {
                uint8_t b = get8(in);

                if (i < len) {
                    frame[i] = b;
                }
            }
        }
        shadow_offer(h, frame, len);
        break;
    }
    case 5: {
        int64_t ns = (int64_t)get16(in) << (get8(in) % 28);

        step_time(h, ns);
        break;
    }
    case 6:
        e1000e_pp_bus_master(c, get8(in) & 1);
        break;
    case 7:
        seen(h, e1000e_pp_power_set(c, get8(in) & 3));
        may_clear = true;
        break;
    case 8:
        e1000e_pp_set_link(c, get8(in) & 1);
        break;
    case 9:
        h->mode = get8(in) % 3;
        e1000e_pp_irq_update(c);
        break;
    case 10:
        if (get8(in) & 1) {
            off = get8(in) & 4;
            val = get32(in);
            if (off) {
                shadow_post(h, c->arch.ioaddr & 0x1fffc, val);  /* IODATA */
            }
            e1000e_pp_io_write(c, off, val);
        } else {
            seen(h, e1000e_pp_io_read(c, get8(in) & 4));
        }
        may_clear = true;
        break;
    case 11:
        e1000e_pp_core_reset(c);
        may_clear = true;
        break;
    case 12:
        off = get8(in) & 1 ? O_TDT : O_RDT;
        val = get16(in);
        shadow_post(h, off, val);
        e1000e_pp_write(c, off, val);
        break;
    default: {
        unsigned n = get8(in) % 32, dst;

        len = get16(in) % sizeof(frame);
        dst = get8(in);
        for (i = 0; i < n; i++) {
            make_frame(h, frame, len, dst, i);
            shadow_offer(h, frame, len);
        }
        break;
    }
    }
    if (!may_clear) {
        shadow_check_stats(h);
    }
    shadow_post(h, ~0u, 0);
    shadow_snapshot(h);
    if (c->depth != 0) {
        shadow_violation("an entry point returned inside another",
                         c->depth, op);
    }
}

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
    e1000e_pp_core_init(core, &platform, &t, &h->core->cfg);
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
        step(t ? t : h, in);
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
        step(h, in);
        if (t) {
            step(t, &copy);
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
    e1000e_pp_core_init(h.core, &platform, &h, &cfg);
    e1000e_pp_bus_master(h.core, true);
    shadow_snapshot(&h);
    run(&h, &in);
    return 0;
}
