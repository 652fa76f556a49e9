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
    def __init__(self, has, listing):
        self.agent, self.has, self.listing = self, has, listing
        self.commands = []

    def sh(self, command, timeout=60, check=True):
        self.commands.append(command)
        if "test -w" in command:
            return (0 if self.has else 1), ""
        if "echo scan" in command:
            return 0, self.listing
        return 0, ""


def test_a_kernel_without_kmemleak_is_not_judged(tmp_path):
    vm, g, checks = KmemleakVm(False, ""), Guest(), Checks()
    assert sanitizers.begin(vm, g) is False
    sanitizers.judge(vm, g, checks, str(tmp_path))
    assert checks.items == []


def test_leaks_fail_the_cell_with_the_report_kept(tmp_path):
    vm, g, checks = KmemleakVm(True, REPORT), Guest(), Checks()
    assert sanitizers.begin(vm, g) is True
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
    sanitizers.begin(vm, g)
    sanitizers.judge(vm, g, checks, str(tmp_path))
    assert checks.failures() == []
    assert not (tmp_path / "kmemleak.txt").exists()
