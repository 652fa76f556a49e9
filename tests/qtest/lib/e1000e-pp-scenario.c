/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every qtest binary shares (see e1000e-pp-scenario.h): scenario
 * registration for both models, the stock/pp check, frame builders,
 * checksums and the wire checks.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-scenario.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

const uint8_t epp_peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* ---------------------------------------------------------------- */
/* Registration                                                     */
/* ---------------------------------------------------------------- */

static const char *const models[] = { "e1000e-pp", "e1000e" };

typedef struct CaseRun {
    const char *model;
    void (*plain)(const char *model);
    EppCaseFn fn;
    const void *data;
} CaseRun;

static void run_case(const void *opaque)
{
    const CaseRun *run = opaque;

    if (!qtest_has_device(run->model)) {
        g_test_skip("device not built into this QEMU binary");
        return;
    }
    if (run->plain) {
        run->plain(run->model);
    } else {
        run->fn(run->model, run->data);
    }
}

static void add_run(const char *model, const char *name,
                    void (*plain)(const char *), EppCaseFn fn,
                    const void *data)
{
    CaseRun *run = g_new0(CaseRun, 1);
    g_autofree char *path = g_strdup_printf("%s/%s", model, name);

    run->model = model;
    run->plain = plain;
    run->fn = fn;
    run->data = data;
    qtest_add_data_func(path, run, run_case);
}

void epp_add_case(const char *name, EppCaseFn fn, const void *data)
{
    size_t m;

    for (m = 0; m < ARRAY_SIZE(models); m++) {
        add_run(models[m], name, NULL, fn, data);
    }
}

void epp_add_pp_case(const char *name, EppCaseFn fn,
                     const void *data)
{
    add_run(models[0], name, NULL, fn, data);
}

int epp_main(int argc, char **argv, const EppScenario *list, size_t n,
             void (*add_cases)(void))
{
    size_t m, s;

    g_test_init(&argc, &argv, NULL);
    if (add_cases) {
        add_cases();
    }
    for (m = 0; m < ARRAY_SIZE(models); m++) {
        for (s = 0; s < n; s++) {
            if (m == 0 || !list[s].pp_only) {
                add_run(models[m], list[s].name, list[s].fn, NULL, NULL);
            }
        }
    }
    return g_test_run();
}

/* ---------------------------------------------------------------- */
/* Models, frames, checksums, the wire                              */
/* ---------------------------------------------------------------- */

bool epp_is_stock(const char *model)
{
    return strcmp(model, "e1000e") == 0;
}

bool epp_on_stock(const char *model, const char *difference)
{
    if (!epp_is_stock(model)) {
        return false;
    }
    g_test_message("stock e1000e differs: %s", difference);
    return true;
}

uint64_t epp_by_model(const char *model, uint64_t pp, uint64_t stock)
{
    return epp_is_stock(model) ? stock : pp;
}

bool epp_qom_has(EppDev *d, const char *property)
{
    QDict *rsp = qtest_qmp(d->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': '/machine/peripheral/" EPP_DEV_ID "', "
                           "'property': %s}}", property);
    bool has = qdict_haskey(rsp, "return");

    g_assert(has || qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    return has;
}

uint32_t epp_csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
    size_t i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += (p[i] << 8) | p[i + 1];
    }
    if (len & 1) {
        sum += p[len - 1] << 8;
    }
    return sum;
}

uint16_t epp_csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return sum;
}

void epp_tx_eth_header(uint8_t *f, uint16_t ethertype)
{
    /* To the peer, from the device's own MAC */
    memcpy(f, epp_peer_mac, 6);
    memcpy(f + 6, epp_mac, 6);
    stw_be_p(f + 12, ethertype);
}

void epp_fill_pattern(uint8_t *p, size_t len, uint8_t seed)
{
    size_t i;

    for (i = 0; i < len; i++) {
        p[i] = seed + i * 13 + (i >> 8);
    }
}

static void hex_row(const char *tag, size_t off, const uint8_t *p, size_t n)
{
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; i < n; i++) {
        g_string_append_printf(s, "%s%02x", i && !(i % 4) ? " " : "", p[i]);
    }
    g_test_message("  %04zx %s %s", off, tag, s->str);
    g_string_free(s, true);
}

void epp_expect_frame(EppDev *d, const uint8_t *want, size_t len,
                      const char *what)
{
    g_autofree uint8_t *got = g_malloc(65536);
    size_t n = epp_collect(d, got, 65536), common, first, row;
    g_autofree char *why = NULL;

    if (n == len && memcmp(got, want, len) == 0) {
        return;
    }
    common = MIN(n, len);
    for (first = 0; first < common && got[first] == want[first]; first++) {
        continue;
    }
    if (n != len) {
        why = g_strdup_printf("%s: %zu bytes on the wire, expected %zu "
                              "(first difference at byte %zu)",
                              what, n, len, first);
    } else {
        why = g_strdup_printf("%s: byte %zu is 0x%02x, expected 0x%02x "
                              "(%zu bytes)", what, first, got[first],
                              want[first], len);
    }
    /* The 16-byte rows around the first difference */
    row = first >= 32 ? (first & ~(size_t)15) - 32 : 0;
    for (; row < common && row < first + 48; row += 16) {
        hex_row("got ", row, got + row, MIN(16, common - row));
        hex_row("want", row, want + row, MIN(16, common - row));
    }
    epp_dump_regs(d, why);
    g_error("%s on %s", why, d->model);
}

void epp_expect_wire_idle(EppDev *d)
{
    uint8_t hdr[4];

    /* A register read lets QEMU's main loop flush anything queued */
    epp_rd(d, STATUS);
    if (!epp_wire_idle(d)) {
        g_autofree char *why = NULL;
        ssize_t n = recv(d->sock[0], hdr, sizeof(hdr), MSG_PEEK);

        why = g_strdup_printf("unexpected frame on the wire (%u bytes)",
                              n == 4 ? ldl_be_p(hdr) : 0);
        epp_dump_regs(d, why);
        g_error("%s on %s", why, d->model);
    }
}

void epp_main_loop_turn(EppDev *d)
{
    /*
     * A STATUS read (no side effect) is a qtest command: QEMU's main
     * loop wakes for it and, in the same iteration, serves every other
     * descriptor that is ready, the netdev socket among them.
     */
    epp_rd(d, STATUS);
}

void epp_run_until(EppDev *d, EppCond cond, void *opaque,
                const char *what)
{
    int i;

    /* A host event, not a device timing: counted in main-loop turns */
    for (i = 0; i < EPP_MAIN_LOOP_TURNS; i++) {
        if (cond(d, opaque)) {
            return;
        }
        epp_main_loop_turn(d);
    }
    epp_dump_regs(d, what);
    g_error("%s: not reached in %d main-loop turns without advancing "
            "virtual time on %s", what, EPP_MAIN_LOOP_TURNS, d->model);
}

bool epp_netdev_took_all(EppDev *d, void *opaque)
{
    int unread = 0;

    return ioctl(d->sock[0], SIOCOUTQ, &unread) == 0 && unread == 0;
}

void epp_step_to(EppDev *d, int64_t t_ns)
{
    if (t_ns > d->now_ns) {
        epp_step(d, t_ns - d->now_ns);
    }
    g_assert_cmpint(d->now_ns, ==, t_ns);
}

/*
 * A frame to our MAC: optional 802.1Q tag, EtherType 0x88b5, a 32-bit
 * sequence number, then a pattern that differs per frame and per byte.
 */
void epp_frame_fill(uint8_t *f, size_t len, bool tagged, uint32_t seq)
{
    size_t off = 12, i;

    g_assert(len >= 60);
    memcpy(f, epp_mac, 6);
    memcpy(f + 6, epp_peer_mac, 6);
    if (tagged) {
        stw_be_p(f + 12, 0x8100);
        stw_be_p(f + 14, EPP_VLAN_TCI);
        off = 16;
    }
    stw_be_p(f + off, EPP_ETH_P_TEST);
    stl_be_p(f + off + 2, seq);
    for (i = off + 6; i < len; i++) {
        f[i] = seq * 31 + i * 7 + (i >> 8);
    }
}

uint32_t epp_frame_seq(const uint8_t *f, bool tag_in_buffer)
{
    return ldl_be_p(f + (tag_in_buffer ? 16 : 12) + 2);
}
