/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transmit (82574L §7.2): the descriptor ring, legacy, context and data
 * descriptors, checksum insertion and TCP segmentation driven by the
 * context descriptor fields, VLAN insertion and short-packet padding.
 */
#include <string.h>

#include "common.h"
#include "coverage.h"
#include "dma.h"
#include "eth.h"
#include "intr.h"
#include "log.h"
#include "moderation.h"
#include "phy.h"
#include "rx.h"
#include "stats.h"
#include "timesync.h"
#include "tx.h"
#include "work.h"

#define TXD_CMD_EOP     (1u << 0)
#define TXD_CMD_IC      (1u << 2)   /* legacy: insert checksum */
#define TXD_CMD_TSE     (1u << 2)   /* data: TCP segmentation */
#define TXD_CMD_RS      (1u << 3)
#define TXD_CMD_DEXT    (1u << 5)
#define TXD_CMD_VLE     (1u << 6)
#define TXD_CMD_IDE     (1u << 7)
#define TXD_DTYP_CONTEXT 0
#define TXD_DTYP_DATA   1
#define TXD_POPTS_IXSM  (1u << 0)
#define TXD_POPTS_TXSM  (1u << 1)
#define TXD_EXTCMD_TSTAMP (1u << 4) /* data: stamp in TXSTMP (§7.8) */
#define TUCMD_TCP       (1u << 0)
#define TUCMD_IP        (1u << 1)   /* IPv4 (else IPv6) */
#define TUCMD_TSE       (1u << 2)

#define TCP_FIN         0x01
#define TCP_PSH         0x08

static uint8_t *tx_frame(E1000EPPCore *c)
{
    return c->arch.txbuf + TX_HEADROOM;
}

void e1000e_pp_tx_reset(E1000EPPCore *c)
{
    memset(&c->arch.txctx, 0, sizeof(c->arch.txctx));
    memset(&c->arch.txpkt, 0, sizeof(c->arch.txpkt));
}

static void tx_trace(E1000EPPCore *c, size_t len, const char *what)
{
    if (c->plat->trace_tx) {
        c->plat->trace_tx(c->opaque, len, REG(c, TDH), what);
    }
}

/*
 * Store ~sum(buf[start..end)) at buf[at]; end == 0 means the packet end.
 * A UDP checksum that comes out as 0 goes out as 0xffff: 0 means "no
 * checksum" over IPv4 and is not allowed over IPv6 (RFC 768, RFC 8200
 * 8.1), which Linux relies on when it hands UDP/IPv6 to the device.
 */
static void insert_csum(uint8_t *buf, size_t len, size_t start, size_t end,
                        size_t at, uint32_t extra, bool udp)
{
    uint16_t csum;
    uint32_t sum;

    if (!end || end >= len) {
        end = len;
    } else {
        end++;      /* IPCSE/TUCSE name the last byte included */
    }
    if (start >= end || at + 2 > len) {
        return;
    }
    sum = e1000e_pp_csum_add(extra, buf + start, end - start);
    csum = (uint16_t)~e1000e_pp_csum_fold(sum);
    put_be16(buf + at, udp && !csum ? 0xffff : csum);
}

/* Put the frame on the wire with the VLAN tag and padding applied. */
static void tx_emit(E1000EPPCore *c, size_t len)
{
    E1000EPPTxPacket *p = &c->arch.txpkt;
    uint8_t *f = tx_frame(c);

    if (len < 14) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, TDT,
                      "Tx packet of %zu bytes has no Ethernet header", len);
        return;
    }
    if (p->vle && (REG(c, CTRL) & CTRL_VME)) {
        /* The tag goes after the addresses, VET as its type. */
        memmove(f - 4, f, 12);
        f -= 4;
        put_be16(f + 12, (uint16_t)REG(c, VET));
        put_be16(f + 14, p->vlan);
        len += 4;
    }
    if (len < ETH_ZLEN && (REG(c, TCTL) & TCTL_PSP)) {
        memset(f + len, 0, ETH_ZLEN - len);
        len = ETH_ZLEN;
    }
    e1000e_pp_stats_tx_good(c, f, len + ETH_FCS_LEN);
    e1000e_pp_cover_tx(c, p->ixsm, p->txsm, p->tse);
    if (p->tstamp) {
        e1000e_pp_timesync_tx(c);
    }
    if (e1000e_pp_loopback(c)) {
        /*
         * MAC or PHY loopback: back into our own packet buffer only; the
         * walk yields after this descriptor so the Rx engine can take it.
         */
        tx_trace(c, len, "loopback");
        e1000e_pp_rx_loopback(c, f, len);
    } else {
        tx_trace(c, len, "send");
        c->obs.tx_sent++;
        c->plat->send(c->opaque, f, len);
    }
}

/* Plain packet: offloads from the legacy CSO/CSS or the context. */
static void tx_finish_plain(E1000EPPCore *c, size_t len)
{
    E1000EPPTxPacket *p = &c->arch.txpkt;
    E1000EPPTxContext *x = &p->ctx;
    uint8_t *f = tx_frame(c);

    if (p->ic) {
        /* Legacy: the descriptor does not say which protocol. */
        insert_csum(f, len, p->css, 0, p->cso, 0, false);
    }
    if (p->ixsm) {
        insert_csum(f, len, x->ipcss, x->ipcse, x->ipcso, 0, false);
    }
    if (p->txsm) {
        insert_csum(f, len, x->tucss, x->tucse, x->tucso, 0,
                    !(x->tucmd & TUCMD_TCP));
    }
    tx_emit(c, len);
}

/* One TSO segment: the saved header fixed up, then `pay` payload bytes. */
static void tx_emit_segment(E1000EPPCore *c, uint32_t pay, bool last)
{
    E1000EPPTxPacket *p = &c->arch.txpkt;
    E1000EPPTxContext *x = &c->arch.txpkt.ctx;
    uint8_t *f = tx_frame(c);
    size_t hl = x->hdrlen, len = hl + pay;
    size_t l4 = x->tucss;

    memcpy(f, p->header, hl);
    if (x->tucmd & TUCMD_IP) {
        if (x->ipcss + 6u <= hl) {
            put_be16(f + x->ipcss + 2, (uint16_t)(len - x->ipcss));
            put_be16(f + x->ipcss + 4, (uint16_t)(p->ip_id + p->segments));
        }
        if (p->ixsm && x->ipcso + 2u <= hl) {
            put_be16(f + x->ipcso, 0);
            insert_csum(f, len, x->ipcss, x->ipcse ? x->ipcse : hl - 1,
                        x->ipcso, 0, false);
        }
    } else if (x->ipcss + 6u <= hl) {
        put_be16(f + x->ipcss + 4, (uint16_t)(len - x->ipcss - 40));
    }
    if ((x->tucmd & TUCMD_TCP) && l4 + 14u <= hl) {
        put_be32(f + l4 + 4, p->tcp_seq + p->payload_sent);
        /* TSO: FIN and PSH only in the last segment; others as given. */
        if (!last) {
            f[l4 + 13] &= ~(TCP_FIN | TCP_PSH);
        }
    } else if (!(x->tucmd & TUCMD_TCP) && l4 + 6u <= hl) {
        put_be16(f + l4 + 4, (uint16_t)(len - l4));
    }
    /*
     * The L4 checksum field holds the pseudo-header sum without the
     * length (as Linux seeds it for TSO); the device adds this segment's
     * L4 length and sums the segment.
     */
    if (p->txsm && l4 < len) {
        insert_csum(f, len, l4, 0, x->tucso, (uint32_t)(len - l4),
                    !(x->tucmd & TUCMD_TCP));
    }
    tx_emit(c, len);
    p->payload_sent += pay;
    p->segments++;
    if (last) {
        /* §10.2.7: TSCTC counts TSO transmissions, not segments. */
        e1000e_pp_stat_inc(c, TSCTC);
    }
}

/*
 * DMA the data of a TSO packet straight to where it belongs: the header
 * (HDRLEN bytes) into the saved copy, payload behind the header in the
 * segment buffer. A full segment goes out when more data follows it; the
 * last one waits for EOP, so a PAYLEN that does not match the data can
 * neither stall nor overrun the segment buffer.
 */
static bool tx_tso_gather(E1000EPPCore *c, uint64_t addr, size_t n)
{
    E1000EPPTxPacket *p = &c->arch.txpkt;
    E1000EPPTxContext *x = &c->arch.txpkt.ctx;

    while (n) {
        uint8_t *dst;
        size_t take;

        if (p->len < x->hdrlen) {
            take = x->hdrlen - p->len;
            dst = p->header + p->len;
        } else {
            if (p->len == (size_t)x->hdrlen + x->mss) {
                tx_emit_segment(c, x->mss, false);
                p->len = x->hdrlen;
            }
            /* The context is fixed per packet, so this cannot go negative. */
            take = (size_t)x->hdrlen + x->mss - p->len;
            dst = tx_frame(c) + p->len;
        }
        take = take < n ? take : n;
        if (!e1000e_pp_dma_read(c, addr, dst, take)) {
            e1000e_pp_dma_fault(c, "tx-data", REG(c, TDH), addr, 0,
                                (uint32_t)take, false);
            c->arch.tx_halted = true;
            return false;
        }
        if (p->len < x->hdrlen && p->len + take == x->hdrlen &&
            x->tucss + 8u <= x->hdrlen) {
            p->ip_id = get_be16(p->header + x->ipcss + 4);
            p->tcp_seq = get_be32(p->header + x->tucss + 4);
        }
        p->len += take;
        addr += take;
        n -= take;
    }
    return true;
}

static void tx_packet_done(E1000EPPCore *c)
{
    memset(&c->arch.txpkt, 0, sizeof(c->arch.txpkt));
}

/* Gather one buffer; returns false when the packet must be dropped. */
static bool tx_gather(E1000EPPCore *c, uint64_t addr, size_t len)
{
    E1000EPPTxPacket *p = &c->arch.txpkt;

    if (p->dropping || !len) {
        return true;
    }
    if (p->tse) {
        return tx_tso_gather(c, addr, len);
    }
    if (p->len + len > TX_MAX_PLAIN || p->len + len > TX_ROOM) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, TDT,
                      "Tx packet exceeds %d bytes; dropped", TX_MAX_PLAIN);
        return false;
    }
    if (!e1000e_pp_dma_read(c, addr, tx_frame(c) + p->len, len)) {
        e1000e_pp_dma_fault(c, "tx-data", REG(c, TDH), addr, 0,
                            (uint32_t)len, false);
        c->arch.tx_halted = true;
        return false;
    }
    p->len += len;
    return true;
}

static bool tso_context_valid(E1000EPPCore *c)
{
    E1000EPPTxContext *x = &c->arch.txpkt.ctx;

    /* TSO: MSS must exceed 16 and the header fit its 240-byte buffer. */
    if (x->mss <= 16 || !x->hdrlen || x->hdrlen > 240 ||
        x->tucss >= x->hdrlen ||
        x->ipcss >= x->hdrlen ||
        (size_t)x->hdrlen + x->mss > TX_ROOM) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, TDT,
                      "TSO context invalid: HDRLEN %u MSS %u TUCSS %u",
                      x->hdrlen, x->mss, x->tucss);
        return false;
    }
    return true;
}

static void tx_load_context(E1000EPPCore *c, const uint8_t *d)
{
    E1000EPPTxContext *x = &c->arch.txctx;

    x->ipcss = d[0];
    x->ipcso = d[1];
    x->ipcse = get_le16(d + 2);
    x->tucss = d[4];
    x->tucso = d[5];
    x->tucse = get_le16(d + 6);
    x->paylen = get_le32(d + 8) & 0xfffff;
    x->tucmd = d[11];
    x->hdrlen = d[13];
    x->mss = get_le16(d + 14);
}

/* Process one descriptor; returns whether it asked for a write-back. */
static bool tx_descriptor(E1000EPPCore *c, uint8_t *d, bool *ide)
{
    E1000EPPTxPacket *p = &c->arch.txpkt;
    uint32_t dw2 = get_le32(d + 8);
    uint8_t cmd = dw2 >> 24;
    bool ext = cmd & TXD_CMD_DEXT;
    unsigned dtyp = (dw2 >> 20) & 0xf;
    size_t len;

    if (ext && dtyp == TXD_DTYP_CONTEXT) {
        tx_load_context(c, d);
        *ide = cmd & TXD_CMD_IDE;
        return cmd & TXD_CMD_RS;
    }
    if (ext && dtyp != TXD_DTYP_DATA) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, TDT,
                      "Tx descriptor type %u is reserved; skipped", dtyp);
        return cmd & TXD_CMD_RS;
    }
    len = ext ? (dw2 & 0xfffff) : (dw2 & 0xffff);
    if (!p->started) {
        /*
         * §7.2: the first descriptor of a packet carries its options
         * (VLE and the tag, POPTS, legacy IC with CSO/CSS) and fixes the
         * offload context the packet uses.
         */
        p->started = true;
        p->ctx = c->arch.txctx;
        p->vle = cmd & TXD_CMD_VLE;
        p->vlan = get_le16(d + 14);
        if (ext) {
            p->ixsm = d[13] & TXD_POPTS_IXSM;
            p->txsm = d[13] & TXD_POPTS_TXSM;
            p->tstamp = d[12] & TXD_EXTCMD_TSTAMP;
            p->tse = (cmd & TXD_CMD_TSE) && (p->ctx.tucmd & TUCMD_TSE);
            if (p->tse && !tso_context_valid(c)) {
                p->tse = false;
                p->dropping = true;
            }
        } else {
            p->ic = cmd & TXD_CMD_IC;
            p->cso = d[10];
            p->css = d[13];
        }
    }
    if (!tx_gather(c, get_le64(d), len)) {
        p->dropping = true;
    }
    *ide = cmd & TXD_CMD_IDE;
    if (cmd & TXD_CMD_EOP) {
        if (p->dropping) {
            tx_trace(c, p->len, "drop");
        } else if (p->tse) {
            if (p->len > p->ctx.hdrlen || !p->segments) {
                tx_emit_segment(c, p->len > p->ctx.hdrlen ?
                                (uint32_t)(p->len - p->ctx.hdrlen) : 0,
                                true);
            }
        } else {
            tx_finish_plain(c, p->len);
        }
        tx_packet_done(c);
    }
    return cmd & TXD_CMD_RS;
}

void e1000e_pp_tx_run(E1000EPPCore *c)
{
    uint32_t n = (REG(c, TDLEN) & 0xfff80) / 16;
    uint64_t base = (uint64_t)REG(c, TDBAH) << 32 | (REG(c, TDBAL) & ~0xfu);
    bool wrote_back = false, ide_all = true;

    /*
     * Nothing new starts without TCTL.EN and bus mastering, after a DMA
     * failure, during CTRL.RST or GIO master disable, during a received
     * PAUSE, or while the x-tx-hold knob holds the engine (TDH then stops,
     * as in a Tx hang).
     */
    if (!(REG(c, TCTL) & TCTL_EN) || !c->arch.bus_master || c->arch.tx_halted ||
        c->arch.resetting || c->arch.tx_hold || c->arch.tx_paused ||
        (REG(c, CTRL) & CTRL_GIO_MASTER_DISABLE) ||
        !(e1000e_pp_link_up(c) || e1000e_pp_loopback(c))) {
        return;
    }
    if (REG(c, TDH) == REG(c, TDT)) {
        return;
    }
    if (!n || REG(c, TDH) >= n || REG(c, TDT) >= n) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, TDT,
                      "Tx ring: TDH %u / TDT %u outside a %u-entry ring",
                      REG(c, TDH), REG(c, TDT), n);
        return;
    }
    while (REG(c, TDH) != REG(c, TDT)) {
        uint64_t daddr = base + (uint64_t)REG(c, TDH) * 16;
        uint32_t dlen;
        uint8_t d[16];
        bool ide = false, wb;

        if (!c->tx_budget || !c->tx_bytes) {
            /* Leave the rest to the next step so one stays bounded. */
            e1000e_pp_schedule(c, WORK_TX);
            break;
        }
        if (c->work & WORK_RX) {
            /* A looped-back frame waits for the Rx engine: let it run. */
            e1000e_pp_schedule(c, WORK_TX);
            break;
        }
        c->tx_budget--;
        if (!e1000e_pp_dma_read(c, daddr, d, 16)) {
            e1000e_pp_dma_fault(c, "tx-desc-fetch", REG(c, TDH), daddr, 0,
                                16, false);
            e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, TDH,
                          "Tx descriptor read at TDH %u failed; ring stopped",
                          REG(c, TDH));
            c->arch.tx_halted = true;
            return;
        }
        /* At most 1 MB per descriptor (the 20-bit length field). */
        dlen = get_le32(d + 8) & 0xfffff;
        c->tx_bytes -= dlen < c->tx_bytes ? dlen : c->tx_bytes;
        wb = tx_descriptor(c, d, &ide);
        if (c->arch.tx_halted) {
            /* The data did not arrive: no DD, the head stays (§ DMA). */
            e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, TDH,
                          "Tx DMA failed at TDH %u; transmit stopped",
                          REG(c, TDH));
            tx_packet_done(c);
            return;
        }
        if (wb) {
            /* §7.2.3: RS asks for DD (moderation.c writes it back). */
            if (!e1000e_pp_tx_wb_queue(c, daddr, d)) {
                return;     /* a held write-back failed to land */
            }
            wrote_back = true;
            ide_all = ide_all && ide;
        }
        REG(c, TDH) = REG(c, TDH) + 1 >= n ? 0 : REG(c, TDH) + 1;
    }
    if (wrote_back) {
        e1000e_pp_tx_writeback(c, ide_all);
    }
    if (REG(c, TDH) == REG(c, TDT)) {
        e1000e_pp_raise(c, ICR_TXQE);
    }
}

void e1000e_pp_tdt_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old)
{
    e1000e_pp_schedule(c, WORK_TX);
}

void e1000e_pp_tctl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    /* Setting EN restarts an engine a failed DMA stopped. */
    if ((val & TCTL_EN) && !(old & TCTL_EN)) {
        c->arch.tx_halted = false;
    }
    e1000e_pp_schedule(c, WORK_TX);
}
