/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Instruction-count windows for the benchmarks' --insn mode.
 *
 * `./e1000e-pp bench --insn` starts the emulator under valgrind's
 * callgrind with instrumentation off (QTEST_QEMU_BINARY is the whole
 * "valgrind --tool=callgrind --instr-atstart=no ... qemu-system-x86_64"
 * command line). A benchmark switches counting on just around the batch
 * it measures and, after each case, asks callgrind to dump the counts
 * under a name: the dump file's "desc: Trigger: dump NAME" and "totals:"
 * lines are what the CLI reads. Everything else QEMU does (start-up,
 * ring set-up, warm-up, checks) is never counted, so the count repeats.
 */
#ifndef E1000E_PP_INSN_H
#define E1000E_PP_INSN_H

#include "e1000e-pp-drv.h"

/* Counting on (true) or off for the emulator behind d */
void epp_insn_count(EppDev *d, bool on);

/* Dump (and zero) what was counted since the last dump, named name */
void epp_insn_dump(EppDev *d, const char *name);

/* Make the netdev socket pair's buffers big enough for a whole batch */
void epp_insn_wide_socket(EppDev *d);

#endif
