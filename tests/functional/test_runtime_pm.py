# SPDX-License-Identifier: GPL-2.0-or-later
"""Runtime PM with the unmodified e1000e driver: suspend without link, wake
through PME when the cable comes back, traffic afterwards.

Linux runtime-suspends the NIC only without link (e1000e's runtime idle
callback), after arming link-change wake (WUFC.LNKC, WUC.PME_En) and
PMCSR.PME_En; the function then sits in D3hot. The interface stays up:
closing it powers the PHY down (BMCR.PDOWN), and a powered-down PHY sees
no link to wake on; then only `ip link set up` resumes the device. When the peer's side of
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

import harness
from harness import GUEST_IP, PEER_IP, wait_until

# Generous bounds for TCG on a loaded 2-core machine: the driver asks
# for suspend 5 s after losing link, the PME poll runs every second.
SUSPEND_TIMEOUT = 120
WAKE_TIMEOUT = 120
LINK_TIMEOUT = 60
WAKE_CAUSE = "MAC Wakeup cause - Link Status Change"


@pytest.fixture(scope="module")
def pm_vm(device, guest_image, peer_bin, report_dir):
    vm = harness.Vm(device, report_dir / f"test_runtime_pm-{device}")
    try:
        vm.start(peer_bin)
    except harness.HarnessError:
        vm.stop()
        raise
    yield vm
    _, dmesg = vm.agent.sh("dmesg", check=False)
    (vm.report_dir / "dmesg.txt").write_text(dmesg + "\n")
    vm.stop()


def nic_path(vm):
    for child in vm.qmp.execute("qom-list", path="/machine/peripheral-anon"):
        if child["type"] in ("child<e1000e-pp>", "child<e1000e>"):
            return "/machine/peripheral-anon/" + child["name"]
    raise AssertionError("no NIC under /machine/peripheral-anon")


def status(vm, pci):
    _, out = vm.agent.sh(f"cat /sys/bus/pci/devices/{pci}/power/"
                         "runtime_status", check=False)
    return out.strip()


def carrier(vm):
    _, out = vm.agent.sh("cat /sys/class/net/eth0/carrier", check=False)
    return out.strip() == "1"


def test_runtime_suspend_wake_on_link_and_resume(pm_vm, device):
    if device != "e1000e-pp":
        pytest.skip("stock e1000e never runtime-suspends (no PME); "
                    "asserted in test_registers.py")
    vm = pm_vm
    _, pci = vm.agent.sh("basename $(readlink /sys/class/net/eth0/device)")
    pci = pci.strip()
    nic = nic_path(vm)

    # given: the interface up, runtime PM allowed, and then no link
    vm.agent.sh("ip link set eth0 up")
    vm.agent.sh(f"ip addr add {GUEST_IP}/24 dev eth0")
    wait_until("carrier on eth0", lambda: carrier(vm), LINK_TIMEOUT,
               interval=0.2, evidence=vm.console_tail)
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
    _, dmesg = vm.agent.sh("dmesg")
    assert WAKE_CAUSE in dmesg
    assert vm.qmp.execute("qom-get", path=nic, property="rx-wake") == 0

    # then: the link is back and traffic passes
    vm.agent.sh(f"echo on > /sys/bus/pci/devices/{pci}/power/control")
    wait_until("carrier on eth0", lambda: carrier(vm), LINK_TIMEOUT,
               interval=0.2, evidence=vm.console_tail)
    rc, out = vm.agent.sh(f"ping -c 3 -W 5 {PEER_IP}", timeout=60,
                          check=False)
    assert rc == 0, out

    # and: a correct driver made no access the sleeping function refused
    assert vm.qmp.execute("qom-get", path=nic, property="pm-violations") == 0
    events = vm.qmp.execute("qom-get", path=nic, property="events")
    (vm.report_dir / "events.txt").write_text(events)
    assert "pme reg=0x05810 value=0x00000001" in events
    bad = [line for line in dmesg.splitlines()
           if re.search(r"WARNING|BUG|Oops|Reset adapter unexpectedly",
                        line)]
    assert bad == []
