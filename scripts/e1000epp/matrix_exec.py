# SPDX-License-Identifier: GPL-2.0-or-later
"""Run matrix cells in VMs (tests/functional/harness.py: QEMU, peer, agent).

One boot per boot group of matrix.plan(); inside a boot every cell
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
  diag.json        the DMA faults diagnosed (matrix_diag.py) and the
                   datapath situations the device produced in the cell
  cost.json        with --cost: the window's guest instructions (TCG
                   plugin), IOTLB invalidations and per-packet figures
                   (cost.py, docs/cost.md)
"""

import os
import re
import sys
import time

from . import cost, matrix, matrix_diag, paths

sys.path.insert(0, os.path.join(paths.REPO, "tests", "functional"))
import harness  # noqa: E402  (tests/functional/harness.py)

LINK_TIMEOUT = 60
REPEAT = 3
UDP_COUNT = 8
TCP_BYTES = 256 * 1024
TCP_CHUNK = 16384
TCP_TIMEOUT = 90
SINK_PORT = 5001
RX_PORT = 5002

# Kernel log lines that fail a cell wherever they come from.
DMESG_BAD = re.compile(
    r"WARNING:|BUG:|Oops|general protection|Call Trace|kernel panic|"
    r"page_pool|DMA-API|DMAR:.*\b[Ff]ault|DMAR: \[DMA|iommu.*\bfault|"
    r"Hardware Unit Hang|Reset adapter|e1000e.*(error|timeout|hang)|"
    r"soft lockup|hung_task|refcount_t|list_(add|del) corruption")
# Device counters read over QMP that must not move during a cell.
DEVICE_COUNTERS = ("rx-offered", "rx-delivered", "rx-missed", "rx-filtered",
                   "rx-oversize", "rx-undersize", "rx-not-ready",
                   "rx-dma-error", "rx-flushed", "dma-errors",
                   "pm-violations")
DEVICE_MUST_STAY = ("rx-dma-error", "dma-errors", "pm-violations")


class CellFailure(Exception):
    pass


class Checks:
    """Collects every check of a cell; failures become the reason."""

    def __init__(self):
        self.items = []
        self.udp_ok = True
        self.frames_ok = True

    def eq(self, what, got, want):
        self.items.append({"check": what, "want": want, "got": got,
                           "ok": got == want})

    def true(self, what, ok, detail=""):
        self.items.append({"check": what, "ok": bool(ok), "got": detail})

    def failures(self):
        out = []
        for c in self.items:
            if c["ok"]:
                continue
            if isinstance(c.get("want"), dict) and \
                    isinstance(c["got"], dict):
                diff = [f"{k} {c['got'].get(k)} (want {v})"
                        for k, v in c["want"].items()
                        if c["got"].get(k) != v]
                out.append(f"{c['check']}: {', '.join(diff)}")
            elif "want" in c:
                out.append(f"{c['check']}: got {c['got']}, want {c['want']}")
            else:
                out.append(f"{c['check']}: {c['got']}")
        return out


class Guest:
    """What has been configured in the running guest so far."""

    def __init__(self):
        self.params = None
        self.dmesg_lines = 0
        self.taint = None


def boot_args(boot_key):
    if boot_key == "iommu":
        return (["-device", "intel-iommu,intremap=off"],
                "intel_iommu=on iommu.strict=1")
    return [], ""


def _sh(vm, cmd, timeout=60, check=True):
    return vm.agent.sh(cmd, timeout=timeout, check=check)


def _carrier(vm, ifname="eth0"):
    return _sh(vm, f"cat /sys/class/net/{ifname}/carrier",
               check=False)[1].strip() == "1"


def configure(vm, g, cell, log):
    """Bring the guest to the cell's configuration."""
    params = cell.module_params()
    if g.params != params:
        if g.params is not None:
            _sh(vm, "ip link del eth0.100 2>/dev/null; ip link set eth0 "
                "down; rmmod e1000e")
        _sh(vm, "load-e1000e " + " ".join(params))
        harness.wait_until("eth0 to appear", lambda: _sh(
            vm, "test -e /sys/class/net/eth0", check=False)[0] == 0, 30)
        _sh(vm, "ip link set eth0 up && ip addr add "
            f"{harness.GUEST_IP}/24 dev eth0")
        g.params = params
        log(f"loaded e1000e {' '.join(params)}")
    _sh(vm, "ip link del eth0.100 2>/dev/null; true")
    _sh(vm, f"ip link set eth0 mtu {cell.mtu}")
    _sh(vm, "ethtool -K eth0 rx-fcs " +
        ("on" if cell.crc == "rxfcs" else "off"))
    if cell.vlan:
        _sh(vm, f"ip link add link eth0 name eth0.100 type vlan id "
            f"{matrix.VLAN_ID} && ip link set eth0.100 mtu {cell.mtu} && "
            "ip link set eth0.100 up")
    harness.wait_until("carrier on eth0", lambda: _carrier(vm),
                       LINK_TIMEOUT, interval=0.2,
                       evidence=vm.console_tail)
    if cell.vlan:
        harness.wait_until("carrier on eth0.100",
                           lambda: _carrier(vm, "eth0.100"), LINK_TIMEOUT,
                           interval=0.2)


def check_irq_mode(vm, cell, checks, cell_dir):
    _, out = _sh(vm, "grep eth0 /proc/interrupts; true")
    with open(os.path.join(cell_dir, "interrupts.txt"), "w") as f:
        f.write(out + "\n")
    lines = [ln for ln in out.splitlines() if "eth0" in ln]
    if cell.irq == "msix":
        ok = any("eth0-rx-0" in ln for ln in lines)
    elif cell.irq == "msi":
        ok = len(lines) == 1 and "MSI" in lines[0]
    else:
        ok = len(lines) == 1 and "MSI" not in lines[0]
    checks.true(f"interrupt mode {cell.irq} in /proc/interrupts", ok,
                "; ".join(" ".join(ln.split()[-3:]) for ln in lines) or
                "no eth0 line")


def _kv_counters(d):
    keys = ("good", "bad", "trunc", "corrupt", "fcs_bad", "missing", "dup",
            "reorder", "stale", "bytes")
    return {k: d.get(k) for k in keys}


def agent_rx_wait(vm, bound=matrix.TRAFFIC_TIMEOUT):
    """The agent answers once its Rx session has counted every frame it
    expects (so does the peer's WAIT), or after bound s (frames the NIC
    lost never come; matrix.TRAFFIC_TIMEOUT by default); returns
    its counters (RXSTAT); the verdict is the caller's."""
    return vm.agent.kv(f"RXWAIT {bound * 1000}", timeout=bound + 30)


def traffic(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """Every traffic step runs even when an earlier one failed; a step the
    agent or peer refuses (no route: nothing crossed) is a failed check,
    a harness error (no answer at all) ends the cell. bound: seconds to
    wait for pattern frames that may have been lost."""
    for name, step in (("frames", traffic_frames), ("udp", traffic_udp),
                       ("tcp guest->peer", traffic_tcp_tx),
                       ("tcp peer->guest", traffic_tcp_rx)):
        if name.startswith("tcp") and not checks.udp_ok:
            # No datagram came back: a TCP stream would only wait for its
            # timeout. The reason is already recorded by the UDP check.
            checks.true(f"{name}: not attempted", False,
                        "no UDP datagram was echoed, so no TCP handshake "
                        "can complete")
            continue
        try:
            step(vm, cell, run_base, checks, cell_dir, tlog, bound)
        except harness.AgentError as e:
            checks.true(f"{name}: the agent refused", False,
                        str(e).splitlines()[0])
            tlog(f"{name}: {e}")


def traffic_frames(vm, cell, run_base, checks, cell_dir, tlog, bound):
    ifname = "eth0.100" if cell.vlan else "eth0"
    lens = cell.frame_lengths()
    count = len(lens) * REPEAT
    want_bytes = sum(lens) * REPEAT
    lens_csv = ",".join(map(str, lens))
    want = {"good": count, "bad": 0, "trunc": 0, "corrupt": 0,
            "fcs_bad": 0, "missing": 0, "dup": 0, "reorder": 0, "stale": 0,
            "bytes": want_bytes}
    tlog(f"frame lengths {lens_csv} x{REPEAT} on {ifname}")

    # Peer -> guest.
    run = run_base + 1
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    vm.agent.kv(f"RXSTART {ifname} {run} {count} {harness.PEER_MAC}{fcs}")
    vid = f" {matrix.VLAN_ID}" if cell.vlan else ""
    vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {lens_csv} {REPEAT}"
                    f"{vid}")
    agent_rx_wait(vm, bound)
    got = vm.agent.kv("RXSTOP")
    tlog(f"peer->guest agent: {got}")
    checks.frames_ok = got.get("good", 0) > 0
    checks.eq("frames peer->guest (agent)", _kv_counters(got), want)
    if got.get("fails", "-") != "-":
        checks.true("peer->guest first failures", False, got["fails"])

    # Guest -> peer.
    run = run_base + 2
    vm.peer.command(f"RX {run} {count} {harness.GUEST_MAC}")
    vm.agent.kv(f"TXL {ifname} {harness.PEER_MAC} {run} {lens_csv} "
                f"{REPEAT}")
    st = vm.peer.wait("rx", count, timeout=bound)
    tlog(f"guest->peer peer: {st['rx']} fails={st['fails']} "
         f"vlan_in={st['vlan_in']}")
    checks.eq("frames guest->peer (peer)", _kv_counters(st["rx"]), want)
    if st["fails"] != "-":
        checks.true("guest->peer first failures", False, st["fails"])



def traffic_udp(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """UDP both ways: the peer echoes every datagram."""
    # When no pattern frame reached the guest, one datagram is enough to
    # show whether anything does (each lost one costs its 5 s timeout).
    count = UDP_COUNT if checks.frames_ok else 1
    for n in cell.udp_lengths():
        echo = vm.agent.kv(f"UDP {harness.PEER_IP} 7 {count} {n} 5000",
                           timeout=120)
        tlog(f"udp {n}: {echo}")
        checks.eq(f"UDP echo of {n}-byte datagrams", echo,
                  {"sent": count, "echoed": count, "bad": 0})
        if echo.get("echoed") == 0:
            checks.udp_ok = False
            break       # nothing crosses: the next size would only wait



def traffic_tcp_tx(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """TCP guest -> peer, every segment checked by the peer's sink."""
    run = run_base + 3
    mss = cell.mtu - 40
    sinklog = os.path.join(cell_dir, "tcpsink.log")
    vm.peer.command(f"TCPSINK {SINK_PORT} {run} {mss} {sinklog}")
    _, term = vm.agent.request(
        f"TCPTX eth0 {harness.PEER_IP} {SINK_PORT} {run} {TCP_BYTES} "
        f"{TCP_CHUNK} {TCP_TIMEOUT}", timeout=TCP_TIMEOUT + 60)
    sink = harness.settle(lambda: vm.peer.command("TCPSTAT"),
                          lambda s: s["state"] == "closed", 30)
    tlog(f"tcp guest->peer: agent {term}; sink {sink}")
    checks.eq("TCP guest->peer: bytes checked by the sink",
              (sink["data_bytes"], sink["errors"], sink["state"]),
              (TCP_BYTES, 0, "closed"))
    if sink.get("errors"):
        checks.true("TCP sink first error", False, sink.get("first_error"))



def traffic_tcp_rx(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """TCP peer -> guest, every byte checked by the agent."""
    mss = cell.mtu - 40
    run = run_base + 4
    line = f"TCPRX {RX_PORT} {run} {TCP_BYTES} {TCP_TIMEOUT}"
    vm.agent.send(line)
    # The agent answers only once the stream is over; give it a moment to
    # listen (the peer's SYN is retransmitted if it comes too early).
    vm.peer.command(f"TCPSEND {harness.GUEST_MAC} {harness.GUEST_IP} "
                    f"{RX_PORT} {run} {TCP_BYTES} {mss}")
    _, term = vm.agent.collect(line, timeout=TCP_TIMEOUT + 60)
    got = {k: int(v) for k, v in (w.split("=") for w in term.split())}
    src = harness.settle(lambda: vm.peer.command("TCPSENDSTAT"),
                         lambda s: s["state"] == "closed", 30)
    tlog(f"tcp peer->guest: agent {got}; source {src}")
    checks.eq("TCP peer->guest: bytes checked by the agent",
              (got["bytes"], got["bad"], got["complete"]),
              (TCP_BYTES, 0, 1))
    checks.eq("TCP peer->guest: source state and checksum errors",
              (src["state"], src["bad_csum"], src["resets"]),
              ("closed", 0, 0))


def read_device(vm):
    out = {}
    for name in DEVICE_COUNTERS:
        try:
            out[name] = vm.qmp.execute("qom-get", path=f"/machine/peripheral/"
                                       f"{vm.NIC_ID}", property=name)
        except harness.HarnessError:
            out[name] = None
    return out


def scan_dmesg(vm, g, cell_dir, checks):
    _, text = _sh(vm, "dmesg")
    lines = text.splitlines()
    new = lines[g.dmesg_lines:] if len(lines) >= g.dmesg_lines else lines
    g.dmesg_lines = len(lines)
    with open(os.path.join(cell_dir, "dmesg.txt"), "w") as f:
        f.write("\n".join(new) + "\n")
    bad = [ln for ln in new if DMESG_BAD.search(ln)]
    with open(os.path.join(cell_dir, "scan.txt"), "w") as f:
        f.write(f"pattern: {DMESG_BAD.pattern}\n" + "\n".join(bad) + "\n")
    checks.true("dmesg free of WARN/BUG/Oops/page_pool/DMA-API/IOMMU "
                "faults/hangs", not bad, "; ".join(bad[:3]))
    taint = _sh(vm, "cat /proc/sys/kernel/tainted")[1].strip()
    if g.taint is not None:
        checks.eq("kernel taint unchanged", taint, g.taint)
    g.taint = taint


def ethtool_stats(vm, ifname="eth0"):
    try:
        return harness.ethtool_stats(vm.agent, ifname)
    except harness.HarnessError:
        return {}


def read_qom(vm, names):
    out = {}
    for name in names:
        try:
            out[name] = vm.qmp.execute("qom-get", path=f"/machine/peripheral/"
                                       f"{vm.NIC_ID}", property=name)
        except harness.HarnessError:
            out[name] = None        # this device has no such counter
    return out


def measured_traffic(vm, cell, run_base, checks, cell_dir, tlog, window,
                     bound):
    """traffic() inside a cost window; returns the window's raw numbers
    and the device's buffer counters over it (None without --cost)."""
    if window is None:
        traffic(vm, cell, run_base, checks, cell_dir, tlog, bound)
        return None, None
    buf0 = read_qom(vm, cost.BUF_COUNTERS)
    window.start()
    traffic(vm, cell, run_base, checks, cell_dir, tlog, bound)
    raw = window.stop()
    buf1 = read_qom(vm, cost.BUF_COUNTERS)
    buf = {k: buf1[k] - buf0[k] for k in buf1
           if isinstance(buf1[k], int) and isinstance(buf0[k], int)}
    return raw, buf


def rx_burst(vm, cell, run, checks, tlog, window, bound):
    """The receive-only burst (cost.RX_BURST frames of the cell's largest
    length, peer -> guest) in a window of its own: (raw, rx packets).
    Sent in rounds of cost.RX_ROUND, each received before the next: a
    burst longer than the ring overflows the packet buffer (the device
    drops and counts MPC, as the silicon would) once the guest falls
    behind, and a lost frame would change the work per packet."""
    ifname = "eth0.100" if cell.vlan else "eth0"
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    vid = f" {matrix.VLAN_ID}" if cell.vlan else ""
    n, length = cost.RX_ROUND, cell.mtu + 14
    rounds = cost.RX_BURST // n
    good = bad = missing = 0
    s0 = ethtool_stats(vm)
    window.start()
    for k in range(rounds):
        vm.agent.kv(f"RXSTART {ifname} {run + k} {n} "
                    f"{harness.PEER_MAC}{fcs}")
        vm.peer.command(f"TXL {harness.GUEST_MAC} {run + k} {length} "
                        f"{n}{vid}")
        agent_rx_wait(vm, bound)
        got = vm.agent.kv("RXSTOP")
        good += got.get("good", 0)
        bad += got.get("bad", 0)
        missing += got.get("missing", 0)
    raw = window.stop()
    s1 = ethtool_stats(vm)
    tlog(f"rx burst {rounds} x {n} x {length}: good {good} bad {bad} "
         f"missing {missing}")
    checks.eq(f"receive-only burst of {rounds} x {n} x {length} bytes "
              "(cost): good, bad, missing", (good, bad, missing),
              (rounds * n, 0, 0))
    return raw, s1.get("rx_packets", 0) - s0.get("rx_packets", 0)


def record_cost(cell_dir, raw, buf, stats0, stats1, burst):
    rx = stats1.get("rx_packets", 0) - stats0.get("rx_packets", 0)
    tx = stats1.get("tx_packets", 0) - stats0.get("tx_packets", 0)
    m = cost.metrics(raw, rx, tx, buf, burst)
    matrix.write_json(os.path.join(cell_dir, "cost.json"),
                      {"metrics": m, "raw": raw, "device": buf,
                       "burst": {"raw": burst[0], "rx_packets": burst[1]}})
    return m


def run_cell(vm, g, cell, index, cell_dir, log, window=None,
             bound=matrix.TRAFFIC_TIMEOUT):
    os.makedirs(cell_dir, exist_ok=True)
    t0 = time.monotonic()
    checks = Checks()
    tlog_f = open(os.path.join(cell_dir, "traffic.log"), "w")

    def tlog(text):
        tlog_f.write(f"{time.monotonic() - t0:8.2f} {text}\n")
        tlog_f.flush()

    status, reason = matrix.PASS, ""
    metrics = coverage = None
    faults = []
    try:
        vm.peer.command(f"PCAP {os.path.join(cell_dir, 'peer.pcap')}")
        configure(vm, g, cell, tlog)
        check_irq_mode(vm, cell, checks, cell_dir)
        stats0 = ethtool_stats(vm)
        dev0 = read_device(vm)
        diag0 = read_qom(vm, matrix_diag.QOM_START)
        raw, buf = measured_traffic(vm, cell, 0x10000 + index * 16, checks,
                                    cell_dir, tlog, window, bound)
        stats1 = ethtool_stats(vm)
        if raw is not None:
            burst = rx_burst(vm, cell, 0x800000 + index * 16, checks,
                             tlog, window, bound)
            metrics = record_cost(cell_dir, raw, buf, stats0, stats1, burst)
        dev1 = read_device(vm)
        with open(os.path.join(cell_dir, "ethtool-S.txt"), "w") as f:
            for k in sorted(stats1):
                d = stats1[k] - stats0.get(k, 0)
                if d:
                    f.write(f"{k}: +{d}\n")
        delta = {k: (dev1[k] - dev0[k]) if isinstance(dev1[k], int) and
                 isinstance(dev0[k], int) else None for k in dev1}
        matrix.write_json(os.path.join(cell_dir, "device.json"),
                          {"before": dev0, "after": dev1, "delta": delta})
        for k in DEVICE_MUST_STAY:
            if delta.get(k) is not None:
                checks.eq(f"device counter {k} (QMP) unchanged", delta[k], 0)
        for k in ("rx_crc_errors", "rx_errors", "rx_length_errors"):
            if k in stats1:
                checks.eq(f"ethtool -S {k} unchanged",
                          stats1[k] - stats0.get(k, 0), 0)
        scan_dmesg(vm, g, cell_dir, checks)
        faults, coverage = matrix_diag.cell_end(
            diag0, read_qom(vm, matrix_diag.QOM_END), cell_dir,
            harness.PEER_MAC, cell.iommu != "noiommu")
        for d in faults:
            checks.true("DMA fault", False, d["sentence"])
        matrix.write_json(os.path.join(cell_dir, "diag.json"),
                          {"faults": faults, "coverage": coverage})
        fails = checks.failures()
        if fails:
            status, reason = matrix.FAIL, "\n".join(fails)
    except (harness.HarnessError, cost.CostError, OSError, KeyError,
            ValueError) as e:
        status = matrix.ERROR
        reason = f"{type(e).__name__}: {e}"
        fails = checks.failures()
        if fails:
            reason += "\nchecks failed before the error:\n" + \
                "\n".join(fails)
    finally:
        tlog_f.close()
    matrix.write_json(os.path.join(cell_dir, "verdict.json"),
                      {"cell": cell.name, "status": status,
                       "checks": checks.items, "reason": reason})
    out = {"cell": cell.name, "status": status, "reason": reason,
           "seconds": round(time.monotonic() - t0, 2),
           "evidence": sorted(os.listdir(cell_dir))}
    if metrics is not None:
        out["cost"] = metrics
    if faults:
        out["faults"] = faults
    if coverage is not None:
        out["coverage"] = coverage
    return out


def run_cells(cells, device, report_dir, peer_bin, guest_dir=None,
              on_result=print, on_boot=print, measure_cost=False,
              traffic_timeout=matrix.TRAFFIC_TIMEOUT):
    """Run cells (in matrix.plan order); returns (results, boots).
    measure_cost: load the cost plugin and measure every cell's traffic
    (cost.py). traffic_timeout: seconds a cell waits for pattern frames
    (lost ones never come)."""
    results, boots = [], 0
    index = 0
    for boot_key, group in matrix.plan(cells):
        pending = list(group)
        while pending:
            dev_args, append = boot_args(boot_key)
            boots += 1
            boot_dir = os.path.join(report_dir, "boots",
                                    f"{boots:02d}-{boot_key}")
            extra = []
            if measure_cost:
                os.makedirs(boot_dir, exist_ok=True)
                extra = cost.qemu_args(boot_dir, boot_key == "iommu")
            vm = harness.Vm(device, boot_dir, append="e1000epp.load=0 " +
                            append, device_args=dev_args,
                            guest_dir=guest_dir, extra_args=extra)
            t0 = time.monotonic()
            try:
                vm.start(peer_bin)
            except harness.HarnessError as e:
                vm.stop()
                for cell in pending:
                    d = os.path.join(report_dir, "cells", cell.name)
                    os.makedirs(d, exist_ok=True)
                    r = {"cell": cell.name, "status": matrix.ERROR,
                         "reason": f"boot {boots} ({boot_key}) failed: {e}",
                         "seconds": 0.0, "evidence": []}
                    results.append(r)
                    on_result(r)
                break
            on_boot(f"boot {boots} ({boot_key}): guest ready in "
                    f"{time.monotonic() - t0:.1f}s")
            g = Guest()
            window = cost.Window(vm, boot_dir, boot_key == "iommu") \
                if measure_cost else None
            while pending:
                cell = pending.pop(0)
                index += 1
                r = run_cell(vm, g, cell, index,
                             os.path.join(report_dir, "cells", cell.name),
                             on_boot, window, traffic_timeout)
                results.append(r)
                on_result(r)
                if r["status"] == matrix.ERROR:
                    break       # the guest may be wedged: boot again
            vm.stop()
    return results, boots
