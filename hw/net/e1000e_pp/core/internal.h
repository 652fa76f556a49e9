/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The headers knobs.c uses, in one. Every other file of the core includes
 * the headers of the concepts it uses (docs/architecture.md lists which
 * header owns what); this one goes when knobs.c does the same.
 */
#ifndef E1000E_PP_INTERNAL_H
#define E1000E_PP_INTERNAL_H

#include "common.h"
#include "log.h"
#include "knobs.h"
#include "phy.h"
#include "settle.h"
#include "work.h"
#include "wake.h"

#endif
