# SPDX-License-Identifier: GPL-2.0-or-later
"""QEMU's main loop woken at a steady rate during a recording or replay.

Under -icount ...,rr=record an idle guest's clock moves on only when
QEMU's main loop starts the warp timer, and a byte waiting on a chardev
socket is read only when the main loop runs. QEMU 10.0.13 sometimes
leaves the main loop asleep until its own poll timeout (about 1 s)
instead: 75 of a matrix cell's 684 paced agent steps waited 0.6-1.0 s,
and a replay of a 16 s recording took 95 s with 27 s of CPU time (32 s
with the keepalive). A QMP command wakes the
main loop, and changes nothing the replay log holds (QMP is not an
input of the recording), so a thread sends `query-status` every
INTERVAL on a monitor of its own (the harness's QMP connection is not
shared across threads)."""

import json
import os
import select
import shutil
import tempfile
import threading

from e1000epp.vm.agentlink import connect

# Between two wakes. 10 ms: the pacing's old poll rate, which never
# stalled; a wake every millisecond slowed the recorded guest to 7 M
# instructions/s (pacing.py).
INTERVAL = 0.01
CHARDEV_ID = "rrwake"
SOCKET = "rrwake.sock"


def qemu_args(path):
    """The keepalive's monitor: a QMP server on the unix socket path."""
    return ["-chardev", f"socket,id={CHARDEV_ID},path={path},server=on,"
            "wait=off",
            "-mon", f"chardev={CHARDEV_ID},mode=control"]


def without_monitor(argv):
    """argv without the -chardev and -mon of qemu_args()."""
    out, skip = [], False
    for i, a in enumerate(argv):
        if skip:
            skip = False
            continue
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if (a == "-chardev" and f"id={CHARDEV_ID}," in nxt + ",") or \
                (a == "-mon" and nxt.startswith(f"chardev={CHARDEV_ID},")):
            skip = True
            continue
        out.append(a)
    return out


class Keepalive:
    """start() connects to the monitor of qemu_args(path) and wakes QEMU
    every interval until stop() or QEMU's end. Its socket is in a
    directory of its own under /tmp (a unix socket's path is limited to
    107 bytes), removed by stop()."""

    def __init__(self, interval=INTERVAL):
        self.dir = tempfile.mkdtemp(prefix="e1000epp-rrwake-")
        self.path = os.path.join(self.dir, SOCKET)
        self.interval = interval
        self.wakes = 0
        self.done = threading.Event()
        self.sock = self.thread = None

    def start(self, timeout=30):
        self.sock = connect(self.path, timeout, "the keepalive monitor")
        self.sock.settimeout(timeout)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _send(self, cmd):
        self.sock.sendall(json.dumps({"execute": cmd}).encode() + b"\n")

    def _run(self):
        # Answers are read and dropped: only the wake counts. The
        # socket's buffer is drained each round so QEMU never blocks.
        try:
            self._send("qmp_capabilities")
            while not self.done.wait(self.interval):
                self._drain()
                self._send("query-status")
                self.wakes += 1
        except OSError:
            return

    def _drain(self):
        while select.select([self.sock], [], [], 0)[0]:
            if not self.sock.recv(65536):
                raise OSError("the keepalive monitor closed")

    def stop(self):
        self.done.set()
        if self.thread is not None:
            self.thread.join(5)
        if self.sock is not None:
            self.sock.close()
        shutil.rmtree(self.dir, ignore_errors=True)
