#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seeds of `fuzz --whole-device`: the core fuzzer's driver
sequences (tests/fuzz/make-seeds.py: Linux e1000e's bring-up order, Rx
at several buffer sizes, packet split, checksum offload and TSO
transmit, MAC loopback, reset, D3hot, MSI-X, NVM and PHY) re-encoded
as input of QEMU's generic-fuzz target.

    tests/fuzz/whole-device/make-seeds.py tests/fuzz/whole-device/seeds

generic-fuzz reads an input as commands separated by "FUZZ", each an
opcode byte (modulo its table: 2 MMIO read, 3 MMIO write, 5 PCI config
write, 7 add a DMA pattern, 9 step the virtual clock to the next timer)
and the C struct of that command, in host (x86-64) layout.  Register
accesses go to the first region of the device in address order, BAR0
(libqos maps the BARs in order from the bottom of the PCI hole).  What
the core fuzzer writes into guest memory becomes a DMA pattern: the
device's next reads of guest memory (descriptors, then buffers) are
filled from the patterns in turn.  Frames from the wire have no
generic-fuzz command; the Rx path is reached through MAC loopback.
"""

import importlib.util
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEP = b"FUZZ"
OP_READ, OP_WRITE, OP_PCI_WRITE, OP_DMA_PATTERN, OP_CLOCK_STEP = 2, 3, 5, \
    7, 9
SIZE_WORD, SIZE_LONG = 1, 2
BAR0 = 0                # region index: the device's first in address order
PCI_COMMAND = 0x04
CMD_IO_MEM_MASTER = 0x0007
CMD_IO_MEM = 0x0003
PMCSR = 0xc8 + 4        # the adapter's PM capability (CAP_PM) + 4
# Seeds whose point is a path generic-fuzz cannot take as written: a
# descriptor naming BAR0 by the core harness's own address for it.
SKIPPED = {"bar0-dma"}


def _core_seeds():
    spec = importlib.util.spec_from_file_location(
        "core_seeds", os.path.join(HERE, "..", "make-seeds.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class GenericFuzzSeq:
    """The core seeds' operations, as generic-fuzz commands."""

    RDT, TDT = 0x2818, 0x3818

    def __init__(self):
        self.b = bytearray()

    def _cmd(self, op, body=b""):
        assert SEP not in body, "a command may not hold the separator"
        self.b += bytes([op]) + body + SEP

    def wr(self, off, val):
        # struct { uint8_t size, base; uint32_t offset; uint64_t value; }
        self._cmd(OP_WRITE, struct.pack("<BBxxIQ", SIZE_LONG, BAR0, off,
                                        val & 0xffffffff))

    def rd(self, off):
        self._cmd(OP_READ, struct.pack("<BBxxI", SIZE_LONG, BAR0, off))

    def mem(self, addr, data):
        # struct { uint8_t index, stride; } then the pattern's bytes
        if SEP not in data:
            self._cmd(OP_DMA_PATTERN, struct.pack("<BB", 0, 0) + data)

    def time(self, ns):
        self._cmd(OP_CLOCK_STEP)

    def bme(self, on):
        # struct { uint8_t size, base, offset; uint32_t value; }
        self._cmd(OP_PCI_WRITE, struct.pack(
            "<BBBxI", SIZE_WORD, 0, PCI_COMMAND,
            CMD_IO_MEM_MASTER if on else CMD_IO_MEM))

    def power(self, state):
        self._cmd(OP_PCI_WRITE, struct.pack("<BBBxI", SIZE_WORD, 0, PMCSR,
                                            state & 3))

    def tail(self, tx, val):
        self.wr(self.TDT if tx else self.RDT, val)

    # No generic-fuzz command: frames from the wire, the link, the
    # interrupt mode (the machine's), bursts.
    def frame(self, *args, **kwargs):
        pass

    def burst(self, *args):
        pass

    def link(self, up):
        pass

    def irq(self, mode):
        pass


def seeds():
    core = _core_seeds()
    core.Seq = GenericFuzzSeq
    return {name: bytes(make().b) for name, make in core.SEEDS.items()
            if name not in SKIPPED}


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: make-seeds.py DIR")
    os.makedirs(argv[1], exist_ok=True)
    for name, data in seeds().items():
        with open(os.path.join(argv[1], "seed-" + name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
