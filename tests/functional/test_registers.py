# SPDX-License-Identifier: GPL-2.0-or-later
"""Which registers the unmodified e1000e driver touches that the model
does not implement.

The driver runs its probe, `ip link set up` with traffic, statistics
(`ethtool -S`), its offline self-test (`ethtool -t`), runtime PM (the
device runtime-suspends after the link goes away and resumes for the next
`ethtool -S`) and a system suspend/resume cycle (`pm_test=devices`: the
driver's suspend and resume callbacks run, the machine does not sleep).

e1000e-pp: the device lists every unknown or unimplemented (stored but
not modelled) register the guest touched since power-on
(`qom-get <nic> unimplemented-registers`); the list must equal the one
kept in docs/fidelity.md, section "Registers the driver touches that the
model does not implement".

Stock e1000e: the same paths, with the model's own warning trace events
(`e1000e_wrn_regs_*`: unknown registers, and those it calls "not fully
implemented"); the offsets it reports must equal the list kept beside ours
in docs/fidelity.md, so the difference is recorded in every run. Stock
advertises no PME, so it never runtime-suspends: that is asserted too.
"""

import re
import time

import pytest

from e1000epp.vm import harness
from e1000epp.vm.harness import GUEST_IP, wait_until
from pmtools import (booted_vm, carrier, nic_path, pci_address,
                     runtime_status)

DOC = harness.repo_paths()["REPO"] / "docs" / "fidelity.md"
LINK_TIMEOUT = 60
SUSPEND_TIMEOUT = 120
# Stock: how long to watch it not runtime-suspend (the driver asks after
# 5 s without link).
STOCK_IDLE_WAIT = 20


def documented(device):
    """The register list in docs/fidelity.md for this model."""
    text = DOC.read_text()
    m = re.search(r"<!-- unimplemented-registers: %s -->\n```\n(.*?)```"
                  % re.escape(device), text, re.S)
    assert m, f"docs/fidelity.md has no list for {device}"
    return sorted(m.group(1).split())


@pytest.fixture(scope="module")
def trace_log(report_dir, device):
    return report_dir / f"test_registers-{device}" / "qemu-trace.log"


@pytest.fixture(scope="module")
def reg_vm(device, guest_image, peer_bin, report_dir, trace_log):
    extra = []
    if device == "e1000e":
        extra = ["-trace", "enable=e1000e_wrn_regs_*", "-D", str(trace_log)]
    vm = booted_vm(device, peer_bin, report_dir, "test_registers", extra)
    yield vm
    vm.stop()


def sh(vm, cmd, timeout=60):
    rc, out = vm.agent.sh(cmd, timeout=timeout, check=False)
    (vm.report_dir / "commands.txt").open("a").write(
        f"$ {cmd}\n{out}\n(exit {rc})\n")
    return rc, out


def drive_every_path(vm):
    """Probe has run; now up, traffic, stats, self-test, PM."""
    pci = pci_address(vm)
    sh(vm, "ip link set eth0 up")
    sh(vm, f"ip addr add {GUEST_IP}/24 dev eth0")
    wait_until("carrier on eth0", lambda: carrier(vm), LINK_TIMEOUT,
               interval=0.2, evidence=vm.console_tail)
    sh(vm, f"ping -c 3 -W 2 {harness.PEER_IP}")
    sh(vm, "ethtool -S eth0")
    sh(vm, "ethtool -t eth0 offline", timeout=300)
    wait_until("carrier after the self-test", lambda: carrier(vm),
               LINK_TIMEOUT, interval=0.2, evidence=vm.console_tail)
    # Runtime PM: the driver suspends only without link (e1000e_idle).
    sh(vm, f"echo auto > /sys/bus/pci/devices/{pci}/power/control")
    vm.qmp.execute("set_link", name=vm.netdev_id, up=False)
    if vm.device == "e1000e":
        # Stock advertises no PME, so the PCI core never lets it
        # runtime-suspend: after the driver's 5 s idle delay, and well
        # beyond it, the device is still active.
        time.sleep(STOCK_IDLE_WAIT)
        assert runtime_status(vm, pci) == "active"
    else:
        wait_until("runtime suspend", lambda: runtime_status(vm, pci) ==
                   "suspended", SUSPEND_TIMEOUT, interval=0.5,
                   evidence=vm.console_tail)
    vm.qmp.execute("set_link", name=vm.netdev_id, up=True)
    sh(vm, "ethtool -S eth0")              # resumes the device
    sh(vm, f"echo on > /sys/bus/pci/devices/{pci}/power/control")
    # System suspend and resume callbacks, without sleeping (pm_test).
    sh(vm, "echo devices > /sys/power/pm_test")
    sh(vm, "echo freeze > /sys/power/state", timeout=120)
    sh(vm, "echo none > /sys/power/pm_test")
    wait_until("carrier after resume", lambda: carrier(vm), LINK_TIMEOUT,
               interval=0.2, evidence=vm.console_tail)
    sh(vm, "ethtool -S eth0")
    sh(vm, "dmesg")


def stock_offsets(trace_log):
    """Offsets the stock model's warning traces name, as 0x%05x."""
    deadline = time.monotonic() + 10
    while not trace_log.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    offsets = set()
    for line in trace_log.read_text(errors="replace").splitlines():
        m = re.search(r"(?:unknown register|offset:) 0x([0-9a-f]+)", line)
        if not m:
            continue
        offsets.add(int(m.group(1), 16))
    return sorted("0x%05x" % o for o in offsets)


def test_unimplemented_registers_the_driver_touches(reg_vm, device,
                                                    trace_log):
    drive_every_path(reg_vm)
    if device == "e1000e-pp":
        got = reg_vm.qmp.execute("qom-get", path=nic_path(reg_vm),
                                 property="unimplemented-registers")
        listed = sorted(got.split(",")) if got else []
    else:
        listed = stock_offsets(trace_log)
    (reg_vm.report_dir / "unimplemented.txt").write_text(
        "\n".join(listed) + "\n")
    print(f"\n[registers:{device}] {len(listed)} touched: {listed}")
    assert listed == documented(device)
