# SPDX-License-Identifier: GPL-2.0-or-later
"""A short recording with traffic both ways and its replays, for
test_replay.py and the `replay` suite (tests/replay): the recording
layer of `run --record` (scripts/e1000epp/replay) on a workload of its
own, shorter than a matrix cell."""

import shutil
import time
from pathlib import Path

from e1000epp.replay import command, recording
from e1000epp.vm import harness

# Pattern frames each way: enough for descriptor write-backs, interrupts
# and buffer recycling on both rings, short enough for the bounded suite.
FRAMES = 20
MIN_LEN, MAX_LEN = 60, 1514
COUNTERS = ("rx-offered", "rx-delivered", "rx-missed", "rx-not-ready",
            "rx-buf-new", "rx-buf-reposted", "dma-errors")
REPLAY_TIMEOUT = 600
# Where the guest loaded e1000e's code (reverse debugging's breakpoint).
MODULE_TEXT = "/sys/module/e1000e/sections/.text"


def pattern_bytes(count):
    return sum(harness.pp_frame_len(seq, MIN_LEN, MAX_LEN)
               for seq in range(count))


def record_short(device, peer_bin, out_dir, frames=FRAMES, append="",
                 snapshots=False):
    """Boot, bring eth0 up, pattern frames guest->peer and peer->guest,
    stop: (cell directory, sidecar, {"tx": peer's rx counters, "rx":
    agent's rx counters, "text": where e1000e's code is loaded}).
    snapshots: keep QEMU's snapshots for reverse execution."""
    out_dir = Path(out_dir)
    shutil.rmtree(out_dir, ignore_errors=True)
    cell_dir = out_dir / "cell"
    rec = recording.Recorder(str(cell_dir), snapshots)
    vm = harness.Vm(device, out_dir / "boot",
                    append=f"{rec.append} {append}".strip(),
                    extra_args=rec.qemu_args())
    rec.attach(vm)
    traffic = {}
    try:
        vm.start(peer_bin)
        harness.link_up(vm)
        traffic["text"] = vm.agent.read_files([MODULE_TEXT])[MODULE_TEXT]
        vm.peer.command(f"RX 4097 {frames} {harness.GUEST_MAC}")
        vm.agent.kv(f"TX eth0 {harness.PEER_MAC} 4097 {frames} {MIN_LEN} "
                    f"{MAX_LEN}")
        traffic["tx"] = vm.peer.wait("rx", frames, timeout=60)["rx"]
        vm.agent.kv(f"RXSTART eth0 8194 {frames} {harness.PEER_MAC}")
        vm.peer.command(f"TX {harness.GUEST_MAC} 8194 {frames} {MIN_LEN} "
                        f"{MAX_LEN}")
        vm.agent.kv("RXWAIT 60000", timeout=90)
        traffic["rx"] = vm.agent.kv("RXSTOP")
        data = rec.finish(vm, "short", COUNTERS)
    finally:
        vm.stop()
    return cell_dir, data, traffic


def replay_once(cell_dir, out_dir, timeout=REPLAY_TIMEOUT):
    """One replay of cell_dir's recording to its end: {ok, icount,
    events, counters, memory (the RAM's SHA-256), digest, seconds,
    lines}."""
    data = command.prepare(str(cell_dir))
    vm = command.ReplayVm(data, str(cell_dir), str(out_dir))
    t0 = time.monotonic()
    try:
        vm.launch()
        at = command.run_to(vm, data["icount"], timeout)
        events, counters = recording.device_state(vm, data["counters"])
        memory = recording.memory_sha256(vm, str(out_dir))
    finally:
        vm.stop()
    ok, lines = command.compare(data, at, events, counters, memory)
    return {"ok": ok, "icount": at, "events": events, "counters": counters,
            "memory": memory,
            "digest": command.sidecar.device_digest(events, counters),
            "seconds": time.monotonic() - t0, "lines": lines}
