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
 *   0 WRITE  reg:u8 [off:u16 when reg >= HOT] val:u32   BAR0 write
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
 * Invariants (any break aborts with a message, which libFuzzer keeps):
 *  - every packet-data DMA write lies inside the buffer of a descriptor
 *    the device fetched and has not yet written back, within the buffer
 *    size RCTL/PSRCTL gave when it was fetched;
 *  - a descriptor is written back only after it was fetched, and not
 *    more often than it was fetched;
 *  - a descriptor is fetched only between head and tail (handed over);
 *  - each offered frame ends in exactly one place (delivered, one
 *    counted drop, or the packet buffer), and the drop counters the
 *    guest sees (MPC, ROC, RUC) and GPRC move with it;
 *  - no statistics register moves backwards until the guest reads it
 *    (or a reset clears them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define GUEST_MEM       (256u << 10)
#define UNITS           (GUEST_MEM / 16)
#define BAR0_DMA        0x100000ull
#define BAR0_BYTES      0x20000u
#define MAX_OPS         4096
#define MAX_FRAMES      256     /* per input: keeps one run short */

/* Register offsets (82574L datasheet §10.2), written out here. */
#define O_CTRL      0x00000
#define O_RCTL      0x00100
#define O_PSRCTL    0x02170
#define O_RDBAL     0x02800
#define O_RDBAH     0x02804
#define O_RDLEN     0x02808
#define O_RDH       0x02810
#define O_RDT       0x02818
#define O_TDBAL     0x03800
#define O_TDBAH     0x03804
#define O_TDLEN     0x03808
#define O_TDH       0x03810
#define O_TDT       0x03818
#define O_STATS     0x04000
#define O_STATS_END 0x04100
#define O_MPC       0x04010
#define O_GPRC      0x04074
#define O_RUC       0x040a4
#define O_ROC       0x040ac

static const uint32_t hot_regs[] = {
    0x00000, 0x00004, 0x00008, 0x00010, 0x00014, 0x00018, 0x00020,
    0x00028, 0x0002c, 0x00030, 0x00038, 0x000c0, 0x000c4, 0x000c8,
    0x000d0, 0x000d8, 0x000dc, 0x000e0, 0x000e4, 0x000e8, 0x000ec,
    0x000f0, 0x000f4, 0x000f8, 0x00100, 0x00170, 0x00178, 0x00400,
    0x00410, 0x00458, 0x00e00, 0x01000, 0x01008, 0x0102c, 0x02160,
    0x02168, 0x02170, 0x02800, 0x02804, 0x02808, 0x02810, 0x02818,
    0x02820, 0x02828, 0x0282c, 0x02c00, 0x03800, 0x03804, 0x03808,
    0x03810, 0x03818, 0x03820, 0x03828, 0x0382c, 0x03840, 0x04010,
    0x04074, 0x040a0, 0x040c0, 0x040c4, 0x05000, 0x05008, 0x05200,
    0x05400, 0x05404, 0x05600, 0x05818, 0x05b00, 0x05b50, 0x0b600,
    0x0b604, 0x0b608, 0x0b60c, 0x0b614, 0x0b620,
};
#define HOT (sizeof(hot_regs) / sizeof(hot_regs[0]))

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

/* What the shadow knows of one 16-byte unit of guest memory. */
typedef struct Unit {
    uint16_t rx_fetches;     /* Rx fetches not yet matched by a write-back */
    uint16_t tx_fetches;
    uint8_t nbufs;           /* buffers an Rx fetch of this unit gave */
    bool listed;             /* in Harness.armed */
    bool rx_posted, tx_posted;   /* handed over by a tail, not yet back */
    uint64_t buf[4];
    uint32_t size[4];
} Unit;

typedef struct Harness {
    E1000EPPCore *core;
    uint8_t *mem;
    Unit *units;
    int64_t now;
    int64_t timers[E1000E_PP_TIMER_COUNT];
    E1000EPPIrqMode mode;
    uint32_t *armed;         /* units with Rx fetches outstanding */
    unsigned narmed;
    uint32_t stats[(O_STATS_END - O_STATS) / 4];
    E1000EPPRxCounters rxstat;
    unsigned queued;
    unsigned frames;         /* offered so far in this run */
} Harness;

static void violation(const char *what, unsigned long long a,
                      unsigned long long b)
{
    fprintf(stderr, "INVARIANT BROKEN: %s (0x%llx, 0x%llx)\n", what, a, b);
    abort();
}

static uint32_t reg(Harness *h, uint32_t off)
{
    /* The register file as the guest would read it, without side effects. */
    return h->core->regs[off / 4];
}

static uint64_t ring_base(Harness *h, uint32_t bal, uint32_t bah)
{
    return ((uint64_t)reg(h, bah) << 32 | reg(h, bal)) & ~15ull;
}

/* Is addr inside a ring as its registers now describe it? */
static bool in_ring(Harness *h, uint64_t addr, uint32_t bal)
{
    uint64_t base = ring_base(h, bal, bal + 4);
    uint32_t n = reg(h, bal + 8) & 0xfff80;

    return addr >= base && addr - base < n;
}

/*
 * The guest hands descriptors over by moving the tail: mark the units
 * from head to tail of a ring at the geometry given, values as the
 * registers hold them (16-byte units in every format).
 */
static void post_ring(Harness *h, bool tx, uint64_t base, uint32_t len,
                      uint32_t head, uint32_t tail)
{
    uint32_t n = (len & 0xfff80) / 16, i;

    head &= 0xffff;
    tail &= 0xffff;
    if (!n || head >= n || tail >= n) {
        return;
    }
    for (i = head; i != tail; i = (i + 1) % n) {
        uint64_t a = base + (uint64_t)i * 16;

        if (a < GUEST_MEM) {
            if (tx) {
                h->units[a / 16].tx_posted = true;
            } else {
                h->units[a / 16].rx_posted = true;
            }
        }
    }
}

/* What the ring registers hand over once `off` holds `val`. */
static void post(Harness *h, uint32_t off, uint32_t val)
{
    uint32_t bal = off >= O_TDBAL && off <= O_TDT ? O_TDBAL : O_RDBAL;
    uint32_t r[5], i;

    if (!(off >= O_RDBAL && off <= O_RDT) &&
        !(off >= O_TDBAL && off <= O_TDT)) {
        off = ~0u;          /* nothing changes: post what the registers say */
    }
    for (i = 0; i < 5; i++) {
        uint32_t o = bal + (i < 3 ? 4 * i : 0x10 + 8 * (i - 3));

        r[i] = o == off ? val : reg(h, o);
    }
    post_ring(h, bal == O_TDBAL, ((uint64_t)r[1] << 32 | r[0]) & ~15ull,
              r[2], r[3], r[4]);
    if (off == ~0u && bal == O_RDBAL) {
        post(h, O_TDBAL, reg(h, O_TDBAL));
    }
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

/* Remember a unit with Rx fetches outstanding (dropping settled ones). */
static void arm(Harness *h, uint32_t unit)
{
    if (h->narmed == UNITS) {
        unsigned i, n = 0;

        for (i = 0; i < UNITS; i++) {
            if (h->units[h->armed[i]].rx_fetches) {
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

static void note_fetch(Harness *h, uint64_t addr, const uint8_t *d,
                       size_t len)
{
    Unit *u;

    if (addr % 16 || (len != 16 && len != 32) || addr >= GUEST_MEM) {
        return;             /* Tx packet data, not a descriptor */
    }
    u = &h->units[addr / 16];
    /* Only Rx reads 32 bytes at once; a read may be both rings' (overlap). */
    if (len == 32 || in_ring(h, addr, O_RDBAL)) {
        uint32_t rctl = reg(h, O_RCTL), ps = reg(h, O_PSRCTL);

        if (!u->rx_fetches++) {
            arm(h, addr / 16);
        }
        if (len == 32) {
            int i;

            /* §7.1.5: four buffers, sizes from PSRCTL.BSIZE0..3. */
            u->nbufs = 4;
            u->size[0] = (ps & 0x7f) * 128;
            for (i = 1; i < 4; i++) {
                u->size[i] = ((ps >> (8 * i)) & 0x3f) * 1024;
            }
            for (i = 0; i < 4; i++) {
                u->buf[i] = le64(d + 8 * i);
            }
            if (addr + 16 < GUEST_MEM) {
                h->units[addr / 16 + 1].rx_fetches++;
            }
        } else {
            u->nbufs = 1;
            u->buf[0] = le64(d);
            u->size[0] = rx_bsize(rctl);
        }
    }
    if (len == 16 && in_ring(h, addr, O_TDBAL)) {
        u->tx_fetches++;
    }
}

/* Does [addr, addr + len) lie inside a buffer of a fetched descriptor? */
static bool in_buffer(Harness *h, uint64_t addr, size_t len)
{
    unsigned i, b;

    for (i = 0; i < h->narmed; i++) {
        Unit *u = &h->units[h->armed[i]];

        if (!u->rx_fetches) {
            continue;
        }
        for (b = 0; b < u->nbufs; b++) {
            if (addr >= u->buf[b] && len <= u->size[b] &&
                addr - u->buf[b] <= u->size[b] - len) {
                return true;
            }
        }
    }
    return false;
}

/* A write that is not a descriptor write-back: Rx packet data. */
static void check_data(Harness *h, uint64_t addr, size_t len)
{
    if (!in_buffer(h, addr, len)) {
        violation("packet data written outside every posted buffer", addr,
                  len);
    }
}

static void note_write(Harness *h, uint64_t addr, size_t len)
{
    Unit *u;

    /*
     * A buffer may lie over descriptors (its own, even): a write inside a
     * fetched buffer counts as data, since data lands before write-back.
     */
    if (addr < GUEST_MEM && addr % 16 == 0 && (len == 16 || len == 32) &&
        h->units[addr / 16].rx_fetches && !in_buffer(h, addr, len)) {
        /* An Rx write-back: one per fetch, of a descriptor handed over. */
        u = &h->units[addr / 16];
        if (!u->rx_posted) {
            violation("Rx descriptor written back before it was handed over",
                      addr, len);
        }
        u->rx_posted = false;
        u->rx_fetches--;
        if (len == 32) {
            if (!h->units[addr / 16 + 1].rx_fetches) {
                violation("Rx write-back past its fetch", addr, len);
            }
            h->units[addr / 16 + 1].rx_fetches--;
            h->units[addr / 16 + 1].rx_posted = false;
        }
        return;
    }
    if (addr < GUEST_MEM && addr % 16 == 12 && len == 1 &&
        h->units[addr / 16].tx_fetches) {
        u = &h->units[addr / 16];
        if (!u->tx_posted) {
            violation("Tx descriptor written back before it was handed over",
                      addr, len);
        }
        u->tx_posted = false;
        u->tx_fetches--;            /* Tx status write-back */
        return;
    }
    if (addr % 16 == 12 && len == 1) {
        violation("Tx status written back without a fetch", addr, len);
    }
    check_data(h, addr, len);
}

static int h_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Harness *h = opaque;

    if (addr >= BAR0_DMA && addr - BAR0_DMA < BAR0_BYTES) {
        /* Must be refused by the core (a nested access). */
        uint32_t v = e1000e_pp_read(h->core, (uint32_t)(addr - BAR0_DMA) & ~3u);
        size_t i;

        for (i = 0; i < len; i++) {
            ((uint8_t *)buf)[i] = (uint8_t)(v >> (8 * (i % 4)));
        }
        return 0;
    }
    if (addr >= GUEST_MEM || len > GUEST_MEM - addr) {
        return -1;
    }
    memcpy(buf, h->mem + addr, len);
    note_fetch(h, addr, buf, len);
    return 0;
}

static int h_dma_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    Harness *h = opaque;

    if (addr >= BAR0_DMA && addr - BAR0_DMA < BAR0_BYTES) {
        uint32_t v = 0;

        memcpy(&v, buf, len < 4 ? len : 4);
        e1000e_pp_write(h->core, (uint32_t)(addr - BAR0_DMA) & ~3u, v);
        return 0;
    }
    if (addr >= GUEST_MEM || len > GUEST_MEM - addr) {
        return -1;
    }
    note_write(h, addr, len);
    memcpy(h->mem + addr, buf, len);
    return 0;
}

static E1000EPPIrqMode h_irq_mode(void *opaque)
{
    return ((Harness *)opaque)->mode;
}

static void h_set_intx(void *opaque, int level)
{
}

static void h_notify(void *opaque, unsigned vector)
{
    if (vector >= E1000E_PP_MSIX_VECTORS) {
        violation("MSI-X vector out of range", vector, 0);
    }
}

static void h_send(void *opaque, const uint8_t *frame, size_t len)
{
    if (len > E1000E_PP_TX_BUF_BYTES) {
        violation("frame longer than the Tx buffer", len, 0);
    }
}

static void h_rx_ready(void *opaque)
{
}

static int64_t h_now(void *opaque)
{
    return ((Harness *)opaque)->now;
}

static void h_arm(void *opaque, E1000EPPTimer t, int64_t expire)
{
    ((Harness *)opaque)->timers[t] = expire;
}

static void h_cancel(void *opaque, E1000EPPTimer t)
{
    ((Harness *)opaque)->timers[t] = -1;
}

static void h_log(void *opaque, E1000EPPLog kind, const char *msg)
{
    if (getenv("FUZZ_VERBOSE")) {
        fprintf(stderr, "log %d: %s\n", kind, msg);
    }
}

static const E1000EPPPlatform platform = {
    .dma_read = h_dma_read,
    .dma_write = h_dma_write,
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
            violation("timers keep firing without time passing", next, 0);
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

    return r < HOT ? hot_regs[r] : (get16(in) * 4) % BAR0_BYTES;
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

static uint64_t bucket_sum(const E1000EPPRxCounters *s, unsigned queued)
{
    return s->delivered + s->missed + s->filtered + s->oversize +
           s->undersize + s->not_ready + s->dma_error + s->flushed + queued;
}

/* One frame offered; it must end in exactly one place. */
static void offer(Harness *h, const uint8_t *f, size_t len)
{
    E1000EPPCore *c = h->core;
    E1000EPPRxCounters before = c->rxstat;
    unsigned q = c->pktbuf.count;
    bool took;

    if (h->frames++ >= MAX_FRAMES) {
        return;
    }
    took = e1000e_pp_receive(c, f, len);
    uint64_t offered = c->rxstat.offered - before.offered;

    /* More than one only when looped-back frames joined it. */
    if (took ? offered < 1 : offered != 0) {
        violation("a frame offered once was counted otherwise", offered,
                  took);
    }
    if (bucket_sum(&c->rxstat, c->pktbuf.count) - bucket_sum(&before, q) !=
        offered) {
        violation("a frame did not end in exactly one place", len, offered);
    }
}

/* Frames refused before the MAC took them in (GPRC does not count them). */
static uint64_t refused(const E1000EPPRxCounters *s)
{
    return s->missed + s->filtered + s->oversize + s->undersize +
           s->not_ready;
}

static void snapshot_stats(Harness *h)
{
    memcpy(h->stats, &h->core->regs[O_STATS / 4], sizeof(h->stats));
    h->rxstat = h->core->rxstat;
    h->queued = h->core->pktbuf.count;
}

static uint32_t stat_delta(Harness *h, uint32_t off)
{
    return h->core->regs[off / 4] - h->stats[(off - O_STATS) / 4];
}

/*
 * Statistics only grow, unless the guest read them or a reset ran; and
 * the counters the guest sees move with the frames' fates: MPC with the
 * missed, ROC/RUC with the length drops, GPRC with every frame taken in.
 */
static void check_stats(Harness *h)
{
    E1000EPPRxCounters *now = &h->core->rxstat, *was = &h->rxstat;
    bool saturated = false;
    unsigned i;

    for (i = 0; i < sizeof(h->stats) / 4; i++) {
        if (h->core->regs[O_STATS / 4 + i] < h->stats[i]) {
            violation("a statistics register moved backwards",
                      O_STATS + 4 * i, h->stats[i]);
        }
        saturated |= h->stats[i] == 0xffffffffu;
    }
    if (saturated) {
        return;             /* the deltas below mean nothing then */
    }
    if (bucket_sum(now, h->core->pktbuf.count) - bucket_sum(was, h->queued) !=
        now->offered - was->offered) {
        violation("frames offered and their fates disagree", now->offered,
                  bucket_sum(now, h->core->pktbuf.count));
    }
    if (stat_delta(h, O_MPC) != now->missed - was->missed) {
        violation("MPC and the missed frames disagree",
                  stat_delta(h, O_MPC), now->missed - was->missed);
    }
    if (stat_delta(h, O_ROC) != now->oversize - was->oversize ||
        stat_delta(h, O_RUC) != now->undersize - was->undersize) {
        violation("ROC/RUC and the length drops disagree",
                  stat_delta(h, O_ROC), stat_delta(h, O_RUC));
    }
    if (stat_delta(h, O_GPRC) != (now->offered - refused(now)) -
                                 (was->offered - refused(was))) {
        violation("GPRC and the frames taken in disagree",
                  stat_delta(h, O_GPRC), now->offered - was->offered);
    }
}

static bool resets(uint32_t off, uint32_t val)
{
    /* CTRL.RST (26) and CTRL.DEV_RST (29), or writes to the counters. */
    return ((off == O_CTRL || off == 4) && (val & (1u << 26 | 1u << 29))) ||
           (off >= O_STATS && off < O_STATS_END);
}

static void run(Harness *h, Input *in)
{
    static uint8_t frame[E1000E_PP_MAX_FRAME + 64];
    E1000EPPCore *c = h->core;
    unsigned ops;

    for (ops = 0; ops < MAX_OPS && in->left; ops++) {
        unsigned op = get8(in) % 14, i;
        bool may_clear = false;
        uint32_t off, val, len;
        uint64_t addr;

        switch (op) {
        case 0:
            off = pick_reg(in);
            val = get32(in);
            may_clear = resets(off, val);
            post(h, off, val);
            e1000e_pp_write(c, off, val);
            break;
        case 1:
            e1000e_pp_read(c, pick_reg(in));
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
            off = (reg(h, bal) & ~15u) + slot * 16 * (kind & 4 ? 2 : 1) +
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
            offer(h, frame, len);
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
            e1000e_pp_power_set(c, get8(in) & 3);
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
                    post(h, c->ioaddr & 0x1fffc, val);  /* IODATA */
                }
                e1000e_pp_io_write(c, off, val);
            } else {
                e1000e_pp_io_read(c, get8(in) & 4);
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
            post(h, off, val);
            e1000e_pp_write(c, off, val);
            break;
        default: {
            unsigned n = get8(in) % 32, dst;

            len = get16(in) % sizeof(frame);
            dst = get8(in);
            for (i = 0; i < n; i++) {
                make_frame(h, frame, len, dst, i);
                offer(h, frame, len);
            }
            break;
        }
        }
        if (!may_clear) {
            check_stats(h);
        }
        post(h, ~0u, 0);
        snapshot_stats(h);
        if (c->depth != 0) {
            violation("an entry point returned inside another", c->depth, op);
        }
    }
}

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
    Harness h = { .mode = E1000E_PP_IRQ_INTX };
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
    snapshot_stats(&h);
    run(&h, &in);
    return 0;
}
