/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core unit tests: transmit, TSO robustness, write-back bursts and loopback. */
#include "core-test.h"

void test_tx_legacy_frame_bytes_and_dd_only_with_rs(void)
{
    Fake *f = up_device();
    uint8_t frame[100];
    uint8_t *d0 = f->mem + TX_RING, *d1 = d0 + 16;

    tx_ring(f, 8);
    make_frame(frame, sizeof(frame), 2);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    put64(d0, TX_BUF);
    d0[8] = sizeof(frame);
    d0[11] = 0x01 | 0x02;                           /* EOP | IFCS */
    put64(d1, TX_BUF);
    d1[8] = sizeof(frame);
    d1[11] = 0x01 | 0x02 | 0x08;                    /* ... | RS */
    rd(f, 0x000c0);
    wr(f, 0x03818, 2);                              /* TDT */

    CHECK_EQ(f->nframes, 2);
    CHECK_EQ(f->frames[0].len, sizeof(frame));
    CHECK(memcmp(f->frames[0].data, frame, sizeof(frame)) == 0);
    CHECK_EQ(d0[12] & 1, 0);                        /* no RS: no DD */
    CHECK_EQ(d1[12] & 1, 1);
    CHECK_EQ(rd(f, 0x03810), 2);                    /* TDH */
    CHECK(rd(f, 0x000c0) & 1);                      /* ICR.TXDW */
    CHECK_EQ(rd(f, 0x04080), 2);                    /* GPTC */
    CHECK_EQ(rd(f, 0x04090), 208);                  /* GOTCL, with FCS */
    CHECK_EQ(f->core->obs.tx_sent, 2);              /* both on the wire */
    fake_free(f);
}

void test_phy_loopback_returns_tx_frames_to_rx_only(void)
{
    Fake *f = up_device();
    uint8_t frame[1024];
    uint8_t *d0 = f->mem + TX_RING;

    /* The self-test's BM PHY loopback: BMCR = 0x4140. */
    mdic_write(f, 0, 0x4140);
    CHECK(rd(f, 0x00008) & 2);                      /* STATUS.LU */
    rx_ring(f, 8, 1u << 26 | 1u << 3 | 1u << 4, 0); /* UPE | MPE */
    tx_ring(f, 8);
    memset(frame, 0xff, sizeof(frame));
    memset(frame + 512, 0xaa, 512);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    put64(d0, TX_BUF);
    d0[8] = sizeof(frame) & 0xff;
    d0[9] = sizeof(frame) >> 8;
    d0[11] = 0x01 | 0x02 | 0x08;
    wr(f, 0x03818, 1);
    CHECK_EQ(f->nframes, 0);                        /* not on the wire */
    CHECK_EQ(f->core->obs.tx_sent, 0);
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    CHECK_EQ(le16(f->mem + RX_RING + 8), 1024);
    /* Frames from the line are not heard in loopback. */
    e1000e_pp_receive(f->core, frame, 60);
    CHECK_EQ(rd(f, 0x02810), 1);
    fake_free(f);
}

void test_tx_wthresh_holds_dd_until_tidv(void)
{
    Fake *f = up_device();
    uint8_t frame[60];
    unsigned i;

    tx_ring(f, 8);
    make_frame(frame, sizeof(frame), 1);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    wr(f, 0x03828, 1u << 24 | 3u << 16);            /* GRAN, WTHRESH 3 */
    wr(f, 0x03820, 8);                              /* TIDV 8.192 us */
    for (i = 0; i < 2; i++) {
        tx_push(f, i, sizeof(frame), 0x01 | 0x08);  /* EOP | RS */
    }
    rd(f, 0x000c0);
    wr(f, 0x03818, 2);
    CHECK_EQ(f->nframes, 2);                        /* sent at once... */
    CHECK_EQ(f->mem[TX_RING + 12] & 1, 0);          /* ...DD held */
    CHECK_EQ(rd(f, 0x000c0) & 1, 0);
    fake_step(f, 8 * 1024 - 1);
    CHECK_EQ(f->mem[TX_RING + 16 + 12] & 1, 0);
    fake_step(f, 1);
    CHECK_EQ(f->mem[TX_RING + 12] & 1, 1);
    CHECK_EQ(f->mem[TX_RING + 16 + 12] & 1, 1);
    CHECK_EQ(rd(f, 0x000c0) & 1, 1);                /* TXDW */
    /* A third RS descriptor completes a burst of WTHRESH = 3... */
    for (i = 2; i < 5; i++) {
        tx_push(f, i, sizeof(frame), 0x01 | 0x08);
    }
    wr(f, 0x03818, 5);
    CHECK_EQ(f->mem[TX_RING + 16 * 4 + 12] & 1, 1);
    fake_free(f);
}

void test_ivar_bit31_tx_interrupt_skips_ide_delay(void)
{
    Fake *f = up_device();
    uint8_t frame[60];

    f->mode = E1000E_PP_IRQ_MSIX;
    tx_ring(f, 8);
    make_frame(frame, sizeof(frame), 1);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    wr(f, 0x03820, 8);                              /* TIDV */
    wr(f, 0x000e4, 0x9u << 8);                      /* TxQ0 -> vector 1 */
    wr(f, 0x000d0, 1u << 22);                       /* IMS.TXQ0 */
    tx_push(f, 0, sizeof(frame), 0x01 | 0x08 | 0x80);   /* IDE */
    wr(f, 0x03818, 1);
    CHECK_EQ(f->vector_count[1], 0);                /* IDE delays it */
    fake_step(f, 8 * 1024);
    CHECK_EQ(f->vector_count[1], 1);
    wr(f, 0x000e4, 0x9u << 8 | 1u << 31);           /* TX_INT_EVERY_WB */
    wr(f, 0x000d0, 1u << 22);
    tx_push(f, 1, sizeof(frame), 0x01 | 0x08 | 0x80);
    wr(f, 0x03818, 2);
    CHECK_EQ(f->vector_count[1], 2);                /* at once */
    fake_free(f);
}

void test_tso_context_reload_mid_packet_cannot_overrun_txbuf(void)
{
    /*
     * Regression (review): a context descriptor with a small MSS in the
     * middle of a TSO packet made the segment room negative and DMA'd up
     * to 1 MiB past the Tx buffer. The packet keeps its first context.
     */
    Fake *f = up_device();

    tx_ring(f, 8);
    tx_push_tso_context(f, 0, 54, 60000, 60000);
    tx_push_tso_data(f, 1, TX_BUF, 59054, false);
    tx_push_tso_context(f, 2, 54, 100, 100);
    tx_push_tso_data(f, 3, TX_BUF, 0xfffff, true);
    wr(f, 0x03818, 4);
    /*
     * Segments of the packet's own MSS went out and nothing overran:
     * 59000 + 1048575 payload bytes are 18 full segments and 27575.
     */
    CHECK_EQ(f->nframes, 19);
    CHECK_EQ(f->frames[0].len, 54 + 60000);
    CHECK_EQ(f->frames[17].len, 54 + 60000);
    CHECK_EQ(f->frames[18].len, 54 + 27575);
    CHECK_EQ(rd(f, 0x03810), 4);                    /* TDH */
    fake_free(f);
}

void test_tso_mss_zero_mid_packet_does_not_hang(void)
{
    /* Regression (review): MSS 0 mid-packet looped forever. */
    Fake *f = up_device();

    tx_ring(f, 8);
    tx_push_tso_context(f, 0, 54, 1000, 100);
    tx_push_tso_data(f, 1, TX_BUF, 54, false);
    tx_push_tso_context(f, 2, 54, 0, 100);
    tx_push_tso_data(f, 3, TX_BUF + 54, 100, true);
    wr(f, 0x03818, 4);
    CHECK_EQ(f->nframes, 1);                        /* one 154-byte segment */
    CHECK_EQ(f->frames[0].len, 154);
    CHECK_EQ(rd(f, 0x03810), 4);
    CHECK_EQ(rd(f, 0x040f8), 1);                    /* TSCTC: one TSO */
    fake_free(f);
}

void test_tx_pads_short_frames_with_psp(void)
{
    Fake *f = up_device();
    uint8_t frame[42];
    uint8_t *d0 = f->mem + TX_RING;

    tx_ring(f, 8);
    make_frame(frame, sizeof(frame), 2);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    put64(d0, TX_BUF);
    d0[8] = sizeof(frame);
    d0[11] = 0x01 | 0x08;
    wr(f, 0x03818, 1);
    CHECK_EQ(f->nframes, 1);
    CHECK_EQ(f->frames[0].len, 60);
    CHECK_EQ(f->frames[0].data[59], 0);
    fake_free(f);
}

void test_tx_tail_outside_ring_is_ignored(void)
{
    Fake *f = up_device();

    tx_ring(f, 8);
    wr(f, 0x03818, 100);                            /* TDT beyond ring */
    CHECK_EQ(f->nframes, 0);
    CHECK_EQ(rd(f, 0x03810), 0);
    CHECK(f->logs > 0);
    fake_free(f);
}

void test_tx_writeback_whole_descriptor_with_wthresh(void)
{
    /*
     * §7.2.4.2: with TXDCTL.WTHRESH = 0 only the status byte (byte 12)
     * is written back; with WTHRESH >= 1 (Linux's DMA-burst value
     * 0x01010000 and up) the whole descriptor is.
     */
    Fake *f = up_device();
    uint8_t frame[60];
    uint8_t *d = f->mem + TX_RING;

    tx_ring(f, 8);
    make_frame(frame, sizeof(frame), 1);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    tx_push(f, 0, sizeof(frame), 0x01 | 0x08);      /* EOP | RS */
    wr(f, 0x03818, 1);
    CHECK_EQ(f->last_write_addr, TX_RING + 12);
    CHECK_EQ(f->last_write_len, 1);
    CHECK_EQ(d[12] & 1, 1);
    wr(f, 0x03828, 1u << 24 | 1u << 16);            /* GRAN, WTHRESH 1 */
    tx_push(f, 1, sizeof(frame), 0x01 | 0x08);
    d[16 + 15] = 0x5a;                              /* VLAN (special) */
    wr(f, 0x03818, 2);
    CHECK_EQ(f->last_write_addr, TX_RING + 16);
    CHECK_EQ(f->last_write_len, 16);
    CHECK_EQ(d[16 + 12] & 1, 1);
    CHECK_EQ(d[16 + 15], 0x5a);                     /* as fetched */
    CHECK_EQ(le32(d + 16), TX_BUF);                 /* address kept */
    /* Held by WTHRESH 3: the fetched descriptor is what lands. */
    wr(f, 0x03828, 1u << 24 | 3u << 16);
    wr(f, 0x03820, 8);                              /* TIDV */
    tx_push(f, 2, sizeof(frame), 0x01 | 0x08);
    wr(f, 0x03818, 3);
    CHECK_EQ(d[32 + 12] & 1, 0);
    d[32 + 14] = 0x77;                              /* rewritten meanwhile */
    fake_step(f, 8 * 1024);
    CHECK_EQ(d[32 + 12] & 1, 1);
    CHECK_EQ(d[32 + 14], 0);
    fake_free(f);
}

void test_tx_one_tdt_write_walks_at_most_256_descriptors(void)
{
    Fake *f = up_device();
    uint8_t frame[60];
    unsigned i;

    /*
     * docs/fidelity.md: one TDT write does bounded work, 256 descriptors,
     * and a zero-delay timer goes on from there (as would the next entry
     * point: nothing is read before the timer fires). 300 one-descriptor
     * frames in a 512-entry ring, each with RS.
     */
    make_frame(frame, sizeof(frame), 3);
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));
    tx_ring(f, 512);
    for (i = 0; i < 300; i++) {
        tx_push(f, i, sizeof(frame), 0x01 | 0x02 | 0x08);
    }
    wr(f, 0x03818, 300);                            /* TDT */
    CHECK_EQ(f->mem[TX_RING + 16 * 255 + 12] & 1, 1);
    CHECK_EQ(f->mem[TX_RING + 16 * 256 + 12] & 1, 0);
    CHECK_EQ(f->timers[E1000E_PP_TIMER_KICK], f->now);
    fake_step(f, 0);
    CHECK_EQ(f->mem[TX_RING + 16 * 299 + 12] & 1, 1);
    CHECK_EQ(f->timers[E1000E_PP_TIMER_KICK], -1);
    CHECK_EQ(rd(f, 0x03810), 300);                  /* TDH */
    CHECK_EQ(rd(f, 0x04080), 300);                  /* GPTC */
    fake_free(f);
}

/*
 * The catalogue's rule for a failed DMA: no DD for data that did not
 * arrive, the fault listed, the engine stopped (here until TCTL.EN is
 * set again, docs/fidelity.md). The ring: two RS frames.
 */
static Fake *tx_two_frames(uint8_t *frame, size_t len)
{
    Fake *f = up_device();

    make_frame(frame, len, 4);
    memcpy(f->mem + TX_BUF, frame, len);
    tx_ring(f, 8);
    tx_push(f, 0, len, 0x01 | 0x02 | 0x08);         /* EOP IFCS RS */
    tx_push(f, 1, len, 0x01 | 0x02 | 0x08);
    return f;
}

static void tx_restart_sends_both(Fake *f, const uint8_t *frame, size_t len)
{
    wr(f, 0x00400, 0);                              /* TCTL.EN clear... */
    wr(f, 0x00400, 1u << 1 | 1u << 3);              /* ...and set */
    CHECK_EQ(f->nframes, 2);
    CHECK_EQ(f->frames[1].len, len);
    CHECK(memcmp(f->frames[1].data, frame, len) == 0);
    CHECK_EQ(rd(f, 0x03810), 2);
    CHECK_EQ(f->mem[TX_RING + 12] & 1, 1);
    CHECK_EQ(f->mem[TX_RING + 16 + 12] & 1, 1);
}

void test_tx_descriptor_read_failure_stops_tx_until_tctl_en(void)
{
    uint8_t frame[80];
    Fake *f = tx_two_frames(frame, sizeof(frame));

    f->fail_dma = 1;
    wr(f, 0x03818, 2);
    CHECK_EQ(f->nframes, 0);
    CHECK_EQ(rd(f, 0x03810), 0);                    /* TDH stays */
    CHECK_EQ(f->core->obs.nfaults, 1);
    CHECK(!strcmp(f->core->obs.faults[0].what, "tx-desc-fetch"));
    CHECK_EQ(f->core->obs.faults[0].desc, 0);
    CHECK_EQ(f->core->obs.faults[0].addr, TX_RING);
    CHECK_EQ(f->core->obs.faults[0].len, 16);
    CHECK(!f->core->obs.faults[0].write);
    /* Memory answers again, but the engine stays stopped... */
    f->fail_dma = 0;
    wr(f, 0x03818, 2);
    CHECK_EQ(f->nframes, 0);
    CHECK_EQ(f->mem[TX_RING + 12] & 1, 0);
    /* ...until TCTL.EN is set again. */
    tx_restart_sends_both(f, frame, sizeof(frame));
    CHECK_EQ(f->core->obs.nfaults, 1);
    fake_free(f);
}

void test_tx_data_read_failure_writes_no_dd_and_stops(void)
{
    uint8_t frame[80];
    Fake *f = tx_two_frames(frame, sizeof(frame));

    /* Descriptor 0's buffer lies outside guest memory. */
    put64(f->mem + TX_RING, FAKE_MEM_BYTES + 0x2000);
    wr(f, 0x03818, 2);
    CHECK_EQ(f->nframes, 0);
    CHECK_EQ(rd(f, 0x03810), 0);
    CHECK_EQ(f->mem[TX_RING + 12] & 1, 0);          /* no DD */
    CHECK_EQ(f->core->obs.nfaults, 1);
    CHECK(!strcmp(f->core->obs.faults[0].what, "tx-data"));
    CHECK_EQ(f->core->obs.faults[0].desc, 0);
    CHECK_EQ(f->core->obs.faults[0].addr, FAKE_MEM_BYTES + 0x2000);
    CHECK_EQ(f->core->obs.faults[0].len, sizeof(frame));
    CHECK(!f->core->obs.faults[0].write);
    CHECK_EQ(rd(f, 0x04080), 0);                    /* GPTC */
    /* The driver's reset path: a good buffer, TCTL.EN set again. */
    put64(f->mem + TX_RING, TX_BUF);
    tx_restart_sends_both(f, frame, sizeof(frame));
    fake_free(f);
}

/* RFC 1071 one's complement sum of len bytes (len even), not folded. */
static uint32_t sum16(const uint8_t *p, size_t len)
{
    uint32_t s = 0;
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        s += (uint32_t)p[i] << 8 | p[i + 1];
    }
    return s;
}

/*
 * One UDP/IPv4 (or TCP-marked) frame through a checksum context: TUCSS
 * 34, TUCSO 40 (the UDP checksum), TUCMD.IP, TUCMD.TCP as given, then a
 * data descriptor with POPTS.TXSM. The payload's last two bytes make the
 * one's complement sum of bytes 34..end 0xffff, so the checksum computes
 * to 0. Returns the checksum field as sent.
 */
static uint16_t tx_checksum_that_computes_to_zero(bool tcp_bit)
{
    Fake *f = up_device();
    uint8_t frame[64];
    uint8_t *ctx = f->mem + TX_RING, *data = ctx + 16;
    uint32_t s;
    uint16_t got;

    tx_ring(f, 8);
    make_frame(frame, sizeof(frame), 2);
    frame[12] = 0x08;                               /* IPv4 */
    frame[13] = 0x00;
    frame[40] = frame[41] = 0;                      /* checksum field */
    frame[62] = frame[63] = 0;
    s = sum16(frame + 34, sizeof(frame) - 34);
    s = (s & 0xffff) + (s >> 16);
    s = (s & 0xffff) + (s >> 16);
    frame[62] = (0xffff - s) >> 8;                  /* the sum: 0xffff */
    frame[63] = (0xffff - s) & 0xff;
    memcpy(f->mem + TX_BUF, frame, sizeof(frame));

    memset(ctx, 0, 32);
    ctx[4] = 34;                                    /* TUCSS */
    ctx[5] = 40;                                    /* TUCSO */
    ctx[11] = 0x20 | 0x02 | (tcp_bit ? 0x01 : 0);   /* DEXT IP [TCP] */
    put64(data, TX_BUF);
    data[8] = sizeof(frame);
    data[10] = 0x10;                                /* DTYP 1: data */
    data[11] = 0x20 | 0x08 | 0x02 | 0x01;           /* DEXT RS IFCS EOP */
    data[13] = 0x02;                                /* POPTS.TXSM */
    wr(f, 0x03818, 2);
    CHECK_EQ(f->nframes, 1);
    got = (uint16_t)(f->frames[0].data[40] << 8 | f->frames[0].data[41]);
    fake_free(f);
    return got;
}

/*
 * RFC 768: a computed UDP checksum of zero is transmitted as all ones
 * (zero means "none" over IPv4, and is invalid over IPv6). The kernel's
 * drivers/net/hw/csum.py checks it (tx_udp_zero_checksum). TCP has no
 * such rule: its zero stays.
 */
void test_tx_udp_checksum_of_zero_goes_out_as_ffff(void)
{
    CHECK_EQ(tx_checksum_that_computes_to_zero(false), 0xffff);
    CHECK_EQ(tx_checksum_that_computes_to_zero(true), 0x0000);
}
