/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive descriptor ring (82574L §7.1.4-7.1.5): geometry, buffer
 * sizes, the legacy, extended and packet-split formats; the write-back
 * they produce is held in moderation.c per RXDCTL.WTHRESH.
 */
#include <string.h>

#include "internal.h"

#define RXDEXT_ERR_SHIFT    24      /* extended: errors in bits 31:24 */
#define RXDPS_HDRSTAT_HS    (1u << 15)

RxFormat e1000e_pp_rx_format(E1000EPPCore *c)
{
    if ((REG(c, RCTL) & RCTL_DTYP_MASK) == RCTL_DTYP_PS) {
        return RX_SPLIT;
    }
    return (REG(c, RFCTL) & RFCTL_EXTEN) ? RX_EXTENDED : RX_LEGACY;
}

static size_t desc_size(RxFormat f)
{
    return f == RX_SPLIT ? 32 : 16;
}

/* §10.2.5.1 RCTL.BSIZE/BSEX; FLXBUF (30:27), when set, in 1 KB units. */
size_t e1000e_pp_rx_buf_size(E1000EPPCore *c)
{
    static const size_t plain[4] = { 2048, 1024, 512, 256 };
    static const size_t ext[4] = { 0, 16384, 8192, 4096 };
    uint32_t rctl = REG(c, RCTL);
    unsigned bsize = (rctl & RCTL_BSIZE_MASK) >> RCTL_BSIZE_SHIFT;
    unsigned flx = (rctl & RCTL_FLXBUF_MASK) >> RCTL_FLXBUF_SHIFT;

    if (flx) {
        return flx * 1024;
    }
    if (!(rctl & RCTL_BSEX)) {
        return plain[bsize];
    }
    if (!ext[bsize]) {
        /* BSEX=1, BSIZE=00 is reserved: documented fallback to 2048. */
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, RCTL,
                      "RCTL 0x%08x: reserved buffer size, using 2048", rctl);
        return 2048;
    }
    return ext[bsize];
}

/*
 * RDH, RDT and RDLEN count 16-byte units in every format; a 32-byte
 * packet-split descriptor takes two (Linux writes "i << 1" to RDT).
 */
static uint32_t ring_units(E1000EPPCore *c)
{
    return (REG(c, RDLEN) & 0xfff80) / 16;
}

static uint32_t desc_units(RxFormat f)
{
    return desc_size(f) / 16;
}

/* Descriptors the guest handed to the device: RDH up to RDT. */
uint32_t e1000e_pp_rx_ring_free(E1000EPPCore *c)
{
    RxFormat f = e1000e_pp_rx_format(c);
    uint32_t n = ring_units(c), h = REG(c, RDH), t = REG(c, RDT);

    if (!n || h >= n || t >= n || (desc_units(f) == 2 && ((h | t) & 1))) {
        if (n && t != h) {
            e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, RDT,
                          "Rx ring: RDH %u / RDT %u not descriptors of a "
                          "%u-unit ring; receive waits", h, t, n);
        }
        return 0;
    }
    /* RDH == RDT: the ring holds no descriptors for the device. */
    return (t >= h ? t - h : n - h + t) / desc_units(f);
}

/* §7.1.5: buffer i of a packet-split descriptor (0: header buffer). */
static size_t ps_buf_size(E1000EPPCore *c, unsigned i)
{
    uint32_t ps = REG(c, PSRCTL);

    if (i == 0) {
        return (ps & PSRCTL_BSIZE0_MASK) * 128;
    }
    return ((ps >> (8 * i)) & PSRCTL_BSIZE123_MASK) * 1024;
}

/* Bytes buffer 0 of a frame's first packet-split descriptor takes. */
static size_t ps_first_chunk(E1000EPPCore *c, const RxFrame *fr)
{
    size_t cap = ps_buf_size(c, 0);

    /* §7.1.5: the header alone, when recognised and it fits... */
    if (fr->info.hdr_len && fr->info.hdr_len <= cap &&
        fr->info.hdr_len < fr->len) {
        return fr->info.hdr_len;
    }
    /* ...else buffer 0 simply fills up first. */
    return fr->len < cap ? fr->len : cap;
}

unsigned e1000e_pp_rx_descriptors_needed(E1000EPPCore *c, const RxFrame *fr)
{
    size_t per = 0, len = fr->len;
    unsigned i;

    if (e1000e_pp_rx_format(c) != RX_SPLIT) {
        per = e1000e_pp_rx_buf_size(c);
        return (unsigned)((len + per - 1) / per);
    }
    /* The first descriptor: buffer 0 as placed, then buffers 1-3. */
    for (i = 1; i < 4; i++) {
        per += ps_buf_size(c, i);
    }
    len -= ps_first_chunk(c, fr);
    if (len <= per) {
        return 1;
    }
    if (!per) {
        return UINT32_MAX;   /* nothing beyond buffer 0 can be stored */
    }
    /* Continuations leave buffer 0 empty. */
    len -= per;
    return 1 + (unsigned)((len + per - 1) / per);
}

/*
 * Up to this many bytes that span pieces of a frame (a short frame and
 * its padding, the body and the computed FCS, the two sides of a
 * stripped VLAN tag) are gathered and written to the guest buffer in one
 * DMA: a host DMA call costs more than copying a kilobyte or two. Longer
 * runs go out piece by piece.
 */
#define RX_GATHER_MAX   2048

/* DMA n bytes of the frame, starting at byte off, to guest addr. */
static bool frame_dma(E1000EPPCore *c, const RxFrame *fr, size_t off,
                      uint64_t addr, size_t n)
{
    /*
     * Filled before it is read: kept out of the automatic zeroing QEMU
     * builds with (-ftrivial-auto-var-init=zero), 2 KiB on every call.
     */
    uint8_t gather[RX_GATHER_MAX] __attribute__((uninitialized));
    size_t have = 0;
    unsigned s;

    for (s = 0; s < fr->nseg && off >= fr->seglen[s]; s++) {
        off -= fr->seglen[s];
    }
    if (s < fr->nseg && n <= fr->seglen[s] - off) {
        return e1000e_pp_dma_write(c, addr, fr->seg[s] + off, n);
    }
    for (; s < fr->nseg && n; s++) {
        size_t take = fr->seglen[s] - off < n ? fr->seglen[s] - off : n;

        if (n + have <= sizeof(gather)) {
            memcpy(gather + have, fr->seg[s] + off, take);
            have += take;
        } else if (!e1000e_pp_dma_write(c, addr, fr->seg[s] + off, take)) {
            return false;
        } else {
            addr += take;
        }
        n -= take;
        off = 0;
    }
    return !have || e1000e_pp_dma_write(c, addr, gather, have);
}

/*
 * RXDCTL.WTHRESH: descriptors are written back in bursts of WTHRESH;
 * 0 or 1 writes each one back at once.
 */
static unsigned wb_threshold(E1000EPPCore *c, RxFormat f)
{
    return e1000e_pp_wthresh(REG(c, RXDCTL), desc_size(f));
}

static uint64_t ring_base(E1000EPPCore *c)
{
    return (uint64_t)REG(c, RDBAH) << 32 | (REG(c, RDBAL) & ~0xfu);
}

static void ring_advance(E1000EPPCore *c, RxFormat f)
{
    uint32_t h = REG(c, RDH) + desc_units(f), n = ring_units(c);

    REG(c, RDH) = h >= n ? h - n : h;
}

/* The EOP-only fields shared by the extended and packet-split formats. */
static void wb_eop_words(E1000EPPCore *c, uint8_t *d, const RxFrame *fr)
{
    if (REG(c, RXCSUM) & RXCSUM_PCSD) {
        put_le32(d, fr->info.rss_type);
        put_le32(d + 4, fr->info.rss_hash);
    } else {
        put_le16(d + 4, fr->info.ip_id);
        put_le16(d + 6, fr->info.pkt_csum);
    }
}

/* The first 16 bytes of an extended or packet-split write-back. */
static void wb_extended(E1000EPPCore *c, uint8_t *d, size_t len, bool eop,
                        const RxFrame *fr)
{
    uint32_t status = RXD_STAT_DD |
                      (eop ? RXD_STAT_EOP | fr->info.status : 0);

    memset(d, 0, 16);
    if (eop) {
        wb_eop_words(c, d, fr);
        status |= fr->info.errors << RXDEXT_ERR_SHIFT;
    }
    put_le32(d + 8, status);
    put_le16(d + 12, (uint16_t)len);
    put_le16(d + 14, eop && fr->info.vp ? fr->info.vlan : 0);
}

static void wb_legacy(uint8_t *d, size_t len, bool eop, const RxFrame *fr)
{
    /* §7.1.4.1: the buffer address (bytes 0-7) stays. */
    put_le16(d + 8, (uint16_t)len);
    put_le16(d + 10, eop ? fr->info.pkt_csum : 0);
    d[12] = (uint8_t)(RXD_STAT_DD | (eop ? RXD_STAT_EOP | fr->info.status :
                                          0));
    d[13] = (uint8_t)(eop ? fr->info.errors : 0);
    put_le16(d + 14, eop && fr->info.vp ? fr->info.vlan : 0);
}

/*
 * Legacy and extended: ceil(len / bufsize) descriptors, EOP on the last.
 * direct: the write-back goes out at once instead of through the held
 * queue (a one-descriptor frame that would be flushed right away).
 */
static bool fill_chained(E1000EPPCore *c, RxFormat f, const RxFrame *fr,
                         bool direct)
{
    size_t bsize = e1000e_pp_rx_buf_size(c), done = 0;
    uint8_t d[16];

    while (done < fr->len) {
        uint64_t daddr = ring_base(c) + (uint64_t)REG(c, RDH) * 16;
        size_t chunk = fr->len - done < bsize ? fr->len - done : bsize;
        bool eop = done + chunk == fr->len;

        if (!e1000e_pp_dma_read(c, daddr, d, 16) ||
            !frame_dma(c, fr, done, get_le64(d), chunk)) {
            return false;
        }
        if (f == RX_LEGACY) {
            wb_legacy(d, chunk, eop, fr);
        } else {
            wb_extended(c, d, chunk, eop, fr);
        }
        if (direct) {
            e1000e_pp_rx_wb_write(c, daddr, d, 16);
        } else {
            e1000e_pp_rx_wb_queue(c, daddr, d, 16);
        }
        ring_advance(c, f);
        done += chunk;
    }
    return true;
}

/*
 * §7.1.5 packet split: the L2-L4 header alone in buffer 0 when it is
 * recognised and fits (HDR_STATUS.HS); otherwise the data simply fills
 * buffers 0-3 in order.
 */
static bool fill_split(E1000EPPCore *c, const RxFrame *fr)
{
    uint32_t avail = e1000e_pp_rx_ring_free(c);
    size_t done = 0;
    unsigned guard;

    /* Only descriptors the guest posted: RDH never passes RDT. */
    for (guard = 0; done < fr->len && guard < avail; guard++) {
        uint64_t daddr = ring_base(c) + (uint64_t)REG(c, RDH) * 16;
        uint16_t lens[4] = { 0 }, hdr_status = 0;
        uint8_t d[32];
        unsigned i;
        bool eop;

        if (!e1000e_pp_dma_read(c, daddr, d, 32)) {
            return false;
        }
        /* Buffer 0 takes the header only: a continuation skips it. */
        for (i = done ? 1 : 0; i < 4 && done < fr->len; i++) {
            size_t cap = ps_buf_size(c, i), chunk;

            if (i == 0) {
                chunk = ps_first_chunk(c, fr);
                if (chunk == fr->info.hdr_len && chunk < fr->len) {
                    hdr_status = RXDPS_HDRSTAT_HS | (uint16_t)chunk;
                }
            } else {
                chunk = fr->len - done < cap ? fr->len - done : cap;
            }
            if (!chunk) {
                continue;
            }
            if (!frame_dma(c, fr, done, get_le64(d + 8 * i), chunk)) {
                return false;
            }
            lens[i] = (uint16_t)chunk;
            done += chunk;
        }
        eop = done == fr->len;
        /* Extended layout with length 0 first, then the split fields. */
        wb_extended(c, d, lens[0], eop, fr);
        memset(d + 16, 0, 16);
        put_le16(d + 16, hdr_status);
        put_le16(d + 18, lens[1]);
        put_le16(d + 20, lens[2]);
        put_le16(d + 22, lens[3]);
        e1000e_pp_rx_wb_queue(c, daddr, d, 32);
        ring_advance(c, RX_SPLIT);
    }
    return done == fr->len;
}

static void check_min_threshold(E1000EPPCore *c, RxFormat f)
{
    unsigned rdmts = (REG(c, RCTL) & RCTL_RDMTS_MASK) >> RCTL_RDMTS_SHIFT;
    uint32_t units = ring_units(c), h = REG(c, RDH), t = REG(c, RDT);
    uint32_t n = units / desc_units(f);
    /* The frame was just placed: RDH and RDT are descriptors of the ring. */
    uint32_t free = (t >= h ? t - h : units - h + t) / desc_units(f);
    bool low = rdmts < 3 && free <= (n >> (rdmts + 1));

    /* RXDMT0 when free descriptors fall to 1/2, 1/4 or 1/8 (RCTL.RDMTS). */
    if (low && !c->rxdmt_low) {
        e1000e_pp_stat_inc(c, ICRXDMTC);
        e1000e_pp_raise(c, ICR_RXDMT0);
    }
    c->rxdmt_low = low;
}

/*
 * Write one frame to the ring; the caller checked that the "needed"
 * descriptors it takes are posted. Returns false when a DMA failed: then no
 * descriptor of this frame is written back (§ DMA in docs/fidelity.md).
 */
bool e1000e_pp_rx_ring_put(E1000EPPCore *c, const RxFrame *fr,
                           unsigned needed)
{
    RxFormat f = e1000e_pp_rx_format(c);
    unsigned before, threshold;
    uint32_t rdh = REG(c, RDH);
    bool ok, direct;

    /* Flush first so a failure below can drop just this frame's entries. */
    if (c->rxwb.count + needed > E1000E_PP_WB_MAX) {
        e1000e_pp_rx_wb_flush(c);
    }
    before = c->rxwb.count;
    threshold = wb_threshold(c, f);
    /*
     * A one-descriptor frame with nothing held, that the test below would
     * flush at once: its write-back skips the queue (its data is already
     * in the buffer when the descriptor is written, as with the queue).
     */
    direct = needed == 1 && !before &&
             (threshold <= 1 || !(REG(c, RDTR) & 0xffff));
    ok = f == RX_SPLIT ? fill_split(c, fr) : fill_chained(c, f, fr, direct);
    if (!ok) {
        /* Nothing of this frame is reported done; the head goes back. */
        c->rxwb.count = before;
        REG(c, RDH) = rdh;
        return false;
    }
    if (!direct && (threshold <= 1 || c->rxwb.count >= threshold ||
                    !(REG(c, RDTR) & 0xffff))) {
        e1000e_pp_rx_wb_flush(c);
    }
    check_min_threshold(c, f);
    return true;
}
