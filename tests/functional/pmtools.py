# SPDX-License-Identifier: GPL-2.0-or-later
"""What the power-management VM tests share: a booted guest per module,
the NIC's QOM path, carrier and runtime-PM status, dmesg."""

from e1000epp.vm import harness
from e1000epp.vm.guestnet import carrier

# What the PM tests import from here.
__all__ = ["booted_vm", "nic_path", "pci_address", "carrier", "runtime_status",
           "dmesg"]


def booted_vm(device, peer_bin, report_dir, name, extra_args=()):
    """A started harness.Vm (stopped again if the start fails)."""
    vm = harness.Vm(device, report_dir / f"{name}-{device}",
                    extra_args=list(extra_args))
    try:
        vm.start(peer_bin)
    except harness.HarnessError:
        vm.stop()
        raise
    return vm


def nic_path(vm):
    """QOM path of the NIC: by its id when the harness gives it one, else
    the anonymous device of the NIC's type."""
    nic_id = getattr(vm, "NIC_ID", None)
    if nic_id:
        return "/machine/peripheral/" + nic_id
    for child in vm.qmp.execute("qom-list", path="/machine/peripheral-anon"):
        if child["type"] in ("child<e1000e-pp>", "child<e1000e>"):
            return "/machine/peripheral-anon/" + child["name"]
    raise AssertionError("no NIC under /machine/peripheral-anon")


def pci_address(vm):
    _, pci = vm.agent.sh("basename $(readlink /sys/class/net/eth0/device)")
    return pci.strip()


def runtime_status(vm, pci):
    _, out = vm.agent.sh(f"cat /sys/bus/pci/devices/{pci}/power/"
                         "runtime_status", check=False)
    return out.strip()


def dmesg(vm):
    _, out = vm.agent.sh("dmesg", check=False)
    return out
