#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Drive one guest by hand through the page-pool driver's lifecycle and look
for page_pool warnings: traffic, down/up, MTU changes (1500, 9000, 2027,
4096, 1500: pool recreated with 2 KB and 4 KB buffers), a ring resize, the
reset task (ethtool -t offline self-test resets the adapter, a Tx timeout
is not needed), rx-fcs on/off, runtime suspend without link and resume,
module unload and reload; then wait past page_pool's 60 s deferred-release
warning and read dmesg.

    examples/pagepool-e1000e/lifecycle.py GUEST_DIR [REPORT_DIR]

GUEST_DIR: the image `./e1000e-pp run --debian-kernel 6.12 --driver-src ...`
built (build/guests/<key>/, named in the run's first lines). Uses the
VM harness (scripts/e1000epp/vm/harness.py) as a library; the
peer answers ARP and ping. Prints each step and exits 1 when dmesg shows a
warning or a step fails.
"""

import base64
import os
import re
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "scripts"))

from e1000epp.vm import harness  # noqa: E402
from e1000epp.vm.buildpaths import repo_paths  # noqa: E402

BAD = re.compile(r"WARNING|BUG:|Oops|page_pool|inflight|stalled|"
                 r"Reset adapter unexpectedly|DMA-API|list_del corruption|"
                 r"refcount_t|e1000e.*(Hang|unexpectedly)")


# (MTU, UDP payload) per row of the series' payload-density table: the
# echo's frame is MTU + 14 bytes (no VLAN tag, FCS stripped by the MAC).
TRUESIZE_ROWS = ((1500, 1472), (2026, 1998), (4074, 4046), (4096, 4068),
                 (8170, 8142), (9000, 8972))
HELD = 8


def reload(vm, sh):
    sh("load-e1000e")
    harness.wait_until("eth0 back", lambda: vm.agent.sh(
        "test -e /sys/class/net/eth0", check=False)[0] == 0, 60)
    harness.link_up(vm, 60)


def truesize(vm, sh, ping):
    """skb truesize as the stack charges it: HELD echoes of the peer's UDP
    echo held unread in one socket; /proc/net/udp's rx_queue (the socket's
    receive memory) divided by HELD."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(TOP, "build", "pagepool-udphold")
    subprocess.run(["gcc", "-Os", "-static", "-nostdlib",
                    "-fno-stack-protector", "-fno-pie", "-no-pie",
                    "-fno-asynchronous-unwind-tables", "-Wl,-n",
                    "-Wl,--build-id=none", "-o", out,
                    os.path.join(here, "udphold.c")], check=True,
                   stderr=subprocess.DEVNULL)
    with open(out, "rb") as f:
        b64 = base64.b64encode(f.read()).decode()
    sh(f"echo {b64} | base64 -d > /tmp/udphold && chmod +x /tmp/udphold")
    for mtu, size in TRUESIZE_ROWS:
        sh(f"ip link set eth0 mtu {mtu}")
        ping(2)
        rc, txt = vm.agent.sh(
            f"/tmp/udphold {HELD} {size} 6 & sleep 4; "
            "awk 'NR > 1 { split($5, q, \":\"); print q[2] }' "
            "/proc/net/udp; wait", timeout=60, check=False)
        vals = [int(v, 16) for v in txt.split() if v.strip()]
        per = max(vals) / HELD if vals else 0
        print(f"TRUESIZE mtu={mtu} udp={size} frame={size + 42} "
              f"rx_queue={max(vals) if vals else None} per-skb={per:.0f}")


def main():
    guest = os.path.abspath(sys.argv[1])
    report = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else
                             os.path.join(TOP, "build", "pagepool-lifecycle"))
    vm = harness.Vm("e1000e-pp", report, guest_dir=guest,
                    append="iommu=pt")
    peer_bin = harness.peer_binary(repo_paths())
    failed = []
    vm.start(peer_bin)
    try:
        def sh(cmd, timeout=120, check=True):
            t = time.monotonic()
            rc, out = vm.agent.sh(cmd, timeout=timeout, check=False)
            print(f"[{time.monotonic() - t:5.1f}s rc={rc}] {cmd}")
            if out.strip():
                print("    " + out.strip().replace("\n", "\n    ")[-1500:])
            if check and rc != 0:
                failed.append(cmd)
            return rc, out

        def ping(n=5, size=56):
            harness.wait_carrier(vm, timeout=60)
            return sh(f"ping -c {n} -W 5 -s {size} {harness.PEER_IP}")

        pci = sh("basename $(readlink /sys/class/net/eth0/device)")[1].strip()
        harness.link_up(vm, 60)
        ping()
        sh("ethtool -S eth0 | grep -i -E 'header_split|alloc_rx|rx_packets'",
           check=False)
        sh("cat /sys/module/e1000e/parameters/copybreak", check=False)
        for _ in range(3):
            sh("ip link set eth0 down; ip link set eth0 up")
            ping(3)
        for mtu, size in ((9000, 8972), (2027, 1999), (4096, 4068),
                          (1500, 1472)):
            sh(f"ip link set eth0 mtu {mtu}")
            ping(3, size)
        sh("ethtool -G eth0 rx 512 tx 512")
        ping(3)
        sh("ethtool -G eth0 rx 256 tx 256")
        sh("ethtool -K eth0 rx-fcs on")
        ping(3)
        sh("ethtool -K eth0 rx-fcs off")
        ping(3)
        sh("ethtool -t eth0 offline", timeout=300, check=False)
        ping(3)
        # runtime suspend without link, resume when it comes back
        sh(f"echo auto > /sys/bus/pci/devices/{pci}/power/control")
        vm.qmp.execute("set_link", name=vm.netdev_id, up=False)
        harness.wait_until(
            "runtime suspend",
            lambda: vm.agent.sh(f"cat /sys/bus/pci/devices/{pci}/power/"
                                "runtime_status", check=False)[1].strip()
            == "suspended", 120, interval=0.5)
        print("runtime suspended")
        vm.qmp.execute("set_link", name=vm.netdev_id, up=True)
        harness.wait_until(
            "runtime resume",
            lambda: vm.agent.sh(f"cat /sys/bus/pci/devices/{pci}/power/"
                                "runtime_status", check=False)[1].strip()
            == "active", 120, interval=0.5)
        print("runtime resumed")
        sh(f"echo on > /sys/bus/pci/devices/{pci}/power/control")
        ping(3)
        sh("ip link set eth0 mtu 9000")
        ping(3, 8972)
        truesize(vm, sh, ping)
        sh("ip link set eth0 mtu 9000")
        sh("rmmod e1000e")
        reload(vm, sh)
        ping(3)
        sh("ip link set eth0 down; rmmod e1000e")
        print("waiting 70 s past page_pool's deferred-release warning")
        time.sleep(70)
        reload(vm, sh)
        ping(3)
        nic = "/machine/peripheral/" + vm.NIC_ID
        pmv = vm.qmp.execute("qom-get", path=nic, property="pm-violations")
        print(f"device pm-violations: {pmv}")
        if pmv:
            failed.append("pm-violations")
        _, log = vm.agent.sh("dmesg", check=False)
        with open(os.path.join(report, "dmesg.txt"), "w") as f:
            f.write(log)
        bad = [ln for ln in log.splitlines() if BAD.search(ln)]
        print("dmesg lines matching warnings:", len(bad))
        for ln in bad:
            print("    " + ln)
        if bad:
            failed.append("dmesg")
    finally:
        vm.stop()
    print("FAILED: " + ", ".join(failed) if failed else "lifecycle: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
