# SPDX-License-Identifier: GPL-2.0-or-later
"""Run matrix cells in VMs (vm/harness.py: QEMU, peer, agent) and give
each its verdict (the steps: matrix.traffic; the readers:
matrix/guest_io.py).

One boot per boot group of cell_model.plan(); inside a boot every cell
configures the guest at run time (module reload with the cell's
parameters when they change, MTU, rx-fcs, a VLAN device), sends its
traffic and collects its evidence into cells/<name>/:

  verdict.json     every check, its expected and observed values
  traffic.log      the agent's and peer's counters per traffic step
  peer.pcap        every frame the peer sent or received in this cell
  dmesg.txt        the kernel log lines of this cell, scan.txt what matched
  ethtool-S.txt    the driver's counters (difference over the cell)
  device.json      the device's own counters over QMP (qom-get nic0)
  interrupts.txt   /proc/interrupts lines of eth0
  tcpsink.log      every TCP segment the peer's sink saw
  diag.json        the DMA faults diagnosed (diagnosis.py) and the
                   datapath situations the device produced in the cell
  layout.json      the receive buffer layout the driver programmed
                   (RCTL, PSRCTL, RFCTL read from the device) and the
                   FCS placement of every pattern frame length
  events.txt       the device's event list (knob changes) of the cell
  kmemleak.txt     with --debug-kernel, what kmemleak's scan at the
                   cell's end listed (matrix/sanitizers.py)
  pools.json       the page pools of eth0 and their pages in flight at
                   the cell's start and end (matrix/page_pools.py)
  frames.json      every frame counted at every boundary: the peer's,
                   device's and guest kernel's counts at the cell's
                   start and end, frames unaccounted per boundary
                   (matrix/frame_count.py), TCP retransmissions
  guest_cost.json        with --cost: the window's guest instructions (TCG
                   plugin), IOTLB invalidations and per-packet figures
                   (matrix/guest_cost.py, docs/cost.md)
"""

import os
import re
import time

from e1000epp.matrix import (boot_dirs, buffer_layout, cell_model, diagnosis,
                             families, frame_count, guest_cost, page_pools,
                             report, sanitizers, vectors)
from e1000epp.matrix.guest_io import (Checks, Guest, boot_args, cell_observed,
                                      check_iommu, check_irq_mode, configure,
                                      ethtool_stats, new_events, read_device,
                                      read_layout, read_qom, read_taint,
                                      scan_dmesg, sh, tcp_retransmits)
from e1000epp.matrix.cell_recording import finish_recording
from e1000epp.matrix.traffic_context import TrafficContext
from e1000epp.matrix.traffic_cost import (measured_traffic, record_cost,
                                          rx_burst)
from e1000epp.matrix.traffic_frames import DMA_FAULTS, ERR_MARKED, REPEAT
from e1000epp.matrix.traffic_streams import UDP_COUNT
from e1000epp.replay import recording
from e1000epp.vm import device_events, harness

# Device counters that must not move during a cell (but for the faults
# the DMA-fault cell asks for).
DEVICE_MUST_STAY = ("rx-dma-error", "dma-errors", "pm-violations")
# Device drop counters: 0 in every cell unless its family expects drops
# (a burst's rx-missed is the agent's missing frames, checked there).
DEVICE_DROPS = ("rx-missed", "rx-not-ready", "rx-flushed", "rx-oversize",
                "rx-undersize", "rx-errored")


def check_expected_faults(checks, faults, lost, tlog):
    """The DMA-fault cell: exactly the faults it asked for, each naming
    the pattern frame the agent lost, read as an injected rejection."""
    checks.eq("DMA faults the device listed", len(faults), DMA_FAULTS)
    named = []
    for d in faults:
        tlog(f"fault: {d['sentence']}")
        m = re.search(r"pattern frame seq (\d+) of run", d.get("peer") or "")
        named.append(int(m.group(1)) if m else None)
        checks.true("the fault's diagnosis names the injected rejection",
                    cell_model.KNOBS["dma-fault-writes"] in d["sentence"] and
                    d["what"] == "rx-data", d["sentence"])
    checks.eq("the faulted frames are the ones the agent lost (pattern "
              "seq)", named, lost)


def layout_declared(cell, layout):
    """(situations the cell must produce, {situation: why not}): those
    that depend on the buffer layout go only where the layout the driver
    programmed allows them (a driver without packet split splits no
    header; an FCS placement needs a buffer boundary within MTU + 14)."""
    need, moot = [], {}
    for name in cell.situations():
        why = None
        if layout and name == "hdr-split" and \
                layout["format"] != "packet-split":
            why = f"the driver programmed {layout['format']} descriptors"
        if layout and name in ("fcs-straddle", "fcs-alone"):
            kind = name[4:]
            lens = layout["fcs_lengths"] + list(cell.frame_lengths())
            if not any(buffer_layout.placement(layout, n) == kind
                       for n in lens):
                why = (f"no buffer boundary of the layout {layout['first']}"
                       f" / {layout['next']} is within a frame of MTU + 14")
        if why:
            moot[name] = why
        else:
            need.append(name)
    return need, moot


# Linux e1000e's copybreak when the cell sets none (COPYBREAK_DEFAULT).
COPYBREAK_DEFAULT = 256
# Frames every cell receives shorter than any copybreak of ours but 0:
# its 60-byte pattern frames (REPEAT of them) and the peer's echoes of
# its 64-byte UDP datagrams (traffic_streams.UDP_COUNT, 106 bytes each).
SMALL_FRAMES = REPEAT + UDP_COUNT


class IotlbFills:
    """The emulated IOMMU's IOTLB fills (its page walks for the NIC's
    DMA) over a cell's traffic, from QEMU's trace log (-D)."""

    def __init__(self, vm):
        self.vm = vm
        self.path = guest_cost.trace_path(str(vm.report_dir))
        self.offset = os.path.getsize(self.path) \
            if os.path.exists(self.path) else 0
        vm.qmp.execute("trace-event-set-state", name=guest_cost.FILL_EVENT,
                       enable=True)

    def stop(self):
        self.vm.qmp.execute("trace-event-set-state",
                            name=guest_cost.FILL_EVENT, enable=False)
        return guest_cost.count_events(self.path, self.offset)[1]


COPYBREAK_PARAM = "/sys/module/e1000e/parameters/copybreak"
# driver_copybreak() when the loaded driver has no such parameter.
NO_COPYBREAK = "absent"


def driver_copybreak(vm):
    """The loaded e1000e's copybreak parameter: its value, NO_COPYBREAK
    when the driver has none (the guest says so, not an empty answer),
    None when it cannot be read."""
    rc, out = sh(vm, f"if test -e {COPYBREAK_PARAM}; then cat "
                 f"{COPYBREAK_PARAM}; else echo {NO_COPYBREAK}; fi",
                 check=False)
    out = out.strip()
    if rc == 0 and out == NO_COPYBREAK:
        return NO_COPYBREAK
    return int(out) if rc == 0 and out.isdigit() else None


def check_copybreak(checks, cell, delta, driver_copybreak, driver=None):
    """One buffer per frame (the extended / legacy layouts Linux uses up
    to MTU 1500): every buffer the device filled is one the driver either
    re-posted (a frame shorter than copybreak, copied into a new skb by
    e1000_clean_rx_irq) or replaced with a new one (the device's per-slot
    tracking, rx-buf-reposted / rx-buf-new). Copybreak 0 copies nothing;
    any other of ours copies at least the cell's small frames (without
    the IOMMU: see below). A parameter that cannot be read fails the
    check; one absent is accepted but from Debian's own driver (driver:
    cell_model.DRIVER_STOCK), which has it."""
    layout = checks.layout
    if not layout or layout["format"] == "packet-split" or cell.family:
        # Packet split: buffer 0 is a new skb for every frame. A family's
        # event (a fault, a link drop, a reset) re-posts buffers of its
        # own, so only the plain cells show copybreak alone.
        return
    biggest = cell.mtu + 14 + (4 if cell.vlan else 0) + \
        (4 if cell.fcs_kept() else 0)
    if layout["first"][0] < biggest:
        # Frames chained over buffers (the page-pool series' 2 KB chunks
        # above MTU 2026): buffers are not frames.
        return
    new, again = delta.get("rx-buf-new"), delta.get("rx-buf-reposted")
    got = delta.get("rx-delivered")
    checks.eq("receive buffers new + re-posted = frames delivered "
              "(rx-buf-new, rx-buf-reposted)",
              None if new is None or again is None else new + again, got)
    if driver_copybreak is None:
        checks.true(f"the loaded driver's copybreak read ({COPYBREAK_PARAM})",
                    False, "unreadable (no number, no word that it is "
                    "absent): the copybreak bound cannot be checked")
        return
    if driver_copybreak == NO_COPYBREAK:
        # The driver has no copybreak (the page-pool series removed it):
        # its re-posts are the pool recycling pages, nothing to bound.
        checks.true(f"the loaded driver's copybreak ({COPYBREAK_PARAM})",
                    driver != cell_model.DRIVER_STOCK,
                    "absent, but the run's driver is Debian's e1000e, "
                    "which has the parameter")
        return
    cb = COPYBREAK_DEFAULT if cell.copybreak is None else cell.copybreak
    checks.eq(f"the loaded driver's copybreak ({COPYBREAK_PARAM})",
              driver_copybreak, cb)
    if cell.iommu != "noiommu":
        # The device knows a buffer by its bus address. e1000_clean_rx_irq
        # unmaps the buffer it keeps and the refill maps it again: under
        # the IOMMU (iommu.strict=1) that is a fresh IOVA as often as not
        # (8 of 11 copies seen as re-posts in mtu1500-rxfcs-intx-iommu),
        # and a new buffer can land on an IOVA used before; a bounce
        # slot likewise. So re-posts are judged on direct DMA only.
        return
    if cb == 0:
        checks.eq("copybreak=0: buffers re-posted (every frame goes up in "
                  "its own buffer)", again, 0)
    else:
        checks.true(f"copybreak={cb}: buffers re-posted >= the cell's "
                    f"{SMALL_FRAMES} small frames (copied, buffer kept)",
                    again is not None and again >= SMALL_FRAMES,
                    f"re-posted {again}")


def check_qom_reads(checks, device, observed, start, end):
    """The device's readings at the cell's start and end
    (diagnosis.QOM_START, QOM_END): each one that failed fails the cell
    naming it, for the situations and DMA faults of the cell cannot be
    told from counts since boot without it (the stock e1000e, which
    keeps none, fails once: its cell's purpose cannot be checked)."""
    if not observed:
        checks.true("the device's situations read (QMP)", False,
                    f"{device} has no situations counters: the cell's "
                    "purpose cannot be checked")
        return
    for what in diagnosis.unread(start, end):
        name, _, when = what.partition(" at the cell's ")
        got = repr((start if when == "start" else end).get(name))
        checks.true(f"the device's {what} read (QMP qom-get)", False,
                    f"read failed (got {got[:60]}): the cell's situations "
                    "and DMA faults are not judged on counts since boot")


# What a dying kernel prints (a sanitizer's report, an oops, a panic),
# searched in the console's last CRASH_LINES lines.
CRASH = re.compile(r"BUG:|KASAN|Oops|general protection|kernel panic|"
                   r"WARNING:")
CRASH_LINES = 200


def crash_report(vm, checks, error):
    """A guest that died in the cell (QEMU gone or its agent's
    connection closed) wrote its last words on the console, never into
    the dmesg the cell reads: its kernel's report lines (KASAN, Oops,
    BUG, panic, ...) fail the cell as a check, so an error cell still
    says what the kernel saw."""
    machine = getattr(vm, "machine", None)
    dead = (machine is not None and not machine.is_running()) or \
        "agent connection closed" in error or "did not answer" in error
    if not dead:
        return
    try:
        text = vm.console_text()
    except (OSError, AttributeError):
        return
    # Its last words: earlier lines belong to earlier cells.
    lines = [ln.strip() for ln in text.splitlines()[-CRASH_LINES:]
             if CRASH.search(ln)]
    if lines:
        checks.true("the guest kernel's report on the console before it "
                    "died", False, "; ".join(lines[:4]))


def hang_events(events):
    """The Tx-hang cell's device events, in order: the knob set, the
    driver's software resets, the knob cleared (consecutive resets of
    one reset task counted once)."""
    out = []
    for ln in events:
        if "knob-tx-hold" in ln:
            fields = device_events.fields(ln)
            value = int(fields["value"], 16) if "value" in fields else None
            out.append(f"knob-tx-hold {value}")
        elif "ctrl-rst" in ln and (not out or out[-1] != "ctrl-rst"):
            out.append("ctrl-rst")
    return out


def expected_drops(cell, burst, step_drops=None):
    """The device's drop counters over the cell: 0 but for what the
    cell's family makes (the frames its knob marks and the device drops
    without rx-all; a burst's MPC, which the burst step ties to the
    agent's missing frames; the frames a step held on the chip until a
    reset flushed them, which it counts)."""
    want = {k: 0 for k in DEVICE_DROPS}
    fam = cell.family
    if fam and fam.knob and fam.knob.startswith("error-") and \
            not fam.delivered:
        # An oversize frame is counted as such, the others as errored.
        want["rx-oversize" if fam.knob == "error-oversize" else
             "rx-errored"] = ERR_MARKED
    if burst:
        want["rx-missed"] = burst["rx-missed"]
    for k, n in (step_drops or {}).items():
        want[k] += n
    if fam and (fam.knob in ("link-drop", "reset-delay") or fam.suspend or
                fam.sleep):
        # Frames arriving with the cable out or the function asleep are
        # the event itself (the peer's source resends them).
        del want["rx-not-ready"]
    return want


def run_cell(vm, g, cell, index, cell_dir, log, window=None,
             bound=cell_model.TRAFFIC_TIMEOUT, driver=None, last=False):
    os.makedirs(cell_dir, exist_ok=True)
    t0 = time.monotonic()
    checks = Checks()
    tlog_f = open(os.path.join(cell_dir, "traffic.log"), "w")

    def tlog(text):
        tlog_f.write(f"{time.monotonic() - t0:8.2f} {text}\n")
        tlog_f.flush()

    status, reason = cell_model.PASS, ""
    metrics = coverage = None
    faults = []
    try:
        vm.peer.command(f"PCAP {os.path.join(cell_dir, 'peer.pcap')}")
        configure(vm, g, cell, tlog)
        check_irq_mode(vm, cell, checks, cell_dir)
        check_iommu(vm, cell, checks)
        checks.layout = read_layout(vm, cell, cell_dir, checks, tlog)
        taint0 = read_taint(vm, checks)
        new_events(vm, g, cell_dir, checks)
        stats0 = ethtool_stats(vm, checks=checks)
        retrans0 = tcp_retransmits(vm)
        dev0 = read_device(vm)
        diag0 = read_qom(vm, diagnosis.QOM_START)
        peer0 = vm.peer.stats()
        frames0 = frame_count.begin(vm, g, checks, tlog)
        vectors0 = vectors.read_start(vm)
        pools0 = page_pools.begin(vm, checks, tlog, driver)
        sanitizers.begin(vm, g, checks)
        fills = IotlbFills(vm) if cell.iommu == "iommu" and \
            window is None else None
        ctx = TrafficContext(vm, cell, 0x10000 + index * 16, checks,
                             cell_dir, tlog, bound, driver)
        raw, buf = measured_traffic(ctx, window)
        if fills is not None:
            fills = fills.stop()
        elif raw is not None and cell.iommu == "iommu":
            fills = raw.get("fills")
        if cell.iommu == "iommu":
            tlog(f"IOTLB fills over the traffic: {fills}")
            checks.true("IOTLB fills over the traffic (intel-iommu "
                        f"{guest_cost.FILL_EVENT}): the device's DMA "
                        "translated",
                        bool(fills), f"{fills} fills")
        stats1 = ethtool_stats(vm, checks=checks)
        if raw is not None:
            burst = rx_burst(ctx, 0x800000 + index * 16, window)
            metrics = record_cost(cell_dir, raw, buf, stats0, stats1, burst)
        dev1 = read_device(vm)
        peer1 = vm.peer.stats()
        retrans1 = tcp_retransmits(vm)
        events = new_events(vm, g, cell_dir, checks)
        with open(os.path.join(cell_dir, "ethtool-S.txt"), "w") as f:
            for k in sorted(stats1):
                d = stats1[k] - stats0.get(k, 0)
                if d:
                    f.write(f"{k}: +{d}\n")
        delta = {k: (dev1[k] - dev0[k]) if isinstance(dev1[k], int) and
                 isinstance(dev0[k], int) else None for k in dev1}
        report.write_json(os.path.join(cell_dir, "device.json"),
                          {"before": dev0, "after": dev1,
                           "delta": delta})
        if checks.layout:
            report.write_json(os.path.join(cell_dir, "layout.json"),
                              checks.layout)
        observed = cell_observed(vm)
        fam = cell.family
        unread = [k for k, v in delta.items() if v is None]
        if observed and unread:
            checks.true("device counters read (QMP)", False,
                        "unreadable: " + ", ".join(unread))
        faulted = DMA_FAULTS if fam and fam.knob == "dma-fault-writes" \
            else 0
        for k in DEVICE_MUST_STAY:
            if delta.get(k) is not None:
                want = faulted if k == "dma-errors" else 0
                checks.eq(f"device counter {k} (QMP)" +
                          (" unchanged" if not want else ""), delta[k], want)
        if observed:
            check_copybreak(checks, cell, delta, driver_copybreak(vm),
                            driver)
            want = expected_drops(cell, checks.burst, checks.step_drops)
            checks.eq("device drop counters over the cell (QMP)",
                      {k: delta.get(k) for k in want}, want)
        sd = {k: stats1.get(k, 0) - stats0.get(k, 0) for k in stats1}
        per = fam.stats if fam and fam.knob and \
            fam.knob.startswith("error-") else {}
        want = {k: per.get(k, 0) * ERR_MARKED for k in cell_model.ERROR_STATS}
        if stats1:
            checks.eq("ethtool -S error counters over the cell (the "
                      "driver's)", {k: sd.get(k) for k in want}, want)
        frames = frame_count.judge(
            vm, checks, cell, frames0, None if retrans0 is None or
            retrans1 is None else retrans1 - retrans0, tlog)
        if frames is not None:
            report.write_json(os.path.join(cell_dir, "frames.json"), frames)
        vectors.judge(vm, checks, cell, vectors0, tlog)
        pools = page_pools.judge(vm, checks, pools0, tlog)
        sanitizers.judge(vm, g, checks, cell_dir)
        scan_dmesg(vm, g, cell, cell_dir, checks, taint0)
        diag1 = read_qom(vm, diagnosis.QOM_END)
        faults, coverage = diagnosis.cell_end(
            diag0, diag1, cell_dir,
            harness.PEER_MAC, cell.iommu == "iommu",
            injected=any("knob-dma-fault-writes" in ln for ln in events))
        check_qom_reads(checks, vm.device, observed, diag0, diag1)
        if faulted:
            check_expected_faults(checks, faults, checks.lost_seqs, tlog)
        else:
            for d in faults:
                checks.true("DMA fault", False, d["sentence"])
        hit = (coverage or {}).get("hit", {})
        declared, moot = layout_declared(cell, checks.layout)
        if coverage is not None:
            coverage["declared"] = declared
            if moot:
                coverage["not_possible"] = moot
        if coverage is not None:
            # The driver's counters against the device's, over the cell.
            pd = {k: peer1[k] - peer0[k] for k in ("pause_xoff",
                                                   "pause_xon")}
            if stats1:
                checks.eq("driver = device: rx_missed_errors = rx-missed, "
                          "rx_no_buffer_count = RNBC, tx_flow_control_xoff "
                          "= XOFF sent",
                          (sd.get("rx_missed_errors"),
                           sd.get("rx_no_buffer_count"),
                           sd.get("tx_flow_control_xoff")),
                          (delta.get("rx-missed"), hit.get("rnbc", 0),
                           hit.get("xoff-sent", 0)))
                checks.eq("PAUSE frames the peer received = the driver's "
                          "tx_flow_control_xoff/xon",
                          (pd["pause_xoff"], pd["pause_xon"]),
                          (sd.get("tx_flow_control_xoff"),
                           sd.get("tx_flow_control_xon")))
            for name in declared:
                checks.produced(name, hit.get(name, 0))
        if fam and fam.knob == "link-drop":
            seen = [w for w in ("knob-link-drop-ms", "knob-link-return")
                    if any(w in ln for ln in events)]
            checks.eq("device events of the link drop", seen,
                      ["knob-link-drop-ms", "knob-link-return"])
        if fam and fam.knob == "tx-hold":
            checks.eq("the driver's tx_timeout_count over the cell "
                      "(ethtool -S)", sd.get("tx_timeout_count"),
                      0 if checks.hang_reset_by == "down" else 1)
            checks.eq("device events of the Tx hang", hang_events(events),
                      ["knob-tx-hold 1", "ctrl-rst", "knob-tx-hold 0"])
        if fam and (fam.suspend or fam.knob == "reset-delay"):
            checks.true("device events: the PME that woke it",
                        any("pme reg=0x05810 value=0x00000001" in ln
                            for ln in events), "; ".join(events[-5:]))
        if pools is not None:
            # Last: the interface goes down (every device read is done).
            if last and pools["pools"]:
                pools["after_down"] = page_pools.after_down(
                    vm, checks, tlog, pools0[0])
            report.write_json(os.path.join(cell_dir, "pools.json"), pools)
        report.write_json(os.path.join(cell_dir, "diag.json"),
                          {"faults": faults, "coverage": coverage})
        fails = checks.failures()
        if fails:
            status, reason = cell_model.FAIL, "\n".join(fails)
    except (harness.HarnessError, guest_cost.CostError, OSError, KeyError,
            ValueError) as e:
        status = cell_model.ERROR
        reason = f"{type(e).__name__}: {e}"
        crash_report(vm, checks, str(e))
        fails = checks.failures()
        if fails:
            reason += "\nchecks failed before the error:\n" + \
                "\n".join(fails)
    finally:
        tlog_f.close()
    report.write_json(os.path.join(cell_dir, "verdict.json"),
                      {"cell": cell.name, "status": status,
                       "checks": checks.items, "reason": reason})
    out = cell.result(status, reason, round(time.monotonic() - t0, 2),
                      sorted(os.listdir(cell_dir)))
    if metrics is not None:
        out["cost"] = metrics
    if faults:
        out["faults"] = faults
    if coverage is not None:
        out["coverage"] = coverage
    return out


def run_cells(cells, device, report_dir, peer_bin, guest_dir=None,
              on_result=print, on_boot=print, measure_cost=False,
              traffic_timeout=cell_model.TRAFFIC_TIMEOUT, keep_state=False,
              driver=None, record=None):
    """Run cells (in cell_model.plan order); returns (results, boots).
    measure_cost: load the cost plugin and measure every cell's traffic
    (matrix/guest_cost.py). traffic_timeout: seconds a cell waits for
    pattern frames (lost ones never come). keep_state: after a failing
    cell (FAIL, or ERROR with QEMU still up) save the VM into
    cells/<name>/state (matrix/kept_state.py); the guest then runs on
    as after any cell.
    driver: the driver under test as the run's options name it
    (cell_model.DRIVER_STOCK, DRIVER_SERIES; None: the user's own, told
    in the guest).
    record: None, or cell_recording.Options: every boot group is one
    cell (the caller split them), recorded under QEMU's record/replay
    into cells/<name>/replay (replay/recording.py)."""
    results, boots = [], 0
    index = 0
    for boot_key, group in cell_model.plan(cells):
        pending = list(group)
        while pending:
            dev_args, append = boot_args(boot_key)
            boots += 1
            boot_dir = boot_dirs.new_boot_dir(report_dir,
                                              f"{boots:02d}-{boot_key}")
            extra = []
            iommu = boot_key.partition("+")[0] == "iommu"
            if measure_cost:
                extra = guest_cost.qemu_args(boot_dir, iommu)
            elif iommu:
                # QEMU's trace log, where the cells count IOTLB fills.
                extra = ["-D", guest_cost.trace_path(boot_dir)]
            recorder = None
            if record:
                recorder = recording.Recorder(os.path.join(
                    report_dir, "cells", pending[0].name),
                    snapshots=record.snapshots)
                extra += recorder.qemu_args()
                append += " " + recorder.append
            vm = harness.Vm(device, boot_dir, append="e1000epp.load=0 " +
                            append, device_args=dev_args,
                            guest_dir=guest_dir, extra_args=extra,
                            bzimage=boot_key.partition("+")[2] in
                            families.BZIMAGE_BOOTS,
                            # Knobs into the replay log, not over QMP.
                            knob_channel=bool(recorder) and
                            device == "e1000e-pp")
            if recorder:
                recorder.attach(vm)
            t0 = time.monotonic()
            try:
                vm.start(peer_bin)
            except harness.HarnessError as e:
                vm.stop()
                for cell in pending:
                    d = os.path.join(report_dir, "cells", cell.name)
                    os.makedirs(d, exist_ok=True)
                    r = cell.result(cell_model.ERROR,
                                    f"boot {boots} ({boot_key}) failed: {e}",
                                    0.0, [])
                    results.append(r)
                    on_result(r)
                break
            on_boot(f"boot {boots} ({boot_key}): guest ready in "
                    f"{time.monotonic() - t0:.1f}s")
            g = Guest()
            window = guest_cost.Window(vm, boot_dir, iommu) \
                if measure_cost else None
            try:
                while pending:
                    cell = pending.pop(0)
                    index += 1
                    # The boot's last cell also takes the interface
                    # down for the page-pool check (no next cell's
                    # start sees that teardown); not before a kept
                    # state, which should be the failing cell's own.
                    r = run_cell(vm, g, cell, index,
                                 os.path.join(report_dir, "cells",
                                              cell.name),
                                 on_boot, window, traffic_timeout,
                                 driver, last=not pending and
                                 not keep_state)
                    if recorder:
                        finish_recording(recorder, vm, cell, r, on_boot,
                                         report_dir, record.keep_passing)
                    if keep_state and r["status"] != cell_model.PASS and \
                            vm.machine.is_running():
                        from e1000epp.matrix import kept_state
                        d = os.path.join(report_dir, "cells", cell.name)
                        if kept_state.keep(vm, d, cell.name, on_boot):
                            r["evidence"] = sorted(os.listdir(d))
                    results.append(r)
                    on_result(r)
                    if r["status"] == cell_model.ERROR:
                        break   # the guest may be wedged: boot again
            finally:
                # Also when a bug of ours escapes run_cell: no VM is
                # left running behind the run.
                vm.stop()
    return results, boots
