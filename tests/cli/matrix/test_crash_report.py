# SPDX-License-Identifier: GPL-2.0-or-later
"""A guest that died in a cell: its kernel's last report on the console
fails the cell as a check (matrix/execute.py crash_report)."""

from e1000epp.matrix import execute
from e1000epp.matrix.guest_io import Checks

# What the sanitizing kernel printed as the early-recycle fixture's
# page was used after its recycle (console.log of the run).
CONSOLE = "\n".join([
    "[   30.1] e1000e 0000:00:02.0 eth0: NIC Link is Up",
    "[   34.694882] Oops: general protection fault, probably for "
    "non-canonical address 0xfbd59c0000000026: 0000 [#1] PREEMPT SMP "
    "KASAN NOPTI",
    "[   34.695448] KASAN: maybe wild-memory-access in range "
    "[0xdead000000000130-0xdead000000000137]",
    "[   34.727008] Kernel panic - not syncing: Fatal exception in "
    "interrupt"])


class Machine:
    def __init__(self, running):
        self.running = running

    def is_running(self):
        return self.running


class DeadVm:
    def __init__(self, running=False, console=CONSOLE):
        self.machine, self.console = Machine(running), console

    def console_text(self):
        return self.console


def test_a_dead_guests_kernel_report_fails_the_cell():
    checks = Checks()
    execute.crash_report(DeadVm(), checks, "agent connection closed")
    assert len(checks.failures()) == 1
    fail = checks.failures()[0]
    assert fail.startswith("the guest kernel's report on the console "
                           "before it died: [   34.694882] Oops: general "
                           "protection fault")
    assert "KASAN: maybe wild-memory-access" in fail


def test_a_live_guest_is_not_judged_by_its_console():
    checks = Checks()
    execute.crash_report(DeadVm(running=True), checks,
                         "timed out after 20 s waiting for frames")
    assert checks.items == []


def test_a_quiet_console_adds_nothing():
    checks = Checks()
    execute.crash_report(DeadVm(console="[ 1.0] booting\n"), checks,
                         "agent connection closed")
    assert checks.items == []
