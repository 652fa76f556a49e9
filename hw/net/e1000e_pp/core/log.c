/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest-error and unimplemented-feature messages, one per register and
 * kind, so a guest looping on a bad access cannot flood the host's log.
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

void e1000e_pp_log(E1000EPPCore *c, E1000EPPLog kind, uint32_t off,
                   const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    uint8_t bit = 1u << kind;

    if (off < REG_SPACE_BYTES) {
        if (c->logged[off >> 2] & bit) {
            return;
        }
        c->logged[off >> 2] |= bit;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    c->plat->log(c->opaque, kind, msg);
}
