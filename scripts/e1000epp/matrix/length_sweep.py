# SPDX-License-Identifier: GPL-2.0-or-later
"""A cell's length sweep: the pattern-frame lengths its frames step sends
each way (Ethernet header + payload, no FCS), each with why it is there,
from the cell (Cell.frame_lengths) and the receive layout the driver
programmed (buffer_layout.decode, read off the device):

  - the cell's own: 60, 1514, MTU + 14 and one less (with a VLAN the
    largest tagged frame: max_frame_size on the wire), the page-pool
    design's 2 KB chunk edges, the copybreak threshold -1/0/+1;
  - the layout's length classes and, with the FCS kept, each of the
    three FCS splits and the FCS alone at every buffer boundary the MTU
    reaches (buffer_layout.class_lengths);
  - a seeded spread: one length drawn in each of SPREAD equal slices of
    60..MTU + 14 (random.Random of the cell's seed);
  - peer -> guest only, with RCTL.LPE set: frames longer than the MTU
    allows that the device still takes (up to LPE_LIMIT): the driver
    drops some of them whole (driver_limit), each followed by a frame
    that must arrive intact.

The guest sends the same lengths but the over-long ones (its kernel
sends nothing longer than MTU + 14 on the interface). The seed of a
cell is cell_seed(run seed, name): the run seed is SEED_ENV from the
environment, DEFAULT_RUN_SEED without it, so a cell's lengths rerun
exactly (`sweep.json` in the cell's directory has both seeds).
"""

import os
import random
import zlib

from e1000epp.matrix import buffer_layout

SEED_ENV = "E1000EPP_SWEEP_SEED"
DEFAULT_RUN_SEED = 37
# Lengths drawn per cell across 60..MTU + 14.
SPREAD = 8
# The most lengths one TXL list takes (PP_LENS_MAX, tools/wire/cmdargs.h).
LENS_MAX = 64
MIN_FRAME = buffer_layout.MIN_FRAME
FCS = buffer_layout.FCS
# Linux e1000e: max_frame_size = mtu + VLAN_ETH_HLEN + ETH_FCS_LEN
# (e1000_change_mtu): the MTU's frame with room for a VLAN tag and FCS.
MAX_FRAME_OVER_MTU = 18 + 4
# The longest frame, FCS included, the device takes with RCTL.LPE:
# DEFAULT_JUMBO (e1000.h, the driver's max_hw_frame_size for the 82574;
# the model's limit, docs/fidelity.md). A VLAN tag adds 4 to both the
# frame and the limit. Longer ones the device drops itself (ROC).
LPE_LIMIT = 9234


class SweepError(Exception):
    """A bad run seed, or more lengths than one TXL list takes."""


def run_seed(environ=None):
    """The run's seed: SEED_ENV (a decimal number) or DEFAULT_RUN_SEED."""
    text = (os.environ if environ is None else environ).get(SEED_ENV, "")
    if not text.strip():
        return DEFAULT_RUN_SEED
    if not text.strip().isdigit():
        raise SweepError(f"{SEED_ENV}={text!r} is not a decimal number")
    return int(text)


def cell_seed(seed, name):
    """A cell's own seed: stable across runs and Python versions (CRC-32
    of "<run seed>/<cell name>", not hash())."""
    return zlib.crc32(f"{seed}/{name}".encode())


def spread(seed, top, k=SPREAD):
    """k lengths, one drawn in each of k equal slices of MIN_FRAME..top."""
    rng = random.Random(seed)
    span = top - MIN_FRAME + 1
    out = []
    for i in range(k):
        lo = MIN_FRAME + span * i // k
        hi = MIN_FRAME + span * (i + 1) // k - 1
        out.append(rng.randint(lo, max(lo, hi)))
    return out


def driver_limit(cell, layout):
    """The longest frame, as the device stores it (the FCS counted when
    kept, a VLAN tag stripped), the driver takes: with packet split
    (Linux's design above MTU 1500) what the first descriptor holds, for
    e1000_clean_rx_irq_ps discards a frame whose first descriptor has no
    EOP, up to the descriptor that has it; with one buffer per
    descriptor chained (the page-pool design) max_frame_size, beyond
    which the series' e1000_clean_rx_irq drops a frame."""
    if layout["format"] == "packet-split":
        return sum(layout["first"])
    return cell.mtu + MAX_FRAME_OVER_MTU


def over_mtu(cell, layout):
    """{length: (why, dropped)} of the frames longer than the MTU allows
    that the device takes (RCTL.LPE set): one byte over, the longest the
    driver takes and the shortest it drops (driver_limit), and the
    longest the device takes; none with LPE clear, where the device
    drops every frame over 1518 bytes (1522 tagged) itself, and only
    those that fit one buffer where every frame of the MTU does."""
    if not layout or not layout["lpe"]:
        return {}
    top = cell.mtu + 14
    fcs = 0 if layout["secrc"] else FCS
    limit = driver_limit(cell, layout) - fcs
    device = LPE_LIMIT - FCS
    why = {top + 1: "one byte longer than the MTU allows",
           limit: "the longest frame the driver takes",
           limit + 1: "the shortest frame the driver drops",
           device: "the longest frame the device takes (LPE)"}
    out = {n: (w, n > limit) for n, w in sorted(why.items())
           if top < n <= device}
    if layout["format"] != "packet-split" and \
            layout["first"][0] >= top + fcs:
        # Every frame of the MTU in one buffer: the cell counts buffers
        # as frames (execute.check_copybreak, rx-buf-new + rx-buf-reposted
        # = rx-delivered), so no over-long frame may take two.
        out = {n: v for n, v in out.items() if n + fcs <= layout["first"][0]}
    return out


def _add(why, n, text):
    why.setdefault(n, [])
    if text not in why[n]:
        why[n].append(text)


def sweep(cell, layout, seed, k=SPREAD):
    """The cell's sweep for the run seed seed: {"seed", "cell_seed",
    "rx", "tx" (the lengths in the order sent), "dropped" (rx lengths
    the driver drops), "why" ({length: reasons})}; k lengths of seeded
    spread. layout None (not read): the cell's own lengths and the
    spread only."""
    top = cell.mtu + 14
    why = {}
    for n, text in cell.frame_lengths(why=True).items():
        _add(why, n, text)
    if layout:
        for n, text in buffer_layout.class_lengths(layout, top).items():
            _add(why, n, text)
    own = cell_seed(seed, cell.name)
    for n in spread(own, top, k):
        _add(why, n, "seeded spread")
    normal = sorted(why)
    over = over_mtu(cell, layout)
    for n, (text, dropped) in over.items():
        _add(why, n, text + (": dropped by the driver" if dropped else
                             ": delivered intact"))
    rx = list(normal)
    # The over-long frames go in the middle, each followed by a frame of
    # the sweep that must arrive intact (and none is one of the first
    # frames, which the error and fault families mark).
    at = len(normal) // 2
    for i, n in enumerate(over):
        rx.insert(at + 2 * i, n)
    if len(rx) > LENS_MAX:
        raise SweepError(f"{cell.name}: {len(rx)} lengths, more than one "
                         f"TXL list takes ({LENS_MAX})")
    return {"seed": seed, "cell_seed": own, "rx": rx, "tx": normal,
            "dropped": sorted(n for n, (_, d) in over.items() if d),
            "why": {str(n): why[n] for n in sorted(why)}}


def below_copybreak(cell, lengths):
    """How many of lengths e1000_clean_rx_irq copies: length <
    copybreak (256, COPYBREAK_DEFAULT, without the parameter), the
    length with the FCS under rx-fcs (the driver subtracts it only when
    the stack does not keep it)."""
    cb = 256 if cell.copybreak is None else cell.copybreak
    fcs = FCS if cell.crc == "rxfcs" else 0
    return sum(1 for n in lengths if n + fcs < cb)


def missing_seqs(rx, repeat, dropped, marked=0):
    """Sequence numbers of a TXL run of rx x repeat that never reach the
    socket: the first marked ones (the family's dropped frames) and every
    frame of a length the driver drops."""
    drop = set(dropped)
    return [k for k in range(len(rx) * repeat)
            if k < marked or rx[k % len(rx)] in drop]
