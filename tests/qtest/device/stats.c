/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenarios: statistics registers.
 * Given/when/then against the 82574L datasheet.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-scenario.h"

/* ---------------------------------------------------------------- */
/* Statistics                                                       */
/* ---------------------------------------------------------------- */

static void stats_clear_on_read(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { NFRAMES = 3, LEN = 60 };
    uint8_t frame[LEN], got[2048], desc[EPP_DESC_LEN];
    uint64_t buf = epp_alloc(d, LEN);
    uint32_t idx = 0;
    int i;

    /* Given: a device up, counters cleared by bring-up */
    epp_bring_up(d, &epp_default_config);

    /* When: three 60-byte frames are sent and two are received */
    epp_frame_fill(frame, LEN, false, 1);
    epp_memwrite(d, buf, frame, LEN);
    for (i = 0; i < NFRAMES; i++) {
        epp_txd_legacy(desc, buf, LEN,
                       TXD_CMD_EOP | TXD_CMD_IFCS | TXD_CMD_RS);
        epp_tx_push(d, desc);
    }
    epp_tx_wait_done(d);
    for (i = 0; i < NFRAMES; i++) {
        g_assert_cmpuint(epp_collect(d, got, sizeof(got)), ==, LEN);
    }
    for (i = 0; i < 2; i++) {
        idx = epp_rx_post_addr(d->rx, epp_alloc(d, 2048));
        epp_inject(d, frame, LEN);
        epp_rx_wait_dd(d->rx, idx);
    }

    /* Then: exact counts; octets include the 4-byte FCS */
    EPP_EXPECT_REG(d, GPTC, 0xffffffff, NFRAMES);
    EPP_EXPECT_REG(d, TPT, 0xffffffff, NFRAMES);
    EPP_EXPECT_REG(d, GOTCL, 0xffffffff, NFRAMES * (LEN + 4));
    EPP_EXPECT_REG(d, GOTCH, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GPRC, 0xffffffff, 2);
    EPP_EXPECT_REG(d, TPR, 0xffffffff, 2);
    EPP_EXPECT_REG(d, GORCL, 0xffffffff, 2 * (LEN + 4));
    EPP_EXPECT_REG(d, GORCH, 0xffffffff, 0);

    /* Then: a second read finds every one of them cleared */
    EPP_EXPECT_REG(d, GPTC, 0xffffffff, 0);
    EPP_EXPECT_REG(d, TPT, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GOTCL, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GOTCH, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GPRC, 0xffffffff, 0);
    EPP_EXPECT_REG(d, TPR, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GORCL, 0xffffffff, 0);
    EPP_EXPECT_REG(d, GORCH, 0xffffffff, 0);
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(stats_clear_on_read),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
