/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The race-tooling knobs (knobs.c; their entry points are in core.h):
 * a link the knob dropped comes back.
 */
#ifndef E1000E_PP_KNOBS_H
#define E1000E_PP_KNOBS_H

#include "common.h"

void e1000e_pp_knob_link_return(E1000EPPCore *c);

#endif
