# SPDX-License-Identifier: GPL-2.0-or-later
"""The guest of `kselftest`: two NICs on one wire inside one QEMU.

The NIC under test (the harness's nic0, the guest's eth0) and the remote
NIC are joined by a pair of `-netdev dgram` unix sockets, each sending to
the other's (no host-side peer); the wire is captured by a filter-dump
on the remote's netdev into wire.pcap. In the guest the remote NIC moves
into the network namespace REMOTE_NS, the layout netdev's CI uses for
its emulated NICs (NETIF plus REMOTE_TYPE=netns, see the kernel's
tools/testing/selftests/drivers/net/README.rst).
"""

import base64
import time

from e1000epp.kselftest import image
from e1000epp.vm import harness

REMOTE_NS = "ksft-remote"
REMOTE_MAC = "52:54:00:12:34:57"
# Addresses: the benchmarking range of RFC 2544 (198.18.0.0/15), one
# /24 of it for the wire between the two NICs.
LOCAL_V4 = "198.18.10.1"
REMOTE_V4 = "198.18.10.2"
PREFIX = 24
# --ipv6: the IPv6 benchmarking range of RFC 5180 (2001:2::/48).
LOCAL_V6 = "2001:2:0:10::1"
REMOTE_V6 = "2001:2:0:10::2"
PREFIX6 = 64
NETIF = "eth0"
# The tests' PATH: Debian's ip, ping and socat ahead of busybox's.
PATH = "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SELFTESTS = f"/{image.GUEST_TREE}/{image.SELFTESTS}"


class KselftestVm(harness.Vm):
    """harness.Vm with the peer's netdev replaced by a dgram pair to a
    second NIC of model `remote` (virtio-net-pci or e1000e-pp)."""

    def __init__(self, device, report_dir, remote, guest_dir, **kw):
        super().__init__(device, report_dir, guest_dir=guest_dir, **kw)
        self.remote = remote

    def argv(self):
        argv = super().argv()
        a = self.sockdir / "wire-a.sock"
        b = self.sockdir / "wire-b.sock"
        for i, word in enumerate(argv):
            if word.startswith(f"stream,id={self.netdev_id},"):
                argv[i] = (f"dgram,id={self.netdev_id},local.type=unix,"
                           f"local.path={a},remote.type=unix,"
                           f"remote.path={b}")
                break
        else:
            raise harness.HarnessError("no NIC netdev in the command line")
        pcap = self.report_dir / "wire.pcap"
        return argv + [
            "-netdev", f"dgram,id=r0,local.type=unix,local.path={b},"
                       f"remote.type=unix,remote.path={a}",
            "-device", f"{self.remote},id=remote0,netdev=r0,"
                       f"mac={REMOTE_MAC},romfile=",
            "-object", f"filter-dump,id=dump0,netdev=r0,file={pcap}",
        ]

    def start(self, peer_bin=None):
        """Boot; no peer (the remote NIC is the other end of the wire)."""
        (self.report_dir / "console.log").unlink(missing_ok=True)
        self.launch()
        self._check_running()
        self.agent = harness.Agent(self.agent_socket(),
                                   self.report_dir / "agent.log")
        self.agents = [self.agent]
        harness.wait_until(
            f"{harness.READY_MARKER} on the console",
            lambda: harness.READY_MARKER in self.console_text() or
            self._exited(), self.boot_timeout, interval=0.05,
            evidence=self.console_tail)
        self._check_running()
        self.t_ready = time.monotonic()
        self.agent.hello()
        return self


# Run in the guest once it is up: the remote NIC's modules, the
# namespace, the addresses, both links up. Prints "remote=<ifname>".
SETUP = r"""
set -e
while read -r m; do
    [ -n "$m" ] || continue
    n=$(basename "$m" .ko)
    grep -q "^$n " /proc/modules || insmod "$m"
done < /lib/modules/ksft.order
i=0
while :; do
    r=$(ls /sys/class/net | grep -v -e '^lo$' -e '^{netif}$' | head -n 1)
    [ -n "$r" ] && break
    i=$((i + 1)); [ $i -lt 100 ] || {{ echo "no remote NIC"; exit 1; }}
    sleep 0.1
done
export PATH={path}
mkdir -p /var/run/netns /run/netns
ip netns add {ns}
ip link set "$r" netns {ns}
ip -n {ns} link set lo up
ip -n {ns} addr add {rv4}/{plen} dev "$r"
ip -n {ns} link set "$r" up
ip link set {netif} up
ip addr add {lv4}/{plen} dev {netif}
if [ -n "{lv6}" ]; then
    ip -n {ns} -6 addr add {rv6}/{plen6} dev "$r" nodad
    ip -6 addr add {lv6}/{plen6} dev {netif} nodad
fi
echo "remote=$r"
"""

CONFIG = """# written by ./e1000e-pp kselftest
NETIF={netif}
LOCAL_V4={lv4}
REMOTE_V4={rv4}
REMOTE_TYPE=netns
REMOTE_ARGS={ns}
{v6}"""

# Directories whose tests read a net.config beside them.
CONFIG_DIRS = ("drivers/net", "drivers/net/hw")


def script(vm, text, timeout, check=True):
    """Run a multi-line shell script (the agent takes one line: the
    script travels base64-encoded)."""
    b64 = base64.b64encode(text.encode()).decode()
    return vm.agent.sh(f"echo {b64} | base64 -d | sh", timeout=timeout,
                       check=check)


def setup(vm, ipv6=False, link_timeout=60):
    """The two ends in the guest (IPv6 addresses too with ipv6); returns
    the remote's interface name."""
    _, out = script(vm, SETUP.format(
        netif=NETIF, path=PATH, ns=REMOTE_NS, lv4=LOCAL_V4, rv4=REMOTE_V4,
        plen=PREFIX, lv6=LOCAL_V6 if ipv6 else "", rv6=REMOTE_V6,
        plen6=PREFIX6), timeout=60)
    remote = out.strip().splitlines()[-1].partition("=")[2]
    config = CONFIG.format(
        netif=NETIF, lv4=LOCAL_V4, rv4=REMOTE_V4, ns=REMOTE_NS,
        v6=f"LOCAL_V6={LOCAL_V6}\nREMOTE_V6={REMOTE_V6}\n" if ipv6 else "")
    for d in CONFIG_DIRS:
        script(vm, f"cat > {SELFTESTS}/{d}/net.config <<'EOF'\n"
               f"{config}EOF\n", timeout=30)
    # Both carriers, then one ping each way: a wire that works before
    # the tests judge it.
    harness.wait_until(
        "carrier on both ends",
        lambda: vm.agent.sh(
            f"cat /sys/class/net/{NETIF}/carrier; PATH={PATH} ip netns exec "
            f"{REMOTE_NS} cat /sys/class/net/{remote}/carrier",
            check=False, timeout=30)[1].split() == ["1", "1"],
        link_timeout, interval=0.5)
    rc, out = vm.agent.sh(f"PATH={PATH} ping -c 1 -W 10 {REMOTE_V4}",
                          check=False, timeout=30)
    if rc != 0:
        raise harness.HarnessError(f"the wire does not carry a ping from "
                                   f"{NETIF} to the remote NIC:\n{out}")
    return remote


def run_test(vm, path, timeout, env=None):
    """Run one selftest (path under selftests/, e.g. drivers/net/ping.py)
    in its directory through the launcher, with env's variables; returns
    (exit status, output lines, seconds)."""
    d, _, name = path.rpartition("/")
    extra = " ".join(f"{k}={v}" for k, v in sorted((env or {}).items()))
    t0 = time.monotonic()
    rc, out = vm.agent.sh(
        f"cd {SELFTESTS}/{d} && PATH={PATH} HOME=/root {extra} "
        f"timeout -s KILL {int(timeout)} python3 /{image.LAUNCHER} "
        f"./{name}", timeout=timeout + 30, check=False)
    return rc, out.splitlines(), time.monotonic() - t0
