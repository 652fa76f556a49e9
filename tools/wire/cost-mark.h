/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Window marks of the guest cost counter (tools/plugin/cost.c).
 *
 * A mark is one 8-byte long NOP, `nopl DISP32(%rax,%rax,1)` (0f 1f 84 00
 * followed by the 32-bit displacement), whose displacement is one of the
 * magic values below.  The CPU executes it as a NOP; the TCG plugin
 * recognises the bytes when it translates the block and acts when the
 * instruction executes, so a window opens and closes at an exact point
 * of the guest's instruction stream (docs/cost.md).
 */
#ifndef E1000EPP_COST_MARK_H
#define E1000EPP_COST_MARK_H

#define COST_MARK_OPCODE    0x00841f0fu     /* 0f 1f 84 00, little-endian */
#define COST_MARK_START     0x53504531u     /* "1EPS" */
#define COST_MARK_STOP      0x45504531u     /* "1EPE" */

/* The instruction as assembler text, for inline asm in the guest. */
#define COST_MARK_ASM_START ".byte 0x0f,0x1f,0x84,0x00,0x31,0x45,0x50,0x53"
#define COST_MARK_ASM_STOP  ".byte 0x0f,0x1f,0x84,0x00,0x31,0x45,0x50,0x45"

#endif /* E1000EPP_COST_MARK_H */
