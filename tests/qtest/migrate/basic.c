/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Migration qtests, run on e1000e-pp and on stock e1000e: a frame
 * mid-way, a pending delay timer, a corrupted stream, D3hot with PME armed.
 *
 * Each differential scenario runs twice in virtual time: straight, and
 * with the VM saved and loaded into a second QEMU at the interesting
 * moment; what the driver can see afterwards (descriptors and buffers
 * in guest memory, registers, interrupt times) must be the same. The
 * expected bytes come from the injected frame and IEEE 802.3's CRC-32,
 * not from the device. A corrupted stream must be refused by a
 * destination that then exits with a failure status, not a crash.
 *
 * Paths: /x86_64/<model>/migrate_..., e.g.
 * /x86_64/e1000e-pp/migrate_mid_frame_completes_on_destination.  The
 * held write-backs, a Tx walk mid-TSO and hostile streams have their
 * own files (wb.c, tx.c, hostile.c); the device section's cost is
 * cost.c.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "hw/pci/pci_regs.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-migrate.h"
#include "e1000e-pp-scenario.h"

/* 5000 bytes + FCS in 2 KB buffers: 2048 + 2048 + 908 */
#define BIG_LEN         EPP_MID_FRAME_LEN
#define BUF_LEN         EPP_MID_FRAME_BUF
#define BUFS            4

/* Everything the driver can read back after a scenario. */
typedef struct Seen {
    uint8_t desc[BUFS][EPP_DESC_LEN];
    uint8_t buf[BUFS][BUF_LEN];
    uint32_t rdh, gprc, tpr, icr;
    int64_t irq_ns;             /* when INTx rose, -1 if it did not */
} Seen;

#define ext_keep_crc    epp_ext_keep_crc

static void seen_read(EppDev *d, const uint64_t *buf, Seen *s)
{
    unsigned i;

    for (i = 0; i < BUFS; i++) {
        epp_rx_desc_bytes(d->rx, i, s->desc[i]);
        epp_memread(d, buf[i], s->buf[i], BUF_LEN);
    }
    s->rdh = epp_rd(d, RDH0);
    s->gprc = epp_rd(d, GPRC);
    s->tpr = epp_rd(d, TPR);
    s->icr = epp_rd(d, ICR);
}

static bool desc_dd(EppDev *d, void *opaque)
{
    uint8_t desc[EPP_DESC_LEN];

    epp_rx_desc_bytes(d->rx, *(unsigned *)opaque, desc);
    return desc[8] & 1;             /* extended write-back: STATUS.DD */
}

/*
 * Given 2 KB buffers, FCS kept, LPE, and one descriptor posted, when a
 * 5000-byte frame arrives, then its first 2048 bytes are in the ring
 * (DD, no EOP) and the rest waits in the packet buffer; [migrated here]
 * when the driver posts three more, the frame completes.
 */
static void mid_frame_run(const char *model, bool migrate, Seen *s)
{
    EppDev *d = epp_start(model, NULL);
    uint64_t buf[BUFS];
    unsigned i, eop = 2;

    for (i = 0; i < BUFS; i++) {
        buf[i] = epp_alloc(d, BUF_LEN);
    }
    epp_mid_frame(d, buf[0]);
    if (!epp_is_stock(model)) {
        /* The part-moved frame: chunk 0 written back, no EOP yet. */
        g_assert_true(desc_dd(d, &(unsigned){ 0 }));
        g_assert_cmpuint(epp_rd(d, RDH0), ==, 1);
    }
    if (migrate) {
        d = epp_migrate(d, NULL, NULL);
    }
    for (i = 1; i < BUFS; i++) {
        epp_rx_post_addr(d->rx, buf[i]);
    }
    if (!epp_is_stock(model) || !migrate) {
        epp_wait_until(d, desc_dd, &eop, 10 * EPP_NS_PER_US,
                       100 * EPP_NS_PER_MS, "the frame's last chunk");
    } else {
        epp_step(d, 100 * EPP_NS_PER_MS);
    }
    seen_read(d, buf, s);
    epp_stop(d);
}

static void migrate_mid_frame_completes_on_destination(const char *model)
{
    g_autofree Seen *straight = g_new0(Seen, 1);
    g_autofree Seen *moved = g_new0(Seen, 1);
    g_autofree uint8_t *wire = g_malloc(BIG_LEN);
    uint32_t fcs;

    epp_frame_fill(wire, BIG_LEN, false, 1);
    fcs = epp_fcs(wire, BIG_LEN);
    mid_frame_run(model, false, straight);
    mid_frame_run(model, true, moved);

    if (epp_on_stock(model, "a frame stock e1000e has not taken waits in "
                 "QEMU's netdev queue, which does not migrate: it is lost")) {
        /*
         * Straight, the data arrives once the descriptors are there:
         * 2048 + 2048 + 904 bytes (its FCS would take a descriptor of
         * its own, not posted, so no EOP yet).
         */
        g_assert_cmpuint(straight->rdh, ==, 3);
        g_assert_cmpmem(straight->buf[0], BUF_LEN, wire, BUF_LEN);
        g_assert_cmpmem(straight->buf[2], 904, wire + 2 * BUF_LEN, 904);
        g_assert_cmpuint(lduw_le_p(straight->desc[2] + 12), ==, 904);
        g_assert_cmphex(straight->desc[2][8] & 3, ==, 1);
        /* Migrated, nothing arrives on the destination. */
        g_assert_cmpuint(moved->rdh, ==, 0);
        g_assert_cmpuint(moved->desc[0][8] & 1, ==, 0);
        return;
    }
    /* Datasheet layout: 2048, 2048, 904 + the FCS; EOP on the third. */
    g_assert_cmpmem(straight->buf[0], BUF_LEN, wire, BUF_LEN);
    g_assert_cmpmem(straight->buf[1], BUF_LEN, wire + BUF_LEN, BUF_LEN);
    g_assert_cmpmem(straight->buf[2], 904, wire + 2 * BUF_LEN, 904);
    g_assert_cmphex((uint32_t)ldl_le_p(straight->buf[2] + 904), ==, fcs);
    g_assert_cmpuint(lduw_le_p(straight->desc[0] + 12), ==, 2048);
    g_assert_cmpuint(lduw_le_p(straight->desc[1] + 12), ==, 2048);
    g_assert_cmpuint(lduw_le_p(straight->desc[2] + 12), ==, 908);
    g_assert_cmphex(straight->desc[0][8] & 3, ==, 1);     /* DD */
    g_assert_cmphex(straight->desc[1][8] & 3, ==, 1);
    g_assert_cmphex(straight->desc[2][8] & 3, ==, 3);     /* DD EOP */
    g_assert_cmpuint(straight->gprc, ==, 1);
    g_assert_cmpuint(straight->rdh, ==, 3);
    /* And the migrated run is the same, byte for byte. */
    g_assert_cmpmem(moved, sizeof(*moved), straight, sizeof(*straight));
}

/*
 * Given RDTR = 100 (x 1.024 us), RXT0 enabled and INTx watched, when a
 * 60-byte frame arrives and 50 us later [the VM migrates], then INTx
 * rises when RDTR expires, 102.4 us after the frame, on both runs.
 */
static void delay_timer_run(const char *model, bool migrate, Seen *s)
{
    EppConfig cfg = ext_keep_crc;
    EppDev *d;
    uint64_t buf[BUFS];
    uint8_t wire[60];
    int64_t t0;
    unsigned i;

    cfg.ims = ICR_RXT0;
    d = epp_start(model, NULL);
    epp_watch_intx(d);
    epp_bring_up(d, &cfg);
    epp_wr(d, RDTR, 100);
    for (i = 0; i < BUFS; i++) {
        buf[i] = epp_alloc(d, BUF_LEN);
        epp_rx_post_addr(d->rx, buf[i]);
    }
    epp_frame_fill(wire, sizeof(wire), false, 2);
    epp_inject(d, wire, sizeof(wire));
    epp_wait_injected(d);
    t0 = d->now_ns;
    epp_step(d, 50 * EPP_NS_PER_US);
    g_assert_cmpint(epp_intx_pin(d), <, 0);
    if (migrate) {
        d = epp_migrate(d, NULL, NULL);
    }
    s->irq_ns = -1;
    for (i = 0; i < 200 && s->irq_ns < 0; i++) {
        epp_step(d, EPP_NS_PER_US);
        if (epp_intx_pin(d) >= 0) {
            s->irq_ns = d->now_ns - t0;
        }
    }
    seen_read(d, buf, s);
    epp_stop(d);
}

static void migrate_pending_delay_timer_fires_at_its_deadline(const char *model)
{
    g_autofree Seen *straight = g_new0(Seen, 1);
    g_autofree Seen *moved = g_new0(Seen, 1);

    delay_timer_run(model, false, straight);
    delay_timer_run(model, true, moved);
    /* RDTR counts 1.024 us (§10.2.5): 102.4 us, seen within the next us. */
    g_assert_cmpint(straight->irq_ns, >=, 102400);
    g_assert_cmpint(straight->irq_ns, <, 102400 + 1000 + 1000);
    if (epp_on_stock(model, "stock e1000e starts a pending RDTR again when "
                 "it is loaded: the interrupt comes a whole RDTR after "
                 "the migration")) {
        g_assert_cmpint(moved->irq_ns, ==, 50 * 1000 + straight->irq_ns);
        moved->irq_ns = straight->irq_ns;
    }
    g_assert_cmpint(moved->irq_ns, ==, straight->irq_ns);
    g_assert_cmpmem(moved, sizeof(*moved), straight, sizeof(*straight));
}

/* The first "name" in the stream (the section; the JSON comes after). */
static size_t find(const char *text, size_t len, const char *name)
{
    size_t n = strlen(name), i;

    for (i = 0; i + n <= len; i++) {
        if (!memcmp(text + i, name, n)) {
            return i;
        }
    }
    g_error("'%s' not in the migration stream", name);
}

/*
 * Given the mid-frame state saved to a file, when a destination loads
 * it with one field changed, then it refuses it naming the field and
 * exits with a failure status. Subsection "e1000e-pp/pktbuf" is a name
 * then a 32-bit version, then the held frames: start, len, done, ...
 */
static void migrate_corrupted_stream_is_refused(const char *model)
{
    g_autofree char *path = epp_stream_path();
    g_autofree char *stream = NULL;
    g_autofree char *err = NULL;
    EppDev *d = epp_start(model, NULL);
    size_t len, at;

    epp_mid_frame(d, 0);
    epp_save(d, path);
    epp_stop(d);
    g_assert_true(g_file_get_contents(path, &stream, &len, NULL));

    if (epp_on_stock(model, "stock e1000e holds no part-moved frame: the "
                 "stream is cut short instead")) {
        g_assert_true(g_file_set_contents(path, stream, len / 2, NULL));
        err = epp_restore_refused(model, NULL, path);
        unlink(path);
        g_assert_nonnull(strstr(err, "load of migration failed"));
        return;
    }
    /* q[0].done: 2048 bytes of 5004 moved; 6000 is past the frame. */
    at = find(stream, len, "e1000e-pp/pktbuf") + strlen("e1000e-pp/pktbuf");
    g_assert_cmpuint((uint32_t)ldl_be_p(stream + at + 4 + 4), ==, BIG_LEN + 4);
    g_assert_cmpuint((uint32_t)ldl_be_p(stream + at + 4 + 8), ==, BUF_LEN);
    stl_be_p(stream + at + 4 + 8, 6000);
    g_assert_true(g_file_set_contents(path, stream, len, NULL));
    err = epp_restore_refused(model, NULL, path);
    unlink(path);
    g_assert_nonnull(strstr(err, "e1000e-pp: migration stream refused: "
                            "pktbuf.q[0].done: 6000 of 5004 bytes"));
}

/*
 * Given the function in D3hot with PME_En set, when the VM migrates,
 * then the destination is in D3hot too (MMIO reads all-ones) and a
 * wake-up comes back as PMCSR.PME_Status, as it does straight.
 */
static uint16_t d3hot_run(const char *model, bool migrate, uint32_t *status)
{
    EppDev *d = epp_start(model, NULL);
    uint8_t pm = qpci_find_capability(d->pdev, PCI_CAP_ID_PM, 0);
    uint16_t pmcsr;

    epp_bring_up(d, &epp_default_config);
    epp_wr(d, WUFC, WU_LNKC);
    epp_wr(d, WUC, WUC_PME_EN);
    qpci_config_writew(d->pdev, pm + PCI_PM_CTRL,
                       PCI_PM_CTRL_PME_ENABLE | 3);
    if (migrate) {
        d = epp_migrate(d, NULL, NULL);
    }
    *status = epp_rd(d, STATUS);
    /* A link change as the wake event (e1000e-pp's knob; stock has none) */
    if (epp_qom_has(d, "x-wake-event")) {
        g_assert_true(epp_qom_set(d, "x-wake-event", WU_LNKC));
    }
    epp_step(d, EPP_NS_PER_MS);
    pmcsr = qpci_config_readw(d->pdev, pm + PCI_PM_CTRL);
    epp_stop(d);
    return pmcsr;
}

static void migrate_d3hot_with_pme_armed(const char *model)
{
    uint32_t st_straight, st_moved;
    uint16_t straight = d3hot_run(model, false, &st_straight);
    uint16_t moved = d3hot_run(model, true, &st_moved);

    g_assert_cmphex(moved, ==, straight);
    g_assert_cmphex(st_moved, ==, st_straight);
    if (epp_on_stock(model, "stock e1000e has no PM capability of its own "
                 "handling D3hot and no x-wake-event knob")) {
        return;
    }
    /* D3hot answers all-ones; the wake set PME_Status, kept PME_En. */
    g_assert_cmphex(st_straight, ==, 0xffffffff);
    g_assert_cmphex(straight & (PCI_PM_CTRL_PME_STATUS |
                                PCI_PM_CTRL_PME_ENABLE | 3), ==,
                    PCI_PM_CTRL_PME_STATUS | PCI_PM_CTRL_PME_ENABLE | 3);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(migrate_mid_frame_completes_on_destination),
    EPP_SCENARIO(migrate_pending_delay_timer_fires_at_its_deadline),
    EPP_SCENARIO(migrate_corrupted_stream_is_refused),
    EPP_SCENARIO(migrate_d3hot_with_pme_armed),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios), NULL);
}
