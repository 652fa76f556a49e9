# SPDX-License-Identifier: GPL-2.0-or-later
"""Progress lines and logged external commands.

Every external step runs through run_logged(): its whole output goes to a
log file under build/logs, the terminal gets short progress lines, and a
failure becomes a StepError carrying what failed, why, what to do, and the
tail of the log.
"""

import os
import re
import subprocess
import sys
import time

from e1000epp.common.errors import StepError


class Reporter:
    """Prints `[setup 3/7] building QEMU ...` style progress lines."""

    def __init__(self, name="setup", total=0, verbose=False, stream=None):
        self.name = name
        self.total = total
        self.index = 0
        self.verbose = verbose
        self.stream = stream or sys.stdout
        self.tty = self.stream.isatty()
        self._open_line = False

    def prefix(self):
        if self.total:
            return "[%s %d/%d]" % (self.name, self.index, self.total)
        return "[%s]" % self.name

    def step(self, title):
        self.index += 1
        self.line(title)

    def line(self, msg):
        self._end_update()
        self.stream.write("%s %s\n" % (self.prefix(), msg))
        self.stream.flush()

    def update(self, msg):
        """A line that overwrites itself on a terminal."""
        if self.tty:
            self.stream.write("\r\033[K%s %s" % (self.prefix(), msg))
            self._open_line = True
            self.stream.flush()
        else:
            self.line(msg)

    def _end_update(self):
        if self._open_line:
            self.stream.write("\n")
            self._open_line = False

    def done(self):
        self._end_update()


def tail_of(path, n=40):
    try:
        with open(path, "r", errors="replace") as f:
            return [ln.rstrip("\n") for ln in f.readlines()[-n:]]
    except OSError:
        return []


def run_logged(cmd, log, what, why_hint=None, fix=None, cwd=None, env=None,
               reporter=None, on_line=None, append=False):
    """Run cmd, output to `log`; raise StepError on failure.

    on_line(line) is called for every output line (used for progress).
    With reporter.verbose the output is echoed as well.
    Returns the elapsed seconds.
    """
    os.makedirs(os.path.dirname(log), exist_ok=True)
    start = time.monotonic()
    verbose = reporter is not None and reporter.verbose
    with open(log, "a" if append else "w") as out:
        out.write("$ %s\n" % " ".join(cmd))
        out.flush()
        try:
            proc = subprocess.Popen(cmd, cwd=cwd, env=env,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL,
                                    text=True, errors="replace")
        except OSError as e:
            raise StepError(what, "cannot start %s: %s" % (cmd[0], e.strerror),
                            fix or "run ./e1000e-pp setup (it installs the "
                            "build tools)")
        for line in proc.stdout:
            out.write(line)
            if verbose:
                reporter.done()
                sys.stdout.write(line)
            if on_line:
                on_line(line.rstrip("\n"))
        rc = proc.wait()
    if reporter:
        reporter.done()
    if rc != 0:
        why = "%s exited with status %d" % (os.path.basename(cmd[0]), rc)
        if why_hint:
            why += " (%s)" % why_hint
        raise StepError(what, why, fix, log=log, tail=tail_of(log))
    return time.monotonic() - start


NINJA_STATUS = re.compile(r"^\[(\d+)/(\d+)\]")


def ninja_progress(reporter, label):
    """An on_line callback turning ninja's [n/m] lines into progress."""
    state = {"last_pct": -10}

    def on_line(line):
        m = NINJA_STATUS.match(line)
        if not m:
            return
        n, total = int(m.group(1)), int(m.group(2))
        pct = 100 * n // max(total, 1)
        if reporter.tty:
            reporter.update("%s ... [%d/%d]" % (label, n, total))
        elif pct >= state["last_pct"] + 10 or n == total:
            state["last_pct"] = pct - pct % 10
            reporter.line("%s ... [%d/%d]" % (label, n, total))
    return on_line


def fmt_secs(s):
    if s >= 60:
        return "%dm%02ds" % (s // 60, s % 60)
    return "%.1fs" % s
