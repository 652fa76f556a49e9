/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stock receive design's own interface (e1000e-pp-rxdrv-stock.c),
 * for the scenarios that look into it.  Nothing here is part of the
 * ring or of the other designs.
 */

#ifndef E1000E_PP_RXDRV_STOCK_H
#define E1000E_PP_RXDRV_STOCK_H

#include "e1000e-pp-rxdrv.h"

/* Buffers the design holds off the slots: its chain's pages */
unsigned epp_rx_stock_held(EppRx *rx);
/* Was this frame copied into a small buffer (copybreak)? */
bool epp_rx_stock_copied(EppRx *rx, const EppRxFrame *f);

#endif /* E1000E_PP_RXDRV_STOCK_H */
