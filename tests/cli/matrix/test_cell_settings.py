# SPDX-License-Identifier: GPL-2.0-or-later
"""The configurations users run (matrix/cell_settings.py): e1000e's own
ranges for the ring (ethtool -G), moderation (ethtool -C, its module
parameters) and the MTU, the cells of the default matrix that carry
them, what each must produce, and what configure reads back. The
numbers are the driver's (drivers/net/ethernet/intel/e1000e: e1000.h,
param.c, ethtool.c, netdev.c) and the 82574L datasheet's, not the
code's."""

import pytest

from e1000epp.matrix import cell_model, cell_settings, guest_io
from e1000epp.matrix.cell_settings import Settings, SettingError

NEW = {
    "mtu1500-strip-msix-noiommu-ring64",
    "mtu9000-strip-msix-noiommu-ring128",
    "mtu1500-strip-msix-noiommu-ring64-burst",
    "mtu9000-strip-msix-noiommu-ring128-burst",
    "mtu1500-strip-msix-noiommu-itr0-rxabsdelay0-rxdelay0",
    "mtu9000-strip-msix-noiommu-usecs1000",
    "mtu1500-strip-msi-noiommu-itr100",
    "mtu1500-strip-msix-noiommu-nogro",
    "mtu9000-strip-msix-noiommu-notso",
    "mtu1500-strip-msix-noiommu-notx",
    "mtu1500-strip-msix-iommu-ring4096",
}
IP = ("rx-csum-ip", "rx-csum-tcp", "rx-csum-udp", "rx-csum-err")
MSIX = ("irq-throttled", "wb-threshold", "wb-timer")


def _cells():
    return {c.name: c for c in cell_model.default_matrix()}


def test_the_default_matrix_carries_the_ten_configurations():
    cells = _cells()
    assert NEW <= set(cells)
    assert len(cells) == 257     # with allocfail, holdtail and itr
    assert {c.name for c in cell_model.settings_cells()} == NEW


def test_what_each_configuration_cell_must_produce():
    cells = _cells()
    tx = ("tx-csum-ip", "tx-csum-l4", "tso")
    want = {
        "mtu1500-strip-msix-noiommu-ring64": IP + tx + MSIX,
        "mtu9000-strip-msix-noiommu-ring128": IP + tx + MSIX + ("hdr-split",),
        "mtu1500-strip-msix-noiommu-ring64-burst": IP + tx + ("rnbc", "mpc"),
        # No ITR window, and RDTR 0 writes every descriptor back at once.
        "mtu1500-strip-msix-noiommu-itr0-rxabsdelay0-rxdelay0": IP + tx,
        "mtu9000-strip-msix-noiommu-usecs1000":
            IP + tx + MSIX + ("hdr-split",),
        # 100 interrupts/s under MSI: held back, the cell's purpose.
        "mtu1500-strip-msi-noiommu-itr100": IP + tx + ("irq-throttled",),
        "mtu1500-strip-msix-noiommu-nogro": IP + tx + MSIX,
        # IXSM comes only with a TSO context (e1000_tso); TXSM stays.
        "mtu9000-strip-msix-noiommu-notso":
            IP + ("tx-csum-l4",) + MSIX + ("hdr-split",),
        "mtu1500-strip-msix-noiommu-notx": IP + MSIX,
    }
    for name, situations in want.items():
        assert cells[name].situations() == situations, name


def test_the_ring_range_is_the_drivers():
    # E1000_MIN_RXD/TXD 64, E1000_MAX_RXD/TXD 4096, multiples of 8.
    for n in (64, 72, 4096):
        cell_settings.check_ring("rx", n)
    for n, msg in ((63, "ring_rx = 63 is not 64..4096 (E1000_MIN/MAX_RXD)"),
                   (4097, "ring_rx = 4097 is not 64..4096 "
                    "(E1000_MIN/MAX_RXD)"),
                   (100, "ring_rx = 100 is not a multiple of 8 (the driver "
                    "would make it 104)")):
        with pytest.raises(SettingError) as e:
            cell_settings.check_ring("rx", n)
        assert str(e.value) == msg
    with pytest.raises(SettingError) as e:
        cell_settings.check_ring("tx", 8)
    assert str(e.value) == "ring_tx = 8 is not 64..4096 (E1000_MIN/MAX_TXD)"


def test_rx_usecs_is_what_e1000_set_coalesce_takes():
    for n in (0, 1, 3, 4, 10, 10000):
        cell_settings.check_usecs(n)
    for n in (2, 5, 9, 10001):
        with pytest.raises(SettingError) as e:
            cell_settings.check_usecs(n)
        assert str(e.value) == (f"rx_usecs = {n} is not 0, 1, 3, 4 or "
                                "10..10000")


def test_module_parameters_are_the_drivers_with_their_ranges():
    cell_settings.check_param("InterruptThrottleRate", 100)
    cell_settings.check_param("InterruptThrottleRate", 100000)
    cell_settings.check_param("RxAbsIntDelay", 65535)
    cell_settings.check_param("WriteProtectNVM", 0)
    cases = (
        ("InterruptThrottleRate", 2, "params: InterruptThrottleRate = 2 "
         "is not 0, 1, 3, 4 or 100..100000"),
        ("InterruptThrottleRate", 99, "params: InterruptThrottleRate = 99 "
         "is not 0, 1, 3, 4 or 100..100000"),
        ("InterruptThrottleRate", 100001, "params: InterruptThrottleRate = "
         "100001 is not 0, 1, 3, 4 or 100..100000"),
        ("RxIntDelay", 65536, "params: RxIntDelay = 65536 is not 0..65535"),
        ("TxIntDelay", -1, "params: TxIntDelay = -1 is not 0..65535"),
        ("SmartPowerDownEnable", 2,
         "params: SmartPowerDownEnable = 2 is not 0..1"),
        ("debug", 17, "params: debug = 17 is not 0..16"),
        ("IntMode", 1, 'params: IntMode is set by the cell\'s own key: '
         'irq = "msix" | "msi" | "intx"'),
        ("CrcStripping", 0, "params: CrcStripping is set by the cell's own "
         'key: crc = "keep"'),
        ("copybreak", 0, "params: copybreak is set by the cell's own key: "
         "copybreak = N"),
        ("RxDelay", 0, "params: 'RxDelay' is not a parameter of e1000e (one "
         "of TxIntDelay, TxAbsIntDelay, RxIntDelay, RxAbsIntDelay, "
         "InterruptThrottleRate, SmartPowerDownEnable, KumeranLockLoss, "
         "WriteProtectNVM, debug)"),
    )
    for name, value, msg in cases:
        with pytest.raises(SettingError) as e:
            cell_settings.check_param(name, value)
        assert str(e.value) == msg


def test_mtu_knob_and_length_ranges():
    cell_settings.check_mtu(104)
    cell_settings.check_mtu(9212)
    cell_settings.check_knob("x-rx-fetch-limit", 32)
    cell_settings.check_length(60, 68)
    cell_settings.check_length(82, 68)
    cases = (
        (cell_settings.check_mtu, (9213,), "mtu = 9213 is not 68..9212 (the "
         "82574's MTU range in e1000e)"),
        (cell_settings.check_mtu, (67,), "mtu = 67 is not 68..9212 (the "
         "82574's MTU range in e1000e)"),
        # The peer's TCP sink and source refuse an MSS under 64
        # (tools/peer/tcpsink.c, tcpsrc.c): MTU 64 + 40 at least.
        (cell_settings.check_mtu, (103,), "mtu = 103 is below 104: a "
         "cell's TCP streams need an MSS of 64 or more (the peer's)"),
        (cell_settings.check_knob, ("x-rx-fetch-limit", 33),
         "knobs: x-rx-fetch-limit = 33 is not 0..32"),
        (cell_settings.check_knob, ("x-tx-hold", 1), "knobs: x-tx-hold is an "
         'event, not a configuration: family = "txhang" turns it'),
        (cell_settings.check_knob, ("x-wake-event", 1), "knobs: x-wake-event "
         "is an event, not a configuration"),
        (cell_settings.check_knob, ("x-fetch", 1), "knobs: 'x-fetch' is not "
         "a knob of e1000e-pp (one of x-rx-fetch-limit, x-reset-delay-ns)"),
        (cell_settings.check_length, (59, 1500), "lengths: 59 is not "
         "60..1514 (a frame of MTU 1500 without its FCS)"),
        (cell_settings.check_length, (83, 68), "lengths: 83 is not 60..82 "
         "(a frame of MTU 68 without its FCS)"),
    )
    for check, args, msg in cases:
        with pytest.raises(SettingError) as e:
            check(*args)
        assert str(e.value) == msg


def test_itr_as_the_driver_computes_it():
    # e1000_set_coalesce: itr = 1000000 / usecs, itr_setting = itr & ~3;
    # e1000_get_coalesce answers 1000000 / itr_setting.
    assert cell_settings.itr_setting(1000) == 1000
    assert cell_settings.itr_setting(300) == 3332
    assert cell_settings.usecs_read(3332) == 300
    assert cell_settings.itr_setting(3) == 3
    # InterruptThrottleRate: 2 is "Invalid mode - setting default" (3).
    assert cell_settings.param_itr_setting(2) == 3
    assert cell_settings.param_itr_setting(4001) == 4000


def test_what_configure_reads_back_for_the_default_cells():
    cells = _cells()
    want = {
        # Packet split at MTU 9000: 32-byte Rx descriptors; Tx 16.
        ("mtu9000-strip-msix-noiommu-ring128", "packet-split"): {
            "ethtool -g RX": 128, "RDLEN": 4096, "ethtool -g TX": 128,
            "TDLEN": 2048},
        # The series' 2 KB buffers: 16-byte extended descriptors.
        ("mtu9000-strip-msix-noiommu-ring128", "extended"): {
            "ethtool -g RX": 128, "RDLEN": 2048, "ethtool -g TX": 128,
            "TDLEN": 2048},
        ("mtu1500-strip-msix-noiommu-ring64", "extended"): {
            "ethtool -g RX": 64, "RDLEN": 1024, "ethtool -g TX": 64,
            "TDLEN": 1024},
        # 10^9 / (1000 ints/s x 256 ns) = 3906 in EITR (vector 0: Rx).
        ("mtu9000-strip-msix-noiommu-usecs1000", "packet-split"): {
            "ethtool -c rx-usecs": 1000, "EITR0": 3906},
        # ITR off under MSI-X: e1000_configure_msix writes 1.
        ("mtu1500-strip-msix-noiommu-itr0-rxabsdelay0-rxdelay0",
         "extended"): {"ethtool -c rx-usecs": 0, "EITR0": 1, "RDTR": 0,
                       "RADV": 0},
        ("mtu1500-strip-msi-noiommu-itr100", "extended"): {
            "ethtool -c rx-usecs": 10000, "ITR": 39062},
    }
    offloads = {"ethtool -k tx-checksumming": "on",
                "ethtool -k tcp-segmentation-offload": "on",
                "ethtool -k generic-receive-offload": "on",
                "ethtool -k rx-checksumming": "on"}
    for (name, fmt), regs in want.items():
        assert guest_io.expected_readback(cells[name], fmt) == \
            dict(regs, **offloads), name
    got = guest_io.expected_readback(
        cells["mtu1500-strip-msix-noiommu-notx"], "extended")
    # TSO needs Tx checksums: ethtool turns it off with them.
    assert got == dict(offloads, **{
        "ethtool -k tx-checksumming": "off",
        "ethtool -k tcp-segmentation-offload": "off"})


def test_ethtool_answers_are_read():
    g = guest_io.parse_ethtool(
        "Ring parameters for eth0:\nPre-set maximums:\nRX:\t\t4096\n"
        "TX:\t\t4096\nCurrent hardware settings:\nRX:\t\t64\nTX:\t\t128\n")
    assert (g["RX"], g["TX"]) == (64, 128)
    k = guest_io.parse_ethtool(
        "Features for eth0:\nrx-checksumming: on\ntx-checksumming: off\n"
        "\ttx-checksum-ipv4: off\ntcp-segmentation-offload: off\n"
        "generic-receive-offload: on\nrx-fcs: off [fixed]\n")
    assert k["tx-checksumming"] == "off" and k["rx-fcs"] == "off"
    assert guest_io.parse_ethtool("Coalesce parameters for eth0:\n"
                                  "rx-usecs: 1000\n")["rx-usecs"] == 1000


def test_settings_reload_the_driver_and_sort_together():
    s = Settings(ring_rx=64, rx_usecs=0)
    cell = cell_model.Cell(3000, settings=s)
    assert cell.name == "mtu3000-strip-msix-noiommu-ring64-usecs0"
    assert cell.load_key() == ("IntMode=2", "ring_rx=64", "rx_usecs=0")
    plain = cell_model.Cell(1500)
    assert plain.load_key() == ("IntMode=2",)
    assert not plain.settings
    order = [c.name for _, g in cell_model.plan([cell, plain,
                                                 cell_model.Cell(9000)])
             for c in g]
    assert order == ["mtu1500-strip-msix-noiommu",
                     "mtu9000-strip-msix-noiommu",
                     "mtu3000-strip-msix-noiommu-ring64-usecs0"]
