# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver regression matrix: cells, selections, boot plan.

Pure data, no VMs (the executor is matrix/execute.py, the report writers
matrix/report.py), so the selection, sharding and ordering code is tested
without booting.

A cell is one configuration of the guest's driver and the device:

    mtu<N>-<crc>-<irq>-<iommu>[-vlan][-cb<N>]

  mtu     page-pool breakpoints 1500 ... 9212 (the guest's MTU)
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

from e1000epp.matrix.situations import SITUATIONS, UNREACHABLE
MTUS = (1500, 1501, 2026, 2027, 4074, 4075, 4096, 4097, 8192, 9000, 9212)
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


# Device knobs the cells turn, by what they do: the e1000e-pp QOM
# property names (docs/usage/qemu.md), in this one place.
KNOBS = {
    "error-crc": "x-rx-error-crc",
    "error-symbol": "x-rx-error-symbol",
    "error-data": "x-rx-error-data",
    "error-oversize": "x-rx-error-oversize",
    "link-drop": "x-link-drop-ms",
    "fetch-limit": "x-rx-fetch-limit",
    "dma-fault-writes": "x-dma-fault-writes",
    "tx-hold": "x-tx-hold",
    "reset-delay": "x-reset-delay-ns",
}
# Frames marked with an injected error in an error cell's stream.
ERR_FRAMES = 3
# A load cell's burst: frames the peer queues at once, peer -> guest
# (the ring holds 256 descriptors, the packet buffer a few frames).
BURST_FRAMES = 768
# The multi-descriptor burst: at MTU 2027 Linux programs packet split
# with a 128-byte buffer 0 and one 4 KB page (PSRCTL), so a 9000-byte
# frame (within RCTL.LPE's limit) takes 3 descriptors, and the device
# fetches at most FETCH_LIMIT descriptors per tail write
# (x-rx-fetch-limit): Linux writes RDT every 16 buffers
# (E1000_RX_BUFFER_WRITE), so each fetch ends one descriptor into a
# frame (16 = 3 x 5 + 1) while the next frames wait in the packet
# buffer. (Not at MTU 1500 with rx-all: the driver posts 1522-byte
# buffers there with BSIZE 2048, and a long frame stored under
# RCTL.SBP overruns them.)
LONG_FRAME = 9000
LONG_FRAMES = 24
FETCH_LIMIT = 16
# How long the link-drop cell's cable is out (virtual ms).
LINK_DROP_MS = 300

# What Linux logs for a Tx hang that e1000e's reset task recovers
# (dev_watchdog's timeout, e1000_reset_task; e1000_print_hw_hang when the
# driver's own check sees it first): the txhang cell's event, nothing
# else (Debian 6.1 and 6.12 log the first two, as netdev_crit/e_err).
HANG_REPORT = r"Detected Hardware Unit Hang"
WATCHDOG_LINE = r"NETDEV WATCHDOG: .*transmit queue 0 timed out"
HANG_LOG = (HANG_REPORT, WATCHDOG_LINE, r"Reset adapter unexpectedly")
# e1000_print_hw_hang stops the queue at every report, and
# netif_tx_stop_queue stamps the queue's trans_start, so reports 4 s
# apart (every other 2 s watchdog tick) keep dev_watchdog's 5 s
# timeout from ever expiring: once this many came with no timeout, the
# driver will not reset by itself (docs/usage/cells.md, "Tx hang").
HANG_REPORTS_NO_RESET = 3
RESET_LINE = "Reset adapter unexpectedly"

# The reset task against runtime suspend (the resetpm cells). With the
# link gone and transmits stuck in the ring, e1000e's watchdog task
# schedules a runtime suspend LINK_TIMEOUT (100 ms) away and its reset
# task at once (FLAG_RESTART_NOW); e1000e_pm_runtime_suspend waits for
# __E1000_RESETTING at most E1000_CHECK_RESET_COUNT x 10 ms (250 ms),
# then downs the adapter and the PCI core puts it in D3hot. The CTRL.RST
# window widened to 600 ms holds the reset task in init_hw's NVM read
# (EERD waits for the auto-load, docs/fidelity.md) for longer than
# those 350 ms: a reset task without a runtime-PM reference is still
# reprogramming the MAC when the function goes to D3hot. The cable
# stays out long enough (9 s) for a correct driver's own suspend, 5 s
# after its reset (e1000e_pm_runtime_idle), and the PME wake.
RACE_RESET_NS = 600 * 1000 * 1000
RACE_LINK_DROP_MS = 9000
# Kernel command-line additions a family's boot needs. The reset task
# waits for the NVM read busily (udelay), and both it and the runtime
# suspend run from per-CPU workqueues of the CPU that scheduled them: a
# kernel without full preemption runs the suspend only once the reset
# task is done, so nothing races (seen on Debian 6.1: the suspend came
# 0.9 s after the link, the reset over). Debian builds PREEMPT_DYNAMIC;
# preempt=full lets the scheduler run the suspend beside the reset, as
# a preemptible kernel or a second CPU does.
BOOT_EXTRAS = {"preempt": "preempt=full"}

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


class Family:
    """What a cell does beyond its configuration: the knob it turns, the
    guest settings it needs, the traffic it adds and the situations it
    declares."""

    def __init__(self, name, situations, what, knob=None, rx_all=False,
                 flow_control=True, burst=None, stats=None,
                 delivered=False, suspend=False, expect_log=(),
                 boot=None):
        self.name, self.situations, self.what = name, tuple(situations), what
        self.knob, self.rx_all, self.flow_control = knob, rx_all, flow_control
        self.burst = burst              # None, "mtu" or "long"
        self.stats = dict(stats or {})  # ethtool -S name: frames moved
        self.delivered = delivered      # marked frames reach the socket
        self.suspend = suspend          # runtime suspend between streams
        # Kernel log lines that are the family's event itself, not a
        # failure (the dmesg scan fails a cell on every other one).
        self.expect_log = tuple(expect_log)
        # A kernel command-line addition the family needs (BOOT_EXTRAS):
        # its cells boot apart from the others.
        self.boot = boot


def _err(name, knob, situation, stats, rx_all=False):
    what = (f"{ERR_FRAMES} frames marked by {KNOBS[knob]} in the pattern "
            "stream" + (", delivered with rx-all on (RCTL.SBP)" if rx_all
                        else ", none reaching the socket"))
    return Family(name, [situation], what, knob=knob, rx_all=rx_all,
                  stats=stats, delivered=rx_all)


FAMILIES = {f.name: f for f in (
    _err("errcrc", "error-crc", "err-crc",
         {"rx_crc_errors": 1, "rx_errors": 1}),
    _err("errcrc-rxall", "error-crc", "err-crc",
         {"rx_crc_errors": 1, "rx_errors": 1}, rx_all=True),
    _err("errsym", "error-symbol", "err-symbol", {}),
    _err("errdata", "error-data", "err-data", {"rx_errors": 1}),
    _err("errlong", "error-oversize", "err-oversize",
         {"rx_errors": 1, "rx_length_errors": 1,
          "rx_long_length_errors": 1}),
    Family("burst", ["rnbc", "mpc"],
           f"{BURST_FRAMES} frames of MTU + 14 bytes queued at once, flow "
           "control off (ethtool -A)", flow_control=False, burst="mtu"),
    Family("burstfc", ["rnbc", "xoff-sent"],
           f"{BURST_FRAMES} frames of MTU + 14 bytes queued at once, flow "
           "control on (ethtool -A)", burst="mtu"),
    Family("longburst", ["ring-dry-midframe", "split-polls"],
           f"{LONG_FRAMES} frames of {LONG_FRAME} bytes, each over 3 "
           "packet-split descriptors (the driver discards every "
           "multi-descriptor frame), the device fetching "
           f"{FETCH_LIMIT} descriptors per tail write", knob="fetch-limit",
           burst="long"),
    Family("dmafault", ["dma-fault"],
           "the first pattern frame's data write rejected by the device "
           "(x-dma-fault-writes) under the emulated IOMMU: the fault "
           "names the frame the agent lost, told as one sentence",
           knob="dma-fault-writes"),
    Family("rpm", ["link-change-traffic"],
           "between the two TCP streams, the link taken away (QMP "
           "set_link) with runtime PM allowed: the driver suspends the "
           "function (D3hot), the link's return wakes it through PME, "
           "the driver resumes it and the second stream runs",
           suspend=True),
    Family("linkdrop", ["link-change-traffic"],
           f"the link dropped for {LINK_DROP_MS} ms (x-link-drop-ms) during "
           "the TCP stream peer -> guest", knob="link-drop"),
    Family("txhang", [],
           "the Tx engine held (x-tx-hold) with the guest's pings in the "
           "ring until the stack's queue stops, the netdev watchdog times "
           "it out and the driver's reset task resets the MAC (CTRL.RST); "
           "released, the traffic steps then check that the driver "
           "recovered by itself",
           knob="tx-hold", expect_log=HANG_LOG),
    Family("rxcsumoff", ["rx-csum-err"],
           "the checksum step with the driver's Rx checksum offload off "
           "(ethtool -K eth0 rx off: RXCSUM.TUOFL cleared): only the bad "
           "IPv4 headers are found wrong by the device, none counted by "
           "the driver, every bad frame verified and dropped by the stack "
           "(matrix/traffic_checksum.py)"),
    Family("resetpm", [],
           "runtime PM allowed, the Tx engine held (x-tx-hold) with the "
           "guest's frames in the ring and the CTRL.RST window widened "
           f"({RACE_RESET_NS // 1000000} ms, x-reset-delay-ns); then the "
           f"cable out for {RACE_LINK_DROP_MS // 1000} s: the driver's "
           "reset task and its runtime suspend start 100 ms apart, the "
           "function must not be touched in D3hot (pm-violations), the "
           "driver must suspend, wake through PME and pass the traffic "
           "steps (kernel booted with preempt=full)", knob="reset-delay",
           boot="preempt"),
)}


class MatrixError(Exception):
    """A user error in a matrix option (bad --only, --shard, report dir)."""


class Cell:
    __slots__ = ("mtu", "crc", "irq", "iommu", "vlan", "copybreak",
                 "family")

    def __init__(self, mtu, crc="strip", irq="msix", iommu="noiommu",
                 vlan=False, copybreak=None, family=None):
        assert mtu in MTUS and crc in CRCS and irq in IRQS and \
            iommu in DMA_PATHS and (family is None or family in FAMILIES)
        self.mtu, self.crc, self.irq, self.iommu = mtu, crc, irq, iommu
        self.vlan, self.copybreak = vlan, copybreak
        self.family = FAMILIES[family] if family else None

    @property
    def name(self):
        return (f"mtu{self.mtu}-{self.crc}-{self.irq}-{self.iommu}" +
                ("-vlan" if self.vlan else "") +
                (f"-cb{self.copybreak}" if self.copybreak is not None
                 else "") +
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
          - the family's own (FAMILIES)."""
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
        if self.family:
            out += [s for s in self.family.situations if s not in out]
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
        return tuple(params)

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
    return cells


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


MATRICES = {"default": default_matrix, "reduced": reduced_matrix,
            "copybreak": copybreak_matrix, "race": race_matrix}


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
    return [(k, sorted(v, key=lambda c: (c.module_params(), c.mtu, c.vlan,
                                         c.crc == "rxfcs")))
            for k, v in groups.items()]


# --- results and reports ---------------------------------------------------

PASS, FAIL, ERROR = "pass", "fail", "error"
