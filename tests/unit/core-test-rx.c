/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests, receive: FCS, buffers, filters, packet buffer,
 * write-back, DMA errors.
 */
#include "core-test.h"

void test_rx_fcs_counted_in_one_descriptor(void)
{
    /* Given SECRC=0 and 2 KB buffers, a 1514-byte frame + FCS = 1518. */
    Fake *f = up_device();
    uint8_t frame[1514];
    uint8_t *d = f->mem + RX_RING;
    uint32_t fcs;

    rx_ring(f, 8, 0, 1);
    make_frame(frame, sizeof(frame), 3);
    fcs = ref_crc32(frame, sizeof(frame));
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));

    CHECK_EQ(le16(d + 12), 1518);                   /* length */
    CHECK_EQ(le32(d + 8) & 3, 3);                   /* DD | EOP */
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    CHECK_EQ(le32(f->mem + RX_BUF(0) + 1514), fcs);
    CHECK_EQ(le32(d + 16 + 8), 0);                  /* next untouched */
    CHECK_EQ(rd(f, 0x02810), 1);                    /* RDH */
    CHECK_EQ(rd(f, 0x04074), 1);                    /* GPRC */
    CHECK_EQ(rd(f, 0x04088), 1518);                 /* GORCL */
    fake_free(f);
}

void test_rx_fcs_straddles_two_chunks(void)
{
    /* A 2046-byte frame: 2048 + 2 bytes, the FCS split 2 / 2. */
    Fake *f = up_device();
    uint8_t frame[2046];
    uint8_t *d = f->mem + RX_RING;
    uint32_t fcs;
    uint8_t got[4];

    rx_ring(f, 8, 1u << 5, 1);                      /* LPE */
    make_frame(frame, sizeof(frame), 5);
    fcs = ref_crc32(frame, sizeof(frame));
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));

    CHECK_EQ(le16(d + 12), 2048);
    CHECK_EQ(le32(d + 8) & 3, 1);                   /* DD, no EOP */
    CHECK_EQ(le16(d + 16 + 12), 2);
    CHECK_EQ(le32(d + 16 + 8) & 3, 3);              /* DD | EOP */
    memcpy(got, f->mem + RX_BUF(0) + 2046, 2);
    memcpy(got + 2, f->mem + RX_BUF(1), 2);
    CHECK_EQ(le32(got), fcs);
    CHECK_EQ(rd(f, 0x02810), 2);
    fake_free(f);
}

void test_rx_fcs_alone_in_last_chunk(void)
{
    /* A 2048-byte frame: the whole FCS lands in a 4-byte descriptor. */
    Fake *f = up_device();
    uint8_t frame[2048];
    uint8_t *d = f->mem + RX_RING;

    rx_ring(f, 8, 1u << 5, 1);
    make_frame(frame, sizeof(frame), 9);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(le16(d + 12), 2048);
    CHECK_EQ(le16(d + 16 + 12), 4);
    CHECK_EQ(le32(f->mem + RX_BUF(1)), ref_crc32(frame, sizeof(frame)));
    fake_free(f);
}

void test_rx_secrc_strips_fcs(void)
{
    Fake *f = up_device();
    uint8_t frame[1514];

    rx_ring(f, 8, 1u << 26, 0);                     /* SECRC, legacy */
    make_frame(frame, sizeof(frame), 4);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(le16(f->mem + RX_RING + 8), 1514);     /* legacy length */
    CHECK_EQ(f->mem[RX_RING + 12] & 3, 3);          /* DD | EOP */
    fake_free(f);
}

void test_rx_waits_in_packet_buffer_when_ring_is_empty(void)
{
    Fake *f = up_device();
    uint8_t a[60], b[60];

    /* Given a ring with no descriptors for the device (RDT = RDH)... */
    rx_ring(f, 8, 1u << 26, 1);
    wr(f, 0x02818, 0);
    make_frame(a, sizeof(a), 1);
    make_frame(b, sizeof(b), 2);
    /* ...two frames arrive: both wait, RNBC counts both, none is lost. */
    CHECK(e1000e_pp_receive(f->core, a, sizeof(a)));
    CHECK(e1000e_pp_receive(f->core, b, sizeof(b)));
    CHECK_EQ(rd(f, 0x040a0), 2);                    /* RNBC */
    CHECK_EQ(rd(f, 0x04010), 0);                    /* MPC */
    CHECK_EQ(rd(f, 0x04074), 2);                    /* GPRC: in buffer */
    CHECK_EQ(rd(f, 0x02810), 0);
    /* When descriptors are posted, they arrive in order. */
    wr(f, 0x02818, 4);
    CHECK_EQ(rd(f, 0x02810), 2);
    CHECK(memcmp(f->mem + RX_BUF(0), a, sizeof(a)) == 0);
    CHECK(memcmp(f->mem + RX_BUF(1), b, sizeof(b)) == 0);
    CHECK_EQ(f->core->obs.rxstat.delivered, 2);
    fake_free(f);
}

void test_rx_packet_buffer_overflow_counts_mpc_and_rxo(void)
{
    Fake *f = up_device();
    uint8_t frame[1514];
    uint64_t held;
    E1000EPPRxCounters *st = &f->core->obs.rxstat;
    int i;

    /* PBA.RXA = 4 KB: 1518-byte frames are charged 1536 bytes each. */
    wr(f, 0x01000, 4);
    rx_ring(f, 8, 1u << 26, 1);
    wr(f, 0x02818, 0);
    rd(f, 0x000c0);
    make_frame(frame, sizeof(frame), 7);
    for (i = 0; i < 5; i++) {
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    }
    CHECK_EQ(rd(f, 0x040a0), 5);                    /* RNBC: all 5 */
    CHECK_EQ(rd(f, 0x04010), 3);                    /* MPC: 2 fit */
    CHECK(rd(f, 0x000c0) & 0x40);                   /* ICR.RXO */
    held = f->core->arch.pktbuf.count;
    CHECK_EQ(held, 2);
    CHECK_EQ(st->offered, st->delivered + st->missed + st->filtered +
             st->oversize + st->undersize + st->not_ready + st->dma_error +
             st->flushed + st->errored + held);
    wr(f, 0x02818, 7);
    CHECK_EQ(st->delivered, 2);
    CHECK_EQ(f->core->arch.pktbuf.count, 0);
    fake_free(f);
}

/*
 * Every frame passes through the on-chip packet buffer, even with free
 * descriptors: one bigger than the PBA.RXA share is missed whole (MPC,
 * ICR.RXO), never counted good, and no byte of it reaches host memory.
 */
void test_rx_frame_bigger_than_packet_buffer_is_missed(void)
{
    Fake *f = up_device();
    uint8_t big[1514], small[60], untouched[1514];

    wr(f, 0x01000, 1);                              /* PBA.RXA = 1 KB */
    rx_ring(f, 8, 1u << 26, 1);
    wr(f, 0x02818, 7);
    rd(f, 0x000c0);
    make_frame(big, sizeof(big), 3);
    make_frame(small, sizeof(small), 4);
    memset(untouched, 0xa5, sizeof(untouched));
    memcpy(f->mem + RX_BUF(0), untouched, sizeof(untouched));
    CHECK(e1000e_pp_receive(f->core, big, sizeof(big)));
    CHECK_EQ(rd(f, 0x04010), 1);                    /* MPC */
    CHECK_EQ(rd(f, 0x04074), 0);                    /* GPRC */
    CHECK_EQ(rd(f, 0x040a0), 0);                    /* RNBC */
    CHECK(rd(f, 0x000c0) & 0x40);                   /* ICR.RXO */
    CHECK_EQ(rd(f, 0x02810), 0);                    /* RDH */
    CHECK(memcmp(f->mem + RX_BUF(0), untouched, sizeof(untouched)) == 0);
    CHECK_EQ(f->mem[RX_RING + 8] & 1, 0);           /* descriptor 0: no DD */
    /* A frame that fits still goes straight to the ring. */
    CHECK(e1000e_pp_receive(f->core, small, sizeof(small)));
    CHECK_EQ(rd(f, 0x04074), 1);
    CHECK_EQ(rd(f, 0x02810), 1);
    CHECK(memcmp(f->mem + RX_BUF(0), small, sizeof(small)) == 0);
    CHECK_EQ(f->mem[RX_RING + 8] & 3, 3);           /* DD | EOP */
    fake_free(f);
}

void test_rx_wthresh_holds_writeback_until_rdtr_expires(void)
{
    Fake *f = up_device();
    uint8_t frame[60];
    int i;

    rx_ring(f, 8, 1u << 26, 1);
    /* Linux's DMA-burst setting: GRAN=1, WTHRESH=4; RDTR = 0x20. */
    wr(f, 0x02828, 1u << 24 | 4u << 16 | 4u << 8 | 0x20);
    wr(f, 0x02820, 0x20);
    make_frame(frame, sizeof(frame), 1);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 1, 0);    /* held */
    fake_step(f, 0x20 * 1024);
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 3, 3);    /* flushed by RDTR */
    for (i = 0; i < 4; i++) {
        e1000e_pp_receive(f->core, frame, sizeof(frame));
    }
    /* The fourth held descriptor reaches WTHRESH: all four at once. */
    CHECK_EQ(le32(f->mem + RX_RING + 16 * 4 + 8) & 3, 3);
    CHECK_EQ(le32(f->mem + RX_RING + 16 * 1 + 8) & 3, 3);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(le32(f->mem + RX_RING + 16 * 5 + 8) & 1, 0);
    wr(f, 0x02820, 0x20 | 1u << 31);                /* FPD */
    CHECK_EQ(le32(f->mem + RX_RING + 16 * 5 + 8) & 3, 3);
    fake_free(f);
}

void test_rx_xoff_when_buffer_passes_fcrth(void)
{
    Fake *f = up_device();
    uint8_t frame[1514];

    wr(f, 0x00000, rd(f, 0x00000) | 1u << 28);      /* CTRL.TFCE */
    wr(f, 0x02168, 2048);                           /* FCRTH */
    wr(f, 0x02160, 1u << 31 | 1024);                /* FCRTL.XONE */
    wr(f, 0x00170, 0x0680);                         /* FCTTV */
    rx_ring(f, 8, 1u << 26, 1);
    wr(f, 0x02818, 0);
    make_frame(frame, sizeof(frame), 1);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(f->nframes, 0);                        /* 1536 < 2048 */
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(f->nframes, 1);
    CHECK(memcmp(f->frames[0].data, "\x01\x80\xc2\x00\x00\x01", 6) == 0);
    CHECK_EQ(f->frames[0].data[12] << 8 | f->frames[0].data[13], 0x8808);
    CHECK_EQ(f->frames[0].data[16] << 8 | f->frames[0].data[17], 0x0680);
    CHECK_EQ(rd(f, 0x04054), 1);                    /* XOFFTXC */
    wr(f, 0x02818, 7);                              /* drain */
    CHECK_EQ(f->nframes, 2);                        /* XON */
    CHECK_EQ(f->frames[1].data[16] << 8 | f->frames[1].data[17], 0);
    CHECK_EQ(rd(f, 0x0404c), 1);                    /* XONTXC */
    /* Two PAUSE frames on the wire, none of them from the Tx ring. */
    CHECK_EQ(f->core->obs.pause_sent, 2);
    CHECK_EQ(f->core->obs.tx_sent, 0);
    fake_free(f);
}

void test_rx_address_filters(void)
{
    Fake *f = up_device();
    E1000EPPRxCounters *st = &f->core->obs.rxstat;
    uint8_t frame[60];
    uint64_t before;

    rx_ring(f, 16, 1u << 26, 1);                    /* SECRC, BAM */
    make_frame(frame, sizeof(frame), 1);

    /* Unicast to another station: filtered (no UPE). */
    frame[5] = 0x57;
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->filtered, 1);
    /* RAL1/RAH1 with AV set accept it; without AV they do not. */
    wr(f, 0x05408, 0x12005452);
    wr(f, 0x0540c, 0x00005734);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->filtered, 2);
    wr(f, 0x0540c, 0x80005734);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->delivered, 1);
    /* UPE takes any unicast. */
    frame[5] = 0x99;
    wr(f, 0x00100, rd(f, 0x00100) | 1u << 3);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->delivered, 2);
    wr(f, 0x00100, rd(f, 0x00100) & ~(1u << 3));

    /*
     * Multicast 01:00:5e:00:00:fb with RCTL.MO = 00: the hash is
     * (da[4] >> 4) | (da[5] << 4) = 0xfb0, so MTA[0x7d] bit 16.
     */
    memcpy(frame, "\x01\x00\x5e\x00\x00\xfb", 6);
    before = st->filtered;
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->filtered, before + 1);
    wr(f, 0x05200 + 0x7d * 4, 1u << 16);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->delivered, 3);
    CHECK_EQ(rd(f, 0x0407c), 1);                    /* MPRC */

    /* Broadcast needs BAM (or MPE/UPE). */
    memset(frame, 0xff, 6);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->delivered, 4);
    CHECK_EQ(rd(f, 0x04078), 1);                    /* BPRC */
    wr(f, 0x00100, rd(f, 0x00100) & ~(1u << 15));
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->delivered, 4);
    CHECK_EQ(st->offered, st->delivered + st->filtered);
    fake_free(f);
}

void test_rx_vlan_filter_and_strip(void)
{
    Fake *f = up_device();
    E1000EPPRxCounters *st = &f->core->obs.rxstat;
    uint8_t frame[64];
    uint8_t *d = f->mem + RX_RING;

    rx_ring(f, 16, 1u << 26 | 1u << 18, 1);         /* SECRC, VFE */
    make_frame(frame, sizeof(frame), 1);
    frame[12] = 0x81;                               /* VET 0x8100 */
    frame[13] = 0x00;
    frame[14] = 0x20;                               /* PCP 1, VID 5 */
    frame[15] = 0x05;
    frame[16] = 0x88;
    frame[17] = 0xb5;
    /* VID 5 not in VFTA: filtered. */
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(st->filtered, 1);
    wr(f, 0x05600, 1u << 5);                        /* VFTA[0] bit 5 */
    /* Without CTRL.VME the tag stays in the frame. */
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(le16(d + 12), 64);
    CHECK_EQ(le32(d + 8) & 0x8, 0);                 /* no VP */
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    /* With CTRL.VME it goes to the descriptor, VP set. */
    wr(f, 0x00000, rd(f, 0x00000) | 1u << 30);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(le16(d + 16 + 12), 60);
    CHECK_EQ(le32(d + 16 + 8) & 0x8, 0x8);
    CHECK_EQ(le16(d + 16 + 14), 0x2005);
    CHECK(memcmp(f->mem + RX_BUF(1), frame, 12) == 0);
    CHECK(memcmp(f->mem + RX_BUF(1) + 12, frame + 16, 48) == 0);
    fake_free(f);
}

void test_rx_rxdmt0_at_rdmts_threshold(void)
{
    Fake *f = up_device();
    uint8_t frame[60];
    int i;

    /* 16 descriptors, 15 posted, RDMTS = 01: RXDMT0 at 16/4 = 4 free. */
    rx_ring(f, 16, 1u << 26 | 1u << 8, 1);
    make_frame(frame, sizeof(frame), 1);
    rd(f, 0x000c0);
    for (i = 0; i < 10; i++) {
        e1000e_pp_receive(f->core, frame, sizeof(frame));
    }
    CHECK_EQ(rd(f, 0x000c0) & 0x10, 0);             /* 5 free */
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(rd(f, 0x000c0) & 0x10, 0x10);          /* 4 free */
    fake_free(f);
}

void test_rx_packet_split_header_split_never_passes_rdt(void)
{
    /*
     * Regression (review): with a header split, a frame needed more
     * descriptors than counted and the device wrote past RDT.
     * PSRCTL: BSIZE0 256 bytes, BSIZE1 1 KB; 8 packet-split descriptors
     * (RDLEN 256 = 16 units), RDT = 2 units: one descriptor posted.
     */
    Fake *f = up_device();
    uint8_t frame[1200];

    rx_split_ring(f, 0x00000102, 2, 1u << 1 | 1u << 3 | 1u << 10 | 1u << 26);
    make_frame(frame, sizeof(frame), 1);
    frame[12] = 0x08;                               /* IPv4/TCP header */
    frame[13] = 0x00;
    frame[14] = 0x45;
    frame[16] = (sizeof(frame) - 14) >> 8;
    frame[17] = (sizeof(frame) - 14) & 0xff;
    frame[20] = 0x40;                               /* DF, no fragment */
    frame[21] = 0;
    frame[23] = 6;
    frame[14 + 20 + 12] = 0x50;                     /* TCP data offset */
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    /*
     * 54-byte header + 1146 bytes > 1 KB: two descriptors, one posted.
     * Buffer by buffer (§7.1.6): the posted one is used, RDH stops at
     * RDT, the rest of the frame waits on the chip.
     */
    CHECK_EQ(rd(f, 0x02810), 2);
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 3, 1);    /* DD, no EOP */
    CHECK_EQ(le32(f->mem + RX_RING + 32 + 8) & 1, 0);   /* untouched */
    CHECK_EQ(f->core->arch.pktbuf.count, 1);             /* the rest waits */
    wr(f, 0x02818, 4);
    CHECK_EQ(rd(f, 0x02810), 4);
    CHECK_EQ(le16(f->mem + RX_RING + 16), 0x8000 | 54);  /* HS, 54 */
    CHECK_EQ(le16(f->mem + RX_RING + 18), 1024);
    CHECK_EQ(le16(f->mem + RX_RING + 32 + 12), 0);  /* buffer 0 empty */
    CHECK_EQ(le16(f->mem + RX_RING + 32 + 18), 1200 - 54 - 1024);
    fake_free(f);
}

/*
 * PSRCTL with BSIZE0 only (256 bytes) and a 1000-byte frame: buffers
 * 1-3 have no room for the rest, so no descriptor can finish it. The
 * frame waits on the chip; the seven posted descriptors are not spent
 * on write-backs that take nothing (each was DD with length 0 before).
 */
void test_rx_packet_split_without_buffers_1_to_3_spends_nothing(void)
{
    Fake *f = up_device();
    uint8_t frame[1000];
    unsigned i;

    rx_split_ring(f, 0x00000002, 14, 1u << 1 | 1u << 15 | 1u << 26 |
                  1u << 10);                        /* DTYP = split */
    make_frame(frame, sizeof(frame), 2);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(rd(f, 0x02810), 0);                    /* RDH */
    for (i = 0; i < 8; i++) {
        CHECK_EQ(f->mem[RX_RING + 32 * i + 8] & 1, 0);  /* no DD */
    }
    CHECK_EQ(f->core->arch.pktbuf.count, 1);
    CHECK_EQ(f->core->obs.rxstat.delivered, 0);
    fake_free(f);
}

void test_rx_mta_mo3_uses_address_bits_43_32(void)
{
    /* Regression (review): RCTL.MO = 11 hashes da[4] | da[5] << 8. */
    Fake *f = up_device();
    uint8_t frame[60];
    uint16_t hash;

    rx_ring(f, 8, 1u << 26 | 3u << 12, 1);
    make_frame(frame, sizeof(frame), 1);
    memcpy(frame, "\x01\x00\x5e\x00\x34\x01", 6);
    hash = (0x34 | 0x01 << 8) & 0xfff;              /* 0x134 */
    wr(f, 0x05200 + (hash >> 5) * 4, 1u << (hash & 31));
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    fake_free(f);
}

void test_rx_oversize_without_lpe_counts_roc(void)
{
    Fake *f = up_device();
    static uint8_t frame[1515];

    rx_ring(f, 8, 0, 1);
    make_frame(frame, sizeof(frame), 1);            /* 1519 with FCS */
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(rd(f, 0x040ac), 1);                    /* ROC */
    CHECK_EQ(rd(f, 0x02810), 0);
    fake_free(f);
}

/* An IPv4 frame from 66.9.149.187:2794 to 161.142.100.80:1766. */
static size_t rss_frame(uint8_t *f, uint8_t proto)
{
    static const uint8_t ip[20] = {
        0x45, 0, 0, 40, 0, 1, 0x40, 0, 64, 0, 0, 0,
        66, 9, 149, 187, 161, 142, 100, 80,
    };
    size_t len = 14 + 20 + 20;

    memset(f, 0, len);
    memcpy(f, "\x52\x54\x00\x12\x34\x56\x02\x00\x00\x00\x00\x01", 12);
    f[12] = 0x08;
    memcpy(f + 14, ip, 20);
    f[14 + 9] = proto;
    f[34] = 2794 >> 8;
    f[35] = 2794 & 0xff;
    f[36] = 1766 >> 8;
    f[37] = 1766 & 0xff;
    f[46] = 0x50;                                   /* TCP data offset */
    return len;
}

/* The Microsoft RSS verification key (the vectors' source). */
static const uint8_t rss_key[40] = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
    0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
    0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
    0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

void test_rx_rss_hash_matches_toeplitz_vectors(void)
{
    /*
     * The Microsoft RSS verification key and vectors: IPv4/TCP hashes
     * to 0x51ccc178 (type 1), IPv4 alone to 0x323e8fc2 (type 2). The
     * hash is reported with RXCSUM.PCSD in extended descriptors.
     */
    Fake *f = up_device();
    uint8_t frame[64];
    size_t len;
    int i;

    rx_ring(f, 8, 1u << 26, 1);
    for (i = 0; i < 10; i++) {
        wr(f, 0x05c80 + 4 * i, le32(rss_key + 4 * i));   /* RSSRK */
    }
    wr(f, 0x05818, 1 | 1u << 16 | 1u << 17);        /* MRQC: TCPv4, IPv4 */
    wr(f, 0x05000, rd(f, 0x05000) | 1u << 13);      /* RXCSUM.PCSD */

    len = rss_frame(frame, 6);
    e1000e_pp_receive(f->core, frame, len);
    CHECK_EQ(le32(f->mem + RX_RING) & 0xf, 1);
    CHECK_EQ(le32(f->mem + RX_RING + 4), 0x51ccc178);
    len = rss_frame(frame, 17);
    e1000e_pp_receive(f->core, frame, len);
    CHECK_EQ(le32(f->mem + RX_RING + 16) & 0xf, 2);
    CHECK_EQ(le32(f->mem + RX_RING + 16 + 4), 0x323e8fc2);
    fake_free(f);
}

/* Fill in the IPv4 header and TCP checksums of rss_frame()'s frame. */
static void checksum_frame(uint8_t *f)
{
    uint8_t pseudo[12 + 20];
    uint16_t sum;

    f[24] = f[25] = 0;
    sum = ~ref_csum(f + 14, 20);
    f[24] = sum >> 8;
    f[25] = sum & 0xff;
    memcpy(pseudo, f + 26, 8);                      /* addresses */
    pseudo[8] = 0;
    pseudo[9] = 6;
    pseudo[10] = 0;
    pseudo[11] = 20;
    f[50] = f[51] = 0;
    memcpy(pseudo + 12, f + 34, 20);
    sum = ~ref_csum(pseudo, sizeof(pseudo));
    f[50] = sum >> 8;
    f[51] = sum & 0xff;
}

void test_rx_checksum_status_from_the_frame(void)
{
    /*
     * RXCSUM.IPOFL/TUOFL (on after reset): IPCS and TCPCS report that
     * the device checked; IPE/TCPE (extended errors 30/29) what failed.
     */
    Fake *f = up_device();
    uint8_t frame[64];
    size_t len;

    rx_ring(f, 8, 1u << 26, 1);
    len = rss_frame(frame, 6);
    checksum_frame(frame);
    e1000e_pp_receive(f->core, frame, len);
    CHECK_EQ(le32(f->mem + RX_RING + 8), 0x63);     /* DD EOP TCPCS IPCS */

    frame[51] ^= 1;                                 /* bad TCP checksum */
    e1000e_pp_receive(f->core, frame, len);
    CHECK_EQ(le32(f->mem + RX_RING + 16 + 8), 0x20000063);   /* TCPE */

    frame[51] ^= 1;
    frame[25] ^= 1;                                 /* bad IP checksum */
    e1000e_pp_receive(f->core, frame, len);
    CHECK_EQ(le32(f->mem + RX_RING + 32 + 8) & 0x40000000u, 0x40000000u);
    /* Three frames checked, the last two with an error reported. */
    CHECK_EQ(f->core->obs.situations[SIT_RX_CSUM_IP], 3);
    CHECK_EQ(f->core->obs.situations[SIT_RX_CSUM_ERR], 2);
    fake_free(f);
}

void test_rx_rss_hash_with_the_mrqc_linux_writes(void)
{
    /*
     * Linux's e1000e_setup_rss_hash: MRQC = IPv4 | IPv4_TCP | IPv6 |
     * IPv6_TCP | IPv6_TCP_EX = 0x00370000 with MRQE (1:0) = 00, and
     * RXCSUM.PCSD; the hash of the RSS verification vector is reported.
     */
    Fake *f = up_device();
    uint8_t frame[64];
    int i;

    rx_ring(f, 8, 1u << 26, 1);
    for (i = 0; i < 10; i++) {
        wr(f, 0x05c80 + 4 * i, le32(rss_key + 4 * i));
    }
    wr(f, 0x05818, 0x00370000);
    wr(f, 0x05000, rd(f, 0x05000) | 1u << 13);
    e1000e_pp_receive(f->core, frame, rss_frame(frame, 6));
    CHECK_EQ(le32(f->mem + RX_RING) & 0xf, 1);
    CHECK_EQ(le32(f->mem + RX_RING + 4), 0x51ccc178);
    fake_free(f);
}
