/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DMA-fault diagnosis and situation coverage: a buffer posted shorter
 * than the frame gives one fault record naming its descriptor, address
 * and frame; the situations property counts what the datapath did.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-rxring.h"
#include "e1000e-pp-scenario.h"
#include "rx.h"

/* -m 128M: guest RAM ends here; the PCI hole above answers no write. */
#define RAM_END         UINT64_C(0x8000000)
#define SHORT_BYTES     256

static uint64_t situation(const char *list, const char *name)
{
    g_autofree char *key = g_strdup_printf("\n%s ", name);
    g_autofree char *text = g_strdup_printf("\n%s", list);
    const char *p = strstr(text, key);

    g_assert_nonnull(p);
    return g_ascii_strtoull(p + strlen(key), NULL, 10);
}

/*
 * Given descriptor 1 posted with only SHORT_BYTES of memory behind it
 * (the rest of the 2 KiB BSIZE is past the end of RAM, as a page freed
 * or mapped too short would be), when three 1000-byte frames arrive,
 * then exactly one fault is listed: rx-data, descriptor 1, that buffer
 * address, the second frame, a write; frames 1 and 3 land whole, and
 * the situations list counts one dma-fault and no ring-dry.
 *
 * stock e1000e has neither property; it must still deliver frame 3.
 */
static void rx_short_buffer_one_fault_record(const char *model)
{
    EppDev *d = epp_start(model, "-m 128M");
    uint64_t a = epp_alloc(d, 2048), c = epp_alloc(d, 2048);
    uint8_t wire[1000], got[1000];
    unsigned i;

    epp_bring_up(d, &epp_default_config);
    epp_rx_post_addr(d->rx, a);
    epp_rx_post_addr(d->rx, RAM_END - SHORT_BYTES);
    epp_rx_post_addr(d->rx, c);
    for (i = 0; i < 3; i++) {
        epp_frame_fill(wire, sizeof(wire), false, i + 1);
        epp_inject(d, wire, sizeof(wire));
        epp_rx_wait_dd(d->rx, i);
    }
    epp_memread(d, c, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), wire, sizeof(wire));
    epp_frame_fill(wire, sizeof(wire), false, 1);
    epp_memread(d, a, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), wire, sizeof(wire));
    if (!epp_is_stock(model)) {
        g_autofree char *faults = epp_qom_str(d, "dma-faults");
        g_autofree char *sits = epp_qom_str(d, "situations");
        g_autofree char *want = g_strdup_printf(
            " frame=2 rx-data desc=1 addr=0x%" PRIx64 " offset=0 len=%zu "
            "write\n", RAM_END - SHORT_BYTES, sizeof(wire));

        g_test_message("dma-faults: %s", faults);
        g_assert_cmpuint(epp_qom_u64(d, "dma-fault-count"), ==, 1);
        g_assert_nonnull(strstr(faults, want));
        g_assert_cmpuint(situation(sits, "dma-fault"), ==, 1);
        g_assert_cmpuint(situation(sits, "ring-dry-midframe"), ==, 0);
        g_assert_cmpuint(situation(sits, "fcs-straddle"), ==, 0);
    }
    epp_stop(d);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(rx_short_buffer_one_fault_record),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
