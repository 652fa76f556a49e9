# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver regression matrix: cells, selections, boot plan, reports.

Pure data and files, no VMs (the executor is matrix_exec.py), so the
selection, sharding, ordering and report code is tested without booting.

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
import html
import json
import os
import re
import time
import xml.etree.ElementTree as ET
from collections import OrderedDict

from . import matrix_cost, matrix_diag

MTUS = (1500, 1501, 2026, 2027, 4074, 4075, 4096, 4097, 8192, 9000, 9212)
CRCS = ("strip", "keep", "rxfcs")
IRQS = ("msix", "msi", "intx")
INT_MODE = {"intx": 0, "msi": 1, "msix": 2}
IOMMUS = ("noiommu", "iommu")
VLAN_ID = 100
# Seconds a cell waits for its pattern frames (`run --traffic-timeout`):
# the side that counts answers the moment every frame is in, so only a
# cell whose frames are lost waits this long. Under TCG a frame crosses
# in milliseconds.
TRAFFIC_TIMEOUT = 120


# Device knobs the cells turn, by what they do: the e1000e-pp QOM
# property names (docs/usage.md), in this one place.
KNOBS = {
    "error-crc": "x-rx-error-crc",
    "error-symbol": "x-rx-error-symbol",
    "error-data": "x-rx-error-data",
    "error-oversize": "x-rx-error-oversize",
    "link-drop": "x-link-drop-ms",
    "fetch-limit": "x-rx-fetch-limit",
    "dma-fault-writes": "x-dma-fault-writes",
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
                 delivered=False, suspend=False):
        self.name, self.situations, self.what = name, tuple(situations), what
        self.knob, self.rx_all, self.flow_control = knob, rx_all, flow_control
        self.burst = burst              # None, "mtu" or "long"
        self.stats = dict(stats or {})  # ethtool -S name: frames moved
        self.delivered = delivered      # marked frames reach the socket
        self.suspend = suspend          # runtime suspend between streams


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
)}

class MatrixError(Exception):
    """A user error in a matrix option (bad --only, --shard, report dir)."""


class Cell:
    __slots__ = ("mtu", "crc", "irq", "iommu", "vlan", "copybreak",
                 "family")

    def __init__(self, mtu, crc="strip", irq="msix", iommu="noiommu",
                 vlan=False, copybreak=None, family=None):
        assert mtu in MTUS and crc in CRCS and irq in IRQS and \
            iommu in IOMMUS and (family is None or family in FAMILIES)
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

    def fcs_kept(self):
        """The device writes the FCS into host memory (RCTL.SECRC 0)."""
        return self.crc != "strip"

    def situations(self):
        """The situations this cell exists to produce (docs/coverage.md),
        each of which its `situations` difference must show:

          - IP traffic both ways: checksums checked and inserted, TCP
            sent as TSO (the guest's default offloads);
          - under MSI-X with the driver's defaults (ITR, RDTR/RADV,
            RXDCTL.WTHRESH 4): interrupts held by ITR, write-backs
            going out by threshold and by the delay timer;
          - above MTU 1500, where Linux programs packet split: the
            TCP/UDP headers alone in buffer 0;
          - a VLAN cell: the tag stripped by the NIC (CTRL.VME);
          - the FCS kept above MTU 1500: pattern frames placing the FCS
            across two buffers and alone in the last one (lengths from
            the programmed layout, rxlayout.py);
          - the family's own (FAMILIES)."""
        out = ["rx-csum-ip", "rx-csum-tcp", "rx-csum-udp", "tx-csum-ip",
               "tx-csum-l4", "tso"]
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
        """What needs a new boot: the kernel command line / device set."""
        return self.iommu

    def module_params(self):
        """e1000e parameters: a change means rmmod + insmod."""
        params = [f"IntMode={INT_MODE[self.irq]}"]
        if self.crc == "keep":
            params.append("CrcStripping=0")
        if self.copybreak is not None:
            params.append(f"copybreak={self.copybreak}")
        return tuple(params)

    def frame_lengths(self):
        """Pattern frame lengths (Ethernet header + payload, no FCS) for
        this MTU: the smallest frame, 1514, the breakpoint itself (MTU +
        14) and one less, and for every 2 KB chunk boundary B the frame
        reaches: B - 2 (its FCS straddles B) and B (the FCS alone fills
        the next chunk's first bytes)."""
        top = self.mtu + 14
        lens = {60, min(1514, top), top, top - 1}
        for boundary in range(2048, top + 1, 2048):
            lens.add(boundary - 2)
            lens.add(boundary)
        return sorted(lens)

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
    two MTUs, a data write rejected under the IOMMU."""
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
    cells += family_cells()
    return _unique(cells)


def reduced_matrix():
    """The CI matrix (`./e1000e-pp test`): one cell per mechanism and
    one per situation family (an injected error, a burst with flow
    control off and on, the multi-descriptor burst, the link drop, a
    rejected DMA write)."""
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
    ]


def copybreak_matrix():
    """The copybreak change's published comparison (docs/cost.md): the
    unmodified driver at MTU 1500 with copybreak 0 and 2048, IOMMU off
    and strict; run with --cost."""
    return [Cell(1500, iommu=o, copybreak=b)
            for o in IOMMUS for b in (0, 2048)]


MATRICES = {"default": default_matrix, "reduced": reduced_matrix,
            "copybreak": copybreak_matrix}


def producers(cells):
    """{situation: [names of the cells that declare it]}, every situation
    of the device in its order; unreachable ones map to []."""
    out = {name: [] for name in matrix_diag.SITUATIONS}
    for c in cells:
        for name in c.situations():
            out[name].append(c.name)
    return out


def coverage_plan(cells):
    """Lines naming, per situation, the cells that declare it, or why
    none can (`run --list`)."""
    lines = []
    for name, who in producers(cells).items():
        if name in matrix_diag.UNREACHABLE:
            lines.append(f"situation {name}: unreachable: "
                         f"{matrix_diag.UNREACHABLE[name]}")
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
    for c in sorted(cells, key=lambda c: IOMMUS.index(c.iommu)):
        groups.setdefault(c.boot_key(), []).append(c)
    return [(k, sorted(v, key=lambda c: (c.module_params(), c.mtu, c.vlan,
                                         c.crc == "rxfcs")))
            for k, v in groups.items()]


# --- results and reports ---------------------------------------------------

PASS, FAIL, ERROR = "pass", "fail", "error"


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def load_results(report_dir):
    path = os.path.join(report_dir, "results.json")
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise MatrixError(f"{report_dir} is not a matrix report "
                          "(no results.json)",
                          "point at a directory written by ./e1000e-pp run")
    except ValueError as e:
        raise MatrixError(f"{path} is not valid JSON: {e}",
                          "re-run the matrix to rewrite it")
    return data


def fmt_secs(s):
    s = int(round(s))
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def progress_line(done, total, elapsed, cell_times, result):
    left = total - done
    per = (sorted(cell_times)[len(cell_times) // 2] if cell_times else 0)
    eta = f"~{fmt_secs(per * left)} left" if cell_times and left else ""
    reason = f"  {result['reason'].splitlines()[0][:70]}" \
        if result["status"] != PASS else ""
    return (f"[{done}/{total} {fmt_secs(elapsed)}{' ' + eta if eta else ''}]"
            f" {result['status'].upper():5} {result['cell']} "
            f"({result['seconds']:.1f}s){reason}")


def grid(results):
    """(mtus, configs, {(config, mtu): result}): the matrix as a grid with
    one row per configuration (the cell name without its MTU) and one
    column per MTU."""
    mtus, configs, at = set(), [], {}
    for r in results:
        mtu, _, rest = r["cell"].partition("-")
        mtu = int(mtu[3:])
        mtus.add(mtu)
        if rest not in configs:
            configs.append(rest)
        at[(rest, mtu)] = r
    def order(conf):
        crc, irq, iommu = conf.split("-")[:3]
        return (IOMMUS.index(iommu), CRCS.index(crc), IRQS.index(irq), conf)
    configs.sort(key=order)
    return sorted(mtus), configs, at


MARK = {PASS: "ok", FAIL: "FAIL", ERROR: "ERR"}


def summary_table(results, changes=None):
    """The terminal table: configurations x MTU, ok/FAIL/ERR, `*` where
    the result changed against the baseline, `.` where no cell is."""
    mtus, configs, at = grid(results)
    header = ["configuration"] + [str(m) for m in mtus]
    lines = []
    for conf in configs:
        line = [conf]
        for m in mtus:
            r = at.get((conf, m))
            mark = "." if r is None else MARK[r["status"]]
            if r and changes and r["cell"] in changes:
                mark += "*"
            if r:
                mark += matrix_cost.grid_suffix(r)
                mark += matrix_diag.grid_suffix(r)
            line.append(mark)
        lines.append(line)
    widths = [max(len(str(x[i])) for x in [header] + lines)
              for i in range(len(header))]
    out = []
    for x in [header] + lines:
        out.append("  ".join(str(v).ljust(w) for v, w in
                             zip(x, widths)).rstrip())
    return "\n".join(out)


def totals_line(results):
    n = {s: sum(r["status"] == s for r in results) for s in (PASS, FAIL,
                                                             ERROR)}
    return (f"{len(results)} cells: {n[PASS]} passed, {n[FAIL]} failed, "
            f"{n[ERROR]} errors")


def write_junit(path, results, suite="e1000e-pp.matrix"):
    ts = ET.Element("testsuite", name=suite, tests=str(len(results)),
                    failures=str(sum(r["status"] == FAIL for r in results)),
                    errors=str(sum(r["status"] == ERROR for r in results)),
                    time="%.1f" % sum(r["seconds"] for r in results))
    for r in results:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=r["cell"],
                           time="%.1f" % r["seconds"])
        props = matrix_cost.junit_properties(r) + \
            matrix_diag.junit_properties(r)
        if props:
            pe = ET.SubElement(tc, "properties")
            for k, v in props:
                ET.SubElement(pe, "property", name=k, value=v)
        if r["status"] != PASS:
            tag = "failure" if r["status"] == FAIL else "error"
            first = r["reason"].splitlines()[0] if r["reason"] else tag
            el = ET.SubElement(tc, tag, message=first)
            el.text = r["reason"]
        ET.SubElement(tc, "system-out").text = \
            "evidence: " + ", ".join(r.get("evidence", []))
    ET.ElementTree(ts).write(path, encoding="utf-8", xml_declaration=True)


def compare(results, baseline):
    """{cell: (before, after)} for the cells of this run whose status
    differs from the baseline's (None: the baseline did not run it).
    Baseline cells this run did not select are not changes."""
    before = {r["cell"]: r["status"] for r in baseline["cells"]}
    after = {r["cell"]: r["status"] for r in results}
    return OrderedDict((c, (before.get(c), after[c])) for c in sorted(after)
                       if before.get(c) != after[c])


def changes_text(changes, baseline_dir):
    if not changes:
        return f"no cell changed against the baseline {baseline_dir}"
    lines = [f"{len(changes)} cells changed against the baseline "
             f"{baseline_dir}:"]
    for c, (b, a) in changes.items():
        lines.append(f"  {c}: {b or 'absent'} -> {a or 'absent'}")
    return "\n".join(lines)


_CSS = """
body{font-family:sans-serif;margin:1em}
table{border-collapse:collapse}
td,th{border:1px solid #999;padding:2px 6px;font-size:12px;text-align:center}
td.pass{background:#c8f0c8} td.fail{background:#f4b0b0}
td.error{background:#f4d890} td.none{background:#eee}
td.changed{outline:3px solid #36c}
pre{background:#f4f4f4;padding:4px;white-space:pre-wrap}
"""


def write_html(path, meta, results, changes=None, cost_moved=None):
    """A self-contained page: the matrix as a grid (rows: configuration,
    columns: MTU), every cell linking to its evidence directory's index;
    then one section per failing cell."""
    mtus, configs, at = grid(results)
    e = html.escape
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
           f"<title>e1000e-pp matrix {e(meta.get('stamp', ''))}</title>",
           f"<style>{_CSS}</style></head><body>",
           "<h1>e1000e-pp driver regression matrix</h1>",
           "<p>" + "<br>".join(f"{e(k)}: {e(str(v))}"
                               for k, v in meta.items()) + "</p>",
           f"<p>{e(totals_line(results))}</p>",
           "<table id='grid'><tr><th>configuration \\ MTU</th>" +
           "".join(f"<th>{m}</th>" for m in mtus) + "</tr>"]
    for conf in configs:
        out.append(f"<tr><th>{e(conf)}</th>")
        for m in mtus:
            r = at.get((conf, m))
            if r is None:
                out.append("<td class='none'></td>")
                continue
            cls = r["status"] + (" changed" if changes and
                                 r["cell"] in changes else "")
            title = e(r["reason"].splitlines()[0] if r["reason"] else
                      "pass")
            out.append(f"<td class='{cls}' data-cell='{e(r['cell'])}' "
                       f"title='{title}'><a href='cells/{e(r['cell'])}/"
                       f"index.html'>{MARK[r['status']]}</a>"
                       f"{e(matrix_cost.grid_suffix(r))}"
                       f"{e(matrix_diag.grid_suffix(r))}</td>")
        out.append("</tr>")
    out.append("</table>")
    if changes:
        out.append("<h2>Changed against the baseline</h2><ul>")
        out += [f"<li>{e(c)}: {e(str(b))} &rarr; {e(str(a))}</li>"
                for c, (b, a) in changes.items()]
        out.append("</ul>")
    out.append(matrix_cost.html_section(results, cost_moved))
    out.append(matrix_diag.html_section(results))
    bad = [r for r in results if r["status"] != PASS]
    if bad:
        out.append("<h2>Failures</h2>")
        for r in bad:
            out.append(f"<h3><a href='cells/{e(r['cell'])}/index.html'>"
                       f"{e(r['cell'])}</a></h3><pre>{e(r['reason'])}</pre>")
    out.append("</body></html>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_cell_index(cell_dir, result):
    """cells/<name>/index.html: the verdict and a link per evidence file."""
    e = html.escape
    files = sorted(f for f in os.listdir(cell_dir) if f != "index.html")
    body = [f"<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<title>{e(result['cell'])}</title><style>{_CSS}</style>"
            "</head><body>",
            f"<h1>{e(result['cell'])}: {e(result['status'])}</h1>",
            f"<p>{result['seconds']:.1f} s; <a href='../../report.html'>"
            "back to the matrix</a></p>",
            f"<pre>{e(result['reason'] or 'every check passed')}</pre>",
            "<ul>"]
    body += [f"<li><a href='{e(f)}'>{e(f)}</a></li>" for f in files]
    body.append("</ul></body></html>")
    with open(os.path.join(cell_dir, "index.html"), "w") as f:
        f.write("\n".join(body) + "\n")


def write_report(report_dir, meta, results, baseline_dir=None):
    """results.json, junit.xml, summary.txt, report.html (+ changes.txt
    with a baseline). Returns (summary text, changes)."""
    changes = cost_moved = None
    if baseline_dir:
        base = load_results(baseline_dir)
        changes = compare(results, base)
        if matrix_cost.measured(results):
            cost_moved = matrix_cost.changes(results, base)
    write_json(os.path.join(report_dir, "results.json"),
               {"meta": meta, "cells": results})
    write_junit(os.path.join(report_dir, "junit.xml"), results)
    for r in results:
        d = os.path.join(report_dir, "cells", r["cell"])
        os.makedirs(d, exist_ok=True)
        write_cell_index(d, r)
    write_html(os.path.join(report_dir, "report.html"), meta, results,
               changes, cost_moved)
    text = summary_table(results, changes) + "\n" + totals_line(results)
    if matrix_cost.measured(results):
        text += "\n" + matrix_cost.table(results)
    diag = matrix_diag.text_section(results)
    if diag:
        text += "\n" + diag
    if baseline_dir:
        text += "\n" + changes_text(changes, baseline_dir)
        moved = "" if cost_moved is None else \
            "\n" + matrix_cost.changes_text(cost_moved)
        cov = matrix_diag.baseline_text(results, base)
        moved += "\n" + cov if cov else ""
        text += moved
        with open(os.path.join(report_dir, "changes.txt"), "w") as f:
            f.write(changes_text(changes, baseline_dir) + moved + "\n")
    with open(os.path.join(report_dir, "summary.txt"), "w") as f:
        f.write(text + "\n")
    return text, changes


def merge(out_dir, shard_dirs):
    """Combine shard reports into one (cells copied by symlink-free copy
    of their evidence directories). Returns the merged results."""
    import shutil
    os.makedirs(out_dir, exist_ok=True)
    results, metas = [], []
    seen = {}
    for d in shard_dirs:
        data = load_results(d)
        metas.append(data["meta"])
        for r in data["cells"]:
            if r["cell"] in seen:
                raise MatrixError(f"cell {r['cell']} is in both "
                                  f"{seen[r['cell']]} and {d}",
                                  "merge the reports of distinct shards")
            seen[r["cell"]] = d
            results.append(r)
            src = os.path.join(d, "cells", r["cell"])
            dst = os.path.join(out_dir, "cells", r["cell"])
            if os.path.isdir(src) and os.path.abspath(src) != \
                    os.path.abspath(dst):
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(src, dst)
    results.sort(key=lambda r: r["cell"])
    meta = dict(metas[0]) if metas else {}
    meta["merged_from"] = [os.path.abspath(d) for d in shard_dirs]
    meta["shard"] = "merged"
    meta["stamp"] = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    return meta, results
