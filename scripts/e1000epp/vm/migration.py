# SPDX-License-Identifier: GPL-2.0-or-later
"""Live migration of a running Vm to a second QEMU on this machine.

The destination is the source's command line plus `-incoming
unix:<socket>`, started while the source runs. Its NIC connects to the
same peer socket: the peer serves one connection at a time, so the
destination's connection waits in the listen backlog (what the
destination sends meanwhile, QEMU's self-announce included, waits in
the socket) and the peer accepts it when the source closes its own.
The agents' sockets are connected before the switch-over (a chardev
drops what the guest writes while no client is there), and the agents
move to them (agentlink.Agent.move_to): what the guest wrote on the
source is read first.

Frames the peer sends to the source between the stop and the source's
exit are lost with the source's socket (the frames "on the wire"); a
frame that reached the device travels in its state.
"""

import time
from pathlib import Path

from .agentlink import connect
from .harness import Vm
from .waits import HarnessError, wait_until

MIGRATE_TIMEOUT = 300
# Unlimited for a local socket (QEMU's default is 128 MiB/s).
MAX_BANDWIDTH = 16 << 30
# The guest's pause QEMU aims at; TCG dirties pages slowly, so the
# default converges and this only keeps it explicit.
DOWNTIME_LIMIT_MS = 300


def destination(vm, report_dir):
    """A Vm with vm's arguments waiting for an incoming migration, its
    NIC on vm's peer."""
    dst = Vm(vm.device, report_dir, append=vm.append,
             netdev_id=vm.netdev_id, mac=vm.mac,
             boot_timeout=vm.boot_timeout, ipv6=vm.ipv6,
             device_args=vm.device_args, guest_dir=vm.guest_dir,
             agent_ports=vm.agent_ports, peer=vm.peer)
    # Socket paths of the source's own (chardevs) become the
    # destination's.
    dst.extra_args = [a.replace(str(vm.sockdir), str(dst.sockdir))
                      for a in vm.extra_args]
    dst.incoming = f"unix:{dst.sockdir}/migration.sock"
    return dst


def _status(vm):
    return vm.qmp.execute("query-status").get("status")


def live_migrate(vm, report_dir, moves=(), on_source=None):
    """Migrate the running vm into a new QEMU; returns (the destination
    Vm, a record of the migration).

    moves: (Agent, socket name in the sockdir) of agents other than the
    harness's own ports; on_source(vm): called with the source paused
    after the switch-over (its counters are final), before it quits.
    The destination owns the peer afterwards; the source is gone."""
    dst = destination(vm, report_dir)
    dst.launch()
    wait_until("the destination to wait for the migration",
               lambda: _status(dst) == "inmigrate", 60,
               evidence=dst._qemu_log_tail)
    agents = list(vm.agents)
    own = len(agents)
    names = [dst.agent_socket(n).name for n in range(1, len(agents) + 1)]
    for agent, name in moves:
        agents.append(agent)
        names.append(name)
    socks = [connect(dst.sockdir / name) for name in names]
    connections = sum(e.get("event") == "connected"
                      for e in vm.peer.events)
    vm.qmp.execute("migrate-set-parameters",
                   **{"max-bandwidth": MAX_BANDWIDTH,
                      "downtime-limit": DOWNTIME_LIMIT_MS})
    for a in agents:
        a.hold()
    t0 = time.monotonic()
    try:
        vm.qmp.execute("migrate", uri=dst.incoming)
        info = wait_completed(vm.qmp, MIGRATE_TIMEOUT, "the live migration")
        t1 = time.monotonic()
        wait_until("the destination to run", lambda: _status(dst) ==
                   "running", 60, interval=0.02,
                   evidence=dst._qemu_log_tail)
        t2 = time.monotonic()
        if on_source:
            on_source(vm)
        for a, s in zip(agents, socks):
            a.move_to(s)
    except BaseException:
        for s in socks:
            s.close()
        dst.machine.kill()
        raise
    finally:
        for a in agents:
            a.release()
    # The source quits (no agent QUIT: its guest is the destination's
    # now); its socket closes and the peer accepts the destination.
    vm.agent, vm.agents, vm.own_peer = None, [], False
    # The peer's socket may be in the source's directory: it lives on
    # with the peer, the destination removes it.
    keep = [d for d in vm.dirs if Path(vm.peer.sock_path).parent == d]
    vm.dirs = [d for d in vm.dirs if d not in keep]
    dst.dirs += keep
    vm.stop()
    t3 = time.monotonic()
    dst.own_peer, dst.incoming = True, None
    dst.agents = agents[:own]
    dst.agent = dst.agents[0] if dst.agents else None
    dst.t_ready = time.monotonic()
    wait_until("the peer to accept the destination's NIC",
               lambda: sum(e.get("event") == "connected"
                           for e in dst.peer.events) > connections, 30,
               evidence=dst._qemu_log_tail)
    return dst, {
        "total_ms": info.get("total-time"),
        "downtime_ms": info.get("downtime"),
        "setup_ms": info.get("setup-time"),
        "ram_bytes": (info.get("ram") or {}).get("transferred"),
        "migrate_seconds": round(t1 - t0, 3),
        "destination_running_seconds": round(t2 - t0, 3),
        "source_gone_seconds": round(t3 - t0, 3),
    }


def wait_completed(qmp, timeout, what="the migration"):
    """Poll query-migrate until completed; its answer, or HarnessError
    when it failed or the time ran out."""
    deadline = time.monotonic() + timeout
    while True:
        info = qmp.execute("query-migrate")
        status = info.get("status")
        if status == "completed":
            return info
        if status in ("failed", "cancelled"):
            raise HarnessError(f"{what} {status}: "
                               f"{info.get('error-desc', '')}")
        if time.monotonic() >= deadline:
            raise HarnessError(f"{what} not completed in {timeout} s "
                               f"(status {status})")
        time.sleep(0.02)
