# SPDX-License-Identifier: GPL-2.0-or-later
"""The built emulator's command line: firmware search paths, then the
caller's arguments (`./e1000e-pp qemu`, the VM harness, the benches)."""

import os

from e1000epp.common import paths


def firmware_dirs():
    """Firmware search directories, in the order QEMU should search them."""
    return [d for d in (paths.OPTIONROM_DIR, paths.SEABIOS_DIR, paths.IPXE_DIR)
            if os.path.isdir(d)]


def firmware_args():
    """`-L DIR` arguments for every firmware directory."""
    args = []
    for d in firmware_dirs():
        args += ["-L", d]
    return args


def qemu_cmd(args=()):
    """argv for the built emulator with firmware paths set, then `args`."""
    return [paths.QEMU_BIN] + firmware_args() + list(args)
