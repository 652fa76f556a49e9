# SPDX-License-Identifier: GPL-2.0-or-later
"""The end of a cell recorded by `run --record` (replay/recording.py
records it): the recording's end state and sidecar beside the cell's
evidence, its figures in the cell's result."""

import collections
import os
import shutil

from e1000epp.matrix import cell_model
from e1000epp.matrix.guest_io import DEVICE_COUNTERS
from e1000epp.vm import harness


# run --record / --record-failing: snapshots beside each recording
# (--record-snapshots); keep_passing False: a passing cell's recording is
# deleted once its verdict is in (--record-failing).
Options = collections.namedtuple("Options", "snapshots keep_passing")


def finish_recording(recorder, vm, cell, r, on_boot, report_dir,
                     keep_passing=True):
    """The recording's end state and sidecar, told on the progress
    stream; a recording that could not be finished is an error of the
    cell. Without keep_passing the recording of a cell that passed is
    deleted, its figures kept in the result."""
    try:
        if not vm.machine.is_running():
            raise harness.HarnessError("QEMU is gone")
        data = recorder.finish(vm, cell.name, DEVICE_COUNTERS)
    except (harness.HarnessError, OSError, KeyError) as e:
        r["status"] = cell_model.ERROR
        r["reason"] = (r.get("reason") or "") + \
            f"\nrecording not finished: {e}"
        return
    d = os.path.join(report_dir, "cells", cell.name)
    kept = keep_passing or r["status"] != cell_model.PASS
    if not kept:
        shutil.rmtree(recorder.dir, ignore_errors=True)
    r["evidence"] = sorted(os.listdir(d))
    r["recording"] = {k: data[k] for k in ("icount", "record_seconds",
                                           "guest_seconds", "log_bytes",
                                           "device_digest")}
    r["recording"]["kept"] = kept
    on_boot(f"recorded {cell.name}: {data['icount']} instructions, "
            f"{data['log_bytes'] / 1e6:.1f} MB " +
            (f"in {recorder.dir}" if kept else
             "(passed: deleted, --record-failing)"))
