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
#include "e1000e-pp-migrate-test.h"
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

static unsigned count_dd(E1000epp *d)
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
    E1000eppConfig cfg = { .rx_extended = true,
                           .rctl_bsize = RCTL_BSIZE_2048 };
    E1000epp *d = e1000epp_start(model, NULL);
    uint64_t buf[FRAMES];
    uint8_t wire[FRAME_LEN];
    unsigned i;

    e1000epp_bring_up(d, &cfg);
    e1000epp_wr(d, RXDCTL0, RXDCTL_WB4);
    e1000epp_wr(d, RDTR, 1000);             /* 1.024 ms */
    for (i = 0; i < FRAMES; i++) {
        buf[i] = e1000epp_alloc(d, BUF_LEN);
        epp_rx_post_addr(d->rx, buf[i]);
    }
    for (i = 0; i < FRAMES; i++) {
        if (i == 2) {
            s->dd_before = count_dd(d);
            if (migrate) {
                d = e1000epp_migrate(d, NULL, NULL);
            }
        }
        frame_fill(wire, sizeof(wire), false, 10 + i);
        e1000epp_inject(d, wire, sizeof(wire));
        e1000epp_wait_injected(d);
        e1000epp_step(d, 10 * EPP_NS_PER_US);
    }
    for (i = 0; i < FRAMES; i++) {
        epp_rx_desc_bytes(d->rx, i, s->desc[i]);
        e1000epp_memread(d, buf[i], s->buf[i], FRAME_LEN);
    }
    s->rdh = e1000epp_rd(d, RDH0);
    e1000epp_stop(d);
}

void migrate_held_writebacks_flush_at_wthresh(const char *model)
{
    g_autofree WbSeen *straight = g_new0(WbSeen, 1);
    g_autofree WbSeen *moved = g_new0(WbSeen, 1);
    uint8_t wire[FRAME_LEN];
    unsigned i;

    held_wb_run(model, false, straight);
    held_wb_run(model, true, moved);
    g_assert_cmpmem(moved, sizeof(*moved), straight, sizeof(*straight));
    for (i = 0; i < FRAMES; i++) {
        frame_fill(wire, sizeof(wire), false, 10 + i);
        g_assert_cmpmem(straight->buf[i], FRAME_LEN, wire, FRAME_LEN);
        g_assert_cmphex(straight->desc[i][8] & 3, ==, 3);  /* DD EOP */
        g_assert_cmpuint(lduw_le_p(straight->desc[i] + 12), ==, FRAME_LEN);
    }
    g_assert_cmpuint(straight->rdh, ==, FRAMES);
    if (on_stock(model, "stock e1000e writes every descriptor back at "
                 "once (no WTHRESH burst)")) {
        g_assert_cmpuint(straight->dd_before, ==, 2);
        return;
    }
    /* Two frames in, WTHRESH 4 not reached, RDTR running: none back. */
    g_assert_cmpuint(straight->dd_before, ==, 0);
}
