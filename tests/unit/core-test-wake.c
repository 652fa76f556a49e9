/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests: wake-up (WUC/WUFC/WUS, PME), the CTRL.RST window
 * (and an NVM read inside it), GIO master disable and the race-tooling knobs.
 */
#include <string.h>

#include "core-test.h"

static const uint8_t our_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

/* Broadcast magic packet: 6 x 0xff then our address 16 times, in UDP. */
static size_t magic_frame(uint8_t *f)
{
    size_t off = 14 + 28, i;

    memset(f, 0, 160);
    memset(f, 0xff, 6);
    f[12] = 0x08;
    memset(f + off, 0xff, 6);
    for (i = 0; i < 16; i++) {
        memcpy(f + off + 6 + 6 * i, our_mac, 6);
    }
    return off + 6 + 16 * 6;
}

static Fake *asleep(uint32_t wufc)
{
    Fake *f = up_device();

    wr(f, R_WUFC, wufc);
    wr(f, R_WUC, WUC_PME_EN);
    e1000e_pp_pme_enable(f->core, true);
    e1000e_pp_power_set(f->core, 3);
    return f;
}

void test_wake_on_link_change_sets_pme_and_wus_sticks(void)
{
    Fake *f = asleep(WU_LNKC);

    /* The cable goes: the link change wakes the function through PME. */
    e1000e_pp_set_link(f->core, false);
    CHECK_EQ(f->pme_signals, 1);
    /* Back in D0 (a function reset), WUS still tells why (§5.6.3). */
    e1000e_pp_power_set(f->core, 0);
    CHECK_EQ(rd(f, R_WUS), WU_LNKC);
    wr(f, R_WUS, WU_LNKC);                      /* write 1 to clear */
    CHECK_EQ(rd(f, R_WUS), 0);
    fake_free(f);
}

void test_wake_frames_in_d3hot(void)
{
    Fake *f = asleep(WU_MAG | WU_EX);
    uint8_t frame[200];
    size_t n = magic_frame(frame);

    /* A magic packet wakes; nothing is stored (no DMA in D3hot). */
    CHECK(e1000e_pp_receive(f->core, frame, n));
    CHECK_EQ(f->pme_signals, 1);
    CHECK_EQ(f->core->obs.rxstat.wake, 1);
    /* A frame to our address wakes through the directed-exact filter. */
    make_frame(frame, 100, 3);
    CHECK(e1000e_pp_receive(f->core, frame, 100));
    CHECK_EQ(f->pme_signals, 2);
    /* A broadcast without BC in WUFC is dropped as not ready. */
    memset(frame, 0xff, 6);
    CHECK(e1000e_pp_receive(f->core, frame, 100));
    CHECK_EQ(f->pme_signals, 2);
    CHECK_EQ(f->core->obs.rxstat.not_ready, 1);
    e1000e_pp_power_set(f->core, 0);
    CHECK_EQ(rd(f, R_WUS), WU_MAG | WU_EX);
    fake_free(f);
}

void test_no_pme_without_pme_en(void)
{
    Fake *f = asleep(WU_LNKC);

    e1000e_pp_pme_enable(f->core, false);
    e1000e_pp_set_link(f->core, false);
    CHECK_EQ(f->pme_signals, 0);
    fake_free(f);
}

void test_d0_apme_notes_wake_in_wus_only(void)
{
    Fake *f = up_device();
    uint8_t frame[200];
    size_t n = magic_frame(frame);

    rx_ring(f, 8, 0, 1);
    wr(f, R_WUFC, WU_MAG);
    wr(f, R_WUC, WUC_APME);
    CHECK(e1000e_pp_receive(f->core, frame, n));
    /* Delivered as any broadcast, noted in WUS, no PME in D0. */
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    CHECK_EQ(rd(f, R_WUS), WU_MAG);
    CHECK_EQ(f->pme_signals, 0);
    fake_free(f);
}

void test_ctrl_rst_window_then_auto_rd(void)
{
    static const E1000EPPConfig slow = {
        .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
        .reset_ns = 50 * 1000,
    };
    Fake *f = fake_new_config(&slow);
    uint8_t frame[100];
    char events[400];

    fake_step(f, 600 * MS);
    rx_ring(f, 8, 0, 1);
    wr(f, R_CTRL, rd(f, R_CTRL) | CTRL_RST);
    /* In reset: no frame is taken, a write is listed, AUTO_RD is clear. */
    make_frame(frame, sizeof(frame), 1);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(f->core->obs.rxstat.not_ready, 1);
    wr(f, 0x000d8, 0xffffffff);                     /* IMC too early */
    CHECK_EQ(f->core->obs.reset_accesses, 1);
    e1000e_pp_events(f->core, events, sizeof(events));
    CHECK(strstr(events, "write-during-reset reg=0x000d8") != NULL);
    fake_step(f, 50 * 1000 - 1);
    CHECK(f->core->arch.resetting);
    fake_step(f, 1);
    CHECK(!f->core->arch.resetting);
    /* Then the NVM reload: AUTO_RD 1 ms after the window (nvm.c). */
    CHECK_EQ(rd(f, R_EECD) & EECD_AUTO_RD, 0);
    fake_step(f, MS);
    CHECK_EQ(rd(f, R_EECD) & EECD_AUTO_RD, EECD_AUTO_RD);
    fake_free(f);
}

void test_eerd_in_ctrl_rst_window_waits_for_auto_rd(void)
{
    static const E1000EPPConfig slow = {
        .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
        .reset_ns = 400 * MS,
    };
    Fake *f = fake_new_config(&slow);
    uint32_t eerd;

    fake_step(f, 600 * MS);
    wr(f, R_CTRL, rd(f, R_CTRL) | CTRL_RST);
    /* NVM word 0 (the MAC's first two bytes) asked inside the window. */
    wr(f, R_EERD, 0 << 2 | 1);
    /* The auto-load owns the EEPROM's one port until AUTO_RD. */
    CHECK_EQ(rd(f, R_EERD) & EERD_DONE_BIT, 0);
    fake_step(f, 400 * MS);
    CHECK_EQ(rd(f, R_EERD) & EERD_DONE_BIT, 0);
    fake_step(f, MS);
    CHECK_EQ(rd(f, R_EECD) & EECD_AUTO_RD, EECD_AUTO_RD);
    eerd = rd(f, R_EERD);
    CHECK_EQ(eerd & EERD_DONE_BIT, EERD_DONE_BIT);
    CHECK_EQ(eerd >> 16, 0x5452);
    /* With the auto-load done, a read completes at once. */
    wr(f, R_EERD, 1 << 2 | 1);
    eerd = rd(f, R_EERD);
    CHECK_EQ(eerd & EERD_DONE_BIT, EERD_DONE_BIT);
    CHECK_EQ(eerd >> 16, 0x1200);
    fake_free(f);
}

void test_gio_master_disable_holds_frames_without_dma_errors(void)
{
    Fake *f = up_device();
    uint8_t frame[300];

    rx_ring(f, 8, 0, 1);
    wr(f, R_CTRL, rd(f, R_CTRL) | CTRL_GIO_MD);
    /* Idle at once: STATUS.GIO_MASTER_ENABLE clears. */
    CHECK_EQ(rd(f, R_STATUS) & STATUS_GIO, 0);
    make_frame(frame, sizeof(frame), 2);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    /* The frame waits in the packet buffer: no DMA, no error. */
    CHECK_EQ(f->core->arch.pktbuf.count, 1);
    CHECK_EQ(f->core->obs.dma_errors, 0);
    CHECK_EQ(rd(f, R_RDH), 0);
    /* Master enable again: it goes to the ring. */
    wr(f, R_CTRL, rd(f, R_CTRL) & ~CTRL_GIO_MD);
    CHECK_EQ(rd(f, R_STATUS) & STATUS_GIO, STATUS_GIO);
    CHECK_EQ(rd(f, R_RDH), 1);
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    fake_free(f);
}

void test_knobs_hold_tx_and_drop_the_link(void)
{
    Fake *f = up_device();
    char events[600];

    tx_ring(f, 8);
    tx_push(f, 0, 60, 0x0b);                        /* EOP | IFCS | RS */
    e1000e_pp_knob_tx_hold(f->core, true);
    wr(f, R_TDT, 1);
    /* Held: TDH stays, nothing on the wire. */
    CHECK_EQ(rd(f, R_TDH), 0);
    CHECK_EQ(f->nframes, 0);
    e1000e_pp_knob_tx_hold(f->core, false);
    CHECK_EQ(rd(f, R_TDH), 1);
    CHECK_EQ(f->nframes, 1);
    /* The link goes for 10 ms, then negotiates again (500 ms). */
    e1000e_pp_knob_link_drop(f->core, 10);
    CHECK_EQ(rd(f, R_STATUS) & STATUS_LU, 0);
    fake_step(f, 10 * MS);
    CHECK_EQ(rd(f, R_STATUS) & STATUS_LU, 0);
    fake_step(f, 600 * MS);
    CHECK_EQ(rd(f, R_STATUS) & STATUS_LU, STATUS_LU);
    e1000e_pp_events(f->core, events, sizeof(events));
    CHECK(strstr(events, "knob-tx-hold reg=0x03810 value=0x00000001"));
    CHECK(strstr(events, "knob-link-drop-ms reg=0x00008 value=0x0000000a"));
    CHECK(strstr(events, "knob-link-return"));
    fake_free(f);
}

/* A PAUSE frame as 802.3 Annex 31B lays it out, pause time in quanta. */
static void pause_frame(uint8_t *f, uint16_t quanta)
{
    static const uint8_t da[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

    memset(f, 0, 60);
    memcpy(f, da, 6);
    memcpy(f + 6, our_mac, 6);
    f[12] = 0x88;
    f[13] = 0x08;
    f[15] = 0x01;                                   /* opcode PAUSE */
    f[16] = quanta >> 8;
    f[17] = quanta & 0xff;
}

void test_rx_pause_frame_holds_tx_for_its_quanta(void)
{
    Fake *f = up_device();
    uint8_t pause[60];

    /* As Linux programs flow control: FCAL/FCAH/FCT, CTRL.RFCE, DPF. */
    wr(f, 0x00028, 0x00c28001);
    wr(f, 0x0002c, 0x0100);
    wr(f, 0x00030, 0x8808);
    wr(f, R_CTRL, rd(f, R_CTRL) | (1u << 27));
    rx_ring(f, 8, 1u << 22, 1);
    tx_ring(f, 8);
    tx_push(f, 0, 60, 0x0b);

    /* XOFF for 100 quanta of 512 ns: the transmitter stops 51.2 us. */
    pause_frame(pause, 100);
    CHECK(e1000e_pp_receive(f->core, pause, sizeof(pause)));
    CHECK_EQ(rd(f, 0x04050), 1);                    /* XOFFRXC */
    CHECK_EQ(rd(f, R_STATUS) & (1u << 4), 1u << 4); /* STATUS.TXOFF */
    CHECK_EQ(f->core->obs.rxstat.filtered, 1);          /* DPF: not stored */
    wr(f, R_TDT, 1);
    CHECK_EQ(rd(f, R_TDH), 0);
    fake_step(f, 100 * 512 - 1);
    CHECK_EQ(rd(f, R_TDH), 0);
    fake_step(f, 1);
    CHECK_EQ(rd(f, R_TDH), 1);
    CHECK_EQ(f->nframes, 1);
    CHECK_EQ(rd(f, R_STATUS) & (1u << 4), 0);

    /* XOFF then XON: the pause ends at once. */
    tx_push(f, 1, 60, 0x0b);
    pause_frame(pause, 0xffff);
    e1000e_pp_receive(f->core, pause, sizeof(pause));
    wr(f, R_TDT, 2);
    CHECK_EQ(rd(f, R_TDH), 1);
    pause_frame(pause, 0);
    e1000e_pp_receive(f->core, pause, sizeof(pause));
    CHECK_EQ(rd(f, 0x04048), 1);                    /* XONRXC */
    CHECK_EQ(rd(f, R_TDH), 2);
    fake_free(f);
}

/* The ring before the reset, away from the one the driver posts after. */
#define OLD_RING    (RX_RING + 0x400)

void test_ctrl_rst_flushes_frames_waiting_in_packet_buffer(void)
{
    Fake *f = up_device();
    uint8_t a[60], b[60];

    /*
     * One descriptor posted, its write-back held (WTHRESH 4, RDTR): the
     * first frame takes it, two more wait on the chip...
     */
    rx_ring(f, 8, 1u << 26, 1);
    memcpy(f->mem + OLD_RING, f->mem + RX_RING, 8 * 16);
    wr(f, 0x02800, OLD_RING);                       /* RDBAL */
    wr(f, 0x02828, 1u << 24 | 4u << 16);            /* RXDCTL */
    wr(f, 0x02820, 0x20);                           /* RDTR */
    wr(f, 0x02818, 1);                              /* RDT */
    make_frame(a, sizeof(a), 1);
    make_frame(b, sizeof(b), 2);
    CHECK(e1000e_pp_receive(f->core, a, sizeof(a)));
    CHECK(e1000e_pp_receive(f->core, a, sizeof(a)));
    CHECK(e1000e_pp_receive(f->core, a, sizeof(a)));
    CHECK_EQ(f->core->arch.pktbuf.count, 2);
    CHECK_EQ(le32(f->mem + OLD_RING + 8) & 1, 0);
    /*
     * ...and CTRL.RST clears the packet buffer and the held write-back
     * with the rest of the MAC: no timer writes it back later.
     */
    wr(f, R_CTRL, rd(f, R_CTRL) | CTRL_RST);
    fake_step(f, 600 * MS);
    CHECK_EQ(f->core->arch.pktbuf.count, 0);
    CHECK_EQ(f->core->obs.rxstat.flushed, 2);
    CHECK_EQ(f->core->obs.rxstat.offered, 3);
    CHECK_EQ(le32(f->mem + OLD_RING + 8), 0);
    /* The driver posts a new ring: nothing from before arrives... */
    rx_ring(f, 8, 1u << 26, 1);
    CHECK_EQ(rd(f, R_RDH), 0);
    /* ...and the next frame from the wire is the first to land. */
    CHECK(e1000e_pp_receive(f->core, b, sizeof(b)));
    CHECK_EQ(rd(f, R_RDH), 1);
    CHECK(memcmp(f->mem + RX_BUF(0), b, sizeof(b)) == 0);
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 3, 3);
    CHECK_EQ(le32(f->mem + OLD_RING + 8), 0);
    CHECK_EQ(f->core->obs.rxstat.delivered, 2);
    fake_free(f);
}
