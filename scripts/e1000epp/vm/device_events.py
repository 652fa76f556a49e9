# SPDX-License-Identifier: GPL-2.0-or-later
"""A line of e1000e-pp's event list (QOM `events`,
hw/net/e1000e_pp/core/log.c): "<ns> <what> reg=0x... value=0x..." and,
under record/replay, " icount=N"."""


def fields(line):
    """The line's KEY=VALUE words as a dict of strings."""
    return dict(w.split("=", 1) for w in line.split() if "=" in w)
