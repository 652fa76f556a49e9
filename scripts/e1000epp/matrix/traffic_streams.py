# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's IP steps: UDP echo, the truesize the driver charges a
received frame, and a TCP stream each way, on eth0 or the VLAN's
interface.
"""

import os

from e1000epp.matrix import cell_model
from e1000epp.matrix.guest_io import qom_set, sh
from e1000epp.matrix.traffic_frames import tcp_tags
from e1000epp.vm import harness

UDP_COUNT = 8
TCP_BYTES = 256 * 1024
TCP_CHUNK = 16384
TCP_TIMEOUT = 90
SINK_PORT = 5001
RX_PORT = 5002


def vlan_rx_packets(vm):
    """rx_packets of the guest's VLAN interface (None if unreadable)."""
    rc, out = sh(vm, "cat /sys/class/net/eth0.100/statistics/rx_packets",
                 check=False)
    return int(out) if rc == 0 and out.strip().isdigit() else None


def ip_path(cell):
    """(guest interface, guest address, peer address) the cell's IP
    traffic takes: eth0, or the VLAN's interface with both VLAN hosts."""
    if cell.vlan:
        return "eth0.100", harness.GUEST_VLAN_IP, harness.PEER_VLAN_IP
    return "eth0", harness.GUEST_IP, harness.PEER_IP


def traffic_udp(ctx):
    """UDP both ways: the peer echoes every datagram."""
    vm, cell, checks, tlog = ctx.vm, ctx.cell, ctx.checks, ctx.tlog
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
    chunks = -(-in_buffers // cell_model.PAGEPOOL_CHUNK)
    if chunks == 1:
        return cell_model.PAGEPOOL_TRUESIZE_ONE[1500 if cell.mtu <= 1500
                                                else 2026]
    return cell_model.PAGEPOOL_TRUESIZE[chunks]


def libeth_holder(vm):
    """Whether the loaded e1000e holds libeth (PAGEPOOL_HOLDER): True,
    False, or None when that cannot be read."""
    rc, out = sh(vm, f"if test -e {cell_model.PAGEPOOL_HOLDER}; then echo "
                 "yes; elif test -d /sys/module/e1000e; then echo no; fi",
                 check=False)
    return {"yes": True, "no": False}.get(out.strip()) if rc == 0 else None


def pagepool_driver(vm, driver):
    """(whether the series' truesize table applies: True, False or None
    when it cannot be told, why). From the run's options when they name
    the driver (the series, or Debian's own e1000e); for the user's own
    driver from whether it holds libeth."""
    holder = libeth_holder(vm)
    seen = {True: "present", False: "absent", None: "unreadable"}[holder]
    seen = f"{cell_model.PAGEPOOL_HOLDER} {seen}"
    if driver == cell_model.DRIVER_SERIES:
        return True, f"the run's driver is the page-pool series; {seen}"
    if driver == cell_model.DRIVER_STOCK:
        return False, f"the run's driver is Debian's e1000e; {seen}"
    return holder, f"the user's driver: {seen}"


def traffic_truesize(ctx):
    """The truesize the driver charges a received MTU-sized frame: the
    agent's UDPHOLD leaves echoes unread and reads the socket's receive
    memory after each (SO_MEMINFO). A page-pool driver must charge what
    the series' table says; the stock driver's charge is logged only
    (the table's stock column is kernel 7.1's, and Debian's 6.1 and
    6.12 allocate their skbs differently). Which one runs is the run's
    word (ctx.driver), not a file's presence: the series' table holds
    even when libeth's holder file cannot be read."""
    vm, cell, checks, tlog = ctx.vm, ctx.cell, ctx.checks, ctx.tlog
    _, _, peer_ip = ip_path(cell)
    n = cell.mtu - 28
    data, term = vm.agent.request(
        f"UDPHOLD {peer_ip} 7 {TRUESIZE_HELD} {n} {TRUESIZE_TIMEOUT_MS}",
        timeout=TRUESIZE_HELD * TRUESIZE_TIMEOUT_MS / 1000 + 60)
    got = [int(d.split()[2]) for d in data if d.startswith("truesize ")]
    pagepool, why = pagepool_driver(vm, ctx.driver)
    tlog(f"truesize of {n}-byte datagrams' echoes: {got} ({term}; "
         f"{'page pool' if pagepool else 'no page pool'}: {why})")
    # Any design: every echo held and charged at least the datagram.
    checks.eq(f"truesize: {TRUESIZE_HELD} echoes of {n} bytes held, each "
              "charged at least its length",
              (len(got), all(t >= n for t in got)), (TRUESIZE_HELD, True))
    if pagepool is None:
        checks.true("truesize: whether the driver builds its Rx buffers "
                    "through libeth's page pool (the series' table)",
                    False, f"cannot be told: {why}")
        return
    if not pagepool:
        return
    want = pagepool_truesize(cell)
    checks.eq(f"truesize of each MTU-sized frame (page pool, the series' "
              f"table: {want})", got, [want] * TRUESIZE_HELD)


def traffic_tcp_tx(ctx):
    """TCP guest -> peer, every segment checked by the peer's sink."""
    vm, cell, run_base, checks, cell_dir, tlog = (
        ctx.vm, ctx.cell, ctx.run_base, ctx.checks, ctx.cell_dir, ctx.tlog)
    ifname, _, peer_ip = ip_path(cell)
    run = run_base + 3
    mss = cell.mtu - 40
    sinklog = os.path.join(cell_dir, "tcpsink.log")
    vm.peer.command(f"TCPSINK {SINK_PORT} {run} {mss} {sinklog}")
    _, term = vm.agent.request(
        f"TCPTX {ifname} {peer_ip} {SINK_PORT} {run} {TCP_BYTES} "
        f"{TCP_CHUNK} {TCP_TIMEOUT}", timeout=TCP_TIMEOUT + 60)
    sink = harness.poll_value(lambda: vm.peer.command("TCPSTAT"),
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
                      "capture)", tags, {str(cell_model.VLAN_ID):
                                         sink.get("frames")})


def traffic_tcp_rx(ctx):
    """TCP peer -> guest, every byte checked by the agent."""
    vm, cell, run_base, checks, tlog = (
        ctx.vm, ctx.cell, ctx.run_base, ctx.checks, ctx.tlog)
    ifname, guest_ip, _ = ip_path(cell)
    vid = f" {cell_model.VLAN_ID}" if cell.vlan else ""
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
        qom_set(vm, cell_model.KNOBS["link-drop"], cell_model.LINK_DROP_MS)
        tlog(f"qom-set {cell_model.KNOBS['link-drop']} "
             f"{cell_model.LINK_DROP_MS}")
    _, term = vm.agent.collect(line, timeout=TCP_TIMEOUT + 60)
    got = {k: int(v) for k, v in (w.split("=") for w in term.split())}
    src = harness.poll_value(lambda: vm.peer.command("TCPSENDSTAT"),
                             lambda s: s["state"] == "closed", 30)
    tlog(f"tcp peer->guest on {ifname}: agent {got}; source {src}")
    checks.peer_retransmits += src.get("retransmits", 0)
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
