# SPDX-License-Identifier: GPL-2.0-or-later
"""What every traffic step of a matrix cell works with (TrafficContext,
built once per cell by matrix.execute.run_cell), and the wait for the
agent's Rx session that the frame steps and the cost burst share.
"""

import dataclasses

from e1000epp.matrix import cell_model


@dataclasses.dataclass
class TrafficContext:
    """One cell's traffic: the guest under test, the cell, the first run
    number of its pattern streams (each step adds its own offset), the
    checks its verdict collects, its evidence directory, its traffic.log
    writer, and the seconds to wait for frames that may have been lost
    (`run --traffic-timeout`), and the driver under test as the run's
    options name it (cell_model.DRIVER_STOCK, DRIVER_SERIES, or None:
    the user's own)."""
    vm: object
    cell: object
    run_base: int
    checks: object
    cell_dir: str
    tlog: object
    bound: float
    driver: object = None


def agent_rx_wait(vm, bound=cell_model.TRAFFIC_TIMEOUT):
    """The agent answers once its Rx session has counted every frame it
    expects (so does the peer's WAIT), or after bound s (frames the NIC
    lost never come; cell_model.TRAFFIC_TIMEOUT by default); returns
    its counters (RXSTAT); the verdict is the caller's."""
    return vm.agent.kv(f"RXWAIT {bound * 1000}", timeout=bound + 30)
