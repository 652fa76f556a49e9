# SPDX-License-Identifier: GPL-2.0-or-later
"""The device's knob channel (e1000e-pp's x-knobs property,
hw/net/e1000e_pp/e1000e_pp_knob_channel.c): a chardev socket whose
NAME=VALUE lines set the run-time knobs, one answer line each ("ok
NAME=VALUE" or "error ...").

A run under QEMU's record/replay sets its knobs here instead of with
QMP qom-set: a chardev's input is in the replay log and reaches the
device at the same instruction in the replay, where a qom-set's moment
is in no log (docs/replay.md)."""

import time

from .agentlink import connect, recv_line
from .waits import HarnessError

CHARDEV_ID = "knobs"
SOCKET = "knobs.sock"
# Seconds for an answer: the line is taken at the recording's next
# checkpoint, milliseconds of guest time; this bounds a lost one.
ANSWER_TIMEOUT = 30


def qemu_args(sockdir):
    """The chardev; the NIC names it with device_prop()."""
    return ["-chardev", f"socket,id={CHARDEV_ID},path={sockdir}/{SOCKET},"
            "server=on,wait=off"]


def device_prop():
    return f"x-knobs={CHARDEV_ID}"


class KnobChannel:
    """The host end, connected on first use; log(text) gets each
    exchange."""

    def __init__(self, sockdir, log=None):
        self.path = f"{sockdir}/{SOCKET}"
        self.sock = None
        self.buf = b""
        self.log = log

    def set(self, name, value):
        """One knob; HarnessError naming the device's reason when it
        refuses, or when no answer comes."""
        if self.sock is None:
            self.sock = connect(self.path, what="the knob channel")
        line = f"{name}={int(value)}"
        self.sock.sendall(line.encode() + b"\n")
        answer = self._answer()
        if self.log:
            self.log(f"knob channel: {line} -> {answer}")
        if answer != f"ok {line}":
            raise HarnessError(f"the device refused {line} on its knob "
                               f"channel: {answer}")

    def _answer(self):
        return recv_line(self, time.monotonic() + ANSWER_TIMEOUT,
                         f"no answer on the knob channel in "
                         f"{ANSWER_TIMEOUT} s", self._closed)

    def _closed(self):
        raise HarnessError("QEMU closed the knob channel")

    def close(self):
        if self.sock:
            self.sock.close()
            self.sock = None
