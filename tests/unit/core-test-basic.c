/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core unit tests: NVM, reset, PHY, PBA, statistics and frame arithmetic. */
#include "core-test.h"

void test_crc32_check_value(void)
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

void test_crc32_every_folding_variant(void)
{
    static uint8_t frame[9100];
    unsigned v, variants = e1000e_pp_crc32_clmul_variants();
    size_t n;

    /*
     * Every carry-less variant the host has (not only the widest, which
     * the test above reaches), at every length from 64 to 600 (each tail
     * of 0-15 bytes after 64-byte steps of every count up to 8) and every
     * 13th up to 9,099, unaligned: the complemented result is the
     * bitwise CRC-32.
     */
    make_frame(frame, sizeof(frame), 5);
    for (v = 1; v <= variants; v++) {
        for (n = 64; n + 1 <= sizeof(frame); n += n < 600 ? 1 : 13) {
            CHECK_EQ(~e1000e_pp_crc32_clmul_variant(v, E1000E_PP_CRC_INIT,
                                                    frame + 1, n),
                     ref_crc32(frame + 1, n));
        }
    }
    printf("# CRC-32 folding variants on this host: %u\n", variants);
}

void test_internet_checksum_matches_rfc1071(void)
{
    static uint8_t big[9100];
    uint8_t buf[257];
    size_t n, i;

    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = (uint8_t)(i * 131 + 7) | (i % 3 ? 0 : 0xf0);
    }
    for (n = 0; n <= sizeof(buf); n++) {
        CHECK_EQ(e1000e_pp_csum_fold(e1000e_pp_csum_add(0, buf, n)),
                 ref_csum(buf, n));
    }
    /*
     * Jumbo lengths from odd starts, and the words that stress a wide
     * sum: all ones, and every word exactly 0x8000 or 0x7fff.
     */
    make_frame(big, sizeof(big), 5);
    for (n = 1500; n <= sizeof(big) - 8; n += 97) {
        CHECK_EQ(e1000e_pp_csum_fold(e1000e_pp_csum_add(0, big + 1, n)),
                 ref_csum(big + 1, n));
    }
    for (i = 0; i < 3; i++) {
        static const uint8_t pat[3][2] = { { 0xff, 0xff }, { 0x80, 0x00 },
                                           { 0x7f, 0xff } };
        for (n = 0; n < sizeof(big); n++) {
            big[n] = pat[i][n & 1];
        }
        CHECK_EQ(e1000e_pp_csum_fold(e1000e_pp_csum_add(0, big, 9018)),
                 ref_csum(big, 9018));
    }
    /* Carries out of an accumulated sum fold back in. */
    CHECK_EQ(e1000e_pp_csum_fold(e1000e_pp_csum_add(0xffffffffu, buf, 2)),
             e1000e_pp_csum_fold(0xffff + (uint32_t)(buf[0] << 8 | buf[1])));
}

void test_nvm_mac_and_checksum_via_eerd(void)
{
    Fake *f = fake_new();
    uint16_t sum = 0, w;
    unsigned i;

    /* The power-on auto-load first, as Linux's probe waits for it. */
    fake_step(f, 2 * 1000 * 1000);
    CHECK(rd(f, 0x00010) & (1u << 9));              /* EECD.AUTO_RD */
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

void test_reset_sets_auto_rd_within_driver_window(void)
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

void test_phy_identity_and_unimplemented_reads_zero(void)
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

void test_phy_power_down_drops_link_and_raises_lsc(void)
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

void test_pba_txa_is_what_rxa_leaves(void)
{
    Fake *f = fake_new();

    CHECK_EQ(rd(f, 0x01000), 0x00140014);           /* 20 KB / 20 KB */
    wr(f, 0x01000, 0x0000000e);                     /* RXA = 14 KB */
    CHECK_EQ(rd(f, 0x01000), 0x001a000e);           /* TXA = 26 KB */
    fake_free(f);
}

void test_stats_clear_on_read_and_high_half_clears_both(void)
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

void test_ctrl_slu_gates_the_link_and_frcspd_forces_speed(void)
{
    /*
     * The MAC sees the PHY's link only with CTRL.SLU (bit 6); STATUS.SPEED
     * (7:6) follows CTRL.SPEED (9:8) with CTRL.FRCSPD (bit 11), STATUS.FD
     * follows CTRL.FD with CTRL.FRCDPLX (bit 12).
     */
    Fake *f = up_device();
    uint32_t ctrl = rd(f, 0x00000);
    uint8_t frame[60];

    CHECK(ctrl & 1u << 6);                          /* SLU after reset */
    CHECK_EQ(rd(f, 0x00008) & 0xc3, 0x83);          /* LU, 1000, FD */
    rd(f, 0x000c0);
    wr(f, 0x00000, ctrl & ~(1u << 6));
    CHECK_EQ(rd(f, 0x00008) & 2, 0);                /* no LU */
    CHECK(rd(f, 0x000c0) & 4);                      /* ICR.LSC */
    CHECK(mdic_read(f, 1) & 1u << 2);               /* the PHY has link */
    rx_ring(f, 8, 0, 1);
    make_frame(frame, sizeof(frame), 1);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(f->core->obs.rxstat.not_ready, 1);
    wr(f, 0x00000, ctrl);
    CHECK(rd(f, 0x00008) & 2);
    CHECK(rd(f, 0x000c0) & 4);
    /* Forced 100 Mb/s half duplex: FRCSPD | FRCDPLX, SPEED 01, FD 0. */
    wr(f, 0x00000, (ctrl & ~(3u << 8 | 1u)) | 1u << 11 | 1u << 12 |
       1u << 8);
    CHECK_EQ(rd(f, 0x00008) & 0xc3, 0x42);          /* LU, 100, half */
    /* Without FRCSPD the resolved 1000 Mb/s comes back. */
    wr(f, 0x00000, ctrl | 1u << 8);
    CHECK_EQ(rd(f, 0x00008) & 0xc3, 0x83);
    fake_free(f);
}

void test_swsm_smbi_is_acquired_by_reading(void)
{
    Fake *f = up_device();

    /*
     * SWSM.SMBI (bit 0) is the software semaphore: the read that finds
     * it 0 sets it, so every later read finds 1 until the owner writes
     * 0 (Linux's e1000_get_hw_semaphore polls for a read of 0,
     * e1000_put_hw_semaphore writes it clear).
     */
    CHECK_EQ(rd(f, 0x05b50) & 1, 0);
    CHECK_EQ(rd(f, 0x05b50) & 1, 1);
    CHECK_EQ(rd(f, 0x05b50) & 1, 1);
    wr(f, 0x05b50, 0);
    CHECK_EQ(rd(f, 0x05b50) & 1, 0);
    CHECK_EQ(rd(f, 0x05b50) & 1, 1);
    fake_free(f);
}

void test_rx_runt_shorter_than_a_header_counts_ruc(void)
{
    Fake *f = up_device();
    uint8_t frame[60];

    /*
     * Bytes too few for an Ethernet header (14) are no frame the filters
     * can judge: dropped, counted in RUC. 14-59 bytes are a frame its
     * sender did not pad (a netdev peer): stored padded to the 60 a MAC
     * sends, and not undersize (docs/fidelity.md).
     */
    rx_ring(f, 8, 1u << 26, 0);                     /* SECRC, legacy */
    make_frame(frame, sizeof(frame), 3);
    CHECK(e1000e_pp_receive(f->core, frame, 13));
    CHECK_EQ(rd(f, 0x02810), 0);                    /* RDH */
    CHECK_EQ(f->core->obs.rxstat.undersize, 1);
    CHECK(e1000e_pp_receive(f->core, frame, 14));
    CHECK_EQ(rd(f, 0x02810), 1);
    CHECK_EQ(le16(f->mem + RX_RING + 8), 60);
    CHECK(memcmp(f->mem + RX_BUF(0), frame, 14) == 0);
    CHECK_EQ(f->mem[RX_BUF(0) + 14], 0);
    CHECK_EQ(f->mem[RX_BUF(0) + 59], 0);
    CHECK_EQ(rd(f, 0x040a4), 1);                    /* RUC */
    CHECK_EQ(rd(f, 0x04074), 1);                    /* GPRC */
    CHECK_EQ(rd(f, 0x040a4), 0);                    /* clear on read */
    fake_free(f);
}

void test_extcnf_ctrl_mdio_ownership_is_always_granted(void)
{
    Fake *f = up_device();

    /*
     * EXTCNF_CTRL.MDIO_SW_OWNERSHIP (bit 5): Linux sets it and reads it
     * back to learn it owns the MDIO; no firmware competes here.
     */
    wr(f, 0x00f00, rd(f, 0x00f00) | 0x20);
    CHECK_EQ(rd(f, 0x00f00) & 0x20, 0x20);
    wr(f, 0x00f00, rd(f, 0x00f00) & ~0x20u);
    CHECK_EQ(rd(f, 0x00f00) & 0x20, 0);
    fake_free(f);
}

void test_phy_soft_reset_keeps_registers_phy_rst_restores(void)
{
    Fake *f = up_device();
    uint16_t anar = mdic_read(f, 4);

    /*
     * docs/fidelity.md: BMCR.RESET restarts auto-negotiation and keeps
     * the PHY's configuration (ANAR here); CTRL.PHY_RST (bit 31), set
     * and cleared as e1000_phy_hw_reset_generic does, restores it.
     */
    mdic_write(f, 4, anar & ~0x0100);               /* no 100BASE-TX FD */
    mdic_write(f, 0, mdic_read(f, 0) | 0x8000);     /* BMCR.RESET */
    CHECK_EQ(rd(f, 0x00008) & 0x02, 0);             /* renegotiating */
    fake_step(f, 600 * MS);
    CHECK_EQ(rd(f, 0x00008) & 0x02, 0x02);
    CHECK_EQ(mdic_read(f, 4), anar & ~0x0100);
    CHECK_EQ(mdic_read(f, 0) & 0x8000, 0);          /* self-clearing */
    wr(f, 0x00000, rd(f, 0x00000) | 1u << 31);
    wr(f, 0x00000, rd(f, 0x00000) & ~(1u << 31));
    fake_step(f, 600 * MS);
    CHECK_EQ(mdic_read(f, 4), anar);
    fake_free(f);
}

void test_pba_split_kept_across_ctrl_rst_not_d3hot(void)
{
    Fake *f = up_device();

    /*
     * docs/fidelity.md: the RXA/TXA split the driver wrote survives
     * CTRL.RST; the D3hot->D0 reset restores 20/20 KB.
     */
    wr(f, 0x01000, 0x0000000e);                     /* RXA = 14 KB */
    wr(f, 0x00000, rd(f, 0x00000) | 1u << 26);      /* CTRL.RST */
    fake_step(f, 10 * MS);
    CHECK_EQ(rd(f, 0x01000), 0x001a000e);
    CHECK_EQ(e1000e_pp_power_set(f->core, 3), 3);
    CHECK_EQ(e1000e_pp_power_set(f->core, 0), 0);
    CHECK_EQ(rd(f, 0x01000), 0x00140014);
    fake_free(f);
}
