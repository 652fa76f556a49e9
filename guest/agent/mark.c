/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MARK verb of the in-guest agent: opens or closes a window of the guest
 * cost counter (tools/plugin/cost.c) with the marker instruction of
 * cost-mark.h.  Without the plugin loaded the marker is a plain NOP.
 *
 *   MARK start | stop            OK mark=<start|stop>
 */

#include <string.h>

#include "agent.h"
#include "cost-mark.h"

void cmd_mark(int argc, char **argv)
{
    if (argc != 2) {
        reply("ERR usage: MARK start|stop");
    } else if (strcmp(argv[1], "start") == 0) {
        __asm__ volatile(COST_MARK_ASM_START : : : "memory");
        reply("OK mark=start");
    } else if (strcmp(argv[1], "stop") == 0) {
        __asm__ volatile(COST_MARK_ASM_STOP : : : "memory");
        reply("OK mark=stop");
    } else {
        reply("ERR usage: MARK start|stop");
    }
}
