/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The architectural state across a migration: what is put in canonical
 * form before it is saved, what a loaded state must satisfy before the
 * engines may run on it, and the timers it brings with it.
 *
 * A migration stream is as hostile as the guest: every value that
 * indexes, bounds or sizes something the engines trust without checking
 * again (FIFO heads and counts, lengths, the PHY page, the power state)
 * is checked here, and a failure names the field. Registers are not
 * checked one by one: the engines already treat every register value
 * the guest can write, and re-mask RDLEN, BSIZE, IVAR and the thresholds
 * where they use them; the ring pointers are checked where cached state
 * depends on them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "pktbuf.h"
#include "rxdesc.h"
#include "tx.h"
#include "work.h"

/* Reverse n bytes in place; three of these rotate a buffer. */
static void reverse(uint8_t *p, size_t n)
{
    size_t i;

    for (i = 0; i < n / 2; i++) {
        uint8_t t = p[i];

        p[i] = p[n - 1 - i];
        p[n - 1 - i] = t;
    }
}

/* Rotate p[0..n) left by k bytes, without a second buffer. */
static void rotate(uint8_t *p, size_t n, size_t k)
{
    if (!k || k >= n) {
        return;
    }
    reverse(p, k);
    reverse(p + k, n - k);
    reverse(p, n);
}

/* Bytes the queued frames occupy, oldest first from q[head].start. */
static uint32_t pktbuf_occupied(const E1000EPPPktBuf *pb)
{
    uint32_t sum = 0;
    unsigned i;

    for (i = 0; i < pb->count && i < E1000E_PP_PKTBUF_FRAMES; i++) {
        sum += pb->q[(pb->head + i) % E1000E_PP_PKTBUF_FRAMES].len;
    }
    return sum;
}

/*
 * The oldest frame moves to q[0] and its bytes to offset 0; where a frame
 * lies in the buffer is invisible to the guest, so the running device is
 * not changed by this. What no frame occupies is zeroed.
 */
static void pktbuf_canonical(E1000EPPPktBuf *pb)
{
    uint32_t occ = pktbuf_occupied(pb), s0;
    unsigned i;

    if (pb->count) {
        s0 = pb->q[pb->head].start;
        rotate(pb->bytes, sizeof(pb->bytes), s0);
        rotate((uint8_t *)pb->q, sizeof(pb->q), pb->head * sizeof(pb->q[0]));
        pb->head = 0;
        for (i = 0; i < pb->count; i++) {
            pb->q[i].start = (pb->q[i].start + E1000E_PP_PKTBUF_BYTES - s0) %
                             E1000E_PP_PKTBUF_BYTES;
        }
        pb->write = occ % E1000E_PP_PKTBUF_BYTES;
    }
    if (occ < sizeof(pb->bytes)) {
        memset(pb->bytes + occ, 0, sizeof(pb->bytes) - occ);
    }
    memset(pb->q + pb->count, 0,
           (E1000E_PP_PKTBUF_FRAMES - pb->count) * sizeof(pb->q[0]));
}

static uint32_t txbuf_used(const E1000EPPArch *a)
{
    return a->txpkt.started && a->txpkt.len <= TX_ROOM ?
           (uint32_t)(TX_HEADROOM + a->txpkt.len) : 0;
}

void e1000e_pp_state_presave(E1000EPPCore *c)
{
    E1000EPPArch *a = &c->arch;
    uint32_t tx = txbuf_used(a);

    pktbuf_canonical(&a->pktbuf);
    memset(a->txbuf + tx, 0, sizeof(a->txbuf) - tx);
    memset(a->rxwb.desc[a->rxwb.count], 0,
           (E1000E_PP_WB_MAX - a->rxwb.count) * sizeof(a->rxwb.desc[0]));
    memset(a->txwb.desc[a->txwb.count], 0,
           (E1000E_PP_WB_MAX - a->txwb.count) * sizeof(a->txwb.desc[0]));
    /* A cache of RCTL's buffer size: computed again after the load. */
    a->rx_bsize_rctl = 0;
    a->rx_bsize = 0;
    c->saved.pktbuf_frames = a->pktbuf.count;
    c->saved.pktbuf_bytes = pktbuf_occupied(&a->pktbuf);
    c->saved.txbuf_bytes = tx;
    c->saved.txpkt_len = tx ? (uint32_t)a->txpkt.len : 0;
}

static int refuse(char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;

    if (size) {
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

#define CHECK(cond, ...) do { \
        if (!(cond)) { \
            return refuse(err, size, __VA_ARGS__); \
        } \
    } while (0)

bool e1000e_pp_state_sizes_ok(const E1000EPPCore *c)
{
    return c->saved.pktbuf_frames <= E1000E_PP_PKTBUF_FRAMES &&
           c->saved.pktbuf_bytes <= E1000E_PP_PKTBUF_BYTES &&
           c->saved.txbuf_bytes <= E1000E_PP_TX_BUF_BYTES;
}

static int check_pktbuf(E1000EPPCore *c, char *err, size_t size)
{
    const E1000EPPPktBuf *pb = &c->arch.pktbuf;
    uint32_t pos = 0, used = 0;
    unsigned i;

    CHECK(pb->count == c->saved.pktbuf_frames &&
          pb->count <= E1000E_PP_PKTBUF_FRAMES,
          "pktbuf.count: %u frames, the stream carries %u (at most %u)",
          pb->count, c->saved.pktbuf_frames, E1000E_PP_PKTBUF_FRAMES);
    CHECK(pb->head == 0, "pktbuf.head: %u, a saved buffer starts at 0",
          pb->head);
    for (i = 0; i < pb->count; i++) {
        const E1000EPPRxQueued *q = &pb->q[i];

        CHECK(q->start == pos, "pktbuf.q[%u].start: %u, the frame before "
              "ends at %u", i, q->start, pos);
        CHECK(q->len && q->len <= E1000E_PP_PKTBUF_BYTES - pos,
              "pktbuf.q[%u].len: %u bytes at %u overrun the %u-byte buffer",
              i, q->len, pos, E1000E_PP_PKTBUF_BYTES);
        CHECK(q->done <= q->len, "pktbuf.q[%u].done: %u of %u bytes", i,
              q->done, q->len);
        /* Only the oldest frame can be part-way into the ring. */
        CHECK(!i || !q->done, "pktbuf.q[%u].done: %u, but the frame is not "
              "the oldest", i, q->done);
        CHECK(q->charge >= e1000e_pp_pktbuf_charge(0) &&
              q->charge <= E1000E_PP_PKTBUF_BYTES,
              "pktbuf.q[%u].charge: %u", i, q->charge);
        pos += q->len;
        used += q->charge;
    }
    CHECK(pos == c->saved.pktbuf_bytes,
          "pktbuf occupied bytes: the frames hold %u, the stream carries %u",
          pos, c->saved.pktbuf_bytes);
    CHECK(pb->write == pos % E1000E_PP_PKTBUF_BYTES,
          "pktbuf.write: %u, the frames end at %u", pb->write, pos);
    CHECK(pb->used == used && used <= PBA_TOTAL_KB * 1024u,
          "pktbuf.used: %u, the frames are charged %u (at most %u)",
          pb->used, used, PBA_TOTAL_KB * 1024u);
    return 0;
}

static int check_rx(E1000EPPCore *c, char *err, size_t size)
{
    const E1000EPPRxCache *rc = &c->arch.rxcache;
    const E1000EPPRxWriteback *wb = &c->arch.rxwb;
    uint32_t units = e1000e_pp_rx_ring_units(c);
    unsigned dsz = 16 * e1000e_pp_rx_desc_units(e1000e_pp_rx_format(c));
    unsigned i;

    CHECK(REG(c, RDH) <= 0xffff && REG(c, RDT) <= 0xffff,
          "RDH/RDT: 0x%x/0x%x wider than the 16-bit registers",
          REG(c, RDH), REG(c, RDT));
    CHECK(rc->head < E1000E_PP_RX_CACHE && rc->count <= E1000E_PP_RX_CACHE,
          "rxcache.head/count: %u/%u in a %u-entry cache", rc->head,
          rc->count, E1000E_PP_RX_CACHE);
    /* Descriptors are cached only from a ring they belong to (§7.1.6). */
    CHECK(!rc->count || (REG(c, RDH) < units && rc->dsz == dsz),
          "rxcache.count: %u descriptors of %u bytes cached, RDH %u in a "
          "%u-unit ring of %u-byte descriptors", rc->count, rc->dsz,
          REG(c, RDH), units, dsz);
    CHECK(wb->count <= E1000E_PP_WB_MAX, "rxwb.count: %u held (at most %u)",
          wb->count, E1000E_PP_WB_MAX);
    for (i = 0; i < wb->count; i++) {
        CHECK(wb->size[i] == 16 || wb->size[i] == 32,
              "rxwb.size[%u]: %u bytes", i, wb->size[i]);
    }
    return check_pktbuf(c, err, size);
}

static int check_tx(E1000EPPCore *c, char *err, size_t size)
{
    const E1000EPPTxPacket *p = &c->arch.txpkt;
    const E1000EPPTxContext *x = &p->ctx;
    const E1000EPPTxWriteback *wb = &c->arch.txwb;
    unsigned i;

    CHECK(REG(c, TDH) <= 0xffff && REG(c, TDT) <= 0xffff,
          "TDH/TDT: 0x%x/0x%x wider than the 16-bit registers",
          REG(c, TDH), REG(c, TDT));
    CHECK(wb->count <= E1000E_PP_WB_MAX, "txwb.count: %u held (at most %u)",
          wb->count, E1000E_PP_WB_MAX);
    for (i = 0; i < wb->count; i++) {
        CHECK(wb->size[i] >= 1 && wb->size[i] <= 16,
              "txwb.size[%u]: %u bytes", i, wb->size[i]);
    }
    CHECK(!p->len || p->started, "txpkt.len: %zu bytes of no packet",
          p->len);
    CHECK(c->saved.txbuf_bytes == (p->started ? TX_HEADROOM + p->len : 0),
          "txbuf bytes: the stream carries %u, the packet holds %zu",
          c->saved.txbuf_bytes, p->len);
    if (!p->tse) {
        CHECK(p->len <= TX_MAX_PLAIN, "txpkt.len: %zu bytes (at most %u)",
              p->len, TX_MAX_PLAIN);
        return 0;
    }
    /* The TSO context was checked when the packet began (tx.c). */
    CHECK(x->mss > 16 && x->hdrlen && x->hdrlen <= 240 &&
          x->tucss < x->hdrlen && x->ipcss < x->hdrlen &&
          (size_t)x->hdrlen + x->mss <= TX_ROOM,
          "txpkt.ctx: HDRLEN %u MSS %u TUCSS %u IPCSS %u is no TSO context",
          x->hdrlen, x->mss, x->tucss, x->ipcss);
    CHECK(p->len <= (size_t)x->hdrlen + x->mss,
          "txpkt.len: %zu bytes, a segment holds %u", p->len,
          x->hdrlen + x->mss);
    return 0;
}

/* Windows and delays that end only when their timer fires. */
static int check_timers(E1000EPPCore *c, char *err, size_t size)
{
    const E1000EPPArch *a = &c->arch;
    const int64_t *dl = a->timer_deadline;
    unsigned i;

    for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
        CHECK(dl[i] >= E1000E_PP_TIMER_OFF, "timer_deadline[%u]: %lld", i,
              (long long)dl[i]);
    }
    CHECK(!a->resetting || dl[E1000E_PP_TIMER_RESET] != E1000E_PP_TIMER_OFF,
          "resetting: CTRL.RST in progress without its timer");
    for (i = 0; i < 4; i++) {
        CHECK(!a->delay_armed[i] ||
              dl[E1000E_PP_TIMER_RDTR + i] != E1000E_PP_TIMER_OFF,
              "delay_armed[%u]: a delay timer running without a deadline", i);
    }
    return 0;
}

int e1000e_pp_state_validate(E1000EPPCore *c, char *err, size_t size)
{
    const E1000EPPArch *a = &c->arch;

    if (size) {
        err[0] = 0;
    }
    /* The stream carries the Tx packet's length in c->saved. */
    c->arch.txpkt.len = c->saved.txpkt_len;
    CHECK(e1000e_pp_state_sizes_ok(c), "buffer sizes: %u frames, %u bytes "
          "in the packet buffer, %u in the Tx buffer",
          c->saved.pktbuf_frames, c->saved.pktbuf_bytes,
          c->saved.txbuf_bytes);
    /* Engine work left over past a step's budget waits for TIMER_KICK. */
    CHECK(!(c->work & ~WORK_ENGINES), "work: 0x%x is not engine work",
          c->work);
    CHECK(a->power == E1000E_PP_D0 || a->power == E1000E_PP_D3HOT,
          "power: D%u is not a state the function implements", a->power);
    CHECK(a->phy_page < E1000E_PP_PHY_PAGES, "phy_page: %u of %u pages",
          a->phy_page, E1000E_PP_PHY_PAGES);
    if (check_rx(c, err, size) || check_tx(c, err, size) ||
        check_timers(c, err, size)) {
        return -1;
    }
    return 0;
}

int e1000e_pp_state_postload(E1000EPPCore *c, char *err, size_t size)
{
    int t;

    if (e1000e_pp_state_validate(c, err, size)) {
        return -1;
    }
    c->arch.rx_bsize_rctl = 0;
    c->irq_raise = c->irq_fire = 0;
    c->irq_dirty = false;
    for (t = 0; t < E1000E_PP_TIMER_COUNT; t++) {
        int64_t when = c->arch.timer_deadline[t];

        if (when == E1000E_PP_TIMER_OFF) {
            c->plat->timer_cancel(c->opaque, t);
        } else {
            c->plat->timer_arm(c->opaque, t, when);
        }
    }
    return 0;
}
