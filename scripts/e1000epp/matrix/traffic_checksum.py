# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's checksum step: the peer sends frames with a wrong
IPv4 header, UDP or TCP checksum (over IPv4 and IPv6), each between
two good frames of its kind (the peer's CSUMBAD, tools/peer/csum.c),
and every layer must count each bad frame exactly once and deliver
none of them:

  - the device: a frame it checked and found wrong gets IPE or TCPE
    (datasheet §7.1.6) and counts the situation rx-csum-err: every
    bad IPv4 header (RXCSUM.IPOFL, set at reset and never cleared by
    Linux's e1000e), and every bad UDP/TCP checksum while RXCSUM.TUOFL
    is set (e1000_configure_rx: set with NETIF_F_RXCSUM, cleared
    without it);
  - the driver: e1000_rx_checksum counts hw_csum_err (ethtool -S
    rx_csum_offload_errors) for each frame with IPE or TCPE and leaves
    it CHECKSUM_NONE, but returns before looking at the descriptor at
    all when NETIF_F_RXCSUM is off (`ethtool -K eth0 rx off`);
  - the stack verifies what the driver did not mark: ip_rcv_core checks
    every IPv4 header in software (Ip InHdrErrors and IpExt
    InCsumErrors), UDP and TCP count InCsumErrors for each bad
    checksum they had to verify (Udp, Udp6, Tcp for both families),
    which a driver that marked a bad frame CHECKSUM_UNNECESSARY hides;
  - the agent's UDP socket gets exactly the good datagrams, each byte
    checked (UDPBIND/UDPRECV); the guest resets each good TCP segment
    (no socket on the port: Tcp OutRsts), so a bad one taken as good
    shows there too.

The IPv6 frames always cross the device and the driver; the stack's
side of them (Udp6InCsumErrors, their datagrams and resets) is checked
only where the guest has IPv6 (the matrix boots with ipv6.disable=1).
In the rxcsumoff family the step runs with `ethtool -K eth0 rx off`
and puts it back on after.
"""

from e1000epp.matrix.guest_io import (carrier, cell_observed, sh,
                                      situations_now)
from e1000epp.matrix.traffic_streams import ip_path
from e1000epp.matrix import cell_model
from e1000epp.vm import harness

CSUM_PORT = 5003
# Bad frames of each kind, each between two good ones.
CSUM_BAD = 2
# Bytes of each UDP datagram and TCP segment's data.
CSUM_LEN = 64
# How long the agent waits for the good datagrams, and the counters
# for the last frames' effects (a passing cell waits for neither).
CSUM_WAIT_MS = 5000
SETTLE_S = 5
KINDS = ("ip4hdr", "udp4", "tcp4", "udp6", "tcp6")
# The family that turns the driver's Rx checksum offload off.
RXCSUM_OFF = "rxcsumoff"
# One read of every counter the step judges.
SNAPSHOT = ("cat /proc/net/snmp /proc/net/netstat; "
            "cat /proc/net/snmp6 2>/dev/null; ethtool -S eth0")
STACK = ("Ip InHdrErrors", "IpExt InCsumErrors", "Udp InCsumErrors",
         "Tcp InCsumErrors", "Tcp OutRsts", "Udp6 InCsumErrors")


def parse_snapshot(text):
    """{"Ip InHdrErrors": n, ...} from SNAPSHOT's output: the two-line
    tables of /proc/net/snmp and netstat, snmp6's "Udp6InCsumErrors n"
    lines (as "Udp6 InCsumErrors"), and ethtool -S's "name: n" (as
    "ethtool name")."""
    out, head = {}, {}
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0].endswith(":") and len(words) > 1:
            table = words[0][:-1]
            if all(w.lstrip("-").isdigit() for w in words[1:]) and \
                    table in head:
                for k, v in zip(head.pop(table), words[1:]):
                    out[f"{table} {k}"] = int(v)
            elif len(words) == 2 and words[1].lstrip("-").isdigit():
                out[f"ethtool {table}"] = int(words[1])
            else:
                head[table] = words[1:]
        elif len(words) == 2 and words[0].startswith("Udp6") and \
                words[1].isdigit():
            out[f"Udp6 {words[0][4:]}"] = int(words[1])
    return out


def expected(sent, rx_csum, ipv6):
    """What the step must see move, from what the peer sent ({kind:
    [good, bad]}), whether the driver's Rx checksum offload is on, and
    whether the guest has IPv6: {"device": rx-csum-err, "driver":
    rx_csum_offload_errors, "stack": {counter: n}, "agent": UDPRECV's
    counts}."""
    def good(k):
        return sent.get(k, [0, 0])[0]

    def bad(k):
        return sent.get(k, [0, 0])[1]
    l4 = bad("udp4") + bad("tcp4") + bad("udp6") + bad("tcp6")
    device = bad("ip4hdr") + (l4 if rx_csum else 0)
    stack = {"Ip InHdrErrors": bad("ip4hdr"),
             "IpExt InCsumErrors": bad("ip4hdr"),
             "Udp InCsumErrors": bad("udp4"),
             "Tcp InCsumErrors": bad("tcp4") + (bad("tcp6") if ipv6 else 0),
             "Tcp OutRsts": good("tcp4") + (good("tcp6") if ipv6 else 0)}
    if ipv6:
        stack["Udp6 InCsumErrors"] = bad("udp6")
    datagrams = good("ip4hdr") + good("udp4") + (good("udp6") if ipv6
                                                 else 0)
    return {"device": device, "driver": device if rx_csum else 0,
            "stack": stack,
            "agent": {"got": datagrams, "good": datagrams, "bad": 0,
                      "corrupt": 0, "dup": 0}}


def _wait_link(vm, cell):
    for ifname in ("eth0", "eth0.100") if cell.vlan else ("eth0",):
        harness.wait_until(f"carrier on {ifname}",
                           lambda i=ifname: carrier(vm, i), 60,
                           interval=0.2)


def _set_rx_csum(vm, cell, on, tlog):
    sh(vm, f"ethtool -K eth0 rx {'on' if on else 'off'}")
    _wait_link(vm, cell)
    tlog(f"checksums: ethtool -K eth0 rx {'on' if on else 'off'} "
         "(the driver reinitialises: RXCSUM.TUOFL follows)")


def _read(vm):
    """(the snapshot's counters, the device's rx-csum-err or None)."""
    _, text = sh(vm, SNAPSHOT, check=False)
    sits = situations_now(vm)
    return parse_snapshot(text), (sits or {}).get("rx-csum-err")


def traffic_checksum(ctx):
    """The step (module docstring), on the cell's IP path."""
    vm, cell, tlog = ctx.vm, ctx.cell, ctx.tlog
    off = bool(cell.family and cell.family.name == RXCSUM_OFF)
    ifname, guest_ip, _ = ip_path(cell)
    ipv6 = sh(vm, "test -e /proc/net/snmp6", check=False)[0] == 0
    if ipv6:
        sh(vm, f"ip -6 addr replace {harness.GUEST_IP6}/64 dev {ifname} "
           "nodad")
    if off:
        _set_rx_csum(vm, cell, False, tlog)
    try:
        _exchange(ctx, off, ifname, guest_ip, ipv6)
    finally:
        if off:
            _set_rx_csum(vm, cell, True, tlog)


def _exchange(ctx, off, ifname, guest_ip, ipv6):
    vm, cell, checks, tlog = ctx.vm, ctx.cell, ctx.checks, ctx.tlog
    c0, dev0 = _read(vm)
    vm.agent.request(f"UDPBIND {CSUM_PORT}")
    vid = f" {cell_model.VLAN_ID}" if cell.vlan else ""
    sent = vm.peer.command(
        f"CSUMBAD {harness.GUEST_MAC} {guest_ip} {harness.GUEST_IP6} "
        f"{CSUM_PORT} {CSUM_BAD} {CSUM_LEN}{vid}")
    want = expected(sent["kinds"], not off, ipv6)
    got = vm.agent.kv(f"UDPRECV {want['agent']['got']} {CSUM_LEN} "
                      f"{CSUM_WAIT_MS}", timeout=CSUM_WAIT_MS / 1000 + 60)

    def moved(read):
        c1, dev1 = read
        stack = {k: c1.get(k, 0) - c0.get(k, 0) for k in want["stack"]}
        drv = c1.get("ethtool rx_csum_offload_errors")
        drv0 = c0.get("ethtool rx_csum_offload_errors")
        return {"device": None if dev0 is None or dev1 is None
                else dev1 - dev0,
                "driver": None if drv is None or drv0 is None
                else drv - drv0,
                "stack": stack}

    def settled(read):
        m = moved(read)
        return m["stack"] == want["stack"] and m["driver"] == \
            want["driver"] and m["device"] in (None, want["device"])
    last = harness.poll_value(lambda: _read(vm), settled, SETTLE_S)
    m = moved(last)
    rx = "off" if off else "on"
    tlog(f"checksums on {ifname} (rx offload {rx}, guest IPv6 "
         f"{'on' if ipv6 else 'off'}): peer sent {sent['kinds']} "
         f"([good, bad]); agent {got}; moved {m}; want {want}")
    what = (f"checksums (Rx offload {rx}): {sent['bad']} bad frames "
            f"among {sent['good']} good on {ifname}")
    if m["device"] is None and cell_observed(vm):
        checks.true(f"{what}: the device's rx-csum-err read (QMP)", False,
                    "unreadable")
    elif m["device"] is not None:
        checks.eq(f"{what}: the device's rx-csum-err (IPE/TCPE, "
                  "§7.1.6)", m["device"], want["device"])
    checks.eq(f"{what}: the driver's rx_csum_offload_errors (ethtool -S)",
              m["driver"], want["driver"])
    checks.eq(f"{what}: the stack's own checksum verdicts (/proc/net/snmp, "
              "netstat, snmp6)", m["stack"], want["stack"])
    checks.eq(f"{what}: the datagrams the agent's socket got (only the "
              "good ones, every byte checked)", got, want["agent"])
