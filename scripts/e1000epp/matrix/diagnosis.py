# SPDX-License-Identifier: GPL-2.0-or-later
"""DMA-fault diagnosis and situation coverage of a matrix run.

Per cell (execute.run_cell) the device's own records over QMP:

  - `dma-faults`: every failed DMA of the cell (ring, descriptor index,
    buffer address, offset, length, direction, frame=N: the N-th frame
    the receive DMA took since realize). Each fault is mapped to the
    frame the peer sent (cells/<c>/peer.pcap, frames to the guest in
    order) and to the guest's IOMMU fault line in the cell's dmesg, and
    told as one sentence (diagnose());
  - `situations`: the datapath situations the device produced, whose
    difference over the cell is what the cell hit (docs/coverage.md).

This module renders both in the terminal table, report.html, JUnit
properties and --json, and checks `run --require-coverage LIST`.
"""

import html
import os
import re
import struct

from e1000epp.matrix.situations import REACHABLE, SITUATIONS, UNREACHABLE
from e1000epp.vm import patterns

FAULT_RE = re.compile(
    r"^(?P<ns>-?\d+) frame=(?P<frame>\d+) (?P<what>[\w-]+) desc=(?P<desc>\d+)"
    r" addr=0x(?P<addr>[0-9a-f]+) offset=(?P<offset>\d+) len=(?P<len>\d+)"
    r" (?P<dir>read|write)$")
# The kernel's VT-d fault report: "DMAR: [DMA Write NO_PASID] Request
# device [00:04.0] fault addr 0xffffe000 [fault reason 0x05] PTE Write
# access is not set" (drivers/iommu/intel/dmar.c).
DMAR_RE = re.compile(r"DMAR:.*fault addr (?:0x)?(?P<addr>[0-9a-fA-F]+)"
                     r"(?P<rest>.*)")
PAGE = 4096

# Read over QMP at a cell's start and end.
QOM_START = ("situations", "dma-fault-count", "rx-delivered")
QOM_END = QOM_START + ("dma-faults",)


def parse_situations(text):
    """{name: count} from the `situations` property."""
    out = {}
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            out[parts[0]] = int(parts[1])
    return out


def parse_faults(text):
    out = []
    for line in (text or "").splitlines():
        m = FAULT_RE.match(line.strip())
        if m:
            d = m.groupdict()
            out.append({"ns": int(d["ns"]), "frame": int(d["frame"]),
                        "what": d["what"], "desc": int(d["desc"]),
                        "addr": int(d["addr"], 16),
                        "offset": int(d["offset"]), "len": int(d["len"]),
                        "dir": d["dir"]})
    return out


def hit(before, after):
    """{name: count} of the situations that moved between two readings."""
    return {k: after[k] - before.get(k, 0) for k in after
            if after[k] > before.get(k, 0)}


def peer_frames(pcap_path, peer_mac):
    """Frames the peer sent in a cell, in order (its pcap)."""
    try:
        frames = patterns.read_pcap(pcap_path)
    except (OSError, patterns.HarnessError):
        return []
    src = patterns.mac_bytes(peer_mac)
    return [f for _, f in frames if f[6:12] == src]


def describe_frame(f):
    """What a frame is, by the sequence number its sender gave it."""
    off = 12
    vlan = ""
    if len(f) >= 18 and f[12:14] == b"\x81\x00":
        vlan = f" VLAN {struct.unpack_from('>H', f, 14)[0] & 0xfff}"
        off = 16
    if len(f) < off + 2:
        return f"a {len(f)}-byte frame"
    etype = struct.unpack_from(">H", f, off)[0]
    p = off + 2
    if etype == patterns.PP_ETHERTYPE and len(f) >= p + 14:
        _magic, run, seq, length = struct.unpack_from(">IIIH", f, p)
        return (f"pattern frame seq {seq} of run {run:#x} "
                f"({length} bytes{vlan})")
    if etype == 0x0800 and len(f) >= p + 20:
        ihl = (f[p] & 0xf) * 4
        proto, ipid = f[p + 9], struct.unpack_from(">H", f, p + 4)[0]
        if proto == 6 and len(f) >= p + ihl + 8:
            seq = struct.unpack_from(">I", f, p + ihl + 4)[0]
            return f"TCP segment seq {seq} ({len(f)} bytes{vlan})"
        kind = "UDP datagram" if proto == 17 else f"IPv4 proto {proto}"
        return f"{kind} IP id {ipid} ({len(f)} bytes{vlan})"
    return f"a {len(f)}-byte frame of type {etype:#06x}{vlan}"


def dmar_lines(dmesg_lines):
    out = []
    for ln in dmesg_lines:
        m = DMAR_RE.search(ln)
        if m:
            out.append((int(m.group("addr"), 16), ln.strip()))
    return out


def _why(f, dmar, dmar_addr, iommu, injected=False):
    """The reading of a fault, from what the evidence shows. The device
    lists the failed write whole; the IOMMU's fault address says where
    in it the mapping ended. injected: the cell armed the device's
    x-dma-fault-writes knob (its event list says so)."""
    rx_data = f["what"] == "rx-data"
    start = f["addr"] + f["offset"]
    if rx_data and injected and not dmar:
        return ("rejected on demand by the device (x-dma-fault-writes), as "
                "an IOMMU rejects a write to a page it does not map: the "
                "descriptor was written back, the buffer kept its old "
                "bytes")
    if rx_data and dmar_addr is not None and \
            dmar_addr // PAGE > start // PAGE:
        return (f"the mapping ends {dmar_addr - f['addr']} bytes into the "
                "buffer: a buffer posted (mapped) shorter than BSIZE")
    if rx_data and f["offset"] and not dmar:
        return (f"the buffer took {f['offset']} bytes, no more: a buffer "
                "posted shorter than BSIZE")
    if dmar and "Write access" in dmar:
        return "the IOMMU maps the page read-only"
    if dmar:
        return ("the IOMMU has no mapping for it: a page unmapped (freed) "
                "while still posted")
    if iommu:
        return ("refused with no IOMMU fault in the guest's log: bus "
                "mastering off or D3hot (see the device's events)")
    return ("no memory answers there: outside guest memory, or bus "
            "mastering off / D3hot (see the device's events)")


def diagnose(faults, delivered0, frames, dmesg_lines, iommu=False,
             injected=False):
    """One dict per fault, with its evidence and a one-sentence reading.
    delivered0: the device's rx-delivered at the start of the cell (frame
    numbers are counted from realize); frames: the peer's frames of the
    cell in order."""
    dmar = dmar_lines(dmesg_lines)
    out = []
    for f in faults:
        ring = "Rx ring 0" if f["what"].startswith("rx") else "Tx ring 0"
        d = dict(f, ring=ring, peer=None, dmesg=None)
        # Only a data write belongs to one frame for sure (a write-back
        # may carry an earlier frame's descriptors, a fetch none).
        if f["what"] == "rx-data" and f["frame"]:
            k = f["frame"] - delivered0
            if 1 <= k <= len(frames):
                d["peer"] = f"the peer's frame #{k} of the cell: " + \
                    describe_frame(frames[k - 1])
        first = (f["addr"] + f["offset"]) // PAGE
        last = (f["addr"] + f["offset"] + max(f["len"], 1) - 1) // PAGE
        dmar_addr = None
        for a, ln in dmar:
            if first <= a // PAGE <= last:
                d["dmesg"], dmar_addr = ln, a
                break
        d["why"] = _why(f, d["dmesg"], dmar_addr, iommu, injected)
        op = "write" if f["dir"] == "write" else "read"
        s = (f"{ring} descriptor {f['desc']} ({f['what']}): {op} of "
             f"{f['len']} bytes at offset {f['offset']} of buffer "
             f"{f['addr']:#x} failed")
        if d["peer"]:
            s += f", carrying {d['peer']}"
        s += f" -- {d['why']}"
        if d["dmesg"]:
            s += f"; guest: \"{d['dmesg']}\""
        d["sentence"] = s + "."
        out.append(d)
    return out


def unread(start, end):
    """The QMP readings of a cell's start and end that failed, each as
    "NAME at the cell's start|end" (a counter not a number, a list not a
    text, situations that name no counter or other counters than the
    other reading's): with one of them the cell's situations or DMA
    faults would be counted against nothing, i.e. since boot."""
    out = []
    sits = [parse_situations(r.get("situations"))
            if isinstance(r.get("situations"), str) else None
            for r in (start, end)]
    for i, (when, got, names) in enumerate((("start", start, QOM_START),
                                            ("end", end, QOM_END))):
        for name in names:
            v = got.get(name)
            if name == "situations":
                ok = bool(sits[i]) and (sits[1 - i] is None or
                                        not sits[1 - i] or
                                        set(sits[i]) == set(sits[1 - i]))
            elif name == "dma-faults":
                ok = isinstance(v, str)
            else:
                ok = isinstance(v, int) and not isinstance(v, bool)
            if not ok:
                out.append(f"{name} at the cell's {when}")
    return out


def cell_end(start, end, cell_dir, peer_mac, iommu, injected=False):
    """(faults diagnosed, coverage) of a cell from the QMP readings at
    its start and end (None where the device has no such property);
    injected: the cell armed x-dma-fault-writes. Coverage is None unless
    both readings of the situations are whole (unread() names the one
    that failed): a difference against a failed first read would be
    every situation since boot."""
    faults, coverage = [], None
    bad = unread(start, end)
    if not any(b.startswith("situations ") for b in bad):
        after = parse_situations(end["situations"])
        before = parse_situations(start["situations"])
        coverage = {"known": list(after), "hit": hit(before, after)}
    n0, n1 = start.get("dma-fault-count"), end.get("dma-fault-count")
    if isinstance(n0, int) and isinstance(n1, int) and n1 > n0:
        listed = parse_faults(end.get("dma-faults"))
        new = listed[-(n1 - n0):]
        try:
            with open(os.path.join(cell_dir, "dmesg.txt")) as f:
                dmesg = f.read().splitlines()
        except OSError:
            dmesg = []
        frames = peer_frames(os.path.join(cell_dir, "peer.pcap"), peer_mac)
        faults = diagnose(new, start.get("rx-delivered") or 0, frames,
                          dmesg, iommu, injected)
    return faults, coverage


# -- reports ---------------------------------------------------------------

def parse_required(text):
    """The names of --require-coverage (comma-separated); `all` stands
    for every reachable situation, `-NAME` takes one out again (e.g.
    `all,-hdr-split` for a driver that never programs packet split)."""
    out, dropped = [], []
    for w in (text or "").split(","):
        w = w.strip()
        if w.startswith("-"):
            dropped.append(w[1:])
            continue
        for name in (REACHABLE if w == "all" else [w] if w else []):
            if name not in out:
                out.append(name)
    return [n for n in out if n not in dropped] + \
        [n for n in dropped if n not in SITUATIONS]


def run_coverage(results):
    """(names known, {name: cells that hit it}) over a run's cells."""
    known, by = [], {}
    for r in results:
        cov = r.get("coverage")
        if not cov:
            continue
        for name in cov.get("known", []):
            if name not in known:
                known.append(name)
        for name in cov.get("hit", {}):
            by.setdefault(name, []).append(r["cell"])
    return known, by


def missing(results, required):
    known, by = run_coverage(results)
    return [n for n in required if n not in by]


def unknown(required):
    return [n for n in required if n not in SITUATIONS]


def check_required(results, required):
    """A message naming the required situations the run never reached
    (None when every one was)."""
    miss = missing(results, required)
    if not miss:
        return None
    return (f"--require-coverage: {len(miss)} required situation"
            f"{'s' if len(miss) > 1 else ''} never reached in this run: "
            f"{', '.join(miss)}")


def baseline_text(results, baseline):
    """The situations this run reached that the baseline did not, and the
    other way round; the change in DMA faults. As in matrix_report.compare,
    baseline cells this run did not select are left out."""
    ran = {r["cell"] for r in results}
    base = [r for r in baseline.get("cells", []) if r.get("cell") in ran]
    _, now = run_coverage(results)
    known, before = run_coverage(base)
    if not known:
        return ""
    gained = sorted(set(now) - set(before))
    lost = sorted(set(before) - set(now))
    f0 = sum(len(r.get("faults") or []) for r in base)
    f1 = sum(len(r.get("faults") or []) for r in results)
    return (f"coverage against the baseline: newly reached "
            f"{', '.join(gained) or '(none)'}; no longer reached "
            f"{', '.join(lost) or '(none)'}; DMA faults {f0} -> {f1}")


def grid_suffix(r):
    n = len(r.get("faults") or [])
    return f" F{n}" if n else ""


def text_section(results):
    lines = []
    faulted = [r for r in results if r.get("faults")]
    if faulted:
        lines.append("DMA faults:")
        for r in faulted:
            for d in r["faults"]:
                lines.append(f"  {r['cell']}: {d['sentence']}")
    known, by = run_coverage(results)
    if known:
        lines.append("situation coverage (cells that hit each):")
        for name in known:
            cells = by.get(name, [])
            why = UNREACHABLE.get(name)
            lines.append(f"  {name:20} {len(cells):3d}"
                         + ("" if cells else "  never reached")
                         + (f" (unreachable: {why})" if why else ""))
        never = [n for n in known if n not in by]
        lines.append(f"never reached in this run: "
                     f"{', '.join(never) if never else '(none)'}")
    return "\n".join(lines)


def junit_properties(r):
    out = []
    for i, d in enumerate(r.get("faults") or []):
        out.append((f"dma_fault.{i}", d["sentence"]))
    cov = r.get("coverage")
    if cov:
        out.append(("situations", ",".join(sorted(cov.get("hit", {})))))
        for k, v in sorted(cov.get("hit", {}).items()):
            out.append((f"situation.{k}", str(v)))
    return out


def html_section(results):
    e = html.escape
    out = []
    faulted = [r for r in results if r.get("faults")]
    if faulted:
        out.append("<h2 id='dma-faults'>DMA faults</h2><ul>")
        for r in faulted:
            for d in r["faults"]:
                out.append(f"<li><b>{e(r['cell'])}</b>: "
                           f"{e(d['sentence'])}</li>")
        out.append("</ul>")
    known, by = run_coverage(results)
    if known:
        cells = [r for r in results if r.get("coverage")]
        out.append("<h2 id='coverage'>Situation coverage</h2>"
                   "<p>Datapath situations the device produced in each "
                   "cell (docs/coverage.md); a blank row was never reached."
                   "</p><table id='coverage-table'><tr><th>situation</th>"
                   + "".join(f"<th>{e(r['cell'])}</th>" for r in cells)
                   + "</tr>")
        for name in known:
            row = "".join(
                f"<td>{r['coverage']['hit'].get(name, '')}</td>"
                for r in cells)
            cls = "" if name in by else " class='never'"
            out.append(f"<tr{cls}><th>{e(name)}</th>{row}</tr>")
        out.append("</table>")
        never = [n for n in known if n not in by]
        out.append(f"<p id='never-reached'>Never reached: "
                   f"{e(', '.join(never) if never else '(none)')}</p>")
    return "\n".join(out)
