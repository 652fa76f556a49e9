/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest-error and unimplemented-feature messages, one per register and
 * kind, so a guest looping on a bad access cannot flood the host's log.
 */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

void e1000e_pp_log(E1000EPPCore *c, E1000EPPLog kind, uint32_t off,
                   const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    uint8_t bit = 1u << kind;

    if (off < REG_SPACE_BYTES) {
        if (c->obs.logged[off >> 2] & bit) {
            return;
        }
        c->obs.logged[off >> 2] |= bit;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    c->plat->log(c->opaque, kind, msg);
}

/*
 * Measured first with size 0, then written: the length counts what did
 * not fit, and the text stays terminated.
 */
size_t e1000e_pp_text_add(char *buf, size_t size, size_t len,
                          const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
                  fmt, ap);
    va_end(ap);
    return len + (n > 0 ? (size_t)n : 0);
}

void e1000e_pp_event(E1000EPPCore *c, const char *what, uint32_t reg,
                     uint32_t value)
{
    E1000EPPEvent *e = &c->obs.events[c->obs.nevents % E1000E_PP_EVENTS];

    e->ns = c->plat->now_ns(c->opaque);
    e->icount = c->plat->icount ? c->plat->icount(c->opaque) : 0;
    e->what = what;
    e->reg = reg;
    e->value = value;
    c->obs.nevents++;
    if (c->plat->trace_event) {
        c->plat->trace_event(c->opaque, what, reg, value);
    }
}

size_t e1000e_pp_ring_text(char *buf, size_t size, const void *ring,
                           size_t stride, unsigned cap, uint64_t count,
                           E1000EPPTextLine *line)
{
    uint64_t i = count > cap ? count - cap : 0;
    size_t len = 0;

    if (size) {
        buf[0] = '\0';
    }
    for (; i < count; i++) {
        len = line(buf, size, len, (const char *)ring + (i % cap) * stride);
    }
    return len;
}

static size_t event_line(char *buf, size_t size, size_t len,
                         const void *entry)
{
    const E1000EPPEvent *e = entry;

    len = e1000e_pp_text_add(buf, size, len, "%lld %s reg=0x%05x value=0x%08x",
                             (long long)e->ns, e->what, e->reg, e->value);
    if (e->icount) {
        len = e1000e_pp_text_add(buf, size, len, " icount=%llu",
                                 (unsigned long long)e->icount);
    }
    return e1000e_pp_text_add(buf, size, len, "\n");
}

size_t e1000e_pp_events(E1000EPPCore *c, char *buf, size_t size)
{
    return e1000e_pp_ring_text(buf, size, c->obs.events,
                               sizeof(c->obs.events[0]), E1000E_PP_EVENTS,
                               c->obs.nevents, event_line);
}
