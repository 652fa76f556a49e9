/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Wake-up (82574L §5.6.3, registers §10.2.8): the filters WUFC enables —
 * link change (LNKC), magic packet (MAG), directed exact (EX), multicast
 * (MC) and broadcast (BC) — record their cause in WUS. In D3hot with
 * PMCSR.PME_En set, a wake event also sets PMCSR.PME_Status (and
 * WUC.PME_Status) through the platform, so the guest's PME path resumes
 * the function; in D0, with WUC.APME, the event only sets WUS.
 */
#include <string.h>

#include "common.h"
#include "eth.h"
#include "log.h"
#include "rxparse.h"
#include "wake.h"

/* Magic packet (§5.6.3.1.1): 6 x 0xFF, then the station address 16 x. */
#define MAGIC_SYNC      6
#define MAGIC_REPEAT    16

static bool wake_armed(E1000EPPCore *c)
{
    if (c->arch.power == E1000E_PP_D3HOT) {
        return c->arch.pme_enabled;
    }
    return REG(c, WUC) & WUC_APME;
}

/* Record a wake cause (a WUS/WUFC bit); signal PME if it wakes. */
bool e1000e_pp_wake_event(E1000EPPCore *c, uint32_t cause)
{
    if (!cause || !(REG(c, WUFC) & cause) || !wake_armed(c)) {
        return false;
    }
    REG(c, WUS) |= cause;
    if (c->arch.power == E1000E_PP_D3HOT) {
        REG(c, WUC) |= WUC_PME_STATUS;
        e1000e_pp_event(c, "pme", WUS, REG(c, WUS));
        if (c->plat->pme) {
            c->plat->pme(c->opaque);
        }
    }
    return true;
}

static bool magic_packet(E1000EPPCore *c, const uint8_t *f, size_t len)
{
    uint8_t mac[ETH_ALEN];
    size_t i, k, r;

    put_le32(mac, REG(c, RAL(0)));
    put_le16(mac + 4, (uint16_t)REG(c, RAH(0)));
    /* Anywhere after the Ethernet header; bounded by the frame. */
    for (i = ETH_HLEN; i + MAGIC_SYNC + MAGIC_REPEAT * ETH_ALEN <= len;
         i++) {
        for (k = 0; k < MAGIC_SYNC && f[i + k] == 0xff; k++) {
            continue;
        }
        if (k < MAGIC_SYNC) {
            continue;
        }
        for (r = 0; r < MAGIC_REPEAT; r++) {
            if (memcmp(f + i + MAGIC_SYNC + r * ETH_ALEN, mac, ETH_ALEN)) {
                break;
            }
        }
        if (r == MAGIC_REPEAT) {
            return true;
        }
    }
    return false;
}

/* Which enabled wake filter a received frame passes (0: none). */
uint32_t e1000e_pp_wake_frame(E1000EPPCore *c, const uint8_t *f, size_t len)
{
    uint32_t wufc = REG(c, WUFC);

    if (len < ETH_HLEN) {
        return 0;
    }
    if ((wufc & WUFC_MAG) && magic_packet(c, f, len)) {
        return WUFC_MAG;
    }
    if (eth_is_broadcast(f)) {
        return wufc & WUFC_BC;
    }
    if (f[0] & 1) {
        return (wufc & WUFC_MC) && e1000e_pp_rx_address_match(c, f) ?
               WUFC_MC : 0;
    }
    return (wufc & WUFC_EX) && e1000e_pp_rx_address_match(c, f) ?
           WUFC_EX : 0;
}

void e1000e_pp_pme_enable(E1000EPPCore *c, bool enabled)
{
    c->arch.pme_enabled = enabled;
}
