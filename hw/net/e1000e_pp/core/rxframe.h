/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A received frame on its way to the ring, as runs of bytes where they
 * lie (shared by rx.c, rxring.c and pktbuf.c).
 */
#ifndef E1000E_PP_RXFRAME_H
#define E1000E_PP_RXFRAME_H

#include "common.h"

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

#endif
