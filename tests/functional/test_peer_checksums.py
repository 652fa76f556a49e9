# SPDX-License-Identifier: GPL-2.0-or-later
"""The peer's CSUMBAD frames, without a VM: a Python client plays the
NIC's side of the `-netdev stream` socket and checks every frame with
checksums computed here (RFC 1071, the pseudo-headers of RFC 768, RFC
9293 and RFC 8200), not with the peer's code: each good frame right in
every checksum, each bad one wrong in exactly the checksum its kind
names, good and bad alternating, the data bytes those the agent's
UDPRECV checks (pp_csum_byte, written out again here).
"""

import shutil
import socket
import struct
import tempfile
from pathlib import Path

import pytest

from e1000epp.vm.harness import (GUEST_IP, GUEST_IP6, GUEST_MAC,
                                 GUEST_VLAN_IP, PEER_IP, PEER_IP6, PEER_MAC,
                                 PEER_VLAN_IP, Peer, wait_until)
from e1000epp.vm.patterns import mac_bytes, pp_mix

PORT = 5003
KINDS = ("ip4hdr", "udp4", "tcp4", "udp6", "tcp6")
CSUM_RUN = 0x6373756D


@pytest.fixture
def peer(peer_bin):
    d = Path(tempfile.mkdtemp(prefix="e1000epp-peer-"))
    p = Peer(peer_bin, d / "net.sock", d)
    nic = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    nic.connect(str(d / "net.sock"))
    wait_until("the peer to see the connection", p.connected, 10)
    yield p, nic
    nic.close()
    p.close()
    shutil.rmtree(d, ignore_errors=True)


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


def csum(data, start=0):
    """RFC 1071: the ones' complement of the ones' complement sum."""
    if len(data) % 2:
        data += b"\0"
    s = start + sum(struct.unpack(f">{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def data_byte(word, off):
    return (pp_mix((CSUM_RUN * 0x9E3779B1) & 0xFFFFFFFF ^ pp_mix(word) ^
                   (off * 0x85EBCA6B) & 0xFFFFFFFF) >> 11) & 0xFF


def ip4(text):
    return socket.inet_pton(socket.AF_INET, text)


def ip6(text):
    return socket.inet_pton(socket.AF_INET6, text)


def judge(f, length, src4=PEER_IP, dst4=GUEST_IP, vid=None):
    """(kind, position, which checksums are wrong) of one frame."""
    assert f[:6] == mac_bytes(GUEST_MAC) and f[6:12] == mac_bytes(PEER_MAC)
    off = 12
    if vid is not None:
        assert struct.unpack(">HH", f[12:16]) == (0x8100, vid)
        off = 16
    etype, = struct.unpack(">H", f[off:off + 2])
    l3 = f[off + 2:]
    wrong = set()
    if etype == 0x0800:
        ip, tot = l3[:20], struct.unpack(">H", l3[2:4])[0]
        assert ip[0] == 0x45 and ip[12:16] == ip4(src4) and \
            ip[16:20] == ip4(dst4)
        if csum(ip):
            wrong.add("ip")
        proto, l4 = ip[9], l3[20:tot]
        pseudo = ip[12:20] + struct.pack(">BBH", 0, proto, len(l4))
    else:
        assert etype == 0x86DD and vid is None
        plen, proto = struct.unpack(">HB", l3[4:7])
        assert l3[0] >> 4 == 6 and l3[8:24] == ip6(PEER_IP6) and \
            l3[24:40] == ip6(GUEST_IP6)
        l4 = l3[40:40 + plen]
        pseudo = l3[8:40] + struct.pack(">IxxxB", len(l4), proto)
    hlen = 20 if proto == 6 else 8
    assert proto in (6, 17)
    assert struct.unpack(">H", l4[2:4])[0] == PORT
    if proto == 17:
        assert struct.unpack(">H", l4[4:6])[0] == len(l4)
        assert struct.unpack(">H", l4[6:8])[0] != 0
    if csum(pseudo + l4):
        wrong.add("l4")
    data = l4[hlen:]
    assert len(data) == length
    word, = struct.unpack(">I", data[:4])
    assert data[4:] == bytes(data_byte(word, j) for j in range(4, length))
    kind = KINDS[word >> 16]
    assert kind in {(0x0800, 17): ("ip4hdr", "udp4"), (0x0800, 6): ("tcp4",),
                    (0x86DD, 17): ("udp6",), (0x86DD, 6): ("tcp6",)}[
                        (etype, proto)]
    return kind, word & 0xFFFF, wrong


def check(frames, bad, length, **kw):
    seen = [judge(f, length, **kw) for f in frames]
    kinds = []
    for kind, pos, wrong in seen:
        if not kinds or kinds[-1][0] != kind:
            kinds.append((kind, []))
        kinds[-1][1].append((pos, wrong))
    for kind, frames_of in kinds:
        want_wrong = {"ip"} if kind == "ip4hdr" else {"l4"}
        assert frames_of == [(p, want_wrong if p % 2 else set())
                             for p in range(2 * bad + 1)], kind
    return [k for k, _ in kinds]


def test_bad_checksums_of_each_kind_between_good_frames(peer):
    p, nic = peer
    ans = p.command(f"CSUMBAD {GUEST_MAC} {GUEST_IP} {GUEST_IP6} {PORT} "
                    "2 64")
    assert ans["kinds"] == {k: [3, 2] for k in KINDS}
    assert (ans["frames"], ans["good"], ans["bad"]) == (25, 15, 10)
    assert check(recv_frames(nic, 25), 2, 64) == list(KINDS)


def test_ipv4_only_on_the_vlan_and_odd_lengths(peer):
    p, nic = peer
    p.command(f"VLAN 100 {PEER_VLAN_IP}")
    ans = p.command(f"CSUMBAD {GUEST_MAC} {GUEST_VLAN_IP} - {PORT} 3 33 "
                    "100")
    assert ans["kinds"] == {k: [4, 3] for k in KINDS[:3]}
    assert check(recv_frames(nic, 21), 3, 33, src4=PEER_VLAN_IP,
                 dst4=GUEST_VLAN_IP, vid=100) == list(KINDS[:3])


@pytest.mark.parametrize("args", ["", "02:00:00:00:00:02 10.0.0.2 - 0 2 64",
                                  "02:00:00:00:00:02 10.0.0.2 - 5003 65 64",
                                  "02:00:00:00:00:02 10.0.0.2 - 5003 2 3",
                                  "02:00:00:00:00:02 10.0.0.2 x 5003 2 64"])
def test_bad_arguments_are_refused(peer, args):
    p, _ = peer
    with pytest.raises(Exception, match="usage: CSUMBAD"):
        p.command(f"CSUMBAD {args}".strip())
