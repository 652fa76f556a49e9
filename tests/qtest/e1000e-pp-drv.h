/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small 82574L driver for qtests: bring-up script plus verbs.
 *
 * A test gets a device that is up (e1000epp_start + e1000epp_bring_up)
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

typedef struct E1000epp {
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
} E1000epp;

/* How e1000epp_bring_up configures the device */
typedef struct E1000eppConfig {
    bool rx_extended;           /* RFCTL.EXTEN: extended Rx descriptors */
    bool keep_crc;              /* RCTL.SECRC = 0: FCS kept in the buffer */
    uint32_t rctl_bsize;        /* RCTL_BSIZE_* (BSEX included) */
    uint32_t ims;               /* causes enabled at the end of bring-up */
} E1000eppConfig;

/* Default: legacy Rx descriptors, CRC stripped, 2 KiB buffers, no IMS */
extern const E1000eppConfig e1000epp_default_config;

/* Condition polled by e1000epp_wait_until */
typedef bool (*E1000eppCond)(E1000epp *d, void *opaque);

/*
 * Life cycle.  e1000epp_start launches QEMU (q35, the device on the root
 * bus at slot 4, its netdev on a socketpair) and enables the PCI function;
 * extra_args is appended to the command line (may be NULL).
 */
/* The device's QOM id, for qom-get of its counters */
#define EPP_DEV_ID          "nic0"

E1000epp *e1000epp_start(const char *model, const char *extra_args);
/*
 * The same with -device properties ("x-rx-backpressure=on", "mac=...");
 * mac=EPP_MAC_STR is added unless dev_props names a MAC.
 */
E1000epp *e1000epp_start_dev(const char *model, const char *dev_props,
                             const char *extra_args);
/*
 * The same with arguments before the device (a device it depends on at
 * realize time, such as an IOMMU, must come first).
 */
E1000epp *e1000epp_start_pre(const char *model, const char *dev_props,
                             const char *pre_args, const char *extra_args);
/* A uint64 QOM property of the device (e1000e-pp's rx-* counters ...) */
uint64_t e1000epp_qom_u64(E1000epp *d, const char *property);
char *e1000epp_qom_str(E1000epp *d, const char *property);
bool e1000epp_qom_set(E1000epp *d, const char *property, uint64_t value);

void e1000epp_stop(E1000epp *d);
void e1000epp_bring_up(E1000epp *d, const E1000eppConfig *cfg);

/* Registers */
uint32_t e1000epp_rd(E1000epp *d, uint32_t reg);
void e1000epp_wr(E1000epp *d, uint32_t reg, uint32_t val);
void e1000epp_dump_regs(E1000epp *d, const char *why);

/*
 * Check (reg & mask) == value; on a mismatch dump the registers and fail
 * at the caller's line.
 */
#define EPP_EXPECT_REG(d, reg, mask, value) \
    e1000epp_expect_reg(d, #reg, reg, mask, value, __FILE__, __LINE__)
void e1000epp_expect_reg(E1000epp *d, const char *name, uint32_t reg,
                         uint32_t mask, uint32_t value, const char *file,
                         int line);

/* Reset and NVM/PHY access as the Linux driver does it */
void e1000epp_global_reset(E1000epp *d);
uint16_t e1000epp_nvm_read(E1000epp *d, uint16_t word);
uint32_t e1000epp_mdic(E1000epp *d, uint32_t cmd);
uint16_t e1000epp_phy_read(E1000epp *d, uint8_t reg);
void e1000epp_phy_write(E1000epp *d, uint8_t reg, uint16_t val);

/* Waiting in virtual time */
void e1000epp_step(E1000epp *d, uint64_t ns);
void e1000epp_wait_until(E1000epp *d, E1000eppCond cond, void *opaque,
                         uint64_t step_ns, uint64_t budget_ns,
                         const char *what);
void e1000epp_wait_reg(E1000epp *d, uint32_t reg, uint32_t mask,
                       uint32_t value, uint64_t budget_ns);
void e1000epp_wait_link_up(E1000epp *d);

/*
 * Waiting for an interrupt.  INTx: e1000epp_watch_intx intercepts the
 * IOAPIC inputs once; e1000epp_intx_pin then names the one input that is
 * high (-1 when none is).  MSI-X: a masked vector shows up as its pending
 * bit (libqos qpci_msix_enable must have run).
 */
void e1000epp_watch_intx(E1000epp *d);
int e1000epp_intx_pin(E1000epp *d);
int e1000epp_wait_intx(E1000epp *d, uint64_t budget_ns);
void e1000epp_wait_msix_pending(E1000epp *d, uint16_t vector,
                                uint64_t budget_ns);

/*
 * Message interrupts landing in guest RAM.  e1000epp_msi_enable
 * programs the MSI capability with a guest-RAM address and enables it:
 * every message the device sends then stores `data` there.
 * e1000epp_msix_vector_to_ram does the same for one MSI-X table entry
 * (qpci_msix_enable must have run) and unmasks it.
 */
void e1000epp_msi_enable(E1000epp *d, uint64_t addr, uint16_t data);
void e1000epp_msix_vector_to_ram(E1000epp *d, uint16_t vector, uint64_t addr,
                                 uint32_t data);

/* Transmit: descriptors are 16 bytes in guest byte order */
void e1000epp_txd_legacy(uint8_t *desc, uint64_t addr, uint16_t len,
                         uint32_t cmd);
void e1000epp_txd_context(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                          uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                          uint16_t tucse, uint32_t paylen_tucmd);
void e1000epp_txd_data(uint8_t *desc, uint64_t addr, uint32_t len,
                       uint32_t dcmd, uint32_t popts);
uint32_t e1000epp_tx_write(E1000epp *d, const uint8_t *desc);
void e1000epp_tx_kick(E1000epp *d);
uint32_t e1000epp_tx_push(E1000epp *d, const uint8_t *desc);
void e1000epp_tx_wait_done(E1000epp *d);
void e1000epp_tx_desc(E1000epp *d, uint32_t idx, uint8_t *desc);

/* Frames on the netdev socket (4-byte big-endian length, no FCS) */
void e1000epp_inject(E1000epp *d, const void *frame, size_t len);
void e1000epp_wait_injected(E1000epp *d);
size_t e1000epp_collect(E1000epp *d, void *buf, size_t cap);
bool e1000epp_wire_idle(E1000epp *d);

/* Guest memory */
uint64_t e1000epp_alloc(E1000epp *d, size_t size);
void e1000epp_memwrite(E1000epp *d, uint64_t addr, const void *buf,
                       size_t len);
void e1000epp_memread(E1000epp *d, uint64_t addr, void *buf, size_t len);

/* Little-endian field helpers for descriptors */
static inline uint32_t e1000epp_le32(const uint8_t *p)
{
    return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint16_t e1000epp_le16(const uint8_t *p)
{
    return p[0] | (p[1] << 8);
}

/* Ethernet FCS (CRC-32, IEEE 802.3) over a frame without its FCS */
uint32_t e1000epp_fcs(const uint8_t *frame, size_t len);

#endif /* E1000E_PP_DRV_H */
