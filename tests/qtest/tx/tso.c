/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: TCP segmentation offload (82574L §7.3.6), IPv4 and IPv6.
 *
 * The driver side does what Linux's e1000_tso does: IPv4 total length
 * and header checksum zeroed (IPv6 payload length zeroed), the TCP
 * checksum seeded with the pseudo-header sum *without* the length, one
 * context descriptor (IPCSS/IPCSO/IPCSE, TUCSS/TUCSO, HDRLEN, MSS,
 * PAYLEN, TUCMD.TSE|TCP|IP) and data descriptors with DCMD.TSE.
 *
 * Every segment on the wire is checked byte for byte against a frame
 * built here from first principles: IP total length / payload length,
 * IPv4 ID = first ID + segment index, IPv4 header checksum, TCP sequence
 * number, TCP flags, TCP checksum over the pseudo-header with this
 * segment's length, and the payload bytes.
 *
 * TCP flags (82574L/82583V §7.3.6.2): FIN and PSH are cleared in every
 * frame but the last, where they are as the prototype header has them;
 * the datasheet lists no other flag change, so CWR (and every other flag)
 * is copied into every segment.  (Linux never hands e1000e a TSO packet
 * with CWR set: the driver does not claim NETIF_F_TSO_ECN.)
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "tx.h"

#define TCP_FIN     0x01
#define TCP_PSH     0x08
#define TCP_ACK     0x10
#define TCP_CWR     0x80

/* TCP header with the timestamp option (NOP, NOP, TS): 32 bytes */
#define TCP_HLEN    32
#define SEQ0        0xfffff000u     /* close to the 32-bit wrap on purpose */

typedef enum {
    LAYOUT_LINUX,           /* header + some payload, then 4 KiB chunks */
    LAYOUT_HEADER_SPLIT,    /* header split over two descriptors */
} TsoLayout;

typedef struct TsoCase {
    bool ipv6;
    uint16_t mss;
    uint32_t payload;
    uint16_t ip_id;
    TsoLayout layout;
} TsoCase;

static const uint8_t v4_src[4] = { 198, 18, 0, 2 };
static const uint8_t v4_dst[4] = { 198, 18, 0, 1 };
/* 2001:db8::2 -> 2001:db8::1 (documentation prefix) */
static const uint8_t v6_src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
static const uint8_t v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

/* Pseudo-header sum: addresses and protocol, plus `l4_len` */
static uint32_t pseudo_sum(bool ipv6, uint32_t l4_len)
{
    uint32_t sum;

    if (ipv6) {
        sum = epp_csum_add(0, v6_src, 16);
        sum = epp_csum_add(sum, v6_dst, 16);
    } else {
        sum = epp_csum_add(0, v4_src, 4);
        sum = epp_csum_add(sum, v4_dst, 4);
    }
    return sum + 6 + l4_len;
}

/*
 * The header the stack builds (true values everywhere) at `f`;
 * returns HDRLEN.
 */
static size_t build_header(uint8_t *f, const TsoCase *tc)
{
    size_t l3 = 14, l4 = l3 + (tc->ipv6 ? 40 : 20);
    uint8_t *ip = f + l3, *tcp = f + l4;

    epp_tx_eth_header(f, tc->ipv6 ? 0x86dd : 0x0800);
    if (tc->ipv6) {
        memset(ip, 0, 40);
        stl_be_p(ip, 0x60000000 | (0x2a << 20) | 0x12345);
        stw_be_p(ip + 4, TCP_HLEN + tc->payload);
        ip[6] = 6;
        ip[7] = 64;
        memcpy(ip + 8, v6_src, 16);
        memcpy(ip + 24, v6_dst, 16);
    } else {
        memset(ip, 0, 20);
        ip[0] = 0x45;
        ip[1] = 0x10;
        stw_be_p(ip + 2, 20 + TCP_HLEN + tc->payload);
        stw_be_p(ip + 4, tc->ip_id);
        stw_be_p(ip + 6, 0x4000);
        ip[8] = 64;
        ip[9] = 6;
        memcpy(ip + 12, v4_src, 4);
        memcpy(ip + 16, v4_dst, 4);
    }
    memset(tcp, 0, TCP_HLEN);
    stw_be_p(tcp, 43210);
    stw_be_p(tcp + 2, 5201);
    stl_be_p(tcp + 4, SEQ0);
    stl_be_p(tcp + 8, 0x00c0ffee);
    tcp[12] = (TCP_HLEN / 4) << 4;
    tcp[13] = TCP_CWR | TCP_ACK | TCP_PSH | TCP_FIN;
    stw_be_p(tcp + 14, 0x7fff);
    stw_be_p(tcp + 18, 0);
    tcp[20] = 1;                        /* NOP */
    tcp[21] = 1;                        /* NOP */
    tcp[22] = 8;                        /* timestamps */
    tcp[23] = 10;
    stl_be_p(tcp + 24, 0x11223344);
    stl_be_p(tcp + 28, 0x55667788);
    return l4 + TCP_HLEN;
}

/* What segment k must look like on the wire */
static size_t expected_segment(uint8_t *seg, const uint8_t *hdr,
                               size_t hdrlen, const uint8_t *payload,
                               const TsoCase *tc, uint32_t k, uint32_t nsegs,
                               bool stock)
{
    size_t l3 = 14, l4 = hdrlen - TCP_HLEN;
    uint32_t off = k * tc->mss;
    uint32_t p = MIN(tc->mss, tc->payload - off);
    uint8_t *tcp = seg + l4, flags;

    memcpy(seg, hdr, hdrlen);
    memcpy(seg + hdrlen, payload + off, p);
    if (tc->ipv6) {
        stw_be_p(seg + l3 + 4, TCP_HLEN + p);
    } else {
        stw_be_p(seg + l3 + 2, 20 + TCP_HLEN + p);
        stw_be_p(seg + l3 + 4, (uint16_t)(tc->ip_id + k));
        stw_be_p(seg + l3 + 10, 0);
        stw_be_p(seg + l3 + 10,
                 ~epp_csum_fold(epp_csum_add(0, seg + l3, 20)) & 0xffff);
    }
    stl_be_p(tcp + 4, SEQ0 + off);
    flags = tcp[13];
    if (k != nsegs - 1) {
        flags &= ~(TCP_FIN | TCP_PSH);
    }
    if (stock) {
        /*
         * stock e1000e (software segmentation in net_tx_pkt): CWR only
         * in the first segment, and FIN/PSH dropped from the last one too.
         */
        flags &= ~(TCP_FIN | TCP_PSH);
        if (k != 0) {
            flags &= ~TCP_CWR;
        }
    }
    tcp[13] = flags;
    stw_be_p(tcp + 16, 0);
    stw_be_p(tcp + 16,
             ~epp_csum_fold(epp_csum_add(pseudo_sum(tc->ipv6, TCP_HLEN + p),
                                         tcp, TCP_HLEN + p)) & 0xffff);
    return hdrlen + p;
}

static void run_tso(const char *model, const TsoCase *tc)
{
    EppDev *d = epp_start(model, NULL);
    size_t hdrlen, l4, total, seglen, pos, chunk;
    uint32_t nsegs = DIV_ROUND_UP(tc->payload, tc->mss), k, dcmd, popts;
    g_autofree uint8_t *pkt = g_malloc(128 + tc->payload);
    g_autofree uint8_t *hdr = g_malloc(128);
    g_autofree uint8_t *seg = g_malloc(128 + tc->mss);
    uint8_t desc[EPP_DESC_LEN], wb[EPP_DESC_LEN];
    uint64_t g;
    uint32_t last_idx = 0, first_idx;
    size_t cuts[8], ncuts = 0, i;

    g_test_message("TSO %s MSS %u, %u payload bytes -> %u segments",
                   tc->ipv6 ? "IPv6" : "IPv4", tc->mss, tc->payload, nsegs);

    /* Given: a device up; the packet the stack hands over */
    epp_bring_up(d, &epp_default_config);
    hdrlen = build_header(hdr, tc);
    l4 = hdrlen - TCP_HLEN;
    total = hdrlen + tc->payload;
    memcpy(pkt, hdr, hdrlen);
    epp_fill_pattern(pkt + hdrlen, tc->payload, tc->mss & 0xff);

    /* ... prepared as Linux's e1000_tso prepares it */
    if (tc->ipv6) {
        stw_be_p(pkt + 14 + 4, 0);
    } else {
        stw_be_p(pkt + 14 + 2, 0);
        stw_be_p(pkt + 14 + 10, 0);
    }
    stw_be_p(pkt + l4 + 16, epp_csum_fold(pseudo_sum(tc->ipv6, 0)));
    g = epp_alloc(d, total);
    epp_memwrite(d, g, pkt, total);

    /*
     * When: one context descriptor (TUCMD TSE|TCP, plus IP for IPv4;
     * IPCSE is the last IP header byte for IPv4, 0 for IPv6 as Linux
     * writes it) ...
     */
    txd_context_tso(desc, 14, 14 + 10, tc->ipv6 ? 0 : l4 - 1, l4, l4 + 16,
                    0, tc->payload,
                    TXD_CTX_TUCMD_TSE | TXD_CTX_TUCMD_TCP |
                    (tc->ipv6 ? 0 : TXD_CTX_TUCMD_IP), hdrlen, tc->mss);
    first_idx = epp_tx_write(d, desc);

    /* ... and data descriptors with DCMD.TSE, cut as the layout says */
    if (tc->layout == LAYOUT_HEADER_SPLIT) {
        cuts[ncuts++] = 40;
        cuts[ncuts++] = hdrlen + 10;
    } else {
        cuts[ncuts++] = hdrlen + MIN(tc->payload, 1000);
    }
    for (pos = cuts[ncuts - 1]; pos + 4096 < total && ncuts < 7;) {
        pos += 4096;
        cuts[ncuts++] = pos;
    }
    cuts[ncuts++] = total;
    dcmd = TXD_CMD_TSE | TXD_CMD_IFCS;
    popts = TXD_POPTS_TXSM | (tc->ipv6 ? 0 : TXD_POPTS_IXSM);
    for (i = 0, pos = 0; i < ncuts; i++) {
        bool last = i == ncuts - 1;

        g_assert_cmpuint(cuts[i], >, pos);
        chunk = cuts[i] - pos;
        epp_txd_data(desc, g + pos, chunk,
                     dcmd | (last ? TXD_CMD_EOP | TXD_CMD_RS : 0),
                     popts);
        last_idx = epp_tx_write(d, desc);
        pos = cuts[i];
    }
    epp_tx_kick(d);
    epp_tx_wait_done(d);

    /* Then: every segment byte for byte, and nothing else */
    for (k = 0; k < nsegs; k++) {
        g_autofree char *what = g_strdup_printf("segment %u of %u", k + 1,
                                                nsegs);

        seglen = expected_segment(seg, hdr, hdrlen, pkt + hdrlen, tc, k,
                                  nsegs, epp_is_stock(model));
        epp_expect_frame(d, seg, seglen, what);
    }
    epp_expect_wire_idle(d);

    /*
     * Then: one good packet counted per segment on the wire (stock
     * e1000e: one per TSO packet); DD on the RS descriptor only.
     */
    EPP_EXPECT_REG(d, GPTC, 0xffffffff, epp_is_stock(model) ? 1 : nsegs);
    /* TSCTC counts TSO transmissions (one here), not segments. */
    EPP_EXPECT_REG(d, TSCTC, 0xffffffff, 1);
    epp_tx_desc(d, last_idx, wb);
    g_assert_cmphex(wb[12] & TXD_STA_DD, ==, TXD_STA_DD);
    epp_tx_desc(d, first_idx, wb);
    g_assert_cmphex(wb[12] & TXD_STA_DD, ==, 0);
    epp_stop(d);
}

static void tso_ipv4_mss_536(const char *model)
{
    TsoCase tc = { false, 536, 3000, 0x1234, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static void tso_ipv4_mss_1448(const char *model)
{
    TsoCase tc = { false, 1448, 9000, 0x0100, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static void tso_ipv4_mss_1460(const char *model)
{
    TsoCase tc = { false, 1460, 4000, 0xabcd, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static void tso_ipv4_mss_8000_jumbo(const char *model)
{
    TsoCase tc = { false, 8000, 9000, 0x4242, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static void tso_ipv4_ip_id_wraps(const char *model)
{
    /* IDs 0xfffe, 0xffff, 0x0000, 0x0001: the ID is a 16-bit counter */
    TsoCase tc = { false, 1000, 3500, 0xfffe, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static void tso_ipv4_header_split_across_descriptors(const char *model)
{
    /* HDRLEN bytes arrive in two descriptors, 40 + 26 */
    TsoCase tc = { false, 1448, 5000, 0x0a0a, LAYOUT_HEADER_SPLIT };

    run_tso(model, &tc);
}

static void tso_ipv6_mss_536(const char *model)
{
    TsoCase tc = { true, 536, 3000, 0, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static void tso_ipv6_mss_1440(const char *model)
{
    TsoCase tc = { true, 1440, 9000, 0, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static void tso_ipv6_mss_8000_jumbo(const char *model)
{
    TsoCase tc = { true, 8000, 9000, 0, LAYOUT_HEADER_SPLIT };

    run_tso(model, &tc);
}

static void tso_payload_multiple_of_mss(const char *model)
{
    /* 4 x 1448: the last segment is full; no empty fifth segment */
    TsoCase tc = { false, 1448, 4 * 1448, 0x7777, LAYOUT_LINUX };

    run_tso(model, &tc);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(tso_ipv4_mss_536),
    EPP_SCENARIO(tso_ipv4_mss_1448),
    EPP_SCENARIO(tso_ipv4_mss_1460),
    EPP_SCENARIO(tso_ipv4_mss_8000_jumbo),
    EPP_SCENARIO(tso_ipv4_ip_id_wraps),
    EPP_SCENARIO(tso_ipv4_header_split_across_descriptors),
    EPP_SCENARIO(tso_ipv6_mss_536),
    EPP_SCENARIO(tso_ipv6_mss_1440),
    EPP_SCENARIO(tso_ipv6_mss_8000_jumbo),
    EPP_SCENARIO(tso_payload_multiple_of_mss),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
