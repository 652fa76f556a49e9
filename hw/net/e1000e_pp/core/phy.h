/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BM PHY behind MDIC (phy.c, §8.4): paging, auto-negotiation, link
 * state and its LSC.
 */
#ifndef E1000E_PP_PHY_H
#define E1000E_PP_PHY_H

#include "common.h"

void e1000e_pp_phy_reset(E1000EPPCore *c);
void e1000e_pp_mdic_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
bool e1000e_pp_link_up(E1000EPPCore *c);
void e1000e_pp_link_report(E1000EPPCore *c);
void e1000e_pp_phy_wire(E1000EPPCore *c, bool up);
void e1000e_pp_phy_relink(E1000EPPCore *c);
bool e1000e_pp_phy_loopback(E1000EPPCore *c);
void e1000e_pp_link_autoneg_done(E1000EPPCore *c);

#endif
