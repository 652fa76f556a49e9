/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Declarations shared by the files of the e1000e-pp core; not part of
 * its interface to the adapter (that is core.h).
 */
#ifndef E1000E_PP_INTERNAL_H
#define E1000E_PP_INTERNAL_H

#include "core.h"
#include "regs.h"

/* The register file is indexed by dword; offsets below are in bytes. */
#define REG(c, off)     ((c)->regs[(off) >> 2])

#define ARRAY_LEN(a)    (sizeof(a) / sizeof((a)[0]))

/* Access behaviours shared by many registers (§10.1.2 "Register Types"). */
typedef enum RegAccess {
    REG_RW,          /* read/write through the mask */
    REG_RO,          /* writes are a guest error and ignored */
    REG_WO,          /* reads return 0 */
    REG_RC,          /* statistics: clear on read */
    REG_RC_HIGH,     /* high half of a 64-bit counter: read clears both */
} RegAccess;

typedef struct RegInfo {
    const char *name;
    uint32_t offset;         /* first byte offset */
    uint16_t count;          /* elements of an array register, else 1 */
    RegAccess access;
    uint32_t reset;          /* value after power-on and CTRL.RST */
    uint32_t wmask;          /* bits a guest write changes */
    /* Optional handlers; "off" is the byte offset of the element. */
    uint32_t (*read)(E1000EPPCore *c, uint32_t off);
    void (*write)(E1000EPPCore *c, uint32_t off, uint32_t val);
} RegInfo;

/* regs.c */
const RegInfo *e1000e_pp_reg_lookup(uint32_t offset);
void e1000e_pp_regs_reset(E1000EPPCore *c, bool keep_pba);
void e1000e_pp_store(E1000EPPCore *c, const RegInfo *ri, uint32_t off,
                     uint32_t val);
void e1000e_pp_log(E1000EPPCore *c, E1000EPPLog kind, uint32_t off,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
extern const RegInfo e1000e_pp_reg_table[];
extern const size_t e1000e_pp_reg_table_len;

/* Register handlers, one file per datasheet concern. */
uint32_t e1000e_pp_status_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_status_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_ctrl_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_ctrl_ext_write(E1000EPPCore *c, uint32_t off, uint32_t val);
uint32_t e1000e_pp_pba_read(E1000EPPCore *c, uint32_t off);
uint32_t e1000e_pp_swsm_read(E1000EPPCore *c, uint32_t off);

/* nvm.c */
void e1000e_pp_nvm_init(E1000EPPCore *c, const uint8_t mac[6]);
void e1000e_pp_nvm_reload(E1000EPPCore *c);
uint32_t e1000e_pp_eecd_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_eecd_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_eerd_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_eewr_write(E1000EPPCore *c, uint32_t off, uint32_t val);

/* phy.c */
void e1000e_pp_phy_reset(E1000EPPCore *c);
void e1000e_pp_mdic_write(E1000EPPCore *c, uint32_t off, uint32_t val);
bool e1000e_pp_link_up(E1000EPPCore *c);
bool e1000e_pp_phy_loopback(E1000EPPCore *c);
void e1000e_pp_link_autoneg_done(E1000EPPCore *c);

/* intr.c */
void e1000e_pp_raise(E1000EPPCore *c, uint32_t causes);
void e1000e_pp_intr_update(E1000EPPCore *c);
void e1000e_pp_intr_reset(E1000EPPCore *c);
void e1000e_pp_throttle_expired(E1000EPPCore *c, E1000EPPTimer timer);
uint32_t e1000e_pp_icr_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_icr_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_ics_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_ims_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_imc_write(E1000EPPCore *c, uint32_t off, uint32_t val);
/* Interrupt delay timers (§7.4.4): RDTR/RADV for Rx, TIDV/TADV for Tx. */
void e1000e_pp_rx_delay_start(E1000EPPCore *c);
void e1000e_pp_tx_delay_start(E1000EPPCore *c, bool ide);
void e1000e_pp_delay_fired(E1000EPPCore *c, E1000EPPTimer timer);
void e1000e_pp_rdtr_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_tidv_write(E1000EPPCore *c, uint32_t off, uint32_t val);

/* Ethernet framing (IEEE 802.3) */
#define ETH_ALEN        6
#define ETH_HLEN        14
#define ETH_ZLEN        60      /* shortest frame on the wire, no FCS */
#define ETH_FCS_LEN     4
#define VLAN_HLEN       4

static inline bool eth_is_broadcast(const uint8_t *da)
{
    return (da[0] & da[1] & da[2] & da[3] & da[4] & da[5]) == 0xff;
}

/* Receive descriptor status and error bits (legacy layout, §7.1.4.1). */
#define RXD_STAT_DD     (1u << 0)
#define RXD_STAT_EOP    (1u << 1)
#define RXD_STAT_IXSM   (1u << 2)
#define RXD_STAT_VP     (1u << 3)
#define RXD_STAT_UDPCS  (1u << 4)
#define RXD_STAT_TCPCS  (1u << 5)
#define RXD_STAT_IPCS   (1u << 6)
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
void e1000e_pp_rdt_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_rctl_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_rx_drain(E1000EPPCore *c);
void e1000e_pp_rx_reset(E1000EPPCore *c);
void e1000e_pp_rx_loopback(E1000EPPCore *c, const uint8_t *frame, size_t len);
bool e1000e_pp_loopback(E1000EPPCore *c);

/* rxparse.c */
bool e1000e_pp_rx_address_match(E1000EPPCore *c, const uint8_t *da);
bool e1000e_pp_rx_vlan_match(E1000EPPCore *c, uint16_t tci);
void e1000e_pp_rx_parse(E1000EPPCore *c, const uint8_t *f, size_t len,
                        size_t strip_off, E1000EPPRxInfo *info);

/* rxring.c */
RxFormat e1000e_pp_rx_format(E1000EPPCore *c);
size_t e1000e_pp_rx_buf_size(E1000EPPCore *c);
uint32_t e1000e_pp_rx_ring_free(E1000EPPCore *c);
unsigned e1000e_pp_rx_descriptors_needed(E1000EPPCore *c, const RxFrame *fr);
bool e1000e_pp_rx_ring_put(E1000EPPCore *c, const RxFrame *fr);
void e1000e_pp_rx_wb_flush(E1000EPPCore *c);

/* pktbuf.c */
uint32_t e1000e_pp_pktbuf_charge(size_t wire_len);
bool e1000e_pp_pktbuf_room(E1000EPPCore *c, size_t wire_len);
bool e1000e_pp_pktbuf_empty(E1000EPPCore *c);
void e1000e_pp_pktbuf_push(E1000EPPCore *c, const RxFrame *fr,
                           size_t wire_len);
bool e1000e_pp_pktbuf_peek(E1000EPPCore *c, RxFrame *fr);
void e1000e_pp_pktbuf_pop(E1000EPPCore *c);
void e1000e_pp_pktbuf_reset(E1000EPPCore *c);

/* tx.c */
void e1000e_pp_tdt_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_tctl_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_tx_run(E1000EPPCore *c);
void e1000e_pp_tx_reset(E1000EPPCore *c);
bool e1000e_pp_tx_wb_flush(E1000EPPCore *c);

/* stats.c */
void e1000e_pp_stat_inc(E1000EPPCore *c, uint32_t off);
void e1000e_pp_stat_add64(E1000EPPCore *c, uint32_t lo, uint64_t n);
void e1000e_pp_stats_rx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len);
void e1000e_pp_stats_rx_total(E1000EPPCore *c, size_t wire_len);
void e1000e_pp_stats_tx_good(E1000EPPCore *c, const uint8_t *frame,
                             size_t wire_len);

/* timesync.c */
uint32_t e1000e_pp_systiml_read(E1000EPPCore *c, uint32_t off);
uint32_t e1000e_pp_systimh_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_systim_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_timinca_write(E1000EPPCore *c, uint32_t off, uint32_t val);
void e1000e_pp_timadj_write(E1000EPPCore *c, uint32_t off, uint32_t val);
uint32_t e1000e_pp_stamp_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_timesync_reset(E1000EPPCore *c);

/* crc32_clmul.c (x86-64) or crc32_clmul_stub.c: the CRC's fast path */
bool e1000e_pp_crc32_clmul_usable(void);
uint32_t e1000e_pp_crc32_clmul(uint32_t crc, const uint8_t *p, size_t len);

/* Byte-order helpers for descriptors and headers */
static inline uint16_t get_be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}
static inline uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}
static inline void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}
static inline void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}
static inline uint16_t get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
           (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get_le64(const uint8_t *p)
{
    return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}
static inline void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}
static inline void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

/*
 * RXDCTL/TXDCTL.WTHRESH as a descriptor count: GRAN (bit 24) = 1 counts
 * descriptors, GRAN = 0 cache lines of 256 bytes (82583V TXDCTL: "16
 * descriptors cacheline - 256 bytes"). Capped at what the model holds.
 */
static inline unsigned e1000e_pp_wthresh(uint32_t dctl, unsigned desc_bytes)
{
    unsigned w = (dctl >> 16) & 0x3f;

    if (!(dctl & (1u << 24))) {
        w *= 256 / desc_bytes;
    }
    return w > E1000E_PP_WB_MAX ? E1000E_PP_WB_MAX : w;
}

static inline void e1000e_pp_arm(E1000EPPCore *c, E1000EPPTimer t,
                                 int64_t delay_ns)
{
    c->plat->timer_arm(c->opaque, t, c->plat->now_ns(c->opaque) + delay_ns);
}

static inline void e1000e_pp_disarm(E1000EPPCore *c, E1000EPPTimer t)
{
    c->plat->timer_cancel(c->opaque, t);
}

/* DMA with the error accounting §"DMA" of docs/fidelity.md describes. */
bool e1000e_pp_dma_read(E1000EPPCore *c, uint64_t addr, void *buf,
                        size_t len);
bool e1000e_pp_dma_write(E1000EPPCore *c, uint64_t addr, const void *buf,
                         size_t len);

#endif
