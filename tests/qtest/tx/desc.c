/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: the transmit descriptor forms (82574L §7.2.10), checksum
 * insertion at context-given offsets (§7.2.5), VLAN insertion, short
 * packet padding.  The ring rules are in ring.c.
 * Given/when/then against the 82574L datasheet; see lib/e1000e-pp-scenario.h.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "tx.h"

/* Legacy descriptor dword 2: CSO in bits 23:16; dword 3: CSS in 15:8 */
#define LEGACY_CSO_SHIFT    16
#define LEGACY_CSS_SHIFT    8
/* Legacy/data descriptor dword 3: VLAN ("special") in bits 31:16 */
#define TXD_VLAN_SHIFT      16

#define IPPROTO_TCP_NUM     6
#define IPPROTO_UDP_NUM     17

/* 198.18.0.2 (guest) -> 198.18.0.1 (peer), see common contracts */
static const uint8_t ip_src[4] = { 198, 18, 0, 2 };
static const uint8_t ip_dst[4] = { 198, 18, 0, 1 };

/*
 * An IPv4 header at `ip`: IHL words (5 or more, options filled with
 * NOPs), total length, the given protocol, checksum left 0.
 */
static void ipv4_header(uint8_t *ip, unsigned ihl, uint16_t total_len,
                        uint8_t proto, uint16_t id)
{
    memset(ip, 0, ihl * 4);
    ip[0] = 0x40 | ihl;
    stw_be_p(ip + 2, total_len);
    stw_be_p(ip + 4, id);
    stw_be_p(ip + 6, 0x4000);           /* DF */
    ip[8] = 64;
    ip[9] = proto;
    memcpy(ip + 12, ip_src, 4);
    memcpy(ip + 16, ip_dst, 4);
    memset(ip + 20, 0x01, (ihl - 5) * 4);
}

static uint16_t ipv4_checksum(const uint8_t *ip, size_t hlen)
{
    return ~epp_csum_fold(epp_csum_add(0, ip, hlen)) & 0xffff;
}

/* Pseudo-header sum (RFC 768/793) with the L4 length */
static uint32_t pseudo_sum_v4(uint8_t proto, uint16_t l4_len)
{
    uint32_t sum = epp_csum_add(0, ip_src, 4);

    sum = epp_csum_add(sum, ip_dst, 4);
    return sum + proto + l4_len;
}

/* The complete L4 checksum of l4[0..len) with its checksum field zero */
static uint16_t l4_checksum_v4(const uint8_t *l4, size_t len, size_t csum_at,
                               uint8_t proto)
{
    g_autofree uint8_t *tmp = g_memdup2(l4, len);

    stw_be_p(tmp + csum_at, 0);
    return ~epp_csum_fold(epp_csum_add(pseudo_sum_v4(proto, len), tmp, len))
           & 0xffff;
}

/*
 * An IPv4/UDP frame as the stack hands it over for checksum offload:
 * IP header checksum 0, UDP checksum field seeded with the pseudo-header
 * sum (length included).  `want` gets the frame with both checksums.
 */
static size_t udp_frame(uint8_t *f, uint8_t *want, unsigned ihl,
                        size_t payload, uint8_t seed)
{
    size_t l3 = 14, l4 = l3 + ihl * 4, len = l4 + 8 + payload;
    uint16_t ulen = 8 + payload;

    epp_tx_eth_header(f, 0x0800);
    ipv4_header(f + l3, ihl, ihl * 4 + ulen, IPPROTO_UDP_NUM, 0x1111);
    stw_be_p(f + l4, 49152);
    stw_be_p(f + l4 + 2, 7777);
    stw_be_p(f + l4 + 4, ulen);
    stw_be_p(f + l4 + 6, 0);
    epp_fill_pattern(f + l4 + 8, payload, seed);

    memcpy(want, f, len);
    stw_be_p(want + l3 + 10, ipv4_checksum(f + l3, ihl * 4));
    stw_be_p(want + l4 + 6,
             l4_checksum_v4(f + l4, ulen, 6, IPPROTO_UDP_NUM));
    g_assert_cmphex(lduw_be_p(want + l4 + 6), !=, 0);

    stw_be_p(f + l4 + 6,
             epp_csum_fold(pseudo_sum_v4(IPPROTO_UDP_NUM, ulen)));
    return len;
}

/* ---------------------------------------------------------------- */
/* Descriptor forms                                                 */
/* ---------------------------------------------------------------- */

static void tx_legacy_ic_inserts_checksum_at_cso(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t f[300], want[300], desc[3][EPP_DESC_LEN];
    size_t len;
    uint64_t g;
    uint32_t cmd = TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS | TXD_CMD_IC;

    /* Given: a device up; an IPv4/UDP frame with its IP checksum done */
    epp_bring_up(d, &epp_default_config);
    len = udp_frame(f, want, 5, 200, 0x31);
    stw_be_p(f + 24, lduw_be_p(want + 24));
    g = put_guest(d, f, len);

    /*
     * When: one legacy descriptor with IC, CSS = 34 (UDP header),
     * CSO = 40 (UDP checksum): §7.2.10.1, the sum runs from CSS to the
     * end of the packet and lands at CSO.
     */
    epp_txd_legacy(desc[0], g, len, cmd | (40 << LEGACY_CSO_SHIFT));
    stl_le_p(desc[0] + 12, 34 << LEGACY_CSS_SHIFT);
    push_all(d, desc, 1);
    if (epp_on_stock(model, "legacy IC is ignored: the seeded checksum field "
                 "goes out as the guest wrote it")) {
        epp_expect_frame(d, f, len, "legacy IC, one descriptor");
        memcpy(want, f, len);
    } else {
        /* Then: the UDP checksum is filled in, nothing else changed */
        epp_expect_frame(d, want, len, "legacy IC, one descriptor");
    }

    /* When: the same packet over two descriptors, same CSO/CSS/IC on both */
    epp_txd_legacy(desc[1], g, 50,
                   (cmd & ~(TXD_CMD_EOP | TXD_CMD_RS)) |
                   (40 << LEGACY_CSO_SHIFT));
    stl_le_p(desc[1] + 12, 34 << LEGACY_CSS_SHIFT);
    epp_txd_legacy(desc[2], g + 50, len - 50,
                   cmd | (40 << LEGACY_CSO_SHIFT));
    stl_le_p(desc[2] + 12, 34 << LEGACY_CSS_SHIFT);
    push_all(d, desc + 1, 2);

    /* Then: the same bytes */
    epp_expect_frame(d, want, len, "legacy IC, two descriptors");

    /* When: IC is clear; Then: the seeded field goes out untouched */
    epp_txd_legacy(desc[0], g, len,
                   (cmd & ~TXD_CMD_IC) | (40 << LEGACY_CSO_SHIFT));
    stl_le_p(desc[0] + 12, 34 << LEGACY_CSS_SHIFT);
    push_all(d, desc, 1);
    epp_expect_frame(d, f, len, "legacy without IC");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

static void tx_context_then_data_offsets_from_context(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { L3 = 18, L4 = L3 + 20, PAY = 333, TCPLEN = 20 + PAY,
           LEN = L4 + TCPLEN };
    uint8_t f[LEN], want[LEN], desc[4][EPP_DESC_LEN];
    uint64_t g;

    /* Given: an 802.1Q-tagged IPv4/TCP frame: IP at 18, TCP at 38 */
    epp_bring_up(d, &epp_default_config);
    epp_tx_eth_header(f, 0x8100);
    stw_be_p(f + 14, 0x0005);
    stw_be_p(f + 16, 0x0800);
    ipv4_header(f + L3, 5, 20 + TCPLEN, IPPROTO_TCP_NUM, 0x2222);
    memset(f + L4, 0, 20);
    stw_be_p(f + L4, 40000);
    stw_be_p(f + L4 + 2, 5201);
    stl_be_p(f + L4 + 4, 0x01020304);
    stl_be_p(f + L4 + 8, 0x0a0b0c0d);
    f[L4 + 12] = 5 << 4;
    f[L4 + 13] = 0x18;                  /* ACK|PSH */
    stw_be_p(f + L4 + 14, 502);
    epp_fill_pattern(f + L4 + 20, PAY, 0x77);

    memcpy(want, f, LEN);
    stw_be_p(want + L3 + 10, ipv4_checksum(f + L3, 20));
    stw_be_p(want + L4 + 16,
             l4_checksum_v4(f + L4, TCPLEN, 16, IPPROTO_TCP_NUM));
    /* CHECKSUM_PARTIAL: the TCP field holds the pseudo-header sum */
    stw_be_p(f + L4 + 16,
             epp_csum_fold(pseudo_sum_v4(IPPROTO_TCP_NUM, TCPLEN)));
    g = put_guest(d, f, LEN);

    /*
     * When: context IPCSS 18, IPCSO 28, IPCSE 37, TUCSS 38, TUCSO 54,
     * TUCSE 0 (to the end), TUCMD IP|TCP; then three data descriptors
     * with IXSM|TXSM, split inside the TCP header and the payload.
     */
    txd_context_tso(desc[0], L3, L3 + 10, L4 - 1, L4, L4 + 16, 0, 0,
                    TXD_CTX_TUCMD_IP | TXD_CTX_TUCMD_TCP, 0, 0);
    epp_txd_data(desc[1], g, L4 + 7, TXD_CMD_IFCS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    epp_txd_data(desc[2], g + L4 + 7, 100, TXD_CMD_IFCS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    epp_txd_data(desc[3], g + L4 + 107, LEN - L4 - 107,
                 TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    push_all(d, desc, 4);

    /* Then: both checksums at the context's offsets */
    epp_expect_frame(d, want, LEN, "VLAN-tagged IPv4/TCP, csum offload");

    /*
     * When: the same data again, now with TXSM only (no new context:
     * the context stays in force); Then: the IP checksum stays 0.
     */
    stw_be_p(want + L3 + 10, 0);
    epp_txd_data(desc[1], g, LEN, TXD_CMD_EOP | TXD_CMD_IFCS |
                 TXD_CMD_RS, TXD_POPTS_TXSM);
    push_all(d, desc + 1, 1);
    epp_expect_frame(d, want, LEN, "TXSM only, context reused");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

static void tx_context_tucse_limits_checksum(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { PAY = 101, TRAILER = 13 };
    uint8_t f[256], want[256], desc[2][EPP_DESC_LEN];
    size_t len, ulen = 8 + PAY;
    uint64_t g;

    /*
     * Given: an IPv4/UDP frame followed by 13 trailer bytes that belong
     * to no header (as after a short IP datagram); the UDP checksum must
     * cover the datagram only.
     */
    epp_bring_up(d, &epp_default_config);
    len = udp_frame(f, want, 5, PAY, 0x52);
    epp_fill_pattern(f + len, TRAILER, 0xe0);
    memcpy(want + len, f + len, TRAILER);

    /*
     * When: context TUCSE = 34 + 109 - 1 = 142 (last byte of the UDP
     * datagram, inclusive) and IPCSE = 33; data with IXSM|TXSM.
     */
    g = put_guest(d, f, len + TRAILER);
    txd_context_tso(desc[0], 14, 24, 33, 34, 40, 34 + ulen - 1, 0,
                    TXD_CTX_TUCMD_IP, 0, 0);
    epp_txd_data(desc[1], g, len + TRAILER,
                 TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    push_all(d, desc, 2);
    if (epp_on_stock(model, "TUCSE is ignored: the UDP checksum runs to the "
                 "end of the frame, trailer included")) {
        /*
         * As if the trailer were part of the datagram: the pseudo-header
         * length too is everything from TUCSS to the last byte
         */
        stw_be_p(want + 34 + 6, l4_checksum_v4(f + 34, len + TRAILER - 34, 6,
                                               IPPROTO_UDP_NUM));
    }

    /* Then: checksums as if the trailer were absent; trailer sent as is */
    epp_expect_frame(d, want, len + TRAILER, "UDP with TUCSE before the end");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

static void tx_context_udp_ipv4_with_options(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t f[512], want[512], desc[3][EPP_DESC_LEN];
    size_t len;
    uint64_t g;

    /* Given: IPv4 with 8 bytes of options (IHL 7): UDP starts at 42 */
    epp_bring_up(d, &epp_default_config);
    len = udp_frame(f, want, 7, 400, 0x13);
    g = put_guest(d, f, len);

    /* When: IPCSS 14, IPCSO 24, IPCSE 41; TUCSS 42, TUCSO 48, TUCSE 0 */
    txd_context_tso(desc[0], 14, 24, 41, 42, 48, 0, 0, TXD_CTX_TUCMD_IP,
                    0, 0);
    epp_txd_data(desc[1], g, 42, TXD_CMD_IFCS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    epp_txd_data(desc[2], g + 42, len - 42,
                 TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS,
                 TXD_POPTS_IXSM | TXD_POPTS_TXSM);
    push_all(d, desc, 3);

    /* Then: the IP checksum covers the options, UDP the whole datagram */
    epp_expect_frame(d, want, len, "IPv4 with options + UDP");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

static void tx_data_without_context_sent_as_is(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t f[400], want[400], desc[3][EPP_DESC_LEN];
    size_t len;
    uint64_t g;

    /* Given: a device fresh from reset (no context loaded yet) */
    epp_bring_up(d, &epp_default_config);
    len = udp_frame(f, want, 5, 300, 0x99);
    g = put_guest(d, f, len);

    /* When: a data descriptor without POPTS */
    epp_txd_data(desc[0], g, len,
                 TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS, 0);
    push_all(d, desc, 1);

    /* Then: the bytes go out as they are in memory */
    epp_expect_frame(d, f, len, "data descriptor, no context");

    /*
     * When: a context is loaded, but the next data descriptors carry no
     * POPTS; Then: still no checksum is touched.
     */
    txd_context_tso(desc[0], 14, 24, 33, 34, 40, 0, 0, TXD_CTX_TUCMD_IP,
                    0, 0);
    epp_txd_data(desc[1], g, 100, TXD_CMD_IFCS, 0);
    epp_txd_data(desc[2], g + 100, len - 100,
                 TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS, 0);
    push_all(d, desc, 3);
    epp_expect_frame(d, f, len, "context loaded, POPTS clear");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

/* ---------------------------------------------------------------- */
/* VLAN insertion and padding                                       */
/* ---------------------------------------------------------------- */

/* want = f with a 4-byte tag (tpid, tci) after the two addresses */
static void tagged(uint8_t *want, const uint8_t *f, size_t len,
                   uint16_t tpid, uint16_t tci)
{
    memcpy(want, f, 12);
    stw_be_p(want + 12, tpid);
    stw_be_p(want + 14, tci);
    memcpy(want + 16, f + 12, len - 12);
}

static void tx_vlan_insertion_vle_vme_vet(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 100 };
    uint8_t f[LEN], want[LEN + 4], desc[2][EPP_DESC_LEN];
    uint32_t cmd = TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS | TXD_CMD_VLE;
    uint64_t g;

    /* Given: a device up, VET at its reset value 0x8100 (§10.2.2.9) */
    epp_bring_up(d, &epp_default_config);
    if (epp_is_stock(model)) {
        /* stock e1000e: VET resets to 0; the driver never writes it */
        EPP_EXPECT_REG(d, VET, 0xffff, 0);
        epp_wr(d, VET, 0x8100);
    }
    EPP_EXPECT_REG(d, VET, 0xffff, 0x8100);
    epp_tx_eth_header(f, 0x88b5);
    epp_fill_pattern(f + 14, LEN - 14, 0x21);
    g = put_guest(d, f, LEN);

    /* When: CTRL.VME is clear and a legacy descriptor asks for VLE */
    epp_txd_legacy(desc[0], g, LEN, cmd);
    stl_le_p(desc[0] + 12, 0x2123u << TXD_VLAN_SHIFT);
    push_all(d, desc, 1);
    /* Then: no tag: §7.2.10.1, VLE is honoured only with CTRL.VME */
    epp_expect_frame(d, f, LEN, "VLE without CTRL.VME");

    /* When: CTRL.VME is set; Then: tag 0x8100 / 0x2123 after the MACs */
    epp_wr(d, CTRL, epp_rd(d, CTRL) | CTRL_VME);
    push_all(d, desc, 1);
    tagged(want, f, LEN, 0x8100, 0x2123);
    epp_expect_frame(d, want, LEN + 4, "legacy VLE, VET 0x8100");

    /* When: VET is 0x88a8 and a data descriptor carries VLE */
    epp_wr(d, VET, 0x88a8);
    epp_txd_data(desc[1], g, LEN, cmd, 0);
    stl_le_p(desc[1] + 12, 0xe00fu << TXD_VLAN_SHIFT);
    push_all(d, desc + 1, 1);
    /* Then: the tag uses VET as its type and the descriptor's TCI */
    tagged(want, f, LEN, 0x88a8, 0xe00f);
    epp_expect_frame(d, want, LEN + 4, "data VLE, VET 0x88a8");

    /* When: VLE is clear; Then: no tag even with CTRL.VME */
    epp_txd_legacy(desc[0], g, LEN, cmd & ~TXD_CMD_VLE);
    stl_le_p(desc[0] + 12, 0x2123u << TXD_VLAN_SHIFT);
    push_all(d, desc, 1);
    epp_expect_frame(d, f, LEN, "VLE clear, CTRL.VME set");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

static void tx_psp_pads_short_frames(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 42 };
    uint8_t f[LEN], want[60], desc[1][EPP_DESC_LEN];
    uint32_t tctl;
    uint64_t g;

    /* Given: a device up with TCTL.PSP (bring-up sets it); a 42-byte ARP */
    epp_bring_up(d, &epp_default_config);
    tctl = epp_rd(d, TCTL);
    g_assert_cmphex(tctl & TCTL_PSP, ==, TCTL_PSP);
    epp_tx_eth_header(f, 0x0806);
    epp_fill_pattern(f + 14, LEN - 14, 0x44);
    g = put_guest(d, f, LEN);

    /* When: it is sent */
    epp_txd_legacy(desc[0], g, LEN,
                   TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
    push_all(d, desc, 1);
    if (epp_on_stock(model, "TCTL.PSP is ignored: a 42-byte frame goes out "
                 "unpadded")) {
        epp_expect_frame(d, f, LEN, "42 bytes with PSP");
    } else {
        /* Then: padded with zeros to 60 bytes (64 with the FCS) */
        memset(want, 0, sizeof(want));
        memcpy(want, f, LEN);
        epp_expect_frame(d, want, 60, "42 bytes with PSP");
    }

    /* When: PSP is clear; Then: the frame goes out at its own length */
    epp_wr(d, TCTL, tctl & ~TCTL_PSP);
    push_all(d, desc, 1);
    epp_expect_frame(d, f, LEN, "42 bytes without PSP");
    epp_expect_wire_idle(d);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(tx_legacy_ic_inserts_checksum_at_cso),
    EPP_SCENARIO(tx_context_then_data_offsets_from_context),
    EPP_SCENARIO(tx_context_tucse_limits_checksum),
    EPP_SCENARIO(tx_context_udp_ipv4_with_options),
    EPP_SCENARIO(tx_data_without_context_sent_as_is),
    EPP_SCENARIO(tx_vlan_insertion_vle_vme_vet),
    EPP_SCENARIO(tx_psp_pads_short_frames),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
