/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The shadow of guest memory and the ownership invariants of
 * fuzz-shadow.h, observed at the platform's DMA callbacks: what the
 * device reads, and whether what it writes lands where it owns (the
 * hand-over itself is in fuzz-ring.c, the frame and statistics checks
 * in fuzz-stats.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-shadow.h"

void shadow_violation(const char *what, unsigned long long a,
                      unsigned long long b)
{
    fprintf(stderr, "INVARIANT BROKEN: %s (0x%llx, 0x%llx)\n", what, a, b);
    abort();
}

uint32_t shadow_reg(Harness *h, uint32_t off)
{
    /* The register file as the guest would read it, without side effects. */
    return h->core->arch.regs[off / 4];
}

/* §10.2.5.1: RCTL.BSIZE/BSEX, or FLXBUF in KB when nonzero. */
static uint32_t rx_bsize(uint32_t rctl)
{
    static const uint32_t plain[4] = { 2048, 1024, 512, 256 };
    static const uint32_t ext[4] = { 2048, 16384, 8192, 4096 };
    unsigned bs = (rctl >> 16) & 3, flx = (rctl >> 27) & 15;

    if (flx) {
        return flx * 1024;
    }
    return rctl & (1u << 25) ? ext[bs] : plain[bs];
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

/* Remember a unit with an Rx read outstanding (dropping settled ones). */
static void arm(Harness *h, uint32_t unit)
{
    if (h->narmed == UNITS) {
        unsigned i, n = 0;

        for (i = 0; i < UNITS; i++) {
            if (h->units[h->armed[i]].rx_fetched) {
                h->armed[n++] = h->armed[i];
            } else {
                h->units[h->armed[i]].listed = false;
            }
        }
        h->narmed = n;
    }
    if (!h->units[unit].listed) {
        h->units[unit].listed = true;
        h->armed[h->narmed++] = unit;
    }
}

/* §7.1.5: packet-split buffer sizes from PSRCTL.BSIZE0..3. */
static uint32_t ps_size(uint32_t psrctl, unsigned b)
{
    return b ? ((psrctl >> (8 * b)) & 0x3f) * 1024 : (psrctl & 0x7f) * 128;
}

/*
 * Add one buffer to what unit u may receive.  A buffer named again adds
 * nothing; when the list is full, the first read's buffers stay (what
 * a descriptor cache took) and the later ones give way oldest first.
 */
static void add_buffer(Unit *u, uint64_t addr, uint32_t size, uint8_t ps)
{
    unsigned b;

    for (b = 0; b < u->nbufs; b++) {
        if (u->buf[b] == addr && u->ps_index[b] == ps) {
            if (size > u->size[b]) {
                u->size[b] = size;
            }
            return;
        }
    }
    if (u->nbufs < UNIT_BUFS) {
        b = u->nbufs++;
    } else {
        b = u->first + u->next++ % (UNIT_BUFS - u->first);
    }
    u->buf[b] = addr;
    u->size[b] = size;
    u->ps_index[b] = ps;
}

/*
 * The device read Rx unit `unit`; `d` holds its bytes (`pair`: and the
 * next).  A read during an ownership that already saw one adds buffers:
 * the device may fill what its descriptor cache took first (§7.1.6:
 * descriptors are fetched as soon as the tail hands them over, and one
 * software rewrites after that is not seen),
 * and where the guest laid the Tx ring over the Rx ring a later 16-byte
 * read of the unit may be the Tx engine's fetch, not the Rx engine's.
 */
static void rx_read(Harness *h, uint32_t unit, const uint8_t *d, bool pair,
                    bool sure)
{
    Unit *u = &h->units[unit];
    uint32_t ps = shadow_reg(h, R_PSRCTL);
    bool first = !(u->rx_fetched && u->rx_posted);
    unsigned i;

    if (first) {
        u->nbufs = u->first = u->next = 0;
        u->rx_sure = u->rx_filled = false;
    }
    u->rx_fetched = true;
    u->rx_sure |= sure;
    arm(h, unit);
    if (pair) {
        /* A packet-split descriptor: four buffers, its second unit none */
        for (i = 0; i < 4; i++) {
            add_buffer(u, le64(d + 8 * i), ps_size(ps, i), i);
        }
        if (unit + 1 < UNITS) {
            Unit *second = &h->units[unit + 1];

            if (!(second->rx_fetched && second->rx_posted)) {
                second->nbufs = second->first = second->next = 0;
                second->rx_filled = false;
            }
            second->rx_fetched = true;
            second->rx_sure = true;
            arm(h, unit + 1);
        }
    } else {
        add_buffer(u, le64(d), rx_bsize(shadow_reg(h, R_RCTL)), PS_NONE);
    }
    if (first) {
        u->first = u->nbufs;
    }
}

/*
 * Could this read of the unit at addr be the Tx engine's fetch?  It
 * fetches one 16-byte descriptor at a time, at TDH, of those TDT handed
 * over (§7.2.3); any other read of a unit in the Rx ring is the Rx
 * engine's (or Tx packet data laid over it, which counts for Rx too).
 */
static bool tx_fetch_here(Harness *h, uint64_t addr)
{
    Ring g;

    if (h->read_len != 16) {
        return false;
    }
    g = ring_at(h, R_TDBAL);
    return g.n && g.head != g.tail && addr == g.base + g.head * 16ull;
}

/*
 * A read of whole 16-byte units inside a ring is a descriptor fetch,
 * whether of one descriptor or of several ahead (a descriptor cache).
 * Only the Rx engine reads 32 bytes at once (a packet-split descriptor),
 * so such a read counts for Rx even outside the ring as programmed now.
 */
static void note_fetch(Harness *h, uint64_t addr, const uint8_t *d,
                       size_t len)
{
    /* RCTL.DTYP (11:10) = 01: packet-split, 32-byte descriptors */
    bool split = ((shadow_reg(h, R_RCTL) >> 10) & 3) == 1;
    size_t off;

    if (addr % 16 || len % 16 || !len || addr >= GUEST_MEM) {
        return;             /* Tx packet data, not descriptors */
    }
    for (off = 0; off < len; off += 16) {
        uint64_t a = addr + off;
        bool pair = split && len - off >= 32;

        if (len == 32 || in_ring(h, a, R_RDBAL)) {
            rx_read(h, a / 16, d + off, pair, !tx_fetch_here(h, a));
        }
        if (in_ring(h, a, R_TDBAL)) {
            h->units[a / 16].tx_fetched = true;
        }
        if (pair && (len == 32 || in_ring(h, a, R_RDBAL))) {
            off += 16;
        }
    }
}

/* Where a write lies among the buffers the device owns */
typedef enum BufferHit {
    HIT_NONE,
    HIT_NULL,               /* only in the range a null address names */
    HIT_BUFFER,
} BufferHit;

/*
 * Does [addr, addr + len) lie inside a buffer of a descriptor the device
 * owns and has read?  Its size is the one given at the read or, if the
 * guest changed it since, the current one (both were in force while the
 * device owned the descriptor).  A buffer at address 0 takes no data
 * (§7.1.7.2; §7.1.5 for packet split): a write inside one only is
 * HIT_NULL.
 */
static BufferHit in_buffer(Harness *h, uint64_t addr, size_t len)
{
    uint32_t bs = rx_bsize(shadow_reg(h, R_RCTL));
    uint32_t ps = shadow_reg(h, R_PSRCTL);
    BufferHit hit = HIT_NONE;
    unsigned i, b;

    for (i = 0; i < h->narmed; i++) {
        Unit *u = &h->units[h->armed[i]];

        if (!u->rx_fetched || !u->rx_posted) {
            continue;
        }
        for (b = 0; b < u->nbufs; b++) {
            uint32_t now = u->ps_index[b] == PS_NONE ? bs :
                           ps_size(ps, u->ps_index[b]);
            uint32_t size = u->size[b] > now ? u->size[b] : now;

            if (addr >= u->buf[b] && len <= size &&
                addr - u->buf[b] <= size - len) {
                if (u->buf[b]) {
                    return HIT_BUFFER;
                }
                hit = HIT_NULL;
            }
        }
    }
    return hit;
}

/* The device gives one unit back: its write-back */
static void rx_write_back(Harness *h, uint64_t a, size_t len)
{
    Unit *u = &h->units[a / 16];

    if (!u->rx_posted) {
        shadow_violation(u->rx_done ?
                         "Rx descriptor written back twice for one hand-over" :
                         "Rx descriptor written back before it was handed "
                         "over", a, len);
    }
    if (!u->rx_fetched) {
        shadow_violation("Rx descriptor written back without being read",
                         a, len);
    }
    u->rx_filled = false;
    if (--u->rx_posted == 0) {
        u->rx_fetched = false;
        u->rx_done = true;
    }
}

static void tx_write_back(Harness *h, uint64_t addr, size_t len)
{
    Unit *u = &h->units[addr / 16];

    if (!u->tx_posted) {
        shadow_violation(u->tx_done ?
                         "Tx descriptor written back twice for one hand-over" :
                         "Tx descriptor written back before it was handed "
                         "over", addr, len);
    }
    if (!u->tx_fetched) {
        shadow_violation("Tx status written back without a fetch", addr, len);
    }
    if (--u->tx_posted == 0) {
        u->tx_fetched = false;
        u->tx_done = true;
    }
}

/* Is every unit of [addr, addr + len) one the device read from its Rx ring? */
static bool rx_units(Harness *h, uint64_t addr, size_t len)
{
    size_t off;

    if (addr % 16 || len % 16 || !len || addr >= GUEST_MEM ||
        len > GUEST_MEM - addr) {
        return false;
    }
    for (off = 0; off < len; off += 16) {
        Unit *u = &h->units[(addr + off) / 16];

        if (!u->rx_fetched && !u->rx_done &&
            !in_ring(h, addr + off, R_RDBAL)) {
            return false;
        }
    }
    return true;
}

/* Units between a ring's head and a write-back it still owes. */
#define HEAD_WINDOW     64

/* How far addr lies from the head of the ring at bal (~0u: not in it) */
static uint32_t head_distance(Harness *h, uint32_t bal, uint64_t addr)
{
    Ring g = ring_at(h, bal);
    uint32_t i = ring_index(&g, addr), ahead, behind;

    if (i == ~0u) {
        return ~0u;
    }
    ahead = (i + g.n - g.head) % g.n;
    behind = (g.head + g.n - i) % g.n;
    return ahead < behind ? ahead : behind;
}

/*
 * The Rx engine writes back the descriptors at its head, or held ones a
 * little behind it (§7.1.4: the head is where the hardware is working),
 * so a unit far from RDH is not its write-back.  The Tx engine's may
 * come a whole fetch after the descriptor's (up to 256 ahead, its
 * budget): a unit Tx holds that lies far from RDH is Tx's, wherever
 * TDH is.  A Tx fetch of that unit looked like an Rx read as well, so
 * "Rx has read it" alone does not make the write Rx's.
 */
static bool tx_writes_here(Harness *h, uint64_t addr)
{
    return head_distance(h, R_RDBAL, addr) > HEAD_WINDOW;
}

/*
 * The Rx engine writes descriptors back in ring order (§7.1.4): a unit
 * ahead of RDH cannot be its write-back while a unit between RDH and it,
 * read and still the device's, waits for its own.  (The Tx engine's
 * write-back of a descriptor may come a whole packet after its fetch,
 * so distance from TDH alone cannot tell the two apart.)  Packet-split
 * rings, with their 32-byte descriptors, are not judged here.
 */
static bool rx_out_of_order(Harness *h, uint64_t addr)
{
    Ring g = ring_at(h, R_RDBAL);
    uint32_t i = ring_index(&g, addr), j;

    if (((shadow_reg(h, R_RCTL) >> 10) & 3) == 1 || i == ~0u ||
        (i + g.n - g.head) % g.n > HEAD_WINDOW) {
        return false;
    }
    for (j = g.head; j != i; j = (j + 1) % g.n) {
        uint64_t a = g.base + j * 16ull;
        Unit *u;

        if (a >= GUEST_MEM) {
            return false;
        }
        u = &h->units[a / 16];
        if (u->rx_fetched && u->rx_posted) {
            return true;
        }
    }
    return false;
}

/*
 * Data lands for the descriptor at RDH, the one the hardware is working
 * on (§7.1.4), before its write-back.  A write that misses guest memory
 * (a buffer outside it, or in BAR0) counts too: the data was sent.
 */
static void note_fill(Harness *h)
{
    Ring g = ring_at(h, R_RDBAL);
    uint64_t a = g.n ? g.base + g.head * 16ull : GUEST_MEM;

    if (a < GUEST_MEM) {
        h->units[a / 16].rx_filled = true;
    }
}

/*
 * Could the Rx engine write this unit back now?  Only once data landed
 * for it, or at once for a null descriptor (§7.1.7.2: no data is
 * stored, DD is set); packet-split units are not judged here.
 */
static bool rx_may_write_back(const Unit *u)
{
    unsigned b;

    if (u->rx_filled) {
        return true;
    }
    for (b = 0; b < u->nbufs; b++) {
        if (!u->buf[b] || u->ps_index[b] != PS_NONE) {
            return true;
        }
    }
    return false;
}

static void note_write(Harness *h, uint64_t addr, size_t len)
{
    size_t off;

    /*
     * A buffer may lie over descriptors (its own, even): a write inside
     * an owned buffer counts as data, since data lands before write-back.
     * One that lies only in the range a null descriptor names (from 0)
     * is not data, but it is taken as data all the same: it is most
     * likely a Tx write-back over a ring at address 0, and the Rx engine
     * may still write the null descriptor back.
     */
    switch (in_buffer(h, addr, len)) {
    case HIT_BUFFER:
        note_fill(h);
        return;
    case HIT_NULL:
        return;
    case HIT_NONE:
        break;
    }
    /*
     * A whole Tx descriptor (WTHRESH >= 1) looks like an Rx write-back
     * where the guest lays both rings over the same memory: it is Tx's
     * when Tx holds that unit and Rx does not, or both do and either
     * every Rx read of it was a 16-byte read at TDH (the Tx fetch, so
     * the Rx engine has not read it: both heads may be at the unit), or
     * no data has landed for it since the Rx read (so the Rx engine has
     * nothing to write back), or the unit lies far from RDH, or Rx still
     * owes a write-back before it in ring order.  Taking an Rx
     * write-back for Tx's keeps an Rx ownership the next write-back
     * ends all the same.
     */
    if (len == 16 && addr % 16 == 0 && addr < GUEST_MEM) {
        Unit *u = &h->units[addr / 16];

        if (u->tx_fetched && u->tx_posted &&
            (!(u->rx_fetched && u->rx_posted) || !u->rx_sure ||
             !rx_may_write_back(u) || tx_writes_here(h, addr) ||
             rx_out_of_order(h, addr))) {
            tx_write_back(h, addr, len);
            return;
        }
    }
    /* Rx write-back: whole units of the ring, one or several at once */
    if (rx_units(h, addr, len)) {
        for (off = 0; off < len; off += 16) {
            rx_write_back(h, addr + off, len);
        }
        return;
    }
    /*
     * Tx write-back: the status byte (DD) of a descriptor, or the whole
     * descriptor with WTHRESH >= 1.
     */
    if (addr < GUEST_MEM && ((addr % 16 == 12 && len == 1) ||
                             (addr % 16 == 0 && len == 16))) {
        tx_write_back(h, addr, len);
        return;
    }
    shadow_violation("packet data written outside every buffer the device "
                     "owns", addr, len);
}

int shadow_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Harness *h = opaque;

    if (addr >= BAR0_DMA && addr - BAR0_DMA < BAR0_BYTES) {
        /* Must be refused by the core (a nested access). */
        uint32_t v = e1000e_pp_read(h->core, (uint32_t)(addr - BAR0_DMA) & ~3u);
        size_t i;

        for (i = 0; i < len; i++) {
            ((uint8_t *)buf)[i] = (uint8_t)(v >> (8 * (i % 4)));
        }
        if (h->compare) {
            harness_out(h, 'b', addr, NULL, len);
        }
        return 0;
    }
    if (h->compare) {
        harness_out(h, 'r', addr, NULL, len);
    }
    if (addr >= GUEST_MEM || len > GUEST_MEM - addr) {
        return -1;
    }
    memcpy(buf, h->mem + addr, len);
    if (h->twin) {
        return 0;
    }
    h->read_len = len;
    if (h->trace) {
        fprintf(stderr, "dma read  0x%05llx+%zu RDH %u RDT %u TDH %u TDT %u "
                "RCTL 0x%08x\n",
                (unsigned long long)addr, len, shadow_reg(h, R_RDH),
                shadow_reg(h, R_RDT), shadow_reg(h, R_TDH),
                shadow_reg(h, R_TDT), shadow_reg(h, R_RCTL));
    }
    /*
     * The Rx descriptor cache fetches several descriptors in one read:
     * each one is a fetch of its own.
     */
    {
        size_t dsz = (shadow_reg(h, R_RCTL) & 0xc00) == 0x400 ? 32 : 16;
        size_t at;

        if (len > dsz && len % dsz == 0 && in_ring(h, addr, R_RDBAL)) {
            for (at = 0; at < len; at += dsz) {
                note_fetch(h, addr + at, (const uint8_t *)buf + at, dsz);
            }
            return 0;
        }
    }
    note_fetch(h, addr, buf, len);
    return 0;
}

int shadow_dma_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    Harness *h = opaque;

    if (h->compare) {
        harness_out(h, 'w', addr, buf, len);
    }
    if (addr >= BAR0_DMA && addr - BAR0_DMA < BAR0_BYTES) {
        uint32_t v = 0;

        memcpy(&v, buf, len < 4 ? len : 4);
        if (!h->twin) {
            note_fill(h);
        }
        e1000e_pp_write(h->core, (uint32_t)(addr - BAR0_DMA) & ~3u, v);
        return 0;
    }
    if (addr >= GUEST_MEM || len > GUEST_MEM - addr) {
        if (!h->twin) {
            note_fill(h);
        }
        return -1;
    }
    if (h->twin) {
        memcpy(h->mem + addr, buf, len);
        return 0;
    }
    if (h->trace) {
        fprintf(stderr, "dma write 0x%05llx+%zu\n", (unsigned long long)addr,
                len);
    }
    note_write(h, addr, len);
    memcpy(h->mem + addr, buf, len);
    return 0;
}
