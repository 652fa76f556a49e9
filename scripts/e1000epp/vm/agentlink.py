# SPDX-License-Identifier: GPL-2.0-or-later
"""The in-guest agent's line protocol (guest/agent/agent.c) over the
ttyS1 chardev socket: a request line, "D <text>" data lines, one "OK" or
"ERR" terminator; every line in <report>/agent.log.

An Agent follows its guest through a live migration (vm/migration.py):
hold() before the switch-over keeps new requests back (bytes sent to a
chardev the source QEMU has not read yet are lost with it), move_to()
gives it the destination's socket, which it reads once the source's
has closed (so what the guest wrote before the switch-over is read
first), and sends go there from then on."""

import secrets
import socket
import threading
import time

from .waits import HarnessError


def recv_line(conn, deadline, late, on_eof):
    """The next line of conn (its .sock, read into its .buf), without
    its newline; HarnessError(late) at deadline; on_eof() when the peer
    closes (it may raise, or give conn another socket)."""
    while b"\n" not in conn.buf:
        left = deadline - time.monotonic()
        if left <= 0:
            raise HarnessError(late)
        conn.sock.settimeout(left)
        try:
            chunk = conn.sock.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            on_eof()
            continue
        conn.buf += chunk
    line, _, conn.buf = conn.buf.partition(b"\n")
    return line.decode(errors="replace").rstrip("\r")


class AgentError(HarnessError):
    """The agent answered ERR."""


def connect(path, timeout=30, what="the chardev socket"):
    """A client socket on the unix socket server at path (a chardev
    QEMU may not have created yet), retried until timeout."""
    deadline = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            return sock
        except OSError as e:
            sock.close()
            if time.monotonic() >= deadline:
                raise HarnessError(f"cannot connect to {what} {path}: {e}")
            time.sleep(0.05)


class Agent:
    """Line protocol of guest/agent/agent.c over the ttyS1 chardev socket."""

    def __init__(self, path, log_path, timeout=30, pacer=None):
        # pacer (a recording: replay/pacing.py): wrap(sock) gives the
        # socket to read from, send(data) sends in steps the guest's
        # serial port keeps up with, close() ends both; None: the socket
        # itself and sendall.
        self.pacer = pacer
        self.log = open(log_path, "w")
        self.sock = connect(path, timeout, "the agent socket")
        if pacer:
            self.sock = pacer.wrap(self.sock)
        self.buf = b""
        self.next_sock = None
        self.open = threading.Event()
        self.open.set()

    def hold(self):
        """Requests wait (send() blocks) until release()."""
        self.open.clear()

    def release(self):
        self.open.set()

    def move_to(self, sock):
        """The guest now runs behind sock (a connected socket to the
        destination QEMU's chardev)."""
        self.next_sock = sock

    def _out(self):
        return self.next_sock or self.sock

    def _closed(self):
        """The socket read an end of file: go on on the destination's,
        if the guest moved; else HarnessError."""
        if self.next_sock is None:
            raise HarnessError("agent connection closed")
        self.sock.close()
        self.sock, self.next_sock = self.next_sock, None
        self.log.write(f"{time.time():.3f} - on the migration's "
                       "destination\n")

    def _readline(self, deadline):
        text = recv_line(self, deadline, "agent did not answer in time",
                         self._closed)
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
        self.open.wait()
        self.log.write(f"{time.time():.3f} > {line}\n")
        self._sendall(line.encode() + b"\n")

    def _sendall(self, data):
        if self.pacer:
            self.pacer.send(data)
        else:
            self._out().sendall(data)

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
            self._sendall(f"HELLO {token}\n".encode())
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

    def read_files(self, paths, timeout=60):
        """{path: text, or None where the guest could not read it} of up
        to 15 files, read by the agent itself (READ: no shell forked)."""
        data, _ = self.request("READ " + " ".join(paths), timeout=timeout)
        out, cur = {}, None
        for line in data:
            if line.startswith("== ") and line[3:] in paths:
                cur = line[3:]
                out[cur] = []
            elif line.startswith("!! ") and \
                    line[3:].split(" ", 1)[0] in paths:
                path = line[3:].split(" ", 1)[0]
                out[path] = None
                cur = None
            elif cur is not None:
                out[cur].append(line)
        return {p: None if out.get(p) is None else "\n".join(out[p])
                for p in paths}

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
            if self.pacer:
                self.pacer.close()
            self.sock.close()
            if self.next_sock:
                self.next_sock.close()
        finally:
            self.log.close()
