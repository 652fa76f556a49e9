/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small 82574L driver for qtests: bring-up script plus verbs.
 *
 * A test gets a device that is up (epp_start + epp_bring_up)
 * and then works with a handful of verbs: read/write a register, push a
 * Tx descriptor, inject or collect a frame on the
 * netdev socket, and wait for a condition in virtual time.  Every wait
 * is bounded in virtual time and dumps the main registers before it
 * fails.
 *
 * The model under test is a parameter ("e1000e-pp" or the stock
 * "e1000e"), so the same scenario can run on both.
 */

#ifndef E1000E_PP_DRV_H
#define E1000E_PP_DRV_H

#include "libqtest.h"
#include "libqos/pci.h"
#include "libqos/libqos-malloc.h"

/* Descriptors per ring: 64 x 16 bytes = 1 KiB, a multiple of 128 bytes */
#define EPP_RING_COUNT      64

/* The MAC address every scenario gives the device with mac= */
#define EPP_MAC_STR         "52:54:00:12:34:56"
extern const uint8_t epp_mac[6];

/* Virtual-time budgets used by the scenarios */
#define EPP_NS_PER_US       1000ULL
#define EPP_NS_PER_MS       1000000ULL
#define EPP_LINK_BUDGET_NS  (5000 * EPP_NS_PER_MS)

/* The receive ring (e1000e-pp-rxring.h) */
typedef struct EppRx EppRx;

typedef struct EppDev {
    const char *model;          /* -device name: e1000e-pp or e1000e */
    QTestState *qts;
    QGuestAllocator alloc;
    QPCIBus *bus;
    QPCIDevice *pdev;
    QPCIBar mmio;               /* BAR0, the register file */
    int sock[2];                /* sock[0]: test side; sock[1]: QEMU side */

    uint64_t tx_ring;           /* guest address of the Tx ring */
    uint32_t tx_tail;           /* next descriptor the driver fills */
    EppRx *rx;                  /* the Rx ring bring-up programs */
    bool intx_watched;          /* IOAPIC inputs intercepted */
    int64_t now_ns;             /* virtual time after the last step */
} EppDev;

/* How epp_bring_up configures the device */
typedef struct EppConfig {
    bool rx_extended;           /* RFCTL.EXTEN: extended Rx descriptors */
    bool keep_crc;              /* RCTL.SECRC = 0: FCS kept in the buffer */
    uint32_t rctl_bsize;        /* RCTL_BSIZE_* (BSEX included) */
    uint32_t ims;               /* causes enabled at the end of bring-up */
} EppConfig;

/* Default: legacy Rx descriptors, CRC stripped, 2 KiB buffers, no IMS */
extern const EppConfig epp_default_config;

/* Condition polled by epp_wait_until */
typedef bool (*EppCond)(EppDev *d, void *opaque);

/*
 * Life cycle.  epp_start launches QEMU (q35, the device on the root
 * bus at slot 4, its netdev on a socketpair) and enables the PCI function;
 * extra_args is appended to the command line (may be NULL).
 */
/* The device's QOM id, for qom-get of its counters */
#define EPP_DEV_ID          "nic0"

EppDev *epp_start(const char *model, const char *extra_args);
/*
 * The same with -device properties ("x-rx-backpressure=on", "mac=...");
 * mac=EPP_MAC_STR is added unless dev_props names a MAC.
 */
EppDev *epp_start_dev(const char *model, const char *dev_props,
                      const char *extra_args);
/*
 * The same with arguments before the device (a device it depends on at
 * realize time, such as an IOMMU, must come first).
 */
EppDev *epp_start_pre(const char *model, const char *dev_props,
                      const char *pre_args, const char *extra_args);
/* A uint64 QOM property of the device (e1000e-pp's rx-* counters ...) */
uint64_t epp_qom_u64(EppDev *d, const char *property);
char *epp_qom_str(EppDev *d, const char *property);
bool epp_qom_set(EppDev *d, const char *property, uint64_t value);

void epp_stop(EppDev *d);
void epp_bring_up(EppDev *d, const EppConfig *cfg);

/* Registers */
uint32_t epp_rd(EppDev *d, uint32_t reg);
void epp_wr(EppDev *d, uint32_t reg, uint32_t val);
void epp_dump_regs(EppDev *d, const char *why);

/*
 * Check (reg & mask) == value; on a mismatch dump the registers and fail
 * at the caller's line.
 */
#define EPP_EXPECT_REG(d, reg, mask, value) \
    epp_expect_reg(d, #reg, reg, mask, value, __FILE__, __LINE__)
void epp_expect_reg(EppDev *d, const char *name, uint32_t reg,
                    uint32_t mask, uint32_t value, const char *file,
                    int line);

/* Reset and NVM/PHY access as the Linux driver does it */
void epp_global_reset(EppDev *d);
uint16_t epp_nvm_read(EppDev *d, uint16_t word);
uint32_t epp_mdic(EppDev *d, uint32_t cmd);
uint16_t epp_phy_read(EppDev *d, uint8_t reg);
void epp_phy_write(EppDev *d, uint8_t reg, uint16_t val);

/* Waiting in virtual time */
void epp_step(EppDev *d, uint64_t ns);
void epp_wait_until(EppDev *d, EppCond cond, void *opaque,
                    uint64_t step_ns, uint64_t budget_ns,
                    const char *what);
void epp_wait_reg(EppDev *d, uint32_t reg, uint32_t mask,
                  uint32_t value, uint64_t budget_ns);
void epp_wait_link_up(EppDev *d);

/*
 * Waiting for an interrupt.  INTx: epp_watch_intx intercepts the
 * IOAPIC inputs once; epp_intx_pin then names the one input that is
 * high (-1 when none is).  MSI-X: a masked vector shows up as its pending
 * bit (libqos qpci_msix_enable must have run).
 */
void epp_watch_intx(EppDev *d);
int epp_intx_pin(EppDev *d);
int epp_wait_intx(EppDev *d, uint64_t budget_ns);
void epp_wait_msix_pending(EppDev *d, uint16_t vector,
                           uint64_t budget_ns);

/*
 * PMCSR, the control/status register of the device's PCI power-management
 * capability: PowerState in bits 1:0 (0 D0 .. 3 D3hot), PME_En, and
 * PME_Status (write 1 to clear).
 */
#define EPP_PMCSR_PME_EN        0x0100
#define EPP_PMCSR_PME_STATUS    0x8000
uint16_t epp_pmcsr(EppDev *d);
void epp_pmcsr_write(EppDev *d, uint16_t v);

/*
 * Message interrupts landing in guest RAM.  epp_msi_enable
 * programs the MSI capability with a guest-RAM address and enables it:
 * every message the device sends then stores `data` there.
 * epp_msix_vector_to_ram does the same for one MSI-X table entry
 * (qpci_msix_enable must have run) and unmasks it.
 */
void epp_msi_enable(EppDev *d, uint64_t addr, uint16_t data);
void epp_msix_vector_to_ram(EppDev *d, uint16_t vector, uint64_t addr,
                            uint32_t data);

/* Transmit: descriptors are 16 bytes in guest byte order */
void epp_txd_legacy(uint8_t *desc, uint64_t addr, uint16_t len,
                    uint32_t cmd);
void epp_txd_context(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                     uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                     uint16_t tucse, uint32_t paylen_tucmd);
void epp_txd_data(uint8_t *desc, uint64_t addr, uint32_t len,
                  uint32_t dcmd, uint32_t popts);
uint32_t epp_tx_write(EppDev *d, const uint8_t *desc);
void epp_tx_kick(EppDev *d);
uint32_t epp_tx_push(EppDev *d, const uint8_t *desc);
void epp_tx_wait_done(EppDev *d);
void epp_tx_desc(EppDev *d, uint32_t idx, uint8_t *desc);

/* Frames on the netdev socket (4-byte big-endian length, no FCS) */
void epp_inject(EppDev *d, const void *frame, size_t len);
void epp_wait_injected(EppDev *d);
size_t epp_collect(EppDev *d, void *buf, size_t cap);
bool epp_wire_idle(EppDev *d);

/* Guest memory */
uint64_t epp_alloc(EppDev *d, size_t size);
void epp_memwrite(EppDev *d, uint64_t addr, const void *buf,
                  size_t len);
void epp_memread(EppDev *d, uint64_t addr, void *buf, size_t len);

/* Little-endian field helpers for descriptors */
static inline uint32_t epp_le32(const uint8_t *p)
{
    return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint16_t epp_le16(const uint8_t *p)
{
    return p[0] | (p[1] << 8);
}

/* Ethernet FCS (CRC-32, IEEE 802.3) over a frame without its FCS */
uint32_t epp_fcs(const uint8_t *frame, size_t len);

#endif /* E1000E_PP_DRV_H */
