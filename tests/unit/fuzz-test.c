/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A hostile guest, deterministically: random register writes, random
 * descriptors and buffer addresses (many outside guest memory), random
 * frames of every length, link flaps, interrupt-mode changes and time
 * steps. Built with AddressSanitizer and UBSan; after every step the
 * receive accounting invariant must hold, and now and then the device is
 * migrated into a fresh core that must then behave exactly as the
 * original. Output is TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-platform.h"
#include "hot-regs.h"

#define STEPS_PER_SEED  200000
#define SEEDS           8

static uint64_t rng_state;

static uint32_t rnd(void)
{
    /* xorshift64*: a fixed sequence per seed, no libc state. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

static uint32_t rnd_value(void)
{
    switch (rnd() % 4) {
    case 0:
        return rnd();
    case 1:
        return rnd() % 64;          /* small ring indices */
    case 2:
        return rnd() % (FAKE_MEM_BYTES + 0x10000);  /* near memory */
    default:
        return 0xffffffffu >> (rnd() % 32);
    }
}

#define RX_RING     0x10000u
#define TX_RING     0x18000u
#define RING_DESCS  64

/* Start like a driver would: rings set up, receiver and transmitter on. */
static void bring_up(Fake *f)
{
    fake_step(f, 600 * 1000 * 1000LL);
    wr(f, 0x02800, RX_RING);
    wr(f, 0x02808, RING_DESCS * 16);
    wr(f, 0x02818, RING_DESCS - 1);
    wr(f, 0x03800, TX_RING);
    wr(f, 0x03808, RING_DESCS * 16);
    wr(f, 0x00100, 1u << 1 | 1u << 15 | 1u << 5);  /* EN | BAM | LPE */
    wr(f, 0x00400, 1u << 1 | 1u << 3);             /* EN | PSP */
    wr(f, 0x000d0, 0x1ffffff);
}

static void scribble_memory(Fake *f)
{
    /* Random descriptors: addresses inside and outside guest memory. */
    uint32_t at = rnd() % 2 ? (rnd() % 2 ? RX_RING : TX_RING) +
                              rnd() % (RING_DESCS * 2) * 16 :
                              rnd() % (FAKE_MEM_BYTES / 16) * 16;
    uint64_t addr = rnd() % 8 ? rnd() % FAKE_MEM_BYTES :
                    (uint64_t)rnd() << 32 | rnd();
    int i;

    for (i = 0; i < 8; i++) {
        f->mem[at + i] = (uint8_t)(addr >> (8 * i));
    }
    for (i = 8; i < 16; i++) {
        f->mem[at + i] = (uint8_t)rnd();
    }
    if (rnd() % 2) {
        /* A plausible Tx command: DEXT data/context, TSE, EOP, RS... */
        f->mem[at + 10] = (uint8_t)(rnd() % 2 ? 0x10 : 0x00);
        f->mem[at + 11] = (uint8_t)(0x20 | (rnd() & 0xdf));
        f->mem[at + 13] = (uint8_t)(rnd() % 128);  /* HDRLEN / POPTS */
    }
}

static int check_invariant(Fake *f, unsigned step)
{
    E1000EPPRxCounters *s = &f->core->obs.rxstat;
    uint64_t sum = s->delivered + s->missed + s->filtered + s->oversize +
                   s->undersize + s->not_ready + s->dma_error +
                   s->flushed + s->wake + s->errored +
                   f->core->arch.pktbuf.count;

    if (s->offered != sum) {
        printf("# step %u: offered %llu != accounted %llu\n", step,
               (unsigned long long)s->offered, (unsigned long long)sum);
        return 1;
    }
    if (f->core->arch.pktbuf.used > E1000E_PP_PKTBUF_BYTES) {
        printf("# step %u: packet buffer over capacity\n", step);
        return 1;
    }
    return 0;
}

/* One random guest action (the driver's reset every 2000 steps too). */
static void guest_step(Fake *f, unsigned step)
{
    static uint8_t frame[E1000E_PP_MAX_FRAME + 64];
    unsigned action = rnd() % 16;
    size_t len, i;

    if (step % 2000 == 1999) {
        /* The driver resets and sets up again now and then. */
        wr(f, 0x00100, 0);
        wr(f, 0x00400, 0);
        bring_up(f);
    }
    if (action < 4) {
        uint32_t off = rnd() % 3 ? hot_regs[rnd() % HOT_REGS]
                                 : (rnd() % 0x20000) & ~3u;
        wr(f, off, rnd_value());
    } else if (action < 6) {
        rd(f, (rnd() % 0x20000) & ~3u);
    } else if (action < 11) {
        len = rnd() % 3 ? rnd() % 1600 : rnd() % sizeof(frame);
        for (i = 0; i < len; i++) {
            frame[i] = (uint8_t)rnd();
        }
        if (len >= 6 && rnd() % 2) {
            memcpy(frame, "\x52\x54\x00\x12\x34\x56", 6);
        }
        if (len >= 16 && rnd() % 4 == 0) {
            frame[12] = 0x81;
            frame[13] = 0x00;
        }
        e1000e_pp_receive(f->core, frame, len);
    } else if (action < 13) {
        scribble_memory(f);
    } else if (action == 13) {
        if (rnd() % 2) {
            wr(f, 0x03818, rnd() % RING_DESCS);     /* TDT */
        } else {
            wr(f, 0x02818, rnd() % RING_DESCS);     /* RDT */
        }
        fake_step(f, rnd() % 2000000);
    } else if (action == 14) {
        e1000e_pp_set_link(f->core, rnd() % 2);
    } else {
        f->mode = rnd() % 3;
        e1000e_pp_irq_update(f->core);
    }
}

/* Migrations: every MIGRATE_EVERY steps, then both run LOCKSTEP steps. */
#define MIGRATE_EVERY   4000
#define LOCKSTEP        300

/*
 * The state the hostile guest reached is saved and loaded into a fresh
 * core: the validator must take it, a second save must be identical,
 * and the two devices must then do exactly the same for the same guest.
 */
static int migrate_and_compare(Fake *f, unsigned *step)
{
    char err[160];
    Fake *g = fake_migrate(f, err, sizeof(err));
    uint64_t rng;
    unsigned i;
    int bad = 0;

    if (!g) {
        printf("# step %u: a reachable state was refused: %s\n", *step, err);
        return 1;
    }
    e1000e_pp_state_presave(g->core);
    if (memcmp(&f->core->arch, &g->core->arch, sizeof(f->core->arch)) ||
        memcmp(&f->core->saved, &g->core->saved, sizeof(f->core->saved))) {
        printf("# step %u: a second save differs from the first\n", *step);
        bad = 1;
    }
    for (i = 0; i < LOCKSTEP && !bad; i++, (*step)++) {
        rng = rng_state;
        guest_step(f, *step);
        rng_state = rng;
        guest_step(g, *step);
    }
    if (!bad && !fake_same(f, g)) {
        printf("# step %u: the migrated device diverged\n", *step);
        bad = 1;
    }
    fake_free(g);
    return bad;
}

static int run_seed(uint64_t seed)
{
    Fake *f = fake_new();
    unsigned step;
    int bad = 0;

    rng_state = seed;
    bring_up(f);
    for (step = 0; step < STEPS_PER_SEED && !bad; step++) {
        guest_step(f, step);
        bad = check_invariant(f, step);
        if (!bad && step % MIGRATE_EVERY == MIGRATE_EVERY - 1) {
            bad = migrate_and_compare(f, &step);
        }
    }
    printf("# offered %llu delivered %llu missed %llu filtered %llu "
           "dma_error %llu frames sent %u dma_errors %llu\n",
           (unsigned long long)f->core->obs.rxstat.offered,
           (unsigned long long)f->core->obs.rxstat.delivered,
           (unsigned long long)f->core->obs.rxstat.missed,
           (unsigned long long)f->core->obs.rxstat.filtered,
           (unsigned long long)f->core->obs.rxstat.dma_error, f->nframes,
           (unsigned long long)f->core->obs.dma_errors);
    fake_free(f);
    return bad;
}

int main(void)
{
    int i, failed = 0;

    printf("1..%d\n", SEEDS);
    for (i = 0; i < SEEDS; i++) {
        int bad = run_seed(0x9e3779b97f4a7c15ull * (i + 1));
        printf("%s %d - random_guest_seed_%d_keeps_accounting_and_"
               "migrates\n",
               bad ? "not ok" : "ok", i + 1, i + 1);
        failed += bad;
    }
    return failed ? 1 : 0;
}
