/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests of migration: a device saved with a frame
 * part-moved into the ring, loaded into a fresh core, finishes the frame
 * exactly as the original does; a loaded state that would index, bound
 * or size anything wrongly is refused, the error naming the field.
 */
#include "core-test.h"

/* Extended descriptors, 2 KB buffers, 8 in the ring, "posted" handed over. */
static void ring_posted(Fake *f, unsigned posted)
{
    unsigned i;

    for (i = 0; i < 8; i++) {
        memset(f->mem + RX_RING + 16 * i, 0, 16);
        put64(f->mem + RX_RING + 16 * i, RX_BUF(i));
    }
    wr(f, 0x05008, 1u << 15);                       /* RFCTL.EXTEN */
    wr(f, 0x02800, RX_RING);                        /* RDBAL */
    wr(f, 0x02808, 8 * 16);                         /* RDLEN */
    wr(f, R_RDH, 0);
    wr(f, R_RDT, posted);
    wr(f, R_RCTL, RCTL_LPE | 1u << 1 | 1u << 15);   /* LPE EN BAM */
}

/*
 * Given a 5000-byte frame of which one 2 KB chunk is in the ring (DD, no
 * EOP) and the rest in the packet buffer, and a 300-byte frame behind it.
 */
static Fake *mid_frame(uint8_t *big, uint8_t *small)
{
    Fake *f = up_device();

    ring_posted(f, 1);
    make_frame(big, 5000, 7);
    make_frame(small, 300, 8);
    e1000e_pp_receive(f->core, big, 5000);
    e1000e_pp_receive(f->core, small, 300);
    return f;
}

void test_migrate_mid_frame_completes_the_frame_identically(void)
{
    static uint8_t big[5000], small[300];
    Fake *f = mid_frame(big, small);
    char err[160] = "";
    Fake *g;

    CHECK_EQ(f->core->arch.pktbuf.count, 2);
    CHECK_EQ(f->core->arch.pktbuf.q[f->core->arch.pktbuf.head].done, 2048);
    g = fake_migrate(f, err, sizeof(err));
    CHECK(g != NULL);
    if (!g) {
        printf("# refused: %s\n", err);
        fake_free(f);
        return;
    }
    /* When the driver posts the rest, both finish both frames. */
    wr(f, R_RDT, 7);
    wr(g, R_RDT, 7);
    fake_step(f, MS);
    fake_step(g, MS);
    CHECK(fake_same(f, g));
    /* 5000 + 4 FCS = 2048 + 2048 + 908, then 304 in the fourth. */
    CHECK(memcmp(g->mem + RX_BUF(0), big, 2048) == 0);
    CHECK(memcmp(g->mem + RX_BUF(1), big + 2048, 2048) == 0);
    CHECK(memcmp(g->mem + RX_BUF(2), big + 4096, 904) == 0);
    CHECK_EQ(le32(g->mem + RX_BUF(2) + 904), ref_crc32(big, 5000));
    CHECK_EQ(le16(g->mem + RX_RING + 32 + 12), 908);
    CHECK_EQ(le32(g->mem + RX_RING + 32 + 8) & 3, 3);   /* DD EOP */
    CHECK(memcmp(g->mem + RX_BUF(3), small, 300) == 0);
    CHECK_EQ(le32(g->mem + RX_BUF(3) + 300), ref_crc32(small, 300));
    CHECK_EQ(le16(g->mem + RX_RING + 48 + 12), 304);
    CHECK_EQ(rd(g, R_RDH), 4);
    fake_free(g);
    fake_free(f);
}

void test_migrate_pending_delay_timer_fires_at_its_deadline(void)
{
    static uint8_t frame[200];
    Fake *f = up_device(), *g;
    char err[160] = "";

    ring_posted(f, 7);
    wr(f, R_RDTR, 100);                     /* 100 x 1.024 us */
    make_frame(frame, sizeof(frame), 9);
    e1000e_pp_receive(f->core, frame, sizeof(frame));
    fake_step(f, 50 * 1024);
    g = fake_migrate(f, err, sizeof(err));
    CHECK(g != NULL);
    if (!g) {
        printf("# refused: %s\n", err);
        fake_free(f);
        return;
    }
    /* The write-back is held: no DD yet; RDTR re-armed where it was. */
    CHECK_EQ(le32(g->mem + RX_RING + 8) & 3, 0);
    CHECK_EQ(g->timers[E1000E_PP_TIMER_RDTR],
             f->timers[E1000E_PP_TIMER_RDTR]);
    CHECK(g->timers[E1000E_PP_TIMER_RDTR] >= 0);
    fake_step(f, 60 * 1024);
    fake_step(g, 60 * 1024);
    CHECK(fake_same(f, g));
    /* The held write-back went out when RDTR expired. */
    CHECK_EQ(le32(g->mem + RX_RING + 8) & 3, 3);
    fake_free(g);
    fake_free(f);
}

/* One corruption of a saved state, and the field its refusal names. */
typedef struct Corruption {
    const char *field;
    void (*apply)(E1000EPPCore *c);
} Corruption;

static void bad_power(E1000EPPCore *c)
{
    c->arch.power = 2;
}

static void bad_phy_page(E1000EPPCore *c)
{
    c->arch.phy_page = E1000E_PP_PHY_PAGES;
}

static void bad_sizes(E1000EPPCore *c)
{
    c->saved.pktbuf_bytes = E1000E_PP_PKTBUF_BYTES + 1;
}

static void bad_pktbuf_count(E1000EPPCore *c)
{
    c->arch.pktbuf.count++;
}

static void bad_pktbuf_head(E1000EPPCore *c)
{
    c->arch.pktbuf.head = 5;
}

static void bad_pktbuf_start(E1000EPPCore *c)
{
    c->arch.pktbuf.q[1].start += 16;
}

static void bad_pktbuf_len(E1000EPPCore *c)
{
    c->arch.pktbuf.q[1].len = E1000E_PP_PKTBUF_BYTES;
}

static void bad_pktbuf_done(E1000EPPCore *c)
{
    c->arch.pktbuf.q[0].done = c->arch.pktbuf.q[0].len + 1;
}

static void bad_pktbuf_done_behind(E1000EPPCore *c)
{
    c->arch.pktbuf.q[1].done = 1;
}

static void bad_pktbuf_charge(E1000EPPCore *c)
{
    c->arch.pktbuf.q[0].charge = 0;
}

static void bad_pktbuf_occupied(E1000EPPCore *c)
{
    c->saved.pktbuf_bytes += 16;
}

static void bad_pktbuf_write(E1000EPPCore *c)
{
    c->arch.pktbuf.write += 16;
}

static void bad_pktbuf_used(E1000EPPCore *c)
{
    c->arch.pktbuf.used = 0;
}

static void bad_rdt(E1000EPPCore *c)
{
    c->arch.regs[R_RDT >> 2] = 0x10000;
}

static void bad_tdh(E1000EPPCore *c)
{
    c->arch.regs[0x03810 >> 2] = 0x12345;
}

static void bad_rxcache_count(E1000EPPCore *c)
{
    c->arch.rxcache.count = E1000E_PP_RX_CACHE + 1;
}

static void bad_rxcache_ring(E1000EPPCore *c)
{
    c->arch.rxcache.count = 1;
    c->arch.rxcache.dsz = 16;
    c->arch.regs[R_RDH >> 2] = 8;           /* a ring of 8 units */
}

static void bad_rxwb_count(E1000EPPCore *c)
{
    c->arch.rxwb.count = E1000E_PP_WB_MAX + 1;
}

static void bad_rxwb_size(E1000EPPCore *c)
{
    c->arch.rxwb.count = 1;
    c->arch.rxwb.size[0] = 200;
}

static void bad_txwb_count(E1000EPPCore *c)
{
    c->arch.txwb.count = E1000E_PP_WB_MAX + 1;
}

static void bad_txwb_size(E1000EPPCore *c)
{
    c->arch.txwb.count = 1;
    c->arch.txwb.size[0] = 0;
}

static void bad_txpkt_len(E1000EPPCore *c)
{
    c->saved.txpkt_len = 100;
}

static void bad_txbuf_bytes(E1000EPPCore *c)
{
    c->arch.txpkt.started = true;
    c->saved.txpkt_len = 100;
}

static void bad_txpkt_plain(E1000EPPCore *c)
{
    c->arch.txpkt.started = true;
    c->saved.txpkt_len = 20000;
    c->saved.txbuf_bytes = 20004;
}

static void bad_txpkt_ctx(E1000EPPCore *c)
{
    c->arch.txpkt.started = true;
    c->arch.txpkt.tse = true;
    c->arch.txpkt.ctx.hdrlen = 54;
    c->arch.txpkt.ctx.mss = 8;
    c->saved.txpkt_len = 60;
    c->saved.txbuf_bytes = 64;
}

static void bad_txpkt_segment(E1000EPPCore *c)
{
    c->arch.txpkt.started = true;
    c->arch.txpkt.tse = true;
    c->arch.txpkt.ctx.hdrlen = 54;
    c->arch.txpkt.ctx.tucss = 34;
    c->arch.txpkt.ctx.mss = 1448;
    c->saved.txpkt_len = 54 + 1449;
    c->saved.txbuf_bytes = 4 + 54 + 1449;
}

static void bad_deadline(E1000EPPCore *c)
{
    c->arch.timer_deadline[3] = -5;
}

static void bad_resetting(E1000EPPCore *c)
{
    c->arch.resetting = true;
    c->arch.timer_deadline[E1000E_PP_TIMER_RESET] = E1000E_PP_TIMER_OFF;
}

static void bad_delay(E1000EPPCore *c)
{
    c->arch.delay_armed[1] = true;
    c->arch.timer_deadline[E1000E_PP_TIMER_RADV] = E1000E_PP_TIMER_OFF;
}

static void bad_work(E1000EPPCore *c)
{
    c->work = 1u << 7;
}

static const Corruption corruptions[] = {
    { "power:", bad_power },
    { "phy_page:", bad_phy_page },
    { "buffer sizes:", bad_sizes },
    { "pktbuf.count:", bad_pktbuf_count },
    { "pktbuf.head:", bad_pktbuf_head },
    { "pktbuf.q[1].start:", bad_pktbuf_start },
    { "pktbuf.q[1].len:", bad_pktbuf_len },
    { "pktbuf.q[0].done:", bad_pktbuf_done },
    { "pktbuf.q[1].done:", bad_pktbuf_done_behind },
    { "pktbuf.q[0].charge:", bad_pktbuf_charge },
    { "pktbuf occupied bytes:", bad_pktbuf_occupied },
    { "pktbuf.write:", bad_pktbuf_write },
    { "pktbuf.used:", bad_pktbuf_used },
    { "RDH/RDT:", bad_rdt },
    { "TDH/TDT:", bad_tdh },
    { "rxcache.head/count:", bad_rxcache_count },
    { "rxcache.count:", bad_rxcache_ring },
    { "rxwb.count:", bad_rxwb_count },
    { "rxwb.size[0]:", bad_rxwb_size },
    { "txwb.count:", bad_txwb_count },
    { "txwb.size[0]:", bad_txwb_size },
    { "txpkt.len:", bad_txpkt_len },
    { "txbuf bytes:", bad_txbuf_bytes },
    { "txpkt.len:", bad_txpkt_plain },
    { "txpkt.ctx:", bad_txpkt_ctx },
    { "txpkt.len:", bad_txpkt_segment },
    { "timer_deadline[3]:", bad_deadline },
    { "resetting:", bad_resetting },
    { "delay_armed[1]:", bad_delay },
    { "work:", bad_work },
};

void test_migrate_refuses_each_corrupted_field(void)
{
    static uint8_t big[5000], small[300];
    Fake *f = mid_frame(big, small);
    size_t i;

    e1000e_pp_state_presave(f->core);
    for (i = 0; i < sizeof(corruptions) / sizeof(corruptions[0]); i++) {
        Fake *g = fake_new();
        char err[160] = "";
        int rc;

        g->core->arch = f->core->arch;
        g->core->saved = f->core->saved;
        g->core->work = f->core->work;
        corruptions[i].apply(g->core);
        rc = e1000e_pp_state_postload(g->core, err, sizeof(err));
        if (rc != -1 || strncmp(err, corruptions[i].field,
                                strlen(corruptions[i].field))) {
            printf("# %s: rc %d, \"%s\"\n", corruptions[i].field, rc, err);
            test_failed = 1;
        }
        fake_free(g);
    }
    /* The state itself, uncorrupted, is taken. */
    {
        Fake *g = fake_new();
        char err[160] = "";

        g->core->arch = f->core->arch;
        g->core->saved = f->core->saved;
        CHECK_EQ(e1000e_pp_state_postload(g->core, err, sizeof(err)), 0);
        fake_free(g);
    }
    fake_free(f);
}
