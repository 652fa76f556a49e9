# SPDX-License-Identifier: GPL-2.0-or-later
"""One suite's counts and notes, the -k rule every suite shares, and the
summary table `./e1000e-pp test` prints."""


def selected(name, k):
    """-k for every suite: the test's full name contains k, ignoring case."""
    return k is None or k.lower() in name.lower()


class SuiteResult:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.seconds = 0.0
        self.notes = []
        self.broken = 0     # failures no test reported (see fail())

    @property
    def note(self):
        return "; ".join(self.notes)

    def total(self):
        return self.passed + self.failed + self.skipped

    def fail(self, why):
        """Count one failure that no test reported (a missing binary, a
        crash, a timeout, an empty suite), with its reason in the note."""
        self.failed += 1
        self.broken += 1
        self.notes.append(why)

    def row(self):
        return [self.name, str(self.passed), str(self.failed),
                str(self.skipped), "%.1f" % self.seconds, self.note]


def table(headers, rows):
    widths = [max(len(str(r[i])) for r in [headers] + rows)
              for i in range(len(headers))]
    out = []
    for r in [headers] + rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths))
                   .rstrip())
        if r is headers:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
