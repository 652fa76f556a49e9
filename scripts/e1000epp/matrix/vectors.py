# SPDX-License-Identifier: GPL-2.0-or-later
"""Every interrupt vector alive: each one the cell's traffic has a cause
for must fire, seen from both sides (the device's messages per vector,
qom-get irq-messages-<n> and intx-asserts; the guest's /proc/interrupts
per IRQ name).

A driver that never re-enables one MSI-X cause still sees its link
through the watchdog's 2 s poll and its frames through another
vector's NAPI poll; only the vector's own count shows it silent.

e1000e names its MSI-X vectors in the order it asks for them
(e1000_request_msix): entry 0 "<if>-rx-0" (the Rx queue), entry 1
"<if>-tx-0" (the Tx queue), entry 2 "<if>" (other causes: link);
IVAR routes the causes to those entries (e1000_configure_msix).
"""

import time

from e1000epp.vm import harness

INTERRUPTS = "/proc/interrupts"
MSIX_NAMES = ("eth0-rx-0", "eth0-tx-0", "eth0")
DEVICE = tuple(f"irq-messages-{n}" for n in range(3)) + ("intx-asserts",)
# Families whose event is a link change: the "other" vector's cause
# (ICR.LSC) must reach the driver through it.
LINK_FAMILIES = ("linkdrop", "rpm")


def parse_interrupts(text, ifname="eth0"):
    """{IRQ name: interrupts on every CPU} of the lines naming ifname."""
    lines = text.splitlines()
    if not lines:
        return {}
    ncpu = len(lines[0].split())
    out = {}
    for ln in lines[1:]:
        fields = ln.split()
        if len(fields) < ncpu + 2 or not fields[-1].startswith(ifname):
            continue
        counts = fields[1:1 + ncpu]
        if all(c.isdigit() for c in counts):
            out[fields[-1]] = out.get(fields[-1], 0) + \
                sum(int(c) for c in counts)
    return out


def _read_guest(vm):
    text = vm.agent.read_files([INTERRUPTS])[INTERRUPTS]
    return parse_interrupts(text) if text is not None else None


def _read_device(vm):
    dev = {}
    for name in DEVICE:
        try:
            dev[name] = vm.qmp.execute(
                "qom-get", path=f"/machine/peripheral/{vm.NIC_ID}",
                property=name)
        except harness.HarnessError:
            return None
    return dev


def read(vm):
    """(guest {name: count}, device {counter: value} or None) at a
    cell's end: the guest first, so that an interrupt between the two
    reads is in the device's count only (a guest never counts one the
    device has not sent)."""
    guest = _read_guest(vm)
    return guest, _read_device(vm)


def read_start(vm):
    """read() at a cell's start, the device first for the same reason:
    an interrupt between the two reads then counts in the device's delta
    over the cell and not in the guest's."""
    dev = _read_device(vm)
    return _read_guest(vm), dev


def required(cell):
    """The vectors (by guest IRQ name) the cell must see fire, each with
    its device counter: Rx and Tx in every cell (traffic both ways), the
    other vector where the family changes the link."""
    if cell.irq == "msix":
        want = [(MSIX_NAMES[0], DEVICE[0]), (MSIX_NAMES[1], DEVICE[1])]
        fam = cell.family
        if fam and fam.name in LINK_FAMILIES:
            want.append((MSIX_NAMES[2], DEVICE[2]))
        return want
    if cell.irq == "msi":
        return [("eth0", DEVICE[0])]
    return [("eth0", DEVICE[3])]


# Seconds to wait for the two sides to agree: an interrupt between the
# guest's read and the device's (the driver's watchdog raises one every
# 2 s) is in one count and not yet in the other.
BOUND = 3.0
INTERVAL = 0.1


def deltas(cell, start, end):
    """{guest IRQ name: (guest's interrupts, device's messages)} of each
    required vector over the cell. A vector whose guest count went down
    was requested again inside the cell (an interface down and up frees
    and requests the IRQs): its count is the one since then."""
    (g0, d0), (g1, d1) = start, end
    out = {}
    for name, counter in required(cell):
        guest = None
        if name in g1:
            guest = g1[name] - g0.get(name, 0)
            if guest < 0:
                guest = g1[name]
        dev = d1[counter] - d0[counter] if d0 and d1 else None
        out[name] = (guest, dev)
    return out


def agree(seen):
    """The guest took no interrupt the device did not send. It may take
    fewer: a message that comes while the vector's handler still runs
    is folded into that run (handle_edge_irq counts the IRQ once), as is
    one that finds the vector already pending in the local APIC."""
    return all(g is not None and d is not None and g <= d
               for g, d in seen.values())


def judge(vm, checks, cell, start, tlog):
    """Each required vector fired on both sides over the cell; in a cell
    without a family (no vector masked by a suspend or a reset in it)
    the guest took no more interrupts than the device sent, read until
    the two agree or BOUND s."""
    if start[0] is None:
        checks.true("the guest's interrupts read (/proc/interrupts)",
                    False, "unreadable: the vectors cannot be judged")
        return
    exact = cell.family is None and start[1] is not None
    deadline = time.monotonic() + BOUND
    while True:
        end = read(vm)
        if end[0] is None:
            checks.true("the guest's interrupts read (/proc/interrupts)",
                        False, "unreadable: the vectors cannot be judged")
            return
        seen = deltas(cell, start, end)
        if not exact or agree(seen) or time.monotonic() >= deadline:
            break
        time.sleep(INTERVAL)
    for name, (guest, dev) in seen.items():
        tlog(f"vector {name}: guest {guest}, device {dev}")
    checks.eq("every vector the cell has a cause for fired (guest "
              "/proc/interrupts and the device's messages)",
              {k: bool(g) and g > 0 and (d is None or d > 0)
               for k, (g, d) in seen.items()},
              {k: True for k in seen})
    if exact:
        checks.true("interrupts the guest took <= messages the device "
                    "sent, per vector (none from elsewhere)", agree(seen),
                    ", ".join(f"{k}: guest {g}, device {d}"
                              for k, (g, d) in seen.items()))
