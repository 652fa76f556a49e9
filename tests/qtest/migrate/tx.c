/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Migration of a Tx ring walk stopped in the middle of a TSO packet
 * (82574L §7.3.6): the context descriptor and the first data descriptor
 * handed over, one segment sent, half of the next gathered on chip;
 * the rest handed over after the migration. Every segment on the wire
 * must be what the run without migration sends.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-migrate.h"
#include "e1000e-pp-scenario.h"

/* IPv4 + TCP, no options: 14 + 20 + 20 bytes of header */
#define HDRLEN          54
#define MSS             1000
#define PAYLOAD         4000
#define SEGMENTS        (PAYLOAD / MSS)
/* The first data descriptor: the header and 1.5 segments of payload */
#define FIRST_CUT       (HDRLEN + 1500)
#define SEG_LEN         (HDRLEN + MSS)

typedef struct TxSeen {
    uint8_t frame[SEGMENTS][4096];
    size_t len[SEGMENTS];
    unsigned frames;
    uint8_t last_desc[EPP_DESC_LEN];
    uint32_t tdh;
} TxSeen;

/* An IPv4/TCP prototype header as Linux hands it to a TSO driver. */
static void tso_packet(uint8_t *pkt)
{
    memset(pkt, 0, HDRLEN);
    epp_tx_eth_header(pkt, 0x0800);
    pkt[14] = 0x45;                         /* IPv4, IHL 5 */
    pkt[14 + 8] = 64;                       /* TTL */
    pkt[14 + 9] = 6;                        /* TCP */
    stw_be_p(pkt + 14 + 4, 0x1234);         /* IP ID */
    pkt[14 + 12] = 198;                     /* 198.18.0.2 -> 198.18.0.1 */
    pkt[14 + 13] = 18;
    pkt[14 + 15] = 2;
    pkt[14 + 16] = 198;
    pkt[14 + 17] = 18;
    pkt[14 + 19] = 1;
    stl_be_p(pkt + 34 + 4, 0x10000000);     /* sequence number */
    pkt[34 + 12] = 5 << 4;                  /* data offset */
    pkt[34 + 13] = 0x18;                    /* PSH ACK */
    epp_fill_pattern(pkt + HDRLEN, PAYLOAD, 5);
}

/*
 * The next frame the device sent. A destination QEMU announces the NIC
 * it took over with RARP frames of its own (EtherType 0x8035, QEMU's
 * self-announce); they are not the device's and are skipped.
 */
static void collect(EppDev *d, TxSeen *s)
{
    do {
        s->len[s->frames] = epp_collect(d, s->frame[s->frames],
                                        sizeof(s->frame[0]));
    } while (lduw_be_p(s->frame[s->frames] + 12) == 0x8035);
    s->frames++;
}

static void mid_tso_run(const char *model, bool migrate, TxSeen *s)
{
    g_autofree uint8_t *pkt = g_malloc(HDRLEN + PAYLOAD);
    EppDev *d = epp_start(model, NULL);
    uint8_t desc[EPP_DESC_LEN];
    uint32_t dcmd = TXD_CMD_TSE | TXD_CMD_IFCS, last;
    uint32_t popts = TXD_POPTS_TXSM | TXD_POPTS_IXSM;
    uint64_t g;

    epp_bring_up(d, &epp_default_config);
    tso_packet(pkt);
    g = epp_alloc(d, HDRLEN + PAYLOAD);
    epp_memwrite(d, g, pkt, HDRLEN + PAYLOAD);
    /* IPCSS 14, IPCSO 24, IPCSE 33, TUCSS 34, TUCSO 50 (§7.2.10.2) */
    epp_txd_context(desc, 14, 24, 33, 34, 50, 0,
                    PAYLOAD | TXD_CTX_TUCMD_TSE | TXD_CTX_TUCMD_TCP |
                    TXD_CTX_TUCMD_IP);
    stl_le_p(desc + 12, (HDRLEN << 8) | ((uint32_t)MSS << 16));
    epp_tx_write(d, desc);
    epp_txd_data(desc, g, FIRST_CUT, dcmd, popts);
    epp_tx_write(d, desc);
    epp_tx_kick(d);
    /*
     * One full segment out, 500 bytes of the second gathered (stock
     * e1000e sends nothing before the EOP: it gathers the whole packet).
     */
    if (epp_is_stock(model)) {
        epp_step(d, EPP_NS_PER_MS);
    } else {
        collect(d, s);
    }
    if (migrate) {
        d = epp_migrate(d, NULL, NULL);
    }
    epp_txd_data(desc, g + FIRST_CUT, HDRLEN + PAYLOAD - FIRST_CUT,
                 dcmd | TXD_CMD_EOP | TXD_CMD_RS, popts);
    last = epp_tx_write(d, desc);
    epp_tx_kick(d);
    while (s->frames < SEGMENTS && !epp_wire_idle(d)) {
        collect(d, s);
    }
    epp_step(d, EPP_NS_PER_MS);
    while (s->frames < SEGMENTS && !epp_wire_idle(d)) {
        collect(d, s);
    }
    epp_tx_desc(d, last, s->last_desc);
    s->tdh = epp_rd(d, TDH0);
    epp_stop(d);
}

static void migrate_mid_tso_sends_the_same_segments(const char *model)
{
    g_autofree TxSeen *straight = g_new0(TxSeen, 1);
    g_autofree TxSeen *moved = g_new0(TxSeen, 1);
    g_autofree uint8_t *pkt = g_malloc(HDRLEN + PAYLOAD);
    unsigned i;

    tso_packet(pkt);
    mid_tso_run(model, false, straight);
    mid_tso_run(model, true, moved);
    if (epp_on_stock(model, "stock e1000e drops what the first TDT write "
                 "handed over (docs/fidelity.md) and sends the last "
                 "descriptor's 2500 bytes as one frame, migrated or not")) {
        g_assert_cmpuint(straight->frames, ==, 1);
        g_assert_cmpuint(straight->len[0], ==, HDRLEN + PAYLOAD - FIRST_CUT);
        g_assert_cmpmem(straight->frame[0], straight->len[0],
                        pkt + FIRST_CUT, straight->len[0]);
        g_assert_cmpmem(moved, sizeof(*moved), straight, sizeof(*straight));
        return;
    }
    /* Straight: four segments of MSS payload each, DD where RS asked. */
    g_assert_cmpuint(straight->frames, ==, SEGMENTS);
    for (i = 0; i < SEGMENTS; i++) {
        g_assert_cmpuint(straight->len[i], ==, SEG_LEN);
        g_assert_cmpmem(straight->frame[i] + HDRLEN, MSS,
                        pkt + HDRLEN + i * MSS, MSS);
        /* IP total length 1040; sequence number advances by MSS */
        g_assert_cmpuint(lduw_be_p(straight->frame[i] + 14 + 2), ==,
                         SEG_LEN - 14);
        g_assert_cmphex(ldl_be_p(straight->frame[i] + 34 + 4), ==,
                        0x10000000 + i * MSS);
    }
    g_assert_cmphex(straight->last_desc[12] & TXD_STA_DD, ==, TXD_STA_DD);
    g_assert_cmpuint(straight->tdh, ==, 3);
    /* Migrated: the same segments, byte for byte. */
    g_assert_cmpmem(moved, sizeof(*moved), straight, sizeof(*straight));
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(migrate_mid_tso_sends_the_same_segments),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
