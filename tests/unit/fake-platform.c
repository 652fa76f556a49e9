/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-platform.h"

static int fake_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Fake *f = opaque;

    if (f->fail_dma || addr >= f->mem_bytes || len > f->mem_bytes - addr) {
        return -1;
    }
    memcpy(buf, f->mem + addr, len);
    return 0;
}

static int fake_dma_write(void *opaque, uint64_t addr, const void *buf,
                          size_t len)
{
    Fake *f = opaque;

    if (f->fail_dma || addr >= f->mem_bytes || len > f->mem_bytes - addr) {
        return -1;
    }
    memcpy(f->mem + addr, buf, len);
    f->last_write_addr = addr;
    f->last_write_len = len;
    if (f->dma_hits_bar0 >= 0) {
        e1000e_pp_write(f->core, (uint32_t)f->dma_hits_bar0, 0xffffffff);
    }
    return 0;
}

static E1000EPPIrqMode fake_irq_mode(void *opaque)
{
    return ((Fake *)opaque)->mode;
}

static void fake_set_intx(void *opaque, int level)
{
    Fake *f = opaque;

    f->intx_raises += level && !f->intx;
    f->intx = level;
}

static void fake_notify(void *opaque, unsigned vector)
{
    ((Fake *)opaque)->vector_count[vector]++;
}

static void fake_send(void *opaque, const uint8_t *frame, size_t len)
{
    Fake *f = opaque;

    if (f->nframes < FAKE_MAX_FRAMES) {
        memcpy(f->frames[f->nframes].data, frame, len);
        f->frames[f->nframes].len = len;
        f->nframes++;
    }
}

static void fake_rx_ready(void *opaque)
{
    ((Fake *)opaque)->rx_ready_calls++;
}

static int64_t fake_now(void *opaque)
{
    return ((Fake *)opaque)->now;
}

static void fake_arm(void *opaque, E1000EPPTimer t, int64_t expire)
{
    ((Fake *)opaque)->timers[t] = expire;
}

static void fake_cancel(void *opaque, E1000EPPTimer t)
{
    ((Fake *)opaque)->timers[t] = -1;
}

static void fake_log(void *opaque, E1000EPPLog kind, const char *msg)
{
    Fake *f = opaque;

    f->logs++;
    f->last_log_kind = kind;
    snprintf(f->last_log, sizeof(f->last_log), "%s", msg);
    if (getenv("UNIT_VERBOSE")) {
        fprintf(stderr, "# log %d: %s\n", kind, msg);
    }
}

static void fake_trace_pm(void *opaque, unsigned from, unsigned to)
{
    ((Fake *)opaque)->pm_traces++;
}

static void fake_pme(void *opaque)
{
    ((Fake *)opaque)->pme_signals++;
}

static uint64_t fake_icount(void *opaque)
{
    return ((Fake *)opaque)->icount;
}

const E1000EPPPlatform fake_platform = {
    .dma_read = fake_dma_read,
    .dma_write = fake_dma_write,
    .irq_mode = fake_irq_mode,
    .set_intx = fake_set_intx,
    .notify = fake_notify,
    .send = fake_send,
    .rx_ready = fake_rx_ready,
    .now_ns = fake_now,
    .timer_arm = fake_arm,
    .timer_cancel = fake_cancel,
    .log = fake_log,
    .trace_pm = fake_trace_pm,
    .pme = fake_pme,
    .icount = fake_icount,
};

Fake *fake_new(void)
{
    static const E1000EPPConfig cfg = {
        .mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
    };

    return fake_new_config(&cfg);
}

Fake *fake_new_config(const E1000EPPConfig *cfg)
{
    return fake_new_on(cfg, &fake_platform, FAKE_MEM_BYTES);
}

Fake *fake_new_on(const E1000EPPConfig *cfg, const E1000EPPPlatform *plat,
                  size_t mem_bytes)
{
    Fake *f = calloc(1, sizeof(*f));
    int i;

    if (!f) {
        return NULL;
    }
    f->mem = calloc(1, mem_bytes);
    f->mem_bytes = mem_bytes;
    f->frames = calloc(FAKE_MAX_FRAMES, sizeof(FakeFrame));
    f->core = calloc(1, sizeof(*f->core));
    if (!f->mem || !f->frames || !f->core) {
        fake_free(f);
        return NULL;
    }
    for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
        f->timers[i] = -1;
    }
    f->dma_hits_bar0 = -1;
    e1000e_pp_core_init(f->core, plat, f, cfg);
    return f;
}

void fake_free(Fake *f)
{
    free(f->core);
    free(f->frames);
    free(f->mem);
    free(f);
}

void fake_step(Fake *f, int64_t ns)
{
    int64_t end = f->now + ns;

    for (;;) {
        int i, next = -1;
        for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
            if (f->timers[i] >= 0 && f->timers[i] <= end &&
                (next < 0 || f->timers[i] < f->timers[next])) {
                next = i;
            }
        }
        if (next < 0) {
            break;
        }
        if (f->timers[next] > f->now) {
            f->now = f->timers[next];
        }
        f->timers[next] = -1;
        e1000e_pp_timer_fired(f->core, next);
    }
    f->now = end;
}

uint32_t rd(Fake *f, uint32_t off)
{
    return e1000e_pp_read(f->core, off);
}

void wr(Fake *f, uint32_t off, uint32_t val)
{
    e1000e_pp_write(f->core, off, val);
}

Fake *fake_migrate(Fake *f, char *err, size_t size)
{
    Fake *g = fake_new_on(&f->core->cfg, f->core->plat, f->mem_bytes);
    unsigned i;

    memcpy(g->mem, f->mem, f->mem_bytes);
    g->now = f->now;
    g->mode = f->mode;
    g->intx = f->intx;
    g->intx_raises = f->intx_raises;
    memcpy(g->vector_count, f->vector_count, sizeof(g->vector_count));
    for (i = 0; i < f->nframes; i++) {
        g->frames[i] = f->frames[i];
    }
    g->nframes = f->nframes;
    g->fail_dma = f->fail_dma;
    g->dma_hits_bar0 = f->dma_hits_bar0;
    e1000e_pp_state_presave(f->core);
    g->core->arch = f->core->arch;
    g->core->saved = f->core->saved;
    g->core->work = f->core->work;
    if (e1000e_pp_state_postload(g->core, err, size)) {
        fake_free(g);
        return NULL;
    }
    return g;
}

bool fake_same(const Fake *a, const Fake *b)
{
    unsigned i;

    if (a->mem_bytes != b->mem_bytes ||
        memcmp(a->mem, b->mem, a->mem_bytes) ||
        memcmp(&a->core->arch, &b->core->arch, sizeof(a->core->arch)) ||
        memcmp(a->timers, b->timers, sizeof(a->timers)) ||
        a->intx != b->intx || a->intx_raises != b->intx_raises ||
        memcmp(a->vector_count, b->vector_count, sizeof(a->vector_count)) ||
        a->nframes != b->nframes) {
        return false;
    }
    for (i = 0; i < a->nframes; i++) {
        if (a->frames[i].len != b->frames[i].len ||
            memcmp(a->frames[i].data, b->frames[i].data, a->frames[i].len)) {
            return false;
        }
    }
    return true;
}
