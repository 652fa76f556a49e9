# SPDX-License-Identifier: GPL-2.0-or-later
"""The sanitizing kernel's reports that do not reach the kernel log by
themselves (`run --debug-kernel`): kmemleak lists suspected leaks only
when it scans. KASAN, lockdep and DEBUG_NET print at once (BUG: KASAN,
WARNING: ...), which the cell's dmesg scan fails on.

At the first cell of a boot the list is cleared (what boot left behind
is not the driver's); at each cell's end kmemleak scans and every
object it lists fails the cell, the report in kmemleak.txt. An object
younger than kmemleak's minimum age (5 s) is reported by the next
cell's scan.
"""

import os

from e1000epp.setup import debug_kernel

KMEMLEAK = "/sys/kernel/debug/kmemleak"
MOUNT = ("grep -q ' /sys/kernel/debug ' /proc/mounts || "
         "mount -t debugfs none /sys/kernel/debug")


def begin(vm, g, checks):
    """Whether this guest has kmemleak (cleared at the boot's first
    cell). The sanitizing kernel without it (kmemleak off at boot, or
    disabled by its own error) fails the cell: a run that asked for
    leak checks would otherwise pass on none."""
    if g.kmemleak is None:
        rc, _ = vm.agent.sh(f"{MOUNT}; test -w {KMEMLEAK} && "
                            f"echo clear > {KMEMLEAK}", check=False)
        g.kmemleak = rc == 0
    if not g.kmemleak:
        rc, out = vm.agent.sh("uname -r", check=False)
        release = out.strip()
        if rc == 0 and release.endswith(debug_kernel.release_suffix()):
            checks.true(f"kmemleak usable on the sanitizing kernel "
                        f"({release})", False, f"{KMEMLEAK} is not "
                        "writable: no leak is looked for")
    return g.kmemleak


def judge(vm, g, checks, cell_dir):
    if not g.kmemleak:
        return
    rc, out = vm.agent.sh(f"echo scan > {KMEMLEAK} && cat {KMEMLEAK}",
                          timeout=120, check=False)
    leaks = out.count("unreferenced object") if rc == 0 else None
    if out.strip():
        with open(os.path.join(cell_dir, "kmemleak.txt"), "w") as f:
            f.write(out + "\n")
    checks.eq("kmemleak: suspected leaks (scan at the cell's end, "
              "kmemleak.txt)", leaks, 0)
    if leaks:
        # Reported once: the next cell judges only what is new.
        vm.agent.sh(f"echo clear > {KMEMLEAK}", check=False)
