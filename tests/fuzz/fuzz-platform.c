/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fuzz targets' platform: the core's callbacks (DMA goes through the
 * shadow, fuzz-shadow.c), the virtual clock, and the hash of the
 * device's outputs that the migration invariant compares (fuzz-core.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-shadow.h"

static E1000EPPIrqMode h_irq_mode(void *opaque)
{
    return ((Harness *)opaque)->mode;
}

/*
 * 64-bit FNV-1a over a tag, a value and bytes, 8 at a time: the loaded
 * copy's outputs must hash as the original's do.
 */
void harness_out(Harness *h, char kind, uint64_t v, const void *p,
                 size_t len)
{
    const uint64_t prime = 0x100000001b3ull;
    uint64_t x = h->out;
    size_t i;

    x = (x ^ (uint8_t)kind) * prime;
    x = (x ^ v) * prime;
    x = (x ^ len) * prime;
    for (i = 0; p && i < len; i += 8) {
        uint64_t w = 0;

        memcpy(&w, (const uint8_t *)p + i, len - i < 8 ? len - i : 8);
        x = (x ^ w) * prime;
    }
    h->out = x;
    h->nout++;
    if (h->trace) {
        fprintf(stderr, "%s out %c 0x%llx+%zu #%llu\n",
                h->twin ? "loaded" : "source", kind, (unsigned long long)v,
                len, (unsigned long long)h->nout);
    }
}

static void h_set_intx(void *opaque, int level)
{
    Harness *h = opaque;

    if (h->compare) {
        harness_out(h, 'i', level, NULL, 0);
    }
}

static void h_notify(void *opaque, unsigned vector)
{
    Harness *h = opaque;

    if (vector >= E1000E_PP_MSIX_VECTORS) {
        shadow_violation("MSI-X vector out of range", vector, 0);
    }
    if (h->compare) {
        harness_out(h, 'm', vector, NULL, 0);
    }
}

static void h_send(void *opaque, const uint8_t *frame, size_t len)
{
    Harness *h = opaque;

    if (len > E1000E_PP_TX_BUF_BYTES) {
        shadow_violation("frame longer than the Tx buffer", len, 0);
    }
    if (h->compare) {
        harness_out(h, 's', 0, frame, len);
    }
}

static void h_rx_ready(void *opaque)
{
    Harness *h = opaque;

    if (h->compare) {
        harness_out(h, 'q', 0, NULL, 0);
    }
}

static int64_t h_now(void *opaque)
{
    return ((Harness *)opaque)->now;
}

static void h_arm(void *opaque, E1000EPPTimer t, int64_t expire)
{
    Harness *h = opaque;

    h->timers[t] = expire;
    if (h->compare) {
        harness_out(h, 't', (uint64_t)t << 56 ^ (uint64_t)expire, NULL, 0);
    }
}

static void h_cancel(void *opaque, E1000EPPTimer t)
{
    Harness *h = opaque;

    h->timers[t] = -1;
    if (h->compare) {
        harness_out(h, 'c', t, NULL, 0);
    }
}

static void h_log(void *opaque, E1000EPPLog kind, const char *msg)
{
    if (getenv("FUZZ_VERBOSE")) {
        fprintf(stderr, "log %d: %s\n", kind, msg);
    }
}

const E1000EPPPlatform harness_platform = {
    .dma_read = shadow_dma_read,
    .dma_write = shadow_dma_write,
    .irq_mode = h_irq_mode,
    .set_intx = h_set_intx,
    .notify = h_notify,
    .send = h_send,
    .rx_ready = h_rx_ready,
    .now_ns = h_now,
    .timer_arm = h_arm,
    .timer_cancel = h_cancel,
    .log = h_log,
};

void harness_step_time(Harness *h, int64_t ns)
{
    int64_t end = h->now + ns;
    unsigned fired = 0;

    for (;;) {
        int i, next = -1;

        for (i = 0; i < E1000E_PP_TIMER_COUNT; i++) {
            if (h->timers[i] >= 0 && h->timers[i] <= end &&
                (next < 0 || h->timers[i] < h->timers[next])) {
                next = i;
            }
        }
        if (next < 0) {
            break;
        }
        if (++fired > 100000) {
            shadow_violation("timers keep firing without time passing",
                             next, 0);
        }
        if (h->timers[next] > h->now) {
            h->now = h->timers[next];
        }
        h->timers[next] = -1;
        e1000e_pp_timer_fired(h->core, next);
    }
    h->now = end;
}
