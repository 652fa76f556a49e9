/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Engine work an entry point records (the record phase of
 * docs/architecture.md): set here by handlers, done by settle.c.
 */
#ifndef E1000E_PP_WORK_H
#define E1000E_PP_WORK_H

#include "common.h"

/*
 * Work an entry point leaves for e1000e_pp_settle() (settle.c): handlers,
 * frame arrival, timers and PCI events only record it.
 */
#define WORK_TX         (1u << 0)   /* walk the Tx ring */
#define WORK_RX         (1u << 1)   /* move the packet buffer to the ring */
#define WORK_RX_READY   (1u << 2)   /* tell the netdev frames may flow */
#define WORK_ENGINES    (WORK_TX | WORK_RX)

static inline void e1000e_pp_schedule(E1000EPPCore *c, uint32_t work)
{
    c->work |= work;
}

/* Tx work per settle step: descriptors, and data bytes. */
#define E1000E_PP_TX_BUDGET      256
#define E1000E_PP_TX_BYTE_BUDGET (1024 * 1024)

#endif
