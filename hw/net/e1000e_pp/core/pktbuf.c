/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The on-chip receive packet buffer (40 KB on chip, the receive share
 * sized by PBA.RXA) and the flow control it drives (802.3 Annex 31B PAUSE
 * frames, with CTRL.TFCE).
 *
 * A frame that passed the filters waits here while the ring has no
 * descriptors for it; the buffer then overflows into MPC/RXO. Each
 * frame is charged its wire length rounded up to 16 bytes plus a
 * 16-byte status entry (docs/fidelity.md: the datasheet gives no
 * per-frame overhead, this is the model's choice).
 */
#include <string.h>

#include "common.h"
#include "pktbuf.h"
#include "rxframe.h"
#include "stats.h"
#include "coverage.h"

/* Flow control frame (802.3 Annex 31B). */
#define PAUSE_LEN           60

static void send_pause(E1000EPPCore *c, uint16_t quanta)
{
    static const uint8_t dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };
    uint8_t f[PAUSE_LEN] = { 0 };

    memcpy(f, dst, 6);
    put_le32(f + 6, REG(c, RAL(0)));
    put_le16(f + 10, (uint16_t)REG(c, RAH(0)));
    put_be16(f + 12, 0x8808);       /* MAC control */
    put_be16(f + 14, 0x0001);       /* PAUSE */
    put_be16(f + 16, quanta);
    e1000e_pp_stat_inc(c, quanta ? XOFFTXC : XONTXC);
    c->obs.pause_sent++;
    c->plat->send(c->opaque, f, sizeof(f));
}

/*
 * With CTRL.TFCE, XOFF (pause time FCTTV) once the buffer fills
 * past FCRTH, XON when it drains below FCRTL if FCRTL.XONE is set.
 */
static void flow_control(E1000EPPCore *c)
{
    E1000EPPPktBuf *pb = &c->arch.pktbuf;
    uint32_t high = REG(c, FCRTH) & 0xfff8, low = REG(c, FCRTL) & 0xfff8;

    if (!(REG(c, CTRL) & CTRL_TFCE) || !high) {
        pb->xoff_sent = false;
        return;
    }
    if (!pb->xoff_sent && pb->used >= high) {
        pb->xoff_sent = true;
        e1000e_pp_cover(c, SIT_XOFF_SENT);
        send_pause(c, (uint16_t)REG(c, FCTTV));
    } else if (pb->xoff_sent && pb->used < low) {
        pb->xoff_sent = false;
        if (REG(c, FCRTL) & FCRTL_XONE) {
            send_pause(c, 0);
        }
    }
}

/*
 * A frame into the buffer; "done" bytes of it already went to host
 * buffers (the ring ran dry part-way): the rest moves from there.
 */
void e1000e_pp_pktbuf_push(E1000EPPCore *c, const RxFrame *fr,
                           size_t wire_len, uint32_t done)
{
    E1000EPPPktBuf *pb = &c->arch.pktbuf;
    E1000EPPRxQueued *q = &pb->q[(pb->head + pb->count) %
                                 E1000E_PP_PKTBUF_FRAMES];
    uint32_t w = pb->write;
    unsigned s;

    q->start = w;
    q->len = (uint32_t)fr->len;
    q->done = done;
    q->charge = e1000e_pp_pktbuf_charge(wire_len);
    q->info = fr->info;
    for (s = 0; s < fr->nseg; s++) {
        size_t n = fr->seglen[s], first;

        first = E1000E_PP_PKTBUF_BYTES - w < n ? E1000E_PP_PKTBUF_BYTES - w : n;
        memcpy(pb->bytes + w, fr->seg[s], first);
        memcpy(pb->bytes, fr->seg[s] + first, n - first);
        w = (uint32_t)((w + n) % E1000E_PP_PKTBUF_BYTES);
    }
    pb->write = w;
    pb->used += q->charge;
    pb->count++;
    flow_control(c);
}

/*
 * The oldest frame as a two-piece RxFrame (its bytes may wrap), and
 * where its progress into host buffers is kept.
 */
bool e1000e_pp_pktbuf_peek(E1000EPPCore *c, RxFrame *fr, uint32_t **done)
{
    E1000EPPPktBuf *pb = &c->arch.pktbuf;
    E1000EPPRxQueued *q;
    uint32_t first;

    if (!pb->count) {
        return false;
    }
    q = &pb->q[pb->head];
    memset(fr, 0, sizeof(*fr));
    first = E1000E_PP_PKTBUF_BYTES - q->start < q->len ?
            E1000E_PP_PKTBUF_BYTES - q->start : q->len;
    rxframe_add(fr, pb->bytes + q->start, first);
    rxframe_add(fr, pb->bytes, q->len - first);
    fr->info = q->info;
    *done = &q->done;
    return true;
}

void e1000e_pp_pktbuf_pop(E1000EPPCore *c)
{
    E1000EPPPktBuf *pb = &c->arch.pktbuf;

    pb->used -= pb->q[pb->head].charge;
    pb->head = (pb->head + 1) % E1000E_PP_PKTBUF_FRAMES;
    pb->count--;
    if (!pb->count) {
        pb->write = 0;
        pb->head = 0;
    }
    flow_control(c);
}

void e1000e_pp_pktbuf_reset(E1000EPPCore *c)
{
    E1000EPPPktBuf *pb = &c->arch.pktbuf;

    /* A reset empties the packet buffer; account for what was lost. */
    c->obs.rxstat.flushed += pb->count;
    pb->head = pb->count = 0;
    pb->write = pb->used = 0;
    pb->xoff_sent = false;
}
