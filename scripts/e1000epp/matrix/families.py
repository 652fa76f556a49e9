# SPDX-License-Identifier: GPL-2.0-or-later
"""The matrix's cell families (cell_model.Cell's `family`): what a cell
does beyond its configuration, the device knob each turns (KNOBS, the
e1000e-pp QOM property names in one place) and the constants their
steps share. Pure data; cell_model re-exports every name.
"""

# Device knobs the cells turn, by what they do: the e1000e-pp QOM
# property names (docs/usage/qemu.md), in this one place.
KNOBS = {
    "error-crc": "x-rx-error-crc",
    "error-symbol": "x-rx-error-symbol",
    "error-data": "x-rx-error-data",
    "error-oversize": "x-rx-error-oversize",
    "link-drop": "x-link-drop-ms",
    "fetch-limit": "x-rx-fetch-limit",
    "dma-fault-writes": "x-dma-fault-writes",
    "tx-hold": "x-tx-hold",
    "reset-delay": "x-reset-delay-ns",
    "rx-hold": "x-rx-hold-desc",
}
# Frames marked with an injected error in an error cell's stream.
ERR_FRAMES = 3
# A load cell's burst: frames the peer queues at once, peer -> guest
# (the ring holds 256 descriptors, the packet buffer a few frames).
BURST_FRAMES = 768
# The multi-descriptor burst: at MTU 2027 Linux programs packet split
# with a 128-byte buffer 0 and one 4 KB page (PSRCTL), so a 9000-byte
# frame (within RCTL.LPE's limit) takes 3 descriptors, and the device
# fetches at most FETCH_LIMIT descriptors per tail write
# (x-rx-fetch-limit): Linux writes RDT every 16 buffers
# (E1000_RX_BUFFER_WRITE), so each fetch ends one descriptor into a
# frame (16 = 3 x 5 + 1) while the next frames wait in the packet
# buffer. (Not at MTU 1500 with rx-all: the driver posts 1522-byte
# buffers there with BSIZE 2048, and a long frame stored under
# RCTL.SBP overruns them.)
LONG_FRAME = 9000
LONG_FRAMES = 24
FETCH_LIMIT = 16
# How long the link-drop cell's cable is out (virtual ms).
LINK_DROP_MS = 300

# What Linux logs for a Tx hang that e1000e's reset task recovers
# (dev_watchdog's timeout, e1000_reset_task; e1000_print_hw_hang when the
# driver's own check sees it first): the txhang cell's event, nothing
# else (Debian 6.1 and 6.12 log the first two, as netdev_crit/e_err).
HANG_REPORT = r"Detected Hardware Unit Hang"
WATCHDOG_LINE = r"NETDEV WATCHDOG: .*transmit queue 0 timed out"
HANG_LOG = (HANG_REPORT, WATCHDOG_LINE, r"Reset adapter unexpectedly")
# e1000_print_hw_hang stops the queue at every report, and
# netif_tx_stop_queue stamps the queue's trans_start, so reports 4 s
# apart (every other 2 s watchdog tick) keep dev_watchdog's 5 s
# timeout from ever expiring: once this many came with no timeout, the
# driver will not reset by itself (docs/usage/cells.md, "Tx hang").
HANG_REPORTS_NO_RESET = 3
RESET_LINE = "Reset adapter unexpectedly"
# What the page-pool series logs when its pool cannot be created (the
# allocfail cells make it fail).
POOL_FAILED = r"Unable to create the Rx page pool"

# The reset task against runtime suspend (the resetpm cells). With the
# link gone and transmits stuck in the ring, e1000e's watchdog task
# schedules a runtime suspend LINK_TIMEOUT (100 ms) away and its reset
# task at once (FLAG_RESTART_NOW); e1000e_pm_runtime_suspend waits for
# __E1000_RESETTING at most E1000_CHECK_RESET_COUNT x 10 ms (250 ms),
# then downs the adapter and the PCI core puts it in D3hot. The CTRL.RST
# window widened to 600 ms holds the reset task in init_hw's NVM read
# (EERD waits for the auto-load, docs/fidelity.md) for longer than
# those 350 ms: a reset task without a runtime-PM reference is still
# reprogramming the MAC when the function goes to D3hot. The cable
# stays out long enough (9 s) for a correct driver's own suspend, 5 s
# after its reset (e1000e_pm_runtime_idle), and the PME wake.
RACE_RESET_NS = 600 * 1000 * 1000
RACE_LINK_DROP_MS = 9000
# Kernel command-line additions a family's boot needs. The reset task
# waits for the NVM read busily (udelay), and both it and the runtime
# suspend run from per-CPU workqueues of the CPU that scheduled them: a
# kernel without full preemption runs the suspend only once the reset
# task is done, so nothing races (seen on Debian 6.1: the suspend came
# 0.9 s after the link, the reset over). Debian builds PREEMPT_DYNAMIC;
# preempt=full lets the scheduler run the suspend beside the reset, as
# a preemptible kernel or a second CPU does.
#
# System sleep (the sleep cells): QEMU's wake from S3 resets the machine
# and SeaBIOS 1.16.2's resume path jumps to the kernel's waking vector
# without opening the ICH9 LPC bridge's ACPI I/O window again (PMBASE,
# ACPI_CNTL, which the reset cleared): the ACPI PM timer then reads
# 0xffffff, the kernel's clocksource watchdog takes the TSC for the
# unstable one and switches to the stopped PM timer, and guest time
# stands still. tsc=reliable keeps the TSC (no watchdog). Those boots
# also take the bzImage: woken from S3, a kernel booted through its PVH
# entry point reset the machine instead of resuming (seen with QEMU
# 10.0.13, Debian 6.1.0-57).
BOOT_EXTRAS = {"preempt": "preempt=full", "sleep": "tsc=reliable"}
BZIMAGE_BOOTS = ("sleep",)


class Family:
    """What a cell does beyond its configuration: the knob it turns, the
    guest settings it needs, the traffic it adds and the situations it
    declares."""

    def __init__(self, name, situations, what, knob=None, rx_all=False,
                 flow_control=True, burst=None, stats=None,
                 delivered=False, suspend=False, expect_log=(),
                 boot=None, sleep=None, inject=False, itr=False):
        self.name, self.situations, self.what = name, tuple(situations), what
        self.knob, self.rx_all, self.flow_control = knob, rx_all, flow_control
        self.burst = burst              # None, "mtu" or "long"
        self.stats = dict(stats or {})  # ethtool -S name: frames moved
        self.delivered = delivered      # marked frames reach the socket
        self.suspend = suspend          # runtime suspend between streams
        # System sleep (S3) between the streams with the interface "up"
        # or "down" (traffic_power.system_sleep).
        self.sleep = sleep
        # Kernel log lines that are the family's event itself, not a
        # failure (the dmesg scan fails a cell on every other one).
        self.expect_log = tuple(expect_log)
        # A kernel command-line addition the family needs (BOOT_EXTRAS):
        # its cells boot apart from the others.
        self.boot = boot
        # Kernel calls made to fail (traffic_faults.py): the guest gets
        # the fault injector (image/fault_injector.py).
        self.inject = inject
        # The adaptive moderation step (traffic_moderation.py).
        self.itr = itr


def _err(name, knob, situation, stats, rx_all=False):
    what = (f"{ERR_FRAMES} frames marked by {KNOBS[knob]} in the pattern "
            "stream" + (", delivered with rx-all on (RCTL.SBP)" if rx_all
                        else ", none reaching the socket"))
    return Family(name, [situation], what, knob=knob, rx_all=rx_all,
                  stats=stats, delivered=rx_all)


FAMILIES = {f.name: f for f in (
    _err("errcrc", "error-crc", "err-crc",
         {"rx_crc_errors": 1, "rx_errors": 1}),
    _err("errcrc-rxall", "error-crc", "err-crc",
         {"rx_crc_errors": 1, "rx_errors": 1}, rx_all=True),
    _err("errsym", "error-symbol", "err-symbol", {}),
    _err("errdata", "error-data", "err-data", {"rx_errors": 1}),
    _err("errlong", "error-oversize", "err-oversize",
         {"rx_errors": 1, "rx_length_errors": 1,
          "rx_long_length_errors": 1}),
    Family("burst", ["rnbc", "mpc"],
           f"{BURST_FRAMES} frames of MTU + 14 bytes queued at once, flow "
           "control off (ethtool -A)", flow_control=False, burst="mtu"),
    Family("burstfc", ["rnbc", "xoff-sent"],
           f"{BURST_FRAMES} frames of MTU + 14 bytes queued at once, flow "
           "control on (ethtool -A)", burst="mtu"),
    Family("longburst", ["ring-dry-midframe", "split-polls"],
           f"{LONG_FRAMES} frames of {LONG_FRAME} bytes, each over 3 "
           "packet-split descriptors (the driver discards every "
           "multi-descriptor frame), the device fetching "
           f"{FETCH_LIMIT} descriptors per tail write", knob="fetch-limit",
           burst="long"),
    Family("dmafault", ["dma-fault"],
           "the first pattern frame's data write rejected by the device "
           "(x-dma-fault-writes) under the emulated IOMMU: the fault "
           "names the frame the agent lost, told as one sentence",
           knob="dma-fault-writes"),
    Family("rpm", ["link-change-traffic"],
           "between the two TCP streams, the link taken away (QMP "
           "set_link) with runtime PM allowed: the driver suspends the "
           "function (D3hot), the link's return wakes it through PME, "
           "the driver resumes it and the second stream runs",
           suspend=True),
    Family("sleep", [],
           "between the two TCP streams, the guest suspended to RAM (S3: "
           "/sys/power/state mem, mem_sleep deep) with the interface up "
           "and woken by QMP system_wakeup: the driver's suspend and "
           "resume callbacks, the device reset by the wake (it lost "
           "power) and brought up again by the driver, then the second "
           "stream and the checksum step", sleep="up", boot="sleep"),
    Family("sleepdown", [],
           "as sleep, with the interface down across the suspend and "
           "brought up after the wake", sleep="down", boot="sleep"),
    Family("linkdrop", ["link-change-traffic"],
           f"the link dropped for {LINK_DROP_MS} ms (x-link-drop-ms) during "
           "the TCP stream peer -> guest", knob="link-drop"),
    Family("txhang", [],
           "the Tx engine held (x-tx-hold) with the guest's pings in the "
           "ring until the stack's queue stops, the netdev watchdog times "
           "it out and the driver's reset task resets the MAC (CTRL.RST); "
           "released, the traffic steps then check that the driver "
           "recovered by itself",
           knob="tx-hold", expect_log=HANG_LOG),
    Family("rxcsumoff", ["rx-csum-err"],
           "the checksum step with the driver's Rx checksum offload off "
           "(ethtool -K eth0 rx off: RXCSUM.TUOFL cleared): only the bad "
           "IPv4 headers are found wrong by the device, none counted by "
           "the driver, every bad frame verified and dropped by the stack "
           "(matrix/traffic_checksum.py)"),
    Family("holdtail", [],
           "an MTU-sized frame stopped after 2 descriptors "
           "(x-rx-hold-desc): "
           "a driver whose frames span descriptors keeps the half frame "
           "when the interface goes down; the ring clean must free it "
           "with its pages, and no stale start may join the next frame "
           "(matrix/traffic_held.py)", knob="rx-hold"),
    Family("itr", [],
           "the driver's adaptive interrupt moderation (InterruptThrottle"
           "Rate 3) read back from ITR after small Tx frames, two jumbo "
           "frames, one 6000-byte frame and Tx-only polls: bulk latency "
           "(976) after each (matrix/traffic_moderation.py)",
           itr=True),
    Family("allocfail", [],
           "kernel calls of the driver made to fail (the fault injector, "
           "a kprobe module): one Rx buffer allocation, then the Rx page "
           "pool's creation at an interface up; the driver must count "
           "or report each, leak no page and come back whole at the next "
           "down and up (matrix/traffic_faults.py)",
           expect_log=(POOL_FAILED,), inject=True),
    Family("resetpm", [],
           "runtime PM allowed, the Tx engine held (x-tx-hold) with the "
           "guest's frames in the ring and the CTRL.RST window widened "
           f"({RACE_RESET_NS // 1000000} ms, x-reset-delay-ns); then the "
           f"cable out for {RACE_LINK_DROP_MS // 1000} s: the driver's "
           "reset task and its runtime suspend start 100 ms apart, the "
           "function must not be touched in D3hot (pm-violations), the "
           "driver must suspend, wake through PME and pass the traffic "
           "steps (kernel booted with preempt=full)", knob="reset-delay",
           boot="preempt"),
)}
