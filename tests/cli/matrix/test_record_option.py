# SPDX-License-Identifier: GPL-2.0-or-later
"""run --record: which cells can be recorded (matrix/command.py
host_timed, check_record), and the refusals before setup."""

import argparse

import pytest

from e1000epp.common.errors import StepError
from e1000epp.matrix import cell_model, command


def test_every_reduced_matrix_cell_can_be_recorded():
    """The knob cells (error-crc, fetch-limit, link-drop, dma-fault-writes,
    tx-hold) set their knobs through the knob channel, which is in the
    replay log; the reduced matrix has no set_link or S3 cell."""
    assert [c.name for c in cell_model.MATRICES["reduced"]()
            if command.host_timed(c)] == []


def args(**over):
    a = dict(cost=False, keep_state=False)
    a.update(over)
    return argparse.Namespace(**a)


def cells(*names):
    return [c for c in cell_model.MATRICES["default"]() if c.name in names]


def test_cells_without_qmp_changes_are_accepted_knob_cells_too():
    assert len(cells("mtu1500-strip-msix-noiommu",
                     "mtu1500-strip-msix-noiommu-burst",
                     "mtu1500-strip-msix-noiommu-txhang")) == 3
    assert command.check_record(args(), cells(
        "mtu1500-strip-msix-noiommu", "mtu1500-strip-msix-noiommu-burst",
        "mtu1500-strip-msix-noiommu-txhang")) is None


def test_a_set_link_cell_is_refused_by_name():
    with pytest.raises(StepError) as e:
        command.check_record(args(), cells(
            "mtu1500-strip-msix-noiommu",
            "mtu1500-strip-msix-noiommu-rpm"))
    assert e.value.what == "--record: 1 of the selected cells cannot be " \
        "replayed"
    assert e.value.why == (
        "mtu1500-strip-msix-noiommu-rpm pulls the cable (QMP set_link): a "
        "change made over QMP at a host-timed moment is not in QEMU's "
        "replay log")
    assert e.value.fix == "leave them out with --only, e.g. --only " \
        "'^mtu1500-strip-msix-noiommu$' (docs/usage/replay.md)"


@pytest.mark.parametrize("opt", ["cost", "keep_state"])
def test_record_is_refused_with_cost_and_keep_state(opt):
    with pytest.raises(StepError) as e:
        command.check_record(args(**{opt: True}),
                             cells("mtu1500-strip-msix-noiommu"))
    assert e.value.what == f"--record with --{opt.replace('_', '-')}"


def test_record_snapshots_without_record_is_refused_before_setup():
    from e1000epp import cli
    a = cli.build_parser().parse_args(["run", "--record-snapshots",
                                       "--matrix", "reduced"])
    with pytest.raises(StepError) as e:
        command.before_setup(a)
    assert (e.value.what, e.value.fix) == (
        "--record-snapshots without --record",
        "add --record or --record-failing")


def test_record_failing_records_and_keeps_only_failures():
    from e1000epp import cli
    p = cli.build_parser()
    opts = command.recording_wanted(p.parse_args(
        ["run", "--record-failing", "--record-snapshots"]))
    assert (opts.snapshots, opts.keep_passing) == (True, False)
    opts = command.recording_wanted(p.parse_args(["run", "--record"]))
    assert (opts.snapshots, opts.keep_passing) == (False, True)
    assert command.recording_wanted(p.parse_args(["run"])) is None


def test_the_default_matrixs_qmp_cells_are_refused():
    """QMP set_link (rpm) and system_wakeup (the S3 cells) are host-timed:
    the cells refused."""
    why = {c.name: command.host_timed(c)
           for c in cell_model.MATRICES["default"]()
           if c.family and c.family.name in ("rpm", "sleep", "sleepdown")}
    assert why == {
        "mtu1500-strip-msix-noiommu-rpm": "pulls the cable (QMP set_link)",
        "mtu1500-strip-msix-iommu-rpm": "pulls the cable (QMP set_link)",
        "mtu1500-strip-msix-noiommu-sleep":
            "wakes the guest from S3 (QMP system_wakeup)",
        "mtu1500-strip-msix-noiommu-sleepdown":
            "wakes the guest from S3 (QMP system_wakeup)",
        "mtu9000-keep-intx-noiommu-sleep":
            "wakes the guest from S3 (QMP system_wakeup)"}
