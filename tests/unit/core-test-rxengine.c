/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Core unit tests of the receive engine: the descriptor cache,
 * buffer-by-buffer moves and partial frames, posted data writes and the
 * DMA fault list, null descriptors, the legacy packet checksum on the
 * first descriptor, HDR_STATUS.HS, and the per-slot buffer-address
 * counters.
 */
#include "core-test.h"

/* rx_ring with only "posted" descriptors handed over before RCTL.EN. */
static void rx_ring_posted(Fake *f, unsigned n, uint32_t rctl, int extended,
                           unsigned posted)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        memset(f->mem + RX_RING + 16 * i, 0, 16);
        put64(f->mem + RX_RING + 16 * i, RX_BUF(i));
    }
    wr(f, 0x05008, extended ? 1u << 15 : 0);
    wr(f, R_RDBAL, RX_RING);
    wr(f, 0x02808, n * 16);
    wr(f, R_RDH, 0);
    wr(f, R_RDT, posted);
    wr(f, R_RCTL, rctl | 1u << 1 | 1u << 15);
}

/* Legacy status byte and extended status dword of descriptor i. */
static uint8_t legacy_status(Fake *f, unsigned i)
{
    return f->mem[RX_RING + 16 * i + 12];
}

static uint32_t ext_status(Fake *f, unsigned i)
{
    return le32(f->mem + RX_RING + 16 * i + 8);
}

void test_rx_cache_uses_descriptor_as_fetched(void)
{
    Fake *f = up_device();
    uint8_t frame[60];

    /* Given descriptors fetched when RDT was written (rx_ring)... */
    rx_ring(f, 8, RCTL_SECRC, 1);
    /* ...and descriptor 0 rewritten afterwards (tail before contents) */
    put64(f->mem + RX_RING, RX_BUF(5));
    make_frame(frame, sizeof(frame), 1);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    /* Then the data goes where the descriptor said at the tail write. */
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    CHECK_EQ(le32(f->mem + RX_BUF(5)), 0);
    CHECK_EQ(ext_status(f, 0) & 3, 3);
    fake_free(f);
}

void test_rx_ring_dry_part_way_resumes_after_rdt(void)
{
    /* 2 KB buffers, LPE, FCS kept: 5000 + 4 bytes = 2048 + 2048 + 908. */
    Fake *f = up_device();
    static uint8_t frame[5000];
    uint32_t fcs;

    rx_ring_posted(f, 8, RCTL_LPE, 1, 1);           /* one descriptor */
    make_frame(frame, sizeof(frame), 2);
    fcs = ref_crc32(frame, sizeof(frame));
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    /* DD on the first chunk, no EOP; the rest waits on the chip. */
    CHECK_EQ(ext_status(f, 0) & 3, 1);
    CHECK_EQ(le16(f->mem + RX_RING + 12), 2048);
    CHECK_EQ(ext_status(f, 1), 0);
    CHECK_EQ(rd(f, R_RDH), 1);
    CHECK_EQ(rd(f, R_RNBC), 0);                     /* RDH != RDT */
    CHECK_EQ(f->core->arch.pktbuf.count, 1);
    CHECK_EQ(f->core->obs.rxstat.delivered, 0);
    /* Each RDT write lets the next chunk out. */
    wr(f, R_RDT, 2);
    CHECK_EQ(ext_status(f, 1) & 3, 1);
    CHECK_EQ(f->core->obs.rxstat.delivered, 0);
    wr(f, R_RDT, 3);
    CHECK_EQ(ext_status(f, 2) & 3, 3);
    CHECK_EQ(le16(f->mem + RX_RING + 32 + 12), 908);
    CHECK(memcmp(f->mem + RX_BUF(0), frame, 2048) == 0);
    CHECK(memcmp(f->mem + RX_BUF(1), frame + 2048, 2048) == 0);
    CHECK(memcmp(f->mem + RX_BUF(2), frame + 4096, 904) == 0);
    CHECK_EQ(le32(f->mem + RX_BUF(2) + 904), fcs);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    CHECK_EQ(f->core->arch.pktbuf.count, 0);
    fake_free(f);
}

void test_rx_fetch_limit_puts_dry_point_at_each_chunk(void)
{
    /* 9000 + 4 bytes in 2 KB buffers: five chunks, the last 812. */
    static uint8_t frame[9000];
    /* RDT writes until the EOP, for k descriptors per fetch */
    static const unsigned rdt_writes[5] = { 0, 4, 2, 1, 1 };
    unsigned k;

    make_frame(frame, sizeof(frame), 3);
    for (k = 1; k <= 4; k++) {
        E1000EPPConfig cfg = {
            .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
            .rx_fetch_limit = k,
        };
        Fake *f = fake_new_config(&cfg);
        unsigned i, writes = 0;

        fake_step(f, 600 * MS);
        rx_ring(f, 8, RCTL_LPE, 1);
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
        /* Exactly k chunks out, each DD without EOP. */
        for (i = 0; i < 5; i++) {
            CHECK_EQ(ext_status(f, i) & 3, i < k ? 1 : 0);
        }
        /* Every RDT write (the same value) fetches k more. */
        while (!(ext_status(f, 4) & 2) && writes < 5) {
            wr(f, R_RDT, 7);
            writes++;
        }
        CHECK_EQ(writes, rdt_writes[k]);
        CHECK_EQ(ext_status(f, 4) & 3, 3);
        CHECK_EQ(le16(f->mem + RX_RING + 4 * 16 + 12), 812);
        CHECK(memcmp(f->mem + RX_BUF(3), frame + 3 * 2048, 2048) == 0);
        CHECK_EQ(f->core->obs.rxstat.delivered, 1);
        fake_free(f);
    }
}

void test_rx_hold_desc_stops_a_frame_until_released(void)
{
    /*
     * 9000 + 4 bytes in 2 KB buffers: five chunks (4 x 2048 + 812).
     * Two more descriptors allowed, with seven posted and cached: DD
     * without EOP on descriptors 0 and 1, RDH at 2, RDT writes do not
     * move it; released, the other three follow and the last has EOP.
     */
    static uint8_t frame[9000];
    char list[1024];
    Fake *f = up_device();
    unsigned i;

    rx_ring(f, 8, RCTL_LPE, 1);
    e1000e_pp_knob_rx_hold_desc(f->core, 2);
    make_frame(frame, sizeof(frame), 6);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    fake_step(f, MS);
    for (i = 0; i < 5; i++) {
        CHECK_EQ(ext_status(f, i) & 3, i < 2 ? 1 : 0);
    }
    CHECK_EQ(rd(f, R_RDH), 2);
    wr(f, R_RDT, 7);
    CHECK_EQ(rd(f, R_RDH), 2);
    CHECK_EQ(f->core->obs.rxstat.delivered, 0);
    e1000e_pp_events(f->core, list, sizeof(list));
    CHECK(strstr(list, "knob-rx-hold-desc reg=0x02810 value=0x00000002\n"));
    CHECK(strstr(list, "rx-held reg=0x02810 value=0x00000002\n"));
    e1000e_pp_knob_rx_hold_desc(f->core, 0);
    CHECK_EQ(rd(f, R_RDH), 5);
    CHECK_EQ(ext_status(f, 4) & 3, 3);
    CHECK_EQ(le16(f->mem + RX_RING + 4 * 16 + 12), 812);
    CHECK(memcmp(f->mem + RX_BUF(2), frame + 2 * 2048, 2048) == 0);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    fake_free(f);
}

void test_rx_partial_writeback_flushed_by_rdtr(void)
{
    /* WTHRESH 4 (GRAN=1) with RDTR 10: chunks are held, then flushed. */
    Fake *f = up_device();
    static uint8_t frame[5000];

    wr(f, R_RXDCTL, 1u << 24 | 4u << 16);
    wr(f, R_RDTR, 10);
    rx_ring_posted(f, 8, RCTL_LPE, 1, 2);
    make_frame(frame, sizeof(frame), 4);
    rd(f, 0x000c0);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(rd(f, R_RDH), 2);
    CHECK_EQ(ext_status(f, 0), 0);                  /* held by WTHRESH */
    fake_step(f, 10 * 1024);
    CHECK_EQ(ext_status(f, 0) & 3, 1);              /* DD, no EOP */
    CHECK_EQ(ext_status(f, 1) & 3, 1);
    CHECK(rd(f, 0x000c0) & 0x80);                   /* ICR.RXT0 */
    fake_free(f);
}

void test_rx_null_descriptor_gets_dd_and_no_data(void)
{
    Fake *f = up_device();
    uint8_t frame[60];
    unsigned i;

    /* Descriptor 0 has buffer address 0 (legacy, FCS kept: 64 bytes) */
    rx_ring(f, 8, 0, 0);
    wr(f, R_RCTL, 0);
    put64(f->mem + RX_RING, 0);
    f->mem[RX_RING + 8] = 0x5a;                     /* driver's length */
    wr(f, R_RCTL, 1u << 1 | 1u << 15);
    make_frame(frame, sizeof(frame), 5);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    /* §7.1.7.2: DD set in the status byte, every other bit unchanged */
    CHECK_EQ(legacy_status(f, 0), 1);
    CHECK_EQ(f->mem[RX_RING + 8], 0x5a);
    CHECK_EQ(le32(f->mem + RX_RING), 0);
    /* ...no data at address 0; the frame goes on in descriptor 1. */
    for (i = 0; i < 64; i++) {
        CHECK_EQ(f->mem[i], 0);
    }
    CHECK_EQ(legacy_status(f, 1) & 3, 3);
    CHECK_EQ(le16(f->mem + RX_RING + 16 + 8), 64);
    CHECK(memcmp(f->mem + RX_BUF(1), frame, sizeof(frame)) == 0);
    CHECK_EQ(f->core->obs.rxslots.null_desc, 1);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    fake_free(f);
}

void test_rx_failed_data_write_is_posted_and_listed(void)
{
    Fake *f = up_device();
    uint8_t frame[60];
    char list[256];

    /* Descriptor 0 points outside guest memory before RCTL.EN fetches */
    rx_ring(f, 8, RCTL_SECRC, 1);
    wr(f, R_RCTL, 0);
    put64(f->mem + RX_RING, FAKE_MEM_BYTES + 0x1000);
    wr(f, R_RCTL, 1u << 1 | 1u << 15 | RCTL_SECRC);
    make_frame(frame, sizeof(frame), 1);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    /* The write is lost; the descriptor is still written back. */
    CHECK_EQ(ext_status(f, 0) & 3, 3);
    CHECK_EQ(le16(f->mem + RX_RING + 12), 60);
    CHECK_EQ(rd(f, R_RDH), 1);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    CHECK_EQ(f->core->obs.nfaults, 1);
    CHECK(!strcmp(f->core->obs.faults[0].what, "rx-data"));
    CHECK_EQ(f->core->obs.faults[0].desc, 0);
    CHECK_EQ(f->core->obs.faults[0].addr, FAKE_MEM_BYTES + 0x1000);
    CHECK_EQ(f->core->obs.faults[0].offset, 0);
    CHECK_EQ(f->core->obs.faults[0].len, 60);
    CHECK(f->core->obs.faults[0].write);
    e1000e_pp_dma_faults(f->core, list, sizeof(list));
    CHECK(strstr(list, "rx-data desc=0 addr=0x401000 offset=0 len=60 write"));
    /* The engine goes on: the next frame lands in descriptor 1. */
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK(memcmp(f->mem + RX_BUF(1), frame, sizeof(frame)) == 0);
    CHECK_EQ(f->core->obs.nfaults, 1);
    fake_free(f);
}

void test_rx_failed_descriptor_fetch_waits_and_retries(void)
{
    Fake *f = up_device();
    uint8_t frame[60];

    /* The ring base outside guest memory: the fetch gets no completion */
    rx_ring(f, 8, RCTL_SECRC, 1);
    wr(f, R_RDBAL, FAKE_MEM_BYTES);
    wr(f, R_RDT, 7);
    CHECK_EQ(f->core->obs.nfaults, 1);
    CHECK(!strcmp(f->core->obs.faults[0].what, "rx-desc-fetch"));
    CHECK(!f->core->obs.faults[0].write);
    make_frame(frame, sizeof(frame), 2);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(rd(f, R_RDH), 0);
    CHECK_EQ(f->core->arch.pktbuf.count, 1);
    /* The driver fixes the base: the next fetch point delivers it. */
    wr(f, R_RDBAL, RX_RING);
    wr(f, R_RDT, 7);
    CHECK_EQ(f->core->obs.rxstat.delivered, 1);
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    fake_free(f);
}

void test_rx_legacy_packet_checksum_on_first_descriptor(void)
{
    /* 3000 bytes, legacy, SECRC, LPE: 2048 + 952, PCSS = 0 */
    Fake *f = up_device();
    static uint8_t frame[3000];

    rx_ring(f, 8, RCTL_LPE | RCTL_SECRC, 0);
    make_frame(frame, sizeof(frame), 6);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(legacy_status(f, 0) & 3, 1);
    CHECK_EQ(legacy_status(f, 1) & 3, 3);
    /* §7.1.4.1: "always reported in the first descriptor" */
    CHECK_EQ(le16(f->mem + RX_RING + 10), ref_csum(frame, sizeof(frame)));
    CHECK_EQ(le16(f->mem + RX_RING + 16 + 10), 0);
    fake_free(f);
}

void test_rx_split_no_hs_when_buffer0_takes_nothing(void)
{
    /* PSRCTL: buffer 0 of 0 bytes, buffer 1 of 2 KB; a 60-byte frame */
    Fake *f = up_device();
    uint8_t frame[60];
    unsigned i;

    for (i = 0; i < 8; i++) {
        memset(f->mem + RX_RING + 32 * i, 0, 32);
        put64(f->mem + RX_RING + 32 * i + 8, RX_BUF(i));
    }
    wr(f, R_PSRCTL, 2u << 8);
    wr(f, 0x05008, 1u << 15);
    wr(f, R_RDBAL, RX_RING);
    wr(f, 0x02808, 8 * 32);
    wr(f, R_RDH, 0);
    wr(f, R_RDT, 14);
    wr(f, R_RCTL, 1u << 1 | 1u << 15 | RCTL_SECRC | 1u << 10);
    make_frame(frame, sizeof(frame), 7);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK_EQ(le32(f->mem + RX_RING + 8) & 3, 3);
    CHECK_EQ(le16(f->mem + RX_RING + 16), 0);       /* HDR_STATUS */
    CHECK_EQ(le16(f->mem + RX_RING + 18), 60);      /* buffer 1 */
    CHECK(memcmp(f->mem + RX_BUF(0), frame, sizeof(frame)) == 0);
    fake_free(f);
}

void test_rx_buffer_addresses_new_and_reposted(void)
{
    Fake *f = up_device();
    uint8_t frame[60];
    unsigned i;

    /* Slots 0-3 posted: four new addresses */
    rx_ring(f, 8, RCTL_SECRC, 1);
    wr(f, R_RDBAL, RX_RING);                        /* ring set anew */
    wr(f, R_RDH, 0);
    wr(f, R_RDT, 4);
    CHECK_EQ(f->core->obs.rxslots.buf_new, 4);
    CHECK_EQ(f->core->obs.rxslots.buf_reposted, 0);
    make_frame(frame, sizeof(frame), 1);
    for (i = 0; i < 4; i++) {
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    }
    /* Slots 4-7 new, slots 0-2 posted again with the same buffers */
    for (i = 0; i < 3; i++) {
        memset(f->mem + RX_RING + 16 * i, 0, 16);
        put64(f->mem + RX_RING + 16 * i, RX_BUF(i));
    }
    wr(f, R_RDT, 3);
    CHECK_EQ(f->core->obs.rxslots.buf_new, 8);
    CHECK_EQ(f->core->obs.rxslots.buf_reposted, 3);
    /* Slot 3 with another buffer: new */
    memset(f->mem + RX_RING + 48, 0, 16);
    put64(f->mem + RX_RING + 48, RX_BUF(9));
    for (i = 0; i < 7; i++) {
        CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    }
    wr(f, R_RDT, 4);
    CHECK_EQ(f->core->obs.rxslots.buf_new, 9);
    CHECK_EQ(f->core->obs.rxslots.buf_reposted, 3);
    fake_free(f);
}

/*
 * A len-byte frame into a legacy ring with rctl's buffer size, FCS
 * stripped: the descriptors it took hold lens[0..n-1], EOP on the last,
 * and the bytes are the frame's.
 */
static void check_legacy_chunks(uint32_t rctl, size_t len,
                                const uint16_t *lens, unsigned n)
{
    static uint8_t frame[9000];
    Fake *f = up_device();
    size_t at = 0;
    unsigned i;

    rx_ring(f, 8, rctl | RCTL_LPE | RCTL_SECRC, 0);
    make_frame(frame, len, 6);
    CHECK(e1000e_pp_receive(f->core, frame, len));
    CHECK_EQ(rd(f, R_RDH), n);
    for (i = 0; i < n; i++) {
        const uint8_t *d = f->mem + RX_RING + 16 * i;

        CHECK_EQ(le16(d + 8), lens[i]);
        CHECK_EQ(d[12] & 3, i + 1 == n ? 3 : 1);    /* DD, EOP */
        CHECK(memcmp(f->mem + RX_BUF(i), frame + at, lens[i]) == 0);
        at += lens[i];
    }
    CHECK_EQ(at, len);
    CHECK_EQ(f->logs, 0);
    fake_free(f);
}

void test_rx_flxbuf_sets_buffer_size_in_1k_units(void)
{
    static const uint16_t three_k[] = { 3072, 1928 };
    static const uint16_t seven_k[] = { 7168, 1000 };
    static const uint16_t one_k[] = { 1024, 1024, 952 };

    /*
     * RCTL.FLXBUF (bits 30:27), when not 0, is the buffer size in KB
     * and overrides BSIZE/BSEX: 3 KB and 7 KB, sizes BSIZE cannot say,
     * and 1 KB over BSIZE's 2048 (00).
     */
    check_legacy_chunks(3u << 27, 5000, three_k, 2);
    check_legacy_chunks(7u << 27 | 1u << 25 | 3u << 16, 8168, seven_k, 2);
    check_legacy_chunks(1u << 27, 3000, one_k, 3);
}

void test_rx_reserved_buffer_size_is_2048_and_logged(void)
{
    Fake *f = up_device();
    uint8_t frame[3000];
    unsigned i;

    /*
     * BSEX = 1 with BSIZE = 00 is reserved: a guest error, and the
     * buffers taken as 2048 bytes (docs/fidelity.md), so 2048 + 952.
     */
    rx_ring(f, 8, 1u << 25 | RCTL_LPE | RCTL_SECRC, 0);
    make_frame(frame, sizeof(frame), 7);
    CHECK(e1000e_pp_receive(f->core, frame, sizeof(frame)));
    CHECK(f->logs >= 1);
    CHECK_EQ(f->last_log_kind, E1000E_PP_LOG_GUEST_ERROR);
    CHECK(strstr(f->last_log, "reserved buffer size, using 2048") != NULL);
    CHECK_EQ(rd(f, R_RDH), 2);
    CHECK_EQ(le16(f->mem + RX_RING + 8), 2048);
    CHECK_EQ(le16(f->mem + RX_RING + 16 + 8), 952);
    CHECK(memcmp(f->mem + RX_BUF(0), frame, 2048) == 0);
    CHECK(memcmp(f->mem + RX_BUF(1), frame + 2048, 952) == 0);
    for (i = 2; i < 8; i++) {
        CHECK_EQ(f->mem[RX_RING + 16 * i + 12], 0);
    }
    fake_free(f);
}
