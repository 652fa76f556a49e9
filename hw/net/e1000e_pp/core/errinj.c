/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame errors (82574L §7.1.4 receive errors, §10.2.5.1 RCTL.SBP,
 * §10.2.7 statistics): a netdev never delivers a bad frame, so a test
 * asks for one. The next N frames from the wire carry a CRC error, a
 * symbol error, an Rx data error (the PHY's RX_ER) or are made longer
 * than RCTL.LPE allows. Without RCTL.SBP a frame with an error is
 * dropped and counted (CRCERRS, SYMERRS, RXERRC); with SBP it is stored
 * with its error bit in the descriptor. SBP also stores frames longer
 * than the LPE limit, which ROC counts either way.
 */
#include <string.h>

#include "common.h"
#include "errinj.h"
#include "eth.h"
#include "log.h"
#include "stats.h"
#include "coverage.h"

/* Legacy RDESC.ERRORS bits (§7.1.4.1); extended: the same in 31:24. */
#define RXD_ERR_CE      (1u << 0)
#define RXD_ERR_SE      (1u << 1)
#define RXD_ERR_RXE     (1u << 7)


static const char *const kind_name[E1000E_PP_RXERR_KINDS] = {
    [E1000E_PP_RXERR_CRC] = "x-rx-error-crc",
    [E1000E_PP_RXERR_SYMBOL] = "x-rx-error-symbol",
    [E1000E_PP_RXERR_DATA] = "x-rx-error-data",
    [E1000E_PP_RXERR_OVERSIZE] = "x-rx-error-oversize",
};

const char *e1000e_pp_rx_error_name(E1000EPPRxErr kind)
{
    return kind > E1000E_PP_RXERR_NONE && kind < E1000E_PP_RXERR_KINDS ?
           kind_name[kind] : NULL;
}

void e1000e_pp_knob_rx_error(E1000EPPCore *c, E1000EPPRxErr kind,
                             uint32_t frames)
{
    if (kind <= E1000E_PP_RXERR_NONE || kind >= E1000E_PP_RXERR_KINDS) {
        return;
    }
    c->errinj.pending[kind] = frames;
    e1000e_pp_event(c, kind_name[kind], RCTL, frames);
}

uint32_t e1000e_pp_rx_error_pending(E1000EPPCore *c, E1000EPPRxErr kind)
{
    if (kind <= E1000E_PP_RXERR_NONE || kind >= E1000E_PP_RXERR_KINDS) {
        return 0;
    }
    return c->errinj.pending[kind];
}

/*
 * The frame the MAC takes next: the first pending kind (in the order of
 * E1000EPPRxErr) marks it. An oversize frame is copied and padded with
 * zeros to one byte past the limit, its FCS computed over the padding.
 */
const uint8_t *e1000e_pp_errinj_begin(E1000EPPCore *c, const uint8_t *frame,
                                      size_t *len)
{
    E1000EPPErrInj *e = &c->errinj;
    size_t want;
    bool tagged;
    unsigned k;

    e->active = E1000E_PP_RXERR_NONE;
    for (k = E1000E_PP_RXERR_CRC; k < E1000E_PP_RXERR_KINDS; k++) {
        if (e->pending[k]) {
            e->pending[k]--;
            e->active = k;
            e1000e_pp_cover(c, SIT_ERR_CRC + k - E1000E_PP_RXERR_CRC);
            break;
        }
    }
    if (e->active != E1000E_PP_RXERR_OVERSIZE || *len < ETH_HLEN) {
        return frame;
    }
    tagged = *len >= ETH_HLEN + VLAN_HLEN &&
             get_be16(frame + 12) == (REG(c, VET) & 0xffff);
    want = e1000e_pp_rx_max_frame(c, tagged) + 1 - ETH_FCS_LEN;
    if (*len >= want) {
        return frame;           /* already too long */
    }
    memcpy(e->frame, frame, *len);
    memset(e->frame + *len, 0, want - *len);
    *len = want;
    return e->frame;
}

/* The frame was not taken (back-pressure): its error waits for the next. */
void e1000e_pp_errinj_end(E1000EPPCore *c, bool taken)
{
    E1000EPPErrInj *e = &c->errinj;

    if (!taken && e->active != E1000E_PP_RXERR_NONE) {
        e->pending[e->active]++;
    }
    e->active = E1000E_PP_RXERR_NONE;
}

/* RDESC.ERRORS bits of the frame being received. */
uint32_t e1000e_pp_errinj_bits(E1000EPPCore *c)
{
    switch (c->errinj.active) {
    case E1000E_PP_RXERR_CRC:
        return RXD_ERR_CE;
    case E1000E_PP_RXERR_SYMBOL:
        return RXD_ERR_SE;
    case E1000E_PP_RXERR_DATA:
        return RXD_ERR_RXE;
    default:
        return 0;
    }
}

/* What the stored FCS is XORed with: every bit wrong for a CRC error. */
uint32_t e1000e_pp_errinj_fcs(E1000EPPCore *c)
{
    return c->errinj.active == E1000E_PP_RXERR_CRC ? UINT32_MAX : 0;
}

/*
 * A frame that passed the filters has an error: its counter moves
 * whether or not it is stored (CRCERRS counts frames that pass address
 * filtering, §10.2.7.1). True when RCTL.SBP is clear: drop it.
 */
bool e1000e_pp_errinj_drop(E1000EPPCore *c)
{
    static const uint32_t stat[E1000E_PP_RXERR_KINDS] = {
        [E1000E_PP_RXERR_CRC] = CRCERRS,
        [E1000E_PP_RXERR_SYMBOL] = SYMERRS,
        [E1000E_PP_RXERR_DATA] = RXERRC,
    };
    E1000EPPRxErr k = c->errinj.active;

    if (!stat[k]) {
        return false;
    }
    e1000e_pp_stat_inc(c, stat[k]);
    return !(REG(c, RCTL) & RCTL_SBP);
}

/*
 * A frame longer than the LPE limit passed the filters: ROC and RLEC
 * count it (§10.2.7); RCTL.SBP stores it, up to 16 KB.
 */
bool e1000e_pp_rx_keep_long(E1000EPPCore *c, size_t wire_len)
{
    e1000e_pp_stat_inc(c, ROC);
    e1000e_pp_stat_inc(c, RLEC);
    if ((REG(c, RCTL) & RCTL_SBP) && wire_len <= E1000E_PP_SBP_MAX_FRAME) {
        c->obs.rxstat.long_stored++;
        return true;
    }
    return false;
}
