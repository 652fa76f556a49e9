# SPDX-License-Identifier: GPL-2.0-or-later
"""The one error type every command raises for a failed step: what failed,
why, what to do, and the log to read; the CLI prints it as one message
and exits non-zero, without a traceback."""


class StepError(Exception):
    """A failed step: printed as one clear message by the CLI."""

    def __init__(self, what, why, fix=None, log=None, tail=None):
        super().__init__(what)
        self.what = what
        self.why = why
        self.fix = fix
        self.log = log
        self.tail = tail

    def render(self):
        lines = []
        if self.tail:
            lines.append("---- last lines of %s ----" % (self.log or "output"))
            lines.extend(self.tail)
            lines.append("----")
        lines.append("error: %s" % self.what)
        lines.append("  why: %s" % self.why)
        if self.fix:
            lines.append("  what to do: %s" % self.fix)
        if self.log:
            lines.append("  full log: %s" % self.log)
        return "\n".join(lines)
