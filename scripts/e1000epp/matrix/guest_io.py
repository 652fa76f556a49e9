# SPDX-License-Identifier: GPL-2.0-or-later
"""What a matrix cell reads and sets in the running guest and device:
the guest brought to the cell's configuration (module parameters, MTU,
ethtool features, a VLAN device), the interrupt mode and IOMMU checks,
the NIC's properties over QMP (counters, situations, events, the
receive layout), the kernel log, taint, `ethtool -S`, TCP retransmits.
Each reader that cannot read fails a check instead of disappearing.
"""

import os
import re

from e1000epp.matrix import buffer_layout, cell_model, cell_settings, diagnosis
from e1000epp.vm import harness

LINK_TIMEOUT = 60
# Kernel log lines that fail a cell wherever they come from.
# The driver's own failure reports count too: "Unable to allocate ..."
# (e_err) and the page-pool series' "Unable to create the Rx page pool".
DMESG_BAD = re.compile(
    r"WARNING:|BUG:|Oops|general protection|Call Trace|kernel panic|"
    r"page[_ ]pool|DMA-API|DMAR:.*\b[Ff]ault|DMAR: \[DMA|iommu.*\bfault|"
    r"Hardware Unit Hang|Reset adapter|e1000e.*\b(error|timeout|hang)\b|"
    r"e1000e.*\bUnable to allocate\b|"
    r"soft lockup|hung_task|refcount_t|list_(add|del) corruption")
# Device counters read over QMP at the start and the end of a cell.
DEVICE_COUNTERS = ("rx-offered", "rx-delivered", "rx-missed", "rx-filtered",
                   "rx-oversize", "rx-undersize", "rx-not-ready",
                   "rx-dma-error", "rx-flushed", "rx-errored",
                   "dma-errors", "pm-violations", "rx-buf-new",
                   "rx-buf-reposted")
# The guest's TCP retransmissions (/proc/net/snmp Tcp RetransSegs).
SNMP = "cat /proc/net/snmp"


class Checks:
    """Collects every check of a cell; failures become the reason."""

    def __init__(self):
        self.items = []
        self.udp_ok = True
        self.frames_ok = True
        self.layout = None          # buffer_layout.decode() of the cell
        self.burst = None           # device counters over a burst
        self.lost_seqs = []         # pattern seqs the family made lost
        self.hang_reset_by = None   # "watchdog" or "down" (tx_hang)
        # Taint bits a step sets on purpose (the fault injector's insmod)
        # and device drops it makes (traffic_faults.py, traffic_held.py).
        self.taint_allowed = 0
        self.step_drops = {}
        # Frames the device delivers that the driver must drop, by why
        # (frame_count.py balances the driver's boundary with them).
        self.driver_drops = {}
        self.peer_retransmits = 0   # the peer's TCP source, every stream

    def expect_driver_drops(self, why, count):
        self.driver_drops[why] = self.driver_drops.get(why, 0) + count

    def produced(self, name, count):
        """A declared situation: the cell fails unless it happened."""
        self.items.append({"check": f"produces {name}", "ok": bool(count),
                           "got": count, "purpose": name})

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
            if "purpose" in c:
                out.append(f"did not produce {c['purpose']}"
                           + ("" if c["got"] == 0 else f" ({c['got']})"))
            elif isinstance(c.get("want"), dict) and \
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
        # The token of the last mark scan_dmesg wrote into the kernel
        # log (None: no scan yet this boot; MARK_UNWRITTEN: it failed).
        self.log_mark = None
        self.flow_control = True    # the driver's default: rx and tx on
        self.events = None          # the last device event seen
        self.counting = False       # frame_count.arm done this boot
        self.kmemleak = None        # sanitizers.begin: the kernel has it


def boot_args(boot_key):
    """(QEMU device arguments, kernel command-line addition) of a boot
    key (cell_model.Cell.boot_key)."""
    path, _, extra = boot_key.partition("+")
    dev, append = [], ""
    if path == "iommu":
        dev, append = (["-device", "intel-iommu,intremap=off"],
                       "intel_iommu=on iommu.strict=1")
    elif path == "bounce":
        append = "swiotlb=force"
    if extra:
        append = " ".join(a for a in (append, cell_model.BOOT_EXTRAS[extra])
                          if a)
    return dev, append


def sh(vm, cmd, timeout=60, check=True):
    return vm.agent.sh(cmd, timeout=timeout, check=check)


def carrier(vm, ifname="eth0"):
    return sh(vm, f"cat /sys/class/net/{ifname}/carrier",
              check=False)[1].strip() == "1"


def interface_up(vm):
    """ip link set eth0 up, then its carrier (LINK_TIMEOUT)."""
    sh(vm, "ip link set eth0 up")
    harness.wait_until("carrier on eth0 after the interface up",
                       lambda: carrier(vm), LINK_TIMEOUT, interval=0.2)


def configure(vm, g, cell, log):
    """Bring the guest to the cell's configuration, then read back every
    setting of the cell's own (apply_settings, read_back): one that did
    not take ends the cell with a HarnessError naming it."""
    params, key = cell.module_params(), cell.load_key()
    st = cell.settings
    if g.params != key:
        if g.params is not None:
            sh(vm, "ip link del eth0.100 2>/dev/null; ip link set eth0 "
               "down; rmmod e1000e")
        sh(vm, "load-e1000e " + " ".join(params))
        g.flow_control = True
        harness.wait_until("eth0 to appear", lambda: sh(
            vm, "test -e /sys/class/net/eth0", check=False)[0] == 0, 30)
        sh(vm, "ip link set eth0 up && ip addr add "
           f"{harness.GUEST_IP}/24 dev eth0")
        g.params = key
        log(f"loaded e1000e {' '.join(params)}")
        if st.ring_rx is not None or st.ring_tx is not None:
            ring = " ".join(f"{w} {n}" for w, n in (("rx", st.ring_rx),
                                                    ("tx", st.ring_tx))
                            if n is not None)
            sh(vm, f"ethtool -G eth0 {ring}")
            log(f"ethtool -G eth0 {ring}")
    sh(vm, "ip link del eth0.100 2>/dev/null; true")
    sh(vm, f"ip link set eth0 mtu {cell.mtu}")
    sh(vm, "ethtool -K eth0 rx-fcs " +
       ("on" if cell.crc == "rxfcs" else "off"))
    fam = cell.family
    sh(vm, "ethtool -K eth0 rx-all " +
       ("on" if fam and fam.rx_all else "off"))
    fc = fam.flow_control if fam else True
    if g.flow_control != fc:
        sh(vm, "ethtool -A eth0 " + ("autoneg on rx on tx on" if fc else
                                     "autoneg off rx off tx off"))
        g.flow_control = fc
        log(f"flow control {'on' if fc else 'off'} (ethtool -A)")
    apply_offloads_and_knobs(vm, g, cell, log)
    if cell.vlan:
        # IP on the VLAN too: the peer is a second host there.
        sh(vm, f"ip link add link eth0 name eth0.100 type vlan id "
           f"{cell_model.VLAN_ID} && ip link set eth0.100 mtu {cell.mtu} && "
           f"ip addr add {harness.GUEST_VLAN_IP}/24 dev eth0.100 && "
           "ip link set eth0.100 up")
        vm.peer.command(f"VLAN {cell_model.VLAN_ID} {harness.PEER_VLAN_IP}")
    else:
        vm.peer.command("VLAN 0 0.0.0.0")
    harness.wait_until("carrier on eth0", lambda: carrier(vm),
                       LINK_TIMEOUT, interval=0.2,
                       evidence=vm.console_tail)
    if cell.vlan:
        harness.wait_until("carrier on eth0.100",
                           lambda: carrier(vm, "eth0.100"), LINK_TIMEOUT,
                           interval=0.2)
    if st.rx_usecs is not None:
        # Last: every reset before it (MTU, features) has the MSI-X
        # setup write EITR from the value the driver had at open.
        sh(vm, f"ethtool -C eth0 rx-usecs {st.rx_usecs}")
        log(f"ethtool -C eth0 rx-usecs {st.rx_usecs}")
    if st:
        wrong = read_back(vm, cell, log)
        if wrong:
            raise harness.HarnessError(
                "the cell's settings did not take: " + "; ".join(wrong))


def apply_offloads_and_knobs(vm, g, cell, log):
    """ethtool -K for GRO, TSO and the checksum offloads (every cell
    sets all four: on unless its settings turn one off), and the
    device's configuration knobs: the previous cell's back to off, this
    cell's set (the Guest remembers them as `knobs_set`)."""
    words = cell.settings.ethtool_k()
    sh(vm, "ethtool -K eth0 " + " ".join(f"{w} {'on' if on else 'off'}"
                                         for w, on in words))
    off = [w for w, on in words if not on]
    if off:
        log(f"ethtool -K eth0 {' '.join(w + ' off' for w in off)}")
    before = getattr(g, "knobs_set", {})
    for name in before:
        if name not in cell.settings.knobs:
            qom_set(vm, name, 0)
    for name, value in cell.settings.knobs.items():
        qom_set(vm, name, value)
        log(f"qom-set {name} {value}")
    g.knobs_set = dict(cell.settings.knobs)


# Registers that show a cell's settings (82574L datasheet, chapter 10):
# descriptor ring lengths in bytes, the interrupt throttle (ITR; EITR
# per MSI-X vector, vector 0 Rx), the Rx and Tx delay timers.
SETTING_REGS = {"RDLEN": 0x2808, "TDLEN": 0x3808, "ITR": 0x00c4,
                "EITR0": 0x00e8, "RDTR": 0x2820, "RADV": 0x282c,
                "TIDV": 0x3820, "TADV": 0x382c, "RDH": 0x2810,
                "RDT": 0x2818}
# Bytes of one Rx descriptor: 32 in packet split, else 16; Tx 16.
RX_DESC_BYTES = {"packet-split": 32, "extended": 16, "legacy": 16}
TX_DESC_BYTES = 16


def read_regs(vm, names):
    """{name: value} of SETTING_REGS through the monitor's `xp` of BAR 0
    (buffer_layout's way; these registers have no read side effect)."""
    def hmp(cmd):
        return vm.qmp.execute("human-monitor-command",
                              **{"command-line": cmd})
    base = buffer_layout.bar0(hmp("info pci"), vm.NIC_ID)
    out = {}
    for name in names:
        text = hmp(f"xp /1wx {base + SETTING_REGS[name]:#x}")
        m = re.search(r":\s*(0x[0-9a-fA-F]+)", text)
        out[name] = int(m.group(1), 16) if m else None
    return out


def expected_readback(cell, fmt):
    """{what: wanted} for every setting of the cell that can be read
    back: `ethtool -g/-c/-k` values, readable parameters in sysfs, and
    the registers the driver programs from them (fmt: the receive
    descriptor format the layout shows). Pure (tests call it)."""
    st, want = cell.settings, {}
    if st.ring_rx is not None:
        want["ethtool -g RX"] = st.ring_rx
        want["RDLEN"] = st.ring_rx * RX_DESC_BYTES.get(fmt, 16)
    if st.ring_tx is not None:
        want["ethtool -g TX"] = st.ring_tx
        want["TDLEN"] = st.ring_tx * TX_DESC_BYTES
    itr_param = st.params.get("InterruptThrottleRate")
    if st.rx_usecs is not None or itr_param is not None:
        setting = st.itr_setting()
        want["ethtool -c rx-usecs"] = cell_settings.usecs_read(setting)
        reg = "EITR0" if cell.irq == "msix" else "ITR"
        if setting > 4:
            # e1000e_write_itr: 256 ns units of the interval at the
            # driver's itr (ints/s, before the low bits were cleared).
            itr = 1000000 // st.rx_usecs if st.rx_usecs is not None \
                else itr_param
            want[reg] = 1000000000 // (itr * 256)
        elif setting == 0 and st.rx_usecs is not None:
            want[reg] = 0       # e1000_set_coalesce writes 0
        elif setting == 0 and cell.irq == "msix":
            want[reg] = 1       # e1000_configure_msix: itr_val 0 -> 1
    for name, value in st.params.items():
        reg = cell_settings.PARAMS[name][3]
        if reg:
            want[reg] = value
    for key, on in st.ethtool_k():
        want[f"ethtool -k {cell_settings.OFFLOADS[key][1]}"] = \
            "on" if on else "off"
    for name, value in st.knobs.items():
        want[f"qom {name}"] = value
    return want


def parse_ethtool(text):
    """{"RX": n, "TX": n} of `ethtool -g`'s current settings, or
    {"rx-usecs": n} of `ethtool -c`, or {feature: "on"/"off"} of
    `ethtool -k` (the text after "Current hardware settings" for -g)."""
    if "Current hardware settings" in text:
        text = text.split("Current hardware settings", 1)[1]
    out = {}
    for ln in text.splitlines():
        k, sep, v = ln.partition(":")
        v = v.split()
        if sep and v:
            out.setdefault(k.strip(), int(v[0]) if v[0].isdigit() else v[0])
    return out


def read_back(vm, cell, log):
    """Every setting of the cell read back from the guest and the device
    (expected_readback); the list of those that differ, as "what: got X,
    want Y" (an empty list: all applied)."""
    layout = None
    try:
        layout = buffer_layout.decode(buffer_layout.read_registers(
            lambda c: vm.qmp.execute("human-monitor-command",
                                     **{"command-line": c}), vm.NIC_ID))
    except (buffer_layout.LayoutError, harness.HarnessError):
        pass
    want = expected_readback(cell, layout and layout["format"])
    got = {}
    for opt in ("g", "c", "k"):
        if any(k.startswith(f"ethtool -{opt} ") for k in want):
            _, text = sh(vm, f"ethtool -{opt} eth0", check=False)
            for k, v in parse_ethtool(text).items():
                got[f"ethtool -{opt} {k}"] = v
    regs = [k for k in want if k in SETTING_REGS]
    try:
        got.update(read_regs(vm, regs) if regs else {})
    except (buffer_layout.LayoutError, harness.HarnessError) as e:
        got.update({k: f"unreadable ({e})" for k in regs})
    for k in want:
        if k.startswith("qom "):
            try:
                got[k] = qom_get(vm, k[4:])
            except harness.HarnessError as e:
                got[k] = f"unreadable ({e})"
    if "RDTR" in got and isinstance(got["RDTR"], int):
        got["RDTR"] &= 0xffff           # FPD (bit 31) reads 0 anyway
    for name, value in cell.settings.params.items():
        path = f"/sys/module/e1000e/parameters/{name}"
        rc, out = sh(vm, f"cat {path} 2>/dev/null", check=False)
        if rc == 0 and out.strip():
            want[path], got[path] = str(value), out.strip()
    log("settings read back: " +
        ", ".join(f"{k} {got.get(k)}" for k in want))
    return [f"{k}: got {got.get(k)}, want {v}" for k, v in want.items()
            if got.get(k) != v]


def check_irq_mode(vm, cell, checks, cell_dir):
    _, out = sh(vm, "grep eth0 /proc/interrupts; true")
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


def check_iommu(vm, cell, checks):
    """Translation active in an iommu cell, absent otherwise: the NIC's
    IOMMU group and its domain type (Linux's iommu_group/type: "DMA"
    for a translating domain with iommu.strict=1), and the guest's VT-d
    setup line."""
    rc, kind = sh(vm, "cat /sys/class/net/eth0/device/iommu_group/type",
                  check=False)
    kind = kind.strip() if rc == 0 else "no IOMMU group"
    if cell.iommu != "iommu":
        checks.eq("eth0's device in no IOMMU group", kind, "no IOMMU group")
    if cell.iommu == "bounce":
        # Every streaming mapping bounced: the Rx ring's buffers hold
        # swiotlb slots for as long as they are posted.
        _, used = sh(vm, "grep -q ' /sys/kernel/debug ' /proc/mounts || "
                     "mount -t debugfs none /sys/kernel/debug 2>/dev/null; "
                     "cat /sys/kernel/debug/swiotlb/io_tlb_used",
                     check=False)
        _, cmdline = sh(vm, "cat /proc/cmdline")
        checks.true("swiotlb=force: the posted Rx buffers in bounce slots "
                    "(debugfs swiotlb/io_tlb_used > 0)",
                    "swiotlb=force" in cmdline.split() and
                    used.strip().isdigit() and int(used) > 0,
                    f"io_tlb_used {used.strip() or '?'}")
    if cell.iommu != "iommu":
        return
    checks.eq("eth0's IOMMU domain type (iommu_group/type)", kind, "DMA")
    _, n = sh(vm, "dmesg | grep -c 'DMAR: Intel(R) Virtualization "
              "Technology for Directed I/O'", check=False)
    checks.eq("the guest's VT-d setup line (dmesg)", n.strip(), "1")


def qom_get(vm, name):
    """One property of the NIC; HarnessError when it cannot be read."""
    return vm.qmp.execute("qom-get", path=f"/machine/peripheral/"
                          f"{vm.NIC_ID}", property=name)


def qom_set(vm, name, value):
    """A knob of the NIC: over QMP, or through its knob channel when the
    VM has one (a recording: what QMP sets is not in the replay log)."""
    if getattr(vm, "knobs", None):
        vm.knobs.set(name, value)
        return
    vm.qmp.execute("qom-set", path=f"/machine/peripheral/{vm.NIC_ID}",
                   property=name, value=value)


def situations_now(vm):
    """{name: count} of the device's situations, None when the device
    has no such property (QEMU's stock e1000e)."""
    try:
        return diagnosis.parse_situations(qom_get(vm, "situations"))
    except harness.HarnessError:
        return None


def read_layout(vm, cell, cell_dir, checks, tlog):
    """The receive layout the driver programmed, read from the device
    (buffer_layout.py); written to layout.json with the placements."""
    def hmp(cmd):
        return vm.qmp.execute("human-monitor-command",
                              **{"command-line": cmd})
    try:
        layout = buffer_layout.decode(
            buffer_layout.read_registers(hmp, vm.NIC_ID))
    except (buffer_layout.LayoutError, harness.HarnessError) as e:
        checks.true("receive layout read from the device", False, str(e))
        return None
    top = cell.mtu + 14
    layout["fcs_lengths"] = buffer_layout.fcs_lengths(layout, top)
    tlog(f"layout {layout['format']} first {layout['first']} next "
         f"{layout['next']} secrc {layout['secrc']}: FCS lengths "
         f"{layout['fcs_lengths']}")
    return layout


def read_device(vm):
    """The device's counters of DEVICE_COUNTERS (read_qom)."""
    return read_qom(vm, DEVICE_COUNTERS)


def cell_observed(vm):
    """Whether the device keeps the model's own counters (e1000e-pp)."""
    return vm.device != "e1000e"


# The line scan_dmesg writes into the kernel log (/dev/kmsg) after each
# read, with a token of its own: the next cell's lines are the ones
# after it. The kernel drops its oldest lines when the log is full (128
# KiB on Debian), never lines in the middle: while the mark is still
# there so is every line after it, and a mark gone means lines were
# lost. (No count of lines: once the log wraps, its line count stays
# put while new lines keep coming.) printk_devkmsg "on" so that the
# kernel never rate-limits the mark away.
LOG_MARK = "pp-matrix: kernel log mark"
MARK_UNWRITTEN = "unwritten"
# The kernel's first line, still in the log when nothing was dropped.
LOG_FIRST = "Linux version "


def log_mark_command(token):
    """Write the mark, then read the whole log (one shell command: no
    line can come between the read and the mark)."""
    return ("{ echo on > /proc/sys/kernel/printk_devkmsg; } 2>/dev/null; "
            f"echo '<5>{LOG_MARK} {token}' > /dev/kmsg && dmesg")


def lines_since(lines, mark):
    """(the lines after the previous mark, or None when they cannot be
    told: why); mark: the previous scan's token, None for a boot's first
    scan (every line since the kernel's first)."""
    if mark == MARK_UNWRITTEN:
        return None, ("the previous cell's mark could not be written to "
                      "/dev/kmsg: where this cell's lines start is unknown")
    if mark is None:
        if any(LOG_FIRST in ln for ln in lines[:3]):
            return lines, ""
        return None, (f"the kernel's first line ({LOG_FIRST.strip()}) is "
                      "gone: the log wrapped since boot")
    at = [i for i, ln in enumerate(lines) if f"{LOG_MARK} {mark}" in ln]
    if not at:
        return None, (f"the previous mark ({LOG_MARK} {mark}) is gone: the "
                      "log wrapped and lines of this cell were lost")
    return lines[at[-1] + 1:], ""


def scan_dmesg(vm, g, cell, cell_dir, checks, taint0):
    """The cell's new kernel log lines against DMESG_BAD, but for the
    lines that are the cell's event itself (its family's expect_log).
    The cell's lines are those after the mark the previous scan wrote
    (LOG_MARK); when they cannot be told (the log wrapped past the mark,
    the mark unwritten) the cell fails saying so and every line still
    in the log is scanned."""
    token = os.urandom(6).hex()
    rc, text = sh(vm, log_mark_command(token), check=False)
    if rc != 0:
        checks.true("kernel log read (a mark to /dev/kmsg, then dmesg)",
                    False, text.strip()[:200] or f"rc {rc}")
        g.log_mark = MARK_UNWRITTEN
        new = []
    else:
        lines = text.splitlines()
        # Up to this mark: lines after it are the next cell's.
        at = [i for i, ln in enumerate(lines) if f"{LOG_MARK} {token}" in ln]
        lines = lines[:at[-1]] if at else lines
        new, lost = lines_since(lines, g.log_mark)
        checks.true("kernel log of the cell complete (lines since the "
                    "previous mark, none dropped from the ring buffer)",
                    new is not None, lost)
        if new is None:
            new = lines
        g.log_mark = token if at else MARK_UNWRITTEN
        if not at:
            checks.true("kernel log mark written (/dev/kmsg)", False,
                        f"{LOG_MARK} {token} is not in dmesg")
    with open(os.path.join(cell_dir, "dmesg.txt"), "w") as f:
        f.write("\n".join(new) + "\n")
    expected = [re.compile(p) for p in
                (cell.family.expect_log if cell.family else ())]
    bad = [ln for ln in new if DMESG_BAD.search(ln) and
           LOG_MARK not in ln and not any(p.search(ln) for p in expected)]
    with open(os.path.join(cell_dir, "scan.txt"), "w") as f:
        f.write(f"pattern: {DMESG_BAD.pattern}\n" + "\n".join(bad) + "\n")
    checks.true("dmesg free of WARN/BUG/Oops/page_pool/DMA-API/IOMMU "
                "faults/hangs", not bad, "; ".join(bad[:3]))
    taint = read_taint(vm, checks)
    if taint is not None and taint0 is not None:
        mask = ~checks.taint_allowed
        checks.eq("kernel taint unchanged over the cell" +
                  (f" (but for bits {checks.taint_allowed:#x}, the fault "
                   "injector's)" if checks.taint_allowed else ""),
                  taint & mask, taint0 & mask)


def read_taint(vm, checks):
    """/proc/sys/kernel/tainted; None (and a failed check) if unreadable."""
    rc, taint = sh(vm, "cat /proc/sys/kernel/tainted", check=False)
    taint = taint.strip()
    if rc != 0 or not taint.isdigit():
        checks.true("kernel taint read", False, taint[:200] or f"rc {rc}")
        return None
    return int(taint)


def ethtool_stats(vm, ifname="eth0", checks=None):
    """`ethtool -S`; when it cannot be read, a failed check of the cell
    (with checks) and {}."""
    try:
        return harness.ethtool_stats(vm.agent, ifname)
    except harness.HarnessError as e:
        if checks is not None:
            checks.true("ethtool -S eth0 read", False, str(e))
        return {}


def tcp_retransmits(vm):
    """The guest's Tcp RetransSegs (/proc/net/snmp), None if unreadable."""
    rc, out = sh(vm, SNMP, check=False)
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("Tcp:")]
    if rc == 0 and len(rows) == 2 and "RetransSegs" in rows[0]:
        return int(rows[1][rows[0].index("RetransSegs")])
    return None


def new_events(vm, g, cell_dir, checks):
    """The device's events since the previous cell, in events.txt (the
    stock model keeps none)."""
    try:
        lines = (qom_get(vm, "events") or "").splitlines()
    except harness.HarnessError as e:
        if cell_observed(vm):
            checks.true("device events read (QMP)", False, str(e))
        return []
    # The device keeps its last events only: new ones follow the last
    # line the previous cell saw (each starts with its time in ns).
    new = lines
    if g.events in lines:
        new = lines[len(lines) - lines[::-1].index(g.events):]
    if lines:
        g.events = lines[-1]
    with open(os.path.join(cell_dir, "events.txt"), "w") as f:
        f.write("\n".join(new) + "\n")
    return new


def read_qom(vm, names):
    """{name: value} of the NIC's properties, None where the device has
    no such property (the verdict says whether that may be)."""
    out = {}
    for name in names:
        try:
            out[name] = qom_get(vm, name)
        except harness.HarnessError:
            out[name] = None
    return out
