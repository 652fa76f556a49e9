# SPDX-License-Identifier: GPL-2.0-or-later
"""A read that fails must fail the cell, never let a check vanish or pass
on the wrong numbers (issue 37, "No vanishing checks"), without a VM:

  - the device's situations (and DMA fault records) read over QMP at a
    cell's start and end: a failed first read is not "zero since boot";
  - the driver's copybreak parameter: an empty answer is not "absent";
  - the truesize table of the page-pool series: the run's driver
    decides, not whether libeth's holder file can be read;
  - the kernel log: the cell's lines are found after a mark, so that
    the ring buffer wrapping neither hides a line nor loses one unseen.

The guest is a fake agent answering the shell commands the cell sends.
"""

import re

from e1000epp.matrix import (cell_model, diagnosis, execute, guest_io,
                             traffic_context, traffic_streams)

PEER_MAC = "52:54:00:12:34:99"
SITS = "hdr-split 0\ntso 5\nrx-csum-ip 7\n"


class FakeAgent:
    """Answers sh() from a function of the command."""

    def __init__(self, answer, request=None):
        self.answer, self.commands = answer, []
        self.req = request

    def sh(self, command, timeout=60, check=True):
        self.commands.append(command)
        return self.answer(command)

    def request(self, line, timeout=60):
        return self.req(line)


class FakeVm:
    def __init__(self, answer, request=None):
        self.agent = FakeAgent(answer, request)


# -- the situations --------------------------------------------------------

def _start(**kw):
    return dict({"situations": SITS, "dma-fault-count": 0,
                 "rx-delivered": 100}, **kw)


def _end(**kw):
    return dict({"situations": "hdr-split 2\ntso 9\nrx-csum-ip 7\n",
                 "dma-fault-count": 0, "rx-delivered": 140,
                 "dma-faults": ""}, **kw)


def test_whole_readings_give_the_cells_difference(tmp_path):
    _, cov = diagnosis.cell_end(_start(), _end(), str(tmp_path), PEER_MAC,
                                False)
    assert cov["hit"] == {"hdr-split": 2, "tso": 4}
    assert diagnosis.unread(_start(), _end()) == []
    checks = execute.Checks()
    execute.check_qom_reads(checks, "e1000e-pp", True, _start(), _end())
    assert checks.failures() == []


def test_a_failed_first_read_of_the_situations_is_not_counts_since_boot(
        tmp_path):
    # read_qom gives None for a property it could not read: the old
    # verdict compared the end against {} and every situation since
    # boot counted as the cell's.
    start = _start(situations=None)
    _, cov = diagnosis.cell_end(start, _end(), str(tmp_path), PEER_MAC,
                                False)
    assert cov is None
    checks = execute.Checks()
    execute.check_qom_reads(checks, "e1000e-pp", True, start, _end())
    fails = checks.failures()
    assert len(fails) == 1
    assert "situations at the cell's start read (QMP qom-get)" in fails[0]
    assert "got None" in fails[0]


def test_an_empty_or_partial_reading_of_the_situations_fails_too(tmp_path):
    for start, end, bad in (
            (_start(situations=""), _end(), "start"),
            (_start(), _end(situations="garbage"), "end"),
            (_start(situations="tso 5\n"), _end(), "start")):
        _, cov = diagnosis.cell_end(start, end, str(tmp_path), PEER_MAC,
                                    False)
        assert cov is None, (start, end)
        missed = diagnosis.unread(start, end)
        assert f"situations at the cell's {bad}" in missed, missed


def test_a_failed_read_of_the_fault_count_fails_the_cell():
    # Without the first count the cell's DMA faults are never listed.
    start = _start(**{"dma-fault-count": None})
    end = _end(**{"dma-fault-count": 1, "dma-faults": None})
    checks = execute.Checks()
    execute.check_qom_reads(checks, "e1000e-pp", True, start, end)
    text = "\n".join(checks.failures())
    assert "dma-fault-count at the cell's start" in text
    assert "dma-faults at the cell's end" in text


def test_the_stock_device_fails_once_for_its_missing_situations():
    none = {k: None for k in diagnosis.QOM_END}
    checks = execute.Checks()
    execute.check_qom_reads(checks, "e1000e", False, none, none)
    assert checks.failures() == [
        "the device's situations read (QMP): e1000e has no situations "
        "counters: the cell's purpose cannot be checked"]


# -- copybreak -------------------------------------------------------------

ONE_BUFFER = {"format": "legacy", "first": [2048], "next": [],
              "secrc": True}
DELTA = {"rx-buf-new": 30, "rx-buf-reposted": 20, "rx-delivered": 50}


def _copybreak_checks(rc, out, driver=None):
    vm = FakeVm(lambda cmd: (rc, out))
    checks = execute.Checks()
    checks.layout = dict(ONE_BUFFER)
    extra = () if driver is None else (driver,)
    execute.check_copybreak(checks, cell_model.Cell(1500), DELTA,
                            execute.driver_copybreak(vm), *extra)
    return checks.failures()


def test_the_copybreak_bound_is_checked_when_read():
    assert _copybreak_checks(0, "256\n") == []
    assert _copybreak_checks(0, "128\n") == [
        "the loaded driver's copybreak (/sys/module/e1000e/parameters/"
        "copybreak): got 128, want 256"]


def test_an_empty_failed_copybreak_read_fails_the_bound():
    # The old reader took "exit 1, nothing printed" for "no such
    # parameter" and skipped the bound.
    for rc, out in ((1, ""), (0, ""), (0, "cat: read error\n")):
        fails = _copybreak_checks(rc, out)
        assert len(fails) == 1, (rc, out, fails)
        assert fails[0].startswith("the loaded driver's copybreak read "
                                   "(/sys/module/e1000e/parameters/"
                                   "copybreak): unreadable"), fails


def test_copybreak_absent_only_from_a_driver_without_it():
    # The guest says "absent" itself; the series removed the parameter,
    # Debian's own e1000e has it.
    assert _copybreak_checks(0, "absent\n") == []
    assert _copybreak_checks(0, "absent\n", cell_model.DRIVER_SERIES) == []
    fails = _copybreak_checks(0, "absent\n", cell_model.DRIVER_STOCK)
    assert len(fails) == 1 and "Debian's e1000e" in fails[0], fails


def test_the_run_names_its_driver():
    from e1000epp.matrix import command

    class Args:
        pass
    a = Args()
    assert command.driver_under_test(a) == cell_model.DRIVER_STOCK
    a.debian_kernel = "6.12"
    assert command.driver_under_test(a) == cell_model.DRIVER_STOCK
    a.driver, a.driver_src = "pagepool+truesize", "/build/pagepool"
    assert command.driver_under_test(a) == cell_model.DRIVER_SERIES
    a.driver = None
    assert command.driver_under_test(a) is None


# -- truesize --------------------------------------------------------------

def _truesize(driver, holder, charged=3000, mtu=1500):
    held = traffic_streams.TRUESIZE_HELD

    def request(line):
        assert line.startswith("UDPHOLD ")
        return ([f"truesize {i} {charged}" for i in range(held)],
                f"OK sent={held} held={held} echoed={held} bad=0")
    vm = FakeVm(lambda cmd: holder, request)
    checks = execute.Checks()
    ctx = traffic_context.TrafficContext(vm, cell_model.Cell(mtu), 0x10000,
                                         checks, "/nonexistent",
                                         lambda text: None, 10)
    assert ctx.driver is None       # the user's own driver
    ctx.driver = driver
    traffic_streams.traffic_truesize(ctx)
    return checks.failures()


def test_the_series_table_holds_when_the_libeth_file_cannot_be_read():
    # The series charges 2304 at MTU 1500; 3000 is a fault. The old step
    # enforced the table only when `test -e` found libeth's holder file.
    for holder in ((1, ""), (0, "no\n"), (0, "yes\n")):
        fails = _truesize(cell_model.DRIVER_SERIES, holder)
        assert len(fails) == 1, (holder, fails)
        assert fails[0].startswith("truesize of each MTU-sized frame (page "
                                   "pool, the series' table: 2304)")
    assert _truesize(cell_model.DRIVER_SERIES, (1, ""), 2304) == []


def test_the_stock_driver_charge_is_not_judged_by_the_table():
    assert _truesize(cell_model.DRIVER_STOCK, (0, "yes\n")) == []


def test_a_users_driver_is_told_by_its_libeth_holder_or_fails():
    assert _truesize(None, (0, "no\n")) == []
    fails = _truesize(None, (0, "yes\n"))
    assert len(fails) == 1 and "series' table: 2304" in fails[0]
    fails = _truesize(None, (1, ""))
    assert len(fails) == 1 and "cannot be told" in fails[0], fails
    assert cell_model.PAGEPOOL_HOLDER in fails[0]


# -- the kernel log --------------------------------------------------------

class KernelLog:
    """A guest's kernel log of at most `cap` lines (the oldest dropped
    first, as the kernel's ring buffer does) behind the agent's sh."""

    def __init__(self, cap, lines):
        self.cap, self.lines, self.t = cap, [], 0
        self.add(*lines)

    def add(self, *texts):
        for text in texts:
            self.t += 1
            self.lines.append(f"[{self.t:5d}.000000] {text}")
        del self.lines[:max(0, len(self.lines) - self.cap)]

    def answer(self, cmd):
        if cmd.startswith("cat /proc/sys/kernel/tainted"):
            return 0, "0\n"
        m = re.search(r"echo '<5>([^']*)' > /dev/kmsg", cmd)
        if m:
            self.add(m.group(1))
        if cmd.endswith("dmesg"):
            return 0, "\n".join(self.lines) + "\n"
        return 1, f"unexpected command {cmd}"


BOOT = ["Linux version 6.1.0-28-amd64 (debian-kernel@lists.debian.org)"] + \
    [f"boot line {i}" for i in range(9)]
WARN = "WARNING: CPU: 0 PID: 7 at net/core/page_pool.c:1 page_pool_x+0x1"


def _scan(log, g, tmp_path):
    checks = execute.Checks()
    guest_io.scan_dmesg(FakeVm(log.answer), g, cell_model.Cell(1500),
                        str(tmp_path), checks, 0)
    return checks.failures()


def test_a_warning_after_the_log_wrapped_is_seen(tmp_path):
    log = KernelLog(12, BOOT)
    g = guest_io.Guest()
    assert _scan(log, g, tmp_path) == []
    # The log is full: each new line drops an old one, its line count
    # stays 12 (the old scan sliced from line 10 on and saw 2 of these).
    log.add("e1000e 0000:00:04.0 eth0: NIC Link is Up", WARN, "a", "b", "c")
    fails = _scan(log, g, tmp_path)
    assert len(fails) == 1 and fails[0].startswith("dmesg free of"), fails
    assert WARN in fails[0]
    assert WARN in (tmp_path / "dmesg.txt").read_text()
    # The next cell sees only its own lines.
    log.add("quiet")
    assert _scan(log, g, tmp_path) == []
    assert (tmp_path / "dmesg.txt").read_text().splitlines()[-1] \
        .endswith("quiet")


def test_lines_lost_to_the_wrap_fail_the_cell(tmp_path):
    log = KernelLog(12, BOOT)
    g = guest_io.Guest()
    assert _scan(log, g, tmp_path) == []
    log.add(*[f"flood {i}" for i in range(30)])
    fails = _scan(log, g, tmp_path)
    assert len(fails) == 1, fails
    assert fails[0].startswith("kernel log of the cell complete")
    assert "the log wrapped and lines of this cell were lost" in fails[0]
    # The lines still there were scanned all the same.
    log.add(*[f"flood {i}" for i in range(30)] + [WARN])
    fails = _scan(log, g, tmp_path)
    assert any(f.startswith("dmesg free of") and WARN in f for f in fails)


def test_a_boot_log_already_wrapped_fails_the_first_cell(tmp_path):
    log = KernelLog(5, BOOT)
    fails = _scan(log, guest_io.Guest(), tmp_path)
    assert len(fails) == 1 and "the log wrapped since boot" in fails[0]


def test_a_mark_that_cannot_be_written_fails_this_cell_and_the_next(
        tmp_path):
    log = KernelLog(50, BOOT)
    g = guest_io.Guest()
    answer = log.answer
    log.answer = lambda cmd: (1, "sh: can't create /dev/kmsg: "
                              "Permission denied") if "/dev/kmsg" in cmd \
        else answer(cmd)
    fails = _scan(log, g, tmp_path)
    assert len(fails) == 1 and "kernel log read" in fails[0], fails
    log.answer = answer
    fails = _scan(log, g, tmp_path)
    assert len(fails) == 1 and "mark could not be written" in fails[0]
    assert _scan(log, g, tmp_path) == []
