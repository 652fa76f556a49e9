/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hostile migration streams: a stream is input.  The mid-frame state
 * (a 5004-byte frame part-moved into 2 KB buffers, the rest in the
 * packet buffer) is saved once; then, over and over, a copy with a few
 * bytes of the device's own section changed is loaded by a destination
 * (migrate-incoming with exit-on-error off).  Each load must either be
 * refused with an error, QEMU still answering, or load into a device
 * that then takes register accesses, a frame and timer expiries
 * without QEMU dying: never a crash, hang or sanitizer report (the
 * qtest-sanitized suite runs this against QEMU built with ASan+UBSan).
 *
 * The mutations are drawn from a fixed seed, so a run is repeatable;
 * E1000EPP_HOSTILE_SECONDS=N keeps drawing for N seconds (the long run,
 * docs/security.md) instead of the default HOSTILE_STREAMS loads.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "libqtest.h"
#include "e1000e-pp-regs.h"
#include "e1000e-pp-drv.h"
#include "e1000e-pp-migrate.h"
#include "e1000e-pp-scenario.h"

#define FRAME_LEN       EPP_MID_FRAME_LEN
#define HOSTILE_STREAMS 24
/* migration.h: a whole section, and the footer that ends one */
#define SECTION_FULL    0x04
#define SECTION_FOOTER  0x7e

/* Where the device's section data lies in a saved stream. */
typedef struct Section {
    size_t start, end;
    size_t sub[16];         /* just past each subsection's name */
    unsigned nsub;
} Section;

/*
 * A subsection is its name "<vmsd>/<part>" and a be32 version, then
 * its fields: the sometimes-present state (held frames, write-backs,
 * windows) that sizes and indexes the most.
 */
static void find_subsections(const uint8_t *s, Section *sec,
                             const char *model)
{
    g_autofree char *prefix = g_strdup_printf("%s/", model);
    size_t n = strlen(prefix), p;

    sec->nsub = 0;
    for (p = sec->start; p + n < sec->end &&
         sec->nsub < G_N_ELEMENTS(sec->sub); p++) {
        if (!memcmp(s + p, prefix, n) && s[p - 1] > n) {
            sec->sub[sec->nsub++] = p + s[p - 1] + 4;
        }
    }
}

/*
 * A section starts SECTION_FULL, its be32 id, a length byte and the
 * idstr "<pci address>/<vmsd name>", then be32 instance and version
 * ids; it ends with SECTION_FOOTER and the id again.
 */
static Section device_section(const uint8_t *s, size_t len,
                              const char *model)
{
    g_autofree char *tail = g_strdup_printf("/%s", model);
    size_t n = strlen(tail), p, k;
    Section sec;

    for (p = 8; p + n <= len; p++) {
        if (memcmp(s + p, tail, n)) {
            continue;
        }
        for (k = 1; k < 64 && k <= p - 6; k++) {
            size_t at = p + n - k;        /* first byte of the idstr */

            if (s[at - 1] == k && s[at - 6] == SECTION_FULL) {
                uint32_t id = ldl_be_p(s + at - 5);

                sec.start = p + n + 8;
                for (sec.end = sec.start; sec.end + 5 <= len; sec.end++) {
                    if (s[sec.end] == SECTION_FOOTER &&
                        ldl_be_p(s + sec.end + 1) == id) {
                        find_subsections(s, &sec, model);
                        return sec;
                    }
                }
            }
        }
    }
    g_error("no %s section in the migration stream", model);
}

static uint32_t next_rand(uint32_t *x)
{
    /* xorshift32: a fixed, portable sequence */
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/*
 * One to four changes: a bit, a byte, or a 32-bit field made extreme;
 * half of them in the first 64 bytes of a subsection's fields.
 */
static void mutate(uint8_t *s, Section sec, uint32_t *rnd)
{
    static const uint32_t extreme[] = {
        0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x10000, 0x20000,
    };
    unsigned i, n = 1 + next_rand(rnd) % 4;

    for (i = 0; i < n; i++) {
        size_t at = sec.start + next_rand(rnd) % (sec.end - sec.start);

        if (sec.nsub && next_rand(rnd) % 2) {
            at = MIN(sec.sub[next_rand(rnd) % sec.nsub] +
                     next_rand(rnd) % 64, sec.end - 1);
        }

        switch (next_rand(rnd) % 3) {
        case 0:
            s[at] ^= 1 << (next_rand(rnd) % 8);
            break;
        case 1:
            s[at] = next_rand(rnd);
            break;
        default:
            if (at + 4 <= sec.end) {
                stl_be_p(s + at, extreme[next_rand(rnd) %
                                         G_N_ELEMENTS(extreme)]);
            }
            break;
        }
    }
}

/*
 * Load path into a fresh destination; true when it was refused.  A
 * loaded device is then driven: registers, a frame, timers.
 */
static bool load_hostile(EppDev *src, const char *path)
{
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *status = NULL;
    g_autofree uint8_t *wire = g_malloc(FRAME_LEN);
    EppDev *dst = epp_start_dev(src->model, NULL, "-incoming defer");
    bool refused;

    epp_migration_events(dst->qts);
    qtest_qmp_assert_success(dst->qts, "{'execute': 'migrate-incoming',"
                             " 'arguments': {'uri': %s,"
                             " 'exit-on-error': false}}", uri);
    status = epp_migration_end(dst->qts);
    refused = !strcmp(status, "failed");
    if (!refused) {
        qtest_qmp_assert_success(dst->qts, "{'execute': 'cont'}");
        dst->mmio = src->mmio;
        epp_rd(dst, STATUS);
        epp_rd(dst, ICR);
        epp_wr(dst, RDT0, epp_rd(dst, RDT0));
        epp_frame_fill(wire, FRAME_LEN, false, 2);
        epp_inject(dst, wire, FRAME_LEN);
        epp_step(dst, 10 * EPP_NS_PER_MS);
        epp_rd(dst, STATUS);
    }
    /* Alive either way: QMP still answers. */
    qtest_qmp_assert_success(dst->qts, "{'execute': 'query-status'}");
    epp_stop(dst);
    return refused;
}

/*
 * Given the mid-frame state saved to a file, when destinations load
 * copies with 1-4 bytes of the device's section changed (a bit, a byte,
 * a 32-bit field set to 0, 1, 2^31 - 1, 2^31, 2^32 - 1, 64 or 128 KiB),
 * then each refuses the stream or loads it and keeps running: QEMU
 * never exits, crashes or hangs.
 *
 * stock e1000e: the same, against QEMU's own checks of its section.
 */
static void migrate_hostile_streams_refused_or_survived(const char *model)
{
    g_autofree char *path = epp_stream_path();
    g_autofree char *mut = epp_stream_path();
    g_autofree uint8_t *stream = NULL;
    const char *env = g_getenv("E1000EPP_HOSTILE_SECONDS");
    gint64 until = env ? g_get_monotonic_time() +
                         g_ascii_strtoll(env, NULL, 10) * G_USEC_PER_SEC : 0;
    unsigned loads = 0, refused = 0;
    uint32_t rnd = 0x1000e;
    EppDev *d = epp_start(model, NULL);
    Section sec;
    gsize len;

    epp_mid_frame(d, 0);
    epp_save(d, path);
    g_assert_true(g_file_get_contents(path, (char **)&stream, &len, NULL));
    sec = device_section(stream, len, model);
    g_test_message("%s section: %zu bytes at %zu of %zu, %u subsections",
                   model, sec.end - sec.start, sec.start, (size_t)len,
                   sec.nsub);

    while (until ? g_get_monotonic_time() < until
                 : loads < HOSTILE_STREAMS) {
        g_autofree uint8_t *copy = g_memdup2(stream, len);

        mutate(copy, sec, &rnd);
        g_assert_true(g_file_set_contents(mut, (char *)copy, len, NULL));
        refused += load_hostile(d, mut);
        loads++;
    }
    g_test_message("%s: %u hostile streams, %u refused, %u loaded and ran",
                   model, loads, refused, loads - refused);
    unlink(mut);
    unlink(path);
    epp_stop(d);
    g_assert_cmpuint(loads, >=, 1);
}

static const EppScenario scenarios[] = {
    EPP_SCENARIO(migrate_hostile_streams_refused_or_survived),
};

int main(int argc, char **argv)
{
    return epp_main(argc, argv, scenarios, ARRAY_SIZE(scenarios),
                    NULL);
}
