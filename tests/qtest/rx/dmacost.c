/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DMA-map cost per received packet: what the page-pool series buys.
 *
 * Each design counts the DMA API calls its Linux code path would make
 * (e1000e-pp-rxdrv.h: dma_maps, dma_unmaps, dma_syncs).  A steady stream
 * of frames, every slot refilled as soon as it is cleaned, shows the
 * cost per packet:
 *   stock, copybreak as Linux: every buffer is unmapped when cleaned and
 *     a buffer (new, or the copied one recycled) mapped at refill;
 *   stock, copybreak off: the same, nothing copied;
 *   stock, copybreak without re-mapping: a copied buffer is synced for
 *     the CPU and back for the device and stays mapped;
 *   page-pool: pages are mapped once, when the pool is filled; each
 *     buffer is synced for the CPU when used and for the device when
 *     handed back.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxdrv.h"
#include "rx.h"

#define DMA_FRAMES      32      /* half 128-byte frames, half full-size */

typedef struct DmaCase {
    EppRxDesign design;
    EppCopybreak copybreak;
    const char *setting;
    unsigned mtu;
    /* Expected calls over the 32 frames, from the Linux code paths */
    unsigned maps, unmaps, syncs;
} DmaCase;

/*
 * 16 frames of 128 bytes and 16 of MTU + 14 bytes, FCS stripped by the
 * device.  Stock at MTU 1500: one buffer per frame (the 128-byte ones
 * are below copybreak); at MTU 9000 packet split: the 128-byte frame
 * fills the header buffer only (header skb unmapped and a new one
 * mapped), the full one the header buffer and three pages (4 + 4); a
 * non-IP frame's header buffer is full, so split's copybreak never
 * copies.  Page-pool: 1 buffer per frame at 1500; at 9000, 1 and 5
 * (9014 bytes in 2 KB buffers); 2 syncs per buffer.
 */
static const DmaCase dma_cases[] = {
    { EPP_RX_STOCK, EPP_CB_LINUX, "copybreak", 1500, 32, 32, 0 },
    { EPP_RX_STOCK, EPP_CB_OFF, "no-copybreak", 1500, 32, 32, 0 },
    { EPP_RX_STOCK, EPP_CB_SYNC, "copybreak-no-remap", 1500, 16, 16, 32 },
    { EPP_RX_STOCK, EPP_CB_LINUX, "copybreak", 9000, 80, 80, 0 },
    { EPP_RX_STOCK, EPP_CB_OFF, "no-copybreak", 9000, 80, 80, 0 },
    { EPP_RX_STOCK, EPP_CB_SYNC, "copybreak-no-remap", 9000, 80, 80, 0 },
    { EPP_RX_PAGEPOOL, EPP_CB_LINUX, "page-pool", 1500, 0, 0, 64 },
    { EPP_RX_PAGEPOOL, EPP_CB_LINUX, "page-pool", 9000, 0, 0, 192 },
};

/*
 * Given the design and copybreak setting at the MTU, when a steady
 * stream of 32 frames arrives and every cleaned slot is refilled, then
 * the DMA map, unmap and sync calls are exactly those the design's
 * Linux code path makes (the table above), every frame intact.
 */
static void rx_dma_cost(const char *model, const void *opaque)
{
    const DmaCase *c = opaque;
    EppRxSetup s = {
        .design = c->design, .mtu = c->mtu, .copybreak = c->copybreak,
    };
    EppDmaCost cost;
    EppDev *d = epp_start(model, NULL);

    epp_bring_up(d, &epp_default_config);
    rx_dma_cost_stream(d, &s, DMA_FRAMES, &cost);
    g_test_message("%s %s MTU %u: %" PRIu64 " maps, %" PRIu64 " unmaps, %"
                   PRIu64 " syncs for %u frames (%" PRIu64 " maps at "
                   "start)", epp_rx_design_name(c->design), c->setting,
                   c->mtu, cost.maps, cost.unmaps, cost.syncs, cost.frames,
                   cost.maps_at_start);
    g_assert_cmpuint(cost.maps, ==, c->maps);
    g_assert_cmpuint(cost.unmaps, ==, c->unmaps);
    g_assert_cmpuint(cost.syncs, ==, c->syncs);
    epp_stop(d);
}

static void rx_add_dma_cost_cases(void)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(dma_cases); i++) {
        const DmaCase *c = &dma_cases[i];
        g_autofree char *path = g_strdup_printf(
            "rx/dma_cost/%s/%s/mtu%u", epp_rx_design_name(c->design),
            c->setting, c->mtu);

        epp_add_case(path, rx_dma_cost, c);
    }
}

int main(int argc, char **argv)
{
    return epp_main(argc, argv, NULL, 0, rx_add_dma_cost_cases);
}
