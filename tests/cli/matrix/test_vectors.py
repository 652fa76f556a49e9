# SPDX-License-Identifier: GPL-2.0-or-later
"""Every vector alive (matrix/vectors.py): /proc/interrupts read as the
kernel prints it, and a silent vector failing its cell."""

from e1000epp.matrix import cell_model, vectors
from e1000epp.matrix.guest_io import Checks

# /proc/interrupts of a two-CPU guest (show_interrupts: a CPU header,
# then "irq: count per CPU, chip, hwirq-type, name").
INTERRUPTS = """           CPU0       CPU1
  0:         46          0   IO-APIC   2-edge      timer
 24:        120          7   PCI-MSIX-0000:00:02.0    0-edge      eth0-rx-0
 25:         80          1   PCI-MSIX-0000:00:02.0    1-edge      eth0-tx-0
 26:          3          0   PCI-MSIX-0000:00:02.0    2-edge      eth0
NMI:          0          0   Non-maskable interrupts
"""


def test_proc_interrupts_summed_over_cpus_by_name():
    assert vectors.parse_interrupts(INTERRUPTS) == {
        "eth0-rx-0": 127, "eth0-tx-0": 81, "eth0": 3}


def dev(rx, tx, other, intx=0):
    return {"irq-messages-0": rx, "irq-messages-1": tx,
            "irq-messages-2": other, "intx-asserts": intx}


class EndVm:
    """read() of the cell's end: the given readings in turn (the last
    repeats)."""

    def __init__(self, ends):
        self.ends, self.i = ends, 0

    def read(self):
        end = self.ends[min(self.i, len(self.ends) - 1)]
        self.i += 1
        return end


def judged(cell, start, *ends):
    checks, log, vm = Checks(), [], EndVm(ends)
    real, vectors.read = vectors.read, lambda _vm: vm.read()
    vectors.BOUND, bound = 0.3, vectors.BOUND
    try:
        vectors.judge(vm, checks, cell, start, log.append)
    finally:
        vectors.read, vectors.BOUND = real, bound
    return checks.failures(), log


def test_rx_and_tx_vectors_must_fire_in_every_msix_cell():
    cell = cell_model.Cell(1500)
    g0 = {"eth0-rx-0": 10, "eth0-tx-0": 5, "eth0": 1}
    g1 = {"eth0-rx-0": 30, "eth0-tx-0": 9, "eth0": 1}
    fails, log = judged(cell, (g0, dev(10, 5, 1)), (g1, dev(30, 9, 1)))
    assert fails == []
    assert "vector eth0-tx-0: guest 4, device 4" in log


def test_a_silent_other_vector_fails_a_link_cell():
    cell = cell_model.Cell(1500, family="linkdrop")
    g0 = {"eth0-rx-0": 10, "eth0-tx-0": 5, "eth0": 1}
    g1 = {"eth0-rx-0": 30, "eth0-tx-0": 9, "eth0": 1}
    fails, _ = judged(cell, (g0, dev(10, 5, 1)), (g1, dev(30, 9, 1)))
    assert fails == ["every vector the cell has a cause for fired (guest "
                     "/proc/interrupts and the device's messages): eth0 "
                     "False (want True)"]


def test_msi_and_intx_have_one_vector_each():
    g0, g1 = {"eth0": 5}, {"eth0": 9}
    fails, _ = judged(cell_model.Cell(1500, irq="msi"),
                      (g0, dev(5, 0, 0)), (g1, dev(9, 0, 0)))
    assert fails == []
    fails, _ = judged(cell_model.Cell(1500, irq="intx"),
                      (g0, dev(0, 0, 0, intx=3)), (g1, dev(0, 0, 0, intx=3)))
    assert fails and "eth0 False" in fails[0]


def test_unreadable_interrupts_fail_the_cell():
    fails, _ = judged(cell_model.Cell(1500), (None, None), ({}, None))
    assert fails == ["the guest's interrupts read (/proc/interrupts): "
                     "unreadable: the vectors cannot be judged"]
    fails, _ = judged(cell_model.Cell(1500), ({}, None), (None, None))
    assert fails == ["the guest's interrupts read (/proc/interrupts): "
                     "unreadable: the vectors cannot be judged"]


def test_read_takes_proc_interrupts_through_the_agent():
    class Vm:
        NIC_ID = "nic0"

        def __init__(self):
            self.agent, self.qmp = self, self

        def read_files(self, paths, timeout=60):
            assert paths == ["/proc/interrupts"]
            return {paths[0]: INTERRUPTS}

        def execute(self, cmd, **kw):
            return {"irq-messages-0": 4}.get(kw["property"], 0)
    guest, dev = vectors.read(Vm())
    assert guest["eth0-tx-0"] == 81
    assert dev == {"irq-messages-0": 4, "irq-messages-1": 0,
                   "irq-messages-2": 0, "intx-asserts": 0}


def test_an_interrupt_the_device_never_sent_fails_a_plain_cell():
    cell = cell_model.Cell(1500)
    g0 = {"eth0-rx-0": 10, "eth0-tx-0": 5, "eth0": 1}
    g1 = {"eth0-rx-0": 32, "eth0-tx-0": 9, "eth0": 1}
    fails, _ = judged(cell, (g0, dev(10, 5, 1)), (g1, dev(31, 9, 1)))
    assert fails == ["interrupts the guest took <= messages the device "
                     "sent, per vector (none from elsewhere): eth0-rx-0: "
                     "guest 22, device 21, eth0-tx-0: guest 4, device 4"]


def test_two_messages_folded_into_one_interrupt_pass():
    # InterruptThrottleRate=0: the second message came while the
    # vector's handler ran, and Linux counted one.
    cell = cell_model.Cell(1500)
    g0 = {"eth0-rx-0": 10, "eth0-tx-0": 5}
    fails, _ = judged(cell, (g0, dev(10, 5, 0)),
                      ({"eth0-rx-0": 78, "eth0-tx-0": 9}, dev(79, 9, 0)))
    assert fails == []


def test_an_interrupt_between_the_two_reads_passes():
    # read() takes the guest's count first: one sent in between is in
    # the device's count only.
    cell = cell_model.Cell(1500)
    g0 = {"eth0-rx-0": 10, "eth0-tx-0": 5}
    late = ({"eth0-rx-0": 30, "eth0-tx-0": 9}, dev(31, 9, 0))
    fails, log = judged(cell, (g0, dev(10, 5, 0)), late)
    assert fails == []
    assert "vector eth0-rx-0: guest 20, device 21" in log


def test_an_irq_requested_again_counts_from_then():
    # The harness's down and up in a Tx-hang cell freed and requested
    # the MSI vector again: its count restarted.
    cell = cell_model.Cell(1500, irq="msi", family="txhang")
    fails, log = judged(cell, ({"eth0": 120}, dev(120, 0, 0)),
                        ({"eth0": 81}, dev(217, 0, 0)))
    assert fails == []
    assert "vector eth0: guest 81, device 97" in log


class RacingVm:
    """Rx vector counts of both sides (10 each); an interrupt lands right
    after the first of the two reads (the device sends it, the guest
    takes it: both +1)."""
    NIC_ID = "nic0"

    def __init__(self):
        self.agent, self.qmp = self, self
        self.guest = self.dev = 10
        self.order = []

    def _after_read(self, side):
        if not self.order:
            self.guest += 1
            self.dev += 1
        self.order.append(side)

    def read_files(self, paths, timeout=60):
        text = f"           CPU0\n 24:   {self.guest}  PCI-MSIX eth0-rx-0\n"
        self._after_read("guest")
        return {paths[0]: text}

    def execute(self, cmd, **kw):
        if kw["property"] != "irq-messages-0":
            return 0
        value = self.dev
        self._after_read("device")
        return value


def test_an_interrupt_between_the_reads_never_counts_for_the_guest_only():
    """Seen in mtu1500-keep-msix-iommu (guest 57, device 56): the start
    read took the guest first, so an interrupt between the two reads
    counted in the guest's delta and not the device's. The start now
    reads the device first (the interrupt is in the guest's start count,
    not the device's), the end the guest first (the other way round)."""
    start = RacingVm()
    g0, d0 = vectors.read_start(start)
    assert (start.order[0], g0["eth0-rx-0"], d0["irq-messages-0"]) == \
        ("device", 11, 10)
    end = RacingVm()
    g1, d1 = vectors.read(end)
    assert (end.order[0], g1["eth0-rx-0"], d1["irq-messages-0"]) == \
        ("guest", 10, 11)
