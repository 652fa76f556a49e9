# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot without the driver (e1000epp.load=0), then watch the unmodified
e1000e driver probe the NIC when the test loads it."""

import re

from e1000epp.vm.harness import GUEST_MAC

VM_APPEND = "e1000epp.load=0"
# The driver's name as a word (the command line mentions e1000epp.*).
DRIVER = re.compile(r"\be1000e\b")


def test_driver_probe_on_demand(vm):
    # given: a guest that has not loaded e1000e
    _, modules = vm.agent.sh("cat /proc/modules")
    assert not re.search(r"^e1000e ", modules, re.M)
    rc, _ = vm.agent.sh("test -e /sys/class/net/eth0", check=False)
    assert rc == 1
    _, before = vm.agent.sh("dmesg")
    assert not DRIVER.search(before)

    # when: the test loads it
    vm.agent.sh("load-e1000e")

    # then: it binds the NIC and registers eth0 with the configured MAC
    _, modules = vm.agent.sh("cat /proc/modules")
    assert re.search(r"^e1000e ", modules, re.M)
    _, mac = vm.agent.sh("cat /sys/class/net/eth0/address")
    assert mac.strip() == GUEST_MAC
    _, driver = vm.agent.sh("readlink /sys/class/net/eth0/device/driver")
    assert driver.strip().endswith("/e1000e")
    _, after = vm.agent.sh("dmesg")
    lines = [line for line in after.splitlines() if DRIVER.search(line)]
    print("\n".join(lines))
    assert any(line.endswith(f"eth0: (PCI Express:2.5GT/s:Width x1) "
                             f"{GUEST_MAC}") for line in lines)
    bad = [line for line in lines
           if re.search(r"error|fail|warn|timeout|hang|unexpected", line,
                        re.I)]
    assert bad == []
