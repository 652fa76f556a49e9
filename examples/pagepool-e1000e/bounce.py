#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Boot a guest image with swiotlb=force (every DMA buffer bounced) and pass
traffic at MTU 1500 and 9000: shows whether the driver syncs Rx buffers for
the CPU (without the sync the CPU reads the stale page, not the bounce
buffer, and the stack drops the frames on their checksums).

    examples/pagepool-e1000e/bounce.py GUEST_DIR [REPORT_DIR]
"""

import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "scripts"))

from e1000epp.vm import harness  # noqa: E402
from e1000epp.vm.buildpaths import repo_paths  # noqa: E402


def main():
    guest = os.path.abspath(sys.argv[1])
    report = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else
                             os.path.join(TOP, "build", "pagepool-bounce"))
    vm = harness.Vm("e1000e-pp", report, guest_dir=guest,
                    append="swiotlb=force")
    vm.start(harness.peer_binary(repo_paths()))
    lost = 0
    try:
        harness.link_up(vm, 60)
        _, out = vm.agent.sh("dmesg | grep -i -m2 'software IO TLB'",
                             check=False)
        print(out.strip())
        for mtu, size in ((1500, 1472), (9000, 8972)):
            vm.agent.sh(f"ip link set eth0 mtu {mtu}")
            harness.wait_carrier(vm, timeout=60)
            rc, out = vm.agent.sh(f"ping -c 10 -W 3 -s {size} "
                                  f"{harness.PEER_IP}", timeout=120,
                                  check=False)
            m = re.search(r"(\d+) packets received", out)
            got = int(m.group(1)) if m else 0
            lost += 10 - got
            print(f"MTU {mtu}: ping -s {size}: {got}/10 replies")
    finally:
        vm.stop()
    print("bounce: ok" if not lost else f"bounce: {lost} of 20 lost")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
