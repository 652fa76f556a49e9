/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive descriptor ring (82574L §7.1.4-7.1.5): buffer sizes, the
 * legacy, extended and packet-split formats, and moving a frame from
 * where it lies into host buffers descriptor by descriptor (§7.1.6-7.1.7:
 * data goes out as descriptors are available, each descriptor is written
 * back per RXDCTL.WTHRESH whether or not it holds the EOP, and a frame
 * the ring runs dry on stays in the packet buffer, part moved). The
 * descriptors come from the on-chip cache (rxcache.c); the write-back is
 * held in moderation.c.
 */
#include <string.h>

#include "compiler.h"
#include "common.h"
#include "intr.h"
#include "log.h"
#include "moderation.h"
#include "rxcache.h"
#include "rxdesc.h"
#include "rxframe.h"
#include "rxring.h"
#include "stats.h"
#include "coverage.h"
#include "dma.h"

#define RXDEXT_ERR_SHIFT    24      /* extended: errors in bits 31:24 */
#define RXDPS_HDRSTAT_HS    (1u << 15)

static size_t desc_size(RxFormat f)
{
    return 16 * e1000e_pp_rx_desc_units(f);
}

/* §10.2.5.1 RCTL.BSIZE/BSEX; FLXBUF (30:27), when set, in 1 KB units. */
static size_t buf_size(E1000EPPCore *c, uint32_t rctl)
{
    static const size_t plain[4] = { 2048, 1024, 512, 256 };
    static const size_t ext[4] = { 0, 16384, 8192, 4096 };
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
        return 0;
    }
    return ext[bsize];
}

/*
 * Asked for every frame, changed only by RCTL writes: kept with the RCTL
 * value it is for, so a reset or a loaded state needs no hook. The
 * reserved encoding is not kept (it logs on every use).
 */
size_t e1000e_pp_rx_buf_size(E1000EPPCore *c)
{
    uint32_t rctl = REG(c, RCTL);
    size_t size;

    if (c->arch.rx_bsize && c->arch.rx_bsize_rctl == rctl) {
        return c->arch.rx_bsize;
    }
    size = buf_size(c, rctl);
    if (!size) {
        return 2048;
    }
    c->arch.rx_bsize_rctl = rctl;
    c->arch.rx_bsize = (uint32_t)size;
    return size;
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

/*
 * DMA n bytes of the frame, starting at byte off, to guest addr. PCIe
 * writes are posted: on a failure the rest of this buffer is not tried
 * and *bad gets the offset in the buffer of the write that failed
 * (returned: its length; 0 when everything landed).
 */
static size_t frame_dma(E1000EPPCore *c, const RxFrame *fr, size_t off,
                        uint64_t addr, size_t n, size_t *bad)
{
    /*
     * Filled before it is read: kept out of the automatic zeroing QEMU
     * builds with (-ftrivial-auto-var-init=zero), 2 KiB on every call.
     */
    uint8_t gather[RX_GATHER_MAX] E1000E_PP_NOINIT;
    size_t have = 0, at = 0;
    unsigned s;

    for (s = 0; s < fr->nseg && off >= fr->seglen[s]; s++) {
        off -= fr->seglen[s];
    }
    if (s < fr->nseg && n <= fr->seglen[s] - off) {
        *bad = 0;
        return e1000e_pp_dma_write(c, addr, fr->seg[s] + off, n) ? 0 : n;
    }
    for (; s < fr->nseg && n; s++) {
        size_t take = fr->seglen[s] - off < n ? fr->seglen[s] - off : n;

        if (n + have <= sizeof(gather)) {
            memcpy(gather + have, fr->seg[s] + off, take);
            have += take;
        } else if (!e1000e_pp_dma_write(c, addr + at, fr->seg[s] + off,
                                        take)) {
            *bad = at;
            return take;
        } else {
            at += take;
        }
        n -= take;
        off = 0;
    }
    *bad = at;
    return !have || e1000e_pp_dma_write(c, addr + at, gather, have) ? 0 : have;
}

/* Data for the descriptor at RDH into its buffer; a lost write listed. */
static void data_fault(E1000EPPCore *c, uint64_t addr, size_t bad,
                       size_t lost)
{
    e1000e_pp_dma_fault(c, "rx-data", REG(c, RDH) / (c->arch.rxcache.dsz / 16),
                        addr, (uint32_t)bad, (uint32_t)lost, true);
}

static inline void data_dma(E1000EPPCore *c, const RxFrame *fr, size_t off,
                            uint64_t addr, size_t n)
{
    size_t bad = 0, lost;

    if (c->dma_fault_writes) {
        /* x-dma-fault-writes: rejected whole, as an IOMMU would. */
        c->dma_fault_writes--;
        c->obs.dma_errors++;
        lost = n;
    } else {
        lost = frame_dma(c, fr, off, addr, n, &bad);
    }

    e1000e_pp_cover_chunk(c, fr, off, n);
    if (lost) {
        data_fault(c, addr, bad, lost);
    }
}

/*
 * RXDCTL.WTHRESH: descriptors are written back in bursts of WTHRESH;
 * 0 or 1 writes each one back at once.
 */
static unsigned wb_threshold(E1000EPPCore *c, RxFormat f)
{
    return e1000e_pp_wthresh(REG(c, RXDCTL), desc_size(f));
}

/*
 * One descriptor's write-back, EOP or not (§7.1.7): at once when nothing
 * is held and WTHRESH (or a zero RDTR) would flush it anyway, else held
 * until WTHRESH descriptors are or a delay timer or FPD flushes them.
 */
static void wb_put(E1000EPPCore *c, const uint8_t *d, size_t size,
                   unsigned threshold)
{
    uint64_t daddr = e1000e_pp_rx_ring_base(c) + (uint64_t)REG(c, RDH) * 16;
    bool now = threshold <= 1 || !(REG(c, RDTR) & 0xffff);

    if (now && !c->arch.rxwb.count) {
        e1000e_pp_rx_wb_write(c, daddr, d, size);
        return;
    }
    e1000e_pp_rx_wb_queue(c, daddr, d, size);
    if (now || c->arch.rxwb.count >= threshold) {
        e1000e_pp_rx_wb_flush(c);
    }
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

/*
 * §7.1.4.1: the buffer address (bytes 0-7) stays; "the packet checksum
 * is always reported in the first descriptor (even in the case of
 * multi-descriptor packets)"; status, errors and VLAN on the EOP one.
 */
static void wb_legacy(uint8_t *d, size_t len, bool first, bool eop,
                      const RxFrame *fr)
{
    put_le16(d + 8, (uint16_t)len);
    put_le16(d + 10, first ? fr->info.pkt_csum : 0);
    d[12] = (uint8_t)(RXD_STAT_DD | (eop ? RXD_STAT_EOP | fr->info.status :
                                          0));
    d[13] = (uint8_t)(eop ? fr->info.errors : 0);
    put_le16(d + 14, eop && fr->info.vp ? fr->info.vlan : 0);
}

/*
 * §7.1.7.2 null descriptor: "Hardware stores no data in descriptors with
 * a null data address" and writes them back "with the DD bit set in the
 * status byte and all other bits unchanged"; the frame goes on in the
 * next descriptor.
 */
static void null_descriptor(E1000EPPCore *c, RxFormat f, uint8_t *d,
                            unsigned threshold)
{
    d[f == RX_LEGACY ? 12 : 8] |= RXD_STAT_DD;
    c->obs.rxslots.null_desc++;
    e1000e_pp_cover(c, SIT_NULL_DESC);
    wb_put(c, d, 16, threshold);
    e1000e_pp_rxcache_pop(c);
}

/* Legacy and extended: a buffer per descriptor, EOP on the last. */
static bool move_chained(E1000EPPCore *c, RxFormat f, const RxFrame *fr,
                         uint32_t *done)
{
    size_t bsize = e1000e_pp_rx_buf_size(c);
    unsigned threshold = wb_threshold(c, f), guard;
    uint32_t ring = e1000e_pp_rx_ring_units(c);

    /* Each round uses one descriptor: at most a ring's worth. */
    for (guard = 0; *done < fr->len && guard <= ring; guard++) {
        uint8_t *d = e1000e_pp_rxcache_peek(c);
        size_t chunk;
        uint64_t addr;
        bool eop;

        if (!d) {
            return false;       /* dry: the rest waits for RDT */
        }
        addr = get_le64(d);
        if (!addr) {
            null_descriptor(c, f, d, threshold);
            continue;
        }
        chunk = fr->len - *done < bsize ? fr->len - *done : bsize;
        eop = *done + chunk == fr->len;
        data_dma(c, fr, *done, addr, chunk);
        if (f == RX_LEGACY) {
            wb_legacy(d, chunk, *done == 0, eop, fr);
        } else {
            wb_extended(c, d, chunk, eop, fr);
        }
        wb_put(c, d, 16, threshold);
        e1000e_pp_rxcache_pop(c);
        *done += chunk;
    }
    return *done == fr->len;
}

/*
 * §7.1.5 packet split: the L2-L4 header alone in buffer 0 when it is
 * recognised and fits (HDR_STATUS.HS); otherwise the data simply fills
 * buffers 0-3 in order. Null descriptor padding "is not supported for
 * packet split descriptors": a buffer at address 0 is never written
 * (logged), the rest of the descriptor is used as usual.
 */
static bool move_split(E1000EPPCore *c, const RxFrame *fr, uint32_t *done)
{
    unsigned threshold = wb_threshold(c, RX_SPLIT), guard;
    uint32_t ring = e1000e_pp_rx_ring_units(c);
    size_t room = ps_buf_size(c, 1) + ps_buf_size(c, 2) + ps_buf_size(c, 3);

    if (!room && (*done || !ps_buf_size(c, 0) ||
                  fr->len > ps_first_chunk(c, fr))) {
        /*
         * PSRCTL leaves no buffer for the rest: the frame waits rather
         * than spending descriptors that would each take nothing.
         */
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, PSRCTL,
                      "packet split: BSIZE1-3 are 0 and a %zu-byte frame "
                      "needs them: it waits", fr->len);
        return false;
    }
    for (guard = 0; *done < fr->len && guard <= ring; guard++) {
        uint8_t *d = e1000e_pp_rxcache_peek(c);
        uint16_t lens[4] = { 0 }, hdr_status = 0;
        unsigned i;
        bool eop;

        if (!d) {
            return false;
        }
        /* Buffer 0 takes the header only: a continuation skips it. */
        for (i = *done ? 1 : 0; i < 4 && *done < fr->len; i++) {
            size_t cap = ps_buf_size(c, i), chunk;
            uint64_t addr = get_le64(d + 8 * i);

            if (i == 0) {
                chunk = ps_first_chunk(c, fr);
                /* HS only when a recognised header was placed alone. */
                if (chunk && chunk == fr->info.hdr_len && chunk < fr->len) {
                    hdr_status = RXDPS_HDRSTAT_HS | (uint16_t)chunk;
                    e1000e_pp_cover(c, SIT_HDR_SPLIT);
                }
            } else {
                chunk = fr->len - *done < cap ? fr->len - *done : cap;
            }
            if (!chunk) {
                continue;
            }
            if (!addr) {
                e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, PSRCTL,
                              "packet-split buffer %u at address 0: "
                              "not written", i);
            } else {
                data_dma(c, fr, *done, addr, chunk);
            }
            lens[i] = (uint16_t)chunk;
            *done += chunk;
        }
        eop = *done == fr->len;
        /* Extended layout with length 0 first, then the split fields. */
        wb_extended(c, d, lens[0], eop, fr);
        memset(d + 16, 0, 16);
        put_le16(d + 16, hdr_status);
        put_le16(d + 18, lens[1]);
        put_le16(d + 20, lens[2]);
        put_le16(d + 22, lens[3]);
        wb_put(c, d, 32, threshold);
        e1000e_pp_rxcache_pop(c);
    }
    return *done == fr->len;
}

static void check_min_threshold(E1000EPPCore *c, RxFormat f)
{
    unsigned rdmts = (REG(c, RCTL) & RCTL_RDMTS_MASK) >> RCTL_RDMTS_SHIFT;
    unsigned du = e1000e_pp_rx_desc_units(f);
    uint32_t units = e1000e_pp_rx_ring_units(c), h = REG(c, RDH);
    uint32_t t = REG(c, RDT);
    uint32_t n = units / du;
    uint32_t free;
    bool low;

    if (!units || h >= units || t >= units) {
        return;
    }
    free = (t >= h ? t - h : units - h + t) / du;
    low = rdmts < 3 && free <= (n >> (rdmts + 1));
    /* RXDMT0 when free descriptors fall to 1/2, 1/4 or 1/8 (RCTL.RDMTS). */
    if (low && !c->arch.rxdmt_low) {
        e1000e_pp_stat_inc(c, ICRXDMTC);
        e1000e_pp_raise(c, ICR_RXDMT0);
    }
    c->arch.rxdmt_low = low;
}

/*
 * Move a frame into host buffers from byte *done on, as far as the
 * descriptors available now allow; *done advances. Returns true once
 * its EOP descriptor is written. Failed data writes are lost (posted),
 * listed as DMA faults, and change nothing the driver sees in the ring.
 */
bool e1000e_pp_rx_ring_move(E1000EPPCore *c, const RxFrame *fr,
                            uint32_t *done)
{
    RxFormat f = e1000e_pp_rx_format(c);
    bool complete;

    complete = f == RX_SPLIT ? move_split(c, fr, done) :
               move_chained(c, f, fr, done);
    check_min_threshold(c, f);
    return complete;
}
