/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests, frame errors: the error-injection knob, RCTL.SBP,
 * and the length rules' statistics (ROC after the address filters).
 * Error bits (82574L §7.1.4.1, Linux e1000e hw.h E1000_RXD_ERR_*): CE 0x01,
 * SE 0x02, RXE 0x80; extended write-back: the same byte in bits 31:24.
 */
#include "core-test.h"

static uint32_t ext_staterr(Fake *f, unsigned i)
{
    return le32(f->mem + RX_RING + 16 * i + 8);
}

void test_rx_error_dropped_without_sbp_counts_each_kind(void)
{
    /* Given RCTL.SBP = 0: a bad frame never reaches the ring. */
    static const struct {
        E1000EPPRxErr kind;
        uint32_t stat;
    } kinds[] = {
        { E1000E_PP_RXERR_CRC, R_CRCERRS },
        { E1000E_PP_RXERR_SYMBOL, R_SYMERRS },
        { E1000E_PP_RXERR_DATA, R_RXERRC },
    };
    uint8_t frame[100];
    unsigned k;

    make_frame(frame, sizeof(frame), 2);
    for (k = 0; k < 3; k++) {
        Fake *f = up_device();

        rx_ring(f, 8, 0, 1);
        e1000e_pp_knob_rx_error(f->core, kinds[k].kind, 1);
        CHECK_EQ(e1000e_pp_rx_error_pending(f->core, kinds[k].kind), 1);
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
        CHECK_EQ(e1000e_pp_rx_error_pending(f->core, kinds[k].kind), 0);
        CHECK_EQ(rd(f, kinds[k].stat), 1);
        CHECK_EQ(rd(f, R_TPR), 1);                /* TPR: every frame */
        CHECK_EQ(rd(f, R_GPRC), 0);               /* not a good one */
        CHECK_EQ(rd(f, 0x02810), 0);                /* RDH: nothing */
        CHECK_EQ(f->core->obs.rxstat.errored, 1);
        CHECK_EQ(f->core->obs.rxstat.delivered, 0);
        /* The next frame is clean again. */
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
        CHECK_EQ(ext_staterr(f, 0) & 0xff000003, 3);  /* DD EOP, no error */
        CHECK_EQ(rd(f, R_GPRC), 1);
        fake_free(f);
    }
}

void test_rx_error_stored_with_sbp_carries_its_bit(void)
{
    /* RCTL.SBP: each bad frame is stored with its error in ERRORS. */
    static const struct {
        E1000EPPRxErr kind;
        uint8_t err;
        uint32_t stat;
    } kinds[] = {
        { E1000E_PP_RXERR_CRC, 0x01, R_CRCERRS },
        { E1000E_PP_RXERR_SYMBOL, 0x02, R_SYMERRS },
        { E1000E_PP_RXERR_DATA, 0x80, R_RXERRC },
    };
    uint8_t frame[100];
    unsigned k, legacy;

    make_frame(frame, sizeof(frame), 3);
    for (legacy = 0; legacy < 2; legacy++) {
        for (k = 0; k < 3; k++) {
            Fake *f = up_device();
            uint8_t *d = f->mem + RX_RING;
            uint32_t fcs = ref_crc32(frame, sizeof(frame));

            rx_ring(f, 8, RCTL_SBP, !legacy);
            e1000e_pp_knob_rx_error(f->core, kinds[k].kind, 1);
            CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
            if (legacy) {
                CHECK_EQ(d[12] & 3, 3);             /* DD | EOP */
                CHECK_EQ(d[13], kinds[k].err);      /* ERRORS */
                CHECK_EQ(le16(d + 8), 104);
            } else {
                CHECK_EQ(ext_staterr(f, 0) >> 24, kinds[k].err);
                CHECK_EQ(ext_staterr(f, 0) & 3, 3);
                CHECK_EQ(le16(d + 12), 104);
            }
            CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
            /* A CRC error: the stored FCS is not the frame's CRC. */
            CHECK_EQ(le32(f->mem + RX_BUF(0) + 100),
                     kinds[k].err == 0x01 ? ~fcs : fcs);
            CHECK_EQ(rd(f, kinds[k].stat), 1);
            CHECK_EQ(rd(f, R_GPRC), 0);
            CHECK_EQ(f->core->obs.rxstat.delivered, 1);
            CHECK_EQ(f->core->obs.rxstat.errored, 0);
            fake_free(f);
        }
    }
}

void test_rx_error_injection_marks_the_next_n_frames_in_order(void)
{
    /* CRC for one frame and data errors for two: in that order. */
    Fake *f = up_device();
    uint8_t frame[80];
    unsigned i;

    rx_ring(f, 8, RCTL_SBP | RCTL_SECRC, 1);
    e1000e_pp_knob_rx_error(f->core, E1000E_PP_RXERR_DATA, 2);
    e1000e_pp_knob_rx_error(f->core, E1000E_PP_RXERR_CRC, 1);
    make_frame(frame, sizeof(frame), 4);
    for (i = 0; i < 4; i++) {
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    }
    CHECK_EQ(ext_staterr(f, 0) >> 24, 0x01);
    CHECK_EQ(ext_staterr(f, 1) >> 24, 0x80);
    CHECK_EQ(ext_staterr(f, 2) >> 24, 0x80);
    CHECK_EQ(ext_staterr(f, 3) >> 24, 0);
    CHECK_EQ(le16(f->mem + RX_RING + 12), 80);      /* SECRC: no FCS */
    CHECK_EQ(rd(f, R_CRCERRS), 1);
    CHECK_EQ(rd(f, R_RXERRC), 2);
    CHECK_EQ(rd(f, R_GPRC), 1);
    /* Writing 0 cancels what is pending. */
    e1000e_pp_knob_rx_error(f->core, E1000E_PP_RXERR_SYMBOL, 5);
    e1000e_pp_knob_rx_error(f->core, E1000E_PP_RXERR_SYMBOL, 0);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(ext_staterr(f, 4) >> 24, 0);
    fake_free(f);
}

void test_rx_oversize_injection_roc_drop_or_store_with_sbp(void)
{
    /*
     * LPE = 0 allows 1518 bytes with FCS: an oversize frame is padded to
     * 1519. Without SBP it is dropped (ROC, RLEC); with SBP stored whole
     * with its (valid) CRC, ROC still counting it.
     */
    uint8_t frame[200], padded[1515];
    unsigned sbp;

    make_frame(frame, sizeof(frame), 5);
    memset(padded, 0, sizeof(padded));
    memcpy(padded, frame, sizeof(frame));
    for (sbp = 0; sbp < 2; sbp++) {
        Fake *f = up_device();

        rx_ring(f, 8, sbp ? RCTL_SBP : 0, 1);
        e1000e_pp_knob_rx_error(f->core, E1000E_PP_RXERR_OVERSIZE, 1);
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
        CHECK_EQ(rd(f, R_ROC), 1);
        CHECK_EQ(rd(f, R_RLEC), 1);
        CHECK_EQ(rd(f, R_GPRC), 0);
        if (!sbp) {
            CHECK_EQ(rd(f, 0x02810), 0);
            CHECK_EQ(f->core->obs.rxstat.oversize, 1);
        } else {
            CHECK_EQ(le16(f->mem + RX_RING + 12), 1519);
            CHECK_EQ(ext_staterr(f, 0), 3);         /* no error bit */
            CHECK(memcmp(f->mem + RX_BUF(0), padded, sizeof(padded)) == 0);
            CHECK_EQ(le32(f->mem + RX_BUF(0) + 1515),
                     ref_crc32(padded, sizeof(padded)));
            CHECK_EQ(f->core->obs.rxstat.delivered, 1);
        }
        fake_free(f);
    }
}

void test_rx_sbp_stores_long_frames_up_to_16k(void)
{
    /* A 2000-byte frame (2004 with FCS) without LPE; 16384 is the cap. */
    static uint8_t frame[16384];
    Fake *f = up_device();

    rx_ring(f, 8, RCTL_SBP, 1);
    make_frame(frame, 2000, 6);
    CHECK(e1000e_pp_receive(f->core, frame, 2000));
    CHECK_EQ(le16(f->mem + RX_RING + 12), 2004);
    CHECK_EQ(ext_staterr(f, 0), 3);
    make_frame(frame, 16381, 6);                    /* 16385 with FCS */
    CHECK(e1000e_pp_receive(f->core, frame, 16381));
    CHECK_EQ(rd(f, R_ROC), 2);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    CHECK_EQ(f->core->obs.rxstat.oversize, 1);
    CHECK_EQ(f->core->obs.rxstat.long_stored, 1);
    fake_free(f);
}

void test_rx_roc_counts_only_frames_passing_the_filters(void)
{
    /* §10.2.7 ROC: frames that pass address filtering and are too long. */
    Fake *f = up_device();
    static uint8_t frame[1600];

    rx_ring(f, 8, 0, 1);
    make_frame(frame, sizeof(frame), 7);
    frame[5] = 0x99;                                /* not our address */
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(rd(f, R_ROC), 0);
    CHECK_EQ(f->core->obs.rxstat.filtered, 1);
    frame[5] = 0x56;                                /* ours */
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(rd(f, R_ROC), 1);
    CHECK_EQ(f->core->obs.rxstat.oversize, 1);
    CHECK_EQ(rd(f, R_TPR), 2);
    fake_free(f);
}
