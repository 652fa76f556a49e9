/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Situation coverage: how often the engines took each of the
 * datapath paths a test run should reach, so a run can say which it
 * exercised and which it never did (docs/coverage.md gives each one's
 * datasheet section). Counted since realize, never reset by the guest;
 * read with qom-get <nic> situations.
 */

#include "common.h"
#include "eth.h"
#include "log.h"
#include "rxdesc.h"
#include "rxframe.h"
#include "coverage.h"

static const char *const names[E1000E_PP_SITUATIONS] = {
    [SIT_FCS_STRADDLE] = "fcs-straddle",
    [SIT_FCS_ALONE] = "fcs-alone",
    [SIT_SPLIT_POLLS] = "split-polls",
    [SIT_RING_DRY_MIDFRAME] = "ring-dry-midframe",
    [SIT_RNBC] = "rnbc",
    [SIT_MPC] = "mpc",
    [SIT_XOFF_SENT] = "xoff-sent",
    [SIT_WB_TIMER] = "wb-timer",
    [SIT_WB_THRESHOLD] = "wb-threshold",
    [SIT_HDR_SPLIT] = "hdr-split",
    [SIT_VLAN_STRIP] = "vlan-strip",
    [SIT_RX_CSUM_IP] = "rx-csum-ip",
    [SIT_RX_CSUM_TCP] = "rx-csum-tcp",
    [SIT_RX_CSUM_UDP] = "rx-csum-udp",
    [SIT_RX_CSUM_ERR] = "rx-csum-err",
    [SIT_TX_CSUM_IP] = "tx-csum-ip",
    [SIT_TX_CSUM_L4] = "tx-csum-l4",
    [SIT_TSO] = "tso",
    [SIT_IRQ_THROTTLED] = "irq-throttled",
    [SIT_LINK_TRAFFIC] = "link-change-traffic",
    [SIT_ERR_CRC] = "err-crc",
    [SIT_ERR_SYMBOL] = "err-symbol",
    [SIT_ERR_DATA] = "err-data",
    [SIT_ERR_OVERSIZE] = "err-oversize",
    [SIT_NULL_DESC] = "null-desc",
    [SIT_DMA_FAULT] = "dma-fault",
};

/*
 * One buffer's share [off, off + n) of a frame. With RCTL.SECRC clear
 * the last 4 bytes are the FCS (§7.1.1): a buffer that starts inside
 * them leaves the FCS split; one that starts exactly at them holds it
 * alone — both leave the driver a last descriptor of FCS bytes only.
 */
/* The last chunk of a frame whose FCS is kept: FCS alone or split. */
void e1000e_pp_cover_fcs(E1000EPPCore *c, const RxFrame *fr, size_t off)
{
    size_t fcs = fr->len - ETH_FCS_LEN;

    if (fr->len <= ETH_FCS_LEN || off < fcs) {
        return;
    }
    e1000e_pp_cover(c, off == fcs ? SIT_FCS_ALONE : SIT_FCS_STRADDLE);
}

void e1000e_pp_cover_offloads(E1000EPPCore *c, const E1000EPPRxInfo *info)
{
    if (info->vp) {
        e1000e_pp_cover(c, SIT_VLAN_STRIP);
    }
    if (info->status & RXD_STAT_IPCS) {
        e1000e_pp_cover(c, SIT_RX_CSUM_IP);
    }
    if (info->status & RXD_STAT_UDPCS) {
        e1000e_pp_cover(c, SIT_RX_CSUM_UDP);
    } else if (info->status & RXD_STAT_TCPCS) {
        e1000e_pp_cover(c, SIT_RX_CSUM_TCP);
    }
    if (info->errors & (RXD_ERR_IPE | RXD_ERR_TCPE)) {
        e1000e_pp_cover(c, SIT_RX_CSUM_ERR);
    }
}

/* A frame the ring ran dry on part-way through. */
void e1000e_pp_cover_partial(E1000EPPCore *c)
{
    e1000e_pp_cover(c, SIT_RING_DRY_MIDFRAME);
    if (!c->arch.rxwb.count) {
        e1000e_pp_cover(c, SIT_SPLIT_POLLS);
    }
}

void e1000e_pp_cover_tx(E1000EPPCore *c, bool ixsm, bool txsm, bool tse)
{
    if (ixsm) {
        e1000e_pp_cover(c, SIT_TX_CSUM_IP);
    }
    if (txsm) {
        e1000e_pp_cover(c, SIT_TX_CSUM_L4);
    }
    if (tse) {
        e1000e_pp_cover(c, SIT_TSO);
    }
}

/*
 * STATUS.LU changed: "while traffic runs" when a frame came in since the
 * previous change or the Tx ring holds work, with an engine enabled.
 */
void e1000e_pp_cover_link(E1000EPPCore *c)
{
    bool enabled = (REG(c, RCTL) & RCTL_EN) || (REG(c, TCTL) & TCTL_EN);

    if (enabled && (c->obs.rxstat.offered != c->obs.link_mark ||
                    REG(c, TDH) != REG(c, TDT))) {
        e1000e_pp_cover(c, SIT_LINK_TRAFFIC);
    }
    c->obs.link_mark = c->obs.rxstat.offered;
}

size_t e1000e_pp_situations(E1000EPPCore *c, char *buf, size_t size)
{
    size_t len = 0;
    unsigned i;

    if (size) {
        buf[0] = '\0';
    }
    for (i = 0; i < E1000E_PP_SITUATIONS; i++) {
        len = e1000e_pp_text_add(buf, size, len, "%s %llu\n", names[i],
                                 (unsigned long long)c->obs.situations[i]);
    }
    return len;
}
