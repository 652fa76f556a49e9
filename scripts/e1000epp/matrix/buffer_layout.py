# SPDX-License-Identifier: GPL-2.0-or-later
"""The receive buffer layout the driver programmed, and the frame lengths
that place the FCS across two buffers (each of the three splits) or
alone in the last one, and those at each edge of a length class.

Read from the device after each MTU or feature change (read_registers):
RCTL, PSRCTL and RFCTL through the emulator's monitor (`xp`, a read of
the NIC's BAR 0 as the CPU would do it: these three registers have no
read side effect). The lengths follow the 82574L datasheet's buffer
rules, not the model's code:

  RCTL (10.2.5.1)  DTYP 11:10 (00 legacy, 01 packet split), LPE 5,
                   SECRC 26, BSIZE 17:16 with BSEX 25: 2048, 1024, 512,
                   256 bytes; with BSEX 16384, 8192, 4096 (00 reserved);
                   FLXBUF 30:27, when not 0, the buffer size in KB
  RFCTL (10.2.5.10) EXTEN 15: extended descriptors (the same one buffer)
  PSRCTL (10.2.5.3) BSIZE0 6:0 in 128-byte units, BSIZE1 13:8, BSIZE2
                   21:16, BSIZE3 29:24 in KB

A frame fills its buffers in order, the FCS counted like any other byte
(7.1.1: stored when SECRC is 0). Legacy and extended: one buffer per
descriptor. Packet split (7.1.5): a frame whose header is not split (a
pattern frame is not IP) fills buffer 0 and then buffers 1-3 of its
first descriptor; a frame longer than that goes on in the next
descriptor's buffers 1-3 (buffer 0 of a continuation stays empty).
"""

import re

RCTL, PSRCTL, RFCTL = 0x0100, 0x2170, 0x5008
FCS = 4
MIN_FRAME = 60

_BSIZE = {(0, 0): 2048, (0, 1): 1024, (0, 2): 512, (0, 3): 256,
          (1, 1): 16384, (1, 2): 8192, (1, 3): 4096}


class LayoutError(Exception):
    """The registers could not be read or decode to no valid layout."""


def bar0(info_pci, qdev_id):
    """BAR 0's address of the device with this id in HMP `info pci`."""
    block = None
    for part in re.split(r"\n(?=\s*Bus\s+\d+,)", info_pci):
        if re.search(rf'id "{re.escape(qdev_id)}"', part):
            block = part
    m = block and re.search(r"BAR0: 32 bit memory at (0x[0-9a-f]+)", block)
    if not m:
        raise LayoutError(f"no BAR0 of {qdev_id} in info pci")
    return int(m.group(1), 16)


def read_registers(hmp, qdev_id):
    """{RCTL, PSRCTL, RFCTL} read from the NIC; hmp(command) -> text."""
    base = bar0(hmp("info pci"), qdev_id)
    out = {}
    for name, off in (("RCTL", RCTL), ("PSRCTL", PSRCTL), ("RFCTL", RFCTL)):
        text = hmp(f"xp /1wx {base + off:#x}")
        m = re.search(r":\s*(0x[0-9a-fA-F]+)", text)
        if not m:
            raise LayoutError(f"xp of {name} answered {text.strip()!r}")
        out[name] = int(m.group(1), 16)
    return out


def decode(regs):
    """The layout: descriptor type, SECRC, LPE and the buffer sizes of a
    frame's first descriptor and of a continuation descriptor."""
    rctl, psrctl = regs["RCTL"], regs["PSRCTL"]
    dtyp = (rctl >> 10) & 3
    bsex, bsize = (rctl >> 25) & 1, (rctl >> 16) & 3
    flxbuf = (rctl >> 27) & 0xf
    out = {"registers": {k: f"{v:#010x}" for k, v in regs.items()},
           "secrc": bool(rctl & (1 << 26)), "lpe": bool(rctl & (1 << 5)),
           "extended": bool(regs["RFCTL"] & (1 << 15))}
    if dtyp == 1:
        sizes = [(psrctl & 0x7f) * 128, ((psrctl >> 8) & 0x3f) * 1024,
                 ((psrctl >> 16) & 0x3f) * 1024,
                 ((psrctl >> 24) & 0x3f) * 1024]
        if not any(sizes[1:]):
            raise LayoutError(f"packet split with BSIZE1-3 0 "
                              f"(PSRCTL {psrctl:#x})")
        out.update(format="packet-split", first=sizes,
                   next=[0] + sizes[1:])
    elif dtyp == 0:
        size = flxbuf * 1024 if flxbuf else _BSIZE.get((bsex, bsize))
        if not size:
            raise LayoutError(f"reserved RCTL.BSIZE with BSEX "
                              f"(RCTL {rctl:#x})")
        out.update(format="extended" if out["extended"] else "legacy",
                   first=[size], next=[size])
    else:
        raise LayoutError(f"reserved RCTL.DTYP {dtyp} (RCTL {rctl:#x})")
    return out


def boundaries(layout, upto):
    """Offsets in a frame (FCS included) where one buffer ends and the
    next begins, below upto."""
    out, at, sizes = [], 0, layout["first"]
    while True:
        for b in sizes:
            if not b:
                continue
            at += b
            if at >= upto:
                return out
            out.append(at)
        sizes = layout["next"]


def placement(layout, length):
    """Where a frame of length bytes (without FCS) puts its FCS:
    "straddle" (the last buffer starts inside the FCS), "alone" (the
    last buffer holds the FCS and nothing else) or None."""
    if layout["secrc"]:
        return None
    for b in boundaries(layout, length + FCS):
        if length < b < length + FCS:
            return "straddle"
        if b == length:
            return "alone"
    return None


def descriptors(layout, length):
    """Descriptors a frame of length bytes (without FCS) fills: buffers
    in order, the first descriptor's then each continuation's."""
    left = length + (0 if layout["secrc"] else FCS)
    n, sizes = 0, layout["first"]
    while left > 0 and sum(sizes):
        left -= sum(sizes)
        n += 1
        sizes = layout["next"]
    return n


def fcs_lengths(layout, top):
    """Frame lengths (without FCS, MIN_FRAME..top) for every buffer
    boundary B a frame reaches: B - 3, B - 2 and B - 1 (three, two and
    one FCS bytes before B: the three ways the 4-byte FCS straddles two
    buffers) and B (the FCS alone after it); none when the FCS is
    stripped."""
    if layout["secrc"]:
        return []
    out = set()
    for b in boundaries(layout, top + FCS):
        for n in range(b - FCS + 1, b + 1):
            if MIN_FRAME <= n <= top:
                out.add(n)
    return sorted(out)


def class_lengths(layout, top):
    """{length: why} for the length classes of the layout up to top: at
    every buffer boundary B a frame reaches, the longest frame that still
    ends before B and the shortest whose data goes past it (with the FCS
    kept, "ends" counts the FCS: B - 4 fills the buffer with its FCS),
    and with the FCS kept the placements of fcs_lengths."""
    fcs = 0 if layout["secrc"] else FCS
    out = {}
    for b in boundaries(layout, top + fcs):
        out[b - fcs] = f"fills the buffer ending at {b}" + \
            (" with its FCS" if fcs else "")
        out[b + 1] = f"first data byte past the boundary at {b}"
        if fcs:
            for n in range(b - 3, b):
                out[n] = f"FCS {b - n}|{FCS - (b - n)} across {b}"
            out[b] = f"FCS alone after {b}"
    return {n: why for n, why in out.items() if MIN_FRAME <= n <= top}
