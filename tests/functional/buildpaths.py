# SPDX-License-Identifier: GPL-2.0-or-later
"""Where the built pieces are: the emulator, firmware, the guest image,
the native build, QEMU's python/ tree.  From scripts/e1000epp/paths.py
when the CLI's package imports, else the same layout under build/."""

import sys
from pathlib import Path

from waits import HarnessError

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
try:
    from e1000epp import paths as _paths
except ImportError:     # helper build's package not there yet
    _paths = None


def repo_paths():
    """REPO, BUILD, QEMU_BIN, GUEST_DIR, NATIVE_DIR and firmware args."""
    if _paths is not None:
        return {
            "REPO": Path(_paths.REPO), "BUILD": Path(_paths.BUILD),
            "QEMU_BIN": Path(_paths.QEMU_BIN),
            "GUEST_DIR": Path(_paths.GUEST_DIR),
            "NATIVE_DIR": Path(_paths.NATIVE_DIR),
            "firmware_args": list(_paths.firmware_args()),
        }
    build = REPO / "build"
    fw = []
    for d in (build / "qemu" / "pc-bios" / "optionrom",
              Path("/usr/share/seabios"), Path("/usr/lib/ipxe/qemu")):
        if d.is_dir():
            fw += ["-L", str(d)]
    return {
        "REPO": REPO, "BUILD": build,
        "QEMU_BIN": build / "qemu" / "qemu-system-x86_64",
        "GUEST_DIR": build / "guest", "NATIVE_DIR": build / "native",
        "firmware_args": fw,
    }


def qemu_python():
    """QEMU's python/ directory in the fetched source tree (build/src),
    put on sys.path so that `qemu.machine` and `qemu.qmp` import."""
    if _paths is not None:
        src = _paths.qemu_src()
    else:
        found = sorted((REPO / "build" / "src").glob("qemu-10.0.*"))
        src = str(found[-1]) if found else None
    if not src or not (Path(src) / "python" / "qemu" / "machine").is_dir():
        raise HarnessError("QEMU's python/qemu is missing (build/src/"
                           "qemu-10.0.*/python): run ./e1000e-pp setup")
    path = str(Path(src) / "python")
    if path not in sys.path:
        sys.path.insert(0, path)
    return path
