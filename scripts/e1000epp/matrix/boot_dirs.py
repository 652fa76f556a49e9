# SPDX-License-Identifier: GPL-2.0-or-later
"""A run's boot directories (report/boots/NN-KEY): one per VM, its
console, agent and QMP logs, capture and command line."""

import os

from e1000epp.vm import harness


def new_boot_dir(report_dir, name):
    """report_dir/boots/name, or name-2, -3, ... when another VM of the
    run (a worker with the same boot key: --vms, --record's VM per
    cell) has it: each VM its own console, agent log and capture."""
    top = os.path.join(report_dir, "boots")
    os.makedirs(top, exist_ok=True)
    for n in range(1, 1000):
        path = os.path.join(top, name if n == 1 else f"{name}-{n}")
        try:
            os.mkdir(path)
            return path
        except FileExistsError:
            continue
    raise harness.HarnessError(f"{top}: no free directory for {name}")
