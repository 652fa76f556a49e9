# SPDX-License-Identifier: GPL-2.0-or-later
"""The end of a cell recorded by `run --record` (replay/recording.py
records it): the recording's end state and sidecar beside the cell's
evidence, its figures in the cell's result."""

import os

from e1000epp.matrix import cell_model
from e1000epp.matrix.guest_io import DEVICE_COUNTERS
from e1000epp.vm import harness


def finish_recording(recorder, vm, cell, r, on_boot, report_dir):
    """The recording's end state and sidecar, told on the progress
    stream; a recording that could not be finished is an error of the
    cell."""
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
    r["evidence"] = sorted(os.listdir(d))
    r["recording"] = {k: data[k] for k in ("icount", "record_seconds",
                                           "guest_seconds", "log_bytes",
                                           "device_digest")}
    on_boot(f"recorded {cell.name}: {data['icount']} instructions, "
            f"{data['log_bytes'] / 1e6:.1f} MB in {recorder.dir}")
