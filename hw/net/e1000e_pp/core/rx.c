/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive (82574L §7.1): what happens to a frame from the wire (or from
 * a loopback) between the MAC and the descriptor ring — length rules,
 * filters, VLAN strip and FCS, then straight to the ring or into the
 * packet buffer, or dropped with the counter that says why.
 *
 * Invariant, kept by every path below and checked by the tests:
 * offered = delivered + missed + filtered + oversize + undersize +
 *           not_ready + dma_error + flushed + errored +
 *           (frames waiting in the packet buffer)
 */
#include <string.h>

#include "compiler.h"
#include "common.h"
#include "coverage.h"
#include "errinj.h"
#include "eth.h"
#include "intr.h"
#include "log.h"
#include "moderation.h"
#include "pause.h"
#include "phy.h"
#include "pktbuf.h"
#include "rx.h"
#include "rxcache.h"
#include "rxdesc.h"
#include "rxframe.h"
#include "rxparse.h"
#include "rxring.h"
#include "stats.h"
#include "timesync.h"
#include "wake.h"
#include "work.h"

static const uint8_t zero_pad[ETH_ZLEN];

bool e1000e_pp_loopback(E1000EPPCore *c)
{
    /* RCTL.LBM = 01: MAC loopback (§10.2.5.1); or the PHY's own. */
    return ((REG(c, RCTL) & RCTL_LBM_MASK) >> RCTL_LBM_SHIFT) == 1 ||
           e1000e_pp_phy_loopback(c);
}

/* The MAC takes frames into the packet buffer (not while in reset)... */
static bool rx_mac_ready(E1000EPPCore *c)
{
    uint32_t rctl = REG(c, RCTL);

    /* The PHY's loopback already counts as link up (phy.c). */
    return (rctl & RCTL_EN) && !c->arch.resetting &&
           (e1000e_pp_link_up(c) ||
            ((rctl & RCTL_LBM_MASK) >> RCTL_LBM_SHIFT) == 1);
}

/*
 * ...and the DMA engine moves them on while it may master the bus; with
 * CTRL.GIO_MASTER_DISABLE it starts nothing new and frames wait.
 */
static bool rx_dma_allowed(E1000EPPCore *c)
{
    return c->arch.bus_master && c->arch.power == E1000E_PP_D0 &&
           !(REG(c, CTRL) & CTRL_GIO_MASTER_DISABLE);
}

static bool rx_dma_ready(E1000EPPCore *c)
{
    return rx_mac_ready(c) && rx_dma_allowed(c);
}

bool e1000e_pp_can_receive(E1000EPPCore *c)
{
    /* A sleeping function takes (and drops) what the wire brings. */
    if (!c->cfg.rx_backpressure || c->arch.power != E1000E_PP_D0) {
        /* Like the wire: frames keep coming and are counted or dropped. */
        return true;
    }
    /*
     * Back-pressure: offer a frame while nothing waits (it goes to the
     * ring, or is handed back if neither ring nor buffer can take it) or
     * while even the longest frame would fit behind those that wait.
     */
    return !rx_mac_ready(c) || e1000e_pp_pktbuf_empty(c) ||
           e1000e_pp_pktbuf_room(c, E1000E_PP_MAX_FRAME);
}

static void rx_trace(E1000EPPCore *c, size_t len, unsigned n,
                     const char *verdict)
{
    if (c->plat->trace_rx) {
        c->plat->trace_rx(c->opaque, len, REG(c, RDH), n, verdict);
    }
}

/*
 * After a frame moved as far as the ring allowed. Its EOP written, it
 * is delivered: RDTR/RADV run (§7.1.9 "every time a new packet is
 * received and transferred to the host memory") and the cache may
 * prefetch. Ring dry part-way: descriptors WTHRESH still holds are
 * bounded by the same timers, whose expiry writes them back.
 */
static void rx_moved(E1000EPPCore *c, bool complete)
{
    e1000e_pp_cover_moved(c, complete);
    if (complete) {
        c->obs.rxstat.delivered++;
        e1000e_pp_rx_delay_start(c);
        e1000e_pp_rxcache_prefetch(c);
    } else if (c->arch.rxwb.count) {
        e1000e_pp_rx_delay_start(c);
    }
}

/*
 * A frame left part-way, some of it moved this time: under the
 * x-rx-hold-desc knob that is the hold (rxcache.c), listed with RDH.
 */
static void rx_stopped(E1000EPPCore *c)
{
    if (c->cfg.rx_hold_desc) {
        e1000e_pp_event(c, "rx-held", RDH, REG(c, RDH));
    }
}

void e1000e_pp_rx_drain(E1000EPPCore *c)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;
    uint32_t *done;
    unsigned guard;
    RxFrame fr;

    /* A tail write fetches only into an empty cache, or per PTHRESH. */
    if (rc->fetch_pending && rc->count && !(REG(c, RXDCTL) & 0x3f)) {
        rc->fetch_pending = false;
    }
    if ((!rc->fetch_pending && e1000e_pp_pktbuf_empty(c)) ||
        !rx_dma_ready(c)) {
        goto out;
    }
    if (rc->fetch_pending) {
        e1000e_pp_rxcache_fetch_pending(c);
    }
    /* Bounded by the frames the buffer can hold. */
    for (guard = 0; guard < E1000E_PP_PKTBUF_FRAMES; guard++) {
        uint32_t rdh;
        bool complete;

        if (!e1000e_pp_pktbuf_peek(c, &fr, &done)) {
            break;
        }
        e1000e_pp_rxcache_avail(c);     /* a tail moved back takes back */
        rdh = REG(c, RDH);
        complete = e1000e_pp_rx_ring_move(c, &fr, done);
        if (complete || REG(c, RDH) != rdh) {
            rx_moved(c, complete);      /* a dry ring moved nothing */
        }
        if (!complete) {
            if (REG(c, RDH) != rdh) {
                rx_stopped(c);
            }
            rx_trace(c, fr.len, 0, "ring dry part-way, rest waits");
            break;
        }
        e1000e_pp_pktbuf_pop(c);
        rx_trace(c, fr.len, 0, "delivered from packet buffer");
    }
out:
    if (c->cfg.rx_backpressure && e1000e_pp_can_receive(c)) {
        e1000e_pp_schedule(c, WORK_RX_READY);
    }
}

/*
 * The MAC's decision for one frame; false only when back-pressuring. A
 * frame from the wire may go straight to the ring when nothing waits
 * before it; a looped-back one always queues for the Rx engine.
 */
static bool rx_accept(E1000EPPCore *c, const uint8_t *frame, size_t len,
                      bool direct)
{
    uint32_t rctl = REG(c, RCTL);
    size_t wire_len, max, strip = 0;
    uint8_t fcs[ETH_FCS_LEN];
    bool inj = c->errinj.active != E1000E_PP_RXERR_NONE;
    bool tagged, fits, bad;
    unsigned needed, avail;
    uint32_t done = 0;
    /*
     * The segment arrays are filled as used (rxframe_add): kept out of
     * the automatic zeroing QEMU builds with, on every frame.
     */
    E1000E_PP_NOINIT RxFrame fr;

    fr.nseg = 0;
    fr.len = 0;
    memset(&fr.info, 0, sizeof(fr.info));
    if (!rx_mac_ready(c)) {
        c->obs.rxstat.not_ready++;
        rx_trace(c, len, 0, "receiver not ready");
        return true;
    }
    if (len < ETH_HLEN) {
        c->obs.rxstat.undersize++;
        e1000e_pp_stat_inc(c, RUC);
        rx_trace(c, len, 0, "runt");
        return true;
    }
    /* A transmitting MAC pads to the minimum; netdev peers may not. */
    wire_len = (len < ETH_ZLEN ? ETH_ZLEN : len) + ETH_FCS_LEN;
    tagged = get_be16(frame + 12) == (REG(c, VET) & 0xffff) &&
             len >= ETH_HLEN + VLAN_HLEN;
    max = e1000e_pp_rx_max_frame(c, tagged);
    /* A PAUSE frame acts on the transmitter; with RCTL.DPF it stops here. */
    if ((REG(c, CTRL) & CTRL_RFCE) &&
        e1000e_pp_pause_received(c, frame, len)) {
        e1000e_pp_stats_rx_total(c, wire_len);
        c->obs.rxstat.filtered++;
        rx_trace(c, len, 0, "PAUSE frame, discarded (RCTL.DPF)");
        return true;
    }
    if (!e1000e_pp_rx_address_match(c, frame) ||
        (tagged && !e1000e_pp_rx_vlan_match(c, get_be16(frame + 14)))) {
        e1000e_pp_stats_rx_total(c, wire_len);
        c->obs.rxstat.filtered++;
        rx_trace(c, len, 0, "filtered");
        return true;
    }
    if (c->cfg.rx_backpressure && !e1000e_pp_pktbuf_empty(c) &&
        !e1000e_pp_pktbuf_room(c, wire_len)) {
        /*
         * Not taken: QEMU holds it and offers it again, so nothing may
         * count yet. An empty buffer never holds a frame back: one too
         * big for it is missed below instead of blocking the netdev.
         */
        rx_trace(c, len, 0, "back-pressure");
        return false;
    }
    /* Length and frame errors count after the filters (errinj.c). */
    if (wire_len > max && !e1000e_pp_rx_keep_long(c, wire_len)) {
        e1000e_pp_stats_rx_total(c, wire_len);
        c->obs.rxstat.oversize++;
        rx_trace(c, len, 0, "oversize");
        return true;
    }
    if (inj && e1000e_pp_errinj_drop(c)) {
        e1000e_pp_stats_rx_total(c, wire_len);
        c->obs.rxstat.errored++;
        rx_trace(c, len, 0, "frame error");
        return true;
    }
    /* GPRC/GORC count good frames of a legal length only (§10.2.7). */
    bad = wire_len > max || (inj && e1000e_pp_errinj_bits(c));

    /* VLAN strip (CTRL.VME): the tag goes to the descriptor, VP is set. */
    if (tagged && (REG(c, CTRL) & CTRL_VME)) {
        strip = VLAN_HLEN;
        fr.info.vp = true;
        fr.info.vlan = get_be16(frame + 14);
        fr.info.status |= RXD_STAT_VP;
        rxframe_add(&fr, frame, 2 * ETH_ALEN);
        rxframe_add(&fr, frame + 2 * ETH_ALEN + VLAN_HLEN,
                    len - 2 * ETH_ALEN - VLAN_HLEN);
    } else {
        rxframe_add(&fr, frame, len);
    }
    if (len < ETH_ZLEN) {
        rxframe_add(&fr, zero_pad, ETH_ZLEN - len);
    }
    e1000e_pp_rx_parse(c, frame, len, strip, &fr.info);
    e1000e_pp_cover_rx_info(c, &fr.info);
    if (inj) {
        fr.info.errors |= e1000e_pp_errinj_bits(c);
    }
    if (REG(c, TSYNCRXCTL) & TSYNCRXCTL_EN) {
        e1000e_pp_timesync_rx(c, frame, len, &fr.info);
    }
    if (!(rctl & RCTL_SECRC)) {
        /* The frame's own CRC-32, as on the wire: LSB first */
        uint32_t crc = e1000e_pp_crc32_update(E1000E_PP_CRC_INIT, frame,
                                              len);
        if (len < ETH_ZLEN) {
            crc = e1000e_pp_crc32_update(crc, zero_pad, ETH_ZLEN - len);
        }
        put_le32(fcs, inj ? ~crc ^ e1000e_pp_errinj_fcs(c) : ~crc);
        rxframe_add(&fr, fcs, ETH_FCS_LEN);
    }

    needed = e1000e_pp_rx_descriptors_needed(c, &fr);
    avail = e1000e_pp_rxcache_avail(c);
    fits = avail >= needed;
    e1000e_pp_stats_rx_total(c, wire_len);
    if (!avail) {
        /* RNBC: a frame arrived while RDH == RDT (§10.2.7). */
        e1000e_pp_stat_inc(c, RNBC);
        e1000e_pp_cover(c, SIT_RNBC);
    } else if (fits && direct && e1000e_pp_pktbuf_empty(c) &&
               rx_dma_allowed(c) && e1000e_pp_pktbuf_room(c, wire_len)) {
        /*
         * The frame goes from the wire straight to host buffers (it
         * passes through the packet buffer on the chip, so it must fit
         * there; the model skips that copy); only what a null descriptor
         * left over stays.
         */
        bool complete;

        if (!bad) {
            e1000e_pp_stats_rx_good(c, frame, wire_len);
        }
        complete = e1000e_pp_rx_ring_move(c, &fr, &done);
        rx_moved(c, complete);
        rx_trace(c, len, needed, complete ? "delivered" : "part moved");
        if (complete) {
            return true;
        }
        if (done) {
            rx_stopped(c);
        }
        e1000e_pp_pktbuf_push(c, &fr, wire_len, done);
        return true;
    }
    if (e1000e_pp_pktbuf_room(c, wire_len)) {
        /* Counted as received once it is in the packet buffer. */
        if (!bad) {
            e1000e_pp_stats_rx_good(c, frame, wire_len);
        }
        e1000e_pp_pktbuf_push(c, &fr, wire_len, 0);
        rx_trace(c, len, 0, "held in packet buffer");
        e1000e_pp_schedule(c, WORK_RX);
        return true;
    }
    /* The packet buffer overflowed: MPC and ICR.RXO */
    c->obs.rxstat.missed++;
    e1000e_pp_cover(c, SIT_MPC);
    e1000e_pp_stat_inc(c, MPC);
    e1000e_pp_stat_inc(c, ICRXOC);
    e1000e_pp_raise(c, ICR_RXO);
    rx_trace(c, len, 0, "missed: packet buffer full");
    return true;
}

/* A frame from the line; false if back-pressure leaves it upstream. */
bool e1000e_pp_rx_wire(E1000EPPCore *c, const uint8_t *frame, size_t len)
{
    bool taken;

    c->obs.rxstat.offered++;
    if (c->arch.power != E1000E_PP_D0) {
        /* Asleep: only a wake filter listens; nothing is stored. */
        if (e1000e_pp_wake_event(c, e1000e_pp_wake_frame(c, frame, len))) {
            c->obs.rxstat.wake++;
        } else {
            c->obs.rxstat.not_ready++;
        }
        return true;
    }
    if (e1000e_pp_phy_loopback(c)) {
        /* In PHY loopback the line side is not listened to. */
        c->obs.rxstat.not_ready++;
        return true;
    }
    if (REG(c, WUC) & WUC_APME) {
        /* Awake with APME: a wake filter match is only noted in WUS. */
        e1000e_pp_wake_event(c, e1000e_pp_wake_frame(c, frame, len));
    }
    /* Frame-error injection (errinj.c) only while some is armed. */
    if (e1000e_pp_errinj_armed(c)) {
        frame = e1000e_pp_errinj_begin(c, frame, &len);
    }
    taken = rx_accept(c, frame, len, true);
    if (c->errinj.active != E1000E_PP_RXERR_NONE) {
        e1000e_pp_errinj_end(c, taken);
    }
    if (!taken) {
        c->obs.rxstat.offered--;    /* not taken: QEMU offers it again */
    }
    return taken;
}

bool e1000e_pp_rx_loopback(E1000EPPCore *c, const uint8_t *frame,
                           size_t len)
{
    c->obs.rxstat.offered++;
    if (!rx_accept(c, frame, len, false)) {
        /* Nothing upstream can hold a looped-back frame. */
        c->obs.rxstat.missed++;
        e1000e_pp_stat_inc(c, MPC);
        return false;
    }
    return true;
}

void e1000e_pp_rdt_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old)
{
    /* The tail moved: descriptors are fetched in this write's step. */
    e1000e_pp_rxcache_tail_moved(c);
    e1000e_pp_schedule(c, WORK_RX);
}

void e1000e_pp_rctl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    /*
     * The receiver starting or stopping, another descriptor type or
     * buffer size: what the cache holds (fetched for the old layout) is
     * no longer valid; a start fetches anew.
     */
    if ((val ^ old) & (RCTL_EN | RCTL_DTYP_MASK | RCTL_BSIZE_MASK |
                       RCTL_BSEX | RCTL_FLXBUF_MASK)) {
        e1000e_pp_rxcache_clear(c);
        if (val & RCTL_EN) {
            e1000e_pp_rxcache_tail_moved(c);
        }
    }
    e1000e_pp_schedule(c, WORK_RX);
}

void e1000e_pp_rx_reset(E1000EPPCore *c)
{
    e1000e_pp_pktbuf_reset(c);
    e1000e_pp_rxcache_ring_set(c, RDLEN, 0, 0);
    c->arch.rxcache.fetch_pending = false;
    c->arch.rxdmt_low = false;
}
