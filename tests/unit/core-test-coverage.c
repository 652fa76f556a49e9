/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests of situation coverage: exact counts for
 * scenarios whose buffer arithmetic the datasheet fixes (§7.1.1 FCS
 * placement with RCTL.SECRC clear, §7.1.7 write-back), and the fault
 * record's frame number.
 */
#include "core-test.h"

static uint64_t sit(Fake *f, unsigned s)
{
    return f->core->obs.situations[s];
}

/* Extended ring of 8 2 KB buffers (RCTL.BSIZE 00), "posted" handed over. */
static void ring(Fake *f, uint32_t rctl, unsigned posted)
{
    unsigned i;

    for (i = 0; i < 8; i++) {
        memset(f->mem + RX_RING + 16 * i, 0, 16);
        put64(f->mem + RX_RING + 16 * i, RX_BUF(i));
    }
    wr(f, 0x05008, 1u << 15);
    wr(f, 0x02800, RX_RING);
    wr(f, 0x02808, 8 * 16);
    wr(f, R_RDH, 0);
    wr(f, R_RDT, posted);
    wr(f, R_RCTL, rctl | 1u << 1 | 1u << 15);
}

void test_cover_fcs_straddle_and_alone(void)
{
    /*
     * FCS kept, 2048-byte buffers: 2046 + 4 bytes leave 2 FCS bytes in
     * each buffer; 2048 + 4 leave the second buffer the FCS alone;
     * 2044 + 4 fit one buffer. With SECRC there is no FCS to place.
     */
    static const size_t lens[3] = { 2046, 2048, 2044 };
    static uint8_t frame[2048];
    unsigned secrc, i;

    for (secrc = 0; secrc < 2; secrc++) {
        Fake *f = up_device();

        ring(f, RCTL_LPE | (secrc ? RCTL_SECRC : 0), 7);
        for (i = 0; i < 3; i++) {
            make_frame(frame, lens[i], (uint8_t)i);
            CHECK(e1000e_pp_receive(f->core, frame, lens[i]));
        }
        CHECK_EQ(f->core->obs.rxstat.delivered, 3);
        CHECK_EQ(sit(f, SIT_FCS_STRADDLE), secrc ? 0 : 1);
        CHECK_EQ(sit(f, SIT_FCS_ALONE), secrc ? 0 : 1);
        CHECK_EQ(sit(f, SIT_RING_DRY_MIDFRAME), 0);
        fake_free(f);
    }
}

void test_cover_ring_dry_split_polls_and_wb_flushes(void)
{
    /* 5000 + 4 bytes need 3 buffers; one descriptor posted. */
    static uint8_t frame[5000];
    char list[2048];
    Fake *f = up_device();

    make_frame(frame, sizeof(frame), 7);
    ring(f, RCTL_LPE, 1);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    /* WTHRESH 0: the first chunk is DD in memory before the EOP. */
    CHECK_EQ(sit(f, SIT_RING_DRY_MIDFRAME), 1);
    CHECK_EQ(sit(f, SIT_SPLIT_POLLS), 1);
    wr(f, R_RDT, 7);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    CHECK_EQ(sit(f, SIT_RING_DRY_MIDFRAME), 1);
    CHECK_EQ(sit(f, SIT_WB_THRESHOLD), 0);
    e1000e_pp_situations(f->core, list, sizeof(list));
    CHECK(strstr(list, "ring-dry-midframe 1\nrnbc 0\n"));
    fake_free(f);

    /* WTHRESH 4, RDTR 10: two chunks held, then the timer writes them. */
    f = up_device();
    wr(f, R_RXDCTL, 1u << 24 | 4u << 16);
    wr(f, R_RDTR, 10);
    ring(f, RCTL_LPE, 2);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(sit(f, SIT_RING_DRY_MIDFRAME), 1);
    CHECK_EQ(sit(f, SIT_SPLIT_POLLS), 0);
    fake_step(f, 10 * 1024);
    CHECK_EQ(sit(f, SIT_WB_TIMER), 1);
    CHECK_EQ(sit(f, SIT_SPLIT_POLLS), 1);           /* now the poll sees */
    fake_free(f);

    /* WTHRESH 3, RDTR 10: 5004 bytes are 3 descriptors, one burst. */
    f = up_device();
    wr(f, R_RXDCTL, 1u << 24 | 3u << 16);
    wr(f, R_RDTR, 10);
    ring(f, RCTL_LPE, 7);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(sit(f, SIT_WB_THRESHOLD), 1);
    CHECK_EQ(sit(f, SIT_WB_TIMER), 0);
    fake_free(f);
}

/*
 * A frame waiting on the chip for an empty ring has not started: tail
 * writes that give no descriptor move nothing, so neither "ring dry
 * mid-frame" nor "split across polls" may count; the delay timers are
 * not restarted for it either (RDTR runs per frame moved, §7.4.4).
 */
void test_cover_dry_ring_moving_nothing_counts_nothing(void)
{
    uint8_t frame[60];
    Fake *f = up_device();

    wr(f, R_RDTR, 10);
    ring(f, 0, 0);
    make_frame(frame, sizeof(frame), 3);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    wr(f, R_RDT, 0);
    CHECK_EQ(f->core->arch.pktbuf.count, 1);
    CHECK_EQ(sit(f, SIT_RING_DRY_MIDFRAME), 0);
    CHECK_EQ(sit(f, SIT_SPLIT_POLLS), 0);
    CHECK_EQ(sit(f, SIT_RNBC), 1);
    CHECK_EQ(f->timers[E1000E_PP_TIMER_RDTR], -1);
    wr(f, R_RDT, 7);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    CHECK_EQ(sit(f, SIT_RING_DRY_MIDFRAME), 0);
    /* Delivered now: RDTR runs, 10 units of 1.024 us (RDTR, §10.2.5). */
    CHECK_EQ(f->timers[E1000E_PP_TIMER_RDTR], f->now + 10 * 1024);
    fake_free(f);
}

void test_cover_rnbc_and_injected_errors(void)
{
    uint8_t frame[60];
    Fake *f = up_device();
    unsigned i;

    make_frame(frame, sizeof(frame), 1);
    ring(f, 0, 0);                          /* RDH == RDT: none posted */
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(sit(f, SIT_RNBC), 1);
    wr(f, R_RDT, 7);
    e1000e_pp_knob_rx_error(f->core, E1000E_PP_RXERR_CRC, 2);
    e1000e_pp_knob_rx_error(f->core, E1000E_PP_RXERR_SYMBOL, 1);
    for (i = 0; i < 4; i++) {
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    }
    /* Without RCTL.SBP the three bad ones are dropped and counted. */
    CHECK_EQ(rd(f, 0x04000), 2);                    /* CRCERRS */
    CHECK_EQ(rd(f, 0x04008), 1);                    /* SYMERRS */
    CHECK_EQ(f->core->obs.rxstat.errored, 3);
    CHECK_EQ(f->core->obs.rxstat.delivered, 2);
    CHECK_EQ(sit(f, SIT_ERR_CRC), 2);
    CHECK_EQ(sit(f, SIT_ERR_SYMBOL), 1);
    CHECK_EQ(sit(f, SIT_ERR_DATA), 0);
    fake_free(f);
}

void test_cover_fault_record_names_the_frame(void)
{
    /* Frame 2 of the ring lands in a buffer outside guest memory. */
    uint8_t frame[60];
    char list[512];
    Fake *f = up_device();

    ring(f, RCTL_SECRC, 0);
    put64(f->mem + RX_RING + 16, FAKE_MEM_BYTES + 0x2000);
    wr(f, R_RDT, 7);
    make_frame(frame, sizeof(frame), 1);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(f->core->obs.nfaults, 1);
    CHECK_EQ(f->core->obs.faults[0].frame, 2);
    CHECK_EQ(sit(f, SIT_DMA_FAULT), 1);
    e1000e_pp_dma_faults(f->core, list, sizeof(list));
    CHECK(strstr(list, " frame=2 rx-data desc=1 addr=0x402000 offset=0 "
                 "len=60 write\n"));
    fake_free(f);
}

void test_knob_dma_fault_writes_rejects_the_next_data_write(void)
{
    /*
     * x-dma-fault-writes 1: the first frame's data write is rejected
     * whole (its buffer keeps what it held), its descriptor still
     * written back (a posted write is not known to fail: DD, length),
     * the fault listed for frame 1; the second frame lands.
     */
    uint8_t frame[60], seen[60];
    char list[512];
    Fake *f = up_device();

    ring(f, RCTL_SECRC, 7);
    memset(f->mem + RX_BUF(0), 0xa5, sizeof(frame));
    memset(seen, 0xa5, sizeof(seen));
    e1000e_pp_knob_dma_fault_writes(f->core, 1);
    make_frame(frame, sizeof(frame), 1);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK(memcmp(f->mem + RX_BUF(0), seen, sizeof(seen)) == 0);
    CHECK(memcmp(f->mem + RX_BUF(1), frame, sizeof(frame)) == 0);
    CHECK_EQ(f->mem[RX_RING + 8] & 1, 1);               /* DD */
    CHECK_EQ(le16(f->mem + RX_RING + 12), 60);          /* length */
    CHECK_EQ(f->core->dma_fault_writes, 0);
    CHECK_EQ(f->core->obs.nfaults, 1);
    CHECK_EQ(sit(f, SIT_DMA_FAULT), 1);
    e1000e_pp_dma_faults(f->core, list, sizeof(list));
    CHECK(strstr(list, " frame=1 rx-data desc=0 addr=0x20000 offset=0 "
                 "len=60 write\n"));
    CHECK(!strstr(list, "frame=2"));
    e1000e_pp_events(f->core, list, sizeof(list));
    CHECK(strstr(list, "knob-dma-fault-writes reg=0x02800 "
                 "value=0x00000001"));
    fake_free(f);
}

void test_events_carry_the_replay_instruction_count(void)
{
    /*
     * Outside record/replay (count 0) an event line ends at its value;
     * under it, with the count the platform gives at that moment.
     */
    char list[512];
    Fake *f = up_device();

    f->now = 1000;
    e1000e_pp_knob_dma_fault_writes(f->core, 2);
    f->now = 2000;
    f->icount = 1794963138;
    e1000e_pp_knob_dma_fault_writes(f->core, 0);
    e1000e_pp_events(f->core, list, sizeof(list));
    CHECK(strstr(list, "1000 knob-dma-fault-writes reg=0x02800 "
                 "value=0x00000002\n"));
    CHECK(strstr(list, "2000 knob-dma-fault-writes reg=0x02800 "
                 "value=0x00000000 icount=1794963138\n"));
    fake_free(f);
}
