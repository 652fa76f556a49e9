/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The historical bug classes of DMA and traffic: rings and buffers over
 * the device's own BARs and MSI-X table (DMA into MMIO must not re-enter
 * the device), a loopback storm, a huge ring of unmapped buffers fed by
 * a burst of queued frames, and the same behind an IOMMU that faults
 * every access.  Each runs wall-bounded (robust.c) and asserts
 * what each model does.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-scenario.h"
#include "robust.h"

/* ---------------------------------------------------------------- */
/* Rings and buffers over the device's own BARs                      */
/* ---------------------------------------------------------------- */

static void rings_over_bars(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 200 };
    uint64_t bar0, msix;
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    uint32_t ims = 0x1f6dc, rctl;
    unsigned i;

    epp_bring_up(d, &epp_default_config);
    epp_wr(d, IMS, ims);
    rctl = epp_rd(d, RCTL);
    bar0 = d->mmio.addr;
    msix = qpci_iomap(d->pdev, 3, NULL).addr;

    /*
     * Given: Rx buffers in BAR0 at ICS and IMC, and in the MSI-X table;
     * a Tx descriptor whose data is BAR0 itself
     */
    epp_rx_post_addr(d->rx, bar0 + ICS);
    epp_rx_post_addr(d->rx, bar0 + IMC);
    epp_rx_post_addr(d->rx, msix);
    epp_rx_post_addr(d->rx, bar0 + RCTL);
    epp_txd_legacy(desc, bar0, LEN, TXD_CMD_EOP | TXD_CMD_IFCS |
                   TXD_CMD_RS);
    epp_tx_push(d, desc);

    /* When: frames arrive into those buffers */
    for (i = 0; i < 4; i++) {
        epp_frame_fill(f, LEN, false, i);
        memset(f + 64, 0xff, LEN - 64);
        epp_inject(d, f, LEN);
    }
    epp_step(d, 10 * EPP_NS_PER_MS);
    expect_responsive(d, "DMA into BAR0 and the MSI-X table");

    /* Then: DMA did not reach the device: its registers are intact */
    if (epp_on_stock(model, "a frame's DMA lands in its own registers: the "
                 "frame's bytes written to IMC mask causes")) {
        note("e1000e: after DMA into its BAR0, IMS 0x%x (was 0x%x), RCTL "
             "0x%x (was 0x%x)", epp_rd(d, IMS), ims,
             epp_rd(d, RCTL), rctl);
        /* What the frames' bytes written over ICS, IMS and IMC leave */
        g_assert_cmphex(epp_rd(d, IMS), ==, 0x182d4);
        g_assert_cmphex(epp_rd(d, RCTL), ==, rctl);
        epp_wr(d, IMS, ims);
    } else {
        g_assert_cmphex(epp_rd(d, IMS), ==, ims);
        g_assert_cmphex(epp_rd(d, RCTL), ==, rctl);
    }
    drain_wire(d);

    /* Given: the rings themselves in BAR0 and in the MSI-X table */
    epp_wr(d, RDBAL0, (uint32_t)bar0);
    epp_wr(d, RDBAH0, (uint32_t)(bar0 >> 32));
    epp_wr(d, TDBAL0, (uint32_t)msix);
    epp_wr(d, TDBAH0, (uint32_t)(msix >> 32));
    epp_wr(d, RDH0, 0);
    epp_wr(d, TDH0, 0);
    /* When: tails hand them over and a frame arrives */
    epp_wr(d, RDT0, 16);
    epp_wr(d, TDT0, 16);
    epp_inject(d, f, LEN);
    epp_step(d, 10 * EPP_NS_PER_MS);
    expect_responsive(d, "rings in BAR0 and the MSI-X table");
    note("%s: IMS 0x%x after rings in its own BARs (was 0x%x)", model,
         epp_rd(d, IMS), ims);
    /* stock e1000e: the same bytes reach IMC again */
    g_assert_cmphex(epp_rd(d, IMS), ==, epp_by_model(model, ims, 0x182d4));
    if (!epp_is_stock(model)) {
        note("e1000e-pp: reentries-refused %" PRIu64
                       ", dma-errors %" PRIu64,
                       epp_qom_u64(d, "reentries-refused"),
                       epp_qom_u64(d, "dma-errors"));
    }
    drain_wire(d);
    epp_stop(d);
}

static void robust_rings_and_buffers_over_own_bars(const char *model)
{
    bounded(model, rings_over_bars, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* Loopback storm                                                    */
/* ---------------------------------------------------------------- */

static void loopback_storm(const char *model)
{
    EppDev *d = epp_start(model, NULL);
    enum { LEN = 1514, ROUNDS = 16 };
    uint8_t f[LEN], desc[EPP_DESC_LEN];
    uint64_t buf;
    unsigned i, r, sent;

    /* Given: MAC loopback, promiscuous, 8 Rx buffers, a full Tx ring */
    epp_bring_up(d, &epp_default_config);
    epp_wr(d, RCTL, epp_rd(d, RCTL) | RCTL_UPE | RCTL_MPE |
           RCTL_LBM_MAC);
    for (i = 0; i < 8; i++) {
        epp_rx_post_addr(d->rx, epp_alloc(d, 2048));
    }
    epp_frame_fill(f, LEN, false, 3);
    memcpy(f, epp_mac, 6);
    buf = epp_alloc(d, LEN);
    epp_memwrite(d, buf, f, LEN);
    epp_txd_legacy(desc, buf, LEN, TXD_CMD_EOP | TXD_CMD_IFCS |
                   TXD_CMD_RS);
    for (i = 0; i < EPP_RING_COUNT; i++) {
        qtest_memwrite(d->qts, d->tx_ring + i * EPP_DESC_LEN, desc,
                       EPP_DESC_LEN);
    }

    /* When: the tail goes round the ring 16 times (1008 frames) */
    for (r = 0; r < ROUNDS; r++) {
        for (i = 0; i < 3; i++) {
            epp_wr(d, TDT0, (epp_rd(d, TDH0) + 63) %
                   EPP_RING_COUNT);
            epp_step(d, EPP_NS_PER_MS);
        }
    }

    /* Then: QEMU answers, and every looped frame is accounted for */
    expect_responsive(d, "a loopback storm");
    if (!epp_is_stock(model)) {
        static const char *const drops[] = {
            "rx-missed", "rx-filtered", "rx-oversize", "rx-undersize",
            "rx-not-ready", "rx-dma-error",
        };
        uint64_t offered = epp_qom_u64(d, "rx-offered");
        uint64_t ended = epp_qom_u64(d, "rx-delivered");

        for (i = 0; i < ARRAY_SIZE(drops); i++) {
            ended += epp_qom_u64(d, drops[i]);
        }
        note("e1000e-pp: %" PRIu64 " looped back, %" PRIu64 " delivered, %"
             PRIu64 " missed, %" PRIu64 " still in the packet buffer",
             offered, epp_qom_u64(d, "rx-delivered"),
             epp_qom_u64(d, "rx-missed"), offered - ended);
        /* Each ends in one place; the rest wait in the 40 KB buffer */
        g_assert_cmpuint(ended, <=, offered);
        g_assert_cmpuint(offered - ended, <=, 40 * 1024 / (LEN + 4));
        g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==, 8);
    }
    /* Both models: MAC loopback keeps every frame off the wire */
    sent = drain_wire(d);
    note("%s: %u frames reached the wire", model, sent);
    g_assert_cmpuint(sent, ==, 0);
    epp_stop(d);
}

static void robust_loopback_storm(const char *model)
{
    bounded(model, loopback_storm, RESPONSIVE);
}

/* ---------------------------------------------------------------- */
/* A huge ring, a burst of queued frames, buffers nothing can reach  */
/* ---------------------------------------------------------------- */

/* §10.2.5.6: RDLEN up to 0xfff80 bytes: 65528 descriptors */
#define HUGE_RING_BYTES     0xfff80u
#define HUGE_RING_DESCS     (HUGE_RING_BYTES / EPP_DESC_LEN)
/* Far above the q35 machine's RAM: nothing answers there */
#define UNMAPPED            0x7f0000000000ull

/* Intel VT-d registers (VT-d spec §10.4) at the q35 DMAR unit */
#define VTD_BASE            0xfed90000ull
#define VTD_GCMD            0x18
#define VTD_GSTS            0x1c
#define VTD_RTADDR          0x20
#define VTD_GCMD_TE         (1u << 31)     /* translation enable */
#define VTD_GCMD_SRTP       (1u << 30)     /* set root table pointer */

/*
 * What keeps the buffers out of reach.  IOMMU_FAULTS: ring and buffers
 * in RAM, but DMA remapping on with an empty root table, so every
 * access the device makes faults.
 */
typedef enum HugeKind {
    BUFFERS_UNMAPPED,       /* every buffer far above RAM */
    BUFFERS_NULL,           /* every buffer address 0 */
    IOMMU_FAULTS,
} HugeKind;

/*
 * VT-d on with a root table of zeros: no root entry is present, so
 * every DMA of every device faults (VT-d §6.1, fault reason 1).
 */
static void iommu_fault_everything(EppDev *d)
{
    uint64_t root = (epp_alloc(d, 8192) + 4095) & ~4095ull;
    static const uint8_t zeros[4096];

    epp_memwrite(d, root, zeros, sizeof(zeros));
    qtest_writeq(d->qts, VTD_BASE + VTD_RTADDR, root);
    qtest_writel(d->qts, VTD_BASE + VTD_GCMD, VTD_GCMD_SRTP);
    g_assert_cmphex(qtest_readl(d->qts, VTD_BASE + VTD_GSTS) &
                    VTD_GCMD_SRTP, ==, VTD_GCMD_SRTP);
    qtest_writel(d->qts, VTD_BASE + VTD_GCMD, VTD_GCMD_TE);
    g_assert_cmphex(qtest_readl(d->qts, VTD_BASE + VTD_GSTS) &
                    VTD_GCMD_TE, ==, VTD_GCMD_TE);
}

/* A register write; the wall milliseconds until QEMU acknowledged it */
static int64_t timed_wr(EppDev *d, uint32_t reg, uint32_t val)
{
    int64_t t0 = g_get_monotonic_time();

    epp_wr(d, reg, val);
    return (g_get_monotonic_time() - t0) / 1000;
}

static void huge_ring(const char *model, HugeKind kind)
{
    EppDev *d = kind == IOMMU_FAULTS ?
        epp_start_pre(model, NULL, "-device intel-iommu,intremap=off",
                      NULL) :
        epp_start(model, NULL);
    enum { LEN = 60, BURST = 4000 };
    g_autofree uint8_t *ring = g_malloc0(HUGE_RING_BYTES);
    uint64_t ring_addr = epp_alloc(d, HUGE_RING_BYTES);
    uint64_t bufs = kind == IOMMU_FAULTS ? epp_alloc(d, 2048) : 0;
    uint8_t f[LEN], low[LEN];
    int64_t rdt_ms, rctl_ms;
    uint32_t rdh;
    unsigned i, queued;

    /* Given: a 65528-descriptor ring, every buffer out of reach */
    epp_bring_up(d, &epp_default_config);
    qtest_memread(d->qts, 0, low, LEN);
    for (i = 0; i < HUGE_RING_DESCS; i++) {
        stq_le_p(ring + i * EPP_DESC_LEN,
                 kind == BUFFERS_UNMAPPED ? UNMAPPED + (uint64_t)i * 2048 :
                 bufs);
    }
    epp_memwrite(d, ring_addr, ring, HUGE_RING_BYTES);
    epp_wr(d, RDBAL0, (uint32_t)ring_addr);
    epp_wr(d, RDBAH0, (uint32_t)(ring_addr >> 32));
    epp_wr(d, RDLEN0, HUGE_RING_BYTES);
    epp_wr(d, RDH0, 0);
    epp_wr(d, RDT0, 0);
    if (kind == IOMMU_FAULTS) {
        iommu_fault_everything(d);
    }
    expect_responsive(d, "a huge ring set up");

    /*
     * ... and a burst of frames while the ring is empty: stock e1000e
     * leaves them queued in QEMU, e1000e-pp holds what its packet buffer
     * takes and counts the rest as missed (MPC), as the hardware does
     */
    for (i = 0; i < BURST; i++) {
        epp_frame_fill(f, LEN, false, i);
        if (!inject_nowait(d, f, LEN)) {
            break;
        }
        if (i == 0) {
            expect_responsive(d, "the first frame into an empty ring");
        }
    }
    queued = i;
    note("%s: %u frames queued", model, queued);
    epp_step(d, EPP_NS_PER_MS);
    expect_responsive(d, "a burst into an empty ring");

    /*
     * When: the whole ring is handed over; the write itself and the next
     * command are timed (a model that works inside the write holds the
     * qtest command until it is done)
     */
    rdt_ms = timed_wr(d, RDT0, HUGE_RING_DESCS - 1);
    rdt_ms += expect_responsive(d, "RDT over the huge ring");
    epp_step(d, 10 * EPP_NS_PER_MS);

    /* When: RCTL is written again (stops nothing on e1000e-pp) */
    rctl_ms = timed_wr(d, RCTL, RCTL_EN | RCTL_BAM | RCTL_SECRC);
    rctl_ms += expect_responsive(d, "RCTL rewritten over the same ring");
    epp_step(d, 10 * EPP_NS_PER_MS);
    expect_responsive(d, "10 ms of virtual time later");

    /*
     * Then: QEMU answered (bounded()); what the ring shows once every
     * frame a model takes has reached it (stock stops reading the
     * socket when its ring is used up)
     */
    if (!epp_is_stock(model) || kind == BUFFERS_UNMAPPED) {
        epp_run_until(d, epp_netdev_took_all, NULL,
                      "the burst to reach the device");
        epp_step(d, 10 * EPP_NS_PER_MS);
    }
    rdh = epp_rd(d, RDH0);
    note("%s: RDH %u after RDT (%" PRId64 " ms) and RCTL (%" PRId64 " ms)",
         model, rdh, rdt_ms, rctl_ms);
    if (epp_is_stock(model)) {
        /*
         * stock e1000e ignores failed DMA: a descriptor read that fails
         * (the IOMMU) gives buffer address 0, and address 0 means "no
         * buffer": one frame then walks every descriptor of the ring,
         * writing each back, without storing a byte.  An unmapped
         * buffer takes one descriptor per frame, the data dropped.
         */
        g_assert_cmpuint(rdh, ==, kind == BUFFERS_UNMAPPED ? queued :
                         HUGE_RING_DESCS - 1);
    } else {
        note("e1000e-pp: offered %" PRIu64 ", delivered %" PRIu64
             ", missed %" PRIu64 ", dma-errors %" PRIu64,
             epp_qom_u64(d, "rx-offered"),
             epp_qom_u64(d, "rx-delivered"),
             epp_qom_u64(d, "rx-missed"),
             epp_qom_u64(d, "dma-errors"));
        /* Every frame offered ends in one place */
        g_assert_cmpuint(epp_qom_u64(d, "rx-offered"), ==, queued);
        if (kind == BUFFERS_NULL) {
            /*
             * 82574L §7.1.7.2: a descriptor with a null buffer address
             * stores nothing and comes back with DD; the frame goes on
             * to the next one. So the first held frame walks the whole
             * ring in bounded steps (RDH at RDT, every descriptor a null
             * one) and every frame the packet buffer took waits there.
             */
            g_assert_cmpuint(rdh, ==, HUGE_RING_DESCS - 1);
            g_assert_cmpuint(epp_qom_u64(d, "rx-null-desc"), ==, rdh);
            g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==, 0);
            g_assert_cmpuint(epp_qom_u64(d, "rx-missed"), <, queued);
        } else if (kind == IOMMU_FAULTS) {
            /*
             * Every descriptor fetch faults: nothing is cached, RDH
             * stays, the frames wait on the chip; each failed fetch is
             * listed (a read with no completion, docs/fidelity.md)
             */
            g_assert_cmpuint(rdh, ==, 0);
            g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==, 0);
            g_assert_cmpuint(epp_qom_u64(d, "dma-fault-count"), >, 0);
            g_assert_cmpuint(epp_qom_u64(d, "dma-errors"), ==,
                             epp_qom_u64(d, "dma-fault-count"));
        } else {
            /*
             * PCIe writes are posted: each frame's data is lost and its
             * descriptor still written back, so every frame the packet
             * buffer held counts as delivered; a fault is listed per
             * frame.
             */
            g_assert_cmpuint(epp_qom_u64(d, "dma-errors"), >, 0);
            g_assert_cmpuint(epp_qom_u64(d, "rx-delivered"), ==,
                             queued - epp_qom_u64(d, "rx-missed"));
            g_assert_cmpuint(epp_qom_u64(d, "dma-fault-count"), ==,
                             epp_qom_u64(d, "rx-delivered"));
        }
    }
    qtest_memwrite(d->qts, 0, low, LEN);
    epp_stop(d);
}

static void huge_ring_unmapped(const char *model)
{
    huge_ring(model, BUFFERS_UNMAPPED);
}

static void robust_huge_ring_unmapped_buffers_burst(const char *model)
{
    bounded(model, huge_ring_unmapped, RESPONSIVE);
}

static void huge_ring_null(const char *model)
{
    huge_ring(model, BUFFERS_NULL);
}

static void robust_null_buffers_walk_a_huge_ring(const char *model)
{
    bounded(model, huge_ring_null, RESPONSIVE);
}

static void huge_ring_iommu(const char *model)
{
    huge_ring(model, IOMMU_FAULTS);
}

static void robust_iommu_faults_every_dma(const char *model)
{
    bounded(model, huge_ring_iommu, RESPONSIVE);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(robust_rings_and_buffers_over_own_bars),
    EPP_SCENARIO(robust_loopback_storm),
    EPP_SCENARIO(robust_huge_ring_unmapped_buffers_burst),
    EPP_SCENARIO(robust_null_buffers_walk_a_huge_ring),
    EPP_SCENARIO(robust_iommu_faults_every_dma),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
