# SPDX-License-Identifier: GPL-2.0-or-later
"""The length sweep of matrix cells, without a VM: the exact lengths
named cells send each way, written out by hand from the 82574L
datasheet's buffer rules (RCTL.BSIZE, PSRCTL, SECRC: the FCS is 4 bytes
stored after the frame) and Linux e1000e (copybreak 256 and `length <
copybreak` in e1000_clean_rx_irq; max_frame_size = MTU + 18 + 4;
e1000_clean_rx_irq_ps dropping a frame its first descriptor does not
end; DEFAULT_JUMBO 9234), and the seed that reruns a cell's spread."""

import json

import pytest

from e1000epp.matrix import (buffer_layout, cell_model, length_sweep,
                             traffic_frames)

# Registers Linux programmed, read from the device in VM runs (layout.json
# of the reduced matrix and of the page-pool series' run).
# Debian's driver, MTU 9000/9212, CrcStripping=0: packet split, buffer 0
# 128 bytes, buffers 1-3 4 KB, LPE, SECRC clear.
PS_JUMBO_KEEP = {"RCTL": 0x02038422, "PSRCTL": 0x04040401,
                 "RFCTL": 0x00009000}
# Debian's driver, MTU 2027 (one 4 KB page), FCS kept / stripped.
PS_KEEP = {"RCTL": 0x02038422, "PSRCTL": 0x00000401, "RFCTL": 0x00009000}
PS_STRIP = {"RCTL": 0x06038422, "PSRCTL": 0x00000401, "RFCTL": 0x00009000}
# Debian's driver, MTU 1500: 2048-byte extended descriptors, LPE clear,
# SECRC set.
EXT_1500 = {"RCTL": 0x04008002, "PSRCTL": 0x00040402, "RFCTL": 0x00009000}
# The page-pool series, MTU 9212 CrcStripping=0: 2048-byte extended
# descriptors chained, LPE, SECRC clear.
SERIES_KEEP = {"RCTL": 0x00008022, "PSRCTL": 0x00040402,
               "RFCTL": 0x00009000}


# length_sweep.spread(12345, 1514) as Python's Mersenne Twister draws it
# (random.Random(12345).randint per slice), recorded once.
PINNED = [166, 243, 499, 699, 836, 1038, 1295, 1444]


def lay(regs):
    return buffer_layout.decode(regs)


def fixed(cell, regs, **kw):
    """The sweep without its seeded spread."""
    return length_sweep.sweep(cell, lay(regs) if regs else None, 1, k=0,
                              **kw)


def test_fcs_splits_at_every_2k_boundary_of_the_series_at_mtu_9000():
    # 2048-byte buffers, FCS kept, MTU 9000 (frames up to 9014 + 4):
    # boundaries 2048, 4096, 6144, 8192. At each B: B-4 ends with its FCS
    # at B, B-3/B-2/B-1 put 3|1, 2|2, 1|3 FCS bytes across B, B leaves the
    # FCS alone after it, B+1 puts a data byte past B.
    sw = fixed(cell_model.Cell(9000, "keep"), SERIES_KEEP)
    assert sw["tx"] == [
        60, 255, 256, 257, 1514,
        2044, 2045, 2046, 2047, 2048, 2049,
        4092, 4093, 4094, 4095, 4096, 4097,
        6140, 6141, 6142, 6143, 6144, 6145,
        8188, 8189, 8190, 8191, 8192, 8193,
        9013, 9014]
    # Over the MTU: 9015; max_frame_size 9022 with the FCS: 9018 is the
    # longest the series takes, 9019 the shortest it drops; 9230 + 4 =
    # DEFAULT_JUMBO, the longest the device takes.
    assert sw["dropped"] == [9019, 9230]
    assert sorted(set(sw["rx"]) - set(sw["tx"])) == [9015, 9018, 9019, 9230]
    assert sw["why"]["2045"] == ["FCS 3|1 across 2048"]
    assert sw["why"]["2047"] == ["FCS 1|3 across 2048"]
    assert sw["why"]["2048"][-1] == "FCS alone after 2048"


def test_stock_packet_split_at_mtu_9000_takes_every_frame_the_device_does():
    # 128 + 3 x 4096 = 12416 bytes in the first descriptor: every frame
    # up to 9230 (+4) ends there, so e1000_clean_rx_irq_ps drops none.
    sw = fixed(cell_model.Cell(9000, "keep"), PS_JUMBO_KEEP)
    assert sw["tx"] == [
        60, 124, 125, 126, 127, 128, 129, 255, 256, 257, 1514,
        2046, 2048, 4094, 4096,
        4220, 4221, 4222, 4223, 4224, 4225,
        6142, 6144, 8190, 8192,
        8316, 8317, 8318, 8319, 8320, 8321,
        9013, 9014]
    assert sw["dropped"] == []
    assert sorted(set(sw["rx"]) - set(sw["tx"])) == [9015, 9230]


def test_mtu_2027_keep_order_drops_and_what_the_agent_must_count():
    # Boundary 128 only (2041 + 4 < 4224). One page: the first
    # descriptor holds 128 + 4096 = 4224 bytes, so 4220 (+4) is the
    # longest frame Debian's driver takes, 4221 the shortest it drops.
    # The over-long ones sit in the middle, each followed by one that
    # must arrive intact.
    sw = fixed(cell_model.Cell(2027, "keep"), PS_KEEP)
    assert sw["tx"] == [60, 124, 125, 126, 127, 128, 129, 255, 256, 257,
                        1514, 2040, 2041]
    assert sw["rx"] == [60, 124, 125, 126, 127, 128, 2042, 129, 4220, 255,
                        4221, 256, 9230, 257, 1514, 2040, 2041]
    assert sw["dropped"] == [4221, 9230]
    # 17 lengths x 3: the 4221 and 9230 frames are seqs 10, 12, 27, 29,
    # 44, 46.
    assert length_sweep.missing_seqs(sw["rx"], 3, sw["dropped"]) == \
        [10, 12, 27, 29, 44, 46]
    # An error cell's 3 marked frames (seqs 0-2) are missing too.
    assert length_sweep.missing_seqs(sw["rx"], 3, sw["dropped"], 3) == \
        [0, 1, 2, 10, 12, 27, 29, 44, 46]


def test_plan_frames_counts_the_frames_the_agent_must_see():
    cell = cell_model.Cell(2027, "keep")
    plan = traffic_frames.plan_frames(cell, lay(PS_KEEP), 1)
    n = len(plan["rx"])
    assert plan["want"]["good"] == 3 * n - 6
    assert plan["want"]["missing"] == 6
    dropped = 3 * (4221 + 9230)
    assert plan["want"]["bytes"] == 3 * sum(plan["rx"]) - dropped
    assert plan["marked_lost"] == 0 and plan["repeat"] == 3


def test_what_the_driver_copies_and_drops_for_the_other_counts():
    # MTU 1500, copybreak 256: of 60, 255, 256, 257, 1513, 1514 the
    # driver copies 60 and 255 (length < 256), 3 of each.
    assert length_sweep.below_copybreak(
        cell_model.Cell(1500), [60, 255, 256, 257, 1513, 1514]) == 2
    # rx-fcs: 251 + 4 = 255 < 256, 252 + 4 is not.
    assert length_sweep.below_copybreak(
        cell_model.Cell(1500, "rxfcs"), [60, 251, 252, 253, 1514]) == 2
    cell = cell_model.Cell(1500, copybreak=1024)
    assert length_sweep.below_copybreak(cell, [1022, 1023, 1024]) == 2
    plan = traffic_frames.plan_frames(cell_model.Cell(2027, "keep"),
                                      lay(PS_KEEP), 1)
    assert plan["driver_drops"] == 6
    # The error family's 3 marked frames are the device's drops.
    plan = traffic_frames.plan_frames(cell_model.Cell(2027, "keep"),
                                      lay(PS_KEEP), 1, marked=3)
    assert (plan["driver_drops"], plan["want"]["missing"]) == (6, 9)


def test_each_round_misses_the_same_frames():
    # Peer -> guest in 3 rounds of the sweep's lengths: every round
    # misses its 4221 and 9230 frames (the driver drops them); the error
    # family's 3 marked frames are the first round's first three.
    plan = traffic_frames.plan_frames(cell_model.Cell(2027, "keep"),
                                      lay(PS_KEEP), 1, marked=3)
    rx, rounds = plan["rx"], plan["rounds"]
    assert len(rounds) == 3
    assert rounds[0]["missing"][:3] == [0, 1, 2]
    assert [[rx[k] for k in r["missing"] if k > 2] for r in rounds] == \
        [[4221, 9230]] * 3
    n = len(rx)
    assert [r["want"]["good"] for r in rounds] == [n - 5, n - 2, n - 2]
    assert plan["want"]["missing"] == 9 and plan["driver_drops"] == 6


def test_series_below_2k_sends_no_over_long_frame_of_two_buffers():
    # The page-pool series at MTU 2027, FCS kept: 2048-byte buffers hold
    # every frame of the MTU (2041 + 4); 2042 + 4 = 2046 still fits one,
    # 2045 + 4 = 2049 (max_frame_size) would take two, which the cell's
    # buffers = frames count rules out.
    regs = dict(SERIES_KEEP)
    sw = fixed(cell_model.Cell(2027, "keep"), regs)
    assert sorted(set(sw["rx"]) - set(sw["tx"])) == [2042]
    assert sw["dropped"] == []


def test_stripped_fcs_classes_at_mtu_2027():
    # SECRC set: a frame of 128 fills buffer 0, 129 reaches buffer 1; no
    # FCS placement. Without the FCS in the buffers 4224 is the longest
    # frame the first descriptor holds.
    sw = fixed(cell_model.Cell(2027, "strip"), PS_STRIP)
    assert sw["tx"] == [60, 128, 129, 255, 256, 257, 1514, 2040, 2041]
    assert sw["dropped"] == [4225, 9230]
    assert sorted(set(sw["rx"]) - set(sw["tx"])) == [2042, 4224, 4225, 9230]


def test_mtu_1500_lpe_clear_sends_nothing_over_the_mtu():
    # LPE clear: the device itself drops frames over 1518 bytes.
    sw = fixed(cell_model.Cell(1500), EXT_1500)
    assert sw["rx"] == sw["tx"] == [60, 255, 256, 257, 1513, 1514]
    assert sw["dropped"] == []


def test_copybreak_thresholds_as_the_driver_compares_them():
    # Debian's default 256: 255 copied, 256 and 257 not.
    assert [n for n in cell_model.Cell(1500).frame_lengths()
            if 200 < n < 300] == [255, 256, 257]
    # rx-fcs: the driver's length holds the FCS, so 251 + 4 = 255.
    assert [n for n in cell_model.Cell(1500, "rxfcs").frame_lengths()
            if 200 < n < 300] == [251, 252, 253]
    # The copybreak cells at MTU 4096 (packet split): 1023, 1024, 1025
    # byte-checked whatever the path copies.
    cell = cell_model.Cell(4096, copybreak=1024)
    assert cell.name == "mtu4096-strip-msix-noiommu-cb1024"
    assert cell.frame_lengths() == [60, 1023, 1024, 1025, 1514, 2046,
                                    2048, 4094, 4096, 4109, 4110]
    assert cell.frame_lengths(why=True)[1023] == "copybreak 1024-1: copied"
    # copybreak 0 copies nothing: no threshold a frame can sit at.
    assert cell_model.Cell(1500, copybreak=0).frame_lengths() == \
        [60, 1513, 1514]


def test_vlan_cell_names_its_largest_tagged_frame():
    why = cell_model.Cell(1500, vlan=True).frame_lengths(why=True)
    assert "max_frame_size (MTU + 22)" in why[1514]


def test_the_seed_reproduces_and_spreads_over_the_range():
    cell = cell_model.Cell(9000, "keep")
    a = length_sweep.sweep(cell, lay(SERIES_KEEP), 5)
    b = length_sweep.sweep(cell, lay(SERIES_KEEP), 5)
    c = length_sweep.sweep(cell, lay(SERIES_KEEP), 6)
    assert a == b and a["rx"] != c["rx"]
    assert a["seed"] == 5 and a["cell_seed"] == \
        length_sweep.cell_seed(5, "mtu9000-keep-msix-noiommu")
    # Another cell, same run seed: another spread.
    assert length_sweep.cell_seed(5, "mtu9000-keep-msix-noiommu") != \
        length_sweep.cell_seed(5, "mtu9000-keep-msix-iommu")
    # One length in each eighth of the 8955 lengths 60..9014 (1119.375
    # each, rounded down): 60-1178, 1179-2297, ... 7895-9014.
    edges = [60, 1179, 2298, 3418, 4537, 5656, 6776, 7895, 9015]
    spread = length_sweep.spread(a["cell_seed"], 9014)
    assert len(spread) == 8
    for i, n in enumerate(spread):
        assert edges[i] <= n < edges[i + 1], (i, n)
    assert all(n in a["rx"] for n in spread)
    # Pinned: another generator would rerun no recorded failure exactly.
    assert length_sweep.spread(12345, 1514) == PINNED
    json.dumps(a)   # sweep.json


def test_the_seed_comes_from_the_environment():
    assert length_sweep.run_seed({}) == length_sweep.DEFAULT_RUN_SEED
    assert length_sweep.run_seed({"E1000EPP_SWEEP_SEED": "4242"}) == 4242
    with pytest.raises(length_sweep.SweepError):
        length_sweep.run_seed({"E1000EPP_SWEEP_SEED": "x1"})


def test_every_default_cell_fits_one_txl_list():
    # PP_LENS_MAX 64 (tools/wire/cmdargs.h); the worst layouts of both
    # drivers at every MTU.
    for cell in cell_model.default_matrix():
        for regs in (PS_JUMBO_KEEP, SERIES_KEEP, PS_STRIP, EXT_1500):
            sw = length_sweep.sweep(cell, lay(regs), 37)
            assert 3 <= len(sw["rx"]) <= 64, cell.name
            assert max(sw["tx"]) == cell.mtu + 14
            assert max(sw["rx"]) <= 9230


def test_descriptors_a_frame_fills_for_the_held_tail_step():
    # One 2048-byte buffer per descriptor: 9014 + 4 FCS bytes fill 4 and
    # 826 of a fifth; 4097 + 14 + 4 fill 2 and 19 of a third; 2044 + 4
    # end exactly at 2048.
    assert buffer_layout.descriptors(lay(SERIES_KEEP), 9014) == 5
    assert buffer_layout.descriptors(lay(SERIES_KEEP), 4111) == 3
    assert buffer_layout.descriptors(lay(SERIES_KEEP), 2044) == 1
    assert buffer_layout.descriptors(lay(SERIES_KEEP), 2045) == 2
    # Stripped (SECRC): 2048 bytes end at the first buffer's end.
    assert buffer_layout.descriptors(lay(EXT_1500), 2048) == 1
    # Packet split: 128 + 3 x 4096 = 12416 in the first descriptor, so
    # Debian's driver holds a jumbo frame in one; at MTU 2027 (128 +
    # 4096) a 9000-byte frame takes 3 (4224 in the first, 4096 in each
    # continuation's buffer 1).
    assert buffer_layout.descriptors(lay(PS_JUMBO_KEEP), 9014) == 1
    assert buffer_layout.descriptors(lay(PS_KEEP), 9000) == 3
