/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the receive path reads out of a frame (82574L §7.1.1-7.1.7): the
 * destination address and VLAN filters, and the L3/L4 parse that yields
 * checksum status (RXCSUM), the IP ID, the packet checksum and the RSS
 * hash for the EOP descriptor.
 */
#include <string.h>

#include "common.h"
#include "eth.h"
#include "rxdesc.h"
#include "rxparse.h"


/* RSS types reported in the write-back MRQ field (§7.1.6.1). */
#define RSS_TYPE_TCPV4  1
#define RSS_TYPE_IPV4   2
#define RSS_TYPE_TCPV6  3
#define RSS_TYPE_IPV6   5

bool e1000e_pp_rx_address_match(E1000EPPCore *c, const uint8_t *da)
{
    uint32_t rctl = REG(c, RCTL);
    unsigned i;

    if (eth_is_broadcast(da)) {
        return rctl & (RCTL_BAM | RCTL_MPE | RCTL_UPE);
    }
    if (da[0] & 1) {
        /* RCTL.MO picks address bits 47:36, 46:35, 45:34 or 43:32. */
        static const unsigned shift[4] = { 4, 3, 2, 0 };
        unsigned sh = shift[(rctl & RCTL_MO_MASK) >> RCTL_MO_SHIFT];
        uint16_t hash;

        if (rctl & RCTL_MPE) {
            return true;
        }
        /* §7.1.1.2: those 12 bits of the address pick one MTA bit. */
        hash = (uint16_t)((da[4] >> sh) | (da[5] << (8 - sh)));
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

bool e1000e_pp_rx_vlan_match(E1000EPPCore *c, uint16_t tci)
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

static void rss_set(E1000EPPCore *c, E1000EPPRxInfo *info, uint8_t type,
                    const uint8_t *addrs, size_t alen, const uint8_t *ports)
{
    uint8_t in[36];

    memcpy(in, addrs, alen);
    if (ports) {
        memcpy(in + alen, ports, 4);
        alen += 4;
    }
    info->rss_type = type;
    info->rss_hash = rss_toeplitz(c, in, alen);
}

/*
 * Parse the frame as it arrived (a VLAN tag may still be in it).
 * strip_off is 4 when the tag will be stripped, so RXCSUM.PCSS counts
 * from the frame as the host will see it.
 */
void e1000e_pp_rx_parse(E1000EPPCore *c, const uint8_t *f, size_t len,
                        size_t strip_off, E1000EPPRxInfo *info)
{
    uint32_t rxcsum = REG(c, RXCSUM), mrqc = REG(c, MRQC);
    bool legacy = e1000e_pp_rx_format(c) == RX_LEGACY;
    /*
     * The hash is computed for the field types MRQC enables whatever
     * MRQC.MRQE says: MRQE only picks queues (docs/fidelity.md; Linux's
     * e1000e_setup_rss_hash writes 0x00370000 and reads the hash back).
     * It is only worth computing where a descriptor reports it.
     */
    bool rss = (mrqc & MRQC_FIELDS) && (rxcsum & RXCSUM_PCSD) && !legacy;
    size_t l3 = ETH_HLEN, l4, l4len, iphl, pcss = rxcsum & 0xff;
    uint32_t pseudo;
    uint16_t type;
    uint8_t proto;
    bool v4;

    type = get_be16(f + 12);
    if (type == (REG(c, VET) & 0xffff) && len >= ETH_HLEN + VLAN_HLEN) {
        type = get_be16(f + 16);
        l3 += VLAN_HLEN;
    }
    /*
     * Packet checksum from RXCSUM.PCSS to the end of the frame as the
     * host gets it, a stripped VLAN tag excluded (§7.1.7), only where a
     * descriptor carries it: legacy, or extended without PCSD.
     */
    if (legacy || !(rxcsum & RXCSUM_PCSD)) {
        uint32_t sum = 0, rest;
        bool odd = false;

        if (strip_off && pcss < 12) {
            sum = e1000e_pp_csum_add(0, f + pcss, 12 - pcss);
            odd = (12 - pcss) & 1;
            pcss = 12;
        }
        pcss += strip_off;
        if (pcss < len) {
            rest = e1000e_pp_csum_fold(e1000e_pp_csum_add(0, f + pcss,
                                                          len - pcss));
            /* After an odd number of bytes the pairing swaps (RFC 1071). */
            sum += odd ? (uint16_t)(rest << 8 | rest >> 8) : rest;
        }
        info->pkt_csum = e1000e_pp_csum_fold(sum);
    }

    if (type == 0x0800 && len >= l3 + 20 && (f[l3] >> 4) == 4) {
        uint16_t totlen = get_be16(f + l3 + 2);

        iphl = (f[l3] & 0xf) * 4;
        if (iphl < 20 || totlen < iphl || len < l3 + totlen) {
            return;
        }
        v4 = true;
        info->ip_id = get_be16(f + l3 + 4);
        info->hdr_len = (uint16_t)(l3 - strip_off + iphl);
        if (rxcsum & RXCSUM_IPOFL) {
            info->status |= RXD_STAT_IPCS;
            if (e1000e_pp_csum_fold(e1000e_pp_csum_add(0, f + l3, iphl)) !=
                0xffff) {
                info->errors |= RXD_ERR_IPE;
            }
        }
        if (rss && (mrqc & MRQC_IPV4)) {
            rss_set(c, info, RSS_TYPE_IPV4, f + l3 + 12, 8, NULL);
        }
        /* A fragment carries no checkable L4 header. */
        if (get_be16(f + l3 + 6) & 0x3fff) {
            return;
        }
        proto = f[l3 + 9];
        l4 = l3 + iphl;
        l4len = totlen - iphl;
        pseudo = e1000e_pp_csum_add(0, f + l3 + 12, 8);
    } else if (type == 0x86dd && len >= l3 + 40 && (f[l3] >> 4) == 6) {
        uint16_t paylen = get_be16(f + l3 + 4);

        if (len < l3 + 40 + paylen) {
            return;
        }
        v4 = false;
        proto = f[l3 + 6];
        l4 = l3 + 40;
        l4len = paylen;
        info->hdr_len = (uint16_t)(l4 - strip_off);
        if (rss && (mrqc & (MRQC_IPV6 | MRQC_IPV6EX))) {
            rss_set(c, info, RSS_TYPE_IPV6, f + l3 + 8, 32, NULL);
        }
        pseudo = e1000e_pp_csum_add(0, f + l3 + 8, 32);
    } else {
        return;
    }
    pseudo += proto + (uint32_t)l4len;

    if (proto == 6 && l4len >= 20) {
        info->hdr_len = (uint16_t)(l4 - strip_off + (f[l4 + 12] >> 4) * 4);
        if (rss && (mrqc & (v4 ? MRQC_TCPIPV4 :
                                 MRQC_TCPIPV6 | MRQC_TCPIPV6EX))) {
            rss_set(c, info, v4 ? RSS_TYPE_TCPV4 : RSS_TYPE_TCPV6,
                    f + l3 + (v4 ? 12 : 8), v4 ? 8 : 32, f + l4);
        }
        if (rxcsum & RXCSUM_TUOFL) {
            info->status |= RXD_STAT_TCPCS;
            if (!l4_csum_ok(f + l4, l4len, pseudo)) {
                info->errors |= RXD_ERR_TCPE;
            }
        }
    } else if (proto == 17 && l4len >= 8) {
        info->hdr_len = (uint16_t)(l4 - strip_off + 8);
        /* Over IPv4 a zero UDP checksum means "not computed". */
        if ((rxcsum & RXCSUM_TUOFL) && (!v4 || get_be16(f + l4 + 6))) {
            info->status |= RXD_STAT_TCPCS | RXD_STAT_UDPCS;
            if (!l4_csum_ok(f + l4, l4len, pseudo)) {
                info->errors |= RXD_ERR_TCPE;
            }
        }
    }
}
