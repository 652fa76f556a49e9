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

So a request goes in CHUNK-byte steps (at most what QEMU reads while
the UART is empty), and the next step only after the vCPU has taken
the previous one: QEMU has read it from the socket (SIOCOUTQ 0: the
event is queued, the read and the queueing are one main-loop step) and
the guest's instruction count (QMP query-replay) has moved twice (the
vCPU ended a slice after the queueing, went through the loop's top
where queued events are delivered, and ran on). From then on the UART
tells the truth about its room: QEMU reads nothing more until the
guest has drained it. The guest's periodic tick (nohz=off,
recording.RECORD_APPEND) wakes an idle vCPU every 4 ms, so a step
costs milliseconds, not the guest's next timer (up to seconds)."""

import fcntl
import select
import socket
import struct
import threading
import time

from e1000epp.vm.waits import HarnessError

# At most what QEMU's main loop reads into an empty 16550 at a time
# (the receive trigger level Linux's 8250 driver sets).
CHUNK = 8
# Instruction-count moves that prove the vCPU took the queued bytes.
MOVES = 2
# How long one step may take (the guest stopped, QEMU gone).
STEP_TIMEOUT = 30.0
# Between two looks at the socket or the instruction count. Every QMP
# command wakes QEMU's main loop, which takes the replay lock from the
# vCPU and writes clock checkpoints to the log; polled every
# millisecond, the guest ran at 7 M instructions/s in the recording and
# its replay at 0.4 M/s.
POLL = 0.01
SIOCOUTQ = 0x5411


def unread(sock):
    """Bytes sent on sock that its peer has not read yet."""
    buf = fcntl.ioctl(sock.fileno(), SIOCOUTQ, b"\0" * 4)
    return struct.unpack("i", buf)[0]


def chunks(data, size=CHUNK):
    """data in steps of at most size bytes."""
    return [data[i:i + size] for i in range(0, len(data), size)]


class Pacer:
    """The agent's connection during a recording (harness.Vm's
    agent_pacer, handed to its Agent): wrap() puts a relay between
    QEMU's socket and the Agent, send() paces requests, close() ends
    both. vm is the recorded harness.Vm (its QMP connection is read when
    a request goes out: it exists once QEMU started).

    The relay reads QEMU's end all the time. Without it a recording
    hangs: the UART hands each byte the guest writes to the chardev on
    its own, QEMU's socket takes about 280 one-byte writes before its
    send buffer is full, and in record mode QEMU retries a write until
    it goes through, in the vCPU thread, holding the lock its main loop
    (QMP) needs; a harness waiting for a QMP answer reads nothing
    (QEMU 10.0.13, chardev/char.c qemu_chr_write_buffer)."""

    def __init__(self, vm, timeout=STEP_TIMEOUT):
        self.vm = vm
        self.timeout = timeout
        self.steps = 0
        self.real = self.inner = self.thread = None

    def wrap(self, sock):
        """The socket the Agent reads from: what QEMU writes on sock,
        relayed as soon as it comes."""
        self.real = sock
        outer, self.inner = socket.socketpair()
        self.thread = threading.Thread(target=self._relay, daemon=True)
        self.thread.start()
        return outer

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
                    backlog += data
                if writable:
                    del backlog[:self.inner.send(backlog)]
            self.inner.setblocking(True)
            self.inner.sendall(backlog)
            self.inner.shutdown(socket.SHUT_WR)
        except (OSError, ValueError):
            return

    def close(self):
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

    def icount(self):
        return self.vm.qmp.execute("query-replay")["icount"]

    def send(self, data):
        for step in chunks(data):
            self.real.sendall(step)
            deadline = time.monotonic() + self.timeout
            while unread(self.real):
                self._tick(deadline, "QEMU to read the agent's bytes")
            seen, moves = self.icount(), 0
            while moves < MOVES:
                now = self.icount()
                if now > seen:
                    seen, moves = now, moves + 1
                else:
                    self._tick(deadline, "the guest to run on (its "
                               "instruction count, QMP query-replay)")
            self.steps += 1

    def _tick(self, deadline, what):
        if time.monotonic() > deadline:
            raise HarnessError(f"recording: waited {self.timeout:.0f} s "
                               f"for {what}")
        time.sleep(POLL)
