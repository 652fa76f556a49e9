/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests: PCI power states, reset order, the register table's
 * access kinds, re-entry from the device's own DMA, and configuration.
 */
#include <string.h>

#include "core-test.h"

void test_d3hot_answers_all_ones_and_d0_resets(void)
{
    Fake *f = up_device();
    uint64_t v0 = f->core->obs.pm_violations;

    wr(f, R_RDBAL, 0x12340);
    /* PCI PM: D3hot is taken, D1/D2 (not in PMC) leave the state. */
    CHECK_EQ(e1000e_pp_power_set(f->core, 3), 3);
    CHECK_EQ(e1000e_pp_power_set(f->core, 1), 3);
    CHECK_EQ(f->pm_traces, 1);
    /* Reads of BAR0 and of the I/O BAR are all-ones; writes vanish. */
    CHECK_EQ(rd(f, R_CTRL), 0xffffffff);
    CHECK_EQ(e1000e_pp_io_read(f->core, 0), 0xffffffff);
    wr(f, R_RDBAL, 0x55550);
    CHECK_EQ(f->core->obs.pm_violations - v0, 3);
    /* No_Soft_Reset = 0: back in D0 the function has been reset. */
    CHECK_EQ(e1000e_pp_power_set(f->core, 0), 0);
    CHECK_EQ(rd(f, R_RDBAL), 0);
    CHECK_EQ(f->core->obs.pm_violations - v0, 3);
    fake_free(f);
}

void test_d3hot_takes_no_frame_and_signals_nothing(void)
{
    Fake *f = up_device();
    uint8_t frame[100];
    uint64_t v0;

    rx_ring(f, 8, 0, 1);
    rd(f, R_ICR);
    wr(f, R_IMS, ICR_LSC);
    e1000e_pp_power_set(f->core, 3);
    v0 = f->core->obs.pm_violations;
    make_frame(frame, sizeof(frame), 1);
    /* A frame is taken off the wire and dropped: not ready, no DMA. */
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(f->core->obs.rxstat.not_ready, 1);
    CHECK_EQ(f->core->obs.rxstat.delivered, 0);
    CHECK_EQ(f->mem[RX_BUF(0)], 0);
    CHECK_EQ(f->core->obs.pm_violations, v0);
    /* A link change is latched in ICR; a sleeping function signals nothing. */
    e1000e_pp_set_link(f->core, false);
    CHECK_EQ(f->intx_raises, 0);
    CHECK_EQ(f->core->obs.pm_violations, v0);
    CHECK_EQ(f->core->arch.regs[R_ICR >> 2] & ICR_LSC, ICR_LSC);
    fake_free(f);
}

void test_reset_raises_nothing_through_the_state_it_clears(void)
{
    Fake *f = up_device();
    unsigned raises;

    rd(f, R_ICR);
    wr(f, R_IMS, ICR_LSC);
    raises = f->intx_raises;
    /* CTRL.RST with LSC enabled: the reset's link drop stays silent. */
    wr(f, R_CTRL, rd(f, R_CTRL) | CTRL_RST | (1u << 31));
    CHECK_EQ(f->intx_raises, raises);
    CHECK_EQ(f->intx, 0);
    wr(f, R_IMS, ICR_LSC);
    fake_step(f, 600 * MS);
    rd(f, R_ICR);
    /* D3hot -> D0 resets MAC then PHY: no pulse, no violation. */
    wr(f, R_IMS, ICR_LSC);
    e1000e_pp_power_set(f->core, 3);
    raises = f->intx_raises;
    f->core->obs.pm_violations = 0;
    e1000e_pp_power_set(f->core, 0);
    CHECK_EQ(f->intx_raises, raises);
    CHECK_EQ(f->core->obs.pm_violations, 0);
    /* The link change is latched with IMS = 0: ICR shows it, no INTx. */
    fake_step(f, 600 * MS);
    CHECK_EQ(f->intx, 0);
    CHECK_EQ(rd(f, R_ICR) & ICR_LSC, ICR_LSC);
    fake_free(f);
}

void test_register_table_access_kinds(void)
{
    Fake *f = up_device();
    char list[200];

    /* §10.2.2.1: 0x0004 is CTRL again, both ways. */
    wr(f, R_CTRL_DUP, rd(f, R_CTRL) | CTRL_SLU);
    CHECK_EQ(rd(f, R_CTRL) & CTRL_SLU, CTRL_SLU);
    CHECK_EQ(rd(f, R_CTRL_DUP), rd(f, R_CTRL));
    /* IMS sets bits and reads back, IMC clears them and reads 0. */
    rd(f, R_ICR);
    wr(f, R_IMS, 0x0);
    wr(f, R_IMC, 0xffffffff);
    wr(f, R_IMS, 0x10);
    wr(f, R_IMS, 0x80);
    CHECK_EQ(rd(f, R_IMS), 0x90);
    wr(f, R_IMC, 0x10);
    CHECK_EQ(rd(f, R_IMS), 0x80);
    CHECK_EQ(rd(f, R_IMC), 0);
    /* ICR: writing 1 clears that cause only. */
    wr(f, R_IMC, 0xffffffff);
    wr(f, R_ICS, 0x05);
    wr(f, R_ICR, 0x01);
    CHECK_EQ(rd(f, R_ICR), 0x04);
    /* Command bits act and read back 0: RDTR.FPD. */
    wr(f, R_RDTR, 0x80000010);
    CHECK_EQ(rd(f, R_RDTR), 0x10);
    /* A read-only register keeps its value (PBS: 40 KB). */
    wr(f, R_PBS, 0x1);
    CHECK_EQ(rd(f, R_PBS), 0x28);
    /* Unimplemented and unknown registers are listed by offset. */
    e1000e_pp_unimplemented(f->core, list, sizeof(list));
    CHECK_EQ(strlen(list), 0);
    /* Beyond BAR0 (a caller's bug): read 0, nothing listed, no overrun. */
    CHECK_EQ(rd(f, 0x20000), 0);
    e1000e_pp_unimplemented(f->core, list, sizeof(list));
    CHECK_EQ(strlen(list), 0);
    wr(f, R_TXDCTL1, 0x00010000);
    CHECK_EQ(rd(f, R_TXDCTL1), 0x00010000); /* stored all the same */
    rd(f, 0x05b70);
    wr(f, R_RXDCTL1, 0x00010000);
    CHECK_EQ(e1000e_pp_unimplemented(f->core, list, sizeof(list)),
             strlen("RXDCTL1@0x02928,TXDCTL1@0x03928,?@0x05b70"));
    CHECK(strcmp(list, "RXDCTL1@0x02928,TXDCTL1@0x03928,?@0x05b70") == 0);
    /* A short buffer is cut, never overrun, and the length still told. */
    CHECK_EQ(e1000e_pp_unimplemented(f->core, list, 8), strlen(
             "RXDCTL1@0x02928,TXDCTL1@0x03928,?@0x05b70"));
    CHECK(strcmp(list, "RXDCTL1") == 0);
    fake_free(f);
}

void test_dma_into_bar0_is_refused_not_reentered(void)
{
    Fake *f = up_device();
    uint8_t frame[200];
    uint32_t ctrl;

    rx_ring(f, 8, 1u << 26, 1);                     /* SECRC */
    ctrl = rd(f, R_CTRL);
    /* Every DMA write of the device also lands on its own CTRL. */
    f->dma_hits_bar0 = R_CTRL;
    make_frame(frame, sizeof(frame), 4);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    f->dma_hits_bar0 = -1;
    /* The frame and its descriptor landed; CTRL never saw RST. */
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    CHECK_EQ(rd(f, 0x02810), 1);                    /* RDH */
    CHECK_EQ(rd(f, R_CTRL), ctrl);
    /* Two writes (data, write-back), both refused and counted. */
    CHECK_EQ(f->core->obs.reentries, 2);
    fake_free(f);
}

/*
 * Frames of 1000 bytes into a ring without free descriptors. Each is
 * charged 1024 bytes of the default 20 KB PBA.RXA (docs/fidelity.md:
 * 1004 wire bytes rounded up to 16, plus a 16-byte status entry).
 */
static unsigned fill_packet_buffer(Fake *f, unsigned frames)
{
    uint8_t frame[1000];
    unsigned i, taken = 0;

    rx_ring(f, 32, 0, 1);
    wr(f, 0x02818, 0);                              /* RDT = RDH */
    make_frame(frame, sizeof(frame), 5);
    for (i = 0; i < frames; i++) {
        taken += e1000e_pp_receive(f->core, frame, sizeof(frame));
    }
    return taken;
}

void test_rx_backpressure_config_keeps_every_frame(void)
{
    static const E1000EPPConfig hold = {
        .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
        .rx_backpressure = true,
    };
    Fake *f = fake_new_config(&hold);
    Fake *d;
    unsigned taken;

    fake_step(f, 600 * MS);
    /* With the property: 20 KB hold 20 such frames; the rest wait. */
    taken = fill_packet_buffer(f, 24);
    CHECK_EQ(taken, 20);
    CHECK(!e1000e_pp_can_receive(f->core));
    CHECK_EQ(rd(f, R_MPC), 0);
    CHECK_EQ(f->core->obs.rxstat.missed, 0);
    /* Descriptors posted: the buffer drains and the netdev is told. */
    wr(f, 0x02818, 31);
    CHECK_EQ(f->core->obs.rxstat.delivered, 20);
    CHECK(f->rx_ready_calls > 0);
    CHECK(e1000e_pp_can_receive(f->core));
    fake_free(f);

    /* Without it, as the hardware: the same frames overflow into MPC. */
    d = up_device();
    CHECK_EQ(fill_packet_buffer(d, 24), 24);
    CHECK_EQ(rd(d, R_MPC), 4);
    fake_free(d);
}

/*
 * A frame held back by the property is not taken, so nothing about it
 * counts until it is: a long frame RCTL.SBP stores counts ROC once, when
 * the buffer has room again. A frame bigger than the whole (empty)
 * buffer is never held (that would block the netdev): it is missed.
 */
void test_rx_backpressure_held_frame_counts_once(void)
{
    static const E1000EPPConfig hold = {
        .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
        .rx_backpressure = true,
    };
    Fake *f = fake_new_config(&hold);
    uint8_t longf[1600];

    fake_step(f, 600 * MS);
    CHECK_EQ(fill_packet_buffer(f, 20), 20);
    wr(f, 0x00100, rd(f, 0x00100) | 1u << 2);       /* RCTL.SBP */
    make_frame(longf, sizeof(longf), 6);
    CHECK(!e1000e_pp_receive(f->core, longf, sizeof(longf)));
    CHECK(!e1000e_pp_receive(f->core, longf, sizeof(longf)));
    CHECK_EQ(rd(f, 0x040ac), 0);                    /* ROC */
    CHECK_EQ(f->core->obs.rxstat.offered, 20);
    wr(f, 0x02818, 31);                             /* the buffer drains */
    CHECK_EQ(f->core->obs.rxstat.delivered, 20);
    CHECK(e1000e_pp_receive(f->core, longf, sizeof(longf)));
    CHECK_EQ(rd(f, 0x040ac), 1);                    /* ROC, once */
    CHECK_EQ(f->core->obs.rxstat.delivered, 21);
    fake_free(f);

    f = fake_new_config(&hold);
    fake_step(f, 600 * MS);
    wr(f, 0x01000, 1);                              /* PBA.RXA = 1 KB */
    rx_ring(f, 8, 0, 1);
    CHECK(e1000e_pp_receive(f->core, longf, 1514));
    CHECK_EQ(rd(f, R_MPC), 1);
    CHECK_EQ(rd(f, 0x02810), 0);                    /* RDH */
    fake_free(f);
}

void test_bus_master_off_holds_engines_and_lists_refused_dma(void)
{
    Fake *f = up_device();
    uint8_t a[60], b[60];
    char events[400];

    /* A received frame's write-back is held (WTHRESH 4, RDTR 0x20). */
    rx_ring(f, 8, 1u << 26, 1);
    wr(f, 0x02828, 1u << 24 | 4u << 16);
    wr(f, R_RDTR, 0x20);
    make_frame(a, sizeof(a), 1);
    make_frame(b, sizeof(b), 2);
    CHECK(e1000e_pp_receive(f->core, a, sizeof(a)));
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 1, 0);
    /* PCI COMMAND.BME cleared: the engines start no DMA... */
    e1000e_pp_bus_master(f->core, false);
    CHECK(e1000e_pp_receive(f->core, b, sizeof(b)));
    CHECK_EQ(f->core->arch.pktbuf.count, 1);
    tx_ring(f, 8);
    tx_push(f, 0, 60, 0x01 | 0x02 | 0x08);
    wr(f, 0x03818, 1);
    CHECK_EQ(f->nframes, 0);
    CHECK_EQ(f->core->obs.dma_errors, 0);
    /*
     * ...but the held write-back's timer still fires: that DMA is a
     * violation, refused, counted and listed (the architecture's race
     * tooling), and the descriptor stays as the driver left it.
     */
    fake_step(f, 0x20 * 1024);
    CHECK_EQ(f->core->obs.dma_errors, 1);
    e1000e_pp_events(f->core, events, sizeof(events));
    CHECK(strstr(events, "dma-bus-master-off") != NULL);
    CHECK_EQ(f->core->obs.nfaults, 1);
    CHECK(!strcmp(f->core->obs.faults[0].what, "rx-desc-wb"));
    CHECK_EQ(f->core->obs.faults[0].addr, RX_RING);
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 1, 0);
    /* Bus mastering back: the waiting frame lands, Tx goes out. */
    e1000e_pp_bus_master(f->core, true);
    CHECK_EQ(f->core->arch.pktbuf.count, 0);
    CHECK(memcmp(f->mem + RX_BUF(1), b, sizeof(b)) == 0);
    CHECK_EQ(f->nframes, 1);
    CHECK_EQ(f->core->obs.dma_errors, 1);
    fake_free(f);
}
