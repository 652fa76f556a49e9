# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs in the guest (python3 launch.py TEST [ARGS...]): one kernel
selftest as its own __main__, in its directory, after giving the driver
tests' endpoint environment (NetDrvEpEnv) the remote interface's name
from $KSFT_REMOTE_IFNAME when the library does not resolve it itself.

Debian's 6.12 tests need this: hw/csum.py reads cfg.remote_ifname, an
attribute that release's lib/py/env.py never sets (later kernels find
the name from REMOTE_V4). Nothing else is changed; without the variable
the test runs exactly as shipped."""

import os
import runpy
import sys


def main():
    test = os.path.abspath(sys.argv[1])
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(test))
    name = os.environ.get("KSFT_REMOTE_IFNAME")
    if name:
        from lib.py import NetDrvEpEnv
        if not hasattr(NetDrvEpEnv, "remote_ifname"):
            NetDrvEpEnv.remote_ifname = name
    runpy.run_path(test, run_name="__main__")


if __name__ == "__main__":
    main()
