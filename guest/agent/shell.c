/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * e1000e-pp agent: SH and SHT, a shell command with its output as data
 * lines.  The command runs in its own session so that a timeout kills the
 * whole process group it started; stdout and stderr come back line by
 * line (a line longer than the buffer is cut into several), then
 * "OK rc=<exit status>" (128 + signal for a killed command) or
 * "ERR timeout after <n> s".
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"

void shell_run(int timeout_s, const char *command)
{
    int pipefd[2];
    pid_t pid;
    char buf[AGENT_LINE_MAX];
    size_t fill = 0;
    int64_t deadline = now_ms() + (int64_t)timeout_s * 1000;
    bool timed_out = false;
    int status;

    if (pipe(pipefd) < 0) {
        reply("ERR pipe: %s", strerror(errno));
        return;
    }
    pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        reply("ERR fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);

        setsid();
        dup2(devnull, 0);
        dup2(pipefd[1], 1);
        dup2(pipefd[1], 2);
        /* The serial port and packet sockets are close-on-exec. */
        close(pipefd[0]);
        close(pipefd[1]);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(pipefd[1]);
    for (;;) {
        struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
        int64_t left = deadline - now_ms();
        ssize_t n;

        if (left <= 0) {
            timed_out = true;
            kill(-pid, SIGKILL);
            break;
        }
        if (poll(&pfd, 1, left) <= 0) {
            continue;
        }
        n = read(pipefd[0], buf + fill, sizeof(buf) - fill);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        fill += n;
        fill = reply_lines(buf, fill, sizeof(buf));
    }
    if (fill > 0) {
        reply_data(buf, fill);
    }
    close(pipefd[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        continue;
    }
    if (timed_out) {
        reply("ERR timeout after %d s", timeout_s);
    } else if (WIFEXITED(status)) {
        reply("OK rc=%d", WEXITSTATUS(status));
    } else {
        reply("OK rc=%d", 128 + WTERMSIG(status));
    }
}
