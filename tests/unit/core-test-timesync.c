/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests, IEEE 1588 time sync (82574L §7.8, §10.2.9): SYSTIM at
 * the rate Linux programs, Rx and Tx time stamps with their VALID bits,
 * and the registers the driver's set-up writes.
 */
#include "core-test.h"

/*
 * Linux e1000e_get_base_timinca for the 82574: a stable 25 MHz clock,
 * INCPERIOD 1 and INCVALUE 40 << 18 (so SYSTIM counts ns << 18).
 */
#define LINUX_82574_TIMINCA  (1u << 24 | 40u << 18)

static uint64_t systim(Fake *f)
{
    uint32_t lo = rd(f, R_SYSTIML);

    return (uint64_t)rd(f, R_SYSTIMH) << 32 | lo;
}

void test_systim_advances_40_ns_per_tick_at_linux_timinca(void)
{
    Fake *f = up_device();

    wr(f, R_TIMINCA, LINUX_82574_TIMINCA);
    wr(f, R_SYSTIMH, 0);
    wr(f, R_SYSTIML, 0);
    /* 1 us is 25 ticks of 40 ns: 25 x (40 << 18) = 1000 ns << 18. */
    fake_step(f, 1000);
    CHECK_EQ(systim(f), 1000ull << 18);
    /* 39 ns more is not a tick yet; the 40th is. */
    fake_step(f, 39);
    CHECK_EQ(systim(f), 1000ull << 18);
    fake_step(f, 1);
    CHECK_EQ(systim(f), 1040ull << 18);
    /* One second: the driver's cyclecounter (shift 18) reads 1e9 ns. */
    fake_step(f, 1000 * MS - 1040);
    CHECK_EQ(systim(f) >> 18, 1000000000ull);
    fake_free(f);
}

void test_tx_stamp_latched_for_a_tstamp_descriptor(void)
{
    /*
     * A data descriptor (DEXT, DTYP 1) with TSTAMP (bit 4 of the upper
     * dword, E1000_TXD_EXTCMD_TSTAMP) latches SYSTIM in TXSTMPL/H and
     * sets TSYNCTXCTL.VALID; reading TXSTMPH frees the latch.
     */
    Fake *f = up_device();
    uint8_t frame[60];
    uint8_t *d = f->mem + TX_RING;
    unsigned i;

    wr(f, R_TIMINCA, LINUX_82574_TIMINCA);
    wr(f, R_SYSTIMH, 0);
    wr(f, R_SYSTIML, 0);
    wr(f, R_TSYNCTXCTL, 1u << 4);                   /* EN */
    tx_ring(f, 8);
    make_frame(frame, sizeof(frame), 1);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    for (i = 0; i < 2; i++) {
        tx_push(f, i, sizeof(frame), 0x01 | 0x08 | 0x20);   /* EOP RS DEXT */
        d[16 * i + 10] = 0x10;                      /* DTYP 1: data */
        d[16 * i + 12] = 0x10;                      /* TSTAMP */
    }
    fake_step(f, 4000);                             /* 100 ticks */
    wr(f, 0x03818, 1);
    CHECK_EQ(f->nframes, 1);
    CHECK_EQ(rd(f, R_TSYNCTXCTL), 1u << 4 | 1);     /* EN | VALID */
    CHECK_EQ(rd(f, R_TXSTMPL), 4000u << 18);
    /* A second stamped packet does not overwrite a stamp not yet read. */
    fake_step(f, 4000);
    wr(f, 0x03818, 2);
    CHECK_EQ(f->nframes, 2);
    CHECK_EQ(rd(f, R_TXSTMPL), 4000u << 18);
    CHECK_EQ(rd(f, R_TXSTMPH), 0);
    CHECK_EQ(rd(f, R_TSYNCTXCTL), 1u << 4);         /* VALID cleared */
    /* Without TSTAMP nothing is latched. */
    tx_push(f, 2, sizeof(frame), 0x01 | 0x08);
    wr(f, 0x03818, 3);
    CHECK_EQ(rd(f, R_TSYNCTXCTL), 1u << 4);
    fake_free(f);
}

/*
 * A PTP v2 message over Ethernet (EtherType 0x88F7): messageType in the
 * low nibble of byte 0, versionPTP 2 in byte 1, sequenceId at 30.
 */
static size_t ptp_l2_frame(uint8_t *buf, uint8_t msg, uint16_t seq)
{
    memset(buf, 0, 64);
    memcpy(buf, "\x01\x1b\x19\x00\x00\x00\x02\x00\x00\x00\x00\x01", 12);
    buf[12] = 0x88;
    buf[13] = 0xf7;
    buf[14] = msg;
    buf[15] = 2;
    buf[14 + 22] = 0xab;                            /* source id bytes */
    buf[14 + 23] = 0xcd;
    buf[14 + 24] = 0x01;
    buf[14 + 27] = 0x04;
    buf[14 + 30] = seq >> 8;
    buf[14 + 31] = seq & 0xff;
    return 64;
}

void test_rx_stamp_for_ptp_v2_l2_sync_sets_tst(void)
{
    /*
     * Linux's HWTSTAMP_FILTER_PTP_V2_L2_SYNC: TSYNCRXCTL EN | TYPE L2_V2
     * (0), RXMTRL = V2 Sync (message 0) | ETH_P_1588. A matching frame
     * latches RXSTMPL/H and sets VALID; its extended write-back carries
     * STATERR.TST (bit 8), which e1000e_rx_hwtstamp requires.
     */
    Fake *f = up_device();
    uint8_t frame[64];
    size_t len;

    rx_ring(f, 8, 1u << 4, 1);                      /* MPE: PTP multicast */
    wr(f, R_TIMINCA, LINUX_82574_TIMINCA);
    wr(f, R_SYSTIMH, 0);
    wr(f, R_SYSTIML, 0);
    wr(f, R_TSYNCRXCTL, 1u << 4);
    wr(f, R_RXMTRL, 0x000088f7);
    fake_step(f, 2000);
    len = ptp_l2_frame(frame, 1, 7);                /* Delay_Req: no */
    CHECK(e1000e_pp_receive(f->core, frame, len));
    CHECK_EQ(rd(f, R_TSYNCRXCTL), 1u << 4);
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 0x100, 0);
    len = ptp_l2_frame(frame, 0, 0x1234);           /* Sync */
    CHECK(e1000e_pp_receive(f->core, frame, len));
    CHECK_EQ(rd(f, R_TSYNCRXCTL), 1u << 4 | 1);
    CHECK_EQ(le32(f->mem + RX_RING + 16 + 8) & 0x103, 0x103);
    CHECK_EQ(rd(f, R_RXSTMPL), 2000u << 18);
    CHECK_EQ(rd(f, R_RXSATRH), 0x1234u << 16 | 0xabcd);
    CHECK_EQ(rd(f, R_RXSATRL), 0x01000004);
    /* Held until RXSTMPH is read: a Pdelay_Req (2) waits, then stamps. */
    fake_step(f, 40);
    len = ptp_l2_frame(frame, 2, 9);
    CHECK(e1000e_pp_receive(f->core, frame, len));
    CHECK_EQ(le32(f->mem + RX_RING + 32 + 8) & 0x100, 0);
    CHECK_EQ(rd(f, R_RXSTMPH), 0);
    CHECK_EQ(rd(f, R_TSYNCRXCTL), 1u << 4);
    CHECK(e1000e_pp_receive(f->core, frame, len));
    CHECK_EQ(le32(f->mem + RX_RING + 48 + 8) & 0x100, 0x100);
    CHECK_EQ(rd(f, R_RXSTMPL), 2040u << 18);
    fake_free(f);
}

void test_rx_stamp_for_ptp_v1_udp_port_319(void)
{
    /*
     * HWTSTAMP_FILTER_PTP_V1_L4_SYNC: TYPE L4_V1 (1 << 1), RXMTRL = 0
     * (V1 Sync control field), RXUDP = htons(319) as Linux writes it.
     */
    Fake *f = up_device();
    uint8_t frame[14 + 20 + 8 + 44];

    rx_ring(f, 8, 1u << 4, 1);
    wr(f, R_TSYNCRXCTL, 1u << 4 | 1u << 1);
    wr(f, R_RXMTRL, 0);
    wr(f, R_RXUDP, 0x3f01);
    memset(frame, 0, sizeof(frame));
    memcpy(frame, "\x01\x00\x5e\x00\x01\x81\x02\x00\x00\x00\x00\x01", 12);
    frame[12] = 0x08;
    frame[14] = 0x45;
    frame[14 + 9] = 17;                             /* UDP */
    frame[34 + 2] = 319 >> 8;                       /* destination port */
    frame[34 + 3] = 319 & 0xff;
    frame[42 + 1] = 1;                              /* versionPTP 1 */
    frame[42 + 32] = 0;                             /* control: Sync */
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(rd(f, R_TSYNCRXCTL) & 1, 1);
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 0x100, 0x100);
    fake_free(f);
}

void test_timesync_registers_keep_what_linux_writes(void)
{
    /*
     * RXMTRL keeps the V2 message type (31:24) and V1 control (23:16)
     * Linux writes beside the EtherType; ERT (the driver's register dump
     * reads it) reads back; none of them is listed as unimplemented.
     */
    Fake *f = up_device();
    char list[256];

    wr(f, R_RXMTRL, 0x010088f7);                    /* V2 Delay_Req */
    CHECK_EQ(rd(f, R_RXMTRL), 0x010088f7);
    wr(f, R_RXMTRL, 0x00010000);                    /* V1 Delay_Req */
    CHECK_EQ(rd(f, R_RXMTRL), 0x00010000);
    CHECK_EQ(rd(f, R_ERT), 0);
    wr(f, R_ERT, 0x2100);
    CHECK_EQ(rd(f, R_ERT), 0x2100);
    wr(f, R_TSYNCRXCTL, 0xffffffff);                /* VALID is the device's */
    CHECK_EQ(rd(f, R_TSYNCRXCTL), 0x1e);
    rd(f, R_RXSTMPH);
    rd(f, R_TXSTMPH);
    wr(f, R_RXUDP, 0x3f01);
    wr(f, R_TSYNCTXCTL, 0x10);
    e1000e_pp_unimplemented(f->core, list, sizeof(list));
    CHECK_EQ(strlen(list), 0);
    fake_free(f);
}
