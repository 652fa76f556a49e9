# SPDX-License-Identifier: GPL-2.0-or-later
"""Every frame of a cell counted at every boundary it crosses, both ways.

  Rx: peer sent  = device delivered + the device's drops (per counter)
      device delivered = frames the driver handed to the stack
                         + the drops the cell expects of the driver
  Tx: frames the stack handed the driver (a TSO skb as its segments)
                 = frames the device put on the wire
      device sent + PAUSE frames of flow control = frames the peer got

The driver's side is counted by the kernel, not by the driver: the
net:* tracepoints a driver's frames pass (napi_gro_receive_entry and
its siblings as the driver hands a frame up, before GRO merges any;
net_dev_start_xmit as the stack hands one down, with its gso_segs),
each with a histogram trigger keyed by interface (tracefs; Debian's
kernels have CONFIG_HIST_TRIGGERS), so a frame the driver drops without
a word shows as a frame the device delivered that never went up.

A frame still on its way (in the packet buffer, on the ring before the
next NAPI poll, in the socket between QEMU and the peer) makes a
boundary differ for a moment, so the counts are read until every
boundary balances or the bound passes; a frame lost never arrives.
"""

import re
import time

from e1000epp.vm import harness

TRACING = "/sys/kernel/tracing"
# Every way a driver hands a received frame to the stack (include/
# trace/events/net.h); the GRO path's own delivery is not one of them,
# so each frame is counted once, as the driver passed it.
RX_EVENTS = ("napi_gro_receive_entry", "napi_gro_frags_entry",
             "netif_receive_skb_entry", "netif_receive_skb_list_entry",
             "netif_rx_entry")
TX_EVENT = "net_dev_start_xmit"
# After ndo_start_xmit: its return code. NETDEV_TX_BUSY (0x10) puts the
# skb back for another start, which the start event counts again.
TX_DONE = "net_dev_xmit"
TX_BUSY = 16
TRIGGERS = {**{e: "hist:keys=name" for e in RX_EVENTS},
            TX_EVENT: "hist:keys=name,gso_segs",
            TX_DONE: "hist:keys=name,rc"}

# The device's frame counters (qom-get): delivered plus every fate that
# is not a delivery (an Rx frame ends in exactly one).
RX_DELIVERED = "rx-delivered"
RX_FATES = ("rx-missed", "rx-filtered", "rx-oversize", "rx-undersize",
            "rx-not-ready", "rx-dma-error", "rx-flushed", "rx-errored",
            "rx-wake")
TX_SENT, PAUSE_SENT = "tx-sent", "tx-pause-sent"
DEVICE = (RX_DELIVERED,) + RX_FATES + (TX_SENT, PAUSE_SENT)

# Seconds to wait for the boundaries to balance once traffic is over
# (a NAPI poll, a held write-back's timer, the peer's read: each well
# under a second of guest time even under TCG).
SETTLE = 15.0
INTERVAL = 0.1


class CountError(Exception):
    """The kernel's counts cannot be armed or read."""


def _arm_script():
    lines = [f"grep -q ' {TRACING} ' /proc/mounts || "
             f"mount -t tracefs nodev {TRACING} || exit 3"]
    for event, trigger in TRIGGERS.items():
        path = f"{TRACING}/events/net/{event}"
        lines.append(f"test -d {path} || exit 4")
        lines.append(f"grep -q '^{trigger}' {path}/trigger || "
                     f"echo '{trigger}' > {path}/trigger || exit 5")
    return "; ".join(lines)


def arm(vm):
    """The histogram triggers, once a boot (they count from then on)."""
    rc, out = vm.agent.sh(_arm_script(), check=False)
    if rc:
        why = {3: f"tracefs cannot be mounted at {TRACING}",
               4: "a net tracepoint is missing (CONFIG_TRACING)",
               5: "a histogram trigger is refused (CONFIG_HIST_TRIGGERS)"}
        raise CountError(why.get(rc, f"exit {rc}: {out.strip()[:200]}"))


_HIT = re.compile(r"^\{\s*(.*?)\s*\}\s*hitcount:\s*(\d+)\s*$")


def parse_hist(text):
    """[({key: value}, hits)] of a hist file's entries."""
    out = []
    for line in text.splitlines():
        m = _HIT.match(line.strip())
        if not m:
            continue
        keys = {}
        for part in m.group(1).split(","):
            k, _, v = part.partition(":")
            keys[k.strip()] = v.strip()
        out.append((keys, int(m.group(2))))
    return out


def kernel_counts(text, ifname):
    """(frames handed up, frames handed down counting a GSO skb as its
    gso_segs, NETDEV_TX_BUSY returns) of ifname from the hist files
    `read` concatenates (each after a line "== <event>")."""
    parts = {}
    event = None
    for line in text.splitlines():
        if line.startswith("== "):
            event = line[3:].strip()
            parts[event] = []
        elif event:
            parts[event].append(line)
    missing = [e for e in TRIGGERS if e not in parts]
    if missing:
        raise CountError("hist not read: " + ", ".join(missing))
    hist = {e: parse_hist("\n".join(v)) for e, v in parts.items()}
    up = sum(n for e in RX_EVENTS for k, n in hist[e]
             if k.get("name") == ifname)
    # A non-GSO skb leaves gso_segs 0 (or 1 from TCP): one frame.
    down = sum(max(1, int(k.get("gso_segs", "0"))) * n
               for k, n in hist[TX_EVENT] if k.get("name") == ifname)
    busy = sum(n for k, n in hist[TX_DONE] if k.get("name") == ifname and
               int(k.get("rc", "0"), 0) == TX_BUSY)
    return up, down, busy


def hist_path(event):
    return f"{TRACING}/events/net/{event}/hist"


def read_kernel(vm, ifname="eth0"):
    files = vm.agent.read_files([hist_path(e) for e in TRIGGERS])
    unread = [e for e in TRIGGERS if files[hist_path(e)] is None]
    if unread:
        raise CountError("hist files unreadable: " + ", ".join(unread))
    return kernel_counts("\n".join(f"== {e}\n{files[hist_path(e)]}"
                                   for e in TRIGGERS), ifname)


def read_device(vm):
    """{counter: value} of DEVICE; None for the stock model (no such
    properties)."""
    out = {}
    for name in DEVICE:
        try:
            out[name] = vm.qmp.execute(
                "qom-get", path=f"/machine/peripheral/{vm.NIC_ID}",
                property=name)
        except harness.HarnessError:
            return None
    return out


def snapshot(vm, ifname="eth0"):
    """Every count of both directions at one moment: the device's, the
    kernel's, the peer's."""
    dev = read_device(vm)
    up, down, busy = read_kernel(vm, ifname)
    peer = vm.peer.stats()
    return {"device": dev, "stack_up": up, "stack_down": down,
            "tx_busy": busy, "peer_out": peer["frames_out"],
            "peer_in": peer["frames_in"]}


# The boundaries, as the evidence and a failed check name them.
RX_WIRE = "rx wire: peer sent - (device delivered + drops)"
RX_DRIVER = "rx driver: device delivered - handed to the stack"
TX_DRIVER = "tx driver: handed down by the stack - device sent"
TX_WIRE = "tx wire: device sent + PAUSE - peer got"
TX_END_TO_END = "tx end to end: handed down by the stack - peer got"
TX_BUSY_RETURNS = "tx driver: NETDEV_TX_BUSY returns"


def balances(a, b):
    """{boundary: frames unaccounted} between two snapshots (0 when every
    frame is where it should be); device boundaries only where the
    device keeps counts."""
    def d(key):
        return b[key] - a[key]
    out = {}
    if a["device"] is not None and b["device"] is not None:
        dev = {k: b["device"][k] - a["device"][k] for k in DEVICE}
        fates = sum(dev[k] for k in RX_FATES)
        out[RX_WIRE] = d("peer_out") - dev[RX_DELIVERED] - fates
        out[RX_DRIVER] = dev[RX_DELIVERED] - d("stack_up")
        out[TX_DRIVER] = d("stack_down") - dev[TX_SENT]
        out[TX_WIRE] = dev[TX_SENT] + dev[PAUSE_SENT] - d("peer_in")
    else:
        # The stock model counts nothing: the guest's own ends only.
        out[TX_END_TO_END] = d("stack_down") - d("peer_in")
    # A busy return is counted twice by the start event; a driver that
    # stops its queue before its ring fills never gives one
    # (Documentation/networking/driver.rst).
    out[TX_BUSY_RETURNS] = d("tx_busy")
    return out


# What a boundary may show in a family whose event resets the Tx ring:
# the frames it held unsent, which the driver's reset frees
# (e1000_clean_tx_ring); how many depends on when the reset comes.
RING_RESET = "frames the reset discarded (>= 0)"
# Families whose event resets the MAC with the Tx ring loaded: the hang
# (the reset task), the link loss (with the link gone the MAC sends
# nothing, so e1000_watchdog_task resets it when Tx work is still
# queued), and the reset-PM race.
TX_RING_RESETS = ("txhang", "linkdrop", "resetpm", "rpm")


def holds(value, want):
    return value >= 0 if want == RING_RESET else value == want


def settle(vm, start, want, bound=None, ifname="eth0"):
    """Snapshots until every boundary shows what `want` expects (0 but
    for the drops the cell expects), or bound s; the last one's
    (snapshot, balances)."""
    deadline = time.monotonic() + (SETTLE if bound is None else bound)
    while True:
        snap = snapshot(vm, ifname)
        bal = balances(start, snap)
        if all(holds(v, want.get(k, 0)) for k, v in bal.items()) or \
                time.monotonic() >= deadline:
            return snap, bal
        time.sleep(INTERVAL)


def quiet(vm, bound=None, ifname="eth0"):
    """A snapshot taken once two in a row agree (no frame in flight): the
    cell's starting point."""
    deadline = time.monotonic() + (SETTLE if bound is None else bound)
    prev = snapshot(vm, ifname)
    while True:
        time.sleep(INTERVAL)
        snap = snapshot(vm, ifname)
        if snap == prev or time.monotonic() >= deadline:
            return snap
        prev = snap


def begin(vm, g, checks, tlog):
    """The cell's starting snapshot (None, with a failed check, when the
    kernel's counts cannot be had)."""
    try:
        if not g.counting:
            arm(vm)
            g.counting = True
        start = quiet(vm)
    except (CountError, harness.HarnessError, KeyError) as e:
        checks.true("frames counted by the guest kernel (tracefs "
                    "histograms)", False, f"{e}: no frame is counted at "
                    "the driver's boundaries")
        return None
    tlog(f"frame counts at the start: {start}")
    return start


def judge(vm, checks, cell, start, retransmits, tlog):
    """Every boundary balanced (frame_count's docstring), and TCP
    retransmissions told apart: with every frame accounted for, one is
    spurious (an ACK later than the guest's 200 ms minimum RTO under
    TCG), otherwise the balances name where the frame went. Returns
    the evidence for frames.json."""
    if start is None:
        return None
    want = {RX_DRIVER: sum(checks.driver_drops.values())}
    if cell.family and cell.family.name in TX_RING_RESETS:
        want[TX_DRIVER] = RING_RESET
    try:
        end, bal = settle(vm, start, want)
    except (CountError, harness.HarnessError, KeyError) as e:
        checks.true("frames counted at the cell's end", False, str(e))
        return None
    want = {k: want.get(k, 0) for k in bal}
    tlog(f"frame counts at the end: {end}")
    tlog(f"frames unaccounted per boundary: {bal} (want {want}; the "
         f"driver's expected drops: {checks.driver_drops or 'none'})")
    balanced = all(holds(v, want[k]) for k, v in bal.items())
    # A count the family's reset accounts for is shown as wanted.
    shown = {k: bal[k] if want[k] == RING_RESET and bal[k] >= 0 else w
             for k, w in want.items()}
    checks.eq("every frame at every boundary (frames unaccounted: peer, "
              "device, driver, stack)", bal, shown)
    guest, peer = retransmits, checks.peer_retransmits
    if cell.family is None:
        checks.true("TCP retransmissions (guest RetransSegs, peer source) "
                    "are 0, or spurious: every frame accounted for",
                    (guest == 0 and peer == 0) or balanced,
                    f"guest {guest}, peer {peer}" +
                    (" (spurious: no frame lost at any boundary)"
                     if balanced and (guest or peer) else ""))
    else:
        tlog(f"TCP retransmissions: guest {guest}, peer {peer} (the "
             "family's event may cause them)")
    return {"start": start, "end": end, "unaccounted": bal, "want": want,
            "driver_drops": checks.driver_drops,
            "retransmits": {"guest": guest, "peer": peer}}
