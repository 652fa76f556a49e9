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
cell's next agent request fails instead of waiting out its timeout. A
guest spinning without a word (a loop in NAPI poll on the one vCPU: the
kernel's own soft-lockup report comes after 120 s) is seen on a QMP
monitor of the watchdog's own (not the harness's connection, which the
cell uses from another thread): every SPIN_EVERY s it reads the vCPU's
registers (HMP `info registers`); SPIN_SAMPLES readings in a row with
RIP in the kernel's module area and the vCPU never halted are a spin.
"""

import collections
import json
import os
import re
import signal
import socket
import threading
import time

from e1000epp.image import guest_overlay
from e1000epp.matrix.guest_io import sh
from e1000epp.vm import harness

WATCH_S = 0.5
CRASH = re.compile(r"Kernel panic|BUG: |Oops|general protection fault|"
                   r"soft lockup|rcu_sched self-detected stall|"
                   r"invalid opcode:|Bad pagetable")
ORDER = "/lib/modules/e1000epp.order"
SPIN_EVERY = 1.0
SPIN_SAMPLES = 6
# x86-64 Linux's module area (MODULES_VADDR .. MODULES_END).
MODULES = (0xffffffffa0000000, 0xfffffffffeffffff)
_RIP = re.compile(r"RIP=([0-9a-f]{16})")
_HLT = re.compile(r"HLT=([01])")


def monitor_args(path):
    """QEMU arguments for the watchdog's QMP monitor at `path`."""
    return ["-qmp", f"unix:{path},server=on,wait=off"]


class Monitor:
    """A minimal QMP client on its own socket (one thread uses it)."""

    def __init__(self, path, timeout=5):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buf = b""
        self._reply()                               # the greeting
        self.call("qmp_capabilities")

    def _reply(self):
        while True:
            while b"\n" not in self.buf:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise OSError("QMP closed")
                self.buf += chunk
            line, self.buf = self.buf.split(b"\n", 1)
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def call(self, cmd, **args):
        self.sock.sendall(json.dumps({"execute": cmd, "arguments": args})
                          .encode() + b"\n")
        return self._reply().get("return")

    def registers(self):
        """(RIP, halted) of the vCPU."""
        text = self.call("human-monitor-command",
                         **{"command-line": "info registers"}) or ""
        rip, hlt = _RIP.search(text), _HLT.search(text)
        return (int(rip.group(1), 16) if rip else None,
                bool(hlt and hlt.group(1) == "1"))

    def close(self):
        self.sock.close()


def spinning(samples):
    """Every reading in the module area and none halted."""
    return len(samples) == SPIN_SAMPLES and all(
        rip is not None and MODULES[0] <= rip <= MODULES[1] and not hlt
        for rip, hlt in samples)


def make_image(base_dir, out_dir, modules):
    """A guest directory booting base_dir's kernel with its initramfs
    plus /mutants/<name>.ko for {name: path}."""
    return guest_overlay.overlay(base_dir, out_dir, {
        f"mutants/{name}.ko": path for name, path in modules.items()})


class Watchdog:
    """Kills QEMU when the guest crashed (see the module's docstring);
    `reason` says why, None while all is well."""

    def __init__(self, vm, monitor=None):
        self.vm = vm
        self.monitor = monitor
        self.mon = None
        self.samples = collections.deque(maxlen=SPIN_SAMPLES)
        self.reason = None
        self.mark = 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def rearm(self):
        """Only the console from now on counts (a new mutant)."""
        self.mark = len(self.vm.console_text())
        self.samples.clear()

    def _kill(self, reason):
        self.reason = reason
        try:
            os.kill(self.vm.machine.get_pid(), signal.SIGKILL)
        except (OSError, TypeError):
            pass

    def _spin(self):
        if not self.monitor:
            return False
        try:
            if self.mon is None:
                self.mon = Monitor(self.monitor)
            self.samples.append(self.mon.registers())
        except (OSError, ValueError):
            self.monitor = None             # no monitor: console only
            return False
        if spinning(self.samples):
            self._kill(f"the guest spun {SPIN_SAMPLES * SPIN_EVERY:.0f} s "
                       "in module code without halting (RIP "
                       f"{self.samples[-1][0]:#x})")
            return True
        return False

    def _run(self):
        last = time.monotonic()
        while not self._stop.wait(WATCH_S):
            if time.monotonic() - last >= SPIN_EVERY:
                last = time.monotonic()
                if self._spin():
                    return
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
                self._kill("guest crash on the console: " + text[
                    start:end if end >= 0 else None].strip()[:200])
                return

    def _tail(self):
        lines = self.vm.console_text()[self.mark:].strip().splitlines()
        return (lines[-1] if lines else "no console output")[:200]

    def stop(self):
        self._stop.set()
        self._t.join(timeout=10)
        if self.mon:
            self.mon.close()


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
