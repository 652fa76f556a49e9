/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The qtest driver's data-path verbs (see e1000e-pp-drv.h): Tx
 * descriptors on the driver's own ring (the Rx ring's are in
 * e1000e-pp-rxring.c), frames on the netdev socket,
 * guest memory, the Ethernet FCS and the model's QOM counters.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "hw/pci/pci_regs.h"
#include "libqos/pci.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

/* ---------------------------------------------------------------- */
/* Power management                                                 */
/* ---------------------------------------------------------------- */

static uint8_t pm_cap(EppDev *d)
{
    uint8_t pm = qpci_find_capability(d->pdev, PCI_CAP_ID_PM, 0);

    g_assert(pm);
    return pm;
}

uint16_t epp_pmcsr(EppDev *d)
{
    return qpci_config_readw(d->pdev, pm_cap(d) + PCI_PM_CTRL);
}

void epp_pmcsr_write(EppDev *d, uint16_t v)
{
    qpci_config_writew(d->pdev, pm_cap(d) + PCI_PM_CTRL, v);
}

/* ---------------------------------------------------------------- */
/* Transmit                                                         */
/* ---------------------------------------------------------------- */

void epp_txd_legacy(uint8_t *desc, uint64_t addr, uint16_t len,
                    uint32_t cmd)
{
    /* Legacy (§7.2.10.1): address; length | CSO | CMD; STA | CSS | VLAN */
    stq_le_p(desc, addr);
    stl_le_p(desc + 8, len | cmd);
    stl_le_p(desc + 12, 0);
}

void epp_txd_context(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                     uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                     uint16_t tucse, uint32_t paylen_tucmd)
{
    /*
     * Context (§7.2.10.2): IPCSS | IPCSO | IPCSE; TUCSS | TUCSO | TUCSE;
     * PAYLEN | DTYP=0000 | TUCMD (with DEXT); STA | HDRLEN | MSS.
     */
    stl_le_p(desc, ipcss | (ipcso << 8) | ((uint32_t)ipcse << 16));
    stl_le_p(desc + 4, tucss | (tucso << 8) | ((uint32_t)tucse << 16));
    stl_le_p(desc + 8, paylen_tucmd | TXD_DTYP_CTX | TXD_CMD_DEXT);
    stl_le_p(desc + 12, 0);
}

void epp_txd_data(uint8_t *desc, uint64_t addr, uint32_t len,
                  uint32_t dcmd, uint32_t popts)
{
    /* Data (§7.2.10.3): address; DTALEN | DTYP=0001 | DCMD; STA | POPTS */
    g_assert(len < (1u << 20));
    stq_le_p(desc, addr);
    stl_le_p(desc + 8, len | TXD_DTYP_DATA | TXD_CMD_DEXT | dcmd);
    stl_le_p(desc + 12, popts);
}

uint32_t epp_tx_write(EppDev *d, const uint8_t *desc)
{
    uint32_t idx = d->tx_tail;

    qtest_memwrite(d->qts, d->tx_ring + idx * EPP_DESC_LEN, desc,
                   EPP_DESC_LEN);
    d->tx_tail = (idx + 1) % EPP_RING_COUNT;
    return idx;
}

void epp_tx_kick(EppDev *d)
{
    epp_wr(d, TDT0, d->tx_tail);
}

uint32_t epp_tx_push(EppDev *d, const uint8_t *desc)
{
    uint32_t idx = epp_tx_write(d, desc);

    epp_tx_kick(d);
    return idx;
}

void epp_tx_wait_done(EppDev *d)
{
    /* TDH == TDT: the device has fetched and processed every descriptor */
    epp_wait_reg(d, TDH0, 0xffff, d->tx_tail, 100 * EPP_NS_PER_MS);
}

void epp_tx_desc(EppDev *d, uint32_t idx, uint8_t *desc)
{
    qtest_memread(d->qts, d->tx_ring + idx * EPP_DESC_LEN, desc,
                  EPP_DESC_LEN);
}

/* ---------------------------------------------------------------- */
/* Frames on the netdev socket                                      */
/* ---------------------------------------------------------------- */

/*
 * Deadline for a frame to fit into the netdev socket: QEMU reads it in
 * its main loop (a model that holds frames upstream stops reading), so
 * each try lets the main loop run with a register read (no sleep: the
 * read is answered only once QEMU's main loop has had its turn).
 */
#define INJECT_TRIES        5000

void epp_inject(EppDev *d, const void *frame, size_t len)
{
    g_autofree uint8_t *msg = g_malloc(len + 4);
    size_t off = 0;
    ssize_t ret;
    int tries;

    stl_be_p(msg, len);
    memcpy(msg + 4, frame, len);
    for (tries = 0; off < len + 4; tries++) {
        if (tries == INJECT_TRIES) {
            epp_dump_regs(d, "injecting a frame");
            g_error("the netdev socket took %zu of %zu bytes of a frame "
                    "in %d tries on %s", off, len + 4, INJECT_TRIES,
                    d->model);
        }
        ret = send(d->sock[0], msg + off, len + 4 - off, MSG_DONTWAIT);
        if (ret > 0) {
            off += ret;
            continue;
        }
        g_assert_true(ret < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
        epp_rd(d, STATUS);
    }
}

/*
 * Wait until QEMU has read every byte injected so far: the socket netdev
 * hands each frame to the device as it reads it, so a device that takes
 * every frame (dropping what does not fit) has then seen them all.  Each
 * round is a register read, which gives QEMU's main loop a turn.
 */
void epp_wait_injected(EppDev *d)
{
    int unread = 0, round;

    for (round = 0; round < INJECT_TRIES; round++) {
        g_assert_cmpint(ioctl(d->sock[0], SIOCOUTQ, &unread), ==, 0);
        if (!unread) {
            return;
        }
        epp_rd(d, STATUS);
    }
    epp_dump_regs(d, "waiting for injected frames");
    g_error("QEMU left %d injected bytes unread after %d rounds on %s",
            unread, INJECT_TRIES, d->model);
}

static bool wire_has_data(EppDev *d, void *opaque)
{
    return !epp_wire_idle(d);
}

bool epp_wire_idle(EppDev *d)
{
    struct pollfd pfd = { .fd = d->sock[0], .events = POLLIN };

    return poll(&pfd, 1, 0) == 0;
}

size_t epp_collect(EppDev *d, void *buf, size_t cap)
{
    uint8_t hdr[4];
    uint32_t len;
    ssize_t ret;

    epp_wait_until(d, wire_has_data, NULL, 10 * EPP_NS_PER_US,
                   100 * EPP_NS_PER_MS, "frame on the wire");
    ret = recv(d->sock[0], hdr, sizeof(hdr), MSG_WAITALL);
    g_assert_cmpint(ret, ==, sizeof(hdr));
    len = ldl_be_p(hdr);
    g_assert_cmpuint(len, <=, cap);
    ret = recv(d->sock[0], buf, len, MSG_WAITALL);
    g_assert_cmpint(ret, ==, len);
    return len;
}

/* ---------------------------------------------------------------- */
/* Guest memory and helpers                                         */
/* ---------------------------------------------------------------- */

uint64_t epp_alloc(EppDev *d, size_t size)
{
    uint64_t addr = guest_alloc(&d->alloc, size);

    g_assert(addr != 0);
    return addr;
}

void epp_memwrite(EppDev *d, uint64_t addr, const void *buf,
                  size_t len)
{
    qtest_memwrite(d->qts, addr, buf, len);
}

void epp_memread(EppDev *d, uint64_t addr, void *buf, size_t len)
{
    qtest_memread(d->qts, addr, buf, len);
}

uint32_t epp_fcs(const uint8_t *frame, size_t len)
{
    /* IEEE 802.3 CRC-32: reflected polynomial 0xedb88320, inverted */
    uint32_t crc = 0xffffffff;
    size_t i;
    int bit;

    for (i = 0; i < len; i++) {
        crc ^= frame[i];
        for (bit = 0; bit < 8; bit++) {
            crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
        }
    }
    return ~crc;
}

uint64_t epp_qom_u64(EppDev *d, const char *property)
{
    QDict *rsp = qtest_qmp(d->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': '/machine/peripheral/" EPP_DEV_ID "', "
                           "'property': %s}}", property);
    uint64_t v;

    g_assert(qdict_haskey(rsp, "return"));
    v = qdict_get_int(rsp, "return");
    qobject_unref(rsp);
    return v;
}

/* qom-set of a device property: false when the device refuses it */
bool epp_qom_set(EppDev *d, const char *property, uint64_t value)
{
    QDict *rsp = qtest_qmp(d->qts, "{'execute': 'qom-set', 'arguments': "
                           "{'path': '/machine/peripheral/" EPP_DEV_ID "', "
                           "'property': %s, 'value': %" PRIu64 "}}",
                           property, value);
    bool accepted = qdict_haskey(rsp, "return");

    g_assert_true(accepted || qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    return accepted;
}

/* A string property of the device (qom-get), g_free it */
char *epp_qom_str(EppDev *d, const char *property)
{
    QDict *rsp = qtest_qmp(d->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': '/machine/peripheral/" EPP_DEV_ID "', "
                           "'property': %s}}", property);
    char *v;

    g_assert(qdict_haskey(rsp, "return"));
    v = g_strdup(qdict_get_str(rsp, "return"));
    qobject_unref(rsp);
    return v;
}
