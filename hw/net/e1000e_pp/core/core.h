/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp device core: an Intel 82574L modelled in plain C.
 *
 * The core knows nothing of QEMU. It reaches the outside world through
 * E1000EPPPlatform (DMA, interrupts, the wire, a virtual clock with
 * timers, logging) and is driven through the e1000e_pp_* entry points
 * below. The QEMU adapter, the unit tests and the benchmarks all link
 * the same core.
 */
#ifndef E1000E_PP_CORE_H
#define E1000E_PP_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net.h"

#define E1000E_PP_MSIX_VECTORS   5
#define E1000E_PP_NVM_WORDS      64
#define E1000E_PP_PHY_PAGES      1024
#define E1000E_PP_PHY_REGS       32
/* Largest frame the Tx path assembles: a 64 KiB TSO payload plus header. */
#define E1000E_PP_TX_BUF_BYTES   (65536 + 256)
/*
 * Longest frame (FCS included) the MAC accepts with RCTL.LPE: Linux's
 * DEFAULT_JUMBO of 9234 bytes, plus 4 for a VLAN tag (docs/fidelity.md).
 */
#define E1000E_PP_MAX_LONG_FRAME 9234
#define E1000E_PP_MAX_FRAME      (E1000E_PP_MAX_LONG_FRAME + 4)

/* Timers the core asks the platform to run on the virtual clock. */
typedef enum E1000EPPTimer {
    E1000E_PP_TIMER_AUTO_RD,     /* NVM auto-read after reset completes */
    E1000E_PP_TIMER_LINK,        /* auto-negotiation finishes */
    E1000E_PP_TIMER_RDTR,        /* Rx packet delay */
    E1000E_PP_TIMER_RADV,        /* Rx absolute delay */
    E1000E_PP_TIMER_TIDV,        /* Tx packet delay */
    E1000E_PP_TIMER_TADV,        /* Tx absolute delay */
    E1000E_PP_TIMER_KICK,        /* continue engine work past its budget */
    E1000E_PP_TIMER_RESET,       /* CTRL.RST completes */
    E1000E_PP_TIMER_LINK_KNOB,   /* a link dropped by the knob returns */
    E1000E_PP_TIMER_PAUSE,       /* a received PAUSE time runs out */
    E1000E_PP_TIMER_ITR,         /* INTx/MSI throttle window ends */
    E1000E_PP_TIMER_EITR0,       /* MSI-X vector 0..4 throttle windows */
    E1000E_PP_TIMER_COUNT = E1000E_PP_TIMER_EITR0 + E1000E_PP_MSIX_VECTORS,
} E1000EPPTimer;

typedef enum E1000EPPIrqMode {
    E1000E_PP_IRQ_INTX,
    E1000E_PP_IRQ_MSI,
    E1000E_PP_IRQ_MSIX,
} E1000EPPIrqMode;

typedef enum E1000EPPLog {
    E1000E_PP_LOG_GUEST_ERROR,   /* the guest programmed something invalid */
    E1000E_PP_LOG_UNIMP,         /* a feature the model does not implement */
} E1000EPPLog;

/* The platform interface: everything the core needs from its host. */
typedef struct E1000EPPPlatform {
    /* Guest memory; nonzero return means the access failed. */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                     size_t len);
    E1000EPPIrqMode (*irq_mode)(void *opaque);
    void (*set_intx)(void *opaque, int level);
    /* Send one MSI (vector 0) or MSI-X message. */
    void (*notify)(void *opaque, unsigned vector);
    /* A frame as the wire carries it, without FCS. */
    void (*send)(void *opaque, const uint8_t *frame, size_t len);
    /* Rx descriptors became available: frames held upstream may flow. */
    void (*rx_ready)(void *opaque);
    int64_t (*now_ns)(void *opaque);
    void (*timer_arm)(void *opaque, E1000EPPTimer timer, int64_t expire_ns);
    void (*timer_cancel)(void *opaque, E1000EPPTimer timer);
    void (*log)(void *opaque, E1000EPPLog kind, const char *msg);
    /* Trace hooks; any may be NULL. */
    void (*trace_reg)(void *opaque, int is_write, const char *name,
                      uint32_t offset, uint32_t value);
    void (*trace_irq)(void *opaque, const char *what, uint32_t icr,
                      uint32_t ims, unsigned vector);
    void (*trace_rx)(void *opaque, size_t len, uint32_t rdh,
                     unsigned descriptors, const char *verdict);
    void (*trace_tx)(void *opaque, size_t len, uint32_t tdh, const char *what);
    void (*trace_pm)(void *opaque, unsigned from, unsigned to);
    void (*trace_violation)(void *opaque, const char *what, uint64_t addr);
    /* A wake event in D3hot: set PMCSR.PME_Status (may be NULL). */
    void (*pme)(void *opaque);
    /* Knob changes and violations, as listed by e1000e_pp_events. */
    void (*trace_event)(void *opaque, const char *what, uint32_t reg,
                        uint32_t value);
    /*
     * The guest's instruction count while QEMU records or replays the
     * run, else 0 (may be NULL): an event that carries it can be found
     * again by a replay.
     */
    uint64_t (*icount)(void *opaque);
    /* A DMA that failed (may be NULL); the core keeps a list too. */
    void (*trace_dma_fault)(void *opaque, const char *what, uint32_t desc,
                            uint64_t addr, uint32_t offset, uint32_t len,
                            int is_write);
} E1000EPPPlatform;

/* What the host configures before the first reset (device properties). */
typedef struct E1000EPPConfig {
    uint8_t mac[6];
    /* Hold frames upstream when the packet buffer is full (never drop). */
    bool rx_backpressure;
    /* How long CTRL.RST keeps the MAC in reset, in virtual ns. */
    uint64_t reset_ns;
    /*
     * Test knob, 0 = off: the Rx descriptor cache holds at most this
     * many descriptors and fetches only when RDT is written, so the ring
     * runs dry at a chosen descriptor of a frame (docs/fidelity.md).
     */
    uint32_t rx_fetch_limit;
    /*
     * Test knob, 0 = off: the Rx engine uses this many more descriptors,
     * then holds as if the ring ran dry, until it is 0 again: a frame
     * half received when the driver tears its ring down (rxcache.c).
     */
    uint32_t rx_hold_desc;
} E1000EPPConfig;

/*
 * Default CTRL.RST window. The datasheet text we could read gives no
 * number; Linux only waits for EECD.AUTO_RD, which follows 1 ms later.
 */
#define E1000E_PP_RESET_NS_DEFAULT  1000
/* Linux polls EECD.AUTO_RD about 10 times, 1-2 ms apart, then gives up. */
#define E1000E_PP_RESET_NS_DRIVER_MAX  (8 * 1000 * 1000)

/* PCI PM D-states the function implements (PMC: no D1/D2). */
#define E1000E_PP_D0            0
#define E1000E_PP_D3HOT         3

/* What the receive path learned about a frame, for its EOP descriptor. */
typedef struct E1000EPPRxInfo {
    uint16_t vlan;           /* stripped tag (VP set) */
    bool vp;
    uint32_t status;         /* legacy status bits, DD/EOP excluded */
    uint32_t errors;         /* legacy error bits */
    uint16_t ip_id;
    uint16_t pkt_csum;
    uint32_t rss_hash;
    uint8_t rss_type;
    uint16_t hdr_len;        /* L2-L4 header bytes, 0 if not parsed */
} E1000EPPRxInfo;

/*
 * Frame errors the error-injection knob puts on the next received
 * frames (errinj.c), with the error bit and the counter hardware uses.
 */
typedef enum E1000EPPRxErr {
    E1000E_PP_RXERR_NONE,
    E1000E_PP_RXERR_CRC,         /* FCS mismatch: RDESC.CE, CRCERRS */
    E1000E_PP_RXERR_SYMBOL,      /* RDESC.SE, SYMERRS */
    E1000E_PP_RXERR_DATA,        /* PHY RX_ER: RDESC.RXE, RXERRC */
    E1000E_PP_RXERR_OVERSIZE,    /* longer than RCTL.LPE allows: ROC */
    E1000E_PP_RXERR_KINDS,
} E1000EPPRxErr;

/* Longest frame RCTL.SBP stores (a longer one is always dropped). */
#define E1000E_PP_SBP_MAX_FRAME  16384

typedef struct E1000EPPErrInj {
    uint32_t pending[E1000E_PP_RXERR_KINDS];    /* frames still to mark */
    E1000EPPRxErr active;    /* the error of the frame being received */
    uint8_t frame[E1000E_PP_SBP_MAX_FRAME];      /* an oversize frame */
} E1000EPPErrInj;

#include "arch.h"
#include "obs.h"

/*
 * Set by e1000e_pp_state_presave (state.c): how much of the packet
 * buffer and of the Tx buffer a migration stream carries.
 */
typedef struct E1000EPPSaved {
    uint32_t pktbuf_frames;
    uint32_t pktbuf_bytes;
    uint32_t txbuf_bytes;
    uint32_t txpkt_len;      /* txpkt.len, whose size_t is host-sized */
} E1000EPPSaved;

typedef struct E1000EPPCore {
    const E1000EPPPlatform *plat;
    void *opaque;
    /*
     * Configuration and the test-only knob settings (properties, qom-set):
     * the destination of a migration has its own, from its command line.
     */
    E1000EPPConfig cfg;
    E1000EPPErrInj errinj;   /* frame errors to put on received frames */
    uint32_t dma_fault_writes;  /* Rx data writes still to reject */

    /*
     * Work recorded during an entry point and done by its settle step:
     * engines to run (WORK_* in work.h), interrupt causes to latch
     * into ICR and MSI-X causes to try, then one commit. Between entry
     * points only engine work past a step's budget is left (it migrates).
     */
    uint32_t work;
    uint32_t irq_raise;
    uint32_t irq_fire;
    bool irq_dirty;
    unsigned tx_budget;      /* descriptors left for this settle step */
    size_t tx_bytes;         /* data bytes left for this settle step */
    unsigned depth;          /* entry points active (1 when sane) */

    E1000EPPArch arch;
    E1000EPPObs obs;
    E1000EPPSaved saved;
} E1000EPPCore;

/*
 * Every entry point below runs to completion: it records what changed,
 * then one settle step runs the engines and commits interrupts.
 */

/* Lifecycle */
void e1000e_pp_core_init(E1000EPPCore *c, const E1000EPPPlatform *plat,
                         void *opaque, const E1000EPPConfig *cfg);
void e1000e_pp_core_reset(E1000EPPCore *c);    /* power-on reset */

/* BAR0 access; offsets are byte offsets into BAR0. */
uint32_t e1000e_pp_read(E1000EPPCore *c, uint32_t offset);
void e1000e_pp_write(E1000EPPCore *c, uint32_t offset, uint32_t value);
/* BAR2: IOADDR (port 0) selects a CSR, IODATA (port 4) reaches it. */
uint32_t e1000e_pp_io_read(E1000EPPCore *c, uint32_t port);
void e1000e_pp_io_write(E1000EPPCore *c, uint32_t port, uint32_t value);

/* PMCSR.PowerState was written; returns the state now in effect. */
unsigned e1000e_pp_power_set(E1000EPPCore *c, unsigned state);
/* PMCSR.PME_En was written. */
void e1000e_pp_pme_enable(E1000EPPCore *c, bool enabled);

/*
 * Race-tooling knobs, each listed as an event: hold the Tx engine (TDH
 * stops), set the CTRL.RST window, drop the link for ms of virtual time,
 * raise a wake event (a WUS cause bit: 1 link, 2 magic packet, ...).
 */
void e1000e_pp_knob_tx_hold(E1000EPPCore *c, bool hold);
void e1000e_pp_knob_reset_ns(E1000EPPCore *c, uint64_t ns);
void e1000e_pp_knob_link_drop(E1000EPPCore *c, uint32_t ms);
void e1000e_pp_knob_wake(E1000EPPCore *c, uint32_t cause);
/* At most n Rx descriptors per fetch, fetched on RDT writes only (0: off) */
void e1000e_pp_knob_rx_fetch_limit(E1000EPPCore *c, uint32_t n);
/* The Rx engine holds after n more descriptors (0: goes on) */
void e1000e_pp_knob_rx_hold_desc(E1000EPPCore *c, uint32_t n);
/*
 * The next n Rx data writes (one per buffer) are rejected as an IOMMU
 * rejects a write to a page it does not map: nothing lands, the fault is
 * listed and the descriptor still written back (0 cancels).
 */
void e1000e_pp_knob_dma_fault_writes(E1000EPPCore *c, uint32_t n);
/*
 * Error injection (errinj.c): the next "frames" frames from the wire
 * carry the error "kind" (0 cancels); pending reads what is left.
 */
void e1000e_pp_knob_rx_error(E1000EPPCore *c, E1000EPPRxErr kind,
                             uint32_t frames);
uint32_t e1000e_pp_rx_error_pending(E1000EPPCore *c, E1000EPPRxErr kind);
/* The knob that arms a kind: "x-rx-error-crc" etc.; NULL for none. */
const char *e1000e_pp_rx_error_name(E1000EPPRxErr kind);
/* The event list, oldest first, one "ns what reg=0x.. value=0x.." line each. */
size_t e1000e_pp_events(E1000EPPCore *c, char *buf, size_t size);
/*
 * The DMA fault list, oldest first, one "ns frame=N what desc=N
 * addr=0x.. offset=N len=N read|write" line each.
 */
size_t e1000e_pp_dma_faults(E1000EPPCore *c, char *buf, size_t size);

/* Situation coverage, one "name count" line per situation (coverage.c). */
size_t e1000e_pp_situations(E1000EPPCore *c, char *buf, size_t size);

/*
 * The unknown and unimplemented registers touched since init, as
 * "NAME@0xOFFSET" (unknown: "?@0xOFFSET"), comma separated, by offset.
 */
size_t e1000e_pp_unimplemented(E1000EPPCore *c, char *buf, size_t size);

/* The wire */
bool e1000e_pp_can_receive(E1000EPPCore *c);
/* Returns true if the frame was consumed (delivered or dropped). */
bool e1000e_pp_receive(E1000EPPCore *c, const uint8_t *frame, size_t len);
void e1000e_pp_set_link(E1000EPPCore *c, bool up);

/* Timers */
void e1000e_pp_timer_fired(E1000EPPCore *c, E1000EPPTimer timer);

/* Bus mastering was switched off or on (PCI COMMAND.BME). */
void e1000e_pp_bus_master(E1000EPPCore *c, bool enabled);

/* Re-evaluate the interrupt line, e.g. after the IRQ mode changed. */
void e1000e_pp_irq_update(E1000EPPCore *c);

/*
 * Migration of the architectural state (state.c). Before saving, presave
 * puts it in canonical form (the packet buffer's oldest frame at offset
 * 0, unoccupied bytes zeroed) and sets c->saved. After loading, postload
 * validates every value that indexes, bounds or sizes something, then
 * re-arms each timer at its saved deadline; on failure it returns -1
 * with err naming the field, and the core must not be used.
 * sizes_ok checks c->saved alone, before the buffers it sizes are read.
 */
void e1000e_pp_state_presave(E1000EPPCore *c);
bool e1000e_pp_state_sizes_ok(const E1000EPPCore *c);
int e1000e_pp_state_validate(E1000EPPCore *c, char *err, size_t size);
int e1000e_pp_state_postload(E1000EPPCore *c, char *err, size_t size);

/*
 * The register file as the stream names it: one span per row of the
 * register table (aliases excluded), stride in bytes. Returns the number
 * of rows; fills at most max.
 */
typedef struct E1000EPPRegSpan {
    const char *name;
    uint32_t offset;
    uint16_t count;
    uint16_t stride;
} E1000EPPRegSpan;
size_t e1000e_pp_reg_spans(E1000EPPRegSpan *out, size_t max);

#endif
