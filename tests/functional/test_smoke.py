# SPDX-License-Identifier: GPL-2.0-or-later
"""Smoke test: the unmodified e1000e driver probes the NIC cleanly, the link
comes up at 1000/Full, pattern frames cross both ways byte for byte, ARP,
ping and UDP echo work through the peer, and QMP set_link flips the carrier.

The tests of this module share one VM and run in file order: each step
leaves the guest where the next one expects it.
"""

import re
import time

import pytest

from e1000epp.vm.harness import (GUEST_MAC, PEER_IP, PEER_MAC, counters_at_one_instant,
                                 ethtool_settings, link_up, pp_frame, pp_frame_len,
                                 read_pcap, wait_until)

COUNT = 200
MIN_LEN, MAX_LEN = 60, 1514
# The driver's name as a word (the command line may mention e1000epp.*).
DRIVER = re.compile(r"\be1000e\b")
# Lines of dmesg about the NIC that must never appear.
BAD_WORDS = re.compile(r"error|fail|warn|timeout|hang|unexpected", re.I)
# Generous bounds for TCG on a loaded 2-core machine.
LINK_TIMEOUT = 60
TRAFFIC_TIMEOUT = 60


def expected_bytes(count=COUNT, lo=MIN_LEN, hi=MAX_LEN):
    return sum(pp_frame_len(seq, lo, hi) for seq in range(count))


def nic_dmesg_lines(vm, pci):
    _, out = vm.agent.sh("dmesg")
    return [line for line in out.splitlines()
            if DRIVER.search(line) or pci in line]


@pytest.fixture(scope="module")
def link(vm):
    """eth0 up with 198.18.0.2/24 and carrier; returns timings and the NIC's
    PCI address."""
    _, dev = vm.agent.sh("readlink /sys/class/net/eth0/device")
    pci = dev.strip().rsplit("/", 1)[-1]
    t_up = time.monotonic()
    link_up(vm, LINK_TIMEOUT)
    t_link = time.monotonic()
    info = {
        "pci": pci,
        "boot_to_ready": vm.t_ready - vm.t_start,
        "boot_to_link": t_link - vm.t_start,
        "up_to_link": t_link - t_up,
    }
    print(f"\n[smoke] {vm.device} at {pci}: QEMU start -> agent ready "
          f"{info['boot_to_ready']:.2f} s, -> carrier "
          f"{info['boot_to_link']:.2f} s (ip link up -> carrier "
          f"{info['up_to_link']:.2f} s)", flush=True)
    (vm.report_dir / "timings.txt").write_text(
        "".join(f"{k} {v}\n" for k, v in info.items()))
    return info


def assert_no_bad_lines(vm, pci):
    lines = nic_dmesg_lines(vm, pci)
    print("\n".join(["NIC dmesg lines:"] + lines))
    bad = [line for line in lines if BAD_WORDS.search(line)]
    assert bad == [], "dmesg lines about the NIC report problems:\n" + \
        "\n".join(bad)
    return lines


# Boot protocol (Documentation/arch/x86/boot.rst): a bzImage loader hands
# the kernel the image's own setup header ("HdrS" at 0x202, its protocol
# version at 0x206: 2.15 for 6.1); Linux's PVH entry builds boot_params
# itself, with no signature and version 2.12 (arch/x86/platform/pvh).
HDR_SIGNATURE, HDR_VERSION = 0x202, 0x206
PVH_VERSION = 0x020c


def test_guest_boots_through_the_pvh_entry(vm):
    # given: an image whose kernel has CONFIG_PVH (Debian's): image/guest_image.py
    # wrote its decompressed vmlinux and the harness boots that
    cmdline = (vm.report_dir / "qemu.cmdline").read_text().split()
    kernel = cmdline[cmdline.index("-kernel") + 1]
    assert kernel == str(vm.guest_dir / "vmlinux")
    # then: the kernel entered through PVH, not the bzImage decompressor
    _, out = vm.agent.sh(f"od -An -tx1 -j {HDR_SIGNATURE} -N 6 "
                         "/sys/kernel/boot_params/data")
    hdr = bytes(int(b, 16) for b in out.split())
    assert hdr[:4] != b"HdrS"
    assert int.from_bytes(hdr[4:6], "little") == PVH_VERSION


def test_probe_is_clean(vm, link):
    lines = assert_no_bad_lines(vm, link["pci"])
    joined = "\n".join(lines)
    assert f"e1000e {link['pci']} eth0: (PCI Express:2.5GT/s:Width x1) " \
           f"{GUEST_MAC}" in joined
    assert f"e1000e {link['pci']} eth0: Intel(R) PRO/1000 Network " \
           "Connection" in joined
    assert f"e1000e {link['pci']} eth0: MAC: 3, PHY: 8" in joined


def test_ethtool_reports_1000_full_with_link(vm, link):
    fields = ethtool_settings(vm.agent)
    assert fields["Speed"] == "1000Mb/s"
    assert fields["Duplex"] == "Full"
    assert fields["Link detected"] == "yes"


def test_guest_to_peer_pattern_frames_arrive_exact(vm, link):
    run = 0x1001
    peer = vm.peer
    guest_before, peer_before = counters_at_one_instant(vm)
    peer.command(f"RX {run} {COUNT} {GUEST_MAC}")

    sent = vm.agent.kv(f"TX eth0 {PEER_MAC} {run} {COUNT} {MIN_LEN} "
                       f"{MAX_LEN}")
    assert sent == {"sent": COUNT, "bytes": expected_bytes()}

    # The peer answers once its session has seen COUNT frames.
    after = peer.wait("rx", COUNT, timeout=TRAFFIC_TIMEOUT)
    assert after["rx"] == {"good": COUNT, "bad": 0, "trunc": 0,
                           "corrupt": 0, "fcs_bad": 0, "missing": 0,
                           "dup": 0, "reorder": 0, "stale": 0, "other": 0,
                           "bytes": expected_bytes()}
    assert after["fails"] == "-"

    # The guest's hardware counters agree with what the peer saw.
    guest_after, peer_after = counters_at_one_instant(vm)
    assert guest_after["tx_packets"] - guest_before["tx_packets"] == \
        peer_after["frames_in"] - peer_before["frames_in"]

    # Independent check of the bytes on the wire (Python, not proto.h).
    frames = [f for _, f in read_pcap(peer.pcap)
              if f[12:14] == b"\x88\xb5" and f[6:12] != bytes(6) and
              int.from_bytes(f[18:22], "big") == run and
              f[6:12] == bytes.fromhex(GUEST_MAC.replace(":", ""))]
    assert len(frames) == COUNT
    for seq, frame in enumerate(frames):
        want = pp_frame(PEER_MAC, GUEST_MAC, run, seq,
                        pp_frame_len(seq, MIN_LEN, MAX_LEN))
        assert frame == want, f"frame {seq} differs from the pattern"


def test_peer_to_guest_pattern_frames_arrive_exact(vm, link):
    run = 0x2002
    peer = vm.peer
    guest_before, peer_before = counters_at_one_instant(vm)
    vm.agent.kv(f"RXSTART eth0 {run} {COUNT} {PEER_MAC}")

    queued = peer.command(f"TX {GUEST_MAC} {run} {COUNT} {MIN_LEN} "
                          f"{MAX_LEN}")
    assert queued == {"ok": True, "queued": COUNT, "bytes": expected_bytes()}

    # The agent answers once its session has seen COUNT frames.
    vm.agent.kv(f"RXWAIT {TRAFFIC_TIMEOUT * 1000}",
                timeout=TRAFFIC_TIMEOUT + 30)
    got = vm.agent.kv("RXSTOP")
    assert got == {"good": COUNT, "bad": 0, "trunc": 0, "corrupt": 0,
                   "fcs_bad": 0, "missing": 0, "dup": 0, "reorder": 0,
                   "stale": 0, "other": 0, "bytes": expected_bytes(),
                   "fails": "-"}

    guest_after, peer_after = counters_at_one_instant(vm)
    assert peer_after["tx_pending_bytes"] == 0
    assert guest_after["rx_packets"] - guest_before["rx_packets"] == \
        peer_after["frames_out"] - peer_before["frames_out"]


def test_arp_ping_and_udp_echo_through_peer(vm, link):
    peer = vm.peer
    vm.agent.sh("ip neigh flush dev eth0")
    before = peer.stats()

    rc, out = vm.agent.sh(f"ping -c 3 -W 10 {PEER_IP}", timeout=60,
                          check=False)
    print(out)
    assert rc == 0
    assert "3 packets transmitted, 3 packets received, 0% packet loss" in out
    _, neigh = vm.agent.sh(f"ip neigh show {PEER_IP}")
    assert f"lladdr {PEER_MAC}" in neigh

    echo = vm.agent.kv(f"UDP {PEER_IP} 7 20 512 5000", timeout=120)
    assert echo == {"sent": 20, "echoed": 20, "bad": 0}

    after = peer.stats()
    delta = {k: after[k] - before[k] for k in
             ("arp_requests", "arp_replies", "icmp_echo_requests",
              "icmp_echo_replies", "udp_echo_requests", "udp_echo_replies")}
    assert delta == {"arp_requests": 1, "arp_replies": 1,
                     "icmp_echo_requests": 3, "icmp_echo_replies": 3,
                     "udp_echo_requests": 20, "udp_echo_replies": 20}


def test_set_link_off_on_flips_guest_carrier(vm, link):
    def link_detected():
        return ethtool_settings(vm.agent)["Link detected"]

    def evidence():
        _, carrier = vm.agent.sh("cat /sys/class/net/eth0/carrier",
                                 check=False)
        return (f"guest carrier={carrier.strip()}, ethtool "
                f"{ethtool_settings(vm.agent)}\nNIC dmesg tail:\n" +
                "\n".join(nic_dmesg_lines(vm, link["pci"])[-8:]))

    def set_link(up, want):
        """QMP set_link, then wait for ethtool to say `want`; seconds."""
        t0 = time.monotonic()
        vm.qmp.execute("set_link", name=vm.netdev_id, up=up)
        wait_until(f"ethtool: Link detected: {want} after QMP set_link "
                   f"up={str(up).lower()}", lambda: link_detected() == want,
                   LINK_TIMEOUT, interval=0.2, evidence=evidence)
        return time.monotonic() - t0

    t_down = set_link(False, "no")
    t_up = set_link(True, "yes")
    print(f"\n[smoke] set_link off -> no carrier {t_down:.2f} s, "
          f"on -> carrier {t_up:.2f} s", flush=True)

    fields = ethtool_settings(vm.agent)
    assert (fields["Speed"], fields["Duplex"]) == ("1000Mb/s", "Full")
    lines = nic_dmesg_lines(vm, link["pci"])
    assert any("NIC Link is Down" in line for line in lines)
    assert any("NIC Link is Up 1000 Mbps Full Duplex" in line
               for line in lines)


def test_dmesg_stays_clean_after_traffic(vm, link):
    assert_no_bad_lines(vm, link["pci"])
