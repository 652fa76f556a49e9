/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NVM (the datasheet's NVM map) and its register interfaces EECD, EERD
 * and EEWR. The image is a 64-word SPI EEPROM whose words 0x00-0x3F sum
 * to 0xBABA (the NVM checksum word); Linux validates that at probe.
 */
#include <string.h>

#include "common.h"
#include "log.h"
#include "nvm.h"

/* Words the Linux driver reads besides the MAC address (§6.1). */
#define NVM_MAC_WORDS           3
#define NVM_COMPAT              0x03
#define NVM_ID_LED              0x04
#define NVM_VERSION             0x05
#define NVM_PBA_0               0x08
#define NVM_PBA_1               0x09
#define NVM_SUBSYS_ID           0x0b
#define NVM_SUBSYS_VENDOR       0x0c
#define NVM_DEVICE_ID           0x0d
#define NVM_VENDOR_ID           0x0e
#define NVM_INIT_CTRL2          0x0f
#define NVM_ALT_MAC_PTR         0x37
#define NVM_CHECKSUM            0x3f
#define NVM_SUM                 0xbaba

static void nvm_fix_checksum(E1000EPPCore *c)
{
    uint16_t sum = 0;
    int i;

    for (i = 0; i < NVM_CHECKSUM; i++) {
        sum += c->arch.nvm[i];
    }
    c->arch.nvm[NVM_CHECKSUM] = (uint16_t)(NVM_SUM - sum);
}

void e1000e_pp_nvm_init(E1000EPPCore *c, const uint8_t mac[6])
{
    int i;

    memset(c->arch.nvm, 0, sizeof(c->arch.nvm));
    for (i = 0; i < NVM_MAC_WORDS; i++) {
        c->arch.nvm[i] = get_le16(mac + 2 * i);
    }
    /* 0xffff: no ID LED override; the driver uses its 82574 default. */
    c->arch.nvm[NVM_ID_LED] = 0xffff;
    /* Image version 1.8-0, shown as the firmware version by ethtool -i. */
    c->arch.nvm[NVM_VERSION] = 0x1080;
    /* Printed at probe as the PBA number. */
    c->arch.nvm[NVM_PBA_0] = 0xe469;
    c->arch.nvm[NVM_PBA_1] = 0x8105;
    c->arch.nvm[NVM_SUBSYS_ID] = 0x0000;
    c->arch.nvm[NVM_SUBSYS_VENDOR] = 0x8086;
    c->arch.nvm[NVM_DEVICE_ID] = 0x10d3;
    c->arch.nvm[NVM_VENDOR_ID] = 0x8086;
    /*
     * Initialization Control 2: PAUSE (bit 12) advertises symmetric flow
     * control. Bits 14:13 (MNGM) stay 0: no manageability firmware.
     */
    c->arch.nvm[NVM_INIT_CTRL2] = 0x1000;
    /* No alternate MAC address block. */
    c->arch.nvm[NVM_ALT_MAC_PTR] = 0xffff;
    nvm_fix_checksum(c);
}

uint32_t e1000e_pp_eecd_read(E1000EPPCore *c, uint32_t off)
{
    uint32_t v = REG(c, EECD) & (EECD_AUTO_RD | EECD_REQ | EECD_AUPDEN);

    /* No firmware competes for the NVM: a request is granted at once. */
    if (v & EECD_REQ) {
        v |= EECD_GNT;
    }
    /* Size field (14:11) = 0 and type (16:15) = 0: 64-word SPI EEPROM. */
    return v | EECD_PRES;
}

void e1000e_pp_eecd_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    if (val & (EECD_SK | EECD_CS | EECD_DI)) {
        e1000e_pp_log(c, E1000E_PP_LOG_UNIMP, off,
                      "EECD bit-banged SPI access 0x%08x; use EERD/EEWR",
                      val);
    }
}

static bool nvm_addr(E1000EPPCore *c, uint32_t off, uint32_t val,
                     unsigned *addr)
{
    *addr = (val >> EERD_ADDR_SHIFT) & EERD_ADDR_MASK;
    if (*addr >= E1000E_PP_NVM_WORDS) {
        e1000e_pp_log(c, E1000E_PP_LOG_GUEST_ERROR, off,
                      "NVM word 0x%x beyond the %d-word EEPROM",
                      *addr, E1000E_PP_NVM_WORDS);
        return false;
    }
    return true;
}

static void eerd_complete(E1000EPPCore *c, uint32_t val)
{
    unsigned addr;
    uint32_t data = 0;

    /* §10.2.2.5: out-of-range reads complete with data 0. */
    if (nvm_addr(c, EERD, val, &addr)) {
        data = c->arch.nvm[addr];
    }
    REG(c, EERD) = (data << EERD_DATA_SHIFT) |
                   ((val >> EERD_ADDR_SHIFT) & EERD_ADDR_MASK) <<
                   EERD_ADDR_SHIFT | EERD_DONE;
}

/* EERD and EEWR are command registers: the hook writes the result. */
void e1000e_pp_eerd_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    if (!(val & EERD_START)) {
        REG(c, EERD) = val & ~EERD_DONE;
        return;
    }
    /*
     * The EEPROM has one port, and the auto-load after CTRL.RST holds it
     * until EECD.AUTO_RD: a read asked meanwhile keeps START and waits,
     * DONE clear (docs/fidelity.md, "NVM").
     */
    if (!(REG(c, EECD) & EECD_AUTO_RD)) {
        REG(c, EERD) = val & ~EERD_DONE;
        return;
    }
    eerd_complete(c, val);
}

void e1000e_pp_eewr_write(E1000EPPCore *c, uint32_t off, uint32_t val,
                          uint32_t old)
{
    unsigned addr;

    if ((val & EERD_START) && nvm_addr(c, off, val, &addr)) {
        c->arch.nvm[addr] = (uint16_t)(val >> EERD_DATA_SHIFT);
    }
    REG(c, EEWR) = (val & ~EERD_START) | EERD_DONE;
}

/*
 * After CTRL.RST the NVM is read again (NVM auto-load); EECD.AUTO_RD
 * stays clear until that finishes. Linux polls it at most 10 times 1-2 ms
 * apart (e1000e_get_auto_rd_done): the window must stay well inside 10 ms.
 */
#define NVM_AUTO_READ_NS    (1000 * 1000)

void e1000e_pp_nvm_reload(E1000EPPCore *c)
{
    REG(c, EECD) &= ~EECD_AUTO_RD;
    REG(c, EEMNGCTL) &= ~EEMNGCTL_CFG_DONE0;
    e1000e_pp_arm(c, E1000E_PP_TIMER_AUTO_RD, NVM_AUTO_READ_NS);
}

void e1000e_pp_nvm_reload_done(E1000EPPCore *c)
{
    uint32_t eerd = REG(c, EERD);

    REG(c, EECD) |= EECD_AUTO_RD;
    /* EEMNGCTL.CFG_DONE0: Linux waits for it before touching the PHY. */
    REG(c, EEMNGCTL) |= EEMNGCTL_CFG_DONE0;
    /* A read that waited for the port runs now. */
    if ((eerd & EERD_START) && !(eerd & EERD_DONE)) {
        eerd_complete(c, eerd);
    }
}
