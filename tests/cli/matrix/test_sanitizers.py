# SPDX-License-Identifier: GPL-2.0-or-later
"""kmemleak's list judged at each cell's end (matrix/sanitizers.py)."""

from e1000epp.matrix import sanitizers
from e1000epp.matrix.guest_io import Checks, Guest

# Two objects as /sys/kernel/debug/kmemleak lists them.
REPORT = """unreferenced object 0xffff888012345600 (size 256):
  comm "softirq", pid 0, jiffies 4294901234
  backtrace (crc 1a2b3c4d):
    kmem_cache_alloc_node+0x1b0/0x2d0
    __alloc_skb+0x89/0x1e0
unreferenced object 0xffff888012345a00 (size 4096):
  comm "ksoftirqd/0", pid 14, jiffies 4294901240"""


class KmemleakVm:
    def __init__(self, has, listing, release="6.1.0-57-amd64"):
        self.agent, self.has, self.listing = self, has, listing
        self.release = release
        self.commands = []

    def sh(self, command, timeout=60, check=True):
        self.commands.append(command)
        if "test -w" in command:
            return (0 if self.has else 1), ""
        if "echo scan" in command:
            return 0, self.listing
        if command == "uname -r":
            return 0, self.release + "\n"
        return 0, ""


def test_a_kernel_without_kmemleak_is_not_judged(tmp_path):
    vm, g, checks = KmemleakVm(False, ""), Guest(), Checks()
    assert sanitizers.begin(vm, g, checks) is False
    sanitizers.judge(vm, g, checks, str(tmp_path))
    assert checks.items == []


def test_the_sanitizing_kernel_without_kmemleak_fails_the_cell(tmp_path):
    """configs/debug-kernel.config names the kernel -e1000epp-debug; booted
    with kmemleak=off (or kmemleak disabled by its own error) it would
    pass every cell on no leak check at all."""
    release = "6.12.95-e1000epp-debug"
    vm, g, checks = KmemleakVm(False, "", release), Guest(), Checks()
    assert sanitizers.begin(vm, g, checks) is False
    sanitizers.judge(vm, g, checks, str(tmp_path))
    assert checks.failures() == [
        f"kmemleak usable on the sanitizing kernel ({release}): "
        "/sys/kernel/debug/kmemleak is not writable: no leak is looked for"]


def test_leaks_fail_the_cell_with_the_report_kept(tmp_path):
    vm, g, checks = KmemleakVm(True, REPORT), Guest(), Checks()
    assert sanitizers.begin(vm, g, checks) is True
    assert "echo clear" in vm.commands[0]
    sanitizers.judge(vm, g, checks, str(tmp_path))
    assert checks.failures() == [
        "kmemleak: suspected leaks (scan at the cell's end, kmemleak.txt): "
        "got 2, want 0"]
    assert (tmp_path / "kmemleak.txt").read_text().startswith(
        "unreferenced object 0xffff888012345600")
    assert "echo clear" in vm.commands[-1]


def test_a_clean_scan_passes(tmp_path):
    vm, g, checks = KmemleakVm(True, ""), Guest(), Checks()
    sanitizers.begin(vm, g, checks)
    sanitizers.judge(vm, g, checks, str(tmp_path))
    assert checks.failures() == []
    assert not (tmp_path / "kmemleak.txt").exists()
