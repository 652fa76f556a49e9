/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fuzz targets' input decoder: each operation of the input turned
 * into what a hostile guest does to the device, and the shadow's checks
 * after it.
 *
 * Input: a sequence of operations, one opcode byte each, then its
 * arguments (little-endian; a short input reads zeros and ends the run).
 * tests/fuzz/make-seeds.py writes the same encoding.
 *
 *   0 WRITE  reg:u8 [off:u16 when reg >= HOT_REGS] val:u32   BAR0 write
 *   1 READ   reg:u8 [off:u16]                           BAR0 read
 *   2 DESC   ring:u8 slot:u8 kind:u8 addr:u32 rest:8B   a descriptor
 *   3 MEM    addr:u32 len:u8 bytes                      guest memory
 *   4 FRAME  len:u16 dst:u8 fill:u8 [n:u8 head:nB]      one frame
 *   5 TIME   ns:u16 shift:u8                            virtual time
 *   6 BME    on:u8                                      COMMAND.BME
 *   7 POWER  state:u8                                   PMCSR write
 *   8 LINK   up:u8                                      carrier
 *   9 IRQ    mode:u8                                    INTx/MSI/MSI-X
 *  10 IO     write:u8 port:u8 val:u32                   I/O BAR
 *  11 RESET                                             power-on reset
 *  12 TAIL   ring:u8 val:u16                            RDT or TDT
 *  13 BURST  n:u8 len:u16 dst:u8                        n frames
 *
 * Guest memory is GUEST_MEM bytes at address 0; BAR0 also answers DMA at
 * BAR0_DMA (DMA aimed at the device's own registers must be refused, not
 * re-enter it); anything else fails like an unmapped address.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz-input.h"
#include "hot-regs.h"

static uint32_t pick_reg(Input *in)
{
    unsigned r = get8(in);

    return r < HOT_REGS ? hot_regs[r] : (get16(in) * 4) % BAR0_BYTES;
}

static uint64_t pick_addr(Input *in, unsigned kind)
{
    uint32_t a = get32(in);

    switch (kind % 4) {
    case 0:
        return a % GUEST_MEM;
    case 1:
        return BAR0_DMA + a % BAR0_BYTES;
    case 2:
        return (uint64_t)a << 20 | a;
    default:
        return a;
    }
}

static void make_frame(Harness *h, uint8_t *f, size_t len, unsigned dst,
                       unsigned fill)
{
    static const uint8_t own[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    size_t i;

    for (i = 0; i < len; i++) {
        f[i] = (uint8_t)(fill + i * 7);
    }
    if (len >= 14) {
        switch (dst % 4) {
        case 0:
            memcpy(f, own, 6);
            break;
        case 1:
            memset(f, 0xff, 6);
            break;
        case 2:
            f[0] |= 1;      /* multicast */
            break;
        }
        f[12] = dst & 4 ? 0x81 : 0x08;  /* VLAN-tagged or IPv4 */
        f[13] = 0x00;
        if (len >= 34 && !(dst & 4)) {
            f[14] = 0x45;   /* a plausible IPv4 header start */
            f[23] = dst & 8 ? 17 : 6;
        }
    }
}

static bool resets(uint32_t off, uint32_t val)
{
    /* CTRL.RST (26) and CTRL.DEV_RST (29), or writes to the counters. */
    return ((off == R_CTRL || off == 4) && (val & (1u << 26 | 1u << 29))) ||
           (off >= R_STATS && off < R_STATS_END);
}

/* What the guest reads is an output too (the loaded copy must agree). */
static void seen(Harness *h, uint32_t val)
{
    if (h->compare) {
        harness_out(h, 'R', val, NULL, 0);
    }
}

/* One operation of the input, with the checks that follow it. */
void fuzz_step(Harness *h, Input *in)
{
    static uint8_t frame[E1000E_PP_MAX_FRAME + 64];
    E1000EPPCore *c = h->core;
    unsigned op = get8(in) % 14, i;
    bool may_clear = false;
    uint32_t off, val, len;
    uint64_t addr;

    if (h->trace) {
        fprintf(stderr, "%sop %u (%zu bytes left)\n",
                h->twin ? "loaded " : "", op, in->left);
    }
    switch (op) {
    case 0:
        off = pick_reg(in);
        val = get32(in);
        may_clear = resets(off, val);
        shadow_post(h, off, val);
        e1000e_pp_write(c, off, val);
        break;
    case 1:
        seen(h, e1000e_pp_read(c, pick_reg(in)));
        may_clear = true;
        break;
    case 2: {
        unsigned ring = get8(in), slot = get8(in), kind = get8(in);
        uint32_t bal = ring & 1 ? R_TDBAL : R_RDBAL;
        uint8_t rest[8];

        addr = pick_addr(in, kind);
        for (i = 0; i < 8; i++) {
            rest[i] = get8(in);
        }
        /* The descriptor slot, at the ring base the guest programmed. */
        off = (shadow_reg(h, bal) & ~15u) + slot * 16 * (kind & 4 ? 2 : 1) +
              (kind & 4 && ring & 2 ? 16 : 0);
        if (off < GUEST_MEM - 16) {
            for (i = 0; i < 8; i++) {
                h->mem[off + i] = (uint8_t)(addr >> (8 * i));
            }
            memcpy(h->mem + off + 8, rest, 8);
        }
        break;
    }
    case 3:
        addr = get32(in) % GUEST_MEM;
        len = get8(in);
        for (i = 0; i < len; i++) {
            uint8_t b = get8(in);

            if (addr + i < GUEST_MEM) {
                h->mem[addr + i] = b;
            }
        }
        break;
    case 4: {
        unsigned dst, fill;

        len = get16(in) % sizeof(frame);
        dst = get8(in);
        fill = get8(in);
        make_frame(h, frame, len, dst, fill);
        /* dst bit 4: the frame's first n bytes come from the input. */
        if (dst & 0x10) {
            unsigned n = get8(in);

            for (i = 0; i < n; i++) {
                uint8_t b = get8(in);

                if (i < len) {
                    frame[i] = b;
                }
            }
        }
        shadow_offer(h, frame, len);
        break;
    }
    case 5: {
        int64_t ns = (int64_t)get16(in) << (get8(in) % 28);

        harness_step_time(h, ns);
        break;
    }
    case 6:
        e1000e_pp_bus_master(c, get8(in) & 1);
        break;
    case 7:
        seen(h, e1000e_pp_power_set(c, get8(in) & 3));
        may_clear = true;
        break;
    case 8:
        e1000e_pp_set_link(c, get8(in) & 1);
        break;
    case 9:
        h->mode = get8(in) % 3;
        e1000e_pp_irq_update(c);
        break;
    case 10:
        if (get8(in) & 1) {
            off = get8(in) & 4;
            val = get32(in);
            if (off) {
                shadow_post(h, c->arch.ioaddr & 0x1fffc, val);  /* IODATA */
            }
            e1000e_pp_io_write(c, off, val);
        } else {
            seen(h, e1000e_pp_io_read(c, get8(in) & 4));
        }
        may_clear = true;
        break;
    case 11:
        e1000e_pp_core_reset(c);
        may_clear = true;
        break;
    case 12:
        off = get8(in) & 1 ? R_TDT : R_RDT;
        val = get16(in);
        shadow_post(h, off, val);
        e1000e_pp_write(c, off, val);
        break;
    default: {
        unsigned n = get8(in) % 32, dst;

        len = get16(in) % sizeof(frame);
        dst = get8(in);
        for (i = 0; i < n; i++) {
            make_frame(h, frame, len, dst, i);
            shadow_offer(h, frame, len);
        }
        break;
    }
    }
    if (!may_clear) {
        shadow_check_stats(h);
    }
    shadow_post(h, ~0u, 0);
    shadow_snapshot(h);
    if (c->depth != 0) {
        shadow_violation("an entry point returned inside another",
                         c->depth, op);
    }
}
