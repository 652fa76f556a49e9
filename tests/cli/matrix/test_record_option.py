# SPDX-License-Identifier: GPL-2.0-or-later
"""run --record: which cells can be recorded (matrix/command.py
host_timed, check_record), and the refusals before setup."""

import argparse

import pytest

from e1000epp.common.errors import StepError
from e1000epp.matrix import cell_model, command


def test_the_reduced_matrix_cells_that_change_the_device_over_qmp():
    refused = {c.name: command.host_timed(c)
               for c in cell_model.MATRICES["reduced"]()
               if command.host_timed(c)}
    assert refused == {
        "mtu1500-strip-msix-noiommu-errcrc":
            "turns the device knob error-crc (qom-set)",
        "mtu2027-strip-msix-noiommu-longburst":
            "turns the device knob fetch-limit (qom-set)",
        "mtu1500-strip-msix-noiommu-linkdrop":
            "turns the device knob link-drop (qom-set)",
        "mtu1500-strip-msix-iommu-dmafault":
            "turns the device knob dma-fault-writes (qom-set)",
        "mtu1500-strip-msi-noiommu-txhang":
            "turns the device knob tx-hold (qom-set)",
    }


def args(**over):
    a = dict(cost=False, keep_state=False)
    a.update(over)
    return argparse.Namespace(**a)


def cells(*names):
    return [c for c in cell_model.MATRICES["reduced"]() if c.name in names]


def test_cells_without_host_changes_are_accepted():
    assert command.check_record(args(), cells(
        "mtu1500-strip-msix-noiommu", "mtu1500-strip-msix-noiommu-burst")) \
        is None


def test_a_knob_cell_is_refused_by_name():
    with pytest.raises(StepError) as e:
        command.check_record(args(), cells(
            "mtu1500-strip-msix-noiommu",
            "mtu1500-strip-msi-noiommu-txhang"))
    assert e.value.what == "--record: 1 of the selected cells cannot be " \
        "replayed"
    assert e.value.why == (
        "mtu1500-strip-msi-noiommu-txhang turns the device knob tx-hold "
        "(qom-set): a change made over QMP at a host-timed moment is not in "
        "QEMU's replay log")
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
        "--record-snapshots without --record", "add --record")


def test_the_default_matrixs_qmp_cells_beyond_knobs_are_refused():
    """Not only qom-set: QMP set_link (rpm) and system_wakeup (the S3
    cells) are host-timed too."""
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
