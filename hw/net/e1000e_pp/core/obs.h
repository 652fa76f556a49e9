/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The observation state (E1000EPPObs): what the model keeps to report on
 * itself, and the event, fault, situation and accounting types it is made
 * of.
 * Part of core.h, which includes it where the types it builds on are
 * defined; include core.h.
 */
#ifndef E1000E_PP_OBS_H
#define E1000E_PP_OBS_H

#ifndef E1000E_PP_CORE_H
#error "include core.h"
#endif

/* One entry of the knob-and-violation list. */
typedef struct E1000EPPEvent {
    int64_t ns;
    uint64_t icount;            /* 0: not recorded nor replayed */
    const char *what;
    uint32_t reg;
    uint32_t value;
} E1000EPPEvent;

#define E1000E_PP_EVENTS 64

/* Ring slots whose last posted buffer address is remembered. */
#define E1000E_PP_RX_SLOTS       4096

/*
 * What the model notes about the buffers the descriptor cache fetched
 * (observation only): the buffer address per ring slot at its
 * last fetch and the ring set-up it belongs to.
 */
typedef struct E1000EPPRxSlots {
    uint64_t null_desc;      /* descriptors with buffer address 0 */
    uint64_t last_addr[E1000E_PP_RX_SLOTS];
    uint32_t last_gen[E1000E_PP_RX_SLOTS];
    uint32_t gen;            /* bumped each time the ring is set up */
    uint64_t buf_new, buf_reposted;
} E1000EPPRxSlots;

/* A DMA that failed: posted writes are lost, reads return nothing. */
typedef struct E1000EPPDmaFault {
    int64_t ns;
    const char *what;        /* rx-data, rx-desc-wb, rx-desc-fetch, tx-... */
    uint32_t desc;           /* descriptor index in its ring */
    uint64_t addr;           /* buffer (or descriptor) address */
    uint32_t offset, len;    /* the failed access within that buffer */
    bool write;
    uint64_t frame;          /* Rx: the frame moving, rx-delivered + 1 */
} E1000EPPDmaFault;

/*
 * Datapath situations the device produced (coverage.c, docs/coverage.md):
 * each counts how often the engines took that path since realize.
 */
typedef enum E1000EPPSituation {
    SIT_FCS_STRADDLE,        /* kept FCS split over two buffers */
    SIT_FCS_ALONE,           /* the last buffer holds the FCS only */
    SIT_SPLIT_POLLS,         /* non-EOP descriptors written, EOP not yet */
    SIT_RING_DRY_MIDFRAME,   /* no descriptor left part-way into a frame */
    SIT_RNBC,                /* a frame arrived with RDH == RDT */
    SIT_MPC,                 /* the packet buffer overflowed */
    SIT_XOFF_SENT,           /* flow control sent a PAUSE with quanta */
    SIT_WB_TIMER,            /* held write-backs flushed by RDTR/RADV */
    SIT_WB_THRESHOLD,        /* held write-backs flushed at WTHRESH */
    SIT_HDR_SPLIT,           /* packet split put the header alone (HS) */
    SIT_VLAN_STRIP,          /* CTRL.VME took the tag off (VP) */
    SIT_RX_CSUM_IP,          /* RXCSUM: IPv4 header checked (IPCS) */
    SIT_RX_CSUM_TCP,         /* TCP checksum checked (TCPCS) */
    SIT_RX_CSUM_UDP,         /* UDP checksum checked (UDPCS) */
    SIT_RX_CSUM_ERR,         /* a checked checksum was wrong (IPE/TCPE) */
    SIT_TX_CSUM_IP,          /* Tx POPTS.IXSM: IPv4 checksum inserted */
    SIT_TX_CSUM_L4,          /* Tx POPTS.TXSM: TCP/UDP checksum inserted */
    SIT_TSO,                 /* a TSO segment sent */
    SIT_IRQ_THROTTLED,       /* an interrupt held by ITR/EITR */
    SIT_LINK_TRAFFIC,        /* link changed while frames were moving */
    SIT_ERR_CRC,             /* injected errors, one each kind */
    SIT_ERR_SYMBOL,
    SIT_ERR_DATA,
    SIT_ERR_OVERSIZE,
    SIT_NULL_DESC,           /* an Rx descriptor with buffer address 0 */
    SIT_DMA_FAULT,           /* a DMA failed (dma-faults) */
    E1000E_PP_SITUATIONS,
} E1000EPPSituation;

#define E1000E_PP_DMA_FAULTS     32

/* Frame accounting outside the statistics registers (for tests). */
typedef struct E1000EPPRxCounters {
    uint64_t offered;        /* frames the wire handed to the MAC */
    uint64_t delivered;      /* frames written to the ring */
    uint64_t missed;         /* dropped: packet buffer full (MPC) */
    uint64_t filtered;       /* dropped by address/VLAN filters */
    uint64_t oversize;       /* dropped: too long (ROC) */
    uint64_t undersize;      /* dropped: too short (RUC) */
    uint64_t not_ready;      /* dropped: receiver off, link down, D3 */
    uint64_t dma_error;      /* dropped: DMA to the guest failed */
    uint64_t flushed;        /* dropped from the packet buffer by a reset */
    uint64_t wake;           /* taken in D3hot as a wake event, not stored */
    uint64_t errored;        /* dropped: frame error without RCTL.SBP */
    /* Not a fate: frames over the LPE limit SBP let in (ROC too). */
    uint64_t long_stored;
} E1000EPPRxCounters;

/*
 * The observation state: what the model keeps to report on itself
 * (counters, lists, log-once flags). Nothing the device does depends on
 * it; it does not migrate (docs/architecture.md).
 */
typedef struct E1000EPPObs {
    E1000EPPRxCounters rxstat;
    E1000EPPRxSlots rxslots;
    uint64_t reentries;      /* nested accesses refused (DMA to BAR0) */
    uint64_t tx_sent;        /* frames the Tx engine put on the wire */
    uint64_t pause_sent;     /* PAUSE frames flow control put there */
    /* Interrupt messages sent per vector (MSI: 0), INTx assertions. */
    uint64_t irq_messages[E1000E_PP_MSIX_VECTORS];
    uint64_t intx_asserts;

    /* Rate limiting of log messages: one per register and kind. */
    uint8_t logged[0x20000 / 4];
    /* Unknown or unimplemented dwords the guest touched since init. */
    uint32_t unimp_seen[0x20000 / 4 / 32];

    uint64_t dma_errors;
    /* The last E1000E_PP_DMA_FAULTS failed DMAs, and how many in all. */
    E1000EPPDmaFault faults[E1000E_PP_DMA_FAULTS];
    uint64_t nfaults;
    /* Situation coverage, and frames moved at the last link change. */
    uint64_t situations[E1000E_PP_SITUATIONS];
    uint64_t link_mark;

    uint64_t pm_violations;  /* accesses refused outside D0 */
    uint64_t reset_accesses; /* register writes during CTRL.RST */

    /* The last E1000E_PP_EVENTS knob changes and violations. */
    E1000EPPEvent events[E1000E_PP_EVENTS];
    uint64_t nevents;
} E1000EPPObs;

#endif
