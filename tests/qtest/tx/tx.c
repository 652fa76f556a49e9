/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transmit qtests for the 82574L model, checked against the 82574L
 * datasheet.
 *
 * Every scenario runs on "e1000e-pp" and on the stock "e1000e".  Where
 * the stock model is known to differ, the scenario says so in a
 * "stock e1000e:" comment and asserts the stock behaviour or skips with
 * the reason.  A model that is not built into the binary is skipped.
 *
 * Paths: /x86_64/<model>/<scenario>, e.g. /x86_64/e1000e-pp/tso_ipv4_mss_536.
 * The helpers the transmit scenario files in tx/ share; each file is
 * its own binary, e1000e-pp-tx-<file>-test.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "tx.h"

/* Copy a buffer into fresh guest memory; its guest address */
uint64_t put_guest(EppDev *d, const uint8_t *buf, size_t len)
{
    uint64_t g = epp_alloc(d, len);

/* Queue n descriptors with one TDT write and wait until they are done */
    epp_memwrite(d, g, buf, len);
    return g;
}

void push_all(EppDev *d, uint8_t (*desc)[EPP_DESC_LEN], int n)
{
    int i;

    for (i = 0; i < n; i++) {
        epp_tx_write(d, desc[i]);
    }
    epp_tx_kick(d);
    epp_tx_wait_done(d);
}

void txd_context_tso(uint8_t *desc, uint8_t ipcss, uint8_t ipcso,
                     uint16_t ipcse, uint8_t tucss, uint8_t tucso,
                     uint16_t tucse, uint32_t paylen, uint32_t tucmd,
                     uint8_t hdrlen, uint16_t mss)
{
    g_assert(paylen < (1u << 20));
    epp_txd_context(desc, ipcss, ipcso, ipcse, tucss, tucso, tucse,
                    paylen | tucmd);
    /* §7.2.10.2 dword 3: STA 7:0, HDRLEN 15:8, MSS 31:16 */
    stl_le_p(desc + 12, ((uint32_t)hdrlen << 8) | ((uint32_t)mss << 16));
}
