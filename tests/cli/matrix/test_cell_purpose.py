# SPDX-License-Identifier: GPL-2.0-or-later
"""What each matrix cell exists to produce, without a VM: the declared
situations and the reason a cell fails without one, `--require-coverage
all`, the situations Linux's e1000e cannot produce, the FCS placements
from a programmed buffer layout, and the counters an error cell moves.

Expected values are written out from the 82574L datasheet's buffer
rules and Linux e1000e's counter definitions, not recomputed with the
code under test."""


from e1000epp.matrix import (buffer_layout, cell_model, diagnosis, execute,
                             guest_io, traffic, traffic_context,
                             traffic_cost, traffic_frames, traffic_power,
                             traffic_streams)


# What the Linux driver programmed, read from the device in a VM run:
# MTU 2027 with CrcStripping=0 (packet split, LPE, SECRC clear) and
# MTU 1500 (2048-byte extended descriptors, SECRC set).
PS_KEEP = {"RCTL": 0x02038422, "PSRCTL": 0x00000401, "RFCTL": 0x00008000}
LEGACY_STRIP = {"RCTL": 0x04008002, "PSRCTL": 0, "RFCTL": 0x00008000}


def test_a_cell_without_its_situation_fails_naming_it():
    checks = execute.Checks()
    checks.produced("err-crc", 0)
    checks.produced("tso", 12)
    assert checks.failures() == ["did not produce err-crc"]


def test_every_reachable_situation_has_a_producer_in_the_default_matrix():
    by = cell_model.producers(cell_model.default_matrix())
    assert set(by) == set(diagnosis.SITUATIONS)
    assert sorted(diagnosis.UNREACHABLE) == ["null-desc"]
    for name, cells in by.items():
        if name in diagnosis.UNREACHABLE:
            assert cells == [], name
        else:
            assert cells, f"no cell of the default matrix declares {name}"
    assert by["err-oversize"] == ["mtu1500-strip-msix-noiommu-errlong"]
    assert by["xoff-sent"] == ["mtu1500-strip-msix-noiommu-burstfc",
                               "mtu9000-strip-msix-noiommu-burstfc"]
    assert by["dma-fault"] == ["mtu1500-strip-msix-iommu-dmafault",
                               "mtu9000-strip-msix-iommu-dmafault",
                               "mtu1500-keep-msix-iommu-dmafault",
                               "mtu9000-keep-msix-iommu-dmafault"]


def test_the_reduced_matrix_declares_twenty_two_situations():
    declared = set()
    for c in cell_model.reduced_matrix():
        declared |= set(c.situations())
    assert len(declared) == 22
    assert declared == set(diagnosis.SITUATIONS) - {
        "err-symbol", "err-data", "err-oversize", "null-desc"}


def test_require_coverage_all_is_every_reachable_situation():
    names = diagnosis.parse_required("all")
    assert len(names) == 25
    assert "null-desc" not in names and "dma-fault" in names
    assert diagnosis.parse_required("tso,all")[0] == "tso"
    assert len(diagnosis.parse_required("tso,all")) == 25


def test_layout_read_through_the_monitor():
    info = ('  Bus  0, device   1, function 0:\n'
            '    Ethernet controller: PCI device 8086:10d3\n'
            '      BAR0: 32 bit memory at 0xfeba0000 [0xfebbffff]\n'
            '      id "nic0"\n')
    seen = []

    def hmp(cmd):
        seen.append(cmd)
        if cmd == "info pci":
            return info
        return "00000000feba0100: 0x02038422\r\n"
    regs = buffer_layout.read_registers(hmp, "nic0")
    assert seen[1:] == ["xp /1wx 0xfeba0100", "xp /1wx 0xfeba2170",
                        "xp /1wx 0xfeba5008"]
    assert regs["RCTL"] == 0x02038422


def test_packet_split_layout_places_the_fcs_at_buffer_0s_end():
    # PSRCTL.BSIZE0 1 x 128 bytes, BSIZE1 4 KB: a pattern frame (not IP,
    # no header split) fills buffer 0 then buffer 1 (82574L 7.1.5).
    lay = buffer_layout.decode(PS_KEEP)
    assert (lay["format"], lay["first"], lay["next"]) == \
        ("packet-split", [128, 4096, 0, 0], [0, 4096, 0, 0])
    assert not lay["secrc"] and lay["lpe"]
    # 3|1, 2|2, 1|3 FCS bytes across 128, and the FCS alone after it.
    assert buffer_layout.fcs_lengths(lay, 2027 + 14) == [125, 126, 127,
                                                         128]
    assert buffer_layout.placement(lay, 126) == "straddle"
    assert buffer_layout.placement(lay, 128) == "alone"
    assert buffer_layout.placement(lay, 127) == "straddle"
    assert buffer_layout.placement(lay, 125) == "straddle"
    assert buffer_layout.placement(lay, 124) is None     # ends with buffer 0
    assert buffer_layout.placement(lay, 2040) is None


def test_jumbo_packet_split_layout_reaches_three_boundaries():
    lay = buffer_layout.decode(dict(PS_KEEP, PSRCTL=0x04040401))
    assert lay["first"] == [128, 4096, 4096, 4096]
    # buffer ends at 128, 128 + 4096 = 4224 and 8320
    assert buffer_layout.fcs_lengths(lay, 9000 + 14) == \
        [125, 126, 127, 128, 4221, 4222, 4223, 4224,
         8317, 8318, 8319, 8320]


def test_legacy_2k_layout_as_coverage_md_describes_it():
    lay = buffer_layout.decode(dict(LEGACY_STRIP, RCTL=0x00008002))
    assert (lay["first"], lay["secrc"]) == ([2048], False)
    assert buffer_layout.placement(lay, 2046) == "straddle"
    assert buffer_layout.placement(lay, 2048) == "alone"
    assert buffer_layout.placement(lay, 2044) is None
    # At MTU 1500 no frame reaches the first boundary.
    assert buffer_layout.fcs_lengths(lay, 1514) == []


def test_stripped_fcs_has_no_placement():
    lay = buffer_layout.decode(LEGACY_STRIP)
    assert lay["secrc"] and buffer_layout.fcs_lengths(lay, 9014) == []
    assert buffer_layout.placement(lay, 2046) is None


def test_bsize_encodings_and_reserved_ones():
    sizes = {}
    for bsex in (0, 1):
        for bsize in range(4):
            rctl = (bsex << 25) | (bsize << 16)
            try:
                sizes[(bsex, bsize)] = buffer_layout.decode(
                    dict(LEGACY_STRIP, RCTL=rctl))["first"][0]
            except buffer_layout.LayoutError:
                sizes[(bsex, bsize)] = None
    assert sizes == {(0, 0): 2048, (0, 1): 1024, (0, 2): 512, (0, 3): 256,
                     (1, 0): None, (1, 1): 16384, (1, 2): 8192,
                     (1, 3): 4096}


def test_a_layout_without_packet_split_excuses_hdr_split():
    cell = cell_model.Cell(2027, "keep")
    lay = buffer_layout.decode(dict(LEGACY_STRIP, RCTL=0x02030020))  # 4 KB
    lay["fcs_lengths"] = buffer_layout.fcs_lengths(lay, 2041)
    need, moot = execute.layout_declared(cell, lay)
    assert "hdr-split" in moot and "hdr-split" not in need
    # no 4 KB boundary inside a 2041-byte frame either
    assert set(moot) == {"hdr-split", "fcs-straddle", "fcs-alone"}
    lay = buffer_layout.decode(PS_KEEP)
    lay["fcs_lengths"] = buffer_layout.fcs_lengths(lay, 2041)
    need, moot = execute.layout_declared(cell, lay)
    assert moot == {} and {"hdr-split", "fcs-straddle",
                           "fcs-alone"} <= set(need)


def test_error_cells_expect_the_drivers_counters():
    # Linux e1000e: rx_errors = RXERRC + CRCERRS + ALGNERRC + RUC + ROC +
    # CEXTERR, rx_length_errors = RUC + ROC, rx_crc_errors = CRCERRS,
    # rx_long_length_errors = ROC; SYMERRS is not read.
    want = {
        "errcrc": {"rx_crc_errors": 1, "rx_errors": 1},
        "errcrc-rxall": {"rx_crc_errors": 1, "rx_errors": 1},
        "errsym": {},
        "errdata": {"rx_errors": 1},
        "errlong": {"rx_errors": 1, "rx_length_errors": 1,
                    "rx_long_length_errors": 1},
    }
    assert {k: f.stats for k, f in cell_model.FAMILIES.items()
            if f.knob and f.knob.startswith("error-")} == want
    cell = cell_model.Cell(1500, family="errlong")
    assert execute.expected_drops(cell, None)["rx-oversize"] == 3
    assert execute.expected_drops(
        cell_model.Cell(1500, family="errcrc-rxall"), None)["rx-errored"] == 0


def test_frames_held_without_a_ring_are_expected_drops():
    # The allocfail step counts the frames it offered with no Rx buffer
    # posted (the page pool's creation failed): flushed at the down.
    want = execute.expected_drops(
        cell_model.Cell(1500, family="allocfail"), None,
        {"rx-flushed": 8, "rx-missed": 0})
    assert want == {"rx-missed": 0, "rx-not-ready": 0, "rx-flushed": 8,
                    "rx-oversize": 0, "rx-undersize": 0, "rx-errored": 0}


def test_an_injected_fault_reads_as_one():
    f = {"ns": 1, "frame": 8, "what": "rx-data", "desc": 0,
         "addr": 0xffffb840, "offset": 0, "len": 60, "dir": "write"}
    d = diagnosis.diagnose([f], 7, [], [], iommu=True, injected=True)[0]
    assert d["why"].startswith("rejected on demand by the device "
                               "(x-dma-fault-writes)")
    # Not injected, the same record reads as before.
    d = diagnosis.diagnose([f], 7, [], [], iommu=True)[0]
    assert d["why"].startswith("refused with no IOMMU fault")


def test_knob_names_live_in_one_map():
    for mod in (execute, guest_io, traffic, traffic_context, traffic_cost,
                traffic_frames, traffic_power, traffic_streams):
        src = open(mod.__file__).read()
        for knob in cell_model.KNOBS.values():
            assert f'"{knob}"' not in src, (mod.__name__, knob)


def test_dmesg_scan_tells_a_wake_cause_from_a_hang():
    # "Change" holds "hang": the word, not the letters, fails a cell.
    bad = guest_io.DMESG_BAD.search
    assert not bad("e1000e 0000:00:01.0 eth0: MAC Wakeup cause - Link "
                   "Status Change")
    assert bad("e1000e 0000:00:01.0 eth0: Detected Tx Unit hang")
    assert bad("e1000e 0000:00:01.0 eth0: Detected Hardware Unit Hang:")


def test_dmesg_scan_fails_on_the_drivers_own_failure_reports():
    bad = guest_io.DMESG_BAD.search
    # the page-pool series (0007's e1000_configure) and e1000e's e_err
    assert bad("e1000e 0000:00:02.0 eth0: Unable to create the Rx page "
               "pool: 1")
    assert bad("e1000e 0000:00:02.0 eth0: Unable to allocate memory for "
               "the receive descriptor ring")
    # a manageability warning of e1000_init_manageability_pt is not one
    assert not bad("e1000e 0000:00:02.0 eth0: Unable to create IPMI "
                   "pass-through filter")


def test_the_race_matrix_boots_apart_with_full_preemption():
    cells = cell_model.MATRICES["race"]()
    assert [c.name for c in cells] == [
        "mtu1500-strip-msix-noiommu-resetpm",
        "mtu1500-strip-msix-iommu-resetpm"]
    # Not in the default matrix: Linux's own e1000e fails it.
    assert not {c.name for c in cells} & \
        {c.name for c in cell_model.default_matrix()}
    plan = cell_model.plan(cells)
    assert [k for k, _ in plan] == ["noiommu+preempt", "iommu+preempt"]
    assert guest_io.boot_args("noiommu+preempt") == ([], "preempt=full")
    assert guest_io.boot_args("iommu+preempt") == (
        ["-device", "intel-iommu,intremap=off"],
        "intel_iommu=on iommu.strict=1 preempt=full")
    # The other boots keep their command lines.
    assert guest_io.boot_args("bounce") == ([], "swiotlb=force")
    assert guest_io.boot_args("noiommu") == ([], "")


def test_the_race_cell_outlasts_the_suspends_wait():
    # Linux e1000e: the runtime suspend is scheduled LINK_TIMEOUT (100 ms)
    # after the link loss and waits E1000_CHECK_RESET_COUNT (25) x 10 ms
    # for the reset; the widened CTRL.RST window must outlast both.
    assert cell_model.RACE_RESET_NS > (100 + 25 * 10) * 1000 * 1000
    # ...and stay inside the knob's accepted range (at most 1 s).
    assert cell_model.RACE_RESET_NS <= 1000 * 1000 * 1000
    # The cable stays out past a correct driver's own suspend, 5 s after
    # its reset (e1000e_pm_runtime_idle).
    assert cell_model.RACE_LINK_DROP_MS > 5000
    assert cell_model.KNOBS["reset-delay"] == "x-reset-delay-ns"


def test_the_tx_hang_events_read_with_and_without_the_replay_stamp():
    # the device's event lines; under record/replay each ends with the
    # instruction count (hw/net/e1000e_pp/core/log.c)
    plain = ["100 knob-tx-hold reg=0x03818 value=0x00000001",
             "200 ctrl-rst reg=0x00000 value=0x0410024c",
             "201 ctrl-rst reg=0x00000 value=0x0410024c",
             "300 knob-tx-hold reg=0x03818 value=0x00000000"]
    stamped = [f"{ln} icount={n}" for n, ln in enumerate(plain, 7)]
    want = ["knob-tx-hold 1", "ctrl-rst", "knob-tx-hold 0"]
    assert execute.hang_events(plain) == want
    assert execute.hang_events(stamped) == want
