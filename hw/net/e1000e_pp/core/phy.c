/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The integrated BM PHY (82574L §8.4, PHY registers §10.4) reached
 * through MDIC, and the copper link it resolves.
 *
 * Registers 0-15 are the IEEE set, shared by every page; 16-31 (except
 * 22, the page select) belong to the page written last to register 22.
 * The driver relies on that split: e1000e_read_phy_reg_bm2 only writes
 * the page select for registers above 15.
 */
#include <string.h>

#include "common.h"
#include "coverage.h"
#include "intr.h"
#include "log.h"
#include "phy.h"
#include "wake.h"
#include "work.h"

#define PHY_ADDR            1       /* §8.4: the only address on MDIO */

#define MII_BMCR            0
#define   BMCR_SPEED1000    (1u << 6)
#define   BMCR_FULLDPLX     (1u << 8)
#define   BMCR_ANRESTART    (1u << 9)
#define   BMCR_ISOLATE      (1u << 10)
#define   BMCR_PDOWN        (1u << 11)
#define   BMCR_ANENABLE     (1u << 12)
#define   BMCR_SPEED100     (1u << 13)
#define   BMCR_LOOPBACK     (1u << 14)
#define   BMCR_RESET        (1u << 15)
#define MII_BMSR            1
#define   BMSR_LSTATUS      (1u << 2)
#define   BMSR_ANEGCOMPLETE (1u << 5)
#define MII_PHYSID1         2
#define MII_PHYSID2         3
#define MII_ADVERTISE       4
#define MII_LPA             5
#define MII_EXPANSION       6
#define MII_NPAGE           7
#define MII_CTRL1000        9
#define MII_STAT1000        10
#define MII_ESTATUS         15
#define PHY_SPEC_CTRL       16
#define PHY_SPEC_STATUS     17
#define   PSSR_LINK         (1u << 10)
#define   PSSR_RESOLVED     (1u << 11)
#define   PSSR_DPLX         (1u << 13)
#define   PSSR_1000MBS      (2u << 14)
#define PHY_PAGE_SELECT     22

/* §10.4: power-on values of the IEEE registers. */
#define BMCR_DEFAULT    (BMCR_ANENABLE | BMCR_FULLDPLX | BMCR_SPEED1000)
/* 10/100 half/full, extended status, preamble suppression, AN able. */
#define BMSR_DEFAULT    0x7949
/* Link partner: 10/100 half/full, symmetric pause, acknowledge. */
#define LPA_RESOLVED    0x45e1
/* Local and remote receiver OK, partner 1000BASE-T full and half. */
#define STAT1000_RESOLVED 0x3c00

/*
 * Auto-negotiation time. 802.3 clause 28 plus 1000BASE-T master/slave
 * resolution takes seconds on real copper; the model uses a short,
 * fixed, virtual-time interval so tests and boots stay quick.
 */
#define AUTONEG_NS      (500LL * 1000 * 1000)

static uint16_t *phy_reg(E1000EPPCore *c, unsigned reg)
{
    if (reg < 16 || reg == PHY_PAGE_SELECT) {
        return &c->arch.phy[reg];
    }
    return &c->arch.phy_paged[c->arch.phy_page][reg - 16];
}

bool e1000e_pp_phy_loopback(E1000EPPCore *c)
{
    return (c->arch.phy[MII_BMCR] & (BMCR_LOOPBACK | BMCR_PDOWN)) ==
           BMCR_LOOPBACK;
}

/* A partner on the wire: the netdev's carrier, unless the knob cut it. */
static bool wire_present(E1000EPPCore *c)
{
    return c->arch.wire_up && !c->arch.link_knob_down;
}

/* The PHY's own view of the link (BMSR). */
static bool phy_link(E1000EPPCore *c)
{
    return wire_present(c) && !(c->arch.phy[MII_BMCR] & BMCR_PDOWN) &&
           !c->arch.autoneg_running && (c->arch.phy[MII_BMSR] & BMSR_LSTATUS);
}

/*
 * The MAC's link (STATUS.LU): it recognises the PHY's link indication
 * only with CTRL.SLU set (82575 SDM §9.3.2.1, the same MAC family: "Software
 * must have set the Set Link Up bit ... before the MAC recognizes the
 * LINK indication from the PHY"). In loopback the PHY reports link to
 * the MAC without a partner.
 */
bool e1000e_pp_link_up(E1000EPPCore *c)
{
    if (e1000e_pp_phy_loopback(c)) {
        return true;
    }
    return (REG(c, CTRL) & CTRL_SLU) && phy_link(c);
}

/*
 * ICR.LSC on every change of STATUS.LU. Compared against the
 * state last reported, so callers may change the inputs first.
 */
void e1000e_pp_link_report(E1000EPPCore *c)
{
    bool up = e1000e_pp_link_up(c);

    if (up == c->arch.link_reported) {
        return;
    }
    c->arch.link_reported = up;
    e1000e_pp_cover_link(c);
    e1000e_pp_raise(c, ICR_LSC);
    /* WUFC.LNKC: what Linux arms before it runtime-suspends. */
    e1000e_pp_wake_event(c, WUFC_LNKC);
    if (up) {
        /* Rings held while the link was down may go on. */
        e1000e_pp_schedule(c, WORK_ENGINES);
    }
}

static void link_set(E1000EPPCore *c, bool up)
{
    if (up) {
        c->arch.phy[MII_BMSR] |= BMSR_LSTATUS | BMSR_ANEGCOMPLETE;
        c->arch.phy[MII_LPA] = LPA_RESOLVED;
        c->arch.phy[MII_EXPANSION] = 0x0005;
        c->arch.phy[MII_STAT1000] = STAT1000_RESOLVED;
        c->arch.phy_paged[0][PHY_SPEC_STATUS - 16] =
            PSSR_1000MBS | PSSR_DPLX | PSSR_RESOLVED | PSSR_LINK;
    } else {
        c->arch.phy[MII_BMSR] &= ~(BMSR_LSTATUS | BMSR_ANEGCOMPLETE);
        c->arch.phy[MII_LPA] = 0;
        c->arch.phy[MII_EXPANSION] = 0;
        c->arch.phy[MII_STAT1000] = 0;
        c->arch.phy_paged[0][PHY_SPEC_STATUS - 16] = 0;
    }
    e1000e_pp_link_report(c);
}

/* Take the link down and, if anything can bring it up, start over. */
static void link_restart(E1000EPPCore *c)
{
    c->arch.autoneg_running = false;
    e1000e_pp_disarm(c, E1000E_PP_TIMER_LINK);
    link_set(c, false);
    if (e1000e_pp_phy_loopback(c)) {
        link_set(c, true);
        return;
    }
    if (!wire_present(c) || (c->arch.phy[MII_BMCR] & BMCR_PDOWN)) {
        return;
    }
    if (c->arch.phy[MII_BMCR] & BMCR_ANENABLE) {
        c->arch.autoneg_running = true;
        e1000e_pp_arm(c, E1000E_PP_TIMER_LINK, AUTONEG_NS);
    } else {
        link_set(c, true);
    }
}

void e1000e_pp_link_autoneg_done(E1000EPPCore *c)
{
    if (!c->arch.autoneg_running) {
        return;
    }
    c->arch.autoneg_running = false;
    link_set(c, wire_present(c) && !(c->arch.phy[MII_BMCR] & BMCR_PDOWN));
}

/* The netdev's carrier changed. */
void e1000e_pp_phy_wire(E1000EPPCore *c, bool up)
{
    if (c->arch.wire_up == up) {
        return;
    }
    c->arch.wire_up = up;
    link_restart(c);
}

/* The link knob cut or restored the partner: negotiate again. */
void e1000e_pp_phy_relink(E1000EPPCore *c)
{
    link_restart(c);
}

void e1000e_pp_phy_reset(E1000EPPCore *c)
{
    memset(c->arch.phy, 0, sizeof(c->arch.phy));
    memset(c->arch.phy_paged, 0, sizeof(c->arch.phy_paged));
    c->arch.phy_page = 0;
    c->arch.phy[MII_BMCR] = BMCR_DEFAULT;
    c->arch.phy[MII_BMSR] = BMSR_DEFAULT;
    /* BME1000_E_PHY_ID_R2: the only id the driver accepts for an 82574. */
    c->arch.phy[MII_PHYSID1] = 0x0141;
    c->arch.phy[MII_PHYSID2] = 0x0cb1;
    c->arch.phy[MII_ADVERTISE] = 0x0de1;
    c->arch.phy[MII_NPAGE] = 0x2001;
    c->arch.phy[MII_CTRL1000] = 0x0300;
    c->arch.phy[MII_ESTATUS] = 0x3000;
    c->arch.phy_paged[0][PHY_SPEC_CTRL - 16] = 0x0060;
    /* Power-on: the PHY negotiates with whatever is on the wire. */
    c->arch.autoneg_running = false;
    link_restart(c);
}

static void bmcr_write(E1000EPPCore *c, uint16_t val)
{
    uint16_t old = c->arch.phy[MII_BMCR];
    bool restart;

    /* RESET and ANRESTART are self-clearing (IEEE 802.3 clause 22). */
    c->arch.phy[MII_BMCR] = val & ~(BMCR_RESET | BMCR_ANRESTART);

    if (val & BMCR_ISOLATE) {
        e1000e_pp_log(c, E1000E_PP_LOG_UNIMP, MDIC,
                      "PHY BMCR 0x%04x: isolate not modelled", val);
    }
    restart = (val & (BMCR_RESET | BMCR_ANRESTART)) ||
              ((old ^ val) & (BMCR_PDOWN | BMCR_ANENABLE | BMCR_LOOPBACK));
    if (restart) {
        link_restart(c);
    }
}

static uint16_t phy_read(E1000EPPCore *c, unsigned reg)
{
    uint16_t v = *phy_reg(c, reg);

    if (reg == MII_BMSR && !phy_link(c) && !e1000e_pp_phy_loopback(c)) {
        v &= ~BMSR_LSTATUS;
    }
    return v;
}

static void phy_write(E1000EPPCore *c, unsigned reg, uint16_t val)
{
    switch (reg) {
    case MII_BMCR:
        bmcr_write(c, val);
        break;
    case MII_BMSR:
    case MII_PHYSID1:
    case MII_PHYSID2:
    case MII_LPA:
    case MII_EXPANSION:
    case MII_STAT1000:
    case MII_ESTATUS:
        break;      /* read-only */
    case PHY_PAGE_SELECT:
        c->arch.phy[PHY_PAGE_SELECT] = val;
        c->arch.phy_page = val % E1000E_PP_PHY_PAGES;
        break;
    default:
        if (reg == PHY_SPEC_STATUS && c->arch.phy_page == 0) {
            break;  /* read-only status */
        }
        *phy_reg(c, reg) = val;
        break;
    }
}

void e1000e_pp_mdic_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    unsigned reg = (val >> MDIC_REG_SHIFT) & 0x1f;
    unsigned addr = (val >> MDIC_PHY_SHIFT) & 0x1f;
    uint32_t op = val & (3u << 26);
    uint32_t result = val & ~(MDIC_READY | MDIC_ERROR);

    if (addr != PHY_ADDR) {
        /* Nobody answers at that address: the cycle ends in error. */
        result |= MDIC_ERROR;
    } else if (op == MDIC_OP_READ) {
        result = (result & ~MDIC_DATA_MASK) | phy_read(c, reg);
    } else if (op == MDIC_OP_WRITE) {
        phy_write(c, reg, val & MDIC_DATA_MASK);
    } else {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, off,
                      "MDIC opcode %u is reserved", op >> 26);
        result |= MDIC_ERROR;
    }
    /* A command register: the MDIO cycle completes before READY is polled. */
    REG(c, MDIC) = result | MDIC_READY;
    if (val & MDIC_INT_EN) {
        e1000e_pp_raise(c, ICR_MDAC);
    }
}
