# SPDX-License-Identifier: GPL-2.0-or-later
"""QMP through QEMU's own python/qemu (QEMUMachine holds the connection),
every exchange logged with a timestamp."""

import json
import time

from .waits import HarnessError


class Qmp:
    """QMP of a QEMUMachine: execute() returns the command's return value
    or raises HarnessError; every exchange goes to log_path."""

    def __init__(self, machine, log_path):
        self.machine = machine
        self.log = open(log_path, "w")

    def execute(self, cmd, **args):
        from qemu.qmp import QMPError
        msg = json.dumps({"execute": cmd, "arguments": args})
        self.log.write(f"{time.time():.3f} > {msg}\n")
        try:
            ret = self.machine.cmd(cmd, **args)
        except QMPError as e:
            self.log.write(f"{time.time():.3f} < error {e}\n")
            self.log.flush()
            raise HarnessError(f"QMP {cmd} failed: {e}")
        self.log.write(f"{time.time():.3f} < {json.dumps(ret)}\n")
        self.log.flush()
        return ret

    @property
    def events(self):
        return self.machine.get_qmp_events()

    def close(self):
        self.log.close()
