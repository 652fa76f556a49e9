# SPDX-License-Identifier: GPL-2.0-or-later
"""VM harness for the e1000e-pp functional tests.

One Vm is one QEMU process booting the test guest (build/guest) with:

  - a NIC (`-device <DEV>,netdev=n0,mac=...,romfile=`) whose `-netdev stream`
    unix socket leads to the host-side peer (tools/peer), started first;
  - the console (ttyS0) in <report>/console.log;
  - the in-guest agent on ttyS1, a unix-socket chardev (Agent below);
  - QMP through QEMU's own Python packages (python/qemu of the fetched
    source tree: QEMUMachine starts the process and holds the QMP
    connection, as QEMU's tests/functional do); Qmp below logs every
    exchange in <report>/qmp.log.

Everything waits on conditions with explicit deadlines and raises
HarnessError with the evidence (console tail, last counters) on expiry.

The pieces live in one module each (waits, addresses, buildpaths,
hostpeer, qmplog, agentlink, guestnet, patterns); this module holds the
Vm and gives the names tests and scripts import from `harness`.
"""

import shutil
import tempfile
import time
from pathlib import Path

from .addresses import (GUEST_IP, GUEST_IP6, GUEST_MAC, GUEST_VLAN_IP,
                        PEER_IP, PEER_IP6, PEER_MAC, PEER_VLAN_IP)
from .agentlink import Agent, AgentError
from .buildpaths import REPO, qemu_python, repo_paths
from .guestnet import (LINK_TIMEOUT, carrier, counters_at_one_instant,
                       ethtool_settings, ethtool_stats, link_up, wait_carrier)
from . import knobchannel
from .hostpeer import Peer, peer_binary
from .patterns import (M32, PP_ETHERTYPE, PP_MAGIC, mac_bytes, pp_fnv1a,
                       pp_frame, pp_frame_len, pp_mix, read_pcap)
from .qmplog import Qmp
from .waits import HarnessError, poll_value, wait_until

# What tests and the matrix (matrix_exec, matrix_traffic) take from here.
__all__ = [
    "GUEST_IP", "GUEST_IP6", "GUEST_MAC", "PEER_IP", "PEER_IP6", "PEER_MAC",
    "GUEST_VLAN_IP", "PEER_VLAN_IP",
    "Agent", "AgentError", "REPO", "qemu_python", "repo_paths",
    "LINK_TIMEOUT", "carrier", "counters_at_one_instant", "ethtool_settings",
    "ethtool_stats", "link_up", "wait_carrier", "Peer", "peer_binary",
    "M32", "PP_ETHERTYPE", "PP_MAGIC", "mac_bytes", "pp_fnv1a", "pp_frame",
    "pp_frame_len", "pp_mix", "read_pcap", "HarnessError", "poll_value",
    "wait_until", "READY_MARKER", "Vm",
]

READY_MARKER = "E1000EPP-READY"


class Vm:
    """device_args: extra QEMU arguments placed before the NIC (e.g. an
    IOMMU, which must exist before the devices it translates for);
    guest_dir: the image to boot (default build/guest). The NIC has
    id=nic0 (QMP qom-get of its counters)."""

    NIC_ID = "nic0"

    def __init__(self, device, report_dir, append="", netdev_id="n0",
                 mac=GUEST_MAC, extra_args=(), boot_timeout=120, ipv6=False,
                 device_args=(), guest_dir=None, agent_ports=1,
                 incoming=None, peer=None, bzimage=False,
                 agent_pacer=None, knob_channel=False):
        self.device = device
        # Boot the bzImage even where a PVH vmlinux exists (kernel()).
        self.bzimage = bzimage
        self.report_dir = Path(report_dir)
        self.report_dir.mkdir(parents=True, exist_ok=True)
        self.netdev_id = netdev_id
        self.mac = mac
        self.append = append
        self.extra_args = list(extra_args)
        self.device_args = list(device_args)
        self.boot_timeout = boot_timeout
        self.ipv6 = ipv6
        self.paths = repo_paths()
        self.guest_dir = Path(guest_dir) if guest_dir else \
            self.paths["GUEST_DIR"]
        self.sockdir = Path(tempfile.mkdtemp(prefix="e1000epp-"))
        # Removed by stop(): the sockdir, and one a migration's source
        # left behind with the peer's socket in it (vm/migration.py).
        self.dirs = [self.sockdir]
        self.console = self.report_dir / "console.log"
        self.machine = None
        self.peer = self.qmp = self.agent = None
        # agent_ports > 1: more agents on ttyS2.. (started by the caller
        # in the guest; sockets agent2.sock, ...), for traffic that runs
        # side by side; the same serial ports on every QEMU of a
        # migration.
        self.agent_ports = agent_ports
        self.agents = []
        # incoming: an -incoming URI: start() launches a migration
        # destination (vm/migration.py). peer: a Peer the caller owns
        # (shared by the QEMUs of a migration); the NIC connects to its
        # socket and stop() leaves it running.
        self.incoming = incoming
        self.own_peer = peer is None
        self.net_sock = Path(peer.sock_path) if peer else \
            self.sockdir / "net.sock"
        if peer:
            self.peer = peer
        self.t_start = None
        self.t_ready = None
        # How the agent's requests are sent (Agent's pacer): a recording
        # paces them (replay/pacing.py).
        self.agent_pacer = agent_pacer
        # knob_channel: the NIC's knobs set through its chardev, not
        # qom-set (a recording: vm/knobchannel.py).
        self.knobs = knobchannel.KnobChannel(self.sockdir) \
            if knob_channel else None

    def argv(self):
        p = self.paths
        # no_timer_check: the kernel's IO-APIC timer check times a delay
        # loop against the PIT; with the host's 2 cores oversubscribed
        # (measured: 6 busy loops) TCG misses it and the guest panics
        # "IO-APIC + timer doesn't work!" before userspace.
        # rcu_cpu_stall_timeout, watchdog_thresh at their maximum: when the
        # host starves QEMU's vCPU thread, guest time jumps on resume and
        # the RCU stall (21 s) and soft-lockup (20 s) detectors report the
        # host ("kthread timer wakeup didn't happen for 21311 jiffies",
        # seen at load 11 during boot); a lockup of the guest's own lasts
        # and is still reported, after 300 s and 120 s.
        cmdline = ("console=ttyS0 panic=-1 no_timer_check "
                   "rcupdate.rcu_cpu_stall_timeout=300 watchdog_thresh=60 " +
                   ("" if self.ipv6 else "ipv6.disable=1 ") +
                   self.append).strip()
        return p["firmware_args"] + [
            "-M", "q35", "-m", "512", "-nodefaults", "-no-reboot",
            "-kernel", str(self.kernel()),
            "-initrd", str(self.guest_dir / "initrd.img"),
            "-append", cmdline,
            "-chardev", f"file,id=con,path={self.console}",
            "-serial", "chardev:con",
            "-chardev", f"socket,id=agent,path={self.sockdir}/agent.sock,"
                        "server=on,wait=off",
            "-serial", "chardev:agent",
        ] + self._agent_port_args() + self.device_args + (
            knobchannel.qemu_args(self.sockdir) if self.knobs else []) + [
            "-device", f"{self.device},id={self.NIC_ID},"
                       f"netdev={self.netdev_id},mac={self.mac},romfile=" +
                       (f",{knobchannel.device_prop()}" if self.knobs
                        else ""),
            "-netdev", f"stream,id={self.netdev_id},server=off,"
                       f"addr.type=unix,addr.path={self.net_sock}",
        ] + self.extra_args + (["-incoming", self.incoming]
                               if self.incoming else [])

    def _agent_port_args(self):
        args = []
        for n in range(2, self.agent_ports + 1):
            args += ["-chardev", f"socket,id=agent{n},path={self.sockdir}/"
                     f"agent{n}.sock,server=on,wait=off",
                     "-serial", f"chardev:agent{n}"]
        return args

    def agent_socket(self, n=1):
        """The host end of the agent on ttyS<n>."""
        return self.sockdir / ("agent.sock" if n == 1 else f"agent{n}.sock")

    def kernel(self):
        """The image's kernel as QEMU boots it: the decompressed vmlinux
        through its PVH entry point when the image has one and bzimage
        is not asked for (image/guest_image.py
        writes it for a kernel with CONFIG_PVH; the bzImage's own
        decompressor is about half of a boot under TCG), else the
        bzImage."""
        pvh = self.guest_dir / "vmlinux"
        if pvh.exists() and not self.bzimage:
            return pvh
        return self.guest_dir / "vmlinuz"

    def console_text(self):
        try:
            return self.console.read_text(errors="replace")
        except OSError:
            return ""

    def console_tail(self, n=40):
        return "console tail:\n" + "\n".join(
            self.console_text().splitlines()[-n:])

    def start(self, peer_bin):
        for f in ("peer.pcap", "console.log"):
            (self.report_dir / f).unlink(missing_ok=True)
        if self.own_peer:
            self.peer = Peer(peer_bin, self.net_sock, self.report_dir)
        self.launch()
        if self.incoming:
            # A destination: its agents' sockets connected before the
            # switch-over (a chardev drops what the guest writes while
            # no client is there); nothing to wait for until then.
            self.agents = [Agent(self.agent_socket(n), self.report_dir /
                                 f"agent{n}-in.log")
                           for n in range(1, self.agent_ports + 1)]
            self.agent = self.agents[0]
            return self
        wait_until("the NIC's netdev to connect to the peer",
                   lambda: self.peer.connected() or self._exited(), 30,
                   evidence=self._qemu_log_tail)
        self._check_running()
        self.agent = Agent(self.agent_socket(), self.report_dir / "agent.log",
                           pacer=self.agent_pacer)
        self.agents = [self.agent]
        wait_until(f"{READY_MARKER} on the console",
                   lambda: READY_MARKER in self.console_text() or
                   self._exited(), self.boot_timeout, interval=0.05,
                   evidence=self.console_tail)
        self._check_running()
        self.t_ready = time.monotonic()
        self.agent.hello()
        return self

    def launch(self):
        """QEMU started with argv() and its QMP connected."""
        qemu_python()
        from qemu.machine import QEMUMachine
        self.machine = QEMUMachine(str(self.paths["QEMU_BIN"]),
                                   args=self.argv(), name="qemu",
                                   base_temp_dir=str(self.sockdir),
                                   log_dir=str(self.report_dir))
        self.t_start = time.monotonic()
        try:
            self.machine.launch()
        except Exception as e:          # VMLaunchFailure: QEMU's output
            raise HarnessError(f"QEMU did not start: {e}")
        # The exact command line, QEMUMachine's own arguments included.
        cmdline = Path(f"/proc/{self.machine.get_pid()}/cmdline") \
            .read_bytes().rstrip(b"\0").split(b"\0")
        (self.report_dir / "qemu.cmdline").write_text(
            " ".join(a.decode() for a in cmdline) + "\n")
        self.qmp = Qmp(self.machine, self.report_dir / "qmp.log")

    def _exited(self):
        return not self.machine.is_running()

    def _qemu_log_tail(self):
        try:
            text = (self.report_dir / "qemu.log").read_text()
        except OSError:
            text = ""
        return "qemu.log:\n" + text[-2000:]

    def _check_running(self):
        if self._exited():
            raise HarnessError(f"QEMU exited with {self.machine.exitcode()}\n"
                               f"{self._qemu_log_tail()}\n"
                               f"{self.console_tail()}")

    def since_start(self):
        return time.monotonic() - self.t_start

    def stop(self):
        """Power the guest off (agent QUIT), else quit via QMP, else kill."""
        final = None
        quit_sent = False
        if self.agent and not self.incoming:
            try:
                self.agent.request("QUIT", timeout=10)
                quit_sent = True
            except (HarnessError, OSError):
                pass
        for agent in self.agents:
            agent.close()
        if self.agent_pacer:
            # Closed by its Agent too; here also when no Agent took it
            # (a boot that failed first): its keepalive's directory.
            self.agent_pacer.close()
        if self.knobs:
            self.knobs.close()
        if self.machine:
            # The agent's QUIT powers the guest off; else QMP quit, else
            # SIGKILL (QEMUMachine.shutdown does both in that order).
            if quit_sent:
                try:
                    self.machine.wait(timeout=30)
                except Exception:
                    pass
            try:
                self.machine.shutdown(timeout=10)
            except Exception:
                self.machine.kill()
        if self.qmp:
            self.qmp.close()
        if self.peer and self.own_peer:
            final = self.peer.close()
        for d in self.dirs:
            shutil.rmtree(d, ignore_errors=True)
        return final
