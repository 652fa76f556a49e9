/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Observation (log.c): guest-error and unimplemented messages, once per
 * register and kind; the text lists; the knob-and-violation event list.
 */
#ifndef E1000E_PP_LOG_H
#define E1000E_PP_LOG_H

#include "common.h"

/* log.c: one message per register and kind, so a guest cannot flood. */
void e1000e_pp_log(E1000EPPCore *c, E1000EPPLog kind, uint32_t off,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The text lists: append at len within size; returns the length needed. */
size_t e1000e_pp_text_add(char *buf, size_t size, size_t len,
                          const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* One entry of a kept list as a line of text, appended at len. */
typedef size_t E1000EPPTextLine(char *buf, size_t size, size_t len,
                                const void *entry);
/*
 * A kept list as text, oldest first: the last cap of count entries of
 * ring (stride bytes apart, entry i in slot i % cap), one line each.
 */
size_t e1000e_pp_ring_text(char *buf, size_t size, const void *ring,
                           size_t stride, unsigned cap, uint64_t count,
                           E1000EPPTextLine *line);
/* A knob change or violation, kept in the event list and traced. */
void e1000e_pp_event(E1000EPPCore *c, const char *what, uint32_t reg,
                     uint32_t value);

#endif
