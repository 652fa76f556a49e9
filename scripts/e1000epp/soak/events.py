# SPDX-License-Identifier: GPL-2.0-or-later
"""The soak's events, and their seeded order (soak/command.py runs them).

Every few seconds one event, drawn from a bag holding each kind once,
shuffled by the run's random generator and refilled when empty: every
kind comes once per len(kinds) events, the order and the parameters
(how long the link stays out, which MTU) are the seed's.

  link-flap    the cable out for 100-1500 ms: the device's knob
               x-link-drop-ms (the device counts what meets the cable
               out as rx-not-ready), on the stock model QMP set_link
               (QEMU drops those frames before the device)
  tx-hang      the Tx engine held (x-tx-hold), the ring filled, until the
               stack's transmit watchdog or the driver's hang check has
               the driver log "Reset adapter" and reset it, then released (e1000e-pp only: the stock model has
               no knob to hold its Tx engine)
  runtime-pm   power/control auto, the link out: the driver suspends the
               function (D3hot); the link back wakes it through PME and
               the driver resumes it (the link knob held at its maximum,
               then set to 1 ms; e1000e-pp only: QEMU's e1000e advertises
               no PME in its PM capability, so Linux never lets it
               runtime-suspend)
  mtu          the MTU changed to another of MTUS (the driver reallocates
               its rings and buffers)
  migrate      (with --migrate) the running guest migrated live into a
               new QEMU on this machine (vm/migration.py): its agents,
               the TCP streams and the peer go with it, the next
               migration goes back into another new one

Each event returns (ok, detail); a harness error ends the soak.
"""

import time

from e1000epp.vm import harness

KINDS = ("link-flap", "tx-hang", "runtime-pm", "mtu")
# Only with --migrate: each one replaces QEMU, so QEMU's memory curve
# is no longer one process's.
MIGRATE = "migrate"
MTUS = (1500, 4000, 9000)
LINK_DROP_MS = (100, 1500)
# Generous for TCG on a loaded 2-core machine; reached only when the
# driver never gets there.
HANG_TIMEOUT = 120
HANG_FRAMES = 400
PM_TIMEOUT = 120
# The link knob's maximum: held out while the driver suspends.
LINK_KNOB_MAX_MS = 60000
WAKE_CAUSE = "MAC Wakeup cause - Link Status Change"


def supported(device):
    """{kind: None if the device can run it, else why not}."""
    why = {k: None for k in KINDS}
    if device == "e1000e":
        why["tx-hang"] = ("QEMU's e1000e has no knob to hold its Tx "
                          "engine (x-tx-hold is e1000e-pp's)")
        why["runtime-pm"] = ("QEMU's e1000e advertises no PME (its PMC "
                             "is version 1.1 and DSI only), so Linux "
                             "never runtime-suspends it (pci_dev_run_wake)")
    return why


class Schedule:
    """The seeded order of events: next() -> (kind, params)."""

    def __init__(self, rng, kinds):
        self.rng = rng
        self.kinds = list(kinds)
        self.bag = []

    def next(self, mtu):
        if not self.bag:
            self.bag = list(self.kinds)
            self.rng.shuffle(self.bag)
        kind = self.bag.pop()
        if kind == "link-flap":
            return kind, {"ms": self.rng.randint(*LINK_DROP_MS)}
        if kind == "mtu":
            return kind, {"mtu": self.rng.choice([m for m in MTUS
                                                  if m != mtu])}
        return kind, {}


def run_event(svm, dmesg, kind, params):
    """Run one event on the guest; (ok, detail)."""
    return EVENTS[kind](svm, dmesg, **params)


def link_flap(svm, dmesg, ms):
    if svm.link_drop_knob():
        svm.qom_set("x-link-drop-ms", ms)
        how = f"x-link-drop-ms {ms}"
    else:
        svm.vm.qmp.execute("set_link", name=svm.vm.netdev_id, up=False)
        time.sleep(ms / 1000)
        svm.vm.qmp.execute("set_link", name=svm.vm.netdev_id, up=True)
        how = f"set_link off for {ms} ms"
    svm.wait_carrier("the carrier back after the link flap")
    return True, how


def tx_hang(svm, dmesg, run=0x7f000000):
    svm.qom_set("x-tx-hold", 1)
    # Under MSI-X the driver looks for a hang only when a Tx interrupt
    # comes, which a held engine never raises; the stack's own watchdog
    # sees the queue stopped for 5 s once the ring is full and has the
    # driver reset the adapter. HANG_FRAMES fill the 256-descriptor ring
    # whatever else is sending (frames of a run nobody counts).
    try:
        svm.agent.kv(f"TX eth0 {harness.PEER_MAC} {run} {HANG_FRAMES} 60 60")
    except harness.AgentError:
        pass            # the qdisc full before the last one: enough
    seen = []
    try:
        harness.wait_until(
            "the driver's Tx hang check and reset",
            lambda: seen.extend(ln for ln in dmesg.read()
                                if "Reset adapter" in ln) or seen,
            HANG_TIMEOUT, interval=0.5, evidence=svm.vm.console_tail)
    finally:
        svm.qom_set("x-tx-hold", 0)
    svm.wait_carrier("the carrier after the Tx-hang reset")
    return True, seen[0].split("]", 1)[-1].strip()[:120]


def runtime_pm(svm, dmesg):
    pci = svm.pci_address()
    ctl = f"/sys/bus/pci/devices/{pci}/power"

    def status():
        return svm.sh(f"cat {ctl}/runtime_status",
                      check=False)[1].strip()

    def link(up):
        svm.qom_set("x-link-drop-ms", 1 if up else LINK_KNOB_MAX_MS)
    svm.sh(f"echo auto > {ctl}/control")
    link(False)
    out = True
    try:
        harness.wait_until("runtime suspend", lambda: status() ==
                           "suspended", PM_TIMEOUT, interval=0.5,
                           evidence=svm.vm.console_tail)
        link(True)
        out = False
        harness.wait_until("runtime resume through PME",
                           lambda: status() == "active", PM_TIMEOUT,
                           interval=0.5, evidence=svm.vm.console_tail)
    finally:
        if out:
            link(True)
        svm.sh(f"echo on > {ctl}/control")
    svm.wait_carrier("the carrier after the runtime resume")
    return True, "suspended, woken by PME"


def mtu(svm, dmesg, mtu):
    svm.sh(f"ip link set eth0 mtu {mtu}")
    svm.wait_carrier(f"the carrier at MTU {mtu}")
    return True, f"MTU {mtu}"


def migrate(svm, dmesg):
    rec = svm.migrate()
    return True, (f"live migration {svm.migrations}: total "
                  f"{rec['total_ms']} ms, downtime {rec['downtime_ms']} ms, "
                  f"{rec['pktbuf_frames']} frames in the packet buffer")


EVENTS = {"link-flap": link_flap, "tx-hang": tx_hang,
          "runtime-pm": runtime_pm, "mtu": mtu, MIGRATE: migrate}
