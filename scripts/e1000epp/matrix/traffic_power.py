# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's power and reset steps: a runtime suspend without link
and the PME wake, a system sleep (S3) woken through QMP, the driver's
reset task against its runtime suspend, and a Tx hang the driver's
reset must recover from.
"""

import re

from e1000epp.matrix import cell_model
from e1000epp.matrix.guest_io import (LINK_TIMEOUT, carrier, qom_get, qom_set,
                                      sh)
from e1000epp.vm import harness

# What Linux's e1000e logs when a wake-up resumed it (e1000_resume).
WAKE_CAUSE = "MAC Wakeup cause - Link Status Change"


def runtime_suspend(ctx):
    """Linux runtime-suspends e1000e only without link (its idle
    callback), after arming link-change wake: with power/control auto,
    the link taken away suspends the function (D3hot); the link back
    sets PMCSR.PME_Status, the PCI core's PME poll resumes it and the
    driver logs the cause it reads from WUS."""
    vm, checks, tlog, bound = ctx.vm, ctx.checks, ctx.tlog, ctx.bound
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


# The ICH9 LPC bridge's ACPI I/O window (PMBASE at 0x40, ACPI_CNTL at
# 0x44): QEMU's wake from S3 resets it and SeaBIOS's resume path does not
# set it again (families.BOOT_EXTRAS), so the ACPI PM registers, the
# power-off among them, are gone until the harness puts back what the
# firmware set at boot.
LPC_CONFIG = "/sys/bus/pci/devices/0000:00:1f.0/config"
LPC_ACPI_WINDOW = (0x40, 8)
# What the kernel prints once every device has resumed (kernel/power).
SUSPEND_EXIT = "PM: suspend exit"


def _config_bytes(vm, path, at, n):
    _, out = sh(vm, f"od -An -tx1 -j{at} -N{n} {path}")
    return [int(b, 16) for b in out.split()]


def _write_config(vm, path, at, data):
    octal = "".join(f"\\{b:03o}" for b in data)
    sh(vm, f"printf '{octal}' | dd of={path} bs=1 seek={at} "
           "conv=notrunc 2>/dev/null")


def system_sleep(ctx):
    """The guest suspended to RAM (S3) and woken by QMP system_wakeup,
    with the interface up or down (the family's sleep): the driver's
    system suspend and resume callbacks run, the wake's machine reset
    takes the device's power as S3 does, and the driver must bring the
    link and traffic back by itself."""
    vm, checks, tlog, bound = ctx.vm, ctx.checks, ctx.tlog, ctx.bound
    down = ctx.cell.family.sleep == "down"
    lpc = _config_bytes(vm, LPC_CONFIG, *LPC_ACPI_WINDOW)
    exits0 = vm.console_text().count(SUSPEND_EXIT)
    if down:
        sh(vm, "ip link set eth0 down")
    # The agent answers before the guest freezes its tasks.
    sh(vm, "echo deep > /sys/power/mem_sleep && "
           "(sleep 1; echo mem > /sys/power/state) >/dev/null 2>&1 &")
    tlog(f"suspend to RAM, interface {'down' if down else 'up'}")
    try:
        harness.wait_until("the guest in S3 (QEMU run state suspended)",
                           lambda: vm.qmp.execute("query-status")
                           ["status"] == "suspended", bound, interval=0.2)
    except harness.HarnessError as e:
        checks.true("suspend to RAM and wake", False,
                    str(e).splitlines()[0])
        return
    tlog("QEMU run state suspended; system_wakeup")
    try:
        vm.qmp.execute("system_wakeup")
        harness.wait_until(f"the resume ({SUSPEND_EXIT!r} on the console)",
                           lambda: vm.console_text().count(SUSPEND_EXIT)
                           > exits0, bound, interval=0.2)
        # Bytes sent while the UART was being restored are lost.
        vm.agent.hello(timeout=bound)
        tlog("resumed; the agent answers")
    except harness.HarnessError as e:
        checks.true("suspend to RAM and wake", False,
                    str(e).splitlines()[0])
        # A guest that went to sleep and did not come back answers
        # nothing more: end the cell now, not after each later step's
        # own timeout.
        raise harness.HarnessError("the guest did not come back from S3: "
                                   + str(e).splitlines()[0])
    _write_config(vm, LPC_CONFIG, LPC_ACPI_WINDOW[0], lpc)
    if down:
        sh(vm, "ip link set eth0 up")
    checks.eq("system sleeps the kernel finished (console: "
              f"{SUSPEND_EXIT})",
              vm.console_text().count(SUSPEND_EXIT) - exits0, 1)
    checks.eq("the LPC bridge's ACPI window as the firmware set it",
              _config_bytes(vm, LPC_CONFIG, *LPC_ACPI_WINDOW), lpc)
    harness.wait_until("carrier on eth0 after the wake",
                       lambda: carrier(vm), LINK_TIMEOUT, interval=0.2)
    tlog("carrier back")


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


def reset_vs_suspend(ctx):
    """The driver's reset task against its runtime suspend (the resetpm
    family; cell_model.RACE_RESET_NS says why the timing catches a reset
    task that takes no runtime-PM reference). The function must never
    be touched while in D3hot (the device's pm-violations, read over
    QMP so that a guest the race broke still gives its verdict), the
    reset must reach the MAC, the driver must suspend and wake through
    PME when the cable is back."""
    vm, run_base, checks, tlog, bound = (
        ctx.vm, ctx.run_base, ctx.checks, ctx.tlog, ctx.bound)
    _, pci = sh(vm, "basename $(readlink /sys/class/net/eth0/device)")
    ctl = f"/sys/bus/pci/devices/{pci.strip()}/power"
    hold, delay = cell_model.KNOBS["tx-hold"], cell_model.KNOBS["reset-delay"]
    drop = cell_model.KNOBS["link-drop"]

    def status():
        return sh(vm, f"cat {ctl}/runtime_status", check=False)[1].strip()

    def wakes():
        return sh(vm, "dmesg", check=False)[1].count(WAKE_CAUSE)

    wakes0 = wakes()
    viol0 = qom_get(vm, "pm-violations")
    sh(vm, f"echo auto > {ctl}/control")
    qom_set(vm, delay, cell_model.RACE_RESET_NS)
    qom_set(vm, hold, 1)
    tlog(f"power/control auto, qom-set {delay} {cell_model.RACE_RESET_NS}, "
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
        qom_set(vm, drop, cell_model.RACE_LINK_DROP_MS)
        tlog(f"qom-set {drop} {cell_model.RACE_LINK_DROP_MS}")
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


def tx_hang(ctx):
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
    vm, run_base, checks, tlog, bound = (
        ctx.vm, ctx.run_base, ctx.checks, ctx.tlog, ctx.bound)
    knob = cell_model.KNOBS["tx-hold"]

    def dmesg():
        return sh(vm, "dmesg", check=False)[1]

    def counts(text):
        return (text.count(cell_model.RESET_LINE),
                len(re.findall(cell_model.HANG_REPORT, text)),
                len(re.findall(cell_model.WATCHDOG_LINE, text)))

    def progress():
        now = [n - b for n, b in zip(counts(dmesg()), before)]
        return now if (now[0] > 0 or
                       (now[1] >= cell_model.HANG_REPORTS_NO_RESET and
                        now[2] == 0)) else None

    before = counts(dmesg())
    qom_set(vm, knob, 1)
    tlog(f"qom-set {knob} 1")
    fill_held_ring(vm, run_base)
    seen = None
    try:
        seen = harness.wait_until(
            f"the driver's reset task (dmesg: {cell_model.RESET_LINE}) or "
            f"{cell_model.HANG_REPORTS_NO_RESET} of its hang reports with no "
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
    if ctx.cell.irq == "msix":
        # With MSI-X the NAPI poll does not clean Tx (e1000e_poll leaves
        # it to the Tx vector), so no hang report of the driver's can
        # restamp the queue: the stack's timeout must come and the
        # driver reset by itself.
        checks.eq("MSI-X: the Tx hang recovered by the driver's own reset "
                  "(netdev watchdog -> e1000_tx_timeout -> reset task), "
                  "not by the harness's down and up",
                  checks.hang_reset_by, "watchdog")
    harness.wait_until("carrier on eth0 after the reset",
                       lambda: carrier(vm), LINK_TIMEOUT, interval=0.2)
    end = [n - b for n, b in zip(counts(dmesg()), before)]
    checks.eq(f"the driver's reset tasks (dmesg: {cell_model.RESET_LINE})",
              end[0], 0 if checks.hang_reset_by == "down" else 1)
    if checks.hang_reset_by == "down":
        # The flaw's path to the end: the driver's reports, never the
        # stack's timeout (e1000e's down/up restarts neither).
        checks.eq("the Tx hang, e1000e's own path: netdev watchdog "
                  "timeouts, and its hang reports >= "
                  f"{cell_model.HANG_REPORTS_NO_RESET}",
                  (end[2], end[1] >= cell_model.HANG_REPORTS_NO_RESET), (0, True))
