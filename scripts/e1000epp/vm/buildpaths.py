# SPDX-License-Identifier: GPL-2.0-or-later
"""Where the built pieces are for the VM harness: the emulator, firmware,
the guest image, the native build, QEMU's python/ tree (the layout
e1000epp.common.paths names)."""

import sys
from pathlib import Path

from e1000epp.common import emulator as _emulator
from e1000epp.common import paths as _paths
from .waits import HarnessError

REPO = Path(_paths.REPO)


def repo_paths():
    """REPO, BUILD, QEMU_BIN, GUEST_DIR, NATIVE_DIR and firmware args."""
    return {
        "REPO": REPO, "BUILD": Path(_paths.BUILD),
        "QEMU_BIN": Path(_paths.QEMU_BIN),
        "GUEST_DIR": Path(_paths.GUEST_DIR),
        "NATIVE_DIR": Path(_paths.NATIVE_DIR),
        "firmware_args": list(_emulator.firmware_args()),
    }


def qemu_python():
    """QEMU's python/ directory in the fetched source tree (build/src),
    put on sys.path so that `qemu.machine` and `qemu.qmp` import."""
    src = _paths.qemu_src()
    if not src or not (Path(src) / "python" / "qemu" / "machine").is_dir():
        raise HarnessError("QEMU's python/qemu is missing (build/src/"
                           "qemu-10.0.*/python): run ./e1000e-pp setup")
    path = str(Path(src) / "python")
    if path not in sys.path:
        sys.path.insert(0, path)
    return path
