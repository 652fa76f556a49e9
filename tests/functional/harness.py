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
The pattern-frame helpers at the bottom are an independent Python
implementation of guest/agent/proto.h, used to check the pcap.
"""

import hashlib
import json
import queue
import secrets
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
try:
    from e1000epp import paths as _paths
except ImportError:     # helper build's package not there yet
    _paths = None

GUEST_MAC = "52:54:00:12:34:56"
PEER_MAC = "02:00:00:00:00:01"
GUEST_IP = "198.18.0.2"
PEER_IP = "198.18.0.1"
# IPv6 benchmarking range (RFC 5180), the counterpart of 198.18.0.0/15.
GUEST_IP6 = "2001:2::2"
PEER_IP6 = "2001:2::1"
READY_MARKER = "E1000EPP-READY"
PP_ETHERTYPE = 0x88B5
PP_MAGIC = 0x50504531


class HarnessError(Exception):
    """A harness step failed or a deadline passed."""


# --- paths ------------------------------------------------------------------

def repo_paths():
    """REPO, BUILD, QEMU_BIN, GUEST_DIR, NATIVE_DIR and firmware args."""
    if _paths is not None:
        return {
            "REPO": Path(_paths.REPO), "BUILD": Path(_paths.BUILD),
            "QEMU_BIN": Path(_paths.QEMU_BIN),
            "GUEST_DIR": Path(_paths.GUEST_DIR),
            "NATIVE_DIR": Path(_paths.NATIVE_DIR),
            "firmware_args": list(_paths.firmware_args()),
        }
    build = REPO / "build"
    fw = []
    for d in (build / "qemu" / "pc-bios" / "optionrom",
              Path("/usr/share/seabios"), Path("/usr/lib/ipxe/qemu")):
        if d.is_dir():
            fw += ["-L", str(d)]
    return {
        "REPO": REPO, "BUILD": build,
        "QEMU_BIN": build / "qemu" / "qemu-system-x86_64",
        "GUEST_DIR": build / "guest", "NATIVE_DIR": build / "native",
        "firmware_args": fw,
    }


def peer_binary(p):
    """The peer from the native (meson) build if it is current, else one
    built here with gcc into build/functional/."""
    sources = sorted((REPO / "tools" / "peer").glob("*.[ch]")) + \
        [REPO / "guest" / "agent" / "proto.h"]
    newest = max(s.stat().st_mtime for s in sources)
    native = p["NATIVE_DIR"] / "tools" / "peer" / "e1000epp-peer"
    if native.exists() and native.stat().st_mtime >= newest:
        return native
    digest = hashlib.sha256(b"".join(s.read_bytes() for s in sources))
    out = p["BUILD"] / "functional" / "e1000epp-peer"
    stamp = out.with_suffix(".sha256")
    if out.exists() and stamp.exists() and \
            stamp.read_text() == digest.hexdigest():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror",
                           "-I", str(REPO / "guest" / "agent"), "-o",
                           str(out)] +
                          [str(s) for s in sources if s.suffix == ".c"] +
                          ["-lpcap"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if proc.returncode != 0:
        raise HarnessError(f"building the peer failed:\n{proc.stdout}")
    stamp.write_text(digest.hexdigest())
    return out


def wait_until(what, predicate, timeout, interval=0.1, evidence=None):
    """Poll predicate() until it returns a true value; return that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            extra = f"\n{evidence()}" if evidence else ""
            raise HarnessError(f"timed out after {timeout} s waiting for "
                               f"{what}{extra}")
        time.sleep(interval)


# --- host-side peer -----------------------------------------------------------

class Peer:
    """tools/peer behind a unix socket; commands on stdin, JSON on stdout."""

    def __init__(self, binary, sock_path, report_dir):
        self.sock_path = str(sock_path)
        self.pcap = Path(report_dir) / "peer.pcap"
        self.log_path = Path(report_dir) / "peer.log"
        self.log = open(self.log_path, "w")
        self.responses = queue.Queue()
        self.events = []
        self.final = None
        self.proc = subprocess.Popen(
            [str(binary), "--listen", self.sock_path, "--mac", PEER_MAC,
             "--ip", PEER_IP, "--ip6", PEER_IP6, "--pcap", str(self.pcap)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
            text=True, bufsize=1)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        wait_until("the peer to listen",
                   lambda: self._event("listening") or self._dead(), 10)
        if self.proc.poll() is not None:
            raise HarnessError(f"peer exited: {self.log_path.read_text()}")

    def _dead(self):
        return self.proc.poll() is not None

    def _event(self, name):
        return any(e.get("event") == name for e in self.events)

    def _read(self):
        for line in self.proc.stdout:
            self.log.write("< " + line)
            self.log.flush()
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if "event" in msg:
                self.events.append(msg)
                if msg["event"] == "exit":
                    self.final = msg
            else:
                self.responses.put(msg)

    def command(self, line, timeout=30):
        if self.proc.poll() is not None:
            raise HarnessError(f"peer is not running (command {line})")
        self.log.write("> " + line + "\n")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        try:
            msg = self.responses.get(timeout=timeout)
        except queue.Empty:
            raise HarnessError(f"peer did not answer {line!r} in {timeout} s")
        if not msg.get("ok"):
            raise HarnessError(f"peer refused {line!r}: {msg.get('error')}")
        return msg

    def stats(self):
        return self.command("STATS")

    def connected(self):
        return self._event("connected")

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("QUIT\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.reader.join(timeout=5)
        self.log.close()
        return self.final


# --- QEMU and QMP (QEMU's python/qemu) -------------------------------------

def qemu_python():
    """QEMU's python/ directory in the fetched source tree (build/src),
    put on sys.path so that `qemu.machine` and `qemu.qmp` import."""
    if _paths is not None:
        src = _paths.qemu_src()
    else:
        found = sorted((REPO / "build" / "src").glob("qemu-10.0.*"))
        src = str(found[-1]) if found else None
    if not src or not (Path(src) / "python" / "qemu" / "machine").is_dir():
        raise HarnessError("QEMU's python/qemu is missing (build/src/"
                           "qemu-10.0.*/python): run ./e1000e-pp setup")
    path = str(Path(src) / "python")
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


class Qmp:
    """QMP of a QEMUMachine: execute() returns the command's return value
    or raises HarnessError; every exchange goes to log_path."""

    def __init__(self, machine, log_path):
        self.machine = machine
        self.log = open(log_path, "w")

    def execute(self, cmd, **args):
        from qemu.qmp import QMPError
        msg = json.dumps({"execute": cmd, "arguments": args})
        self.log.write(f"{time.time():.3f} > {msg}\n")
        try:
            ret = self.machine.cmd(cmd, **args)
        except QMPError as e:
            self.log.write(f"{time.time():.3f} < error {e}\n")
            self.log.flush()
            raise HarnessError(f"QMP {cmd} failed: {e}")
        self.log.write(f"{time.time():.3f} < {json.dumps(ret)}\n")
        self.log.flush()
        return ret

    @property
    def events(self):
        return self.machine.get_qmp_events()

    def close(self):
        self.log.close()


# --- in-guest agent ---------------------------------------------------------------

class AgentError(HarnessError):
    """The agent answered ERR."""


class Agent:
    """Line protocol of guest/agent/agent.c over the ttyS1 chardev socket."""

    def __init__(self, path, log_path, timeout=30):
        self.log = open(log_path, "w")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock.connect(str(path))
                break
            except OSError as e:
                if time.monotonic() >= deadline:
                    raise HarnessError(f"cannot connect to the agent socket "
                                       f"{path}: {e}")
                time.sleep(0.05)
        self.buf = b""

    def _readline(self, deadline):
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessError("agent did not answer in time")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                raise HarnessError("agent connection closed")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        text = line.decode(errors="replace").rstrip("\r")
        self.log.write(f"{time.time():.3f} < {text}\n")
        self.log.flush()
        return text

    def request(self, line, timeout=60):
        """Send one request; return (data lines, terminator words)."""
        self.send(line)
        return self.collect(line, timeout)

    def send(self, line):
        """Send a request without waiting (collect() reads its answer):
        for verbs that wait for something the host does next."""
        self.log.write(f"{time.time():.3f} > {line}\n")
        self.sock.sendall(line.encode() + b"\n")

    def collect(self, line, timeout=60):
        """The answer to the request `line` sent with send()."""
        deadline = time.monotonic() + timeout
        data = []
        while True:
            text = self._readline(deadline)
            if text.startswith("D "):
                data.append(text[2:])
            elif text == "D":
                data.append("")
            elif text.startswith("OK"):
                return data, text[2:].strip()
            elif text.startswith("ERR"):
                raise AgentError(f"agent: {line!r} -> {text}\n" +
                                 "\n".join(data))
            # anything else is line noise from before the agent started

    def hello(self, timeout=60, retry=2.0):
        """Handshake; resent every `retry` s, since bytes that reach ttyS1
        before the agent has opened it are lost (or arrive mangled)."""
        deadline = time.monotonic() + timeout
        while True:
            token = secrets.token_hex(4)
            self.log.write(f"{time.time():.3f} > HELLO {token}\n")
            self.sock.sendall(f"HELLO {token}\n".encode())
            attempt = min(deadline, time.monotonic() + retry)
            try:
                while True:
                    text = self._readline(attempt)
                    if text.startswith(f"OK HELLO {token}"):
                        return text
            except HarnessError:
                if time.monotonic() >= deadline:
                    raise HarnessError(f"agent did not answer HELLO in "
                                       f"{timeout} s")

    def sh(self, command, timeout=60, check=True):
        """Run command in the guest; return (rc, output)."""
        data, term = self.request(f"SHT {int(timeout)} {command}",
                                  timeout=timeout + 30)
        rc = int(term.split("rc=")[1].split()[0])
        out = "\n".join(data)
        if check and rc != 0:
            raise HarnessError(f"guest command {command!r} exit {rc}:\n{out}")
        return rc, out

    def kv(self, line, timeout=60):
        """A request whose OK line is key=value pairs; returns a dict."""
        _, term = self.request(line, timeout=timeout)
        out = {}
        for word in term.split():
            key, sep, value = word.partition("=")
            if sep:
                out[key] = int(value) if value.isdigit() else value
        return out

    def close(self):
        try:
            self.sock.close()
        finally:
            self.log.close()


# --- the VM ----------------------------------------------------------------------

class Vm:
    """device_args: extra QEMU arguments placed before the NIC (e.g. an
    IOMMU, which must exist before the devices it translates for);
    guest_dir: the image to boot (default build/guest). The NIC has
    id=nic0 (QMP qom-get of its counters)."""

    NIC_ID = "nic0"

    def __init__(self, device, report_dir, append="", netdev_id="n0",
                 mac=GUEST_MAC, extra_args=(), boot_timeout=120, ipv6=False,
                 device_args=(), guest_dir=None):
        self.device = device
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
        self.console = self.report_dir / "console.log"
        self.machine = None
        self.peer = self.qmp = self.agent = None
        self.t_start = None
        self.t_ready = None

    def argv(self):
        p = self.paths
        # no_timer_check: the kernel's IO-APIC timer check times a delay
        # loop against the PIT; with the host's 2 cores oversubscribed
        # (measured: 6 busy loops) TCG misses it and the guest panics
        # "IO-APIC + timer doesn't work!" before userspace.
        cmdline = ("console=ttyS0 panic=-1 no_timer_check " +
                   ("" if self.ipv6 else "ipv6.disable=1 ") +
                   self.append).strip()
        return p["firmware_args"] + [
            "-M", "q35", "-m", "512", "-nodefaults", "-no-reboot",
            "-kernel", str(self.guest_dir / "vmlinuz"),
            "-initrd", str(self.guest_dir / "initrd.img"),
            "-append", cmdline,
            "-chardev", f"file,id=con,path={self.console}",
            "-serial", "chardev:con",
            "-chardev", f"socket,id=agent,path={self.sockdir}/agent.sock,"
                        "server=on,wait=off",
            "-serial", "chardev:agent",
        ] + self.device_args + [
            "-device", f"{self.device},id={self.NIC_ID},"
                       f"netdev={self.netdev_id},mac={self.mac},romfile=",
            "-netdev", f"stream,id={self.netdev_id},server=off,"
                       f"addr.type=unix,addr.path={self.sockdir}/net.sock",
        ] + self.extra_args

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
        self.peer = Peer(peer_bin, self.sockdir / "net.sock", self.report_dir)
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
        wait_until("the NIC's netdev to connect to the peer",
                   lambda: self.peer.connected() or self._exited(), 30,
                   evidence=self._qemu_log_tail)
        self._check_running()
        self.agent = Agent(self.sockdir / "agent.sock",
                           self.report_dir / "agent.log")
        wait_until(f"{READY_MARKER} on the console",
                   lambda: READY_MARKER in self.console_text() or
                   self._exited(), self.boot_timeout, interval=0.05,
                   evidence=self.console_tail)
        self._check_running()
        self.t_ready = time.monotonic()
        self.agent.hello()
        return self

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
        if self.agent:
            try:
                self.agent.request("QUIT", timeout=10)
            except (HarnessError, OSError):
                pass
            self.agent.close()
        if self.machine:
            # The agent's QUIT powers the guest off; else QMP quit, else
            # SIGKILL (QEMUMachine.shutdown does both in that order).
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
        if self.peer:
            final = self.peer.close()
        shutil.rmtree(self.sockdir, ignore_errors=True)
        return final


# --- pattern frames (independent of proto.h's C) ------------------------------------

M32 = 0xFFFFFFFF


def pp_mix(x):
    x &= M32
    x ^= x >> 16
    x = (x * 0x7FEB352D) & M32
    x ^= x >> 15
    x = (x * 0x846CA68B) & M32
    x ^= x >> 16
    return x


def pp_frame_len(seq, lo, hi):
    r = seq % 4
    if r == 0:
        return lo
    if r == 1:
        return hi
    return lo + pp_mix(seq ^ 0x5BD1E995) % (hi - lo + 1)


def pp_fnv1a(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & M32
    return h


def mac_bytes(mac):
    return bytes(int(b, 16) for b in mac.split(":"))


def pp_frame(dst, src, run, seq, length):
    """The exact bytes of pattern frame seq (see guest/agent/proto.h)."""
    mseq = pp_mix(seq)
    base = (run * 0x9E3779B1) & M32
    payload = bytes((pp_mix(base ^ mseq ^ ((off * 0x85EBCA6B) & M32)) >> 11)
                    & 0xFF for off in range(length - 34))
    return (mac_bytes(dst) + mac_bytes(src) +
            struct.pack(">HIIIHHI", PP_ETHERTYPE, PP_MAGIC, run, seq, length,
                        0, pp_fnv1a(payload)) + payload)


def read_pcap(path):
    """[(ts, frame bytes)] from a classic little-endian pcap file."""
    data = Path(path).read_bytes()
    magic, = struct.unpack_from("<I", data, 0)
    if magic != 0xA1B2C3D4:
        raise HarnessError(f"{path}: not a little-endian classic pcap")
    off, out = 24, []
    while off + 16 <= len(data):
        sec, usec, incl, _orig = struct.unpack_from("<IIII", data, off)
        out.append((sec + usec / 1e6, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


# --- guest helpers ----------------------------------------------------------------

def ethtool_settings(agent, ifname="eth0"):
    """`ethtool IF` as {field: value} ("Speed": "1000Mb/s", ...)."""
    _, out = agent.sh(f"ethtool {ifname}")
    fields = {}
    for line in out.splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and value.strip():
            fields[key.strip()] = value.strip()
    return fields


def ethtool_stats(agent, ifname="eth0"):
    """`ethtool -S IF` as {counter: int}."""
    _, out = agent.sh(f"ethtool -S {ifname}")
    stats = {}
    for line in out.splitlines()[1:]:
        key, sep, value = line.strip().partition(":")
        if sep and value.strip().lstrip("-").isdigit():
            stats[key.strip()] = int(value)
    return stats


def counters_at_one_instant(vm, tries=20, quiet=0.5):
    """The guest's `ethtool -S` and the peer's counters as of one instant.

    Either side may send on its own at any time (the guest an IPv6 MLD
    report or a neighbour probe, the peer the answer), and each side
    counts a frame a moment before the other. A cut is consistent when
    the guest's tx/rx packet counters did not move from before the peer
    was read until after, and the peer's counters had stopped moving for
    `quiet` seconds (so every frame in flight has landed); otherwise the
    pair is read again. Returns (guest, peer).
    """
    def peer_key(s):
        return s["frames_in"], s["frames_out"]

    def guest_key(g):
        return g["tx_packets"], g["rx_packets"]

    for _ in range(tries):
        g1 = ethtool_stats(vm.agent)
        last = vm.peer.stats()
        since = time.monotonic()
        deadline = since + 10
        while time.monotonic() - since < quiet and \
                time.monotonic() < deadline:
            time.sleep(0.05)
            cur = vm.peer.stats()
            if peer_key(cur) != peer_key(last):
                last, since = cur, time.monotonic()
        g2 = ethtool_stats(vm.agent)
        if guest_key(g2) == guest_key(g1):
            return g1, last
    raise HarnessError("no quiet instant to compare the guest's counters "
                       "with the peer's: traffic never stopped")


def settle(fetch, done, timeout, interval=0.1):
    """Poll fetch() until done(value) or the deadline; return the last value
    (the caller asserts on it, so a shortfall shows as exact numbers)."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value) or time.monotonic() >= deadline:
            return value
        time.sleep(interval)
