/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Receive (82574L §7.1): filtering, VLAN stripping, the FCS, checksum and
 * RSS status, and descriptor rings in legacy, extended and packet-split
 * formats.
 */
#include <string.h>

#include "internal.h"

#define ETH_HLEN        14
#define ETH_ALEN        6
#define ETH_ZLEN        60      /* shortest frame on the wire, no FCS */
#define ETH_FCS_LEN     4
#define VLAN_HLEN       4
/* §7.1.1.x: RCTL.LPE=0 accepts 1518 bytes with FCS, 1522 when tagged. */
#define MAX_STD_FRAME   1518
/*
 * With LPE=1 the 82574 takes frames up to 9018 bytes + tag in the
 * datasheet, while Linux sizes for 9234 (DEFAULT_JUMBO). We accept the
 * driver's limit so every MTU it offers works; see docs/fidelity.md.
 */
#define MAX_LONG_FRAME  9234

#define RXD_STAT_DD     (1u << 0)
#define RXD_STAT_EOP    (1u << 1)
#define RXD_STAT_IXSM   (1u << 2)
#define RXD_STAT_VP     (1u << 3)
#define RXD_STAT_UDPCS  (1u << 4)
#define RXD_STAT_TCPCS  (1u << 5)
#define RXD_STAT_IPCS   (1u << 6)
#define RXD_ERR_TCPE    (1u << 5)
#define RXD_ERR_IPE     (1u << 6)
/* Extended/packet-split write-back: errors sit in bits 31:24. */
#define RXDEXT_ERR_SHIFT 24
#define RXDPS_HDRSTAT_HDRSP (1u << 15)

/* RSS types reported in the write-back MRQ field (§7.1.6.1). */
#define RSS_TYPE_NONE       0
#define RSS_TYPE_TCPV4      1
#define RSS_TYPE_IPV4       2
#define RSS_TYPE_TCPV6      3
#define RSS_TYPE_IPV6       5

typedef enum RxFormat { RX_LEGACY, RX_EXTENDED, RX_SPLIT } RxFormat;

/* What the parser learned about a received frame's L3/L4 headers. */
typedef struct RxInfo {
    uint16_t vlan;
    bool vp;
    uint32_t status;        /* DD/EOP excluded */
    uint32_t errors;        /* legacy error byte layout */
    uint16_t ip_id;
    uint16_t pkt_csum;
    uint32_t rss_hash;
    uint8_t rss_type;
    size_t hdr_len;         /* L2..L4 header bytes, 0 if not parsed */
} RxInfo;

static RxFormat rx_format(E1000EPPCore *c)
{
    if ((REG(c, RCTL) & RCTL_DTYP_MASK) == RCTL_DTYP_PS) {
        return RX_SPLIT;
    }
    return (REG(c, RFCTL) & RFCTL_EXTEN) ? RX_EXTENDED : RX_LEGACY;
}

/* §10.2.5.1 RCTL.BSIZE/BSEX, overridden by FLXBUF in 1 KB units. */
static size_t rx_buf_size(E1000EPPCore *c)
{
    static const size_t plain[4] = { 2048, 1024, 512, 256 };
    static const size_t ext[4] = { 0, 16384, 8192, 4096 };
    uint32_t rctl = REG(c, RCTL);
    unsigned bsize = (rctl & RCTL_BSIZE_MASK) >> RCTL_BSIZE_SHIFT;
    unsigned flx = (rctl & RCTL_FLXBUF_MASK) >> RCTL_FLXBUF_SHIFT;

    if (flx) {
        return flx * 1024;
    }
    if (!(rctl & RCTL_BSEX)) {
        return plain[bsize];
    }
    if (!ext[bsize]) {
        /* BSEX=1, BSIZE=00 is reserved: fall back to the reset size. */
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, RCTL,
                      "RCTL 0x%08x: reserved buffer size, using 2048", rctl);
        return 2048;
    }
    return ext[bsize];
}

static size_t desc_size(RxFormat f)
{
    return f == RX_SPLIT ? 32 : 16;
}

static uint32_t ring_len(E1000EPPCore *c, RxFormat f)
{
    return (REG(c, RDLEN) & 0xfff80) / desc_size(f);
}

/* Descriptors the guest has handed to the device: RDH up to RDT. */
static uint32_t ring_free(E1000EPPCore *c, RxFormat f)
{
    uint32_t n = ring_len(c, f), h = REG(c, RDH), t = REG(c, RDT);

    if (!n || h >= n || t >= n) {
        return 0;
    }
    /* RDH == RDT: the ring holds no descriptors for the device. */
    return t >= h ? t - h : n - h + t;
}

bool e1000e_pp_can_receive(E1000EPPCore *c)
{
    return (REG(c, RCTL) & RCTL_EN) && e1000e_pp_link_up(c) &&
           c->bus_master && ring_free(c, rx_format(c)) > 0;
}

void e1000e_pp_rdt_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    REG(c, RDT) = val & 0xffff;
    if (e1000e_pp_can_receive(c)) {
        c->plat->rx_ready(c->opaque);
    }
}

void e1000e_pp_rctl_write(E1000EPPCore *c, uint32_t off, uint32_t val)
{
    REG(c, RCTL) = val & 0x07ffb3fe;
    if (e1000e_pp_can_receive(c)) {
        c->plat->rx_ready(c->opaque);
    }
}

/* §7.1.1 destination address filter. */
static bool rx_address_match(E1000EPPCore *c, const uint8_t *da)
{
    uint32_t rctl = REG(c, RCTL);
    unsigned i;

    if ((da[0] & da[1] & da[2] & da[3] & da[4] & da[5]) == 0xff) {
        return (rctl & RCTL_BAM) || (rctl & RCTL_MPE) || (rctl & RCTL_UPE);
    }
    if (da[0] & 1) {
        unsigned mo = (rctl & RCTL_MO_MASK) >> RCTL_MO_SHIFT;
        uint16_t hash;

        if (rctl & RCTL_MPE) {
            return true;
        }
        /* MTA index: 12 bits of the address, picked by RCTL.MO. */
        hash = (uint16_t)((da[4] >> (4 - mo)) | (da[5] << (4 + mo)));
        hash &= 0xfff;
        return REG(c, MTA + (hash >> 5) * 4) & (1u << (hash & 31));
    }
    if (rctl & RCTL_UPE) {
        return true;
    }
    for (i = 0; i < RA_ENTRIES; i++) {
        uint32_t ral = REG(c, RAL(i)), rah = REG(c, RAH(i));
        /* RAH.ASEL (17:16) = 00 matches the destination address. */
        if ((rah & RAH_AV) && !(rah & (3u << 16)) &&
            get_le32(da) == ral && get_le16(da + 4) == (rah & 0xffff)) {
            return true;
        }
    }
    return false;
}

static bool rx_vlan_match(E1000EPPCore *c, uint16_t tci)
{
    unsigned vid = tci & 0xfff;

    if (!(REG(c, RCTL) & RCTL_VFE)) {
        return true;
    }
    return REG(c, VFTA + (vid >> 5) * 4) & (1u << (vid & 31));
}

/* Toeplitz hash over the input with the 40-byte RSSRK key (§7.1.6.1). */
static uint32_t rss_toeplitz(E1000EPPCore *c, const uint8_t *in, size_t n)
{
    uint8_t key[RSSRK_WORDS * 4];
    uint32_t hash = 0, window;
    size_t i, bit;

    for (i = 0; i < RSSRK_WORDS; i++) {
        put_le32(key + 4 * i, REG(c, RSSRK + 4 * i));
    }
    window = get_be32(key);
    for (i = 0; i < n; i++) {
        for (bit = 0; bit < 8; bit++) {
            if (in[i] & (0x80 >> bit)) {
                hash ^= window;
            }
            window <<= 1;
            if (i + 4 < sizeof(key) && (key[i + 4] & (0x80 >> bit))) {
                window |= 1;
            }
        }
    }
    return hash;
}

static bool l4_csum_ok(const uint8_t *l4, size_t l4len, uint32_t pseudo)
{
    return e1000e_pp_csum_fold(e1000e_pp_csum_add(pseudo, l4, l4len)) ==
           0xffff;
}

/*
 * Parse the L3/L4 headers of the frame (VLAN tag already stripped or
 * still present) for checksum offload status (§7.1.7) and RSS.
 */
static void rx_parse(E1000EPPCore *c, const uint8_t *f, size_t len,
                     RxInfo *info)
{
    uint32_t rxcsum = REG(c, RXCSUM), mrqc = REG(c, MRQC);
    size_t l3 = ETH_HLEN, l4, l4len, iphl;
    uint16_t type;
    uint8_t proto;
    uint32_t pseudo;
    uint8_t rss_in[36];
    bool rss = (mrqc & MRQC_ENABLE_MASK) == 1;

    type = get_be16(f + 12);
    if (type == REG(c, VET) && len >= ETH_HLEN + VLAN_HLEN) {
        type = get_be16(f + 16);
        l3 += VLAN_HLEN;
    }
    /* Packet checksum over everything from RXCSUM.PCSS (§10.2.5.14). */
    if ((rxcsum & 0xff) < len) {
        info->pkt_csum = e1000e_pp_csum_fold(
            e1000e_pp_csum_add(0, f + (rxcsum & 0xff),
                               len - (rxcsum & 0xff)));
    }
    if (type == 0x0800 && len >= l3 + 20 && (f[l3] >> 4) == 4) {
        uint16_t totlen = get_be16(f + l3 + 2);
        iphl = (f[l3] & 0xf) * 4;
        if (iphl < 20 || len < l3 + iphl || totlen < iphl ||
            len < l3 + totlen) {
            return;
        }
        info->ip_id = get_be16(f + l3 + 4);
        info->hdr_len = l3 + iphl;
        if (rxcsum & RXCSUM_IPOFL) {
            info->status |= RXD_STAT_IPCS;
            if (e1000e_pp_csum_fold(e1000e_pp_csum_add(0, f + l3, iphl)) !=
                0xffff) {
                info->errors |= RXD_ERR_IPE;
            }
        }
        proto = f[l3 + 9];
        l4 = l3 + iphl;
        l4len = totlen - iphl;
        if (rss && (mrqc & MRQC_IPV4)) {
            memcpy(rss_in, f + l3 + 12, 8);
            info->rss_type = RSS_TYPE_IPV4;
            info->rss_hash = rss_toeplitz(c, rss_in, 8);
        }
        /* Fragments carry no checkable L4 header. */
        if (get_be16(f + l3 + 6) & 0x3fff) {
            return;
        }
        pseudo = e1000e_pp_csum_add(0, f + l3 + 12, 8);
        pseudo += proto + (uint32_t)l4len;
    } else if (type == 0x86dd && len >= l3 + 40 && (f[l3] >> 4) == 6) {
        uint16_t paylen = get_be16(f + l3 + 4);
        if (len < l3 + 40 + paylen) {
            return;
        }
        proto = f[l3 + 6];
        l4 = l3 + 40;
        l4len = paylen;
        info->hdr_len = l4;
        if (rss && (mrqc & MRQC_IPV6)) {
            memcpy(rss_in, f + l3 + 8, 32);
            info->rss_type = RSS_TYPE_IPV6;
            info->rss_hash = rss_toeplitz(c, rss_in, 32);
        }
        pseudo = e1000e_pp_csum_add(0, f + l3 + 8, 32);
        pseudo += proto + (uint32_t)l4len;
    } else {
        return;
    }

    if (proto == 6 && l4len >= 20) {
        info->hdr_len = l4 + (f[l4 + 12] >> 4) * 4;
        if (rss && (mrqc & (type == 0x0800 ? MRQC_TCPIPV4 : MRQC_TCPIPV6))) {
            size_t alen = type == 0x0800 ? 8 : 32;
            memcpy(rss_in, f + (type == 0x0800 ? l3 + 12 : l3 + 8), alen);
            memcpy(rss_in + alen, f + l4, 4);
            info->rss_type = type == 0x0800 ? RSS_TYPE_TCPV4 : RSS_TYPE_TCPV6;
            info->rss_hash = rss_toeplitz(c, rss_in, alen + 4);
        }
        if (rxcsum & RXCSUM_TUOFL) {
            info->status |= RXD_STAT_TCPCS;
            if (!l4_csum_ok(f + l4, l4len, pseudo)) {
                info->errors |= RXD_ERR_TCPE;
            }
        }
    } else if (proto == 17 && l4len >= 8) {
        info->hdr_len = l4 + 8;
        /* A zero UDP checksum over IPv4 means "not computed". */
        if ((rxcsum & RXCSUM_TUOFL) &&
            (type != 0x0800 || get_be16(f + l4 + 6))) {
            info->status |= RXD_STAT_TCPCS | RXD_STAT_UDPCS;
            if (!l4_csum_ok(f + l4, l4len, pseudo)) {
                info->errors |= RXD_ERR_TCPE;
            }
        }
    }
}

static void rx_trace(E1000EPPCore *c, size_t len, unsigned n,
                     const char *verdict)
{
    if (c->plat->trace_rx) {
        c->plat->trace_rx(c->opaque, len, REG(c, RDH), n, verdict);
    }
}

/* Write-back of one legacy/extended descriptor covering len bytes. */
static void rx_writeback(E1000EPPCore *c, RxFormat f, uint8_t *d,
                         size_t len, bool eop, const RxInfo *info)
{
    uint32_t status = RXD_STAT_DD | (eop ? RXD_STAT_EOP | info->status : 0);
    uint32_t errors = eop ? info->errors : 0;
    uint16_t vlan = eop && info->vp ? info->vlan : 0;

    if (f == RX_LEGACY) {
        put_le16(d + 8, (uint16_t)len);
        put_le16(d + 10, eop ? info->pkt_csum : 0);
        d[12] = (uint8_t)status;
        d[13] = (uint8_t)errors;
        put_le16(d + 14, vlan);
        return;
    }
    memset(d, 0, 16);
    if (eop) {
        if (REG(c, RXCSUM) & RXCSUM_PCSD) {
            put_le32(d, info->rss_type);
            put_le32(d + 4, info->rss_hash);
        } else {
            put_le16(d + 4, info->ip_id);
            put_le16(d + 6, info->pkt_csum);
        }
    }
    put_le32(d + 8, status | errors << RXDEXT_ERR_SHIFT);
    put_le16(d + 12, (uint16_t)len);
    put_le16(d + 14, vlan);
}

static uint64_t ring_base(E1000EPPCore *c)
{
    return (uint64_t)REG(c, RDBAH) << 32 | (REG(c, RDBAL) & ~0xfu);
}

static void ring_advance(E1000EPPCore *c, uint32_t n)
{
    uint32_t h = REG(c, RDH) + 1;

    REG(c, RDH) = h >= n ? 0 : h;
}

/* Legacy and extended: the frame fills ceil(len / bufsize) descriptors. */
static bool rx_fill_chained(E1000EPPCore *c, RxFormat f, const uint8_t *buf,
                            size_t total, const RxInfo *info)
{
    size_t bsize = rx_buf_size(c), done = 0;
    uint32_t n = ring_len(c, f);
    uint8_t d[16];

    while (done < total) {
        uint64_t daddr = ring_base(c) + (uint64_t)REG(c, RDH) * 16;
        size_t chunk = total - done < bsize ? total - done : bsize;
        bool eop = done + chunk == total;

        if (!e1000e_pp_dma_read(c, daddr, d, 16) ||
            !e1000e_pp_dma_write(c, get_le64(d), buf + done, chunk)) {
            return false;
        }
        rx_writeback(c, f, d, chunk, eop, info);
        if (!e1000e_pp_dma_write(c, daddr, d, 16)) {
            return false;
        }
        ring_advance(c, n);
        done += chunk;
    }
    return true;
}

/* §7.1.5 packet split: header in buffer 0, the rest in buffers 1-3. */
static size_t ps_buf_size(E1000EPPCore *c, unsigned i)
{
    uint32_t ps = REG(c, PSRCTL);

    if (i == 0) {
        return (ps & PSRCTL_BSIZE0_MASK) * 128;
    }
    return ((ps >> (8 * i)) & PSRCTL_BSIZE123_MASK) * 1024;
}

static bool rx_fill_split(E1000EPPCore *c, const uint8_t *buf, size_t total,
                          const RxInfo *info)
{
    uint32_t n = ring_len(c, RX_SPLIT);
    size_t done = 0;
    unsigned guard;

    /* Each pass consumes one descriptor; the ring size bounds the loop. */
    for (guard = 0; done < total && guard < n; guard++) {
        uint64_t daddr = ring_base(c) + (uint64_t)REG(c, RDH) * 32;
        uint8_t d[32];
        uint16_t lens[4] = { 0 };
        uint16_t hdr_status = 0;
        bool eop;
        unsigned i;

        if (!e1000e_pp_dma_read(c, daddr, d, 32)) {
            return false;
        }
        for (i = 0; i < 4 && done < total; i++) {
            size_t cap = ps_buf_size(c, i), chunk;

            if (i == 0 && done == 0 && info->hdr_len &&
                info->hdr_len <= cap && info->hdr_len < total) {
                /* The header goes alone into buffer 0. */
                chunk = info->hdr_len;
                hdr_status = RXDPS_HDRSTAT_HDRSP | (uint16_t)chunk;
            } else {
                chunk = total - done < cap ? total - done : cap;
            }
            if (!chunk) {
                continue;
            }
            if (!e1000e_pp_dma_write(c, get_le64(d + 8 * i), buf + done,
                                     chunk)) {
                return false;
            }
            lens[i] = (uint16_t)chunk;
            done += chunk;
        }
        eop = done == total;
        memset(d, 0, sizeof(d));
        if (eop) {
            if (REG(c, RXCSUM) & RXCSUM_PCSD) {
                put_le32(d, info->rss_type);
                put_le32(d + 4, info->rss_hash);
            } else {
                put_le16(d + 4, info->ip_id);
                put_le16(d + 6, info->pkt_csum);
            }
        }
        put_le32(d + 8, RXD_STAT_DD |
                 (eop ? RXD_STAT_EOP | info->status |
                  info->errors << RXDEXT_ERR_SHIFT : 0));
        put_le16(d + 12, lens[0]);
        put_le16(d + 14, eop && info->vp ? info->vlan : 0);
        put_le16(d + 16, hdr_status);
        put_le16(d + 18, lens[1]);
        put_le16(d + 20, lens[2]);
        put_le16(d + 22, lens[3]);
        if (!e1000e_pp_dma_write(c, daddr, d, 32)) {
            return false;
        }
        ring_advance(c, n);
    }
    return done == total;
}

static unsigned descriptors_needed(E1000EPPCore *c, RxFormat f, size_t total)
{
    size_t per = 0;
    unsigned i;

    if (f != RX_SPLIT) {
        per = rx_buf_size(c);
    } else {
        for (i = 0; i < 4; i++) {
            per += ps_buf_size(c, i);
        }
    }
    if (!per) {
        return UINT32_MAX;
    }
    return (unsigned)((total + per - 1) / per);
}

static void rx_check_threshold(E1000EPPCore *c, RxFormat f)
{
    unsigned rdmts = (REG(c, RCTL) & RCTL_RDMTS_MASK) >> RCTL_RDMTS_SHIFT;
    uint32_t n = ring_len(c, f);

    /* §7.1.4.x: RXDMT0 when free descriptors drop to 1/2, 1/4, 1/8. */
    if (rdmts < 3 && ring_free(c, f) <= (n >> (rdmts + 1))) {
        e1000e_pp_stat_inc(c, ICRXDMTC);
        e1000e_pp_raise(c, ICR_RXDMT0);
    }
}

bool e1000e_pp_receive(E1000EPPCore *c, const uint8_t *frame, size_t len)
{
    uint32_t rctl = REG(c, RCTL);
    RxFormat f = rx_format(c);
    uint8_t *buf = c->rxbuf;
    RxInfo info = { 0 };
    size_t wire_len, max, total;
    uint32_t fcs;
    unsigned need;

    if (!(rctl & RCTL_EN) || !e1000e_pp_link_up(c)) {
        rx_trace(c, len, 0, "receiver off");
        return true;
    }
    if (len < ETH_HLEN) {
        e1000e_pp_stat_inc(c, RUC);
        rx_trace(c, len, 0, "runt");
        return true;
    }
    /* A transmitting MAC pads to the minimum; netdev peers may not. */
    wire_len = (len < ETH_ZLEN ? ETH_ZLEN : len) + ETH_FCS_LEN;
    max = (rctl & RCTL_LPE) ? MAX_LONG_FRAME : MAX_STD_FRAME;
    if (get_be16(frame + 12) == REG(c, VET)) {
        max += VLAN_HLEN;
    }
    if (wire_len > max || wire_len > sizeof(c->rxbuf)) {
        e1000e_pp_stat_inc(c, ROC);
        rx_trace(c, len, 0, "oversize");
        return true;
    }
    if (!rx_address_match(c, frame)) {
        rx_trace(c, len, 0, "address filter");
        return true;
    }

    memcpy(buf, frame, len);
    if (len < ETH_ZLEN) {
        memset(buf + len, 0, ETH_ZLEN - len);
    }
    total = wire_len - ETH_FCS_LEN;
    fcs = e1000e_pp_crc32(buf, total);

    if (get_be16(buf + 12) == REG(c, VET) && total >= ETH_HLEN + VLAN_HLEN) {
        uint16_t tci = get_be16(buf + 14);
        if (!rx_vlan_match(c, tci)) {
            rx_trace(c, len, 0, "VLAN filter");
            return true;
        }
        if (REG(c, CTRL) & CTRL_VME) {
            /* §7.1.x: strip the tag into the descriptor, set VP. */
            info.vp = true;
            info.vlan = tci;
            info.status |= RXD_STAT_VP;
            memmove(buf + 2 * ETH_ALEN, buf + 2 * ETH_ALEN + VLAN_HLEN,
                    total - 2 * ETH_ALEN - VLAN_HLEN);
            total -= VLAN_HLEN;
        }
    }
    rx_parse(c, buf, total, &info);
    if (!(rctl & RCTL_SECRC)) {
        /* The frame's own FCS, least significant byte first (§7.1.x). */
        put_le32(buf + total, fcs);
        total += ETH_FCS_LEN;
    }

    need = descriptors_needed(c, f, total);
    if (ring_free(c, f) < need) {
        /* Not enough descriptors: the frame waits upstream (§7.1.4). */
        e1000e_pp_stat_inc(c, RNBC);
        rx_trace(c, len, need, "no descriptors");
        return false;
    }
    if (!(f == RX_SPLIT ? rx_fill_split(c, buf, total, &info) :
                          rx_fill_chained(c, f, buf, total, &info))) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, RDH,
                      "Rx DMA failed at RDH %u; frame dropped",
                      REG(c, RDH));
        rx_trace(c, len, need, "DMA error");
        return true;
    }
    e1000e_pp_stats_rx_good(c, buf, wire_len);
    rx_trace(c, len, need, "delivered");
    rx_check_threshold(c, f);
    e1000e_pp_rx_delay_start(c);
    return true;
}
