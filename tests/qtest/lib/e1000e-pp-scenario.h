/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every qtest binary shares: scenario registration, the stock/pp
 * check, frame builders and wire checks (e1000e-pp-scenario.c).
 *
 * A scenario runs against one model.  Every scenario is registered for
 * e1000e-pp and for the stock e1000e as the GLib test path
 * "/x86_64/<model>/<name>" (except knob scenarios, e1000e-pp's only:
 * epp_add_pp_case), and skipped when the binary lacks that
 * device (which the runner counts as a failed run).  Plain scenarios
 * take the model; cases generated from a table
 * also get their row (shared by both models, read-only).
 */

#ifndef E1000E_PP_SCENARIO_H
#define E1000E_PP_SCENARIO_H

#include "e1000e-pp-drv.h"

/*
 * One scenario of a file's table: registered under its name for both
 * models, or for e1000e-pp alone when pp_only (a knob or property stock
 * e1000e does not have, where all stock could assert is that absence;
 * that is asserted once, for every such property, by pp_only_properties
 * in device/props.c).
 */
typedef struct EppScenario {
    const char *name;
    void (*fn)(const char *model);
    bool pp_only;
} EppScenario;

#define EPP_SCENARIO(fn)                { #fn, fn, false }
/* Registered under a name other than the function's ("rx/...") */
#define EPP_SCENARIO_AS(name, fn)       { name, fn, false }
#define EPP_PP_SCENARIO(fn)             { #fn, fn, true }

typedef void (*EppCaseFn)(const char *model, const void *data);

/* A case generated from a table row, for both models / e1000e-pp alone */
void epp_add_case(const char *name, EppCaseFn fn, const void *data);
void epp_add_pp_case(const char *name, EppCaseFn fn, const void *data);

/*
 * main() of a scenario file (one file, one binary): add_cases (may be
 * NULL) registers the table-generated cases, then every scenario of
 * list is registered, and GLib runs what the command line selects.
 */
int epp_main(int argc, char **argv, const EppScenario *list, size_t n,
             void (*add_cases)(void));

/* True for QEMU's stock model, whose known differences are asserted */
bool epp_is_stock(const char *model);
/*
 * True on the stock model, after naming the known difference in the
 * test log ("stock e1000e differs: ...").  The caller then asserts what
 * stock e1000e does instead: no scenario skips because stock differs.
 */
bool epp_on_stock(const char *model, const char *difference);
/* The value a scenario expects: e1000e-pp's, or stock e1000e's */
uint64_t epp_by_model(const char *model, uint64_t pp, uint64_t stock);

/* Does the device have this QOM property?  (stock e1000e has no knobs) */
bool epp_qom_has(EppDev *d, const char *property);

/* The peer's MAC (locally administered) */
extern const uint8_t epp_peer_mac[6];

#define EPP_VLAN_TCI        0x2005          /* priority 1, VID 5 */
#define EPP_ETH_P_TEST      0x88b5          /* local experimental EtherType */

/*
 * A frame from the peer to our MAC: optional 802.1Q tag, EtherType
 * 0x88b5, a 32-bit big-endian sequence number, then a pattern that
 * differs per frame and per byte.  epp_frame_seq reads the number back.
 */
void epp_frame_fill(uint8_t *f, size_t len, bool tagged, uint32_t seq);
uint32_t epp_frame_seq(const uint8_t *f, bool tag_in_buffer);

/* A frame to the peer: Ethernet header with the given EtherType */
void epp_tx_eth_header(uint8_t *f, uint16_t ethertype);
/* Pattern bytes that differ per offset and per seed */
void epp_fill_pattern(uint8_t *p, size_t len, uint8_t seed);

/* Internet checksum (RFC 1071): 16-bit big-endian words, folded */
uint32_t epp_csum_add(uint32_t sum, const uint8_t *p, size_t len);
uint16_t epp_csum_fold(uint32_t sum);

/*
 * Collect one frame from the wire and compare it byte for byte; on a
 * mismatch name the first differing offset, dump the registers and fail.
 * `what` names the frame in the message ("segment 3 of 7").
 */
void epp_expect_frame(EppDev *d, const uint8_t *want, size_t len,
                  const char *what);
/* Nothing more on the wire (after letting QEMU's main loop run) */
void epp_expect_wire_idle(EppDev *d);

/*
 * One turn of QEMU's main loop, virtual time unmoved: a qtest round trip
 * (QEMU reads the netdev socket, runs bottom halves, in that iteration).
 */
void epp_main_loop_turn(EppDev *d);
/* Turns a host event (the netdev reading the socket) may take, at most */
#define EPP_MAIN_LOOP_TURNS 5000
/*
 * Wait for a condition that depends on QEMU's main loop only (a frame
 * injected on the socket being received) without advancing virtual time
 * and without sleeping: one main-loop turn per try, at most
 * EPP_MAIN_LOOP_TURNS; dumps registers on failure.
 */
void epp_run_until(EppDev *d, EppCond cond, void *opaque, const char *what);
/* For epp_run_until: QEMU has read every byte queued on the netdev socket */
bool epp_netdev_took_all(EppDev *d, void *opaque);
/* Step virtual time to an absolute instant (no-op if already there) */
void epp_step_to(EppDev *d, int64_t t_ns);

#endif /* E1000E_PP_SCENARIO_H */
