# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver regression matrix: cells, selections, boot plan.

Pure data, no VMs (the executor is matrix/execute.py, the report writers
matrix/report.py), so the selection, sharding and ordering code is tested
without booting.

A cell is one configuration of the guest's driver and the device:

    mtu<N>-<crc>-<irq>-<iommu>[-vlan][-cb<N>][-<setting>...][-<family>]

  mtu     the guest's MTU: the page-pool breakpoints 1500 ... 9212 in
          the grid, any the driver takes (68..9212) in a cell file
  crc     strip  (hardware strips the FCS: the driver's default)
          keep   (module parameter CrcStripping=0: the device writes the
                  FCS, the driver trims it)
          rxfcs  (ethtool -K rx-fcs on: the FCS reaches the socket, the
                  agent checks it is the frame's CRC-32)
  irq     msix / msi / intx (module parameter IntMode=2/1/0)
  iommu   noiommu / iommu (emulated intel-iommu, guest intel_iommu=on
          iommu.strict=1)
  vlan    traffic through eth0.100 (802.1Q, tag stripped/inserted by the NIC)
  cb<N>   module parameter copybreak=N (absent: the driver's default)
  setting the configurations users run (cell_settings.Settings: ring
          sizes, moderation, offloads, module parameters, device knobs)
  family  what the cell does beyond its configuration (FAMILIES below:
          injected frame errors, bursts faster than the guest cleans,
          the link dropped under traffic); absent: plain traffic

Every cell declares the datapath situations it exists to produce
(docs/coverage.md); the device's `situations` difference over the cell
must show each, or the cell fails with "did not produce X".

Cells that differ only in what the guest changes at run time (MTU, ethtool
features, the module's parameters by reloading it, a VLAN device) share a
boot; a new boot is needed only for a different kernel command line or
device set (IOMMU on/off).
"""

import fnmatch
import re
from collections import OrderedDict

from e1000epp.matrix import cell_settings, families
from e1000epp.matrix.situations import SITUATIONS, UNREACHABLE
MTUS = (1500, 1501, 2026, 2027, 4074, 4075, 4096, 4097, 8192, 9000, 9212)
# Any MTU the driver accepts (cell_settings: 68 .. 9212 for the 82574).
MTU_MIN, MTU_MAX = cell_settings.MTU_MIN, cell_settings.MTU_MAX
CRCS = ("strip", "keep", "rxfcs")
IRQS = ("msix", "msi", "intx")
INT_MODE = {"intx": 0, "msi": 1, "msix": 2}
IOMMUS = ("noiommu", "iommu")
# How the device's DMA reaches memory: directly, through the IOMMU, or
# through swiotlb's bounce buffers (swiotlb=force: the CPU reads a copy
# only a DMA sync makes current). The grid crosses the first two.
DMA_PATHS = IOMMUS + ("bounce",)
VLAN_ID = 100
# Seconds a cell waits for its pattern frames (`run --traffic-timeout`):
# the side that counts answers the moment every frame is in, so only a
# cell whose frames are lost waits this long. Under TCG a frame crosses
# in milliseconds.
TRAFFIC_TIMEOUT = 120


# The families and their knobs (matrix/families.py), under the names
# the rest of the harness has always used.
KNOBS = families.KNOBS
ERR_FRAMES = families.ERR_FRAMES
BURST_FRAMES = families.BURST_FRAMES
LONG_FRAME = families.LONG_FRAME
LONG_FRAMES = families.LONG_FRAMES
FETCH_LIMIT = families.FETCH_LIMIT
LINK_DROP_MS = families.LINK_DROP_MS
HANG_REPORT = families.HANG_REPORT
WATCHDOG_LINE = families.WATCHDOG_LINE
HANG_LOG = families.HANG_LOG
HANG_REPORTS_NO_RESET = families.HANG_REPORTS_NO_RESET
RESET_LINE = families.RESET_LINE
RACE_RESET_NS = families.RACE_RESET_NS
RACE_LINK_DROP_MS = families.RACE_LINK_DROP_MS
BOOT_EXTRAS = families.BOOT_EXTRAS
Family = families.Family
FAMILIES = families.FAMILIES


# The page-pool series' payload-density table (cover letter): the
# truesize of a frame by the 2 KB chunks it fills. One chunk is charged
# half a page at MTU <= 1500 and a whole page above it; every chained
# chunk a page.
PAGEPOOL_TRUESIZE_ONE = {1500: 2304, 2026: 4352}
PAGEPOOL_TRUESIZE = {2: 8448, 3: 12544, 4: 16640, 5: 20736}
PAGEPOOL_CHUNK = 2048
# A driver that builds its Rx buffers through libeth's page pool (the
# series' design): the module libeth is loaded for it.
PAGEPOOL_HOLDER = "/sys/module/libeth/holders/e1000e"
# The driver under test as the run's options name it (`run`'s
# driver_under_test): Debian's own e1000e, the page-pool series
# (--driver pagepool[+BUG]); None for the user's own driver (--module,
# --driver-src, --kernel...), which only the guest can tell.
DRIVER_STOCK = "stock"
DRIVER_SERIES = "pagepool-series"

# Every counter of `ethtool -S` an error cell moves, zero unless named
# (Linux e1000e, e1000e_update_stats: rx_errors = RXERRC + CRCERRS +
# ALGNERRC + RUC + ROC + CEXTERR, rx_length_errors = RUC + ROC,
# rx_crc_errors = CRCERRS, rx_long_length_errors = ROC; SYMERRS is never
# read by the driver).
ERROR_STATS = ("rx_crc_errors", "rx_errors", "rx_length_errors",
               "rx_long_length_errors")


class MatrixError(Exception):
    """A user error in a matrix option (bad --only, --shard, report dir)."""


class Cell:
    __slots__ = ("mtu", "crc", "irq", "iommu", "vlan", "copybreak",
                 "family", "settings")

    def __init__(self, mtu, crc="strip", irq="msix", iommu="noiommu",
                 vlan=False, copybreak=None, family=None, settings=None):
        """settings: a cell_settings.Settings (module parameters,
        ethtool, device knobs, extra lengths and situations), or None."""
        assert MTU_MIN <= mtu <= MTU_MAX and crc in CRCS and \
            irq in IRQS and iommu in DMA_PATHS and \
            (family is None or family in FAMILIES)
        self.mtu, self.crc, self.irq, self.iommu = mtu, crc, irq, iommu
        self.vlan, self.copybreak = vlan, copybreak
        self.family = FAMILIES[family] if family else None
        self.settings = settings or cell_settings.Settings()

    @property
    def name(self):
        return (f"mtu{self.mtu}-{self.crc}-{self.irq}-{self.iommu}" +
                ("-vlan" if self.vlan else "") +
                (f"-cb{self.copybreak}" if self.copybreak is not None
                 else "") +
                "".join(f"-{t}" for t in self.settings.tokens()) +
                (f"-{self.family.name}" if self.family else ""))

    @property
    def config(self):
        """The cell's name without its MTU: a row of the report's grid."""
        return self.name.split("-", 1)[1]

    def row_key(self):
        """Where the configuration's row sorts in the grid: IOMMU, CRC
        handling, interrupt mode, in the order the axes list them."""
        return [DMA_PATHS.index(self.iommu), CRCS.index(self.crc),
                IRQS.index(self.irq)]

    def result(self, status, reason, seconds, evidence):
        """The cell's entry in results.json: its verdict, and where the
        report's grid puts it (so the report never re-parses a name)."""
        return {"cell": self.name, "mtu": self.mtu, "config": self.config,
                "row": self.row_key(), "status": status, "reason": reason,
                "seconds": seconds, "evidence": evidence}

    def fcs_kept(self):
        """The device writes the FCS into host memory (RCTL.SECRC 0)."""
        return self.crc != "strip"

    def situations(self):
        """The situations this cell exists to produce (docs/coverage.md),
        each of which its `situations` difference must show:

          - IP traffic both ways: checksums checked and inserted, TCP
            sent as TSO (the guest's default offloads), and frames with
            a wrong IPv4 header, UDP or TCP checksum found wrong
            (matrix/traffic_checksum.py);
          - under MSI-X with the driver's defaults (ITR, RDTR/RADV,
            RXDCTL.WTHRESH 4): interrupts held by ITR, write-backs
            going out by threshold and by the delay timer;
          - above MTU 1500, where Linux programs packet split: the
            TCP/UDP headers alone in buffer 0;
          - a VLAN cell: the tag stripped by the NIC (CTRL.VME);
          - the FCS kept above MTU 1500: pattern frames placing the FCS
            across two buffers and alone in the last one (lengths from
            the programmed layout, matrix/buffer_layout.py);
          - the family's own (FAMILIES), and those the cell's settings
            add (a cell file's `expect`);
          less what its settings rule out (moderation or an offload
          off: cell_settings.Settings.rules_out)."""
        out = ["rx-csum-ip", "rx-csum-tcp", "rx-csum-udp", "rx-csum-err",
               "tx-csum-ip", "tx-csum-l4", "tso"]
        if self.irq == "msix" and self.family is None:
            out += ["irq-throttled", "wb-threshold", "wb-timer"]
        if self.mtu > 1500:
            out.append("hdr-split")
        if self.vlan:
            out.append("vlan-strip")
        if self.fcs_kept() and self.mtu > 1500:
            out += ["fcs-straddle", "fcs-alone"]
        gone = self.settings.rules_out()
        out = [s for s in out if s not in gone]
        more = (self.family.situations if self.family else ()) + \
            self.settings.expect
        out += [s for s in more if s not in out]
        return tuple(out)

    def boot_key(self):
        """What needs a new boot: the kernel command line / device set
        (the DMA path, then +BOOT_EXTRAS key of the family's)."""
        if self.family and self.family.boot:
            return f"{self.iommu}+{self.family.boot}"
        return self.iommu

    def module_params(self):
        """e1000e parameters: a change means rmmod + insmod."""
        params = [f"IntMode={INT_MODE[self.irq]}"]
        if self.crc == "keep":
            params.append("CrcStripping=0")
        if self.copybreak is not None:
            params.append(f"copybreak={self.copybreak}")
        return tuple(params) + self.settings.module_params()

    def load_key(self):
        """What a driver load sets until the next one: its parameters,
        then the ring sizes and moderation set with ethtool (a cell that
        differs from the loaded driver here reloads it)."""
        return self.module_params() + self.settings.sticky()

    def frame_lengths(self, why=False):
        """The cell's own pattern frame lengths (Ethernet header +
        payload, no FCS; the rest of its sweep comes from the programmed
        layout, matrix/length_sweep.py): the smallest frame, 1514, the
        breakpoint itself (MTU + 14) and one less; for every 2 KB chunk
        boundary B the frame reaches, B - 2 (its FCS straddles B) and B
        (the FCS alone fills the next chunk's first bytes); the copybreak
        threshold -1/0/+1. Sorted, or {length: why} with why."""
        top = self.mtu + 14
        out = {60: "smallest frame", min(1514, top): "1514 bytes",
               top - 1: "one byte under the MTU's frame",
               top: "the MTU's frame (MTU + 14)" +
               (": the largest tagged frame, max_frame_size (MTU + 22) "
                "on the wire" if self.vlan else "")}
        for boundary in range(2048, top + 1, 2048):
            out.setdefault(boundary - 2, f"2 KB chunk edge {boundary} - 2"
                           " (FCS 2|2 across it where kept)")
            out.setdefault(boundary, f"2 KB chunk edge {boundary} (FCS "
                           "alone after it where kept)")
        # e1000_clean_rx_irq copies a frame when length < copybreak
        # (Linux's COPYBREAK_DEFAULT 256 without the parameter), length
        # as the descriptor gives it: with rx-fcs the FCS counted.
        cb = 256 if self.copybreak is None else self.copybreak
        fcs = 4 if self.crc == "rxfcs" else 0
        for d, what in ((-1, "copied"), (0, "not copied"),
                        (1, "not copied")):
            n = cb + d - fcs
            if 60 <= n <= top:
                out.setdefault(n, f"copybreak {cb}{d:+d}: {what}")
        return dict(sorted(out.items())) if why else sorted(out)

    def udp_lengths(self):
        """UDP payloads: small, and the largest one frame carries."""
        return [64, self.mtu - 28]

    def __repr__(self):
        return f"Cell({self.name})"


def _grid(mtus, crcs, irqs, iommus, vlans=(False,), cbs=(None,),
          families=(None,)):
    return [Cell(m, c, i, o, v, b, f) for o in iommus for i in irqs
            for c in crcs for m in mtus for v in vlans for b in cbs
            for f in families]


def family_cells():
    """The cells that drive the device's hard situations: every injected
    error at MTU 1500 (the CRC one also with rx-all and with the FCS
    kept at a jumbo MTU), bursts with flow control off and on at two
    MTUs, the multi-descriptor burst, the link dropped under traffic at
    two MTUs, a data write rejected under the IOMMU, the checksum step
    with Rx checksum offload off."""
    cells = _grid([1500], ["strip"], ["msix"], ["noiommu"],
                  families=["errcrc", "errcrc-rxall", "errsym", "errdata",
                            "errlong"])
    cells += _grid([2027], ["strip", "keep"], ["msix"], ["noiommu"],
                   families=["longburst"])
    cells += _grid([9000], ["keep"], ["msix"], ["noiommu"],
                   families=["errcrc"])
    cells += _grid([1500, 9000], ["strip"], ["msix"], ["noiommu"],
                   families=["burst", "burstfc", "linkdrop"])
    cells += _grid([1500, 9000], ["strip", "keep"], ["msix"], ["iommu"],
                   families=["dmafault"])
    cells += _grid([1500], ["strip"], ["msix"], ["noiommu", "iommu"],
                   families=["rpm"])
    # System sleep with the interface up and down; up also with the FCS
    # kept at a jumbo MTU on INTx (the resume sets up the one vector
    # again).
    cells += [Cell(1500, family="sleep"), Cell(1500, family="sleepdown"),
              Cell(9000, "keep", "intx", family="sleep")]
    # The reset task in every interrupt mode, with the IOMMU (the reset
    # unmaps and maps every buffer again) and with a kept FCS.
    cells += [Cell(1500, "strip", "msix", family="txhang"),
              Cell(9000, "keep", "intx", family="txhang"),
              Cell(1500, "strip", "msi", "iommu", family="txhang")]
    # The checksum step with the driver's Rx checksum offload off: one
    # buffer per frame, packet split with the FCS kept, and a VLAN.
    cells += [Cell(1500, family="rxcsumoff"),
              Cell(9000, "keep", family="rxcsumoff"),
              Cell(1500, vlan=True, family="rxcsumoff")]
    # Allocations made to fail: one buffer per frame, and 2 KB chunks
    # (the page-pool design) or packet split (Debian's) with the FCS
    # kept under INTx.
    cells += [Cell(1500, family="allocfail"),
              Cell(9000, "keep", "intx", family="allocfail")]
    # A frame half received at the interface down: 5 chunks of the
    # page-pool design at MTU 9000, 3 with the FCS at MTU 4097 (one
    # packet-split descriptor on Debian's driver).
    cells += [Cell(9000, family="holdtail"),
              Cell(4097, "rxfcs", "intx", family="holdtail")]
    # Adaptive interrupt moderation, read from ITR (MSI and INTx), with
    # the FCS stripped, trimmed by the driver and kept for the stack.
    cells += [Cell(9000, "strip", "msi", family="itr"),
              Cell(9000, "keep", "intx", family="itr"),
              Cell(9000, "rxfcs", "msi", family="itr")]
    return cells


# The configurations users run, as the default matrix carries them: the
# smallest ring the driver takes (ethtool -G, E1000_MIN_RXD/TXD) at MTU
# 1500 and a small one at a jumbo MTU, with plain traffic and with a
# burst that runs it dry; moderation off (no ITR window, write-backs at
# once) and high (ethtool -C rx-usecs 1000 under MSI-X,
# InterruptThrottleRate 100 under MSI: the driver's slowest rate, which
# must then hold interrupts back, as only MSI-X cells declare by
# default); GRO, TSO and Tx checksumming off (ethtool -K).
# At a jumbo MTU the page-pool series takes a 2 KB chunk per descriptor
# (5 for a 9014-byte frame, where Debian's packet split takes 1), so the
# smallest ring, 63 posted descriptors, holds 12 such frames and the
# pattern step's 36 (12 lengths x 3, sent at once) overflow it: the
# device drops 7 (MPC), which a plain cell's verdict counts as lost
# (seen 2026-12-06 on the series, not on Debian's driver). 128
# descriptors hold that step's 96 and still run dry in every burst.
SMALL_RING = cell_settings.RING_MIN
SMALL_JUMBO_RING = 128
MODERATION_OFF = {"InterruptThrottleRate": 0, "RxIntDelay": 0,
                  "RxAbsIntDelay": 0}
HIGH_USECS = 1000


def settings_cells():
    """The cells of the configurations above (cell_settings.Settings)."""
    S = cell_settings.Settings
    small = S(ring_rx=SMALL_RING, ring_tx=SMALL_RING)
    jumbo = S(ring_rx=SMALL_JUMBO_RING, ring_tx=SMALL_JUMBO_RING)
    return [Cell(1500, settings=small), Cell(9000, settings=jumbo),
            Cell(1500, family="burst", settings=small),
            Cell(9000, family="burst", settings=jumbo),
            Cell(1500, settings=S(params=MODERATION_OFF)),
            Cell(9000, settings=S(rx_usecs=HIGH_USECS)),
            Cell(1500, irq="msi", settings=S(
                params={"InterruptThrottleRate": cell_settings.ITR_MIN},
                expect=["irq-throttled"])),
            Cell(1500, settings=S(offloads={"gro": False})),
            Cell(9000, settings=S(offloads={"tso": False})),
            Cell(1500, settings=S(offloads={"tx": False})),
            # The largest ring each way under the IOMMU: 4096 descriptors
            # are 64 KiB, the only size where a ring sized in the wrong
            # unit is not rounded up to what the device reads (4 KiB
            # pages), so the device's descriptor access past it faults.
            Cell(1500, iommu="iommu", settings=S(
                ring_rx=cell_settings.RING_MAX,
                ring_tx=cell_settings.RING_MAX))]


def default_matrix():
    """The default matrix: every breakpoint x CRC handling x interrupt
    mode x IOMMU; VLAN and copybreak at MTUs where they change the buffer
    layout (VLAN with a stripped or driver-trimmed FCS: with rx-fcs the
    FCS covers the tag the NIC removed)."""
    cells = _grid(MTUS, CRCS, IRQS, IOMMUS)
    cells += _grid([1500, 2027, 9000], ["strip", "keep"], ["msix"],
                   ["noiommu"], vlans=[True])
    cells += _grid([1500, 4096], ["strip"], ["msix"], ["noiommu"],
                   cbs=[0, 1024])
    cells += [Cell(1500, "strip", "msix", "bounce"),
              Cell(9212, "keep", "msix", "bounce")]
    cells += family_cells()
    cells += settings_cells()
    return _unique(cells)


def reduced_matrix():
    """The CI matrix (`./e1000e-pp test`): one cell per mechanism and
    one per situation family (an injected error, a burst with flow
    control off and on, the multi-descriptor burst, the link drop, a
    rejected DMA write, a Tx hang the reset task recovers)."""
    return [
        Cell(1500),
        Cell(2027, "keep"),
        Cell(4097, "rxfcs"),
        Cell(9212, "keep"),
        Cell(9000, "strip", "msi"),
        Cell(2026, "keep", "intx"),
        Cell(1500, "strip", vlan=True),
        Cell(1500, "strip", copybreak=0),
        Cell(4096, "rxfcs", iommu="iommu"),
        Cell(1500, family="errcrc"),
        Cell(1500, family="burst"),
        Cell(9000, family="burstfc"),
        Cell(2027, family="longburst"),
        Cell(1500, family="linkdrop"),
        Cell(1500, iommu="iommu", family="dmafault"),
        Cell(1500, irq="msi", family="txhang"),
        Cell(1500, family="rxcsumoff"),
    ]


def copybreak_matrix():
    """The copybreak change's published comparison (docs/cost.md): the
    unmodified driver at MTU 1500 with copybreak 0 and 2048, IOMMU off
    and strict; run with --cost."""
    return [Cell(1500, iommu=o, copybreak=b)
            for o in IOMMUS for b in (0, 2048)]


def race_matrix():
    """The reset task against runtime suspend (`run --matrix race`):
    not in the default matrix, because Linux's e1000e up to 6.12 has
    this race (its reset task takes no runtime-PM reference) and fails
    it; under MSI-X, and with the IOMMU (the reset maps every buffer
    again while the suspend unmaps them)."""
    return [Cell(1500, "strip", "msix", o, family="resetpm")
            for o in IOMMUS]


# Default-matrix cells that tell apart mutants of the page-pool series
# the reduced matrix does not (docs/usage/mutate.md): the largest ring,
# an MTU one past 1500 (a frame one byte over the 1500 class), every
# DMA bounced (a missing sync for the CPU) and a system sleep with the
# interface up (the driver's freeze path).
MUTATE_DEFAULT_CELLS = ("mtu1500-strip-msix-iommu-ring4096",
                        "mtu1501-strip-msix-noiommu",
                        "mtu1500-strip-msix-bounce",
                        "mtu1500-strip-msix-noiommu-sleep")


def mutate_matrix():
    """What `mutate` judges with by default: the reduced matrix, the
    cells that reach what it cannot (allocation failures, a frame half
    received at the interface down, the adaptive ITR's table),
    MUTATE_DEFAULT_CELLS and an MTU under 1500."""
    extra = [c for c in default_matrix() if c.name in MUTATE_DEFAULT_CELLS]
    # An MTU under 1500, where the series' buffers are still the small
    # class (the cover letter's table: 2304 bytes of truesize a frame).
    extra.append(Cell(1280))
    return reduced_matrix() + [Cell(1500, family="allocfail"),
                               Cell(9000, family="holdtail"),
                               Cell(9000, "strip", "msi", family="itr"),
                               Cell(9000, "keep", "intx", family="itr"),
                               Cell(9000, "rxfcs", "msi", family="itr")] + \
        extra


MATRICES = {"default": default_matrix, "reduced": reduced_matrix,
            "copybreak": copybreak_matrix, "race": race_matrix,
            "mutate": mutate_matrix}


def by_name():
    """{name: Cell} over every matrix the CLI knows (tests build report
    entries from these)."""
    return {c.name: c for make in MATRICES.values() for c in make()}


def producers(cells):
    """{situation: [names of the cells that declare it]}, every situation
    of the device in its order; unreachable ones map to []."""
    out = {name: [] for name in SITUATIONS}
    for c in cells:
        for name in c.situations():
            out[name].append(c.name)
    return out


def coverage_plan(cells):
    """Lines naming, per situation, the cells that declare it, or why
    none can (`run --list`)."""
    lines = []
    for name, who in producers(cells).items():
        if name in UNREACHABLE:
            lines.append(f"situation {name}: unreachable: "
                         f"{UNREACHABLE[name]}")
        else:
            more = f", ... {len(who) - 3} more" if len(who) > 3 else ""
            lines.append(f"situation {name}: {len(who)} cells"
                         + (f" ({', '.join(who[:3])}{more})" if who
                            else " (none declares it)"))
    return lines


def _unique(cells):
    seen, out = set(), []
    for c in cells:
        if c.name not in seen:
            seen.add(c.name)
            out.append(c)
    return out


def select(cells, only):
    """Cells whose name matches any comma-separated pattern of `only`:
    a shell glob (`mtu9*-keep-*`) or, failing that, a regular expression
    searched in the name (`^mtu(1500|9212)-`)."""
    if not only:
        return list(cells)
    pats = [p.strip() for p in only.split(",") if p.strip()]
    regexes = []
    for p in pats:
        try:
            regexes.append(re.compile(p))
        except re.error:
            regexes.append(None)
    out = [c for c in cells
           if any(fnmatch.fnmatchcase(c.name, p) or (r and r.search(c.name))
                  for p, r in zip(pats, regexes))]
    if not out:
        raise MatrixError(f"--only {only!r} matches no cell of this matrix",
                          "list the cells with --list")
    return out


def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text or "")
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise MatrixError(f"--shard {text!r} is not I/N with 1 <= I <= N",
                          "e.g. --shard 2/4 runs the second of four slices")
    return int(m.group(1)), int(m.group(2))


def shard(cells, i, n):
    """Slice i of n (1-based), deterministic: cells in name order, every
    n-th. Each shard is then planned for the fewest boots on its own."""
    ordered = sorted(cells, key=lambda c: c.name)
    return [c for k, c in enumerate(ordered) if k % n == i - 1]


def plan(cells):
    """Boot groups in run order: [(boot_key, [cells])]. Inside a boot,
    cells with the same module parameters run together (one reload each),
    then by MTU, VLAN and rx-fcs."""
    groups = OrderedDict()
    for c in sorted(cells, key=lambda c: DMA_PATHS.index(c.iommu)):
        groups.setdefault(c.boot_key(), []).append(c)
    return [(k, sorted(v, key=lambda c: (c.load_key(), c.mtu, c.vlan,
                                         c.crc == "rxfcs")))
            for k, v in groups.items()]


# --- results and reports ---------------------------------------------------

PASS, FAIL, ERROR = "pass", "fail", "error"
