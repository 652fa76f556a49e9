# SPDX-License-Identifier: GPL-2.0-or-later
"""Pattern frames in Python, written independently of tools/wire/proto.h
(the C both the peer and the agent use), so a test that compares the
wire with these bytes does not trust the code under test; and a reader
of the classic pcap files the peer writes."""

import struct
from pathlib import Path

from .waits import HarnessError

PP_ETHERTYPE = 0x88B5
PP_MAGIC = 0x50504531
M32 = 0xFFFFFFFF


def pp_mix(x):
    x &= M32
    x ^= x >> 16
    x = (x * 0x7FEB352D) & M32
    x ^= x >> 15
    x = (x * 0x846CA68B) & M32
    x ^= x >> 16
    return x


def pp_frame_len(seq, lo, hi):
    r = seq % 4
    if r == 0:
        return lo
    if r == 1:
        return hi
    return lo + pp_mix(seq ^ 0x5BD1E995) % (hi - lo + 1)


def pp_fnv1a(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & M32
    return h


def mac_bytes(mac):
    return bytes(int(b, 16) for b in mac.split(":"))


def pp_frame(dst, src, run, seq, length):
    """The exact bytes of pattern frame seq (see tools/wire/proto.h)."""
    mseq = pp_mix(seq)
    base = (run * 0x9E3779B1) & M32
    payload = bytes((pp_mix(base ^ mseq ^ ((off * 0x85EBCA6B) & M32)) >> 11)
                    & 0xFF for off in range(length - 34))
    return (mac_bytes(dst) + mac_bytes(src) +
            struct.pack(">HIIIHHI", PP_ETHERTYPE, PP_MAGIC, run, seq, length,
                        0, pp_fnv1a(payload)) + payload)


def read_pcap(path):
    """[(ts, frame bytes)] from a classic little-endian pcap file."""
    data = Path(path).read_bytes()
    magic, = struct.unpack_from("<I", data, 0)
    if magic != 0xA1B2C3D4:
        raise HarnessError(f"{path}: not a little-endian classic pcap")
    off, out = 24, []
    while off + 16 <= len(data):
        sec, usec, incl, _orig = struct.unpack_from("<IIII", data, off)
        out.append((sec + usec / 1e6, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out
