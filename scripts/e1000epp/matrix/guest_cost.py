# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest cost per packet and IOMMU work per packet for one matrix cell.

Two measurements over the same window, the cell's traffic phase:

  - the TCG plugin tools/plugin/cost.c (loaded with -plugin): guest
    instructions in total and inside the driver's functions, inclusive
    of their callees, between the agent's MARK start and MARK stop;
  - QEMU's intel-iommu trace events (the build's `log` trace backend,
    switched on over QMP only for the window, written to the boot's
    trace.log with -D): the IOTLB invalidations the guest queues and the
    IOTLB fills the device's DMA causes.

Packets are the driver's own counters (`ethtool -S` rx_packets and
tx_packets over the window).  docs/cost.md says what every number counts
and where it stops being exact.
"""

import json
import os
import re

from e1000epp.common import paths
PLUGIN = os.path.join(paths.NATIVE_DIR, "tools", "plugin",
                      "libe1000epp-cost.so")

# Functions counted inclusively, by role.  Only the ones the running
# driver has are counted (the Rx clean routine depends on the buffer
# layout: standard, packet split or jumbo).
ROLES = (
    ("poll", ("e1000e_poll",)),
    ("rxclean", ("e1000_clean_rx_irq", "e1000_clean_rx_irq_ps",
                 "e1000_clean_jumbo_rx_irq")),
    ("txclean", ("e1000_clean_tx_irq",)),
    ("xmit", ("e1000_xmit_frame",)),
)
# Interrupt entry points of an x86-64 Linux kernel: the external-interrupt
# stubs (a range) and the system vectors (APIC timer, IPIs, ...).
IRQ_RANGE = ("irq_entries_start", "spurious_entries_start")
IRQ_PREFIX = "asm_sysvec_"

# intel-iommu trace events (hw/i386/trace-events).
INV_EVENTS = ("vtd_inv_desc_iotlb_global", "vtd_inv_desc_iotlb_domain",
              "vtd_inv_desc_iotlb_pages", "vtd_inv_desc_iotlb_pasid_pages",
              "vtd_inv_desc_iotlb_pasid")
FILL_EVENT = "vtd_iotlb_page_update"
_EVENT_RE = re.compile(r"\b(vtd_inv_desc_iotlb_\w+|vtd_iotlb_page_update)\b")

# Device-side buffer address counters (QOM properties of the NIC), read
# when the device has them.
BUF_COUNTERS = ("rx-buf-new", "rx-buf-reposted")

# Frames of the receive-only burst each measured cell ends with: pattern
# frames of the cell's largest length, peer -> guest, nothing sent back.
RX_BURST = 256
RX_ROUND = 32       # frames sent at once: well inside a 256-entry ring

# Metric keys, in report order: (key, short header, what it divides).
# poll/rx, rxcl/rx and inv/rx come from the receive-only burst; the rest
# from the cell's whole traffic (frames, UDP and TCP both ways).
METRICS = (
    ("poll_per_rx", "poll/rx", "e1000e_poll instructions per received "
     "packet (receive-only burst)"),
    ("rxclean_per_rx", "rxcl/rx", "Rx clean routine instructions per "
     "received packet (receive-only burst)"),
    ("inv_per_rx", "inv/rx", "IOTLB invalidations per received packet "
     "(receive-only burst)"),
    ("tx_per_tx", "tx/tx", "e1000_xmit_frame + e1000_clean_tx_irq "
     "instructions per sent packet"),
    ("total_per_pkt", "all/pkt", "every guest instruction per packet "
     "(received + sent)"),
    ("inv_per_pkt", "inv/pkt", "IOTLB invalidations per packet"),
    ("fills_per_pkt", "fill/pkt", "IOTLB fills (page walks) per packet"),
    ("bufnew_per_rx", "new/rx", "new Rx buffer addresses per received "
     "packet (device)"),
)


class CostError(Exception):
    pass


def available():
    return os.path.exists(PLUGIN)


def qemu_args(boot_dir, iommu):
    """Extra QEMU arguments of a boot that measures cost."""
    args = ["-plugin", f"{PLUGIN},ranges={ranges_path(boot_dir)},"
            f"out={out_path(boot_dir)}"]
    if iommu:
        args += ["-D", trace_path(boot_dir)]
    return args


def ranges_path(boot_dir):
    return os.path.join(boot_dir, "cost-ranges.txt")


def out_path(boot_dir):
    return os.path.join(boot_dir, "cost-windows.jsonl")


def trace_path(boot_dir):
    return os.path.join(boot_dir, "trace.log")


def parse_kallsyms(text):
    """{name: address} of the symbols the plugin needs, from lines of
    /proc/kallsyms ("ADDR TYPE NAME [MODULE]"); a name the e1000e
    module defines wins over a same-named one elsewhere."""
    want = {n for _, names in ROLES for n in names} | set(IRQ_RANGE)
    out, mod = {}, {}
    for line in text.splitlines():
        w = line.split()
        if len(w) < 3 or w[1] not in "tT":
            continue
        name = w[2]
        if name in want or name.startswith(IRQ_PREFIX):
            addr = int(w[0], 16)
            if addr == 0:
                raise CostError("/proc/kallsyms shows zero addresses "
                                "(kptr_restrict): the agent must read it "
                                "as root")
            if len(w) > 3 and w[3] == "[e1000e]":
                mod[name] = addr
            else:
                out.setdefault(name, addr)
    out.update(mod)
    return out


def kallsyms_grep():
    """A grep command line over /proc/kallsyms (~100k lines) keeping the
    lines parse_kallsyms() may use: fixed strings, which busybox grep
    matches several times faster than an alternation."""
    names = [n for _, ns in ROLES for n in ns] + list(IRQ_RANGE)
    return "grep -F " + " ".join(f"-e ' {n}'" for n in names +
                                 [IRQ_PREFIX]) + " /proc/kallsyms"


def ranges_text(syms):
    """The plugin's ranges file for these symbols."""
    lines = ["# written by scripts/e1000epp/matrix/guest_cost.py from /proc/kallsyms"]
    for _, names in ROLES:
        for n in names:
            if n in syms:
                lines.append(f"func {n} {syms[n]:x}")
    lo, hi = (syms.get(n) for n in IRQ_RANGE)
    if lo and hi and hi > lo:
        lines.append(f"irq {lo:x} {hi:x}")
    for n in sorted(s for s in syms if s.startswith(IRQ_PREFIX)):
        lines.append(f"irq {syms[n]:x}")
    return "\n".join(lines) + "\n"


def count_events(path, offset):
    """(invalidations, fills, end offset) of trace lines after offset."""
    inv = fills = 0
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return 0, 0, offset
    for line in data.decode(errors="replace").splitlines():
        m = _EVENT_RE.search(line)
        if not m:
            continue
        if m.group(1) == FILL_EVENT:
            fills += 1
        elif m.group(1) in INV_EVENTS:
            inv += 1
    return inv, fills, offset + len(data)


def _size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


class Window:
    """One measured window of a running VM (harness.Vm with the plugin
    loaded): start() before the traffic, stop() after it."""

    def __init__(self, vm, boot_dir, iommu):
        self.vm, self.boot_dir, self.iommu = vm, boot_dir, iommu
        self.syms = {}
        self.module_base = None
        self.trace_offset = 0

    def _trace(self, on):
        names = INV_EVENTS + (FILL_EVENT,)
        for n in names:
            self.vm.qmp.execute("trace-event-set-state", name=n, enable=on)

    def _symbols(self):
        """The needed kallsyms lines, read again only when the e1000e
        module's text moved (a reload) since the last window."""
        _, base = self.vm.agent.sh("cat /sys/module/e1000e/sections/.text "
                                   "2>/dev/null; true")
        if base.strip() and base.strip() == self.module_base:
            return False
        _, text = self.vm.agent.sh(kallsyms_grep(), timeout=120)
        self.syms = parse_kallsyms(text)
        self.module_base = base.strip()
        return True

    def start(self):
        if self._symbols():
            with open(ranges_path(self.boot_dir), "w") as f:
                f.write(ranges_text(self.syms))
        if self.iommu:
            self.trace_offset = _size(trace_path(self.boot_dir))
            self._trace(True)
        self.vm.agent.request("MARK start")

    def stop(self):
        """The window's raw numbers: the plugin's JSON line, the trace
        counts."""
        self.vm.agent.request("MARK stop")
        raw = {"plugin": None, "invalidations": None, "fills": None}
        if self.iommu:
            self._trace(False)
            inv, fills, _ = count_events(trace_path(self.boot_dir),
                                         self.trace_offset)
            raw["invalidations"], raw["fills"] = inv, fills
        try:
            with open(out_path(self.boot_dir)) as f:
                lines = f.read().splitlines()
            raw["plugin"] = json.loads(lines[-1]) if lines else None
        except (OSError, ValueError) as e:
            raise CostError(f"no window from the cost plugin: {e}")
        raw["symbols"] = {k: hex(v) for k, v in sorted(self.syms.items())
                          if not k.startswith(IRQ_PREFIX)}
        return raw


def _per(num, den):
    if num is None or not den:
        return None
    return round(num / den, 1)


def _role(raw, name):
    funcs = (raw.get("plugin") or {}).get("funcs", {})
    got = [funcs[n] for n in dict(ROLES)[name] if n in funcs]
    return sum(got) if got else None


def metrics(raw, rx, tx, buf=None, burst=None):
    """Per-packet numbers (None where not measured) of the traffic window
    raw (rx, tx packets) and, when given, the receive-only burst
    (raw, rx packets)."""
    p = raw.get("plugin") or {}

    def role(name):
        return _role(raw, name)

    tx_path = [v for v in (role("xmit"), role("txclean")) if v is not None]
    buf = buf or {}
    m = {
        "rx_packets": rx, "tx_packets": tx,
        "insns": p.get("insns"),
        "poll_insns": role("poll"),
        "polls": p.get("calls", {}).get("e1000e_poll"),
        "irq_in_funcs": p.get("irq_in_funcs"),
        "invalidations": raw.get("invalidations"),
        "fills": raw.get("fills"),
        "rx_buf_new": buf.get("rx-buf-new"),
        "rx_buf_reposted": buf.get("rx-buf-reposted"),
        "poll_per_rx": _per(role("poll"), rx),
        "rxclean_per_rx": _per(role("rxclean"), rx),
        "tx_per_tx": _per(sum(tx_path) if tx_path else None, tx),
        "total_per_pkt": _per(p.get("insns"), rx + tx),
        "inv_per_pkt": _per(raw.get("invalidations"), rx + tx),
        "fills_per_pkt": _per(raw.get("fills"), rx + tx),
        "bufnew_per_rx": _per(buf.get("rx-buf-new"), rx),
        "inv_per_rx": None,
    }
    m["mix_poll_per_rx"] = m["poll_per_rx"]
    m["mix_rxclean_per_rx"] = m["rxclean_per_rx"]
    if burst:
        braw, brx = burst
        bp = braw.get("plugin") or {}
        m.update({
            "burst_rx": brx,
            "burst_polls": bp.get("calls", {}).get("e1000e_poll"),
            "burst_invalidations": braw.get("invalidations"),
            "poll_per_rx": _per(_role(braw, "poll"), brx),
            "rxclean_per_rx": _per(_role(braw, "rxclean"), brx),
            "inv_per_rx": _per(braw.get("invalidations"), brx),
        })
    return m


def fmt(v):
    """Compact: 812, 3.4k, 41k, 1.2M, 0.97; '-' when not measured."""
    if v is None:
        return "-"
    if v < 10:
        return f"{v:.2f}"
    if v < 1000:
        return f"{v:.0f}"
    if v < 10000:
        return f"{v / 1000:.1f}k"
    if v < 1e6:
        return f"{v / 1000:.0f}k"
    return f"{v / 1e6:.1f}M"
