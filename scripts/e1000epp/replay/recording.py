# SPDX-License-Identifier: GPL-2.0-or-later
"""`run --record`: one cell's VM under QEMU's record mode, and the
recording written beside the cell's evidence (CELLDIR/replay/):

  replay.bin       QEMU's replay log (-icount ...,rr=record,rrfile=)
  recording.json   the sidecar (sidecar.py): the exact command line, the
                   SHA-256 of the QEMU binary and the device source
                   digest, the instruction count at the end (QMP
                   query-replay), the device's event list and counters
                   there and their digest, the registers, the SHA-256
                   of the guest's RAM there, the times
  console.log      a copy of the recorded guest's console
  symbols.txt, sections.json, e1000e.ko
                   the driver as the guest loaded it (guest_symbols.py)

The recorded VM is the cell's usual one (harness.Vm) with:
  -object filter-replay on its netdev: the frames the peer sends are
      written to the log (the replay injects them; nothing it sends
      leaves QEMU);
  -icount shift=auto,rr=record: the serial ports' input (the agent's
      requests) is logged too, so the replay needs neither the peer
      nor the agent;
  nohz=off tsc_early_khz=1000000 e1000epp.paced=1 on the kernel
      command line (RECORD_APPEND) and the agent's requests paced by
      its acknowledgements (pacing.py): no request is lost to a UART
      overrun, no replay waits through the kernel's PIT calibration;
  a QMP monitor of the keepalive (keepalive.py), which wakes QEMU's
      main loop every 10 ms.
The recording ends where the cell's verdict was taken: the VM is
stopped (QMP stop) and the end state read while it stands still."""

import json
import os
import shutil
import time

from e1000epp.common import paths
from e1000epp.image.build_tools import sha256_file
from e1000epp.replay import guest_symbols, keepalive, sidecar
from e1000epp.replay.pacing import PACED_APPEND, Pacer
from e1000epp.vm import harness

# Kernel command line of a recorded guest. nohz=off: a periodic tick
# wakes an idle vCPU every 4 ms, so the log's queued input reaches the
# guest in milliseconds (pacing.py). tsc_early_khz: the TSC's rate under
# -icount (1 GHz, what the kernel measures there), so the kernel skips
# its early PIT calibration loop, which QEMU 10.0.13 replays at about
# 0.5 M instructions/s (45 s of every replay). Measured on the short
# recording of tests/functional/test_replay.py: replayed in 67 s with
# these two; 135-148 s with idle=poll added or in place of nohz=off.
# e1000epp.paced=1: the agent acknowledges what it reads (pacing.py).
RECORD_APPEND = "nohz=off tsc_early_khz=1000000 " + PACED_APPEND
FILTER_ID = "rr0"
# shift=auto: the guest's clock follows the host's (a fixed shift=3
# recorded the same workload in 12.3 s but replayed it in 201 s).
ICOUNT_SHIFT = "auto"
DEVICE_SOURCE = os.path.join(paths.REPO, "hw", "net", "e1000e_pp")


def qemu_sha256(qemu_bin=None):
    return sha256_file(qemu_bin or paths.QEMU_BIN)


def device_source_sha256():
    return sidecar.tree_sha256(DEVICE_SOURCE)


def qom(vm, name):
    """A property of the NIC, None when it has none (stock e1000e keeps
    no events or counters) or QMP fails."""
    try:
        return vm.qmp.execute("qom-get", path=f"/machine/peripheral/"
                              f"{vm.NIC_ID}", property=name)
    except harness.HarnessError:
        return None


def device_state(vm, counter_names):
    """(event lines, {counter: value}) of the NIC now."""
    events = (qom(vm, "events") or "").splitlines()
    return events, {name: qom(vm, name) for name in counter_names}


# q35 maps at most this much RAM from address 0 before its PCI hole;
# more goes above 4 GiB, where [0, size) would not find it.
LOW_RAM_BYTES = 2 << 30


def memory_sha256(vm, work_dir):
    """SHA-256 of the guest's RAM as it stands (the VM stopped): QMP
    pmemsave of [0, base memory) to a file in work_dir, hashed and
    removed. The harness's guests have 512 MiB, all of it there."""
    size = vm.qmp.execute("query-memory-size-summary")["base-memory"]
    if size > LOW_RAM_BYTES:
        raise harness.HarnessError(
            f"guest RAM of {size} bytes: only up to {LOW_RAM_BYTES} lie in "
            "one piece from address 0 on q35 (the memory hash covers that)")
    path = os.path.join(work_dir, "memory.img")
    vm.qmp.execute("pmemsave", val=0, size=size, filename=path)
    try:
        return sha256_file(path)
    finally:
        os.unlink(path)


def registers(vm):
    return vm.qmp.execute("human-monitor-command",
                          **{"command-line": "info registers"})


class Recorder:
    """The recording of one cell: qemu_args() and append go on its Vm's
    command line, attach(vm) before vm.start(), finish() once the
    cell's verdict is taken."""

    append = RECORD_APPEND

    def __init__(self, cell_dir, snapshots=False):
        # snapshots: a qcow2 beside the log where QEMU keeps its
        # snapshots (the recording's first, `init`, taken at its start,
        # and those reverse execution takes in a replay); without it a
        # replay cannot execute backwards.
        self.dir = os.path.join(cell_dir, sidecar.RECORD_DIR)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.snapshots = None
        if snapshots:
            self.snapshots = os.path.join(self.dir, sidecar.SNAPSHOTS)
            snapshot_image(self.snapshots)
        self.log = os.path.join(self.dir, sidecar.LOG)
        self.pacer = None
        self.keepalive = keepalive.Keepalive()

    def qemu_args(self, netdev_id="n0"):
        snap = ",rrsnapshot=init" if self.snapshots else ""
        # apic.vapic=off: a reverse-continue loads a snapshot in the
        # main loop, holding the replay lock; the TPR-patching ROM's
        # post_load then waits for the vCPU (run_on_cpu), which waits
        # for that lock (QEMU 10.0.13: a deadlock in the replay suite's
        # reverse test). The ROM serves Windows guests' TPR writes only.
        return ["-global", "apic.vapic=off",
                "-object", f"filter-replay,id={FILTER_ID},netdev="
                f"{netdev_id}",
                "-icount", f"shift={ICOUNT_SHIFT},rr=record,"
                f"rrfile={self.log}{snap}"] + \
            (["-drive", f"file={self.snapshots},if=none,id=rrsnap"]
             if self.snapshots else []) + \
            keepalive.qemu_args(self.keepalive.path)

    def attach(self, vm):
        self.pacer = Pacer(keepalive=self.keepalive)
        vm.agent_pacer = self.pacer

    def finish(self, vm, cell, counter_names):
        """Stop the VM, read its end state, write the sidecar, let it
        run on (for vm.stop()); returns the sidecar."""
        uptime = None
        try:
            text = vm.agent.read_files(["/proc/uptime"])["/proc/uptime"]
            uptime = float(text.split()[0]) if text else None
        except (harness.HarnessError, OSError, ValueError, IndexError):
            pass
        symbols = []
        try:
            symbols = guest_symbols.capture(vm, self.dir)
        except (harness.HarnessError, OSError) as e:
            print(f"      recording: no driver symbols kept: {e}",
                  flush=True)
        vm.qmp.execute("stop")
        seconds = vm.since_start()
        icount = vm.qmp.execute("query-replay")["icount"]
        events, counters = device_state(vm, counter_names)
        regs = registers(vm)
        memory = memory_sha256(vm, self.dir)
        # On: the agent's QUIT then powers the guest off (vm.stop()),
        # instructions after this end. A QMP quit here would put the
        # shutdown into the log at this very instruction count, and a
        # replay stopped here would quit before its end state is read.
        vm.qmp.execute("cont")
        cmdline = (vm.report_dir / "qemu.cmdline").read_text().strip()
        data = {
            "format": sidecar.FORMAT, "cell": cell, "device": vm.device,
            "qemu": str(vm.paths["QEMU_BIN"]),
            "qemu_sha256": qemu_sha256(vm.paths["QEMU_BIN"]),
            "device_source_sha256": device_source_sha256(),
            "argv": vm.argv(), "cmdline": cmdline,
            "icount": icount, "events": events, "counters": counters,
            "device_digest": sidecar.device_digest(events, counters),
            "registers": regs, "memory_sha256": memory,
            "record_seconds": round(seconds, 2),
            "guest_seconds": uptime,
            "log_bytes": os.path.getsize(self.log),
            "agent_steps": self.pacer.steps if self.pacer else 0,
            "snapshots": bool(self.snapshots),
            "symbols": symbols,
        }
        write_json(os.path.join(self.dir, sidecar.SIDECAR), data)
        try:
            shutil.copyfile(vm.console, os.path.join(self.dir,
                                                     "console.log"))
        except OSError:
            pass
        return data


# The snapshot image's size: room for a few snapshots of the 512 MiB
# guest (QEMU writes only what a snapshot holds).
SNAPSHOT_IMAGE_BYTES = 4 << 30


def snapshot_image(path, qemu_bin=None, timeout=60):
    """An empty qcow2 at path, made by QEMU itself (blockdev-create on a
    machine without a guest: the build has no qemu-img). It is attached
    to no device (`-drive if=none`): QEMU puts only snapshots in it."""
    harness.qemu_python()
    from qemu.machine import QEMUMachine
    open(path, "wb").close()
    m = QEMUMachine(str(qemu_bin or paths.QEMU_BIN),
                    args=["-M", "none", "-nodefaults"],
                    base_temp_dir=os.path.dirname(path))
    m.launch()
    try:
        m.cmd("blockdev-add", driver="file", filename=path,
              **{"node-name": "img"})
        m.cmd("blockdev-create", **{"job-id": "mk"},
              options={"driver": "qcow2", "file": "img",
                       "size": SNAPSHOT_IMAGE_BYTES})
        deadline = time.monotonic() + timeout
        while True:
            jobs = m.cmd("query-jobs")
            if jobs and jobs[0]["status"] == "concluded":
                break
            if time.monotonic() > deadline:
                raise harness.HarnessError(f"QEMU did not create {path}")
            time.sleep(0.1)
        err = jobs[0].get("error")
        m.cmd("job-dismiss", id="mk")
        if err:
            raise harness.HarnessError(f"QEMU could not create {path}: "
                                       f"{err}")
    finally:
        m.shutdown()


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
