# SPDX-License-Identifier: GPL-2.0-or-later
"""The recording's and the replay's keepalive (replay/keepalive.py): a
QMP monitor of its own, woken at a steady rate, gone from a replay's
command line when the replay brings its own."""

import json
import os
import socket
import threading
import time

from e1000epp.replay import keepalive


def test_the_monitor_is_a_qmp_server_on_its_own_socket():
    assert keepalive.qemu_args("/tmp/x/rrwake.sock") == [
        "-chardev", "socket,id=rrwake,path=/tmp/x/rrwake.sock,server=on,"
                    "wait=off",
        "-mon", "chardev=rrwake,mode=control"]


def test_a_replay_drops_the_recordings_monitor_and_nothing_else():
    argv = ["-M", "q35",
            "-chardev", "socket,id=agent,path=/s/agent.sock,server=on",
            "-chardev", "socket,id=rrwake,path=/s/rrwake.sock,server=on,"
                        "wait=off",
            "-mon", "chardev=rrwake,mode=control",
            "-mon", "chardev=mon0,mode=control",
            "-icount", "shift=auto,rr=replay"]
    assert keepalive.without_monitor(argv) == [
        "-M", "q35",
        "-chardev", "socket,id=agent,path=/s/agent.sock,server=on",
        "-mon", "chardev=mon0,mode=control",
        "-icount", "shift=auto,rr=replay"]


class FakeMonitor:
    """QEMU's side of the monitor: every command line it got, each
    answered with a return."""

    def __init__(self, path):
        self.srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.srv.bind(path)
        self.srv.listen(1)
        self.commands = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        conn, _ = self.srv.accept()
        buf = b""
        try:
            while True:
                data = conn.recv(4096)
                if not data:
                    break
                buf += data
                while b"\n" in buf:
                    line, _, buf = buf.partition(b"\n")
                    self.commands.append(json.loads(line)["execute"])
                    conn.sendall(b'{"return": {}}\r\n')
        except OSError:         # the keepalive closed before an answer
            pass
        conn.close()

    def close(self):
        self.srv.close()
        self.thread.join(5)


def test_it_negotiates_then_wakes_qemu_every_interval():
    k = keepalive.Keepalive(interval=0.01)
    mon = FakeMonitor(k.path)
    try:
        k.start()
        time.sleep(0.5)
        k.stop()
        mon.thread.join(5)
        assert mon.commands[0] == "qmp_capabilities"
        # 0.5 s at 10 ms: at most 50 wakes, and the answers read back
        # never held it up
        assert 10 <= len(mon.commands) - 1 <= 50
        assert set(mon.commands[1:]) == {"query-status"}
        assert k.wakes == len(mon.commands) - 1
        assert not os.path.exists(k.dir)
    finally:
        mon.close()


def test_a_pacer_that_never_ran_still_removes_the_keepalive_directory():
    # a boot that fails before the agent connects: harness.Vm.stop closes
    # the pacer, which never wrapped a socket
    from e1000epp.replay import pacing
    k = keepalive.Keepalive()
    assert os.path.isdir(k.dir)
    pacing.Pacer(keepalive=k).close()
    assert not os.path.exists(k.dir)
