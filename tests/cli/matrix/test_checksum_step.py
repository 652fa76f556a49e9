# SPDX-License-Identifier: GPL-2.0-or-later
"""The checksum step (matrix/traffic_checksum.py) without a VM: what
each layer must count for the peer's bad frames, the counters read from
the guest's tables, and which cells declare rx-csum-err.

Expected values are written out from Linux e1000e (e1000_rx_checksum,
e1000_configure_rx's RXCSUM setup), the kernel's receive paths and the
82574L datasheet (§7.1.6), not recomputed with the code under test."""

from e1000epp.matrix import cell_model, traffic, traffic_checksum
from e1000epp.matrix.guest_io import Checks

# The peer's answer for CSUMBAD with 2 bad frames a kind: good, bad,
# good, bad, good.
SENT = {"ip4hdr": [3, 2], "udp4": [3, 2], "tcp4": [3, 2], "udp6": [3, 2],
        "tcp6": [3, 2]}


def test_offload_on_every_bad_frame_found_by_the_device_and_driver():
    want = traffic_checksum.expected(SENT, rx_csum=True, ipv6=False)
    # IPOFL: 2 bad headers; TUOFL: 2 bad UDP/TCP checksums of 4 kinds.
    assert want["device"] == 10
    assert want["driver"] == 10
    # No IPv6 in the guest: its stack sees only the IPv4 frames.
    assert want["stack"] == {"Ip InHdrErrors": 2, "IpExt InCsumErrors": 2,
                             "Udp InCsumErrors": 2, "Tcp InCsumErrors": 2,
                             "Tcp OutRsts": 3}
    # The good datagrams: 3 under the good-header frames, 3 UDP.
    assert want["agent"] == {"got": 6, "good": 6, "bad": 0, "corrupt": 0,
                             "dup": 0}


def test_offload_off_only_the_ipv4_header_is_checked_none_counted():
    want = traffic_checksum.expected(SENT, rx_csum=False, ipv6=True)
    # The driver clears TUOFL, IPOFL stays as reset set it.
    assert want["device"] == 2
    # e1000_rx_checksum returns before reading the errors.
    assert want["driver"] == 0
    assert want["stack"] == {"Ip InHdrErrors": 2, "IpExt InCsumErrors": 2,
                             "Udp InCsumErrors": 2, "Tcp InCsumErrors": 4,
                             "Tcp OutRsts": 6, "Udp6 InCsumErrors": 2}
    assert want["agent"]["good"] == 9


SNAPSHOT = """\
Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors
Ip: 2 64 100 7 0
Tcp: RtoAlgorithm RtoMin MaxConn OutRsts InCsumErrors
Tcp: 1 200 -1 12 3
Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors InCsumErrors
Udp: 40 1 2 40 0 2
TcpExt: SyncookiesSent
TcpExt: 0
IpExt: InNoRoutes InCsumErrors
IpExt: 0 7
Udp6InDatagrams                 \t5
Udp6InCsumErrors                \t4
NIC statistics:
     rx_packets: 1234
     rx_csum_offload_errors: 10
"""


def test_the_guest_tables_read_into_counters():
    c = traffic_checksum.parse_snapshot(SNAPSHOT)
    assert [c[k] for k in traffic_checksum.STACK] == [7, 7, 2, 3, 12, 4]
    assert c["Tcp MaxConn"] == -1
    assert c["ethtool rx_csum_offload_errors"] == 10
    assert c["ethtool rx_packets"] == 1234


def test_a_driver_marking_bad_frames_good_fails_the_stack_and_agent():
    """What the step sees on a driver that sets CHECKSUM_UNNECESSARY on
    a frame with TCPE (the stack verifies nothing, the socket gets the
    bad datagrams): the checks fail naming the counters."""
    want = traffic_checksum.expected(SENT, rx_csum=True, ipv6=False)
    checks = Checks()
    checks.eq("driver", 0, want["driver"])
    checks.eq("stack", dict(want["stack"], **{"Udp InCsumErrors": 0,
                                              "Tcp InCsumErrors": 0,
                                              "Tcp OutRsts": 5}),
              want["stack"])
    checks.eq("agent", {"got": 8, "good": 6, "bad": 2, "corrupt": 0,
                        "dup": 0}, want["agent"])
    fails = checks.failures()
    assert fails[0] == "driver: got 0, want 10"
    assert fails[1] == ("stack: Udp InCsumErrors 0 (want 2), Tcp "
                        "InCsumErrors 0 (want 2), Tcp OutRsts 5 (want 3)")
    assert fails[2] == "agent: got 8 (want 6), bad 2 (want 0)"


def test_every_cell_declares_rx_csum_err_and_the_offload_off_family():
    for cell in cell_model.default_matrix() + cell_model.reduced_matrix():
        assert "rx-csum-err" in cell.situations(), cell.name
    names = [c.name for c in cell_model.default_matrix()]
    for name in ("mtu1500-strip-msix-noiommu-rxcsumoff",
                 "mtu9000-keep-msix-noiommu-rxcsumoff",
                 "mtu1500-strip-msix-noiommu-vlan-rxcsumoff"):
        assert name in names
    assert "mtu1500-strip-msix-noiommu-rxcsumoff" in [
        c.name for c in cell_model.reduced_matrix()]


class _Ctx:
    def __init__(self, udp_ok):
        self.cell = cell_model.Cell(1500)
        self.checks = Checks()
        self.checks.udp_ok = udp_ok
        self.tlog = print


def test_the_step_runs_last_and_only_after_ip_crossed(monkeypatch):
    for udp_ok, want in ((True, ["frames", "udp", "truesize", "tcp_tx",
                                 "tcp_rx", "checksums"]),
                         (False, ["frames", "udp"])):
        ran = []
        for name, label in (("traffic_frames", "frames"),
                            ("traffic_udp", "udp"),
                            ("traffic_truesize", "truesize"),
                            ("traffic_tcp_tx", "tcp_tx"),
                            ("traffic_tcp_rx", "tcp_rx"),
                            ("traffic_checksum", "checksums")):
            monkeypatch.setattr(traffic, name,
                                lambda ctx, lb=label: ran.append(lb))
        traffic.traffic(_Ctx(udp_ok))
        assert ran == want
