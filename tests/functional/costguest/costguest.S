/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny x86-64 guest for the cost plugin's test (test_cost_plugin.py).
 *
 * Booted with -kernel (multiboot: 32-bit protected mode, paging off), it
 * switches to long mode on identity-mapped 2 MB pages and runs two
 * windows of the plugin's marks (tools/wire/cost-mark.h):
 *
 *   window 1: call outer, which reaches inner through a retpoline (the
 *             thunk jumps to inner with `ret`), returns through a return
 *             thunk (`jmp ret_thunk`), and takes a software interrupt
 *             whose handler runs code (`shared`) also used by inner;
 *   window 2: one nop, no function.
 *
 * Then a triple fault ends QEMU (-no-reboot).  The instruction counts the
 * test expects are counted by hand from this listing (see the test).
 */

#define MB_MAGIC    0x1BADB002
#define MB_FLAGS    0

    .section .text
    .code32
    .globl _start
    .align 4
mb_header:
    .long MB_MAGIC
    .long MB_FLAGS
    .long -(MB_MAGIC + MB_FLAGS)

_start:
    cli
    movl $stack_top, %esp
    movl $(pdpt + 3), pml4
    movl $(pd + 3), pdpt
    movl $0x83, pd                  /* 0-2 MB: present, writable, 2 MB */
    movl $0x200083, pd + 8          /* 2-4 MB */
    movl %cr4, %eax
    orl $0x20, %eax                 /* CR4.PAE */
    movl %eax, %cr4
    movl $pml4, %eax
    movl %eax, %cr3
    movl $0xC0000080, %ecx          /* EFER */
    rdmsr
    orl $0x100, %eax                /* EFER.LME */
    wrmsr
    movl %cr0, %eax
    orl $0x80000001, %eax           /* CR0.PG | CR0.PE */
    movl %eax, %cr0
    lgdt gdtr
    ljmp $0x08, $long_start

    .code64
long_start:
    movw $0x10, %ax
    movw %ax, %ds
    movw %ax, %es
    movw %ax, %ss
    movq $stack_top, %rsp
    /* IDT gate 0x20 -> irq_stub (64-bit interrupt gate, selector 8) */
    movq $irq_stub, %rax
    movq %rax, %rdx
    andq $0xffff, %rdx
    orq $(0x08 << 16), %rdx
    movq $0x8e00, %rcx
    shlq $32, %rcx
    orq %rcx, %rdx
    movq %rax, %rcx
    shrq $16, %rcx
    andq $0xffff, %rcx
    shlq $48, %rcx
    orq %rcx, %rdx
    movq %rdx, idt + 0x20 * 16
    shrq $32, %rax
    movq %rax, idt + 0x20 * 16 + 8
    lidt idtr

    /* window 1 */
    .byte 0x0f, 0x1f, 0x84, 0x00, 0x31, 0x45, 0x50, 0x53
    call outer
    .byte 0x0f, 0x1f, 0x84, 0x00, 0x31, 0x45, 0x50, 0x45
    /* window 2 */
    .byte 0x0f, 0x1f, 0x84, 0x00, 0x31, 0x45, 0x50, 0x53
    nop
    .byte 0x0f, 0x1f, 0x84, 0x00, 0x31, 0x45, 0x50, 0x45
    /* end: no usable IDT, so int3 triple-faults */
    lidt idtr_empty
    int3
1:  hlt
    jmp 1b

    .globl outer, inner, shared, irq_stub, ret_thunk
outer:
    nop
    movq $inner, %rax
    call thunk_rax                  /* retpoline: enters inner by ret */
    int $0x20
    nop
    jmp ret_thunk

thunk_rax:
    call 2f
1:  pause
    lfence
    jmp 1b
2:  movq %rax, (%rsp)
    ret

inner:
    nop
    nop
    nop
    call shared
    jmp ret_thunk

shared:
    nop
    ret

irq_stub:
    call shared
    nop
    iretq

ret_thunk:
    ret

    .section .data
    .align 16
gdt:
    .quad 0
    .quad 0x00af9a000000ffff        /* 0x08: 64-bit code */
    .quad 0x00cf92000000ffff        /* 0x10: data */
gdtr:
    .word gdtr - gdt - 1
    .long gdt
    .align 16
idtr:
    .word 256 * 16 - 1
    .quad idt
    .align 16
idtr_empty:
    .word 0
    .quad 0

    .section .bss
    .align 4096
pml4:   .skip 4096
pdpt:   .skip 4096
pd:     .skip 4096
idt:    .skip 256 * 16
    .align 16
    .skip 8192
stack_top:
