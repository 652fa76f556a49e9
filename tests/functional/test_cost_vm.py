# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest cost and IOMMU work on the real guest (matrix/guest_cost.py, the cost plugin,
intel-iommu's trace events), with counts whose expected value comes from
outside the code under test:

  - with the interface down no NAPI poll can run: the poll path counts 0
    instructions while the guest as a whole executed some; with traffic
    it counts more than 0, and e1000e_poll ran at least once;
  - N frames received with copybreak=0 under a strict IOMMU
    (intel_iommu=on iommu.strict=1): the driver unmaps every received
    buffer before it hands it up (no copy), and a strict unmap
    invalidates the IOTLB before it returns, so the window holds at
    least N IOTLB invalidations.
"""

import pytest

from e1000epp.matrix import guest_cost, traffic_context
from e1000epp.vm import harness
N = 64
VM_APPEND = "e1000epp.load=0 intel_iommu=on iommu.strict=1"


@pytest.fixture(scope="module")
def costvm(device, guest_image, peer_bin, report_dir):
    if not guest_cost.available():
        pytest.fail(f"{guest_cost.PLUGIN} is not built: run ./e1000e-pp setup")
    boot_dir = report_dir / f"test_cost_vm-{device}"
    boot_dir.mkdir(parents=True, exist_ok=True)
    vm = harness.Vm(device, boot_dir, append=VM_APPEND,
                    device_args=["-device", "intel-iommu,intremap=off"],
                    extra_args=guest_cost.qemu_args(str(boot_dir), True))
    try:
        vm.start(peer_bin)
    except harness.HarnessError:
        vm.stop()
        raise
    vm.agent.sh("load-e1000e IntMode=2 copybreak=0")
    harness.wait_until("eth0", lambda: vm.agent.sh(
        "test -e /sys/class/net/eth0", check=False)[0] == 0, 30)
    yield vm, str(boot_dir)
    vm.stop()


def test_poll_path_counts_nothing_while_the_interface_is_down(costvm):
    vm, boot_dir = costvm
    vm.agent.sh("ip link set eth0 down")
    w = guest_cost.Window(vm, boot_dir, True)
    w.start()
    vm.agent.sh("sleep 1")
    raw = w.stop()
    p = raw["plugin"]
    assert "e1000e_poll" in p["funcs"], raw["symbols"]
    assert p["funcs"]["e1000e_poll"] == 0
    assert p["calls"]["e1000e_poll"] == 0
    assert p["insns"] > 0


def test_n_frames_with_copybreak_0_under_strict_iommu(costvm):
    vm, boot_dir = costvm
    vm.agent.sh("ip link set eth0 up && ip addr add "
                f"{harness.GUEST_IP}/24 dev eth0")
    harness.wait_until("carrier", lambda: vm.agent.sh(
        "cat /sys/class/net/eth0/carrier", check=False)[1].strip() == "1",
        60)
    s0 = harness.ethtool_stats(vm.agent)
    w = guest_cost.Window(vm, boot_dir, True)
    w.start()
    vm.agent.kv(f"RXSTART eth0 77 {N} {harness.PEER_MAC}")
    vm.peer.command(f"TXL {harness.GUEST_MAC} 77 1000 {N}")
    got = traffic_context.agent_rx_wait(vm)
    raw = w.stop()
    vm.agent.kv("RXSTOP")
    s1 = harness.ethtool_stats(vm.agent)
    assert got["good"] == N
    rx = s1["rx_packets"] - s0["rx_packets"]
    assert rx >= N
    p = raw["plugin"]
    assert p["funcs"]["e1000e_poll"] > 0 and p["calls"]["e1000e_poll"] > 0
    assert p["funcs"]["e1000_clean_rx_irq"] > 0
    assert p["funcs"]["e1000e_poll"] >= p["funcs"]["e1000_clean_rx_irq"]
    assert raw["invalidations"] >= N, raw
    # Every function entered in the window returned, every interrupt that
    # suspended one resumed (a missed resume would count the rest of the
    # window as interrupt work).
    assert (p["open"], p["overflow"]) == (0, 0), p
    assert p["irq_in_funcs"] < p["funcs"]["e1000e_poll"], p
    m = guest_cost.metrics(raw, rx, s1["tx_packets"] - s0["tx_packets"])
    print(f"\n[cost] {N} frames of 1000 bytes, copybreak 0, strict IOMMU: "
          f"{m}")
