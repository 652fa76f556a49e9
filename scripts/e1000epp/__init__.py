# SPDX-License-Identifier: GPL-2.0-or-later
"""e1000e-pp tooling: setup pipeline, test runner, emulator command line."""

from .paths import qemu_cmd, firmware_args

__all__ = ["qemu_cmd", "firmware_args"]
