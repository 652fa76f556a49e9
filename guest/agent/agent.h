/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp in-guest agent: helpers agent.c shares with its verb modules.
 */
#ifndef E1000EPP_AGENT_H
#define E1000EPP_AGENT_H

#include "proto.h"

/* CLOCK_MONOTONIC in milliseconds. */
int64_t now_ms(void);
/* A terminator or free-form line to the host ("OK ...", "ERR ..."). */
void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One "D <text>" data line; control characters become '?'. */
void reply_data(const char *text, size_t len);
/* MAC address and ifindex of @ifname; 0 or -1 (errno set). */
int if_mac(const char *ifname, uint8_t *mac, int *ifindex);

/* TCPTX verb (tcptx.c). */
void cmd_tcptx(int argc, char **argv);
/* TCPRX verb (tcprx.c). */
void cmd_tcprx(int argc, char **argv);
/* MARK verb (mark.c). */
void cmd_mark(int argc, char **argv);

#endif /* E1000EPP_AGENT_H */
