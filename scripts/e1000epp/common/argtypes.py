# SPDX-License-Identifier: GPL-2.0-or-later
"""Argument types of the command line: each checks one kind of user input
and raises argparse.ArgumentTypeError with a one-line reason, so a bad value
ends as `e1000e-pp CMD: error: ...` and exit status 2, never a traceback."""

import argparse
import os


def positive_int(text):
    """A whole number >= 1 (--jobs, --frames, ...)."""
    try:
        n = int(text, 10)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(
            "must be a positive integer, not %r" % text)
    return n


def int_range(lo, hi):
    """A type for a whole number in lo..hi."""
    def parse(text):
        try:
            n = int(text, 10)
        except ValueError:
            n = None
        if n is None or not lo <= n <= hi:
            raise argparse.ArgumentTypeError(
                "must be a whole number from %d to %d, not %r"
                % (lo, hi, text))
        return n
    parse.__name__ = "number"
    return parse


def seconds(hi):
    """A type for a duration in seconds, more than 0 and at most hi."""
    def parse(text):
        try:
            x = float(text)
        except ValueError:
            x = None
        if x is None or not 0 < x <= hi:
            raise argparse.ArgumentTypeError(
                "must be a number of seconds in (0, %g], not %r"
                % (hi, text))
        return x
    parse.__name__ = "seconds"
    return parse


def name_list(what, choices):
    """A type for comma-separated names out of `choices`, in the order
    given and without repeats (`--suite unit,qtest`); `what` names one of
    them in the error ("unknown suite 'foo' (choose from ...)")."""
    def parse(text):
        names = []
        for s in text.split(","):
            s = s.strip()
            if s and s not in names:
                names.append(s)
        if not names:
            raise argparse.ArgumentTypeError(
                "no %s given (choose from %s)" % (what, ",".join(choices)))
        bad = [s for s in names if s not in choices]
        if bad:
            raise argparse.ArgumentTypeError(
                "unknown %s %s (choose from %s)"
                % (what + ("s" if len(bad) > 1 else ""),
                   ", ".join(repr(s) for s in bad), ",".join(choices)))
        return names
    parse.__name__ = what
    return parse


def nonempty(text):
    """Any text but the empty string (-k '')."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def output_dir(text):
    """A directory to write into: it exists and is writable, or it can be
    created (its nearest existing parent is a writable directory)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    path = os.path.abspath(text)
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise argparse.ArgumentTypeError(
                "%s exists and is not a directory" % text)
        if not os.access(path, os.W_OK | os.X_OK):
            raise argparse.ArgumentTypeError(
                "directory %s is not writable" % text)
        return path
    parent = os.path.dirname(path)
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise argparse.ArgumentTypeError(
            "cannot create %s: %s is not a directory" % (text, parent))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(
            "cannot create %s: %s is not writable" % (text, parent))
    return path
