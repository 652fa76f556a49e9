# SPDX-License-Identifier: GPL-2.0-or-later
"""Where things are: the repository, build/, the built emulator and
qtests, logs and reports, firmware directories, the QEMU source tree."""

import glob
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
BUILD = os.path.join(REPO, "build")
SRC_DIR = os.path.join(BUILD, "src")
QEMU_BUILD = os.path.join(BUILD, "qemu")
QEMU_BIN = os.path.join(QEMU_BUILD, "qemu-system-x86_64")
# The same QEMU with AddressSanitizer and UBSan, for the qtest-sanitized
# suite (setup --sanitized); the qtest programs stay those of QEMU_BUILD.
QEMU_SANITIZED_BUILD = os.path.join(BUILD, "qemu-sanitized")
QEMU_SANITIZED_BIN = os.path.join(QEMU_SANITIZED_BUILD, "qemu-system-x86_64")
# QEMU's libFuzzer targets (clang, ASan + UBSan) for fuzz --whole-device
# (setup --fuzzing): its generic-fuzz target aimed at one device.
QEMU_FUZZ_BUILD = os.path.join(BUILD, "qemu-fuzz")
QEMU_FUZZ_BIN = os.path.join(QEMU_FUZZ_BUILD, "qemu-fuzz-x86_64")
# Where tests/qtest/meson.build puts its binaries in the QEMU build
QTEST_DIR = "tests/qtest/e1000e_pp"
OPTIONROM_DIR = os.path.join(QEMU_BUILD, "pc-bios", "optionrom")
GUEST_DIR = os.path.join(BUILD, "guest")
# The sanitizing guest kernel's built tree (setup --debug-kernel).
DEBUG_KERNEL_TREE = os.path.join(BUILD, "debug-kernel", "linux")
NATIVE_DIR = os.path.join(BUILD, "native")
# The same native parts built with clang (suite unit-clang).
NATIVE_CLANG_DIR = os.path.join(BUILD, "native-clang")
LOG_DIR = os.path.join(BUILD, "logs")
REPORTS_DIR = os.path.join(BUILD, "reports")

# Debian's firmware packages: seabios (BIOS + VGA BIOS), ipxe-qemu (NIC
# option ROMs).  linuxboot_dma.bin and friends (direct kernel boot) are built
# from the QEMU tree itself into OPTIONROM_DIR.
SEABIOS_DIR = "/usr/share/seabios"
IPXE_DIR = "/usr/lib/ipxe/qemu"

# The QEMU version line we build: Debian's qemu source package, 10.0.x.
QEMU_SRC_GLOB = "qemu-10.0.*"


def qemu_src():
    """The unpacked QEMU source tree under build/src, or None."""
    dirs = sorted(d for d in glob.glob(os.path.join(SRC_DIR, QEMU_SRC_GLOB))
                  if os.path.isdir(d))
    return dirs[-1] if dirs else None
