# SPDX-License-Identifier: GPL-2.0-or-later
"""Runtime PM with the unmodified e1000e driver: suspend without link, wake
through PME when the cable comes back, traffic afterwards.

Linux runtime-suspends the NIC only without link (e1000e's runtime idle
callback), after arming link-change wake (WUFC.LNKC, WUC.PME_En) and
PMCSR.PME_En; the function then sits in D3hot. The interface stays up:
with it down the driver arms no wake (WUC = WUFC = 0) and powers the PHY
down (BMCR.PDOWN), so only `ip link set up` resumes the device. When the peer's side of
the link comes up, e1000e-pp sets PMCSR.PME_Status; QEMU sends no PME
message, so the guest's PCI core finds it by polling (about once a
second) and resumes the device, and the driver reports the cause it
reads from WUS: "MAC Wakeup cause - Link Status Change". The resume
restores the configuration space the function lost in D3hot.

stock e1000e advertises no PME, so the PCI core never runtime-suspends
it: asserted as the recorded difference (test_registers.py covers it).
"""

import re

import pytest

from e1000epp.vm.harness import PEER_IP, link_up, wait_carrier, wait_until
from pmtools import (booted_vm, dmesg, nic_path, pci_address,
                     runtime_status as status)

# Generous bounds for TCG on a loaded 2-core machine: the driver asks
# for suspend 5 s after losing link, the PME poll runs every second.
SUSPEND_TIMEOUT = 120
WAKE_TIMEOUT = 120
LINK_TIMEOUT = 60
WAKE_CAUSE = "MAC Wakeup cause - Link Status Change"


@pytest.fixture(scope="module")
def pm_vm(device, guest_image, peer_bin, report_dir):
    vm = booted_vm(device, peer_bin, report_dir, "test_runtime_pm")
    yield vm
    (vm.report_dir / "dmesg.txt").write_text(dmesg(vm) + "\n")
    vm.stop()


def test_runtime_suspend_wake_on_link_and_resume(pm_vm, device):
    if device != "e1000e-pp":
        pytest.skip("stock e1000e never runtime-suspends (no PME); "
                    "asserted in test_registers.py")
    vm = pm_vm
    pci = pci_address(vm)
    nic = nic_path(vm)

    # given: the interface up, runtime PM allowed, and then no link
    link_up(vm, LINK_TIMEOUT)
    vm.agent.sh(f"echo auto > /sys/bus/pci/devices/{pci}/power/control")
    vm.qmp.execute("set_link", name=vm.netdev_id, up=False)

    # then: the driver runtime-suspends the function (D3hot)
    wait_until("runtime suspend", lambda: status(vm, pci) == "suspended",
               SUSPEND_TIMEOUT, interval=0.5, evidence=vm.console_tail)

    # when: the peer's side of the link comes up
    vm.qmp.execute("set_link", name=vm.netdev_id, up=True)

    # then: the device wakes through PME and the driver says why
    wait_until("runtime resume through PME",
               lambda: status(vm, pci) == "active", WAKE_TIMEOUT,
               interval=0.5, evidence=vm.console_tail)
    log = dmesg(vm)
    assert WAKE_CAUSE in log
    assert vm.qmp.execute("qom-get", path=nic, property="rx-wake") == 0

    # then: the link is back and traffic passes
    vm.agent.sh(f"echo on > /sys/bus/pci/devices/{pci}/power/control")
    wait_carrier(vm, timeout=LINK_TIMEOUT)
    rc, out = vm.agent.sh(f"ping -c 3 -W 5 {PEER_IP}", timeout=60,
                          check=False)
    assert rc == 0, out

    # and: a correct driver made no access the sleeping function refused
    assert vm.qmp.execute("qom-get", path=nic, property="pm-violations") == 0
    events = vm.qmp.execute("qom-get", path=nic, property="events")
    (vm.report_dir / "events.txt").write_text(events)
    assert "pme reg=0x05810 value=0x00000001" in events
    bad = [line for line in log.splitlines()
           if re.search(r"WARNING|BUG|Oops|Reset adapter unexpectedly",
                        line)]
    assert bad == []
