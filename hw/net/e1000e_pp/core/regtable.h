/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The register table (regs.c): each row's access behaviour, reset value,
 * masks and hooks, as §10.1.2 classifies the registers.
 */
#ifndef E1000E_PP_REGTABLE_H
#define E1000E_PP_REGTABLE_H

#include "common.h"

/*
 * Access behaviours (§10.1.2 "Register Types"), applied by the dispatch
 * in regs.c before a row's post-write hook runs.
 */
typedef enum RegAccess {
    REG_RW,          /* read/write through the mask */
    REG_RO,          /* writes are a guest error and ignored */
    REG_WO,          /* reads return 0; writes act through the hook */
    REG_RC,          /* statistics: clear on read */
    REG_RC_HIGH,     /* high half of a 64-bit counter: read clears both */
    REG_W1C,         /* writing 1 clears the bit (ICR) */
    REG_SET,         /* writing 1 sets the bit in .target (IMS) */
    REG_CLR,         /* writing 1 clears the bit in .target (IMC) */
    REG_ALIAS,       /* another address of .target (CTRL at 0x0004) */
    REG_UNIMP,       /* stored but not modelled: logged once as LOG_UNIMP */
} RegAccess;

typedef struct RegInfo {
    const char *name;
    const char *section;     /* datasheet section of the register */
    uint32_t offset;         /* first byte offset */
    uint16_t count;          /* elements of an array register, else 1 */
    uint16_t stride;         /* bytes between elements (0: 4) */
    RegAccess access;
    uint32_t reset;          /* value after power-on and CTRL.RST */
    uint32_t wmask;          /* bits a guest write changes */
    uint32_t action;         /* write-1 command bits that read back as 0 */
    uint32_t target;         /* REG_SET/REG_CLR/REG_ALIAS: the register */
    /* Computes the value read; "off" is the byte offset of the element. */
    uint32_t (*read)(E1000EPPCore *c, uint32_t off);
    /*
     * Runs after the dispatch stored the masked value: "val" is what the
     * guest wrote, "old" the register before the write.
     */
    void (*post_write)(E1000EPPCore *c, uint32_t off, uint32_t val,
                       uint32_t old);
} RegInfo;

/* Byte offset of element n of an array register. */
static inline uint32_t e1000e_pp_reg_element(const RegInfo *ri, unsigned n)
{
    return ri->offset + n * (ri->stride ? ri->stride : 4);
}
extern const RegInfo e1000e_pp_reg_table[];
extern const size_t e1000e_pp_reg_table_len;

#endif
