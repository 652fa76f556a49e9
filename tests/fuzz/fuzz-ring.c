/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest's side of descriptor ownership (fuzz-shadow.h): the rings as
 * their registers describe them, and the units a register write hands
 * over to the device.  What the device then does with them is checked
 * in fuzz-shadow.c.
 */
#include "fuzz-shadow.h"

static uint64_t ring_base(Harness *h, uint32_t bal, uint32_t bah)
{
    return ((uint64_t)shadow_reg(h, bah) << 32 | shadow_reg(h, bal)) & ~15ull;
}

/* Is addr inside a ring as its registers now describe it? */
bool in_ring(Harness *h, uint64_t addr, uint32_t bal)
{
    uint64_t base = ring_base(h, bal, bal + 4);
    uint32_t n = shadow_reg(h, bal + 8) & 0xfff80;

    return addr >= base && addr - base < n;
}


static Ring ring_of(const uint32_t *r)
{
    Ring g = {
        .base = ((uint64_t)r[1] << 32 | r[0]) & ~15ull,
        .n = (r[2] & 0xfff80) / 16,
        .head = r[3] & 0xffff,
        .tail = r[4] & 0xffff,
    };

    if (!g.n || g.head >= g.n || g.tail >= g.n) {
        g.n = 0;            /* no descriptor is the device's */
    }
    return g;
}

/* The offset of a ring's i-th register: BAL, BAH, LEN, then H and T. */
static uint32_t ring_reg(uint32_t bal, unsigned i)
{
    return bal + (i < 3 ? 4 * i : 0x10 + 8 * (i - 3));
}

/* The ring at bal as the registers now describe it. */
Ring ring_at(Harness *h, uint32_t bal)
{
    uint32_t r[5];
    unsigned i;

    for (i = 0; i < 5; i++) {
        r[i] = shadow_reg(h, ring_reg(bal, i));
    }
    return ring_of(r);
}

/* The unit index of addr in ring g, or ~0u if it is not in it. */
uint32_t ring_index(const Ring *g, uint64_t addr)
{
    if (!g->n || addr < g->base || (addr - g->base) / 16 >= g->n) {
        return ~0u;
    }
    return (addr - g->base) / 16;
}

/* Does ring g hand unit index i (RDH <= i < RDT, circularly) over? */
static bool ring_holds(const Ring *g, uint32_t i)
{
    if (!g->n) {
        return false;
    }
    return g->tail >= g->head ? i >= g->head && i < g->tail :
                                i >= g->head || i < g->tail;
}

/*
 * The guest hands descriptors over by moving the tail (or, a guest
 * error, the head back): each unit that enters head..tail is one more
 * use the device owns until it writes the unit back.  Moving the tail
 * back takes nothing away: the device may already hold the descriptor.
 */
static void post_ring(Harness *h, bool tx, const Ring *was, const Ring *now)
{
    uint32_t i;

    if (!now->n) {
        return;
    }
    for (i = now->head; i != now->tail; i = (i + 1) % now->n) {
        uint64_t a = now->base + (uint64_t)i * 16;
        Unit *u;

        if (a >= GUEST_MEM || (was->base == now->base && was->n == now->n &&
                               ring_holds(was, i))) {
            continue;
        }
        u = &h->units[a / 16];
        if (tx) {
            u->tx_posted++;
            u->tx_done = false;
        } else {
            u->rx_posted++;
            u->rx_done = false;
        }
    }
}

/* What the ring registers hand over once `off` holds `val`. */
void shadow_post(Harness *h, uint32_t off, uint32_t val)
{
    uint32_t bal = off >= R_TDBAL && off <= R_TDT ? R_TDBAL : R_RDBAL;
    uint32_t r[5], w[5], i;
    Ring was, now;

    if (h->twin) {
        return;
    }
    if (!(off >= R_RDBAL && off <= R_RDT) &&
        !(off >= R_TDBAL && off <= R_TDT)) {
        off = ~0u;          /* nothing changes: post what the registers say */
    }
    for (i = 0; i < 5; i++) {
        uint32_t o = ring_reg(bal, i);

        w[i] = shadow_reg(h, o);
        r[i] = o == off ? val : w[i];
    }
    was = ring_of(w);
    now = ring_of(r);
    post_ring(h, bal == R_TDBAL, &was, &now);
    if (off == ~0u && bal == R_RDBAL) {
        shadow_post(h, R_TDBAL, shadow_reg(h, R_TDBAL));
    }
}

