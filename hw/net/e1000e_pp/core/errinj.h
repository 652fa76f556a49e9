/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame errors (errinj.c): the error-injection knobs, what RCTL.SBP
 * stores, and the longest frame RCTL.LPE lets in.
 */
#ifndef E1000E_PP_ERRINJ_H
#define E1000E_PP_ERRINJ_H

#include "common.h"
#include "eth.h"

/*
 * errinj.c: frame errors and RCTL.SBP. rx.c brackets a frame from the
 * wire with begin/end and asks about the frame in between.
 */
const uint8_t *e1000e_pp_errinj_begin(E1000EPPCore *c, const uint8_t *frame,
                                      size_t *len);

/* Some frame error is still to be put on a frame. */
static inline bool e1000e_pp_errinj_armed(E1000EPPCore *c)
{
    const E1000EPPErrInj *e = &c->errinj;

    _Static_assert(E1000E_PP_RXERR_KINDS == E1000E_PP_RXERR_OVERSIZE + 1,
                   "every kind is named below");
    return e->pending[E1000E_PP_RXERR_CRC] |
           e->pending[E1000E_PP_RXERR_SYMBOL] |
           e->pending[E1000E_PP_RXERR_DATA] |
           e->pending[E1000E_PP_RXERR_OVERSIZE];
}
void e1000e_pp_errinj_end(E1000EPPCore *c, bool taken);
uint32_t e1000e_pp_errinj_bits(E1000EPPCore *c);
uint32_t e1000e_pp_errinj_fcs(E1000EPPCore *c);
bool e1000e_pp_errinj_drop(E1000EPPCore *c);
bool e1000e_pp_rx_keep_long(E1000EPPCore *c, size_t wire_len);

/* Long packets: RCTL.LPE=0 takes 1518 bytes with FCS, 1522 when tagged. */
#define MAX_STD_FRAME   1518

static inline size_t e1000e_pp_rx_max_frame(E1000EPPCore *c, bool tagged)
{
    size_t max = (REG(c, RCTL) & RCTL_LPE) ? E1000E_PP_MAX_LONG_FRAME :
                                             MAX_STD_FRAME;

    return max + (tagged ? VLAN_HLEN : 0);
}

#endif
