# SPDX-License-Identifier: GPL-2.0-or-later
"""Running a qtest binary by hand, as `bench` and `report` do: the
environment it needs, the not-built check, one-line errors (exit code 2)."""

import os
import subprocess
import sys

from e1000epp.common import paths


def fail(msg):
    """Print `error: msg` and return the exit code of a usage problem."""
    print("error: " + msg, file=sys.stderr)
    return 2


def need(*binaries):
    """(binary, how to build it) pairs: fail() for the first one that is not
    built, None when all are."""
    for binary, how in binaries:
        if not os.access(binary, os.X_OK):
            return fail("%s is not built; %s"
                        % (os.path.relpath(binary, paths.REPO), how))
    return None


def need_qtest(binary):
    """need() for the emulator and one qtest binary under build/qemu."""
    return need((paths.QEMU_BIN, "run ./e1000e-pp setup"),
                (binary, "run: ninja -C build/qemu "
                 + os.path.relpath(binary, paths.QEMU_BUILD)))


def env():
    """The environment with QTEST_QEMU_BINARY set to the built emulator."""
    e = dict(os.environ)
    e["QTEST_QEMU_BINARY"] = paths.QEMU_BIN
    return e


def spawn(argv, stderr=subprocess.STDOUT):
    """Start argv with env() and its stdout as text lines; None (after the
    error line) when it cannot start."""
    try:
        return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=stderr,
                                env=env(), universal_newlines=True)
    except OSError as e:
        fail("cannot run %s: %s" % (argv[0], e.strerror or e))
        return None
