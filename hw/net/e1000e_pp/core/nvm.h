/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NVM (nvm.c): the 64-word image, EECD/EERD/EEWR and the
 * auto-read after reset.
 */
#ifndef E1000E_PP_NVM_H
#define E1000E_PP_NVM_H

#include "common.h"

void e1000e_pp_nvm_init(E1000EPPCore *c, const uint8_t mac[6]);
void e1000e_pp_nvm_reload(E1000EPPCore *c);
void e1000e_pp_nvm_reload_done(E1000EPPCore *c);
uint32_t e1000e_pp_eecd_read(E1000EPPCore *c, uint32_t off);
void e1000e_pp_eecd_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_eerd_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);
void e1000e_pp_eewr_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old);

#endif
