/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp in-guest agent: what its files offer each other.
 *
 *   agent.c     the serial line, replies, the verb table, the main loop
 *   shell.c     SH / SHT
 *   iface.c     interface MAC and index, AF_PACKET sockets
 *   pattern.c   TX / TXL / RXSTART / RXSTAT / RXWAIT / RXSTOP
 *   udp.c       UDP echo through the peer
 *   tcptx.c     TCPTX, tcprx.c TCPRX
 *   files.c     READ
 *   pagepool.c  POOLS
 */
#ifndef E1000EPP_AGENT_H
#define E1000EPP_AGENT_H

#include "cmdargs.h"
#include "proto.h"
#include "rxsession.h"

/* Longest request or data line (a longer output line is cut). */
#define AGENT_LINE_MAX      4096

/* CLOCK_MONOTONIC in milliseconds. */
int64_t now_ms(void);
/* A terminator or free-form line to the host ("OK ...", "ERR ..."). */
void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One "D <text>" data line; control characters become '?'. */
void reply_data(const char *text, size_t len);
/*
 * The complete lines of @buf's @fill bytes as data lines, the unfinished
 * last one moved to the front (all of it if it fills @size: cut there).
 * Returns what is left in @buf.
 */
size_t reply_lines(char *buf, size_t fill, size_t size);
/* Wait until @fd is readable or @deadline (now_ms) passes; true if readable. */
bool wait_readable(int fd, int64_t deadline);

/* MAC address and ifindex of @ifname; 0 or -1 (errno set). */
int if_mac(const char *ifname, uint8_t *mac, int *ifindex);
/*
 * An AF_PACKET raw socket (close-on-exec) bound to @ifindex for EtherType
 * @proto; a receive buffer of @rcvbuf bytes unless 0; with @vnet_hdr every
 * frame read starts with a struct virtio_net_hdr.  -1 on error (errno).
 */
int packet_socket(int ifindex, uint16_t proto, int rcvbuf, bool vnet_hdr);

/* SH / SHT (shell.c): run @command, its output as data lines. */
void shell_run(int timeout_s, const char *command);

/* Pattern frames (pattern.c); the Rx session's socket or -1, its drain. */
void cmd_tx(int argc, char **argv);
void cmd_txl(int argc, char **argv);
void cmd_rxstart(int argc, char **argv);
void cmd_rxstat(int argc, char **argv);     /* RXSTAT and RXSTOP */
void cmd_rxwait(int argc, char **argv);
int pattern_rx_fd(void);
void pattern_rx_drain(void);

/* UDP verb (udp.c). */
void cmd_udp(int argc, char **argv);
void cmd_udphold(int argc, char **argv);
void cmd_udpbind(int argc, char **argv);
void cmd_udprecv(int argc, char **argv);
/* TCPTX verb (tcptx.c). */
void cmd_tcptx(int argc, char **argv);
/* TCPRX verb (tcprx.c). */
void cmd_tcprx(int argc, char **argv);
/* MARK verb (mark.c). */
void cmd_mark(int argc, char **argv);
/* READ verb (files.c): files read without a shell. */
void cmd_read(int argc, char **argv);
/* POOLS verb (pagepool.c): the kernel's page pools over netlink. */
void cmd_pools(int argc, char **argv);

#endif /* E1000EPP_AGENT_H */
