# SPDX-License-Identifier: GPL-2.0-or-later
"""Before a command boots a guest (run, soak): the image, the emulator and
the traffic peer are there, or one error saying what to do."""

import os

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.vm import harness


def vm_preflight(guest_dir):
    """What booting a guest needs (its image, the emulator, the peer,
    built if stale); the peer's binary, or a StepError saying what to
    do."""
    for f in ("vmlinuz", "initrd.img"):
        if not os.path.exists(os.path.join(guest_dir, f)):
            raise StepError("no guest image",
                            f"{os.path.join(guest_dir, f)} is missing",
                            "run ./e1000e-pp setup (or drop --no-setup)")
    if not os.access(paths.QEMU_BIN, os.X_OK):
        raise StepError("the emulator is not built",
                        f"{paths.QEMU_BIN} is missing",
                        "run ./e1000e-pp setup (or drop --no-setup)")
    try:
        return harness.peer_binary(harness.repo_paths())
    except harness.HarnessError as e:
        raise StepError("cannot build the traffic peer", str(e),
                        "install libpcap-dev (./e1000e-pp setup does)")
