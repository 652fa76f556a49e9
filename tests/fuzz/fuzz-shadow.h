/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fuzzer's platform side: guest memory, a BAR0 window for DMA, and a
 * shadow of guest memory per 16-byte unit against which the device's
 * behaviour is checked from outside the core (fuzz-shadow.c).
 *
 * Invariants (any break aborts with a message, which libFuzzer keeps),
 * in terms of descriptor ownership (82574L §7.1.4, §7.2.3): the guest
 * hands a descriptor to the device by moving the tail over it (or, a
 * guest error, the head back), and the device gives it back with its
 * write-back.  Nothing here depends on when the device fetches a
 * descriptor (one at a time or ahead into a cache) or how it places a
 * frame (whole, or buffer by buffer with write-backs before EOP):
 *  - every packet-data DMA write lies inside the buffer of a descriptor
 *    the device owns now and has read during this ownership, within the
 *    size RCTL (BSIZE/BSEX/FLXBUF) or PSRCTL gave while it owned it; a
 *    later read of the same descriptor adds to its buffers, never takes
 *    one away (the device uses what its cache fetched, §7.1.6);
 *  - a descriptor is written back only while the device owns it: never
 *    before it was handed over, never twice for one hand-over, never
 *    without having been read;
 *  - each offered frame ends in exactly one place (delivered, one
 *    counted drop, or the packet buffer), and the drop counters the
 *    guest sees (MPC, ROC, RUC) and GPRC move with it;
 *  - no statistics register moves backwards until the guest reads it
 *    (or a reset clears them).
 */
#ifndef FUZZ_SHADOW_H
#define FUZZ_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"
#include "regs-82574l.h"

#define GUEST_MEM       (256u << 10)
#define UNITS           (GUEST_MEM / 16)
#define BAR0_DMA        0x100000ull
#define BAR0_BYTES      0x20000u
#define MAX_FRAMES      256     /* per input: keeps one run short */

/* Buffers remembered per unit: four packet-split reads' worth */
#define UNIT_BUFS       16
#define PS_NONE         0xff    /* a one-buffer descriptor */

/*
 * What the shadow knows of one 16-byte unit of guest memory (RDH, RDT
 * and the lengths count 16-byte units in every format; a packet-split
 * descriptor is two).
 */
typedef struct Unit {
    uint16_t rx_posted;      /* hand-overs not yet given back: ownership */
    uint16_t tx_posted;
    bool rx_fetched;         /* read by the device while it owns the unit */
    bool tx_fetched;
    bool rx_done;            /* written back since the last hand-over */
    bool tx_done;
    bool rx_sure;            /* an Rx read of it that no Tx fetch explains */
    bool rx_filled;          /* data placed with RDH at it since its fetch */
    bool listed;             /* in Harness.armed */
    uint8_t nbufs;           /* buffers the Rx reads of this unit gave */
    uint8_t first;           /* of them, the ownership's first read's */
    uint8_t next;            /* the later one to give way when full */
    uint8_t ps_index[UNIT_BUFS]; /* PSRCTL buffer index, or PS_NONE */
    uint64_t buf[UNIT_BUFS];
    uint32_t size[UNIT_BUFS];    /* at the read; the current size counts too */
} Unit;

typedef struct Harness {
    E1000EPPCore *core;
    uint8_t *mem;
    Unit *units;
    int64_t now;
    int64_t timers[E1000E_PP_TIMER_COUNT];
    E1000EPPIrqMode mode;
    uint32_t *armed;         /* units with an Rx read outstanding */
    unsigned narmed;
    uint32_t stats[(R_STATS_END - R_STATS) / 4];
    E1000EPPRxCounters rxstat;
    unsigned queued;
    unsigned frames;         /* offered so far in this run */
    size_t read_len;         /* of the DMA read being noted, whole */
    bool trace;              /* FUZZ_TRACE: every operation and DMA */
    /*
     * The migration invariant (fuzz-core.c): a copy loaded from the
     * saved state runs the rest of the input beside the original, with
     * no shadow of its own; both hash what they do (DMA, interrupts,
     * frames sent, timers, values read) and the hashes must agree.
     */
    bool twin;               /* the loaded copy */
    bool compare;            /* a loaded copy runs: hash the outputs */
    uint64_t out;            /* the outputs since the load, hashed */
    uint64_t nout;           /* how many */
} Harness;

/* A ring as its registers describe it: base, units, head, tail */
typedef struct Ring {
    uint64_t base;
    uint32_t n, head, tail;
} Ring;

/* fuzz-ring.c: the ring at bal as the registers now describe it */
Ring ring_at(Harness *h, uint32_t bal);
/* The unit index of addr in ring g, or ~0u if it is not in it */
uint32_t ring_index(const Ring *g, uint64_t addr);
/* Is addr inside the ring at bal as its registers now describe it? */
bool in_ring(Harness *h, uint64_t addr, uint32_t bal);

/* fuzz-platform.c: the core's callbacks, and the virtual clock */
extern const E1000EPPPlatform harness_platform;
void harness_step_time(Harness *h, int64_t ns);

/* Report a broken invariant and abort (libFuzzer keeps the input). */
void shadow_violation(const char *what, unsigned long long a,
                      unsigned long long b);
/* A register as the guest would read it, without side effects */
uint32_t shadow_reg(Harness *h, uint32_t off);
/* The guest writes val to off (~0u: nothing): note what it hands over */
void shadow_post(Harness *h, uint32_t off, uint32_t val);
/* The platform's DMA callbacks, checking every access */
int shadow_dma_read(void *opaque, uint64_t addr, void *buf, size_t len);
int shadow_dma_write(void *opaque, uint64_t addr, const void *buf,
                     size_t len);
/* One output of the device, into h->out when a loaded copy runs */
void harness_out(Harness *h, char kind, uint64_t v, const void *p,
                 size_t len);
/* Offer one frame and check where it ended */
void shadow_offer(Harness *h, const uint8_t *f, size_t len);
/* Remember the statistics; check them against the last snapshot */
void shadow_snapshot(Harness *h);
void shadow_check_stats(Harness *h);

#endif
