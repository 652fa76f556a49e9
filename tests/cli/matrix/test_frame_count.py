# SPDX-License-Identifier: GPL-2.0-or-later
"""Every frame at every boundary (matrix/frame_count.py): the kernel's
histograms read as the kernel prints them, the balances of hand-counted
cells, a frame in flight told from a frame lost, and reads that fail
failing the cell."""

from e1000epp.matrix import cell_model, frame_count
from e1000epp.matrix.guest_io import Checks, Guest
from e1000epp.vm import harness

# The layout of a hist file (Documentation/trace/histogram.rst): one
# "{ key: value, ... } hitcount: N" line per entry, string keys padded.
RX_HIST = """# event histogram
#
# trigger info: hist:keys=name:vals=hitcount:sort=hitcount:size=2048 [active]
#

{ name: lo                                           } hitcount:     4
{ name: eth0                                         } hitcount:   120

Totals:
    Hits: 124
    Entries: 2
    Dropped: 0
"""
# Five skbs without GSO (gso_segs 0), three TCP ones of one segment,
# two TSO skbs of 4 segments each, and eth0.100's own (not eth0's).
TX_HIST = """# event histogram
{ name: eth0, gso_segs:          0 } hitcount:          5
{ name: eth0, gso_segs:          1 } hitcount:          3
{ name: eth0, gso_segs:          4 } hitcount:          2
{ name: eth0.100, gso_segs:      1 } hitcount:          7
"""
DONE_HIST = """{ name: eth0, rc:          0 } hitcount:         17
{ name: eth0, rc:         16 } hitcount:          1
"""


def hist_text(rx=RX_HIST, tx=TX_HIST, done=DONE_HIST):
    parts = []
    for e in frame_count.TRIGGERS:
        parts.append(f"== {e}")
        parts.append(rx if e == "napi_gro_receive_entry" else
                     tx if e == frame_count.TX_EVENT else
                     done if e == frame_count.TX_DONE else "# empty\n")
    return "\n".join(parts)


def test_kernel_counts_weigh_gso_skbs_by_their_segments():
    up, down, busy = frame_count.kernel_counts(hist_text(), "eth0")
    assert (up, down, busy) == (120, 5 + 3 + 2 * 4, 1)
    assert frame_count.kernel_counts(hist_text(), "eth0.100") == (0, 7, 0)


def test_a_hist_missing_is_an_error_not_zero():
    text = hist_text().replace("== net_dev_xmit", "== something_else")
    try:
        frame_count.kernel_counts(text, "eth0")
    except frame_count.CountError as e:
        assert "net_dev_xmit" in str(e)
    else:
        raise AssertionError("a missing hist read as zero")


def snap(dev=None, up=0, down=0, busy=0, out=0, got=0):
    device = None
    if dev is not None:
        device = {k: 0 for k in frame_count.DEVICE}
        device.update(dev)
    return {"device": device, "stack_up": up, "stack_down": down,
            "tx_busy": busy, "peer_out": out, "peer_in": got}


def test_balances_of_a_hand_counted_cell():
    # The peer sent 100: 90 delivered, 6 missed (MPC), 4 filtered; the
    # driver handed 89 up (one dropped); the stack handed 50 frames
    # down, the device sent 50 and 2 PAUSE frames, the peer got 52.
    a = snap(dev={})
    b = snap(dev={"rx-delivered": 90, "rx-missed": 6, "rx-filtered": 4,
                  "tx-sent": 50, "tx-pause-sent": 2},
             up=89, down=50, out=100, got=52)
    assert frame_count.balances(a, b) == {
        "rx wire: peer sent - (device delivered + drops)": 0,
        frame_count.RX_DRIVER: 1,
        frame_count.TX_DRIVER: 0,
        "tx wire: device sent + PAUSE - peer got": 0,
        "tx driver: NETDEV_TX_BUSY returns": 0}


def test_the_stock_model_balances_the_guests_ends_only():
    b = snap(down=10, got=9, busy=0)
    assert frame_count.balances(snap(), b) == {
        "tx end to end: handed down by the stack - peer got": 1,
        "tx driver: NETDEV_TX_BUSY returns": 0}


class CountingVm:
    """A guest whose counts follow a script: each snapshot takes the next
    (device, kernel text, peer) reading, the last one repeating."""
    NIC_ID = "nic0"

    def __init__(self, readings, sh_rc=0):
        self.readings, self.i, self.sh_rc = readings, 0, sh_rc
        self.qmp, self.agent, self.peer = self, self, self
        self.armed = 0

    def _now(self):
        return self.readings[min(self.i, len(self.readings) - 1)]

    def execute(self, cmd, **kw):
        return self._now()["device"][kw["property"]]

    def sh(self, command, timeout=60, check=True):
        assert "trigger" in command
        self.armed += 1
        return self.sh_rc, ""

    def read_files(self, paths, timeout=60):
        up = f"{{ name: eth0 }} hitcount: {self._now()['up']}\n"
        down = f"{{ name: eth0, gso_segs: 1 }} hitcount: " \
            f"{self._now()['down']}\n"
        text = {frame_count.hist_path("napi_gro_receive_entry"): up,
                frame_count.hist_path(frame_count.TX_EVENT): down}
        return {p: text.get(p, "# empty") for p in paths}

    def stats(self):
        r = self._now()
        self.i += 1     # the peer is read last: the next reading begins
        return {"frames_out": r["out"], "frames_in": r["got"]}


def reading(delivered=0, up=0, sent=0, down=0, out=0, got=0):
    dev = {k: 0 for k in frame_count.DEVICE}
    dev.update({"rx-delivered": delivered, "tx-sent": sent})
    return {"device": dev, "up": up, "down": down, "out": out, "got": got}


def run_cell(readings, family=None, drops=0, sh_rc=0):
    vm = CountingVm(readings, sh_rc)
    checks, logged = Checks(), []
    if drops:
        checks.expect_driver_drops("frames the test drops", drops)
    start = frame_count.begin(vm, Guest(), checks, logged.append)
    cell = cell_model.Cell(1500, family=family)
    frame_count.SETTLE, old = 0.6, frame_count.SETTLE
    frame_count.INTERVAL, old_i = 0.01, frame_count.INTERVAL
    try:
        ev = frame_count.judge(vm, checks, cell, start, 0, logged.append)
    finally:
        frame_count.SETTLE, frame_count.INTERVAL = old, old_i
    return checks, ev, vm


def test_a_frame_in_flight_is_waited_for():
    quiet = reading(delivered=10, up=10, out=10)
    in_flight = reading(delivered=15, up=14, out=15)   # one not polled yet
    done = reading(delivered=15, up=15, out=15)
    checks, ev, vm = run_cell([quiet, quiet, in_flight, done])
    assert checks.failures() == []
    assert ev["unaccounted"][frame_count.RX_DRIVER] == 0
    assert vm.armed == 1


def test_a_frame_the_driver_drops_fails_the_cell_by_its_boundary():
    quiet = reading(delivered=10, up=10, out=10)
    lost = reading(delivered=15, up=14, out=15)
    checks, ev, _ = run_cell([quiet, quiet, lost])
    fails = checks.failures()
    assert len(fails) == 1
    assert f"{frame_count.RX_DRIVER} 1 (want 0)" in fails[0]


def test_a_frame_lost_on_the_way_to_the_peer_fails_the_cell():
    quiet = reading(sent=5, down=5, got=5)
    lost = reading(sent=9, down=9, got=8)
    checks, _, _ = run_cell([quiet, quiet, lost])
    assert "tx wire: device sent + PAUSE - peer got 1 (want 0)" in \
        checks.failures()[0]


def test_the_drops_a_cell_expects_of_the_driver_balance_it():
    quiet = reading(delivered=10, up=10, out=10)
    end = reading(delivered=34, up=10, out=34)
    checks, ev, _ = run_cell([quiet, quiet, end], family="longburst",
                             drops=24)
    assert checks.failures() == []
    assert ev["want"][frame_count.RX_DRIVER] == 24


def test_a_tx_ring_reset_family_accounts_for_discarded_frames():
    quiet = reading(sent=5, down=5, got=5)
    end = reading(sent=9, down=11, got=9)      # 2 freed by the reset
    checks, _, _ = run_cell([quiet, quiet, end], family="txhang")
    assert checks.failures() == []
    checks, _, _ = run_cell([quiet, quiet, end])
    assert "handed down by the stack - device sent 2 (want 0)" in \
        checks.failures()[0]


def test_counts_that_cannot_be_armed_fail_the_cell():
    checks, ev, _ = run_cell([reading()], sh_rc=5)
    assert ev is None
    assert checks.failures() == [
        "frames counted by the guest kernel (tracefs histograms): a "
        "histogram trigger is refused (CONFIG_HIST_TRIGGERS): no frame is "
        "counted at the driver's boundaries"]


def test_a_spurious_retransmit_passes_only_with_every_frame_accounted():
    quiet = reading(delivered=10, up=10, out=10)
    vm = CountingVm([quiet])
    checks = Checks()
    checks.peer_retransmits = 1
    start = frame_count.begin(vm, Guest(), checks, print)
    frame_count.judge(vm, checks, cell_model.Cell(1500), start, 0, print)
    assert checks.failures() == []
    assert "spurious" in checks.items[-1]["got"]


def test_an_unreadable_hist_file_fails_the_cell():
    class Unreadable(CountingVm):
        def read_files(self, paths, timeout=60):
            out = super().read_files(paths)
            out[frame_count.hist_path(frame_count.TX_DONE)] = None
            return out
    checks = Checks()
    assert frame_count.begin(Unreadable([reading()]), Guest(), checks,
                             print) is None
    assert "hist files unreadable: net_dev_xmit" in checks.failures()[0]


def test_harness_errors_while_counting_fail_the_cell():
    class Dead(CountingVm):
        def sh(self, command, timeout=60, check=True):
            raise harness.HarnessError("agent did not answer")
    checks = Checks()
    assert frame_count.begin(Dead([reading()]), Guest(), checks,
                             print) is None
    assert "agent did not answer" in checks.failures()[0]
