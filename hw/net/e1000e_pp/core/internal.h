/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Declarations shared by the files of the e1000e-pp core; not part of
 * its interface to the adapter (that is core.h).
 */
#ifndef E1000E_PP_INTERNAL_H
#define E1000E_PP_INTERNAL_H

#include "core.h"
#include "regs.h"
#include "bytes.h"

/* The register file is indexed by dword; offsets below are in bytes. */
#define REG(c, off)     ((c)->arch.regs[(off) >> 2])

#define ARRAY_LEN(a)    (sizeof(a) / sizeof((a)[0]))

/*
 * Access behaviours (§10.1.2 "Register Types"), applied by the dispatch
 * in regs.c before a row's post-write hook runs.
 */
typedef enum RegAccess {
    REG_RW,          /* read/write through the mask */
    REG_RO,          /* writes are a guest error and ignored */
    REG_WO,          /* reads return 0; writes act through the hook */
    REG_RC,          /* statistics: clear on read */
    REG_RC_HIGH,     /* high half of a 64-bit counter: read clears both */
    REG_W1C,         /* writing 1 clears the bit (ICR) */
    REG_SET,         /* writing 1 sets the bit in .target (IMS) */
    REG_CLR,         /* writing 1 clears the bit in .target (IMC) */
    REG_ALIAS,       /* another address of .target (CTRL at 0x0004) */
    REG_UNIMP,       /* stored but not modelled: logged once as LOG_UNIMP */
} RegAccess;

typedef struct RegInfo {
    const char *name;
    const char *section;     /* datasheet section of the register */
    uint32_t offset;         /* first byte offset */
    uint16_t count;          /* elements of an array register, else 1 */
    uint16_t stride;         /* bytes between elements (0: 4) */
    RegAccess access;
    uint32_t reset;          /* value after power-on and CTRL.RST */
    uint32_t wmask;          /* bits a guest write changes */
    uint32_t action;         /* write-1 command bits that read back as 0 */
    uint32_t target;         /* REG_SET/REG_CLR/REG_ALIAS: the register */
    /* Computes the value read; "off" is the byte offset of the element. */
    uint32_t (*read)(E1000EPPCore *c, uint32_t off);
    /*
     * Runs after the dispatch stored the masked value: "val" is what the
     * guest wrote, "old" the register before the write.
     */
    void (*post_write)(E1000EPPCore *c, uint32_t off, uint32_t val,
                       uint32_t old);
} RegInfo;

/* regs.c */
const RegInfo *e1000e_pp_reg_lookup(uint32_t offset);

/* Byte offset of element n of an array register. */
static inline uint32_t e1000e_pp_reg_element(const RegInfo *ri, unsigned n)
{
    return ri->offset + n * (ri->stride ? ri->stride : 4);
}
extern const RegInfo e1000e_pp_reg_table[];
extern const size_t e1000e_pp_reg_table_len;

/* log.c: one message per register and kind, so a guest cannot flood. */
void e1000e_pp_log(E1000EPPCore *c, E1000EPPLog kind, uint32_t off,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The text lists: append at len within size; returns the length needed. */
size_t e1000e_pp_text_add(char *buf, size_t size, size_t len,
                          const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A knob change or violation, kept in the event list and traced. */
void e1000e_pp_event(E1000EPPCore *c, const char *what, uint32_t reg,
                     uint32_t value);

/*
 * Work an entry point leaves for e1000e_pp_settle() (settle.c): handlers,
 * frame arrival, timers and PCI events only record it.
 */
#define WORK_TX         (1u << 0)   /* walk the Tx ring */
#define WORK_RX         (1u << 1)   /* move the packet buffer to the ring */
#define WORK_RX_READY   (1u << 2)   /* tell the netdev frames may flow */
#define WORK_ENGINES    (WORK_TX | WORK_RX)

static inline void e1000e_pp_schedule(E1000EPPCore *c, uint32_t work)
{
    c->work |= work;
}

/* Tx work per settle step: descriptors, and data bytes. */
#define E1000E_PP_TX_BUDGET      256
#define E1000E_PP_TX_BYTE_BUDGET (1024 * 1024)

/*
 * settle.c. Every entry point is bracketed: e1000e_pp_enter (register
 * accesses: refuses one nested in a step) or e1000e_pp_begin (events),
 * then e1000e_pp_leave, whose outermost call settles.
 */
void e1000e_pp_settle(E1000EPPCore *c);
bool e1000e_pp_enter(E1000EPPCore *c, uint32_t off, const char *what);
void e1000e_pp_begin(E1000EPPCore *c);
void e1000e_pp_leave(E1000EPPCore *c);

/* Register hooks, one file per datasheet concern; general.c first. */
uint32_t e1000e_pp_status_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_status_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);
void e1000e_pp_ctrl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_ctrl_ext_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                              uint32_t old);
uint32_t e1000e_pp_pba_read(E1000EPPCore *c, uint32_t off);
uint32_t e1000e_pp_swsm_read(E1000EPPCore *c, uint32_t off);

/* reset.c */
void e1000e_pp_mac_reset(E1000EPPCore *c, bool software, bool keep_wake);
void e1000e_pp_function_reset(E1000EPPCore *c, bool power_on);
void e1000e_pp_reset_done(E1000EPPCore *c);

/* nvm.c */
void e1000e_pp_nvm_init(E1000EPPCore *c, const uint8_t mac[6]);
void e1000e_pp_nvm_reload(E1000EPPCore *c);
void e1000e_pp_nvm_reload_done(E1000EPPCore *c);
uint32_t e1000e_pp_eecd_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_eecd_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_eerd_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_eewr_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);

/* phy.c */
void e1000e_pp_phy_reset(E1000EPPCore *c);
void e1000e_pp_mdic_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
bool e1000e_pp_link_up(E1000EPPCore *c);
void e1000e_pp_link_report(E1000EPPCore *c);
void e1000e_pp_phy_wire(E1000EPPCore *c, bool up);
void e1000e_pp_phy_relink(E1000EPPCore *c);
bool e1000e_pp_phy_loopback(E1000EPPCore *c);
void e1000e_pp_link_autoneg_done(E1000EPPCore *c);

/*
 * intr.c, a leaf: causes are recorded here and committed once, at the
 * end of e1000e_pp_settle().
 */
void e1000e_pp_raise(E1000EPPCore *c, uint32_t causes);
void e1000e_pp_intr_commit(E1000EPPCore *c);
void e1000e_pp_intr_reset(E1000EPPCore *c);
void e1000e_pp_throttle_expired(E1000EPPCore *c, E1000EPPTimer timer);
uint32_t e1000e_pp_icr_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_ics_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_ims_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_intr_changed(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);

/*
 * moderation.c: descriptor write-back held per RXDCTL/TXDCTL.WTHRESH and
 * the §7.4.4 delay timers RDTR/RADV (Rx) and TIDV/TADV (Tx) that flush it.
 */
void e1000e_pp_rx_wb_queue(E1000EPPCore *c, uint64_t addr, const uint8_t *d,
                           size_t size);
void e1000e_pp_rx_wb_flush(E1000EPPCore *c);
void e1000e_pp_rx_wb_write(E1000EPPCore *c, uint64_t addr, const uint8_t *d,
                           size_t size);
bool e1000e_pp_tx_wb_queue(E1000EPPCore *c, uint64_t addr,
                           const uint8_t *d);
bool e1000e_pp_tx_wb_flush(E1000EPPCore *c);
void e1000e_pp_tx_writeback(E1000EPPCore *c, bool ide);
void e1000e_pp_rx_delay_start(E1000EPPCore *c);
void e1000e_pp_tx_delay_start(E1000EPPCore *c, bool ide);
void e1000e_pp_delay_fired(E1000EPPCore *c, E1000EPPTimer timer);
void e1000e_pp_rdtr_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_tidv_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_moderation_reset(E1000EPPCore *c);

/*
 * Outside D0 (power.c) the function answers no access, masters no DMA
 * and signals no interrupt: each attempt is a counted violation.
 */
static inline bool e1000e_pp_power_d0(E1000EPPCore *c, const char *what,
                                      uint64_t addr)
{
    if (c->arch.power == E1000E_PP_D0) {
        return true;
    }
    c->obs.pm_violations++;
    if (c->plat->trace_violation) {
        c->plat->trace_violation(c->opaque, what, addr);
    }
    e1000e_pp_event(c, what, (uint32_t)addr, c->arch.power);
    return false;
}

/* pause.c */
bool e1000e_pp_pause_received(E1000EPPCore *c, const uint8_t *f, size_t len);
void e1000e_pp_pause_expired(E1000EPPCore *c);

/* knobs.c */
void e1000e_pp_knob_link_return(E1000EPPCore *c);

/*
 * errinj.c: frame errors and RCTL.SBP. rx.c brackets a frame from the
 * wire with begin/end and asks about the frame in between.
 */
const uint8_t *e1000e_pp_errinj_begin(E1000EPPCore *c, const uint8_t *frame,
                                      size_t *len);

/* Some frame error is still to be put on a frame. */
static inline bool e1000e_pp_errinj_armed(E1000EPPCore *c)
{
    const E1000EPPErrInj *e = &c->errinj;

    _Static_assert(E1000E_PP_RXERR_KINDS == E1000E_PP_RXERR_OVERSIZE + 1,
                   "every kind is named below");
    return e->pending[E1000E_PP_RXERR_CRC] |
           e->pending[E1000E_PP_RXERR_SYMBOL] |
           e->pending[E1000E_PP_RXERR_DATA] |
           e->pending[E1000E_PP_RXERR_OVERSIZE];
}
void e1000e_pp_errinj_end(E1000EPPCore *c, bool taken);
uint32_t e1000e_pp_errinj_bits(E1000EPPCore *c);
uint32_t e1000e_pp_errinj_fcs(E1000EPPCore *c);
bool e1000e_pp_errinj_drop(E1000EPPCore *c);
bool e1000e_pp_rx_keep_long(E1000EPPCore *c, size_t wire_len);

/* wake.c */
bool e1000e_pp_wake_event(E1000EPPCore *c, uint32_t cause);
uint32_t e1000e_pp_wake_frame(E1000EPPCore *c, const uint8_t *f, size_t len);

/* Ethernet framing (IEEE 802.3) */
#define ETH_ALEN        6
#define ETH_HLEN        14
#define ETH_ZLEN        60      /* shortest frame on the wire, no FCS */
#define ETH_FCS_LEN     4
#define VLAN_HLEN       4

/* Long packets: RCTL.LPE=0 takes 1518 bytes with FCS, 1522 when tagged. */
#define MAX_STD_FRAME   1518

static inline size_t e1000e_pp_rx_max_frame(E1000EPPCore *c, bool tagged)
{
    size_t max = (REG(c, RCTL) & RCTL_LPE) ? E1000E_PP_MAX_LONG_FRAME :
                                             MAX_STD_FRAME;

    return max + (tagged ? VLAN_HLEN : 0);
}

static inline bool eth_is_broadcast(const uint8_t *da)
{
    return (da[0] & da[1] & da[2] & da[3] & da[4] & da[5]) == 0xff;
}

/* Transmit descriptor status: descriptor done (TDESC.STA). */
#define TXD_STA_DD      (1u << 0)

/* Receive descriptor status and error bits (legacy layout, §7.1.4.1). */
#define RXD_STAT_DD     (1u << 0)
#define RXD_STAT_EOP    (1u << 1)
#define RXD_STAT_IXSM   (1u << 2)
#define RXD_STAT_VP     (1u << 3)
#define RXD_STAT_UDPCS  (1u << 4)
#define RXD_STAT_TCPCS  (1u << 5)
#define RXD_STAT_IPCS   (1u << 6)
#define RXD_STAT_TST    (1u << 8)   /* extended only: a time stamp taken */
#define RXD_ERR_TCPE    (1u << 5)
#define RXD_ERR_IPE     (1u << 6)

typedef enum RxFormat { RX_LEGACY, RX_EXTENDED, RX_SPLIT } RxFormat;

/*
 * A frame on its way to the ring, as runs of bytes (head, body, padding,
 * FCS; or the two halves of a wrapped packet-buffer entry), so it goes
 * from where it lies straight into guest memory.
 */
#define RX_MAX_SEGS     6
typedef struct RxFrame {
    const uint8_t *seg[RX_MAX_SEGS];
    size_t seglen[RX_MAX_SEGS];
    unsigned nseg;
    size_t len;
    E1000EPPRxInfo info;
} RxFrame;

static inline void rxframe_add(RxFrame *fr, const uint8_t *p, size_t n)
{
    if (n) {
        fr->seg[fr->nseg] = p;
        fr->seglen[fr->nseg] = n;
        fr->nseg++;
        fr->len += n;
    }
}

/* rx.c */
void e1000e_pp_rdt_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_rctl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_rx_drain(E1000EPPCore *c);
void e1000e_pp_rx_reset(E1000EPPCore *c);
bool e1000e_pp_rx_wire(E1000EPPCore *c, const uint8_t *frame, size_t len);
bool e1000e_pp_rx_loopback(E1000EPPCore *c, const uint8_t *frame, size_t len);
bool e1000e_pp_loopback(E1000EPPCore *c);

/* rxparse.c */
bool e1000e_pp_rx_address_match(E1000EPPCore *c, const uint8_t *da);
bool e1000e_pp_rx_vlan_match(E1000EPPCore *c, uint16_t tci);
void e1000e_pp_rx_parse(E1000EPPCore *c, const uint8_t *f, size_t len,
                        size_t strip_off, E1000EPPRxInfo *info);

/* The Rx descriptor format RCTL.DTYP and RFCTL.EXTEN select. */
static inline RxFormat e1000e_pp_rx_format(E1000EPPCore *c)
{
    if ((REG(c, RCTL) & RCTL_DTYP_MASK) == RCTL_DTYP_PS) {
        return RX_SPLIT;
    }
    return (REG(c, RFCTL) & RFCTL_EXTEN) ? RX_EXTENDED : RX_LEGACY;
}

/*
 * RDH, RDT and RDLEN count 16-byte units in every format; a 32-byte
 * packet-split descriptor takes two (Linux writes "i << 1" to RDT).
 */
static inline unsigned e1000e_pp_rx_desc_units(RxFormat f)
{
    return f == RX_SPLIT ? 2 : 1;
}

static inline uint32_t e1000e_pp_rx_ring_units(E1000EPPCore *c)
{
    return (REG(c, RDLEN) & 0xfff80) / 16;
}

static inline uint64_t e1000e_pp_rx_ring_base(E1000EPPCore *c)
{
    return (uint64_t)REG(c, RDBAH) << 32 | (REG(c, RDBAL) & ~0xfu);
}

/* rxcache.c: the on-chip descriptor cache and the ring pointers */
uint32_t e1000e_pp_rx_ring_free(E1000EPPCore *c);
void e1000e_pp_rxcache_clear(E1000EPPCore *c);
void e1000e_pp_rxcache_ring_set(E1000EPPCore *c, uint32_t off, uint32_t val,
                                uint32_t old);
void e1000e_pp_rdh_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_rxcache_fetch_pending(E1000EPPCore *c);
unsigned e1000e_pp_rxcache_avail(E1000EPPCore *c);
void e1000e_pp_rxcache_demand(E1000EPPCore *c);
void e1000e_pp_rxcache_prefetch_slow(E1000EPPCore *c);

/* RDT was written or RCTL.EN set: fetch in this entry point's step. */
static inline void e1000e_pp_rxcache_tail_moved(E1000EPPCore *c)
{
    c->arch.rxcache.fetch_pending = true;
}

/* Entry i of the cache's FIFO (16 or 32 bytes, as the ring's format). */
static inline uint8_t *e1000e_pp_rxcache_entry(E1000EPPRxCache *rc,
                                               unsigned i, unsigned dsz)
{
    return rc->bytes + ((rc->head + i) % E1000E_PP_RX_CACHE) * dsz;
}

/* The descriptor at RDH, fetched on demand; NULL when the ring is dry. */
static inline uint8_t *e1000e_pp_rxcache_peek(E1000EPPCore *c)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;

    if (!rc->count) {
        e1000e_pp_rxcache_demand(c);
        if (!rc->count) {
            return NULL;
        }
    }
    return e1000e_pp_rxcache_entry(rc, 0, rc->dsz);
}

/* The descriptor at RDH is used: the head moves past it. */
static inline void e1000e_pp_rxcache_pop(E1000EPPCore *c)
{
    E1000EPPRxCache *rc = &c->arch.rxcache;
    uint32_t h = REG(c, RDH) + rc->dsz / 16;
    uint32_t n = e1000e_pp_rx_ring_units(c);

    rc->head = (rc->head + 1) % E1000E_PP_RX_CACHE;
    rc->count--;
    REG(c, RDH) = h >= n ? h - n : h;
}

/* Point 3 (rxcache.c): only with RXDCTL.PTHRESH set. */
static inline void e1000e_pp_rxcache_prefetch(E1000EPPCore *c)
{
    if (REG(c, RXDCTL) & 0x3f) {
        e1000e_pp_rxcache_prefetch_slow(c);
    }
}

/* rxring.c */
size_t e1000e_pp_rx_buf_size(E1000EPPCore *c);
unsigned e1000e_pp_rx_descriptors_needed(E1000EPPCore *c, const RxFrame *fr);
bool e1000e_pp_rx_ring_move(E1000EPPCore *c, const RxFrame *fr,
                            uint32_t *done);

/* pktbuf.c; the charge per frame (core.h) is asked for every frame */
static inline uint32_t e1000e_pp_pktbuf_charge(size_t wire_len)
{
    return (uint32_t)((wire_len + E1000E_PP_PKTBUF_UNIT - 1) &
                      ~(size_t)(E1000E_PP_PKTBUF_UNIT - 1)) +
           E1000E_PP_PKTBUF_STATUS;
}
static inline bool e1000e_pp_pktbuf_room(E1000EPPCore *c, size_t wire_len)
{
    uint32_t rxa = REG(c, PBA) & PBA_RXA_MASK;

    return c->arch.pktbuf.count < E1000E_PP_PKTBUF_FRAMES &&
           c->arch.pktbuf.used + e1000e_pp_pktbuf_charge(wire_len) <=
           (rxa > PBA_TOTAL_KB ? PBA_TOTAL_KB : rxa) * 1024;
}
static inline bool e1000e_pp_pktbuf_empty(E1000EPPCore *c)
{
    return c->arch.pktbuf.count == 0;
}
void e1000e_pp_pktbuf_push(E1000EPPCore *c, const RxFrame *fr,
                           size_t wire_len, uint32_t done);
bool e1000e_pp_pktbuf_peek(E1000EPPCore *c, RxFrame *fr, uint32_t **done);
void e1000e_pp_pktbuf_pop(E1000EPPCore *c);
void e1000e_pp_pktbuf_reset(E1000EPPCore *c);

/*
 * tx.c. The Tx buffer keeps TX_HEADROOM bytes before the frame so a
 * VLAN tag can be inserted; without TSO the 82574 sends at most a 16 KB
 * packet.
 */
#define TX_HEADROOM     4
#define TX_MAX_PLAIN    16384
#define TX_ROOM         (E1000E_PP_TX_BUF_BYTES - TX_HEADROOM)
void e1000e_pp_tdt_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                         uint32_t old);
void e1000e_pp_tctl_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_tx_run(E1000EPPCore *c);
void e1000e_pp_tx_reset(E1000EPPCore *c);

/*
 * stats.c, inline: several per received frame. Counters stick at all
 * ones (§10.2.7) instead of wrapping.
 */
static inline void e1000e_pp_stat_inc(E1000EPPCore *c, uint32_t off)
{
    REG(c, off) += REG(c, off) != UINT32_MAX;
}

static inline void e1000e_pp_stat_add64(E1000EPPCore *c, uint32_t lo,
                                        uint64_t n)
{
    uint64_t v = REG(c, lo) | (uint64_t)REG(c, lo + 4) << 32;

    v = v + n < v ? UINT64_MAX : v + n;
    REG(c, lo) = (uint32_t)v;
    REG(c, lo + 4) = (uint32_t)(v >> 32);
}
void e1000e_pp_stats_rx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len);

/* §10.2.7: TPR/TOR count every frame the MAC takes in, good or not. */
static inline void e1000e_pp_stats_rx_total(E1000EPPCore *c, size_t wire_len)
{
    e1000e_pp_stat_inc(c, TPR);
    e1000e_pp_stat_add64(c, TORL, wire_len);
}

void e1000e_pp_stats_tx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len);

/* timesync.c */
uint32_t e1000e_pp_systiml_read(E1000EPPCore *c, uint32_t off);
uint32_t e1000e_pp_systimh_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_systim_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);
void e1000e_pp_timinca_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                             uint32_t old);
void e1000e_pp_timadj_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                            uint32_t old);
void e1000e_pp_timesync_reset(E1000EPPCore *c);
uint32_t e1000e_pp_stamp_high_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_timesync_tx(E1000EPPCore *c);
void e1000e_pp_timesync_rx(E1000EPPCore *c, const uint8_t *f, size_t len,
                           E1000EPPRxInfo *info);

/*
 * RXDCTL/TXDCTL.WTHRESH as a descriptor count: GRAN (bit 24) = 1 counts
 * descriptors, GRAN = 0 cache lines of 256 bytes (82583V TXDCTL: "16
 * descriptors cacheline - 256 bytes"). Capped at what the model holds.
 */
static inline unsigned e1000e_pp_dctl_thresh(uint32_t dctl, unsigned shift,
                                             unsigned desc_bytes)
{
    unsigned w = (dctl >> shift) & 0x3f;

    if (!(dctl & (1u << 24))) {
        w *= 256 / desc_bytes;
    }
    return w;
}

static inline unsigned e1000e_pp_wthresh(uint32_t dctl, unsigned desc_bytes)
{
    unsigned w = e1000e_pp_dctl_thresh(dctl, 16, desc_bytes);

    return w > E1000E_PP_WB_MAX ? E1000E_PP_WB_MAX : w;
}

/* The deadline is kept with the state, so a migrated timer is re-armed. */
static inline void e1000e_pp_arm(E1000EPPCore *c, E1000EPPTimer t,
                                 int64_t delay_ns)
{
    int64_t when = c->plat->now_ns(c->opaque) + delay_ns;

    c->arch.timer_deadline[t] = when;
    c->plat->timer_arm(c->opaque, t, when);
}

static inline void e1000e_pp_disarm(E1000EPPCore *c, E1000EPPTimer t)
{
    c->arch.timer_deadline[t] = E1000E_PP_TIMER_OFF;
    c->plat->timer_cancel(c->opaque, t);
}

#endif
