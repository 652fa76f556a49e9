/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The architectural state (E1000EPPArch): what the 82574L holds, and the
 * packet buffer, write-back, descriptor cache and Tx types it is made of.
 * Part of core.h, which includes it where the types it builds on are
 * defined; include core.h.
 */
#ifndef E1000E_PP_ARCH_H
#define E1000E_PP_ARCH_H

#ifndef E1000E_PP_CORE_H
#error "include core.h"
#endif

/*
 * The on-chip receive packet buffer (PBA.RXA KB of the 40 KB):
 * frames wait here, already stripped and with their FCS, while the ring
 * has no descriptors for them.
 */
#define E1000E_PP_PKTBUF_BYTES   (40 * 1024)
#define E1000E_PP_PKTBUF_FRAMES  512
/* A frame's charge: its wire length in these units, plus a status entry. */
#define E1000E_PP_PKTBUF_UNIT    16
#define E1000E_PP_PKTBUF_STATUS  16

typedef struct E1000EPPRxQueued {
    uint32_t start;          /* offset in bytes[] (the data may wrap) */
    uint32_t len;            /* bytes to DMA, FCS included if kept */
    uint32_t done;           /* bytes already moved to host buffers */
    uint32_t charge;         /* buffer space the frame occupies */
    E1000EPPRxInfo info;
} E1000EPPRxQueued;

typedef struct E1000EPPPktBuf {
    uint8_t bytes[E1000E_PP_PKTBUF_BYTES];
    E1000EPPRxQueued q[E1000E_PP_PKTBUF_FRAMES];
    unsigned head, count;    /* FIFO of q[] */
    uint32_t write;          /* next free byte in bytes[] */
    uint32_t used;           /* sum of charges */
    bool xoff_sent;          /* flow control: XOFF on the wire */
} E1000EPPPktBuf;

/* Rx descriptors written to the ring but not yet back to the host. */
#define E1000E_PP_WB_MAX         64

typedef struct E1000EPPRxWriteback {
    uint64_t addr[E1000E_PP_WB_MAX];
    uint8_t desc[E1000E_PP_WB_MAX][32];
    uint8_t size[E1000E_PP_WB_MAX];
    unsigned count;
} E1000EPPRxWriteback;

/*
 * The on-chip Rx descriptor cache (rxcache.c): descriptors fetched from
 * RDH on when the tail moves, used from here, not re-read at use. The
 * 82574 text we could read gives no size; 32 is the largest PTHRESH
 * Linux programs (docs/fidelity.md).
 */
#define E1000E_PP_RX_CACHE       32

typedef struct E1000EPPRxCache {
    /* Descriptors as fetched, 16 or 32 bytes each (the ring's format). */
    uint8_t bytes[E1000E_PP_RX_CACHE * 32];
    unsigned head, count;    /* FIFO of entries; head is the one at RDH */
    unsigned dsz;            /* entry size, from the format at the fetch */
    bool fetch_pending;      /* the tail moved: fetch in the next step */
    /*
     * The x-rx-hold-desc knob (rxcache.c): descriptors it still lets a
     * fetch add, and fetched ones it keeps out of use (they follow the
     * visible entries) until it is released. Not migrated, as no knob is.
     */
    unsigned hold_left, hidden;
} E1000EPPRxCache;

/*
 * Tx descriptors held for TXDCTL.WTHRESH, as they will be written back:
 * the status byte alone (WTHRESH = 0) or the whole descriptor.
 */
typedef struct E1000EPPTxWriteback {
    uint64_t addr[E1000E_PP_WB_MAX];
    uint8_t desc[E1000E_PP_WB_MAX][16];
    uint8_t size[E1000E_PP_WB_MAX];
    unsigned count;
} E1000EPPTxWriteback;

/* Tx offload context, loaded by a context descriptor (§7.2.10.2). */
typedef struct E1000EPPTxContext {
    uint8_t ipcss, ipcso;
    uint16_t ipcse;
    uint8_t tucss, tucso;
    uint16_t tucse;
    uint32_t paylen;
    uint8_t tucmd;
    uint8_t hdrlen;
    uint16_t mss;
} E1000EPPTxContext;

/* A packet being gathered from Tx data descriptors. */
typedef struct E1000EPPTxPacket {
    bool started;            /* its first descriptor has been seen */
    size_t len;              /* bytes gathered (non-TSO) or in this segment */
    /*
     * The offload context as it was at the packet's first descriptor: a
     * context descriptor arriving mid-packet applies to the next one.
     */
    E1000EPPTxContext ctx;
    bool tse;                /* TCP segmentation for this packet */
    bool ixsm, txsm;         /* insert IP / TCP-UDP checksum */
    bool ic;                 /* legacy: insert a checksum at CSO from CSS */
    uint8_t css, cso;
    bool vle;                /* insert the VLAN tag below */
    uint16_t vlan;
    bool dropping;           /* a bad descriptor poisoned this packet */
    bool tstamp;             /* TSTAMP: latch TXSTMP when it is sent */
    /* TSO state */
    uint32_t payload_sent;   /* payload bytes already segmented */
    uint32_t segments;
    uint16_t ip_id;
    uint32_t tcp_seq;
    uint8_t header[256];
} E1000EPPTxPacket;

/*
 * The architectural state: what the 82574L itself holds, everything that
 * decides what the device does next. It migrates (the adapter's
 * VMStateDescription) and is validated when loaded (state.c).
 */
typedef struct E1000EPPArch {
    /* The register file, indexed by offset / 4. */
    uint32_t regs[0x20000 / 4];

    uint16_t nvm[E1000E_PP_NVM_WORDS];
    uint8_t perm_mac[6];

    /* BM PHY (§8.4): registers 0-15 are shared by all pages. */
    uint16_t phy[E1000E_PP_PHY_REGS];
    uint16_t phy_paged[E1000E_PP_PHY_PAGES][E1000E_PP_PHY_REGS - 16];
    uint16_t phy_page;
    bool wire_up;            /* the netdev's carrier */
    bool autoneg_running;
    bool link_reported;      /* STATUS.LU as last signalled by LSC */

    /* Interrupt moderation (§7.4.4). */
    bool itr_window;                          /* throttle window open */
    bool itr_pending;                         /* a cause waits for it */
    bool eitr_window[E1000E_PP_MSIX_VECTORS];
    bool eitr_pending[E1000E_PP_MSIX_VECTORS];
    bool intx_level;
    bool msi_delivered;       /* MSI is edge: one message per assertion */
    bool delay_armed[4];     /* RDTR, RADV, TIDV, TADV running */

    /* SYSTIM: value at the last TIMINCA/SYSTIM write, and when. */
    uint64_t systim_base;
    int64_t systim_base_ns;
    uint32_t systimh_latch;

    /* Transmit */
    E1000EPPTxContext txctx;
    E1000EPPTxPacket txpkt;
    E1000EPPTxWriteback txwb;
    uint8_t txbuf[E1000E_PP_TX_BUF_BYTES];

    /* Receive */
    E1000EPPPktBuf pktbuf;
    E1000EPPRxWriteback rxwb;
    E1000EPPRxCache rxcache;
    bool tx_paused;          /* a received PAUSE holds the transmitter */
    bool rxdmt_low;          /* free descriptors at or below RDMTS */
    /* The buffer size RCTL rx_bsize_rctl selects (0: not known). */
    uint32_t rx_bsize_rctl;
    uint32_t rx_bsize;
    bool tx_halted;          /* a DMA failed; until TCTL.EN is rewritten */

    bool bus_master;         /* PCI COMMAND.BME */
    uint32_t ioaddr;         /* I/O BAR: IOADDR */

    /* PCI PM: PMCSR.PowerState and PMCSR.PME_En. */
    unsigned power;
    bool pme_enabled;

    bool resetting;          /* CTRL.RST in progress */

    /* Held by the race-tooling knobs: the Tx engine, the link. */
    bool tx_hold;
    bool link_knob_down;

    /* When each timer fires, virtual ns; E1000E_PP_TIMER_OFF if idle. */
    int64_t timer_deadline[E1000E_PP_TIMER_COUNT];
} E1000EPPArch;

#define E1000E_PP_TIMER_OFF     (-1)

#endif
