#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the fuzzer's seed corpus: realistic driver sequences in the input
encoding of fuzz-input.c (its header comment).  Register offsets and bits
are the 82574L datasheet's (§10.2), written out here.

    tests/fuzz/make-seeds.py tests/fuzz/corpus
"""

import os
import struct
import sys

# -- registers (datasheet §10.2) ---------------------------------------------
CTRL, STATUS, EERD, CTRL_EXT, MDIC = 0x0000, 0x0008, 0x0014, 0x0018, 0x0020
ICR, ITR, ICS, IMS, IMC, IAM, IVAR = 0xc0, 0xc4, 0xc8, 0xd0, 0xd8, 0xe0, 0xe4
EIAC = 0xdc
RCTL, TCTL, TIPG = 0x0100, 0x0400, 0x0410
PSRCTL = 0x2170
RDBAL, RDBAH, RDLEN, RDH, RDT, RDTR, RXDCTL, RADV = (
    0x2800, 0x2804, 0x2808, 0x2810, 0x2818, 0x2820, 0x2828, 0x282c)
TDBAL, TDBAH, TDLEN, TDH, TDT, TIDV, TXDCTL, TADV = (
    0x3800, 0x3804, 0x3808, 0x3810, 0x3818, 0x3820, 0x3828, 0x382c)
RXCSUM, RFCTL, MTA, RAL0, RAH0, MRQC = (
    0x5000, 0x5008, 0x5200, 0x5400, 0x5404, 0x5818)
GPRC, GPTC, MPC = 0x4074, 0x4080, 0x4010

CTRL_SLU, CTRL_RST = 1 << 6, 1 << 26
RCTL_EN, RCTL_UPE, RCTL_MPE, RCTL_LPE, RCTL_BAM = 1 << 1, 1 << 3, 1 << 4, \
    1 << 5, 1 << 15
RCTL_LBM_MAC = 1 << 6
RCTL_DTYP_PS = 1 << 10
RCTL_BSEX, RCTL_SECRC = 1 << 25, 1 << 26
TCTL_EN, TCTL_PSP = 1 << 1, 1 << 3
RFCTL_EXSTEN = 1 << 15

MAC = bytes([0x52, 0x54, 0x00, 0x12, 0x34, 0x56])

# -- guest memory layout the seeds use ---------------------------------------
RX_RING, TX_RING, BUFS = 0x0000, 0x0800, 0x1000
RING_BYTES = 64 * 16


class Seq:
    """Ops in fuzz-input.c's encoding."""

    def __init__(self):
        self.b = bytearray()

    def wr(self, off, val):
        self.b += bytes([0, 0xff]) + struct.pack("<HI", off // 4,
                                                 val & 0xffffffff)

    def rd(self, off):
        self.b += bytes([1, 0xff]) + struct.pack("<H", off // 4)

    def mem(self, addr, data):
        for i in range(0, len(data), 255):
            part = data[i:i + 255]
            self.b += bytes([3]) + struct.pack("<IB", addr + i, len(part)) \
                + part

    def frame(self, length, dst=0, fill=0, head=None):
        if head is not None:
            dst |= 0x10
        self.b += bytes([4]) + struct.pack("<HBB", length, dst, fill)
        if head is not None:
            head = head[:min(length, 255)]
            self.b += bytes([len(head)]) + head

    def time(self, ns):
        shift = 0
        while ns >> shift > 0xffff:
            shift += 1
        self.b += bytes([5]) + struct.pack("<HB", ns >> shift, shift)

    def bme(self, on):
        self.b += bytes([6, on])

    def power(self, state):
        self.b += bytes([7, state])

    def link(self, up):
        self.b += bytes([8, up])

    def irq(self, mode):
        self.b += bytes([9, mode])

    def tail(self, tx, val):
        self.b += bytes([12, tx]) + struct.pack("<H", val)

    def burst(self, n, length, dst=0):
        self.b += bytes([13, n]) + struct.pack("<HB", length, dst)


def rx_desc(addr):
    return struct.pack("<QQ", addr, 0)


def tx_data(addr, length, cmd, popts=0):
    # §7.2.10.3: DTYP 0001 (data), DCMD.DEXT set by the caller's cmd
    return struct.pack("<QIBBH", addr, (length & 0xfffff) | 1 << 20,
                       cmd, 0, popts << 8)


def tx_legacy(addr, length, cmd):
    return struct.pack("<QHBBBBH", addr, length, 0, cmd, 0, 0, 0)


def tx_context(ipcss, ipcso, ipcse, tucss, tucso, tucse, paylen, tucmd,
               hdrlen, mss):
    # §7.2.10.2: PAYLEN (19:0), DTYP 0000, TUCMD in bits 31:24
    return struct.pack("<BBHBBHIBBH", ipcss, ipcso, ipcse, tucss, tucso,
                       tucse, (paylen & 0xfffff) | tucmd << 24, 0, hdrlen,
                       mss)


def ipv4_tcp(payload_len):
    eth = MAC + bytes([2, 0, 0, 0, 0, 1]) + b"\x08\x00"
    total = 20 + 20 + payload_len
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, total, 1, 0x4000, 64, 6, 0,
                     bytes([10, 0, 0, 2]), bytes([10, 0, 0, 1]))
    tcp = struct.pack(">HHIIBBHHH", 1234, 80, 1, 0, 0x50, 0x18, 65535, 0, 0)
    return eth + ip + tcp


def bring_up(s, rctl=RCTL_EN | RCTL_BAM | RCTL_SECRC, bufsize=2048,
             posted=32, ps=False):
    """Linux e1000e's order: reset, link, addresses, rings, enable."""
    s.bme(1)
    s.wr(IMC, 0xffffffff)
    s.wr(CTRL, CTRL_RST)
    s.time(10_000_000)
    s.wr(IMC, 0xffffffff)
    s.rd(ICR)
    s.wr(CTRL, CTRL_SLU)
    s.link(1)
    s.time(600_000_000)
    s.rd(STATUS)
    s.wr(RAL0, int.from_bytes(MAC[:4], "little"))
    s.wr(RAH0, int.from_bytes(MAC[4:], "little") | 1 << 31)
    s.wr(MTA, 0)
    s.wr(RDBAL, RX_RING)
    s.wr(RDBAH, 0)
    s.wr(RDLEN, RING_BYTES)
    s.wr(RDH, 0)
    s.wr(RDT, 0)
    s.wr(TDBAL, TX_RING)
    s.wr(TDBAH, 0)
    s.wr(TDLEN, RING_BYTES)
    s.wr(TDH, 0)
    s.wr(TDT, 0)
    s.wr(TIPG, 0x00602008)
    s.wr(RDTR, 0)
    s.wr(RADV, 8)
    s.wr(TIDV, 8)
    s.wr(TADV, 32)
    s.wr(ITR, 0)
    s.wr(RXCSUM, 0x300)
    if ps:
        # §7.1.5: 128-byte header buffer, 4 KB, 4 KB, 0 KB
        s.wr(PSRCTL, 1 | 4 << 8 | 4 << 16)
        s.wr(RFCTL, RFCTL_EXSTEN)
        for i in range(posted):
            base = BUFS + i * 8192
            s.mem(RX_RING + 32 * i, struct.pack(
                "<QQQQ", base, base + 0x100, base + 0x1100, 0))
        s.wr(RCTL, rctl | RCTL_DTYP_PS)
        s.wr(RDT, posted * 2)
    else:
        for i in range(posted):
            s.mem(RX_RING + 16 * i, rx_desc(BUFS + i * bufsize))
        s.wr(RCTL, rctl)
        s.wr(RDT, posted)
    s.wr(TCTL, TCTL_EN | TCTL_PSP | 0x0f << 4 | 0x3f << 12)
    s.wr(IMS, 0x1f6dc)
    return s


def service(s, tx_sent=0):
    """The interrupt handler: read ICR, count, re-post."""
    s.rd(ICR)
    s.rd(GPRC)
    s.rd(MPC)
    if tx_sent:
        s.rd(GPTC)


def seed_bringup():
    return bring_up(Seq())


def seed_rx_mtu(mtu, bufsize, rctl_extra=0):
    s = bring_up(Seq(), RCTL_EN | RCTL_BAM | RCTL_SECRC | rctl_extra,
                 bufsize=bufsize, posted=min(32, 0x3c000 // bufsize))
    for length in (60, 64, 590, mtu + 14, mtu + 18):
        s.frame(length, head=ipv4_tcp(max(0, length - 54)))
        s.time(10_000)
    service(s)
    s.burst(8, mtu + 14)
    s.time(1_000_000)
    service(s)
    s.tail(0, 0)
    s.frame(60, dst=1)
    return s


def seed_tx():
    s = bring_up(Seq())
    pkt = ipv4_tcp(64)
    s.mem(0x30000, pkt)
    s.mem(TX_RING, tx_legacy(0x30000, len(pkt), 0x01 | 0x02 | 0x08))
    # context: IP + TCP checksum offload, then a data descriptor using it
    s.mem(TX_RING + 16, tx_context(14, 24, 33, 34, 50, 0, 0,
                                   0x20 | 0x02 | 0x01, 0, 0))
    s.mem(TX_RING + 32, tx_data(0x30000, len(pkt), 0x20 | 0x01 | 0x02 | 0x08,
                                popts=3))
    s.tail(1, 3)
    s.time(100_000)
    service(s, tx_sent=1)
    return s


def seed_tso():
    s = bring_up(Seq())
    hdr = ipv4_tcp(0)
    s.mem(0x30000, hdr)
    s.mem(0x30000 + len(hdr), bytes(range(256)) * 32)
    paylen = 8192
    s.mem(TX_RING, tx_context(14, 24, 33, 34, 50, 0, paylen,
                              0x20 | 0x04 | 0x02 | 0x01, len(hdr), 1448))
    s.mem(TX_RING + 16, tx_data(0x30000, len(hdr), 0x20 | 0x04 | 0x02))
    s.mem(TX_RING + 32, tx_data(0x30000 + len(hdr), paylen,
                                0x20 | 0x04 | 0x01 | 0x02 | 0x08, popts=3))
    s.tail(1, 3)
    s.time(1_000_000)
    service(s, tx_sent=1)
    return s


def seed_loopback():
    s = bring_up(Seq(), RCTL_EN | RCTL_BAM | RCTL_UPE | RCTL_LBM_MAC)
    pkt = ipv4_tcp(100)
    s.mem(0x30000, pkt)
    for i in range(8):
        s.mem(TX_RING + 16 * i, tx_legacy(0x30000, len(pkt), 0x0b))
    s.tail(1, 8)
    s.time(1_000_000)
    service(s, tx_sent=1)
    return s


def seed_split():
    s = bring_up(Seq(), RCTL_EN | RCTL_BAM | RCTL_SECRC | RCTL_LPE, ps=True,
                 posted=16)
    for length in (60, 1514, 9014):
        s.frame(length, head=ipv4_tcp(max(0, length - 54)))
    s.time(1_000_000)
    service(s)
    return s


def seed_reset():
    s = bring_up(Seq())
    s.burst(4, 1514)
    s.wr(CTRL, CTRL_RST)
    s.frame(1514)
    s.time(10_000_000)
    bring_up(s)
    s.burst(4, 1514)
    service(s)
    return s


def seed_suspend():
    s = bring_up(Seq())
    s.burst(2, 1514)
    s.wr(IMC, 0xffffffff)
    s.power(3)
    s.frame(1514)
    s.rd(STATUS)
    s.wr(RDT, 5)
    s.time(1_000_000)
    s.power(0)
    s.bme(1)
    bring_up(s)
    s.frame(1514)
    service(s)
    return s


def seed_msix():
    s = Seq()
    s.irq(2)
    bring_up(s)
    s.wr(IVAR, 0x80000000 | 0x800 << 8 | 0x9 << 4 | 0x8)
    s.wr(CTRL_EXT, 1 << 24 | 1 << 27)
    s.wr(EIAC, 0x01f00000)
    s.wr(IAM, 0x01f00000)
    s.wr(IMS, 0x01f00000)
    s.burst(4, 1514)
    s.time(1_000_000)
    service(s)
    s.wr(ICS, 1 << 2)
    return s


def seed_nvm_phy():
    s = bring_up(Seq())
    for w in range(4):
        s.wr(EERD, w << 2 | 1)
        s.rd(EERD)
    s.wr(MDIC, 1 << 27 | 1 << 21 | 1 << 16)  # read PHY reg 1 (BMSR)
    s.rd(MDIC)
    s.link(0)
    s.time(1_000_000)
    s.link(1)
    s.time(3_000_000_000)
    return s


def seed_bar0_dma():
    # A descriptor whose buffer is the device's own BAR0 (kind 1).
    s = bring_up(Seq())
    s.b += bytes([2, 0, 0, 1]) + struct.pack("<I", 0xc0) + bytes(8)
    s.b += bytes([2, 1, 0, 1]) + struct.pack("<I", 0x3818) + \
        struct.pack("<IBBH", 64, 0, 0x0b, 0)
    s.tail(1, 1)
    s.frame(1514)
    return s


SEEDS = {
    "bringup": seed_bringup,
    "rx-mtu1500": lambda: seed_rx_mtu(1500, 2048),
    "rx-mtu9000-16k": lambda: seed_rx_mtu(9000, 16384,
                                          RCTL_LPE | RCTL_BSEX | 1 << 16),
    "rx-mtu9000-chained": lambda: seed_rx_mtu(9000, 2048, RCTL_LPE),
    "rx-mtu576-256": lambda: seed_rx_mtu(576, 256, 3 << 16),
    "tx-csum": seed_tx,
    "tx-tso": seed_tso,
    "loopback": seed_loopback,
    "rx-split": seed_split,
    "reset": seed_reset,
    "suspend": seed_suspend,
    "msix": seed_msix,
    "nvm-phy": seed_nvm_phy,
    "bar0-dma": seed_bar0_dma,
}


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: make-seeds.py DIR")
    os.makedirs(argv[1], exist_ok=True)
    for name, make in SEEDS.items():
        with open(os.path.join(argv[1], "seed-" + name), "wb") as f:
            f.write(bytes(make().b))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
