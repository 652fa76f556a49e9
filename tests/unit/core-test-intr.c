/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core unit tests: interrupts and their moderation. */
#include "core-test.h"

void test_intx_int_asserted_and_icr_read_deasserts(void)
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

void test_msix_ivar_routes_and_eiac_clears(void)
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
    /* The device's own count of each vector's messages agrees. */
    CHECK_EQ(f->core->obs.irq_messages[0], 1);
    CHECK_EQ(f->core->obs.irq_messages[1], 0);
    CHECK_EQ(f->core->obs.irq_messages[2], 1);
    fake_free(f);
}

void test_itr_throttles_intx_assertions(void)
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
    CHECK_EQ(f->core->obs.intx_asserts, 2);         /* two raises */
    fake_free(f);
}

void test_rdtr_delays_rxt0_and_fpd_flushes(void)
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

void test_icr_write_of_bit_31_keeps_int_asserted(void)
{
    /*
     * ICR.INT_ASSERTED (bit 31) reports the line; it is no cause a write
     * can clear. With it still set, the next ICR read clears and
     * deasserts as §10.2.4.1 says (case 1 or 2, not case 3).
     */
    Fake *f = up_device();

    rd(f, 0x000c0);
    wr(f, 0x000d0, 0x04);                           /* IMS.LSC */
    wr(f, 0x000c8, 0x04);                           /* ICS.LSC */
    CHECK_EQ(f->intx, 1);
    wr(f, 0x000c0, 0x80000000);                     /* ICR: bit 31 only */
    CHECK_EQ(f->intx, 1);
    CHECK_EQ(rd(f, 0x000c0), 0x80000004);
    CHECK_EQ(f->intx, 0);
    CHECK_EQ(rd(f, 0x000c0), 0);
    /* Writing 1 to the cause itself still clears it. */
    wr(f, 0x000c8, 0x04);
    wr(f, 0x000c0, 0xffffffff);
    CHECK_EQ(f->intx, 0);
    CHECK_EQ(rd(f, 0x000c0), 0);
    fake_free(f);
}
