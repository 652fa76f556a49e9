# SPDX-License-Identifier: GPL-2.0-or-later
"""The agent's requests sent so that a recording loses none of them.

Under `-icount ...,rr=record` a byte QEMU reads from the agent's chardev
socket reaches the guest's 16550 only when the vCPU thread next takes
the replay log's queued events (it logs them there): at the top of its
loop, never while the vCPU sleeps in HLT. Until then the UART still
looks empty to QEMU's main loop, which keeps reading the socket (it
asks the UART how much it takes, the receive trigger level, 8 bytes
under Linux) and queueing; the whole request then arrives at once and
everything past the UART's 16-byte FIFO is an overrun (QEMU 10.0.13:
a 48-byte request arrived as its first 17 bytes and its newline).

So a request goes in CHUNK-byte steps, and the next step only once
the agent has read the previous one: a recorded guest's agent runs
with --paced (RECORD_APPEND's e1000epp.paced=1) and writes ACK after
every CHUNK bytes it reads and after each newline (tools/wire/proto.h).
Its read proves the guest's driver emptied the FIFO. Into an empty FIFO
QEMU reads the trigger level, 8 bytes, and while those wait for the
vCPU at most 8 more: 16, what the FIFO holds. The guest's periodic tick
(nohz=off) wakes an idle vCPU every 4 ms to take the queued bytes, the
acknowledgement comes back on the agent's own output, and the
recording's keepalive (keepalive.py) keeps QEMU's main loop reading the
socket: a step takes 2-4 ms.

Before the acknowledgements (until 2026-12-06) a step of 8 bytes waited
for QEMU to have read them and the guest's instruction count to move
twice, polled every 10 ms over QMP: about 30 ms a step, 10x the cell's
plain time for a matrix cell's 663 steps (docs/usage/replay.md,
Overhead); now 359 steps and 2.5 s in all."""

import select
import socket
import threading
import time

from e1000epp.vm.waits import HarnessError

# The agent's acknowledgement and its step (tools/wire/proto.h's
# PP_PACE_ACK and PP_PACE_CHUNK).
ACK = 0x06
CHUNK = 16
# How long one step may take (the guest stopped, QEMU gone, an agent
# without --paced).
STEP_TIMEOUT = 30.0
# The kernel command line option that starts the agent with --paced
# (guest/init).
PACED_APPEND = "e1000epp.paced=1"


def chunks(data, size=CHUNK):
    """data in steps of at most size bytes, each line's last step ending
    at its newline (where the agent acknowledges early)."""
    out = []
    for line in data.splitlines(keepends=True):
        out += [line[i:i + size] for i in range(0, len(line), size)]
    return out


class Pacer:
    """The agent's connection during a recording (harness.Vm's
    agent_pacer, handed to its Agent): wrap() puts a relay between
    QEMU's socket and the Agent, send() paces requests, close() ends
    both.

    The relay reads QEMU's end all the time, takes the agent's
    acknowledgements out of it and hands the rest on. Without it a
    recording hangs: the UART hands each byte the guest writes to the
    chardev on its own, QEMU's socket takes about 280 one-byte writes
    before its send buffer is full, and in record mode QEMU retries a
    write until it goes through, in the vCPU thread, holding the lock
    its main loop (QMP) needs; a harness waiting for a QMP answer reads
    nothing (QEMU 10.0.13, chardev/char.c qemu_chr_write_buffer)."""

    def __init__(self, timeout=STEP_TIMEOUT, keepalive=None):
        # keepalive (keepalive.py): started with the relay, stopped with
        # it; without one a step can wait up to a second for QEMU.
        self.keepalive = keepalive
        self.timeout = timeout
        self.steps = 0
        self.acks = 0
        self.acked = threading.Condition()
        self.real = self.inner = self.thread = None

    def wrap(self, sock):
        """The socket the Agent reads from: what QEMU writes on sock,
        relayed as soon as it comes, without the acknowledgements."""
        self.real = sock
        if self.keepalive is not None:
            self.keepalive.start()
        outer, self.inner = socket.socketpair()
        self.thread = threading.Thread(target=self._relay, daemon=True)
        self.thread.start()
        return outer

    def _take_acks(self, data):
        acks = data.count(ACK)
        if acks:
            data = data.replace(bytes([ACK]), b"")
            with self.acked:
                self.acks += acks
                self.acked.notify_all()
        return data

    def _relay(self):
        """QEMU's bytes into a backlog as soon as they come (never
        blocked by the Agent), the backlog to the Agent's socket as it
        takes them."""
        backlog = bytearray()
        self.inner.setblocking(False)
        try:
            while True:
                want = [self.inner] if backlog else []
                readable, writable, _ = select.select([self.real], want,
                                                      [], 1.0)
                if readable:
                    data = self.real.recv(65536)
                    if not data:
                        break
                    backlog += self._take_acks(data)
                if writable:
                    del backlog[:self.inner.send(backlog)]
            self.inner.setblocking(True)
            self.inner.sendall(backlog)
            self.inner.shutdown(socket.SHUT_WR)
        except (OSError, ValueError):
            return
        finally:
            with self.acked:
                self.acked.notify_all()

    def close(self):
        if self.keepalive is not None:
            self.keepalive.stop()
        for s in (self.real, self.inner):
            if s is not None:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        if self.thread is not None:
            self.thread.join(5)
        for s in (self.real, self.inner):
            if s is not None:
                s.close()

    def send(self, data):
        for step in chunks(data):
            with self.acked:
                want = self.acks + 1
            self.real.sendall(step)
            deadline = time.monotonic() + self.timeout
            with self.acked:
                while self.acks < want:
                    left = deadline - time.monotonic()
                    if left <= 0 or not self.thread.is_alive():
                        raise HarnessError(
                            f"recording: waited {self.timeout:.0f} s for "
                            "the agent to acknowledge its bytes (is it "
                            "--paced? guest/init, e1000epp.paced=1)"
                            if left <= 0 else "recording: the agent's "
                            "connection closed")
                    self.acked.wait(min(left, 1.0))
            self.steps += 1
