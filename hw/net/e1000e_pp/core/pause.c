/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Received flow control (IEEE 802.3 Annex 31B, 82574L §3.7.5): a PAUSE
 * frame — addressed to FCAH:FCAL (01:80:C2:00:00:01 as Linux programs
 * it), of type FCT (0x8808), opcode 0x0001 — stops our transmitter for
 * its pause time when CTRL.RFCE is set. STATUS.TXOFF shows the pause; a
 * pause time of 0 (XON) ends it early. RCTL.DPF keeps PAUSE frames from
 * the host. Sending XOFF/XON is pktbuf.c's.
 */
#include "common.h"
#include "eth.h"
#include "pause.h"
#include "stats.h"
#include "work.h"

#define MAC_CONTROL_PAUSE   0x0001
/* One pause quantum is 512 bit times: 512 ns at 1000 Mb/s. */
#define PAUSE_QUANTUM_NS    512

/* Is this a PAUSE frame the MAC recognises? */
static bool pause_frame(E1000EPPCore *c, const uint8_t *f, size_t len)
{
    return len >= ETH_HLEN + 4 &&
           get_le32(f) == REG(c, FCAL) &&
           get_le16(f + 4) == (REG(c, FCAH) & 0xffff) &&
           get_be16(f + 12) == (REG(c, FCT) & 0xffff) &&
           get_be16(f + 14) == MAC_CONTROL_PAUSE;
}

/*
 * Act on a received PAUSE frame; true when the frame is consumed (DPF),
 * false when it goes on through the receive filters like any other.
 */
bool e1000e_pp_pause_received(E1000EPPCore *c, const uint8_t *f, size_t len)
{
    uint16_t quanta;

    if (!(REG(c, CTRL) & CTRL_RFCE) || !pause_frame(c, f, len)) {
        return false;
    }
    quanta = get_be16(f + 16);
    e1000e_pp_stat_inc(c, quanta ? XOFFRXC : XONRXC);
    if (quanta) {
        c->arch.tx_paused = true;
        REG(c, STATUS) |= STATUS_TXOFF;
        e1000e_pp_arm(c, E1000E_PP_TIMER_PAUSE,
                      (int64_t)quanta * PAUSE_QUANTUM_NS);
    } else {
        e1000e_pp_disarm(c, E1000E_PP_TIMER_PAUSE);
        e1000e_pp_pause_expired(c);
    }
    return REG(c, RCTL) & RCTL_DPF;
}

void e1000e_pp_pause_expired(E1000EPPCore *c)
{
    c->arch.tx_paused = false;
    REG(c, STATUS) &= ~STATUS_TXOFF;
    e1000e_pp_schedule(c, WORK_TX);
}
