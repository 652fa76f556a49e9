/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Migration of held Rx descriptor write-backs (82574L §10.2.5 RXDCTL:
 * with WTHRESH the device writes descriptors back in bursts, or when
 * RDTR/RADV expire): two frames' write-backs held on chip and the RDTR
 * running when the VM migrates; the next two frames reach WTHRESH on
 * the destination and all four come back, as without migration.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-migrate.h"
#include "e1000e-pp-scenario.h"

#define FRAMES          4
#define FRAME_LEN       200
#define BUF_LEN         2048
/* RXDCTL: GRAN (bit 24) counts descriptors, WTHRESH (21:16) = 4 */
#define RXDCTL_WB4      ((1u << 24) | (4u << 16))

typedef struct WbSeen {
    uint8_t desc[FRAMES][EPP_DESC_LEN];
    uint8_t buf[FRAMES][FRAME_LEN];
    unsigned dd_before;         /* DD seen before the last two frames */
    uint32_t rdh;
} WbSeen;

static unsigned count_dd(EppDev *d)
{
    uint8_t desc[EPP_DESC_LEN];
    unsigned i, n = 0;

    for (i = 0; i < FRAMES; i++) {
        epp_rx_desc_bytes(d->rx, i, desc);
        n += desc[8] & 1;
    }
    return n;
}

static void held_wb_run(const char *model, bool migrate, WbSeen *s)
{
    EppConfig cfg = { .rx_extended = true,
                           .rctl_bsize = RCTL_BSIZE_2048 };
    EppDev *d = epp_start(model, NULL);
    uint64_t buf[FRAMES];
    uint8_t wire[FRAME_LEN];
    unsigned i;

    epp_bring_up(d, &cfg);
    epp_wr(d, RXDCTL0, RXDCTL_WB4);
    epp_wr(d, RDTR, 1000);             /* 1.024 ms */
    for (i = 0; i < FRAMES; i++) {
        buf[i] = epp_alloc(d, BUF_LEN);
        epp_rx_post_addr(d->rx, buf[i]);
    }
    for (i = 0; i < FRAMES; i++) {
        if (i == 2) {
            s->dd_before = count_dd(d);
            if (migrate) {
                d = epp_migrate(d, NULL, NULL);
            }
        }
        epp_frame_fill(wire, sizeof(wire), false, 10 + i);
        epp_inject(d, wire, sizeof(wire));
        epp_wait_injected(d);
        epp_step(d, 10 * EPP_NS_PER_US);
    }
    for (i = 0; i < FRAMES; i++) {
        epp_rx_desc_bytes(d->rx, i, s->desc[i]);
        epp_memread(d, buf[i], s->buf[i], FRAME_LEN);
    }
    s->rdh = epp_rd(d, RDH0);
    epp_stop(d);
}

static void migrate_held_writebacks_flush_at_wthresh(const char *model)
{
    g_autofree WbSeen *straight = g_new0(WbSeen, 1);
    g_autofree WbSeen *moved = g_new0(WbSeen, 1);
    uint8_t wire[FRAME_LEN];
    unsigned i;

    held_wb_run(model, false, straight);
    held_wb_run(model, true, moved);
    g_assert_cmpmem(moved, sizeof(*moved), straight, sizeof(*straight));
    for (i = 0; i < FRAMES; i++) {
        epp_frame_fill(wire, sizeof(wire), false, 10 + i);
        g_assert_cmpmem(straight->buf[i], FRAME_LEN, wire, FRAME_LEN);
        g_assert_cmphex(straight->desc[i][8] & 3, ==, 3);  /* DD EOP */
        g_assert_cmpuint(lduw_le_p(straight->desc[i] + 12), ==, FRAME_LEN);
    }
    g_assert_cmpuint(straight->rdh, ==, FRAMES);
    if (epp_on_stock(model, "stock e1000e writes every descriptor back at "
                 "once (no WTHRESH burst)")) {
        g_assert_cmpuint(straight->dd_before, ==, 2);
        return;
    }
    /* Two frames in, WTHRESH 4 not reached, RDTR running: none back. */
    g_assert_cmpuint(straight->dd_before, ==, 0);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(migrate_held_writebacks_flush_at_wthresh),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
