/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A platform for the e1000e-pp core without QEMU: flat guest memory, a
 * virtual clock stepped by the test, an INTx line, MSI-X counters and a
 * capture of transmitted frames.
 */
#ifndef FAKE_PLATFORM_H
#define FAKE_PLATFORM_H

#include "core.h"

#define FAKE_MEM_BYTES   (4u << 20)
#define FAKE_MAX_FRAMES  64

typedef struct FakeFrame {
    uint8_t data[E1000E_PP_TX_BUF_BYTES];
    size_t len;
} FakeFrame;

typedef struct Fake {
    E1000EPPCore *core;     /* its own allocation, so ASan sees past it */
    uint8_t *mem;           /* guest memory at address 0 */
    size_t mem_bytes;       /* FAKE_MEM_BYTES unless fake_new_on said */
    int64_t now;
    int64_t timers[E1000E_PP_TIMER_COUNT];      /* -1: not armed */
    E1000EPPIrqMode mode;
    int intx;
    unsigned intx_raises;       /* low-to-high transitions of the line */
    unsigned vector_count[E1000E_PP_MSIX_VECTORS];
    FakeFrame *frames;
    unsigned nframes;
    unsigned rx_ready_calls;
    unsigned logs;
    E1000EPPLog last_log_kind;
    char last_log[200];         /* the last message, cut to fit */
    int fail_dma;
    /* A DMA write also writes this BAR0 offset (DMA aimed at BAR0). */
    int64_t dma_hits_bar0;
    unsigned pm_traces;
    unsigned pme_signals;       /* PMCSR.PME_Status set by a wake event */
    uint64_t last_write_addr;   /* the last DMA write that landed */
    size_t last_write_len;
    uint64_t icount;            /* the instruction count of record/replay */
} Fake;

/* The callbacks, for a user that replaces some (tests/bench). */
extern const E1000EPPPlatform fake_platform;

/* fake_new with the host's configuration (device properties) given. */
Fake *fake_new_config(const E1000EPPConfig *cfg);
/* The same on the callbacks plat (opaque: the Fake) and mem_bytes of memory */
Fake *fake_new_on(const E1000EPPConfig *cfg, const E1000EPPPlatform *plat,
                  size_t mem_bytes);

Fake *fake_new(void);
void fake_free(Fake *f);
/* Advance the virtual clock, firing due timers in order. */
void fake_step(Fake *f, int64_t ns);
uint32_t rd(Fake *f, uint32_t off);
/*
 * Migrate: save f's architectural state, load it into a fresh core with
 * f's guest memory, clock and line; NULL (err says why) if refused.
 */
Fake *fake_migrate(Fake *f, char *err, size_t size);
/* Everything the guest can see is the same: memory, state, lines, wire. */
bool fake_same(const Fake *a, const Fake *b);
void wr(Fake *f, uint32_t off, uint32_t val);

#endif
