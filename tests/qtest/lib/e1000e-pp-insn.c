/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Instruction-count windows (see e1000e-pp-insn.h): callgrind_control
 * talks to the callgrind tool inside the emulator process through vgdb,
 * and returns once the tool has acted, so a window opens and closes
 * exactly around the qtest commands and frames between the two calls.
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "e1000e-pp-insn.h"

static void callgrind_control(EppDev *d, const char *opt)
{
    g_autofree char *pid = g_strdup_printf("%d", (int)qtest_pid(d->qts));
    g_autofree char *err = NULL;
    GError *gerr = NULL;
    int status;
    char *argv[] = {
        (char *)"callgrind_control", (char *)opt, pid, NULL,
    };

    if (!g_spawn_sync(NULL, argv, NULL,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                      NULL, NULL, NULL, &err, &status, &gerr)) {
        g_error("insn: cannot run callgrind_control: %s", gerr->message);
    }
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_error("insn: callgrind_control %s %s failed (is the emulator "
                "running under valgrind --tool=callgrind?): %s",
                opt, pid, err ? err : "");
    }
}

void epp_insn_count(EppDev *d, bool on)
{
    callgrind_control(d, on ? "--instr=on" : "--instr=off");
}

void epp_insn_dump(EppDev *d, const char *name)
{
    g_autofree char *opt = g_strdup_printf("--dump=%s", name);

    callgrind_control(d, opt);
}

void epp_insn_wide_socket(EppDev *d)
{
    int size = 16 << 20, i;

    /*
     * A full socket makes the netdev queue frames and flush them later,
     * at a moment that depends on when the test reads: extra work the
     * count would include or not. Root may raise the limit (FORCE).
     */
    for (i = 0; i < 2; i++) {
        if (setsockopt(d->sock[i], SOL_SOCKET, SO_SNDBUFFORCE, &size,
                       sizeof(size)) < 0) {
            setsockopt(d->sock[i], SOL_SOCKET, SO_SNDBUF, &size,
                       sizeof(size));
        }
        if (setsockopt(d->sock[i], SOL_SOCKET, SO_RCVBUFFORCE, &size,
                       sizeof(size)) < 0) {
            setsockopt(d->sock[i], SOL_SOCKET, SO_RCVBUF, &size,
                       sizeof(size));
        }
    }
}
