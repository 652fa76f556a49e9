/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: READ, files read without a shell.
 *
 *   READ <path>...        per file "D == <path>" then its lines as data
 *                         lines, or "D !! <path> <error>"; OK files=<n>
 *
 * The harness reads counters (tracefs histograms, /proc/interrupts) at
 * every cell's start and end; a shell and cat cost two forks each time,
 * which under TCG is most of the read.
 */

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "agent.h"

/* A counters file is a few KiB; more than this is cut (and said so). */
#define AGENT_READ_MAX      (256 * 1024)

static void read_one(const char *path)
{
    char buf[AGENT_LINE_MAX];
    char head[AGENT_LINE_MAX];
    size_t fill = 0, total = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int n;

    if (fd < 0) {
        n = snprintf(head, sizeof(head), "!! %s %s", path, strerror(errno));
        reply_data(head, n < (int)sizeof(head) ? (size_t)n : sizeof(head) - 1);
        return;
    }
    n = snprintf(head, sizeof(head), "== %s", path);
    reply_data(head, n < (int)sizeof(head) ? (size_t)n : sizeof(head) - 1);
    while (total < AGENT_READ_MAX) {
        ssize_t got = read(fd, buf + fill, sizeof(buf) - fill);

        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            break;
        }
        fill += got;
        total += got;
        fill = reply_lines(buf, fill, sizeof(buf));
    }
    if (fill > 0) {
        reply_data(buf, fill);
    }
    if (total >= AGENT_READ_MAX) {
        n = snprintf(head, sizeof(head), "!! %s cut at %d bytes", path,
                     AGENT_READ_MAX);
        reply_data(head, (size_t)n);
    }
    close(fd);
}

void cmd_read(int argc, char **argv)
{
    int i;

    if (argc < 2) {
        reply("ERR usage: READ <path>...");
        return;
    }
    for (i = 1; i < argc; i++) {
        read_one(argv[i]);
    }
    reply("OK files=%d", argc - 1);
}
