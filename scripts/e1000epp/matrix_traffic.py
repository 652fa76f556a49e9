# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's traffic steps (matrix_exec.run_cell runs them): the
pattern frames both ways (lengths from the programmed layout, the VLAN
tag on the wire, marked and faulted frames), a burst faster than the
guest cleans, UDP echo, TCP both ways, a runtime suspend between the
streams, and with --cost the measured window and receive-only burst.
"""

import os
import re
import struct
from collections import Counter

from . import cost, matrix, matrix_report, rxlayout
from .matrix_guest import (LINK_TIMEOUT, carrier, ethtool_stats, qom_get,
                           qom_set, read_qom, sh, situations_now)
from .vm import harness

REPEAT = 3
ERR_MARKED = matrix.ERR_FRAMES
# Rx data writes the DMA-fault cell has the device reject.
DMA_FAULTS = 1
UDP_COUNT = 8
TCP_BYTES = 256 * 1024
TCP_CHUNK = 16384
TCP_TIMEOUT = 90
SINK_PORT = 5001
RX_PORT = 5002
# What Linux's e1000e logs when a wake-up resumed it (e1000_resume).
WAKE_CAUSE = "MAC Wakeup cause - Link Status Change"


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
    steps = [("frames", traffic_frames), ("udp", traffic_udp),
             ("truesize", traffic_truesize),
             ("tcp guest->peer", traffic_tcp_tx),
             ("tcp peer->guest", traffic_tcp_rx)]
    if cell.family and cell.family.burst:
        steps.insert(0, ("burst", traffic_burst))
    if cell.family and cell.family.suspend:
        steps.insert(-1, ("runtime suspend", runtime_suspend))
    if cell.family and cell.family.knob == "tx-hold":
        steps.insert(0, ("tx hang", tx_hang))
    if cell.family and cell.family.knob == "reset-delay":
        steps.insert(0, ("reset against runtime suspend", reset_vs_suspend))
    for name, step in steps:
        if name == "truesize" and not checks.udp_ok:
            continue    # no echo comes back to be held
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


def _frames_by_tag(pcap_path, src_mac):
    """(VLAN ID or "untagged", EtherType, payload) of every frame src_mac
    put on the wire, from the peer's capture (802.1Q: the tag after the
    MACs)."""
    src = harness.mac_bytes(src_mac)
    for _, f in harness.read_pcap(pcap_path):
        if f[6:12] != src or len(f) < 14:
            continue
        if f[12:14] == b"\x81\x00" and len(f) >= 18:
            yield (str(struct.unpack_from(">H", f, 14)[0] & 0xfff),
                   struct.unpack_from(">H", f, 16)[0], f[18:])
        else:
            yield "untagged", struct.unpack_from(">H", f, 12)[0], f[14:]


def wire_tags(pcap_path, src_mac, run):
    """{"VLAN ID" or "untagged": frames} of the pattern frames of run
    that src_mac put on the wire, from the peer's capture."""
    out = Counter()
    for vid, etype, p in _frames_by_tag(pcap_path, src_mac):
        if etype == harness.PP_ETHERTYPE and len(p) >= 8 and \
                struct.unpack_from(">I", p, 4)[0] == run:
            out[vid] += 1
    return dict(out)


def tcp_tags(pcap_path, src_mac, dport):
    """{"VLAN ID" or "untagged": frames} of the IPv4 TCP frames to dport
    that src_mac put on the wire, from the peer's capture."""
    out = Counter()
    for vid, etype, p in _frames_by_tag(pcap_path, src_mac):
        if etype != 0x0800 or len(p) < 24 or p[9] != 6:
            continue
        l4 = (p[0] & 0xf) * 4
        if len(p) >= l4 + 4 and struct.unpack_from(">H", p, l4 + 2)[0] == \
                dport:
            out[vid] += 1
    return dict(out)


def vlan_rx_packets(vm):
    """rx_packets of the guest's VLAN interface (None if unreadable)."""
    rc, out = sh(vm, "cat /sys/class/net/eth0.100/statistics/rx_packets",
                 check=False)
    return int(out) if rc == 0 and out.strip().isdigit() else None


def marked_frames(fam):
    """How many pattern frames the family's knob marks or faults."""
    if not fam or not fam.knob:
        return 0
    if fam.knob.startswith("error-"):
        return ERR_MARKED
    return DMA_FAULTS if fam.knob == "dma-fault-writes" else 0


def _lost(fails):
    """The sequence numbers of `lost:3,7;...` (the agent's first ones)."""
    for word in (fails or "-").split(";"):
        if word.startswith("lost:"):
            return [int(x) for x in word[5:].split(",") if x]
    return []


def traffic_frames(vm, cell, run_base, checks, cell_dir, tlog, bound):
    ifname = "eth0.100" if cell.vlan else "eth0"
    layout = checks.layout
    lens = sorted(set(cell.frame_lengths()) |
                  set(layout["fcs_lengths"] if layout else []))
    count = len(lens) * REPEAT
    want_bytes = sum(lens) * REPEAT
    lens_csv = ",".join(map(str, lens))
    tlog(f"frame lengths {lens_csv} x{REPEAT} on {ifname}")
    fam = cell.family
    marked = marked_frames(fam)
    # Sent in order, seq k is lens[k % len(lens)] bytes: the marked
    # frames are the first ones, lost unless the family delivers them.
    lost = 0 if not marked or fam.delivered else marked
    lost_bytes = sum(lens[k % len(lens)] for k in range(lost))
    want = {"good": count - lost, "bad": 0, "trunc": 0, "corrupt": 0,
            "fcs_bad": 0, "missing": lost, "dup": 0, "reorder": 0,
            "stale": 0, "bytes": want_bytes - lost_bytes}
    dma_fault = bool(fam and fam.knob == "dma-fault-writes")

    # Peer -> guest.
    run = run_base + 1
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    vm.agent.kv(f"RXSTART {ifname} {run} {count} {harness.PEER_MAC}{fcs}")
    vid = f" {matrix.VLAN_ID}" if cell.vlan else ""
    sit0 = situations_now(vm)
    if marked:
        knob = matrix.KNOBS[fam.knob]
        qom_set(vm, knob, marked)
        tlog(f"qom-set {knob} {marked}")
    vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {lens_csv} {REPEAT}"
                    f"{vid}")
    if lost:
        # The marked frames never come: wait for the others.
        harness.settle(lambda: vm.agent.kv("RXSTAT"),
                       lambda st: st.get("good", 0) >= count - lost, bound,
                       interval=0.2)
    else:
        agent_rx_wait(vm, bound)
    got = vm.agent.kv("RXSTOP")
    sit1 = situations_now(vm)
    tlog(f"peer->guest agent: {got}")
    checks.frames_ok = got.get("good", 0) > 0
    counted = _kv_counters(got)
    if dma_fault:
        # The rejected frame's buffer kept its old bytes: a frame of an
        # earlier run when it held one, else nothing for this socket.
        checks.true("peer->guest: at most the rejected frame seen as "
                    "another run's", counted.pop("stale", 0) <= marked,
                    f"stale {got.get('stale')}")
        want = {k: v for k, v in want.items() if k != "stale"}
    checks.eq("frames peer->guest (agent)", counted, want)
    fails = got.get("fails", "-")
    if lost:
        checks.eq("peer->guest: the frames lost are the marked ones "
                  "(first sequence numbers)", _lost(fails),
                  list(range(lost)))
        checks.lost_seqs = list(range(lost))
        fails = ";".join(w for w in fails.split(";")
                         if not w.startswith("lost:")) or "-"
    if fails != "-":
        checks.true("peer->guest first failures", False, fails)
    if marked:
        checks.eq(f"{knob} marks left after the stream",
                  qom_get(vm, knob), 0)
    if layout and not layout["secrc"]:
        # Each placement confirmed by the device's counters: every
        # pattern frame whose FCS the layout places across a boundary or
        # alone, REPEAT times; nothing else crosses in this step.
        # (The marked frames the device dropped never reach a buffer.)
        want_fcs = {k: sum(rxlayout.placement(
                        layout, lens[i % len(lens)]) == k
                        for i in range(lost, count))
                    for k in ("straddle", "alone")}
        if sit0 is None or sit1 is None:
            checks.true("FCS placements (device situations)", False,
                        "the device has no situations counters")
        else:
            checks.eq("FCS placements peer->guest (device situations "
                      "fcs-straddle, fcs-alone)",
                      {k: sit1.get(f"fcs-{k}", 0) - sit0.get(f"fcs-{k}", 0)
                       for k in want_fcs}, want_fcs)
        layout["placements"] = {str(n): rxlayout.placement(layout, n)
                                for n in lens}

    # Guest -> peer.
    want = dict(want, good=count, missing=0, bytes=want_bytes, stale=0)
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
    # On the wire (the peer's capture): the guest's frames carry the
    # VLAN's tag, and only those, or none.
    vid = str(matrix.VLAN_ID) if cell.vlan else "untagged"
    try:
        tags = wire_tags(os.path.join(cell_dir, "peer.pcap"),
                         harness.GUEST_MAC, run)
    except (OSError, harness.HarnessError) as e:
        checks.true("guest->peer tags read from the capture", False, str(e))
    else:
        checks.eq("guest->peer frames on the wire by VLAN ID (the capture)",
                  tags, {vid: count})


def traffic_burst(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """BURST_FRAMES pattern frames queued by the peer at once, faster than
    the guest's NAPI cleans them under TCG. Conservation from both sides:
    what the peer sent = what the agent got + what the device dropped
    (MPC); the device saw every frame. A multi-buffer burst (LONG_FRAME
    at MTU 1500) is discarded whole by the driver ("all receives must
    fit into a single buffer", e1000_clean_rx_irq): the agent gets none,
    the device wrote each one it did not drop to the ring."""
    fam = cell.family
    long = fam.burst == "long"
    n = matrix.LONG_FRAMES if long else matrix.BURST_FRAMES
    length = matrix.LONG_FRAME if long else cell.mtu + 14
    run = run_base + 5
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    names = ("rx-offered", "rx-delivered", "rx-missed")
    d0 = {k: qom_get(vm, k) for k in names}
    p0 = vm.peer.stats()
    vm.agent.kv(f"RXSTART eth0 {run} {n} {harness.PEER_MAC}{fcs}")
    knob = matrix.KNOBS["fetch-limit"]
    if fam.knob == "fetch-limit":
        qom_set(vm, knob, matrix.FETCH_LIMIT)
        tlog(f"qom-set {knob} {matrix.FETCH_LIMIT}")
    sit0 = situations_now(vm) or {}
    vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {length} {n}")

    def delta():
        return {k: qom_get(vm, k) - d0[k] for k in names}
    # The device takes every frame from the socket, then the guest
    # cleans what reached the ring: wait for both (frames the device
    # dropped never come).
    harness.wait_until("the device to take the burst",
                       lambda: delta()["rx-offered"] >= n, bound,
                       interval=0.2)
    if fam.knob == "fetch-limit":
        # Fetching only on tail writes, the ring stops part-way into a
        # frame; with Linux's tail every 16 buffers it may not move on
        # by itself, so the knob goes back to 0 (fetch on demand) once
        # the dry point is there (or the bound passed: the cell then
        # fails for the situation) and the rest of the burst drains.
        harness.settle(lambda: (situations_now(vm) or {}).get(
            "ring-dry-midframe", 0) - sit0.get("ring-dry-midframe", 0),
            lambda v: v > 0, bound, interval=0.2)
        qom_set(vm, knob, 0)
        tlog(f"qom-set {knob} 0")
        harness.settle(delta, lambda d: d["rx-delivered"] + d["rx-missed"]
                       >= n, bound, interval=0.2)
    want_agent = 0 if long else None

    def agent_done():
        st = vm.agent.kv("RXSTAT")
        d = delta()
        expect = d["rx-delivered"] if want_agent is None else 0
        return st if st.get("good", 0) >= expect else None
    if want_agent is None:
        harness.settle(agent_done, lambda v: v is not None, bound,
                       interval=0.2)
    got = vm.agent.kv("RXSTOP")
    d = delta()
    p1 = vm.peer.stats()
    sent = p1["tx_pattern_frames"] - p0["tx_pattern_frames"]
    tlog(f"burst {n} x {length}: peer sent {sent}; device {d}; agent {got}")
    checks.eq(f"burst of {n} x {length} bytes: peer sent, device offered",
              (sent, d["rx-offered"]), (n, n))
    checks.eq("burst: device offered = delivered to the ring + missed "
              "(MPC)", d["rx-delivered"] + d["rx-missed"], d["rx-offered"])
    if long:
        checks.eq("burst: multi-descriptor frames reaching the socket "
                  "(the driver discards them)", got.get("good"), 0)
    else:
        checks.eq("burst: peer sent = agent got + device missed (MPC)",
                  got.get("good", 0) + d["rx-missed"], sent)
        checks.eq("burst: frames the agent got intact",
                  {k: got.get(k) for k in ("bad", "trunc", "corrupt",
                                           "fcs_bad", "dup", "reorder")},
                  {k: 0 for k in ("bad", "trunc", "corrupt", "fcs_bad",
                                  "dup", "reorder")})
    checks.burst = d


def ip_path(cell):
    """(guest interface, guest address, peer address) the cell's IP
    traffic takes: eth0, or the VLAN's interface with both VLAN hosts."""
    if cell.vlan:
        return "eth0.100", harness.GUEST_VLAN_IP, harness.PEER_VLAN_IP
    return "eth0", harness.GUEST_IP, harness.PEER_IP


def traffic_udp(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """UDP both ways: the peer echoes every datagram."""
    ifname, _, peer_ip = ip_path(cell)
    # When no pattern frame reached the guest, one datagram is enough to
    # show whether anything does (each lost one costs its 5 s timeout).
    count = UDP_COUNT if checks.frames_ok else 1
    for n in cell.udp_lengths():
        echo = vm.agent.kv(f"UDP {peer_ip} 7 {count} {n} 5000",
                           timeout=120)
        tlog(f"udp {n} on {ifname}: {echo}")
        checks.eq(f"UDP echo of {n}-byte datagrams on {ifname}", echo,
                  {"sent": count, "echoed": count, "bad": 0})
        if echo.get("echoed") == 0:
            checks.udp_ok = False
            break       # nothing crosses: the next size would only wait


# Echoes held unread by the truesize step, and how long each may take.
TRUESIZE_HELD = 4
TRUESIZE_TIMEOUT_MS = 5000


def pagepool_truesize(cell):
    """What the series' published table charges for the step's echo: a
    frame of MTU + 14 bytes in the buffers, + 4 where the FCS is left
    in them (keep: the driver trims it; rx-fcs: the stack keeps it)."""
    in_buffers = cell.mtu + 14 + (0 if cell.crc == "strip" else 4)
    chunks = -(-in_buffers // matrix.PAGEPOOL_CHUNK)
    if chunks == 1:
        return matrix.PAGEPOOL_TRUESIZE_ONE[1500 if cell.mtu <= 1500
                                            else 2026]
    return matrix.PAGEPOOL_TRUESIZE[chunks]


def traffic_truesize(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """The truesize the driver charges a received MTU-sized frame: the
    agent's UDPHOLD leaves echoes unread and reads the socket's receive
    memory after each (SO_MEMINFO). A page-pool driver must charge what
    the series' table says; the stock driver's charge is logged only
    (the table's stock column is kernel 7.1's, and Debian's 6.1 and
    6.12 allocate their skbs differently)."""
    _, _, peer_ip = ip_path(cell)
    n = cell.mtu - 28
    data, term = vm.agent.request(
        f"UDPHOLD {peer_ip} 7 {TRUESIZE_HELD} {n} {TRUESIZE_TIMEOUT_MS}",
        timeout=TRUESIZE_HELD * TRUESIZE_TIMEOUT_MS / 1000 + 60)
    got = [int(d.split()[2]) for d in data if d.startswith("truesize ")]
    pagepool = sh(vm, f"test -e {matrix.PAGEPOOL_HOLDER}",
                  check=False)[0] == 0
    tlog(f"truesize of {n}-byte datagrams' echoes: {got} ({term}; "
         f"{'page pool' if pagepool else 'no page pool'})")
    # Any design: every echo held and charged at least the datagram.
    checks.eq(f"truesize: {TRUESIZE_HELD} echoes of {n} bytes held, each "
              "charged at least its length",
              (len(got), all(t >= n for t in got)), (TRUESIZE_HELD, True))
    if not pagepool:
        return
    want = pagepool_truesize(cell)
    checks.eq(f"truesize of each MTU-sized frame (page pool, the series' "
              f"table: {want})", got, [want] * TRUESIZE_HELD)


def traffic_tcp_tx(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """TCP guest -> peer, every segment checked by the peer's sink."""
    ifname, _, peer_ip = ip_path(cell)
    run = run_base + 3
    mss = cell.mtu - 40
    sinklog = os.path.join(cell_dir, "tcpsink.log")
    vm.peer.command(f"TCPSINK {SINK_PORT} {run} {mss} {sinklog}")
    _, term = vm.agent.request(
        f"TCPTX {ifname} {peer_ip} {SINK_PORT} {run} {TCP_BYTES} "
        f"{TCP_CHUNK} {TCP_TIMEOUT}", timeout=TCP_TIMEOUT + 60)
    sink = harness.settle(lambda: vm.peer.command("TCPSTAT"),
                          lambda s: s["state"] == "closed", 30)
    tlog(f"tcp guest->peer on {ifname}: agent {term}; sink {sink}")
    checks.eq(f"TCP guest->peer on {ifname}: bytes checked by the sink",
              (sink["data_bytes"], sink["errors"], sink["state"]),
              (TCP_BYTES, 0, "closed"))
    if sink.get("errors"):
        checks.true("TCP sink first error", False, sink.get("first_error"))
    if cell.vlan:
        # Every segment the sink took came tagged with the VLAN's ID.
        try:
            tags = tcp_tags(os.path.join(cell_dir, "peer.pcap"),
                            harness.GUEST_MAC, SINK_PORT)
        except (OSError, harness.HarnessError) as e:
            checks.true("TCP guest->peer tags read from the capture", False,
                        str(e))
        else:
            checks.eq("TCP guest->peer frames on the wire by VLAN ID (the "
                      "capture)", tags, {str(matrix.VLAN_ID):
                                         sink.get("frames")})


def runtime_suspend(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """Linux runtime-suspends e1000e only without link (its idle
    callback), after arming link-change wake: with power/control auto,
    the link taken away suspends the function (D3hot); the link back
    sets PMCSR.PME_Status, the PCI core's PME poll resumes it and the
    driver logs the cause it reads from WUS."""
    _, pci = sh(vm, "basename $(readlink /sys/class/net/eth0/device)")
    pci = pci.strip()
    ctl = f"/sys/bus/pci/devices/{pci}/power"

    def status():
        return sh(vm, f"cat {ctl}/runtime_status", check=False)[1].strip()

    def wakes():
        return sh(vm, "dmesg", check=False)[1].count(WAKE_CAUSE)
    wakes0 = wakes()
    sh(vm, f"echo auto > {ctl}/control")
    vm.qmp.execute("set_link", name=vm.netdev_id, up=False)
    tlog("set_link off, power/control auto")
    try:
        harness.wait_until("runtime suspend", lambda: status() ==
                           "suspended", bound, interval=0.5)
        tlog("runtime suspended")
        vm.qmp.execute("set_link", name=vm.netdev_id, up=True)
        tlog("set_link on")
        harness.wait_until("runtime resume through PME", lambda: status()
                           == "active", bound, interval=0.5)
        tlog("runtime active")
    except harness.HarnessError as e:
        checks.true("runtime suspend and resume", False,
                    str(e).splitlines()[0])
    finally:
        vm.qmp.execute("set_link", name=vm.netdev_id, up=True)
        sh(vm, f"echo on > {ctl}/control")
    harness.wait_until("carrier on eth0 after the resume",
                       lambda: carrier(vm), LINK_TIMEOUT, interval=0.2)
    checks.eq(f"the driver's wake cause (dmesg: {WAKE_CAUSE})",
              wakes() - wakes0, 1)


# The Tx-hang step's frames: more than the Tx ring holds, of a run no
# session counts.
HANG_FRAMES = 400
HANG_RUN = 9
HANG_WMEM = 4 << 20


def fill_held_ring(vm, run_base):
    """Frames for the held engine: they stay in the ring, unsent, until
    it is full and the driver stops the queue. Enough to fill the
    256-descriptor ring: a few pings are not (BQL's limit, grown by the
    boot's earlier cells, keeps the queue open for them: seen in the
    default matrix, where all three txhang cells then waited 120 s).
    The socket's send buffer must hold them all: unsent skbs are
    charged to it, and the default (212992 bytes) blocks the sender at
    about 234 frames, a few descriptors short of the driver stopping
    the queue (seen: TDT 21 descriptors behind TDH, no watchdog)."""
    wmem = sh(vm, "cat /proc/sys/net/core/wmem_default")[1].strip()
    sh(vm, f"echo {HANG_WMEM} > /proc/sys/net/core/wmem_default")
    try:
        vm.agent.kv(f"TX eth0 {harness.PEER_MAC} {run_base + HANG_RUN} "
                    f"{HANG_FRAMES} 60 60")
    except harness.AgentError:
        pass            # the qdisc full before the last one: enough
    finally:
        sh(vm, f"echo {wmem} > /proc/sys/net/core/wmem_default")


def reset_vs_suspend(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """The driver's reset task against its runtime suspend (the resetpm
    family; matrix.RACE_RESET_NS says why the timing catches a reset
    task that takes no runtime-PM reference). The function must never
    be touched while in D3hot (the device's pm-violations, read over
    QMP so that a guest the race broke still gives its verdict), the
    reset must reach the MAC, the driver must suspend and wake through
    PME when the cable is back."""
    _, pci = sh(vm, "basename $(readlink /sys/class/net/eth0/device)")
    ctl = f"/sys/bus/pci/devices/{pci.strip()}/power"
    hold, delay = matrix.KNOBS["tx-hold"], matrix.KNOBS["reset-delay"]
    drop = matrix.KNOBS["link-drop"]

    def status():
        return sh(vm, f"cat {ctl}/runtime_status", check=False)[1].strip()

    def wakes():
        return sh(vm, "dmesg", check=False)[1].count(WAKE_CAUSE)

    wakes0 = wakes()
    viol0 = qom_get(vm, "pm-violations")
    sh(vm, f"echo auto > {ctl}/control")
    qom_set(vm, delay, matrix.RACE_RESET_NS)
    qom_set(vm, hold, 1)
    tlog(f"power/control auto, qom-set {delay} {matrix.RACE_RESET_NS}, "
         f"{hold} 1")
    suspended = False

    def reset_after_drop():
        # The device's event list: the reset task's CTRL.RST after the
        # cable went. Read at once: a racing driver's accesses in D3hot
        # fill the list (64 entries) a few hundred ms later.
        lines = str(qom_get(vm, "events")).splitlines()
        drops = [k for k, ln in enumerate(lines) if "knob-link-drop-ms" in ln]
        return bool(drops) and any("ctrl-rst" in ln
                                   for ln in lines[drops[-1]:])

    try:
        fill_held_ring(vm, run_base)
        qom_set(vm, drop, matrix.RACE_LINK_DROP_MS)
        tlog(f"qom-set {drop} {matrix.RACE_LINK_DROP_MS}")
        try:
            harness.wait_until("the reset task's CTRL.RST (device events)",
                               reset_after_drop, bound, interval=0.05)
            tlog("ctrl-rst")
        except harness.HarnessError as e:
            checks.true("the reset task scheduled by the link loss reached "
                        "the MAC (device event ctrl-rst)", False,
                        str(e).splitlines()[0])
        harness.wait_until("runtime suspend without link",
                           lambda: status() == "suspended", bound,
                           interval=0.25)
        suspended = True
        # The race is over (a CTRL.RST already begun keeps its window):
        # the resume's own reset runs at the normal speed.
        qom_set(vm, delay, 0)
        tlog(f"runtime suspended; qom-set {delay} 0")
        harness.wait_until("the cable back and the runtime resume "
                           "through PME", lambda: status() == "active",
                           bound, interval=0.5)
        tlog("runtime active")
        harness.wait_until("carrier on eth0 after the resume",
                           lambda: carrier(vm), LINK_TIMEOUT, interval=0.2)
    except harness.HarnessError as e:
        checks.true("the reset, the runtime suspend and the PME wake",
                    False, str(e).splitlines()[0])
    finally:
        viol = qom_get(vm, "pm-violations") - viol0
        checks.eq("the function untouched in D3hot while the reset task "
                  "and the runtime suspend ran (device pm-violations)",
                  viol, 0)
        if viol:
            tlog(f"pm-violations +{viol}")
        for name, value in ((hold, 0), (delay, 0)):
            qom_set(vm, name, value)
        tlog(f"qom-set {hold} 0, {delay} 0")
        sh(vm, f"echo on > {ctl}/control", check=False)
    if suspended:
        checks.eq(f"the driver's wake cause (dmesg: {WAKE_CAUSE})",
                  wakes() - wakes0, 1)


def tx_hang(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """The Tx engine held with frames in the ring: nothing completes, so
    the queue stops (BQL's byte limit, or the driver's own hang check),
    the netdev watchdog calls e1000_tx_timeout after watchdog_timeo
    (5 s) and its reset task resets the MAC (CTRL.RST). Released once
    the reset task has run; the steps after this one check that the
    driver recovered.

    Where e1000e's own hang check reports first (MSI and INTx: it runs
    in the NAPI poll the watchdog task's software interrupt starts),
    each report stops the queue again and so restamps its trans_start:
    the stack's timeout never expires and the driver never resets (a
    flaw of e1000e, Debian 6.1 and 6.12 alike; which comes first is a
    matter of the 2 s tick's phase). The step asserts exactly that, then
    recovers as an administrator would, with a down and up (e1000e_down
    resets the MAC), so the traffic steps still check the rings."""
    knob = matrix.KNOBS["tx-hold"]

    def dmesg():
        return sh(vm, "dmesg", check=False)[1]

    def counts(text):
        return (text.count(matrix.RESET_LINE),
                len(re.findall(matrix.HANG_REPORT, text)),
                len(re.findall(matrix.WATCHDOG_LINE, text)))

    def progress():
        now = [n - b for n, b in zip(counts(dmesg()), before)]
        return now if (now[0] > 0 or
                       (now[1] >= matrix.HANG_REPORTS_NO_RESET and
                        now[2] == 0)) else None

    before = counts(dmesg())
    qom_set(vm, knob, 1)
    tlog(f"qom-set {knob} 1")
    fill_held_ring(vm, run_base)
    seen = None
    try:
        seen = harness.wait_until(
            f"the driver's reset task (dmesg: {matrix.RESET_LINE}) or "
            f"{matrix.HANG_REPORTS_NO_RESET} of its hang reports with no "
            "netdev watchdog timeout", progress, bound, interval=0.5,
            evidence=vm.console_tail)
        if seen[0] == 0:
            # The flaw: the driver's reports keep the watchdog quiet.
            checks.hang_reset_by = "down"
            tlog(f"{seen[1]} hang reports, no watchdog timeout: e1000e "
                 "will not reset; down and up")
            # Both reset the MAC (e1000e_down, then e1000_open) with the
            # engine still held, as the reset task's down and up do.
            sh(vm, "ip link set eth0 down && ip link set eth0 up")
        else:
            checks.hang_reset_by = "watchdog"
            tlog("the driver's reset task ran")
    except harness.HarnessError as e:
        checks.true("the Tx hang reset by the driver", False,
                    str(e).splitlines()[0])
    finally:
        qom_set(vm, knob, 0)
        tlog(f"qom-set {knob} 0")
    harness.wait_until("carrier on eth0 after the reset",
                       lambda: carrier(vm), LINK_TIMEOUT, interval=0.2)
    end = [n - b for n, b in zip(counts(dmesg()), before)]
    checks.eq(f"the driver's reset tasks (dmesg: {matrix.RESET_LINE})",
              end[0], 0 if checks.hang_reset_by == "down" else 1)
    if checks.hang_reset_by == "down":
        # The flaw's path to the end: the driver's reports, never the
        # stack's timeout (e1000e's down/up restarts neither).
        checks.eq("the Tx hang, e1000e's own path: netdev watchdog "
                  "timeouts, and its hang reports >= "
                  f"{matrix.HANG_REPORTS_NO_RESET}",
                  (end[2], end[1] >= matrix.HANG_REPORTS_NO_RESET), (0, True))


def traffic_tcp_rx(vm, cell, run_base, checks, cell_dir, tlog, bound):
    """TCP peer -> guest, every byte checked by the agent."""
    ifname, guest_ip, _ = ip_path(cell)
    vid = f" {matrix.VLAN_ID}" if cell.vlan else ""
    mss = cell.mtu - 40
    run = run_base + 4
    line = f"TCPRX {RX_PORT} {run} {TCP_BYTES} {TCP_TIMEOUT}"
    rx0 = vlan_rx_packets(vm) if cell.vlan else None
    vm.agent.send(line)
    # The agent answers only once the stream is over; give it a moment to
    # listen (the peer's SYN is retransmitted if it comes too early).
    vm.peer.command(f"TCPSEND {harness.GUEST_MAC} {guest_ip} "
                    f"{RX_PORT} {run} {TCP_BYTES} {mss}{vid}")
    if cell.family and cell.family.knob == "link-drop":
        # The cable out while the stream runs: the peer's source resends
        # what was lost, the guest's driver sees the link come back.
        qom_set(vm, matrix.KNOBS["link-drop"], matrix.LINK_DROP_MS)
        tlog(f"qom-set {matrix.KNOBS['link-drop']} {matrix.LINK_DROP_MS}")
    _, term = vm.agent.collect(line, timeout=TCP_TIMEOUT + 60)
    got = {k: int(v) for k, v in (w.split("=") for w in term.split())}
    src = harness.settle(lambda: vm.peer.command("TCPSENDSTAT"),
                         lambda s: s["state"] == "closed", 30)
    tlog(f"tcp peer->guest on {ifname}: agent {got}; source {src}")
    checks.eq(f"TCP peer->guest on {ifname}: bytes checked by the agent",
              (got["bytes"], got["bad"], got["complete"]),
              (TCP_BYTES, 0, 1))
    checks.eq("TCP peer->guest: source state and checksum errors",
              (src["state"], src["bad_csum"], src["resets"]),
              ("closed", 0, 0))
    if cell.vlan:
        # The NIC stripped the tag and reported it (VP): Linux delivered
        # every segment through the VLAN's interface, not eth0.
        rx1 = vlan_rx_packets(vm)
        checks.true(f"TCP peer->guest: the source's {src['segments']} "
                    "segments received on eth0.100 (its rx_packets)",
                    rx0 is not None and rx1 is not None and
                    rx1 - rx0 >= src["segments"],
                    f"rx_packets {rx0} -> {rx1}")


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
    matrix_report.write_json(os.path.join(cell_dir, "cost.json"),
                             {"metrics": m, "raw": raw, "device": buf,
                              "burst": {"raw": burst[0],
                                        "rx_packets": burst[1]}})
    return m
