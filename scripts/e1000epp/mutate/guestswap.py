# SPDX-License-Identifier: GPL-2.0-or-later
"""One booted guest that swaps e1000e modules: the images it boots, the
swap, and the watchdog that declares a hang or crash within seconds.

The modules reach the guest inside its initramfs: the prepared guest's
initrd.img (what `run --driver-src` boots) followed by an uncompressed
newc archive holding /mutants/<name>.ko (Linux unpacks concatenated
archives in order). A swap takes the interface down, unloads e1000e,
copies a module over the path /lib/modules/e1000epp.order names and
lets the next cell's configure() load it with that cell's parameters.
No byte goes over the agent's serial line.

The watchdog polls every WATCH_S: QEMU gone (a panic reboots, and
-no-reboot ends QEMU), or a crash on the console (an oops, a panic, a
soft lockup, a BUG) since the swap; either kills QEMU at once, so the
cell's next agent request fails instead of waiting out its timeout.
"""

import os
import re
import signal
import threading
import time

from e1000epp.image.cpio import Cpio
from e1000epp.matrix.guest_io import sh
from e1000epp.vm import harness

WATCH_S = 0.5
CRASH = re.compile(r"Kernel panic|BUG: |Oops|general protection fault|"
                   r"soft lockup|rcu_sched self-detected stall|"
                   r"invalid opcode:|Bad pagetable")
ORDER = "/lib/modules/e1000epp.order"


def make_image(base_dir, out_dir, modules):
    """A guest directory booting base_dir's kernel with its initramfs
    plus /mutants/<name>.ko for {name: path}."""
    os.makedirs(out_dir, exist_ok=True)
    for f in ("vmlinux", "vmlinuz"):
        src = os.path.join(base_dir, f)
        dst = os.path.join(out_dir, f)
        if os.path.lexists(dst):
            os.unlink(dst)
        if os.path.exists(src):
            os.symlink(os.path.abspath(src), dst)
    c = Cpio()
    for name, path in sorted(modules.items()):
        with open(path, "rb") as f:
            c.file(f"mutants/{name}.ko", f.read())
    with open(os.path.join(base_dir, "initrd.img"), "rb") as f:
        data = f.read()
    with open(os.path.join(out_dir, "initrd.img"), "wb") as f:
        f.write(data + b"\0" * (-len(data) % 4) + c.bytes())
    return out_dir


class Watchdog:
    """Kills QEMU when the guest crashed (see the module's docstring);
    `reason` says why, None while all is well."""

    def __init__(self, vm):
        self.vm = vm
        self.reason = None
        self.mark = 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def rearm(self):
        """Only the console from now on counts (a new mutant)."""
        self.mark = len(self.vm.console_text())

    def _run(self):
        while not self._stop.wait(WATCH_S):
            m = self.vm.machine
            if m is None:
                continue
            if not m.is_running():
                self.reason = self.reason or "QEMU exited (the guest " \
                    "panicked or reset): " + self._tail()
                return
            text = self.vm.console_text()[self.mark:]
            hit = CRASH.search(text)
            if hit:
                start = text.rfind("\n", 0, hit.start()) + 1
                end = text.find("\n", hit.end())
                self.reason = "guest crash on the console: " + \
                    text[start:end if end >= 0 else None].strip()[:200]
                try:
                    os.kill(m.get_pid(), signal.SIGKILL)
                except (OSError, TypeError):
                    pass
                return

    def _tail(self):
        lines = self.vm.console_text()[self.mark:].strip().splitlines()
        return (lines[-1] if lines else "no console output")[:200]

    def stop(self):
        self._stop.set()
        self._t.join(timeout=5)


def swap(vm, g, name):
    """Put /mutants/<name>.ko in place of the guest's e1000e.ko and
    unload the one running (the next cell's configure() loads the new
    one). Returns the seconds it took."""
    t0 = time.monotonic()
    sh(vm, "ip link del eth0.100 2>/dev/null; ip link set eth0 down "
       "2>/dev/null; ! grep -q '^e1000e ' /proc/modules || rmmod e1000e",
       timeout=30)
    sh(vm, f"cp /mutants/{name}.ko \"$(grep '/e1000e.ko$' {ORDER})\"",
       timeout=30)
    g.params = None
    return time.monotonic() - t0


def alive(vm):
    try:
        return vm.machine is not None and vm.machine.is_running() and \
            vm.agent.sh("true", timeout=5, check=False)[0] == 0
    except (harness.HarnessError, OSError):
        return False
