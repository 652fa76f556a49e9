/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IEEE 1588 time sync (82574L §7.8, registers §10.2.9): SYSTIM advances
 * by TIMINCA.IV every TIMINCA.IP periods of the 82574's 25 MHz time-sync
 * clock (40 ns; Linux's e1000e_get_base_timinca programs IP 1, IV 40 << 18
 * for it), derived from the virtual clock so it is deterministic.
 * Reading SYSTIML latches SYSTIMH. A PTP frame the TSYNCRXCTL filter
 * picks (RXMTRL, RXUDP) latches RXSTMPL/H and RXSATRL/H; a Tx packet
 * whose descriptor has TSTAMP latches TXSTMPL/H. Each sets its VALID
 * bit and holds the stamp until the guest reads the high half.
 */
#include "common.h"
#include "eth.h"
#include "rxdesc.h"
#include "timesync.h"

#define SYSTIM_TICK_NS  40

/* SYSTIM now, had TIMINCA been inca since the last rebase. */
static uint64_t systim_at_rate(E1000EPPCore *c, uint32_t inca)
{
    uint64_t ip = inca >> TIMINCA_IP_SHIFT, iv = inca & TIMINCA_IV_MASK;
    int64_t elapsed = c->plat->now_ns(c->opaque) - c->arch.systim_base_ns;

    if (!ip || !iv || elapsed <= 0) {
        return c->arch.systim_base;
    }
    return c->arch.systim_base +
           (uint64_t)(elapsed / (SYSTIM_TICK_NS * (int64_t)ip)) * iv;
}

static uint64_t systim_now(E1000EPPCore *c)
{
    return systim_at_rate(c, REG(c, TIMINCA));
}

static void systim_rebase(E1000EPPCore *c, uint64_t value)
{
    c->arch.systim_base = value;
    c->arch.systim_base_ns = c->plat->now_ns(c->opaque);
}

void e1000e_pp_timesync_reset(E1000EPPCore *c)
{
    systim_rebase(c, 0);
    c->arch.systimh_latch = 0;
}

/* RXSTMPH / TXSTMPH: reading the high half frees the latch (clears VALID). */
uint32_t e1000e_pp_stamp_high_read(E1000EPPCore *c, uint32_t off)
{
    REG(c, off == RXSTMPH ? TSYNCRXCTL : TSYNCTXCTL) &= ~TSYNCRXCTL_VALID;
    return REG(c, off);
}

static bool stamp_latch(E1000EPPCore *c, uint32_t ctl, uint32_t lo)
{
    uint64_t now;

    /*
     * Enabled, and the last stamp was read: it is never overwritten.
     * TSYNCTXCTL and TSYNCRXCTL share the EN (4) and VALID (0) bits.
     */
    if ((REG(c, ctl) & (TSYNCRXCTL_EN | TSYNCRXCTL_VALID)) !=
        TSYNCRXCTL_EN) {
        return false;
    }
    now = systim_now(c);
    REG(c, lo) = (uint32_t)now;
    REG(c, lo + 4) = (uint32_t)(now >> 32);
    REG(c, ctl) |= TSYNCRXCTL_VALID;
    return true;
}

void e1000e_pp_timesync_tx(E1000EPPCore *c)
{
    stamp_latch(c, TSYNCTXCTL, TXSTMPL);
}

#define PTP_UDP_EVENT   0
#define PTP_L2          1

/*
 * Where the PTP message starts, or 0: after an EtherType equal to
 * RXMTRL[15:0] (L2), or in a UDP datagram to the port in RXUDP (L4),
 * which holds the port as Linux writes it, in network byte order.
 */
static size_t ptp_message(E1000EPPCore *c, const uint8_t *f, size_t len,
                          int *how)
{
    size_t l3 = ETH_HLEN, l4;
    uint16_t type = get_be16(f + 12);

    if (type == (REG(c, VET) & 0xffff) && len >= ETH_HLEN + VLAN_HLEN) {
        type = get_be16(f + 16);
        l3 += VLAN_HLEN;
    }
    if (type == (REG(c, RXMTRL) & 0xffff)) {
        *how = PTP_L2;
        return len >= l3 + 34 ? l3 : 0;
    }
    *how = PTP_UDP_EVENT;
    if (type == 0x0800 && len >= l3 + 20 && f[l3 + 9] == 17) {
        l4 = l3 + (f[l3] & 0xf) * 4;
    } else if (type == 0x86dd && len >= l3 + 40 && f[l3 + 6] == 17) {
        l4 = l3 + 40;
    } else {
        return 0;
    }
    if (len < l4 + 8 + 34 || get_le16(f + l4 + 2) != (REG(c, RXUDP) & 0xffff)) {
        return 0;
    }
    return l4 + 8;
}

/*
 * TSYNCRXCTL.TYPE: 0 V2 over L2, 1 V1 over UDP, 2 V2 over either (the
 * message type in RXMTRL, or a path delay request/response), 4 every
 * frame, 5 every V2 event message (types 0-3); others stamp nothing.
 */
static bool ptp_selected(E1000EPPCore *c, const uint8_t *m, int how)
{
    unsigned type = (REG(c, TSYNCRXCTL) & TSYNCRXCTL_TYPE_MASK) >>
                    TSYNCRXCTL_TYPE_SHIFT;
    uint32_t mtrl = REG(c, RXMTRL);
    bool v2 = (m[1] & 0xf) == 2, v1 = get_be16(m) == 1;
    unsigned msg = m[0] & 0xf;
    bool v2_match = v2 && (msg == mtrl >> 24 || msg == 2 || msg == 3);

    switch (type) {
    case 0:
        return how == PTP_L2 && v2_match;
    case 1:
        return how == PTP_UDP_EVENT && v1 && m[32] == ((mtrl >> 16) & 0xff);
    case 2:
        return v2_match;
    case 5:
        return v2 && msg < 4;
    default:
        return false;
    }
}

/* A received frame: latch RXSTMP if the filter picks it; TST in status. */
void e1000e_pp_timesync_rx(E1000EPPCore *c, const uint8_t *f, size_t len,
                           E1000EPPRxInfo *info)
{
    size_t m = 0;
    int how;
    bool all;

    if (!(REG(c, TSYNCRXCTL) & TSYNCRXCTL_EN)) {
        return;
    }
    all = ((REG(c, TSYNCRXCTL) & TSYNCRXCTL_TYPE_MASK) >>
           TSYNCRXCTL_TYPE_SHIFT) == 4;
    if (len >= ETH_HLEN) {
        m = ptp_message(c, f, len, &how);
    }
    if (!all && (!m || !ptp_selected(c, f + m, how))) {
        return;
    }
    if (!stamp_latch(c, TSYNCRXCTL, RXSTMPL)) {
        return;
    }
    /* RXSATRL/H: source UUID bytes 22-27, sequence ID (bytes 30-31). */
    REG(c, RXSATRL) = m ? get_be32(f + m + 24) : 0;
    REG(c, RXSATRH) = m ? get_be16(f + m + 22) |
                          (uint32_t)get_be16(f + m + 30) << 16 : 0;
    info->status |= RXD_STAT_TST;
}

uint32_t e1000e_pp_systiml_read(E1000EPPCore *c, uint32_t off)
{
    uint64_t now = systim_now(c);

    c->arch.systimh_latch = (uint32_t)(now >> 32);
    return (uint32_t)now;
}

uint32_t e1000e_pp_systimh_read(E1000EPPCore *c, uint32_t off)
{
    return c->arch.systimh_latch;
}

void e1000e_pp_systim_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old)
{
    uint64_t now = systim_now(c);

    if (off == SYSTIML) {
        now = (now & ~0xffffffffull) | val;
    } else {
        now = (now & 0xffffffffull) | (uint64_t)val << 32;
    }
    systim_rebase(c, now);
}

void e1000e_pp_timinca_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                             uint32_t old)
{
    /* Keep the time reached at the old rate; the new one applies now. */
    systim_rebase(c, systim_at_rate(c, old));
}

void e1000e_pp_timadj_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old)
{
    if (off == TIMADJH) {
        /* TIMADJH bit 31 is the sign of the adjustment. */
        uint64_t adj = REG(c, TIMADJL) |
                       (uint64_t)(REG(c, TIMADJH) & 0x7fffffff) << 32;
        uint64_t now = systim_now(c);
        systim_rebase(c, (val & 0x80000000u) ? now - adj : now + adj);
    }
}
