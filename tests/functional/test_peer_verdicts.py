# SPDX-License-Identifier: GPL-2.0-or-later
"""The peer's per-frame verdicts and its pcap, without a VM.

A Python client plays the NIC's side of the `-netdev stream` socket
(4-byte big-endian length, then the frame) and sends pattern frames built
by harness.pp_frame (an implementation independent of proto.h), some of
them damaged on purpose. The peer must count loss, duplication,
reordering, truncation and corruption separately, name the first failing
sequence numbers with the offset of the first differing byte, check
802.1Q-tagged frames without their tag, and leave a pcap that tcpdump
reads. Deterministic: every wait is the peer's own WAIT for a count (it
answers when the count is reached; the bound is only for a frame that
never comes).
"""

import shutil
import socket
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from e1000epp.vm.harness import GUEST_MAC, PEER_MAC, Peer, pp_frame, wait_until

RUN = 7


@pytest.fixture
def peer(peer_bin):
    d = Path(tempfile.mkdtemp(prefix="e1000epp-peer-"))
    p = Peer(peer_bin, d / "net.sock", d)
    nic = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    nic.connect(str(d / "net.sock"))
    wait_until("the peer to see the connection", p.connected, 10)
    yield p, nic, d
    nic.close()
    p.close()
    shutil.rmtree(d, ignore_errors=True)


def send(nic, frame):
    nic.sendall(struct.pack(">I", len(frame)) + frame)


def frame(seq, length):
    return pp_frame(PEER_MAC, GUEST_MAC, RUN, seq, length)


def recv_frames(nic, count, timeout=10):
    nic.settimeout(timeout)
    buf, out = b"", []
    while len(out) < count:
        buf += nic.recv(65536)
        while len(buf) >= 4 and len(buf) >= 4 + struct.unpack(
                ">I", buf[:4])[0]:
            n = struct.unpack(">I", buf[:4])[0]
            out.append(buf[4:4 + n])
            buf = buf[4 + n:]
    return out


def test_each_failure_kind_is_counted_on_its_own(peer):
    p, nic, _ = peer
    p.command(f"RX {RUN} 8 {GUEST_MAC}")
    send(nic, frame(0, 100))
    send(nic, frame(2, 102))            # before 1: 1 is reordered
    send(nic, frame(1, 2046))
    send(nic, frame(1, 2046))           # duplicate
    send(nic, frame(3, 2048)[:1500])    # truncated at 1500
    damaged = bytearray(frame(4, 1514))
    damaged[777] ^= 0x40                # corrupted at 777
    send(nic, bytes(damaged))
    send(nic, frame(6, 60))             # 5 and 7 never sent: lost
    stats = p.wait("frames_in", 7, timeout=20)
    assert stats["rx"] == {"good": 4, "bad": 2, "trunc": 1, "corrupt": 1,
                           "fcs_bad": 0, "missing": 4, "dup": 1,
                           "reorder": 1, "stale": 0, "other": 0,
                           "bytes": 100 + 102 + 2046 + 60}
    assert stats["fails"] == \
        "lost:3,4,5,7;trunc:3@1500/1500;corrupt:4@777/1514"


def test_tagged_frames_are_checked_without_their_tag(peer):
    p, nic, _ = peer
    p.command(f"RX {RUN} 2 {GUEST_MAC}")
    for seq, length in ((0, 1514), (1, 60)):
        f = frame(seq, length)
        send(nic, f[:12] + b"\x81\x00\x00\x64" + f[12:])
    stats = p.wait("frames_in", 2, timeout=20)
    assert stats["vlan_in"] == 2
    assert (stats["rx"]["good"], stats["rx"]["bad"]) == (2, 0)


def test_txl_sends_the_listed_lengths_tagged(peer):
    p, nic, _ = peer
    assert p.command(f"TXL {GUEST_MAC} {RUN} 60,2046,9014 2 100") == \
        {"ok": True, "queued": 6, "bytes": 2 * (60 + 2046 + 9014)}
    got = recv_frames(nic, 6)
    for seq, f in enumerate(got):
        length = (60, 2046, 9014)[seq % 3]
        want = pp_frame(GUEST_MAC, PEER_MAC, RUN, seq, length)
        assert f == want[:12] + b"\x81\x00\x00\x64" + want[12:]


def test_pcap_is_written_as_frames_pass_and_tcpdump_reads_it(peer):
    p, nic, d = peer
    p.command(f"RX {RUN} 1 {GUEST_MAC}")
    send(nic, frame(0, 1514))
    p.command(f"TXL {GUEST_MAC} {RUN} 60 1")
    recv_frames(nic, 1)
    p.wait("frames_in", 1, timeout=20)
    # Flushed per frame: readable while the peer still runs.
    out = subprocess.run(["tcpdump", "-nn", "-e", "-r", str(p.pcap)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stdout
    lines = [line for line in out.stdout.splitlines() if "0x88b5" in line]
    assert len(lines) == 2
    assert f"{GUEST_MAC} > {PEER_MAC}" in lines[0] and \
        "length 1514" in lines[0]
    assert f"{PEER_MAC} > {GUEST_MAC}" in lines[1] and "length 60" in lines[1]


def with_fcs(f, crc=None):
    """The frame followed by its FCS as on the wire (CRC-32 of IEEE 802.3,
    least significant byte first), computed with zlib, not proto.h."""
    crc = zlib.crc32(f) if crc is None else crc
    return f + struct.pack("<I", crc)


def test_fcs_sessions_check_the_crc_of_every_frame(peer):
    """What the agent does with rx-fcs on (the session code is shared):
    a right FCS passes and is not counted in the length; a wrong one, or a
    frame cut inside its FCS, is a failure of its own kind."""
    p, nic, _ = peer
    p.command(f"RX {RUN} 4 {GUEST_MAC} fcs")
    send(nic, with_fcs(frame(0, 2046)))                 # FCS straddles 2 KB
    send(nic, with_fcs(frame(1, 2048)))                 # FCS alone after it
    f2 = frame(2, 1514)
    send(nic, with_fcs(f2, zlib.crc32(f2) ^ 1))         # wrong CRC
    send(nic, with_fcs(frame(3, 1514))[:-2])            # FCS cut short
    stats = p.wait("frames_in", 4, timeout=20)
    assert stats["rx"] == {"good": 2, "bad": 2, "trunc": 1, "corrupt": 1,
                           "fcs_bad": 1, "missing": 2, "dup": 0,
                           "reorder": 0, "stale": 0, "other": 0,
                           "bytes": 2046 + 2048}
    assert stats["fails"] == "lost:2,3;fcs:2@1514/1514;trunc:3@1512/1512"


def test_wait_answers_at_the_count_or_when_its_time_is_up(peer):
    """WAIT is what the VM tests wait with: the peer answers the moment
    its session has seen the frames, or says met=false at the bound."""
    p, nic, _ = peer
    p.command(f"RX {RUN} 2 {GUEST_MAC}")
    stats = p.wait("rx", 1, timeout=0.2)        # nothing sent yet
    assert (stats["met"], stats["rx"]["good"]) == (False, 0)
    send(nic, frame(0, 60))
    send(nic, frame(1, 1514))
    stats = p.wait("rx", 2, timeout=20)
    assert stats["met"] is True
    assert (stats["rx"]["good"], stats["rx"]["missing"]) == (2, 0)
    assert p.wait("tcpsink_closed", timeout=0.1)["met"] is False
