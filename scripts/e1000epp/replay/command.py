# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp replay CELLDIR`: a cell recorded by `run --record`
replayed instruction for instruction, without the peer or the agent
(their input is in the log), and checked against the recording.

    ./e1000e-pp replay CELLDIR [--break ICOUNT | --break-event WORD[:N] |
                                --break-symbol FUNCTION [--before ICOUNT]]
                               [--gdb PORT] [--timeout SECONDS] [--out DIR]

Refused before QEMU starts when the recording was made by another QEMU
binary or from another device source (sidecar.py). Without --break:
replayed to the recording's last instruction (QMP replay-break), then
the instruction count, the device's event list and counters compared
(digest; on a mismatch the first event that differs); exit 0 when they
match. --break ICOUNT stops there instead; --break-event WORD[:N] at
the instruction count the device stamped on a recorded event (the first
or N-th containing WORD); --break-symbol FUNCTION at
the first call of an e1000e function (its address as the recorded guest
loaded it, guest_symbols.py: a first replay under gdb finds the
instruction count; with --gdb a second one stops there), or with
--before ICOUNT at its last call before that instruction count. With --gdb
PORT the gdbstub listens on PORT (QEMU starts paused when there is no
break), a gdb script beside the output loads the driver's symbols, and
QEMU stays up until gdb or Ctrl-C ends it."""

import os
import shutil
import subprocess
import time

from e1000epp.common import argtypes, paths, ports
from e1000epp.common.errors import StepError
from e1000epp.replay import guest_symbols, keepalive, recording, sidecar
from e1000epp.vm import harness

# Replay wall time per second of the recording's, and on top (QEMU
# 10.0.13 here: 12-14x on a cell, mostly the guest's idle time and its
# early boot; docs/usage/replay.md).
TIMEOUT_FACTOR = 40
TIMEOUT_BASE = 120
POLL = 0.5
# Seconds between two progress lines of a running replay.
PROGRESS = 30


def add_arguments(p):
    p.add_argument("cell_dir", metavar="CELLDIR",
                   help="a cell's directory in a report of run --record "
                   "(build/reports/<stamp>/cells/<cell>)")
    p.add_argument("--break", dest="break_at", metavar="ICOUNT",
                   type=argtypes.positive_int,
                   help="stop at this guest instruction count (at most "
                   "the recording's last) instead of its end")
    p.add_argument("--break-symbol", metavar="FUNCTION",
                   help="stop at the first call of this e1000e function "
                   "(e.g. e1000_reset_task), found by a first replay "
                   "under gdb")
    p.add_argument("--break-event", metavar="WORD[:N]",
                   help="stop where the device logged the first (or N-th) "
                   "recorded event containing WORD (e.g. ctrl-rst, "
                   "tx-hold): the instruction count it carries")
    p.add_argument("--before", metavar="ICOUNT",
                   type=argtypes.positive_int,
                   help="with --break-symbol: the last call before this "
                   "instruction count (a failure's), not the first: "
                   "backwards from a failure without reverse execution")
    p.add_argument("--gdb", metavar="PORT",
                   type=argtypes.int_range(1024, 65535),
                   help="open QEMU's gdbstub on 127.0.0.1:PORT and keep "
                   "QEMU up (paused at --break, or at the first "
                   "instruction) until gdb or Ctrl-C ends it")
    p.add_argument("--timeout", metavar="SECONDS",
                   type=argtypes.int_range(10, 86400),
                   help="give up after this long (default: "
                   f"{TIMEOUT_FACTOR}x the recording's wall time + "
                   f"{TIMEOUT_BASE} s)")
    p.add_argument("--out", metavar="DIR", type=argtypes.output_dir,
                   help="where the replay's console, QMP log and verdict "
                   "go (default: CELLDIR/replay/replay-<UTC stamp>)")


def _step_error(e):
    what, why, fix = (list(e.args) + [None, None])[:3]
    return StepError(what, why, fix)


def prepare(cell_dir):
    """The sidecar of cell_dir's recording, checked against this QEMU
    binary and device source; StepError when it cannot be replayed."""
    try:
        data = sidecar.load(cell_dir)
        if not os.path.exists(paths.QEMU_BIN):
            raise sidecar.SidecarError(
                "the emulator is not built", f"{paths.QEMU_BIN} is missing",
                "run ./e1000e-pp setup")
        sidecar.check_build(data, recording.qemu_sha256(),
                            recording.device_source_sha256())
    except sidecar.SidecarError as e:
        raise _step_error(e)
    return data


class ReplayVm(harness.Vm):
    """The recorded VM's QEMU on its recorded arguments, made for
    replay; no peer, no agent."""

    def __init__(self, data, cell_dir, out_dir, gdb=None):
        super().__init__(data["device"], out_dir)
        log = os.path.abspath(os.path.join(cell_dir, sidecar.RECORD_DIR,
                                           sidecar.LOG))
        # The recording's keepalive monitor (if it had one) gives way to
        # the replay's own: an idle stretch of the replay otherwise waits
        # for QEMU's main loop timeout too (keepalive.py).
        self.keepalive = keepalive.Keepalive()
        self.replay_args = keepalive.without_monitor(sidecar.replay_argv(
            data["argv"], log, str(self.sockdir), str(self.report_dir))) + \
            keepalive.qemu_args(self.keepalive.path)
        if gdb:
            self.replay_args += ["-gdb", f"tcp:127.0.0.1:{gdb}"]

    def argv(self):
        return self.replay_args

    def launch(self):
        super().launch()
        self.keepalive.start()

    def stop(self):
        self.keepalive.stop()
        return super().stop()


def run_to(vm, icount, timeout, progress=None):
    """replay-break at icount, then wait until the VM stops there;
    returns the icount it stopped at. progress(text): a line every
    PROGRESS seconds."""
    vm.qmp.execute("replay-break", icount=icount)
    t0 = time.monotonic()
    deadline = t0 + timeout
    told = t0
    while True:
        if vm._exited():
            raise StepError("QEMU exited during the replay",
                            f"exit status {vm.machine.exitcode()}; "
                            f"{vm._qemu_log_tail()}",
                            "see the replay's qemu.log", log=str(
                                vm.report_dir / "qemu.log"))
        status = vm.qmp.execute("query-status")["status"]
        if status != "running":
            return vm.qmp.execute("query-replay")["icount"]
        if progress and time.monotonic() - told >= PROGRESS:
            told = time.monotonic()
            now = vm.qmp.execute("query-replay")["icount"]
            progress(f"at instruction {now} of {icount} "
                     f"({100 * now // icount}%) after {told - t0:.0f} s")
        if time.monotonic() > deadline:
            now = vm.qmp.execute("query-replay")["icount"]
            raise StepError("the replay did not reach the instruction "
                            f"count {icount} in {timeout:.0f} s",
                            f"it is at {now} ({100 * now // icount}%)",
                            "give it longer with --timeout")
        time.sleep(POLL)


def compare(data, icount, events, counters, memory=None):
    """(ok, lines): the replay's end against the recording's (memory:
    the SHA-256 of the guest's RAM, compared when the recording kept
    one)."""
    digest = sidecar.device_digest(events, counters)
    lines = [f"instruction count: recorded {data['icount']}, replayed "
             f"{icount}" + (" (same)" if icount == data["icount"] else
                            " (DIFFERENT)"),
             f"device digest: recorded {data['device_digest'][:16]}, "
             f"replayed {digest[:16]}" +
             (" (same)" if digest == data["device_digest"] else
              " (DIFFERENT)"),
             f"device events: {len(data['events'])} recorded, "
             f"{len(events)} replayed"]
    diff = sidecar.first_difference(data["events"], events)
    if diff:
        i, a, b = diff
        lines.append(f"first event that differs: #{i + 1}")
        lines.append(f"  recorded: {a if a is not None else '(none)'}")
        lines.append(f"  replayed: {b if b is not None else '(none)'}")
    for name, a, b in sidecar.counter_differences(data["counters"],
                                                  counters):
        lines.append(f"counter {name}: recorded {a}, replayed {b}")
    ok = icount == data["icount"] and digest == data["device_digest"]
    if data.get("memory_sha256") and memory:
        same = memory == data["memory_sha256"]
        lines.insert(2, f"guest memory: recorded "
                     f"{data['memory_sha256'][:16]}, replayed "
                     f"{memory[:16]}" + (" (same)" if same else
                                         " (DIFFERENT)"))
        ok = ok and same
    return ok, lines


def replay(args):
    cell_dir = os.path.abspath(args.cell_dir)
    data = prepare(cell_dir)
    end = data["icount"]
    if args.break_at and args.break_at > end:
        raise StepError(f"--break {args.break_at} is past the recording's "
                        "end", f"its last instruction count is {end}",
                        f"give an instruction count up to {end}")
    stops = [f for f, v in (("--break", args.break_at),
                            ("--break-symbol", args.break_symbol),
                            ("--break-event", args.break_event)) if v]
    if len(stops) > 1:
        raise StepError(f"{' and '.join(stops)} together",
                        "a replay stops at one point", "give one of them")
    if args.break_event:
        try:
            args.break_at, line = sidecar.event_icount(data["events"],
                                                       args.break_event)
        except sidecar.SidecarError as e:
            raise _step_error(e)
        print(f"[replay] event {line!r}: instruction count "
              f"{args.break_at}", flush=True)
    if args.before and not args.break_symbol:
        raise StepError("--before without --break-symbol",
                        "it bounds the calls --break-symbol looks for",
                        "add --break-symbol FUNCTION")
    if args.before and args.before > end:
        raise StepError(f"--before {args.before} is past the recording's "
                        "end", f"its last instruction count is {end}",
                        f"give an instruction count up to {end}")
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    out = os.path.abspath(args.out or os.path.join(
        cell_dir, sidecar.RECORD_DIR, f"replay-{stamp}"))
    os.makedirs(out, exist_ok=True)
    timeout = args.timeout or \
        TIMEOUT_FACTOR * data["record_seconds"] + TIMEOUT_BASE
    rec_dir = os.path.join(cell_dir, sidecar.RECORD_DIR)
    if args.break_symbol:
        args.break_at = find_symbol(data, cell_dir, out, args.break_symbol,
                                    timeout, args.before)
        if not args.gdb:
            return 0
    if args.gdb:
        with open(os.path.join(out, "gdbinit"), "w") as f:
            f.write(guest_symbols.gdb_script(rec_dir, args.gdb))
    vm = ReplayVm(data, cell_dir, out, args.gdb)
    print(f"[replay] {data['cell']} on {data['device']}: {end} "
          f"instructions, recorded in {data['record_seconds']:.1f} s "
          f"({data['log_bytes'] / 1e6:.1f} MB log); output {out}",
          flush=True)
    t0 = time.monotonic()
    try:
        vm.launch()
        if args.gdb and not args.break_at:
            vm.qmp.execute("stop")
            return _hold(vm, args.gdb, "at the first instruction",
                         data.get("snapshots"), out)
        at = run_to(vm, args.break_at or end, timeout,
                    lambda text: print(f"[replay] {text}", flush=True))
        wall = time.monotonic() - t0
        if args.break_at:
            rip = recording.registers(vm).split("RIP=")[-1].split()[0]
            print(f"[replay] stopped at instruction count {at} (RIP {rip}) "
                  f"after {wall:.1f} s")
            if args.break_event:
                events, _ = recording.device_state(vm, [])
                print("[replay] the device's last event there: " +
                      (events[-1] if events else "none"))
            if args.gdb:
                return _hold(vm, args.gdb, f"at instruction count {at}",
                             data.get("snapshots"), out)
            return 0
        events, counters = recording.device_state(vm, data["counters"])
        memory = recording.memory_sha256(vm, out)
        ok, lines = compare(data, at, events, counters, memory)
        recording.write_json(os.path.join(out, "replay.json"), {
            "cell": data["cell"], "icount": at, "events": events,
            "counters": counters, "memory_sha256": memory, "ok": ok,
            "seconds": round(wall, 2),
            "device_digest": sidecar.device_digest(events, counters)})
        for line in lines:
            print(f"[replay] {line}")
        print(f"[replay] {wall:.1f} s ({wall / data['record_seconds']:.1f}x "
              "the recording)")
        print("replay matches the recording" if ok else
              "replay DIVERGED from the recording")
        return 0 if ok else 1
    finally:
        vm.stop()


def _hold(vm, port, where, snapshots, out):
    print(f"[replay] paused {where}; gdbstub on 127.0.0.1:{port}:\n"
          f"  gdb -x {os.path.join(out, 'gdbinit')}   (connects; loads "
          "e1000e's symbols when the recording has them)\n" +
          ("  reverse-stepi / reverse-continue work (the recording has "
           "snapshots)" if snapshots else
           "  no reverse execution: record with run --record "
           "--record-snapshots") +
          "; QEMU runs until gdb's `kill` or Ctrl-C here", flush=True)
    try:
        while not vm._exited():
            time.sleep(POLL)
    except KeyboardInterrupt:
        print("\n[replay] ended by Ctrl-C")
    return 0


def find_symbol(data, cell_dir, out, name, timeout, before=None):
    """The instruction count of the first call of e1000e's function name
    in the replay, or with before of its last call before that
    instruction count: a replay under gdb with a hardware breakpoint at
    the address the recorded guest loaded it at (with before, every hit
    is counted and the replay stopped there by QMP replay-break: no
    reverse execution, which QEMU 10.0.13 can hang in: docs/usage/replay.md).
    """
    rec_dir = os.path.join(cell_dir, sidecar.RECORD_DIR)
    try:
        addr = guest_symbols.resolve(rec_dir, name)
    except guest_symbols.SymbolError as e:
        raise _step_error(e)
    if not shutil.which("gdb"):
        raise StepError("gdb is not installed", "--break-symbol drives "
                        "the replay through gdb", "run ./e1000e-pp setup")
    port = ports.free_port()
    work = os.path.join(out, "find-symbol")
    vm = ReplayVm(data, cell_dir, work, port)
    script = os.path.join(work, "find-symbol.gdb")
    with open(script, "w") as f:
        f.write(f"target remote 127.0.0.1:{port}\nhbreak *{addr:#x}\n" +
                ("commands 1\nsilent\nmonitor info replay\ncontinue\n"
                 "end\n" if before else "") +
                "continue\nmonitor info replay\nkill\n")
    which = f"the last call of {name} before instruction count {before}" \
        if before else f"the first call of {name}"
    print(f"[replay] finding {which} ({addr:#x}) under gdb ...", flush=True)
    t0 = time.monotonic()
    try:
        vm.launch()
        vm.qmp.execute("stop")
        if before:
            vm.qmp.execute("replay-break", icount=before)
        try:
            r = subprocess.run(["gdb", "-batch", "-nx", "-x", script],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            raise StepError(f"{name} was not reached in {timeout:.0f} s",
                            "the replay under gdb did not stop",
                            "give it longer with --timeout")
    finally:
        vm.stop()
    with open(os.path.join(out, "find-symbol.txt"), "w") as f:
        f.write(r.stdout)
    counts = guest_symbols.hit_icount(r.stdout)
    hits = [c for c in counts if c < before] if before else counts[:1]
    if not hits or (not before and "Breakpoint 1," not in r.stdout):
        raise StepError(f"the replay never called {name}" +
                        (f" before instruction count {before}"
                         if before else ""),
                        f"gdb: {r.stdout.strip().splitlines()[-1:]}",
                        f"see {os.path.join(out, 'find-symbol.txt')}")
    print(f"[replay] {which} at instruction count {hits[-1]} "
          f"(RIP {addr:#x})" +
          (f"; {len(hits)} calls before it: "
           f"{', '.join(str(c) for c in hits[-5:])}" if before else "") +
          f"; found in {time.monotonic() - t0:.1f} s", flush=True)
    return hits[-1]
