/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the e1000e-pp device core, run without QEMU against a
 * fake platform. Register offsets and bits are written here as the
 * 82574L datasheet gives them, not taken from the model's headers.
 * Output is TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-platform.h"

#define MS              (1000 * 1000LL)
#define RX_RING         0x10000u
#define RX_BUF(i)       (0x20000u + (i) * 0x4000u)
#define TX_RING         0x18000u
#define TX_BUF          0x80000u

static int failures, test_failed;

#define CHECK(cond) do { \
        if (!(cond)) { \
            printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #cond); \
            test_failed = 1; \
        } \
    } while (0)
#define CHECK_EQ(a, b) do { \
        unsigned long long va_ = (a), vb_ = (b); \
        if (va_ != vb_) { \
            printf("# %s:%d: %s = 0x%llx, expected 0x%llx\n", __FILE__, \
                   __LINE__, #a, va_, vb_); \
            test_failed = 1; \
        } \
    } while (0)

static uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static void put64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        p[i] = v >> (8 * i);
    }
}

/* Reference CRC-32 (bitwise), independent of the model's table version. */
static uint32_t ref_crc32(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    int k;

    while (n--) {
        crc ^= *p++;
        for (k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
        }
    }
    return ~crc;
}

/* A device past reset and auto-negotiation, link up. */
static Fake *up_device(void)
{
    Fake *f = fake_new();

    fake_step(f, 600 * MS);
    return f;
}

/* Rx ring of n extended/legacy descriptors, RDT = n - 1 (all posted). */
static void rx_ring(Fake *f, unsigned n, uint32_t rctl, int extended)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        memset(f->mem + RX_RING + 16 * i, 0, 16);
        put64(f->mem + RX_RING + 16 * i, RX_BUF(i));
    }
    wr(f, 0x05008, extended ? 1u << 15 : 0);       /* RFCTL.EXTEN */
    wr(f, 0x02800, RX_RING);                        /* RDBAL */
    wr(f, 0x02804, 0);                              /* RDBAH */
    wr(f, 0x02808, n * 16);                         /* RDLEN */
    wr(f, 0x02810, 0);                              /* RDH */
    wr(f, 0x02818, n - 1);                          /* RDT */
    wr(f, 0x00100, rctl | 1u << 1 | 1u << 15);      /* RCTL.EN | BAM */
}

static void make_frame(uint8_t *buf, size_t len, uint8_t seed)
{
    static const uint8_t da[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    size_t i;

    memcpy(buf, da, 6);
    memcpy(buf + 6, "\x02\x00\x00\x00\x00\x01", 6);
    buf[12] = 0x88;      /* local experimental EtherType 0x88b5 */
    buf[13] = 0xb5;
    for (i = 14; i < len; i++) {
        buf[i] = (uint8_t)(i * 7 + seed);
    }
}

static void test_crc32_check_value(void)
{
    static uint8_t frame[9100];
    size_t n;

    /* Given the standard check string, then 0xCBF43926 on both sides. */
    CHECK_EQ(ref_crc32((const uint8_t *)"123456789", 9), 0xcbf43926);
    CHECK_EQ(e1000e_pp_crc32((const uint8_t *)"123456789", 9), 0xcbf43926);
    /*
     * And the model's CRC (table below 64 bytes, carry-less folding above
     * where the CPU has it) equals the bitwise one at every length up to
     * 300 and at jumbo sizes, from aligned and unaligned starts.
     */
    make_frame(frame, sizeof(frame), 3);
    for (n = 0; n <= 300; n++) {
        CHECK_EQ(e1000e_pp_crc32(frame, n), ref_crc32(frame, n));
        CHECK_EQ(e1000e_pp_crc32(frame + 1, n), ref_crc32(frame + 1, n));
    }
    for (n = 1514; n <= sizeof(frame) - 8; n += 7) {
        CHECK_EQ(e1000e_pp_crc32(frame + 3, n), ref_crc32(frame + 3, n));
    }
}

/* RFC 1071 checksum, one 16-bit word at a time. */
static uint16_t ref_csum(const uint8_t *p, size_t n)
{
    uint32_t sum = 0;
    size_t i;

    for (i = 0; i + 1 < n; i += 2) {
        sum += p[i] << 8 | p[i + 1];
    }
    if (n & 1) {
        sum += p[n - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}

static void test_internet_checksum_matches_rfc1071(void)
{
    uint8_t buf[257];
    size_t n, i;

    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = (uint8_t)(i * 131 + 7) | (i % 3 ? 0 : 0xf0);
    }
    for (n = 0; n <= sizeof(buf); n++) {
        CHECK_EQ(e1000e_pp_csum_fold(e1000e_pp_csum_add(0, buf, n)),
                 ref_csum(buf, n));
    }
    /* Carries out of an accumulated sum fold back in. */
    CHECK_EQ(e1000e_pp_csum_fold(e1000e_pp_csum_add(0xffffffffu, buf, 2)),
             e1000e_pp_csum_fold(0xffff + (uint32_t)(buf[0] << 8 | buf[1])));
}

static void test_nvm_mac_and_checksum_via_eerd(void)
{
    Fake *f = fake_new();
    uint16_t sum = 0, w;
    unsigned i;

    for (i = 0; i < 64; i++) {
        wr(f, 0x00014, i << 2 | 1);                 /* EERD.START */
        CHECK(rd(f, 0x00014) & 2);                  /* EERD.DONE */
        w = rd(f, 0x00014) >> 16;
        sum += w;
        if (i == 0) {
            CHECK_EQ(w, 0x5452);
        } else if (i == 1) {
            CHECK_EQ(w, 0x1200);
        } else if (i == 2) {
            CHECK_EQ(w, 0x5634);
        }
    }
    CHECK_EQ(sum, 0xbaba);
    fake_free(f);
}

static void test_reset_sets_auto_rd_within_driver_window(void)
{
    Fake *f = up_device();
    int polls;

    /* When CTRL.RST is written, EECD.AUTO_RD drops and RST self-clears. */
    wr(f, 0x00000, rd(f, 0x00000) | 1u << 26);
    CHECK(!(rd(f, 0x00000) & 1u << 26));
    CHECK(!(rd(f, 0x00010) & 1u << 9));
    /* Then it is back within Linux's 10 polls 1 ms apart. */
    for (polls = 0; polls < 10 && !(rd(f, 0x00010) & 1u << 9); polls++) {
        fake_step(f, 1 * MS);
    }
    CHECK(polls < 10);
    CHECK(rd(f, 0x00010) & 1u << 9);
    /* And the permanent MAC is back in RAL0/RAH0 with AV. */
    CHECK_EQ(rd(f, 0x05400), 0x12005452);
    CHECK_EQ(rd(f, 0x05404), 0x80005634);
    fake_free(f);
}

static uint16_t mdic_read(Fake *f, unsigned reg)
{
    uint32_t v;

    wr(f, 0x00020, 2u << 26 | 1u << 21 | reg << 16);
    v = rd(f, 0x00020);
    CHECK(v & 1u << 28);                            /* READY */
    CHECK(!(v & 1u << 30));                         /* ERROR */
    CHECK_EQ((v >> 16) & 0x1f, reg);                /* REGADD echoed */
    return (uint16_t)v;
}

static void mdic_write(Fake *f, unsigned reg, uint16_t val)
{
    wr(f, 0x00020, 1u << 26 | 1u << 21 | reg << 16 | val);
    CHECK(rd(f, 0x00020) & 1u << 28);
}

static void test_phy_identity_and_unimplemented_reads_zero(void)
{
    Fake *f = up_device();

    CHECK_EQ(mdic_read(f, 2), 0x0141);
    CHECK_EQ(mdic_read(f, 3), 0x0cb1);
    /* Register 21 (receive error counter) must never read 0xFFFF. */
    mdic_write(f, 22, 0);
    CHECK_EQ(mdic_read(f, 21), 0);
    /* A PHY address other than 1 ends the cycle with ERROR. */
    wr(f, 0x00020, 2u << 26 | 2u << 21 | 2u << 16);
    CHECK(rd(f, 0x00020) & 1u << 30);
    fake_free(f);
}

static void test_phy_power_down_drops_link_and_raises_lsc(void)
{
    Fake *f = up_device();

    CHECK(rd(f, 0x00008) & 2);                      /* STATUS.LU */
    CHECK_EQ(rd(f, 0x00008) & 0xc1, 0x81);          /* 1000 Mb/s, FD */
    rd(f, 0x000c0);                                 /* clear ICR */
    mdic_write(f, 0, mdic_read(f, 0) | 1u << 11);   /* BMCR.PDOWN */
    CHECK(!(rd(f, 0x00008) & 2));
    CHECK(rd(f, 0x000c0) & 4);                      /* ICR.LSC */
    /* Power back up: the link returns after auto-negotiation. */
    mdic_write(f, 0, mdic_read(f, 0) & ~(1u << 11));
    CHECK(!(rd(f, 0x00008) & 2));
    fake_step(f, 600 * MS);
    CHECK(rd(f, 0x00008) & 2);
    CHECK(rd(f, 0x000c0) & 4);
    CHECK(mdic_read(f, 1) & 1u << 2);               /* BMSR.LSTATUS */
    fake_free(f);
}

static void test_pba_txa_is_what_rxa_leaves(void)
{
    Fake *f = fake_new();

    CHECK_EQ(rd(f, 0x01000), 0x00140014);           /* 20 KB / 20 KB */
    wr(f, 0x01000, 0x0000000e);                     /* RXA = 14 KB */
    CHECK_EQ(rd(f, 0x01000), 0x001a000e);           /* TXA = 26 KB */
    fake_free(f);
}

static void test_rx_fcs_counted_in_one_descriptor(void)
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

static void test_rx_fcs_straddles_two_chunks(void)
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

static void test_rx_fcs_alone_in_last_chunk(void)
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

static void test_rx_secrc_strips_fcs(void)
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

static void test_rx_waits_in_packet_buffer_when_ring_is_empty(void)
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
    CHECK_EQ(f->core->rxstat.delivered, 2);
    fake_free(f);
}

static void test_rx_packet_buffer_overflow_counts_mpc_and_rxo(void)
{
    Fake *f = up_device();
    uint8_t frame[1514];
    uint64_t held;
    E1000EPPRxCounters *st = &f->core->rxstat;
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
    held = f->core->pktbuf.count;
    CHECK_EQ(held, 2);
    CHECK_EQ(st->offered, st->delivered + st->missed + st->filtered +
             st->oversize + st->undersize + st->not_ready + st->dma_error +
             st->flushed + held);
    wr(f, 0x02818, 7);
    CHECK_EQ(st->delivered, 2);
    CHECK_EQ(f->core->pktbuf.count, 0);
    fake_free(f);
}

static void test_rx_wthresh_holds_writeback_until_rdtr_expires(void)
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

static void test_rx_xoff_when_buffer_passes_fcrth(void)
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
    fake_free(f);
}

static void test_rx_address_filters(void)
{
    Fake *f = up_device();
    E1000EPPRxCounters *st = &f->core->rxstat;
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

static void test_rx_vlan_filter_and_strip(void)
{
    Fake *f = up_device();
    E1000EPPRxCounters *st = &f->core->rxstat;
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

static void test_rx_rxdmt0_at_rdmts_threshold(void)
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

static void test_rx_packet_split_header_split_never_passes_rdt(void)
{
    /*
     * Regression (review): with a header split, a frame needed more
     * descriptors than counted and the device wrote past RDT.
     * PSRCTL: BSIZE0 256 bytes, BSIZE1 1 KB; 8 packet-split descriptors
     * (RDLEN 256 = 16 units), RDT = 2 units: one descriptor posted.
     */
    Fake *f = up_device();
    uint8_t frame[1200];
    unsigned i;

    memset(f->mem + RX_RING, 0, 256);
    for (i = 0; i < 8; i++) {
        put64(f->mem + RX_RING + 32 * i, RX_BUF(2 * i));
        put64(f->mem + RX_RING + 32 * i + 8, RX_BUF(2 * i + 1));
    }
    wr(f, 0x02170, 0x00000102);                     /* PSRCTL */
    wr(f, 0x02800, RX_RING);
    wr(f, 0x02808, 256);
    wr(f, 0x02810, 0);
    wr(f, 0x02818, 2);
    wr(f, 0x00100, 1u << 1 | 1u << 3 | 1u << 10 | 1u << 26);
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
    /* 54-byte header + 1146 bytes > 1 KB: two descriptors, one posted. */
    CHECK_EQ(rd(f, 0x02810), 0);
    CHECK_EQ(le32(f->mem + RX_RING + 32 + 8) & 1, 0);   /* untouched */
    CHECK_EQ(f->core->pktbuf.count, 1);             /* waits instead */
    wr(f, 0x02818, 4);
    CHECK_EQ(rd(f, 0x02810), 4);
    CHECK_EQ(le16(f->mem + RX_RING + 16), 0x8000 | 54);  /* HS, 54 */
    CHECK_EQ(le16(f->mem + RX_RING + 18), 1024);
    CHECK_EQ(le16(f->mem + RX_RING + 32 + 12), 0);  /* buffer 0 empty */
    CHECK_EQ(le16(f->mem + RX_RING + 32 + 18), 1200 - 54 - 1024);
    fake_free(f);
}

static void test_rx_mta_mo3_uses_address_bits_43_32(void)
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
    CHECK_EQ(f->core->rxstat.delivered, 1);
    fake_free(f);
}

static void test_rx_oversize_without_lpe_counts_roc(void)
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

static void tx_ring(Fake *f, unsigned n)
{
    memset(f->mem + TX_RING, 0, n * 16);
    wr(f, 0x03800, TX_RING);
    wr(f, 0x03804, 0);
    wr(f, 0x03808, n * 16);
    wr(f, 0x03810, 0);
    wr(f, 0x03818, 0);
    wr(f, 0x00400, 1u << 1 | 1u << 3);              /* TCTL.EN | PSP */
}

static void test_tx_legacy_frame_bytes_and_dd_only_with_rs(void)
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
    fake_free(f);
}

static void test_phy_loopback_returns_tx_frames_to_rx_only(void)
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
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    CHECK_EQ(le16(f->mem + RX_RING + 8), 1024);
    /* Frames from the line are not heard in loopback. */
    e1000e_pp_receive(f->core, frame, 60);
    CHECK_EQ(rd(f, 0x02810), 1);
    fake_free(f);
}

static void tx_push(Fake *f, unsigned i, size_t len, uint8_t cmd)
{
    uint8_t *d = f->mem + TX_RING + 16 * i;

    memset(d, 0, 16);
    put64(d, TX_BUF);
    d[8] = len & 0xff;
    d[9] = len >> 8;
    d[11] = cmd;
}

static void test_tx_wthresh_holds_dd_until_tidv(void)
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

static void test_ivar_bit31_tx_interrupt_skips_ide_delay(void)
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

/* A TSO context descriptor: IPv4/TCP, the given HDRLEN and MSS. */
static void tx_push_tso_context(Fake *f, unsigned i, uint8_t hdrlen,
                                uint16_t mss, uint32_t paylen)
{
    uint8_t *d = f->mem + TX_RING + 16 * i;

    memset(d, 0, 16);
    d[0] = 14;                                      /* IPCSS */
    d[1] = 24;                                      /* IPCSO */
    d[4] = 34;                                      /* TUCSS */
    d[5] = 50;                                      /* TUCSO */
    d[8] = paylen & 0xff;
    d[9] = (paylen >> 8) & 0xff;
    d[10] = (paylen >> 16) & 0x0f;                  /* DTYP 0: context */
    d[11] = 0x20 | 0x04 | 0x02 | 0x01;              /* DEXT TSE IP TCP */
    d[13] = hdrlen;
    d[14] = mss & 0xff;
    d[15] = mss >> 8;
}

/* A TSO data descriptor of len bytes at addr. */
static void tx_push_tso_data(Fake *f, unsigned i, uint64_t addr,
                             uint32_t len, bool eop)
{
    uint8_t *d = f->mem + TX_RING + 16 * i;

    memset(d, 0, 16);
    put64(d, addr);
    d[8] = len & 0xff;
    d[9] = (len >> 8) & 0xff;
    d[10] = 0x10 | ((len >> 16) & 0x0f);            /* DTYP 1: data */
    d[11] = 0x20 | 0x04 | (eop ? 0x01 : 0);         /* DEXT TSE EOP */
    d[13] = 0x02;                                   /* POPTS.TXSM */
}

static void test_tso_context_reload_mid_packet_cannot_overrun_txbuf(void)
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
    /* Segments of the packet's own MSS went out; nothing overran. */
    CHECK(f->nframes >= 1);
    CHECK_EQ(f->frames[0].len, 54 + 60000);
    CHECK_EQ(rd(f, 0x03810), 4);                    /* TDH */
    fake_free(f);
}

static void test_tso_mss_zero_mid_packet_does_not_hang(void)
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

static void test_tx_pads_short_frames_with_psp(void)
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

static void test_tx_tail_outside_ring_is_ignored(void)
{
    Fake *f = up_device();

    tx_ring(f, 8);
    wr(f, 0x03818, 100);                            /* TDT beyond ring */
    CHECK_EQ(f->nframes, 0);
    CHECK_EQ(rd(f, 0x03810), 0);
    CHECK(f->logs > 0);
    fake_free(f);
}

static void test_stats_clear_on_read_and_high_half_clears_both(void)
{
    Fake *f = up_device();
    uint8_t frame[60];

    rx_ring(f, 8, 1u << 26, 1);
    make_frame(frame, sizeof(frame), 1);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(rd(f, 0x04074), 1);                    /* GPRC */
    CHECK_EQ(rd(f, 0x04074), 0);
    CHECK_EQ(rd(f, 0x04088), 64);                   /* GORCL */
    CHECK_EQ(rd(f, 0x0408c), 0);                    /* GORCH clears */
    CHECK_EQ(rd(f, 0x04088), 0);
    fake_free(f);
}

static void test_intx_int_asserted_and_icr_read_deasserts(void)
{
    Fake *f = up_device();

    rd(f, 0x000c0);
    wr(f, 0x000d0, 0x04);                           /* IMS.LSC */
    wr(f, 0x000c8, 0x04);                           /* ICS.LSC */
    CHECK_EQ(f->intx, 1);
    CHECK_EQ(rd(f, 0x000c0), 0x80000004);
    CHECK_EQ(f->intx, 0);
    CHECK_EQ(rd(f, 0x000c0), 0);
    fake_free(f);
}

static void test_msix_ivar_routes_and_eiac_clears(void)
{
    Fake *f = up_device();

    f->mode = E1000E_PP_IRQ_MSIX;
    rd(f, 0x000c0);
    /* RxQ0 -> vector 0, TxQ0 -> vector 1, Other -> vector 2 (valid). */
    wr(f, 0x000e4, 0x8 | 0x9 << 8 | 0xa << 16);
    wr(f, 0x000dc, 1u << 20 | 1u << 22);            /* EIAC RxQ0|TxQ0 */
    wr(f, 0x000d0, 1u << 20 | 1u << 22 | 1u << 24 | 0x04);
    wr(f, 0x000c8, 0x80);                           /* ICS.RXT0 */
    CHECK_EQ(f->vector_count[0], 1);
    CHECK_EQ(rd(f, 0x000c0) & 1u << 20, 0);         /* auto-cleared */
    wr(f, 0x000c8, 0x04);                           /* ICS.LSC */
    CHECK_EQ(f->vector_count[2], 1);
    CHECK_EQ(f->vector_count[1], 0);
    fake_free(f);
}

static void test_itr_throttles_intx_assertions(void)
{
    Fake *f = up_device();

    rd(f, 0x000c0);
    wr(f, 0x000c4, 1000);                           /* 256 us */
    wr(f, 0x000d0, 0x04);
    wr(f, 0x000c8, 0x04);
    CHECK_EQ(f->intx, 1);
    rd(f, 0x000c0);
    wr(f, 0x000c8, 0x04);
    CHECK_EQ(f->intx, 0);                           /* inside the window */
    fake_step(f, 255999);
    CHECK_EQ(f->intx, 0);
    fake_step(f, 1);
    CHECK_EQ(f->intx, 1);
    fake_free(f);
}

static void test_rdtr_delays_rxt0_and_fpd_flushes(void)
{
    Fake *f = up_device();
    uint8_t frame[60];

    rx_ring(f, 8, 1u << 26, 1);
    wr(f, 0x02820, 0x20);                           /* RDTR 32.768 us */
    rd(f, 0x000c0);
    make_frame(frame, sizeof(frame), 1);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(rd(f, 0x000c0) & 0x80, 0);
    fake_step(f, 0x20 * 1024 - 1);
    CHECK_EQ(rd(f, 0x000c0) & 0x80, 0);
    fake_step(f, 1);
    CHECK_EQ(rd(f, 0x000c0) & 0x80, 0x80);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    wr(f, 0x02820, 0x20 | 1u << 31);                /* FPD */
    CHECK_EQ(rd(f, 0x000c0) & 0x80, 0x80);
    fake_free(f);
}

static void test_dma_failure_writes_no_dd(void)
{
    Fake *f = up_device();
    uint8_t frame[60];

    rx_ring(f, 8, 1u << 26, 1);
    put64(f->mem + RX_RING, FAKE_MEM_BYTES + 0x1000);  /* unmapped */
    make_frame(frame, sizeof(frame), 1);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 1, 0);    /* no DD */
    CHECK_EQ(rd(f, 0x02810), 0);                    /* head stays */
    CHECK_EQ(f->core->rxstat.dma_error, 1);
    CHECK_EQ(f->core->rxstat.delivered, 0);
    CHECK(f->core->dma_errors > 0);
    /* The engine stopped: the next frame waits in the packet buffer. */
    put64(f->mem + RX_RING, RX_BUF(0));
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    CHECK_EQ(f->core->pktbuf.count, 1);
    /* Rewriting RCTL.EN restarts it and the frame is delivered. */
    wr(f, 0x00100, 0);
    wr(f, 0x00100, 1u << 1 | 1u << 15 | 1u << 26);
    CHECK_EQ(f->core->rxstat.delivered, 1);
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 3, 3);
    fake_free(f);
}

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
#define T(fn) { #fn, fn }
    T(test_crc32_check_value),
    T(test_internet_checksum_matches_rfc1071),
    T(test_nvm_mac_and_checksum_via_eerd),
    T(test_reset_sets_auto_rd_within_driver_window),
    T(test_phy_identity_and_unimplemented_reads_zero),
    T(test_phy_power_down_drops_link_and_raises_lsc),
    T(test_pba_txa_is_what_rxa_leaves),
    T(test_rx_fcs_counted_in_one_descriptor),
    T(test_rx_fcs_straddles_two_chunks),
    T(test_rx_fcs_alone_in_last_chunk),
    T(test_rx_secrc_strips_fcs),
    T(test_rx_waits_in_packet_buffer_when_ring_is_empty),
    T(test_rx_packet_buffer_overflow_counts_mpc_and_rxo),
    T(test_rx_address_filters),
    T(test_rx_packet_split_header_split_never_passes_rdt),
    T(test_rx_mta_mo3_uses_address_bits_43_32),
    T(test_rx_vlan_filter_and_strip),
    T(test_rx_rxdmt0_at_rdmts_threshold),
    T(test_rx_wthresh_holds_writeback_until_rdtr_expires),
    T(test_rx_xoff_when_buffer_passes_fcrth),
    T(test_phy_loopback_returns_tx_frames_to_rx_only),
    T(test_rx_oversize_without_lpe_counts_roc),
    T(test_tx_legacy_frame_bytes_and_dd_only_with_rs),
    T(test_tx_pads_short_frames_with_psp),
    T(test_tx_wthresh_holds_dd_until_tidv),
    T(test_tso_context_reload_mid_packet_cannot_overrun_txbuf),
    T(test_tso_mss_zero_mid_packet_does_not_hang),
    T(test_ivar_bit31_tx_interrupt_skips_ide_delay),
    T(test_tx_tail_outside_ring_is_ignored),
    T(test_stats_clear_on_read_and_high_half_clears_both),
    T(test_intx_int_asserted_and_icr_read_deasserts),
    T(test_msix_ivar_routes_and_eiac_clears),
    T(test_itr_throttles_intx_assertions),
    T(test_rdtr_delays_rxt0_and_fpd_flushes),
    T(test_dma_failure_writes_no_dd),
#undef T
};

int main(void)
{
    size_t i, n = sizeof(tests) / sizeof(tests[0]);

    printf("1..%zu\n", n);
    for (i = 0; i < n; i++) {
        test_failed = 0;
        tests[i].fn();
        printf("%s %zu - %s\n", test_failed ? "not ok" : "ok", i + 1,
               tests[i].name);
        failures += test_failed;
    }
    return failures ? 1 : 0;
}
