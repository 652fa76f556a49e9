# SPDX-License-Identifier: GPL-2.0-or-later
"""The soak's guest and what it reads from it (soak/command.py runs it).

One harness.Vm with two more serial ports (COM3 on IRQ 6, COM4 on IRQ 7:
ISA IRQs q35 leaves free, announced in QEMU's ACPI table, so Linux's
8250 driver takes them as ttyS2 and ttyS3 with those IRQs). Not the
default IRQs 4 and 3: those are ttyS0's and ttyS1's, and two QEMU
devices driving one ISA line lose interrupts. Not IRQ 5 either: Linux
sets it up level-triggered ("5-fasteoi" in /proc/interrupts), not what
an ISA UART drives. start() checks that both are edge-triggered. A second and a third agent run on them,
so the TCP streams of both directions run at once while the first
agent configures the guest, reads it and runs the pattern rounds.

Guest RAM is preallocated (-mem-prealloc): QEMU's resident memory then
holds all 512 MiB from the start, and what it gains later is QEMU's
own (the device, the net queue, TCG), not the guest touching its RAM
for the first time.
"""

import re
import socket
import threading
import time

from e1000epp.vm import harness, migration
from e1000epp.vm.agentlink import Agent

# The two extra agents: (chardev id, ISA index, IRQ, guest tty).
EXTRA_PORTS = (("soak1", 2, 6, "ttyS2"), ("soak2", 3, 7, "ttyS3"))
NIC = "/machine/peripheral/" + harness.Vm.NIC_ID
# The device's receive counters: where every frame the wire offered went
# (hw/net/e1000e_pp/core/rx.c): offered = the sum of SINKS + the frames
# still in the packet buffer (E1000E_PP_PKTBUF_FRAMES at most).
OFFERED = "rx-offered"
SINKS = ("rx-delivered", "rx-missed", "rx-filtered", "rx-oversize",
         "rx-undersize", "rx-not-ready", "rx-dma-error", "rx-flushed",
         "rx-errored", "rx-wake")
# Of those, the frames the device dropped and counted.
DROPS = ("rx-missed", "rx-oversize", "rx-undersize", "rx-not-ready",
         "rx-dma-error", "rx-flushed", "rx-errored")
OTHER = ("dma-errors", "pm-violations", "reset-accesses")
PKTBUF_FRAMES = 512
# Kernel log lines that fail the soak wherever they come from.
DMESG_BAD = re.compile(
    r"WARNING:|BUG:|Oops|general protection|Call Trace|kernel panic|"
    r"page_pool|DMA-API|DMAR|refcount_t|list_(add|del) corruption|"
    r"soft lockup|hung_task|rcu.*stall|e1000e.*\b(error|timeout)\b")
# What the driver logs for a Tx hang and its reset: expected during a
# Tx-hang event only.
DMESG_HANG = re.compile(r"Detected Hardware Unit Hang|Reset adapter|"
                        r"NETDEV WATCHDOG")


# A connection started while the guest's ARP entry for the peer is
# still INCOMPLETE from an outage can fail at once: the probes sent into
# the outage count, and once the last has gone unanswered Linux's
# neighbour timer fails the entry and answers every packet queued on it
# (the SYN too) with a host-unreachable, which ends a connection in
# SYN_SENT ("No route to host"). The soak starts a connection only with
# the entry resolved (docs/security.md, Soak); the ping resolves it
# within a few seconds of the link's return.
NEIGH_RESOLVED = ("REACHABLE", "STALE", "DELAY", "PROBE")
NEIGH_TIMEOUT = 30

# Seconds without a byte from an agent after which the host sends it a
# carriage return (which the agent ignores: agent.c skips '\r').
POKE_AFTER = 5.0


class PokingAgent(Agent):
    """The agent's line protocol, but a wait of more than POKE_AFTER s
    for the next line sends a '\r': a reply the guest's UART holds back
    goes out with the next interrupt the port raises, and a byte received
    is one. Seen on ttyS2 in two of the first runs: the last line of a
    TCPTX answer held until the host's QUIT arrived 6 minutes later
    (and then came at once), with the port on IRQ 5 and on IRQ 6. Each
    poke is in the agent's log."""

    pokes = 0

    def _readline(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise harness.HarnessError("agent did not answer in time")
            self.sock.settimeout(min(left, POKE_AFTER))
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                if deadline - time.monotonic() > 0:
                    self._out().sendall(b"\r")
                    self.pokes += 1
                    self.log.write(f"{time.time():.3f} > \\r (poke "
                                   f"{self.pokes})\n")
                continue
            if not chunk:
                self._closed()
                continue
            self.buf += chunk
        return super()._readline(deadline)


class SoakVm:
    """The booted guest: vm (harness.Vm), agents (control, tcp-tx,
    tcp-rx), a peer lock (the peer answers one command at a time; the
    TCP threads share it)."""

    def __init__(self, device, report_dir, peer_bin, guest_dir=None):
        self.device = device
        self.vm = harness.Vm(device, report_dir, guest_dir=guest_dir)
        extra = ["-mem-prealloc"]
        for cid, index, irq, _ in EXTRA_PORTS:
            extra += ["-chardev", f"socket,id={cid},path="
                      f"{self.vm.sockdir}/{cid}.sock,server=on,wait=off",
                      "-device", f"isa-serial,index={index},irq={irq},"
                      f"chardev={cid}"]
        self.vm.extra_args = extra
        self.peer_bin = peer_bin
        self.peer_lock = threading.Lock()
        self.extra = []
        self.pid = None
        # The counters of the QEMUs the guest migrated away from: the
        # destination's start from zero (docs/fidelity.md, Migration).
        self.base = {}
        self.migrations = 0
        self.first_dir = str(report_dir).rstrip("/")

    @property
    def agent(self):
        return self.vm.agent

    def start(self):
        self.vm.start(self.peer_bin)
        # The control agent pokes too (its state is Agent's).
        self.vm.agent.__class__ = PokingAgent
        self.pid = self.vm.machine.get_pid()
        for cid, _, _, tty in EXTRA_PORTS:
            self.agent.sh(f"/sbin/e1000epp-agent /dev/{tty} "
                          ">/dev/null 2>&1 &")
            a = PokingAgent(self.vm.sockdir / f"{cid}.sock",
                            self.vm.report_dir / f"agent-{tty}.log")
            a.hello(timeout=60)
            self.extra.append(a)
        _, irqs = self.sh("grep ttyS /proc/interrupts", check=False)
        for _, _, irq, tty in EXTRA_PORTS:
            line = [ln for ln in irqs.splitlines() if ln.rstrip()
                    .endswith(tty)]
            if not line or f"{irq}-edge" not in line[0]:
                raise harness.HarnessError(
                    f"{tty} is not on an edge-triggered IRQ {irq}: "
                    f"{line[0].strip() if line else 'not in /proc/interrupts'}")
        harness.link_up(self.vm)
        return self

    def stop(self):
        for a in self.extra:
            try:
                a.request("QUIT", timeout=10)
            except (harness.HarnessError, OSError):
                pass
            a.close()
        return self.vm.stop()

    def migrate(self, report_dir=None):
        """Live-migrate the guest into a new QEMU (vm/migration.py), the
        agents and the peer with it; the migration's record. Its files
        go to report_dir (default: beside the first QEMU's, vm-mN)."""
        self.migrations += 1
        if report_dir is None:
            report_dir = f"{self.first_dir}-m{self.migrations}"
        final = {}
        moves = [(a, f"{port[0]}.sock") for a, port in
                 zip(self.extra, EXTRA_PORTS)]
        self.vm, rec = migration.live_migrate(
            self.vm, report_dir, moves,
            on_source=lambda src: final.update(self.counters()))
        self.base = {k: v for k, v in final.items() if v is not None}
        self.pid = self.vm.machine.get_pid()
        # The frames the source's packet buffer held at the switch-over
        # (they travel in the device's state).
        rec["pktbuf_frames"] = conservation(final)
        return rec

    # -- the peer, one command at a time --------------------------------

    def peer(self, line, timeout=30):
        with self.peer_lock:
            return self.vm.peer.command(line, timeout=timeout)

    # -- the device over QMP ---------------------------------------------

    def qom_get(self, name):
        return self.vm.qmp.execute("qom-get", path=NIC, property=name)

    def qom_set(self, name, value):
        self.vm.qmp.execute("qom-set", path=NIC, property=name, value=value)

    def counters(self, names=(OFFERED,) + SINKS + OTHER):
        """{name: value} since the boot (across migrations), None where
        the device has no such property (the stock model has none)."""
        out = {}
        for n in names:
            try:
                out[n] = self.qom_get(n) + self.base.get(n, 0)
            except harness.HarnessError:
                out[n] = None
        return out

    def counters_at_one_instant(self):
        """The counters with the VM stopped (no frame moves, no timer
        fires), then running again: a consistent cut."""
        self.vm.qmp.execute("stop")
        try:
            return self.counters()
        finally:
            self.vm.qmp.execute("cont")

    def link_drop_knob(self):
        return self.device != "e1000e"

    # -- the guest through the control agent ------------------------------

    def sh(self, cmd, timeout=60, check=True):
        return self.agent.sh(cmd, timeout=timeout, check=check)

    def carrier(self):
        return self.sh("cat /sys/class/net/eth0/carrier",
                       check=False)[1].strip() == "1"

    def wait_carrier(self, what, timeout=harness.LINK_TIMEOUT):
        harness.wait_until(what, self.carrier, timeout, interval=0.2,
                           evidence=self.vm.console_tail)

    def neighbour(self, ip):
        """The guest's ARP entry for ip on eth0: (state, probes), or
        (None, None) without one (BusyBox's `ip neigh` line ends in the
        state, "probes N" before it)."""
        _, out = self.sh("ip neigh show dev eth0", check=False)
        for line in out.splitlines():
            words = line.split()
            if words and words[0] == ip:
                probes = words[words.index("probes") + 1] \
                    if "probes" in words[:-1] else None
                return words[-1], probes
        return None, None

    def wait_neighbour(self, ip, timeout=NEIGH_TIMEOUT):
        """Until the guest's ARP entry for ip is resolved (has the
        peer's address: REACHABLE, STALE, DELAY or PROBE); the states
        seen on the way, in order. See NEIGH_RESOLVED."""
        seen = []

        def resolved():
            state, probes = self.neighbour(ip)
            text = f"{state} (probes {probes})" if state else "none"
            if not seen or seen[-1] != text:
                seen.append(text)
            return state in NEIGH_RESOLVED
        harness.wait_until(
            f"the guest's ARP entry for {ip} resolved", resolved, timeout,
            interval=0.2, evidence=lambda: " -> ".join(seen))
        return seen

    def pci_address(self):
        _, out = self.sh("basename $(readlink /sys/class/net/eth0/device)")
        return out.strip()

    def mem_available_kib(self):
        _, out = self.sh("cat /proc/meminfo")
        for line in out.splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
        raise harness.HarnessError("no MemAvailable in the guest's "
                                   "/proc/meminfo")

    def ethtool_stats(self):
        return harness.ethtool_stats(self.agent)

    def qemu_rss_kib(self):
        """{VmRSS, RssAnon, RssFile}: QEMU's resident memory in KiB
        (/proc/PID/status)."""
        out = {}
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "RssAnon", "RssFile"):
                    out[key] = int(value.split()[0])
        return out


class Dmesg:
    """The guest's kernel log, read and cleared (`dmesg -c`) so that each
    read brings only what is new; every line kept in path."""

    def __init__(self, svm, path):
        self.svm = svm
        self.f = open(path, "w")
        self.pending = []

    def read(self):
        """New lines since the last read (also added to pending)."""
        _, out = self.svm.sh("dmesg -c", check=False)
        lines = [ln for ln in out.splitlines() if ln.strip()]
        for ln in lines:
            self.f.write(ln + "\n")
        self.f.flush()
        self.pending.extend(lines)
        return lines

    def take(self):
        """The lines read since the last take()."""
        self.read()
        out, self.pending = self.pending, []
        return out

    def close(self):
        self.f.close()


def bad_lines(lines, hang_allowed):
    """The kernel log lines that fail the soak: warnings, bugs, faults,
    and the driver's Tx hang and reset outside a Tx-hang event."""
    return [ln for ln in lines if DMESG_BAD.search(ln) or
            (not hang_allowed and DMESG_HANG.search(ln))]


class DeviceEvents:
    """The device's event list (qom-get events keeps the last 64),
    gathered into one file: each read appends what followed the last
    line seen."""

    def __init__(self, svm, path):
        self.svm = svm
        self.path = path
        self.last = None
        self.lines = []
        self.available = True

    def poll(self):
        if not self.available:
            return []
        try:
            lines = (self.svm.qom_get("events") or "").splitlines()
        except harness.HarnessError:
            self.available = False
            return []
        new = lines
        if self.last in lines:
            new = lines[len(lines) - lines[::-1].index(self.last):]
        if lines:
            self.last = lines[-1]
        self.lines.extend(new)
        with open(self.path, "a") as f:
            for ln in new:
                f.write(ln + "\n")
        return new


def conservation(c):
    """(residual, text): offered - every sink, the frames the packet
    buffer still holds; None when the device keeps no such counters."""
    if c.get(OFFERED) is None or any(c.get(k) is None for k in SINKS):
        return None
    return c[OFFERED] - sum(c[k] for k in SINKS)


def drops(c):
    """The counted drops (DROPS) of a counter reading, None without."""
    if any(c.get(k) is None for k in DROPS):
        return None
    return sum(c[k] for k in DROPS)


def now():
    return time.monotonic()
