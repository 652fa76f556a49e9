/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The on-chip Rx packet buffer (pktbuf.c, PBA.RXA): a frame's
 * charge, room for it, the FIFO of held frames.
 */
#ifndef E1000E_PP_PKTBUF_H
#define E1000E_PP_PKTBUF_H

#include "rxframe.h"

/* pktbuf.c; the charge per frame (core.h) is asked for every frame */
static inline uint32_t e1000e_pp_pktbuf_charge(size_t wire_len)
{
    return (uint32_t)((wire_len + E1000E_PP_PKTBUF_UNIT - 1) &
                      ~(size_t)(E1000E_PP_PKTBUF_UNIT - 1)) +
           E1000E_PP_PKTBUF_STATUS;
}
static inline bool e1000e_pp_pktbuf_room(E1000EPPCore *c, size_t wire_len)
{
    uint32_t rxa = REG(c, PBA) & PBA_RXA_MASK;

    return c->arch.pktbuf.count < E1000E_PP_PKTBUF_FRAMES &&
           c->arch.pktbuf.used + e1000e_pp_pktbuf_charge(wire_len) <=
           (rxa > PBA_TOTAL_KB ? PBA_TOTAL_KB : rxa) * 1024;
}
static inline bool e1000e_pp_pktbuf_empty(E1000EPPCore *c)
{
    return c->arch.pktbuf.count == 0;
}
void e1000e_pp_pktbuf_push(E1000EPPCore *c, const RxFrame *fr,
                           size_t wire_len, uint32_t done);
bool e1000e_pp_pktbuf_peek(E1000EPPCore *c, RxFrame *fr, uint32_t **done);
void e1000e_pp_pktbuf_pop(E1000EPPCore *c);
void e1000e_pp_pktbuf_reset(E1000EPPCore *c);

#endif
