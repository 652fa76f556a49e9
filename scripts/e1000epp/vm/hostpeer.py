# SPDX-License-Identifier: GPL-2.0-or-later
"""The host-side peer (tools/peer) as the tests drive it: built if the
native build is not current, started behind the NIC's unix socket,
commands on its stdin, JSON answers and events from its stdout, every
line in <report>/peer.log."""

import hashlib
import json
import queue
import subprocess
import threading
from pathlib import Path

from .addresses import PEER_IP, PEER_IP6, PEER_MAC
from .buildpaths import REPO
from .waits import HarnessError, wait_until


def peer_binary(p):
    """The peer from the native (meson) build if it is current, else one
    built here with gcc into build/functional/."""
    sources = sorted((REPO / "tools" / "peer").glob("*.[ch]")) + \
        sorted((REPO / "tools" / "wire").glob("*.h"))
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
                           "-I", str(REPO / "tools" / "wire"), "-o",
                           str(out)] +
                          [str(s) for s in sources if s.suffix == ".c"] +
                          ["-lpcap"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if proc.returncode != 0:
        raise HarnessError(f"building the peer failed:\n{proc.stdout}")
    stamp.write_text(digest.hexdigest())
    return out


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

    def wait(self, what, count=None, timeout=30):
        """The peer's WAIT: it answers the moment `what` holds (frames_in
        or rx reaching `count`, tcpsink_closed, tcpsrc_done) or once
        `timeout` s pass; the answer is STATS (TCPSTAT, TCPSENDSTAT) with
        "met" true or false, for the caller to assert on."""
        ms = int(timeout * 1000)
        line = f"WAIT {what} {ms}" if count is None else \
            f"WAIT {what} {count} {ms}"
        return self.command(line, timeout=timeout + 30)

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
