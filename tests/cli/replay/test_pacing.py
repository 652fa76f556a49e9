# SPDX-License-Identifier: GPL-2.0-or-later
"""The paced agent of a recording (replay/pacing.py): requests go in
steps the guest's UART holds, each after the agent's acknowledgement,
and the acknowledgements never reach the Agent's reader. The agent's
side runs the real guest/agent on a pseudo-terminal."""

import glob
import os
import re
import select
import shutil
import socket
import subprocess
import threading
import time

import pytest

from e1000epp.common import paths
from e1000epp.replay import pacing

PROTO_H = os.path.join(paths.REPO, "tools", "wire", "proto.h")


def test_a_request_goes_in_steps_of_sixteen_bytes():
    # the 16550's FIFO (16 bytes): QEMU reads 8 (Linux's receive
    # trigger level) into an empty FIFO, twice before the vCPU takes them
    assert pacing.chunks(b"SHT 60 ip link set eth0 up && true\n") == [
        b"SHT 60 ip link s", b"et eth0 up && tr", b"ue\n"]


def test_a_step_ends_at_each_newline():
    assert pacing.chunks(b"AB\nCDEFGHIJKLMNOPQRS\n") == [
        b"AB\n", b"CDEFGHIJKLMNOPQR", b"S\n"]


def test_the_acknowledgement_and_step_are_the_agents():
    with open(PROTO_H) as f:
        text = f.read()
    ack = re.search(r"#define PP_PACE_ACK\s+(0x[0-9a-f]+)", text)
    chunk = re.search(r"#define PP_PACE_CHUNK\s+(\d+)", text)
    assert int(ack.group(1), 16) == pacing.ACK == 0x06
    assert int(chunk.group(1)) == pacing.CHUNK == 16


class QemuEnd:
    """The QEMU end of the agent's socket: records what arrives, with
    the time, and writes what the test makes the agent say."""

    def __init__(self):
        self.sock, self.peer = socket.socketpair()
        self.got = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while True:
            try:
                data = self.peer.recv(64)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.got.append(data)

    def received(self):
        with self.lock:
            return b"".join(self.got)

    def wait_for(self, size, timeout=5.0):
        deadline = time.monotonic() + timeout
        while len(self.received()) < size:
            assert time.monotonic() < deadline, self.received()
            time.sleep(0.01)

    def close(self):
        self.peer.close()
        self.thread.join(5)


def test_each_step_waits_for_the_agents_acknowledgement():
    q = QemuEnd()
    p = pacing.Pacer()
    agent_sock = p.wrap(q.sock)
    sender = threading.Thread(target=p.send,
                              args=(b"HELLO 0123456789abcd\n",))
    try:
        sender.start()
        q.wait_for(16)
        time.sleep(0.3)
        assert q.received() == b"HELLO 0123456789"  # nothing more unacked
        q.peer.sendall(bytes([pacing.ACK]))
        q.wait_for(21)
        assert q.received() == b"HELLO 0123456789abcd\n"
        q.peer.sendall(bytes([pacing.ACK]) + b"OK HELLO 0123456789abcd\n")
        sender.join(5)
        assert not sender.is_alive()
        assert p.steps == 2
        agent_sock.settimeout(5)
        got = b""
        while not got.endswith(b"\n"):
            got += agent_sock.recv(4096)
        assert got == b"OK HELLO 0123456789abcd\n"  # no acknowledgement
    finally:
        p.close()
        agent_sock.close()
        q.close()


def test_an_agent_that_does_not_acknowledge_times_the_step_out():
    q = QemuEnd()
    p = pacing.Pacer(timeout=0.2)
    agent_sock = p.wrap(q.sock)
    try:
        with pytest.raises(pacing.HarnessError) as e:
            p.send(b"X\n")
        assert str(e.value) == (
            "recording: waited 0 s for the agent to acknowledge its bytes "
            "(is it --paced? guest/init, e1000epp.paced=1)")
    finally:
        p.close()
        agent_sock.close()
        q.close()


def test_what_qemu_writes_is_read_at_once_and_relayed_to_the_agent():
    qemu, harness_end = socket.socketpair()
    p = pacing.Pacer()
    agent_sock = p.wrap(harness_end)
    try:
        # 1000 one-byte writes: more than QEMU's send buffer holds when
        # nobody reads (about 280), none blocks
        qemu.settimeout(5)
        for i in range(1000):
            qemu.sendall(b"x")
        qemu.sendall(b"\n")
        got = b""
        agent_sock.settimeout(5)
        while not got.endswith(b"\n"):
            got += agent_sock.recv(4096)
        assert got == b"x" * 1000 + b"\n"
    finally:
        p.close()
        agent_sock.close()
        qemu.close()


@pytest.fixture(scope="module")
def agent_bin(tmp_path_factory):
    """guest/agent built as the native build does (or built here)."""
    built = os.path.join(paths.NATIVE_DIR, "guest", "agent",
                         "e1000epp-agent")
    if os.path.exists(built):
        return built
    if not shutil.which("gcc"):
        pytest.skip("no build/native agent and no gcc")
    out = str(tmp_path_factory.mktemp("agent") / "e1000epp-agent")
    src = sorted(glob.glob(os.path.join(paths.REPO, "guest", "agent",
                                        "*.c")))
    subprocess.run(["gcc", "-O1", "-I", os.path.dirname(PROTO_H), "-o",
                    out] + src, check=True)
    return out


def read_until(fd, end, timeout=10.0):
    got = b""
    deadline = time.monotonic() + timeout
    while not got.endswith(end):
        left = deadline - time.monotonic()
        assert left > 0, got
        if select.select([fd], [], [], left)[0]:
            got += os.read(fd, 4096)
    return got


@pytest.mark.parametrize("paced", [True, False])
def test_the_agent_acknowledges_each_sixteen_bytes_and_each_line(
        agent_bin, paced):
    master, slave = os.openpty()
    tty = os.ttyname(slave)
    argv = [agent_bin] + (["--paced"] if paced else []) + [tty]
    agent = subprocess.Popen(argv, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    try:
        # the READY marker: the agent has opened and flushed the port
        assert b"E1000EPP-READY" in agent.stdout.readline()
        # 37 bytes: acknowledged after 16, 32, and the newline
        os.write(master, b"HELLO 0123456789abcdefghijklmnopqrst\n")
        got = read_until(master, b"\n")
        ack = bytes([0x06])
        want = b"OK HELLO 0123456789abcdefghijklmnopqrst"
        assert got.startswith(ack * 3 + want if paced else want)
        # a line of exactly sixteen bytes: one acknowledgement
        os.write(master, b"HELLO 012345678\n")
        got = read_until(master, b"\n")
        assert got.startswith((ack if paced else b"") + b"OK HELLO 012345678")
    finally:
        agent.kill()
        agent.wait(5)
        os.close(master)
        os.close(slave)
