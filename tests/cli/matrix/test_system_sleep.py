# SPDX-License-Identifier: GPL-2.0-or-later
"""The system-sleep cells (families sleep, sleepdown): where they sit in
the matrix, how they boot, and the step that suspends the guest to RAM
and wakes it (matrix/traffic_power.py), against a fake guest."""

from e1000epp.matrix import cell_model, families
from e1000epp.matrix.guest_io import Checks, boot_args
from e1000epp.matrix.traffic import traffic
from e1000epp.matrix.traffic_context import TrafficContext
from e1000epp.matrix.traffic_power import system_sleep
from e1000epp.vm import harness

# The window SeaBIOS leaves in the ICH9 LPC bridge at boot: PMBASE 0x600
# with its I/O-space bit (0x601, little-endian at 0x40) and ACPI_CNTL's
# ACPI_EN (bit 7 at 0x44), as the guest read them (cells/*/traffic.log).
LPC_AT_BOOT = "01 06 00 00 80 00 00 00"


def test_the_default_matrix_sleeps_up_down_and_on_intx():
    names = sorted(c.name for c in cell_model.default_matrix()
                   if c.family and c.family.sleep)
    assert names == ["mtu1500-strip-msix-noiommu-sleep",
                     "mtu1500-strip-msix-noiommu-sleepdown",
                     "mtu9000-keep-intx-noiommu-sleep"]


def test_sleep_cells_boot_apart_with_the_tsc_kept_and_the_bzimage():
    cell = cell_model.Cell(1500, family="sleep")
    assert cell.boot_key() == "noiommu+sleep"
    assert boot_args(cell.boot_key()) == ([], "tsc=reliable")
    assert "sleep" in families.BZIMAGE_BOOTS


def test_a_vm_asked_for_the_bzimage_boots_it(tmp_path):
    (tmp_path / "vmlinux").write_bytes(b"")
    (tmp_path / "vmlinuz").write_bytes(b"")
    pvh = harness.Vm("e1000e-pp", tmp_path / "r1", guest_dir=tmp_path)
    bz = harness.Vm("e1000e-pp", tmp_path / "r2", guest_dir=tmp_path,
                    bzimage=True)
    assert pvh.kernel() == tmp_path / "vmlinux"
    assert bz.kernel() == tmp_path / "vmlinuz"


class SleepingGuest:
    """Answers the step's commands as a guest that goes to S3 when told
    and resumes on system_wakeup (sleeps=False: never reaches S3;
    wakes=False: never resumes, as a driver whose suspend broke it)."""

    def __init__(self, console, sleeps=True, wakes=True):
        self.agent = self.qmp = self
        self.console, self.sleeps, self.wakes = console, sleeps, wakes
        self.commands, self.qmp_calls = [], []
        self.state, self.lpc = "running", LPC_AT_BOOT

    def console_text(self):
        return self.console.read_text()

    def sh(self, command, timeout=60, check=True):
        self.commands.append(command)
        if command.startswith("od "):
            return 0, " " + self.lpc + "\n"
        if "echo mem > /sys/power/state" in command and self.sleeps:
            self.state = "suspended"
            # The wake's machine reset closes the window.
            self.lpc = "00 00 00 00 00 00 00 00"
        if command.startswith("printf"):
            self.lpc = LPC_AT_BOOT
        if command.startswith("cat /sys/class/net/eth0/carrier"):
            return 0, "1\n"
        return 0, ""

    def execute(self, cmd, **args):
        self.qmp_calls.append(cmd)
        if cmd == "system_wakeup" and self.wakes:
            self.state = "running"
            with self.console.open("a") as f:
                f.write("[    6.2] PM: suspend exit\n")
        return {"status": self.state} if cmd == "query-status" else {}

    def hello(self, timeout=60):
        return "OK HELLO 0 proto=2"


def _ctx(vm, family, checks, tmp_path):
    cell = cell_model.Cell(1500, family=family)
    return TrafficContext(vm, cell, 0, checks, str(tmp_path),
                          lambda text: None, 2.0)


def test_the_guest_sleeps_wakes_and_gets_its_acpi_window_back(tmp_path):
    console = tmp_path / "console.log"
    console.write_text("[    2.4] PM: suspend exit\n")   # an earlier one
    vm, checks = SleepingGuest(console), Checks()
    system_sleep(_ctx(vm, "sleepdown", checks, tmp_path))
    assert checks.failures() == []
    assert vm.qmp_calls.count("system_wakeup") == 1
    cfg = "/sys/bus/pci/devices/0000:00:1f.0/config"
    assert vm.commands == [
        f"od -An -tx1 -j64 -N8 {cfg}",
        "ip link set eth0 down",
        "echo deep > /sys/power/mem_sleep && (sleep 1; echo mem > "
        "/sys/power/state) >/dev/null 2>&1 &",
        "printf '\\001\\006\\000\\000\\200\\000\\000\\000' | dd "
        f"of={cfg} bs=1 seek=64 conv=notrunc 2>/dev/null",
        "ip link set eth0 up",
        f"od -An -tx1 -j64 -N8 {cfg}",
        "cat /sys/class/net/eth0/carrier"]


def test_a_guest_that_never_sleeps_fails_the_cell(tmp_path):
    console = tmp_path / "console.log"
    console.write_text("")
    vm, checks = SleepingGuest(console, sleeps=False), Checks()
    system_sleep(_ctx(vm, "sleep", checks, tmp_path))
    assert checks.failures() == [
        "suspend to RAM and wake: timed out after 2.0 s waiting for the "
        "guest in S3 (QEMU run state suspended)"]
    assert "system_wakeup" not in vm.qmp_calls


def test_a_guest_that_never_resumes_ends_the_cell(tmp_path):
    # Every later step would wait out its own timeout on a guest that
    # answers nothing: the step ends the cell (a harness error).
    console = tmp_path / "console.log"
    console.write_text("")
    vm, checks = SleepingGuest(console, wakes=False), Checks()
    try:
        system_sleep(_ctx(vm, "sleep", checks, tmp_path))
    except harness.HarnessError as e:
        assert str(e) == (
            "the guest did not come back from S3: timed out after 2.0 s "
            "waiting for the resume ('PM: suspend exit' on the console)")
    else:
        raise AssertionError("the step went on after a failed resume")
    assert vm.qmp_calls.count("system_wakeup") == 1
    assert checks.failures() == [
        "suspend to RAM and wake: timed out after 2.0 s waiting for the "
        "resume ('PM: suspend exit' on the console)"]


def test_the_sleep_comes_between_the_two_tcp_streams(monkeypatch):
    import e1000epp.matrix.traffic as traffic_mod
    ran = []
    for name in ("traffic_frames", "traffic_udp", "traffic_truesize",
                 "traffic_tcp_tx", "traffic_tcp_rx", "traffic_checksum",
                 "system_sleep"):
        monkeypatch.setattr(traffic_mod, name,
                            lambda ctx, n=name: ran.append(n))
    checks = Checks()
    checks.udp_ok = True
    traffic(TrafficContext(None, cell_model.Cell(1500, family="sleep"), 0,
                           checks, "", print, 1.0))
    assert ran == ["traffic_frames", "traffic_udp", "traffic_truesize",
                   "traffic_tcp_tx", "system_sleep", "traffic_tcp_rx",
                   "traffic_checksum"]
