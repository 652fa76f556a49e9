# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's VM saved where it failed (`run --keep-state`).

save(vm, state_dir) stops the guest, reads a set of the device's
registers that have no read side effect (REGISTERS, through the
monitor's `xp` on BAR 0), migrates the whole VM into a file (QEMU's
`migrate` with a `file:` URI) and lets the guest run on (`cont` from
`postmigrate`), so the matrix goes on with its next cell. Beside the
state it writes what `./e1000e-pp resume CELLDIR` (matrix/resume.py) needs:

  state/vm.state        the migration stream (RAM, CPU, every device)
  state/cmdline.json    the exact QEMU command line (ours and the one the
                        process ran with), the sockets it used (netdev
                        stream to the peer, agent, console), the peer's
                        addresses, the build (emulator, kernel, initrd
                        SHA-256) and the save's figures
  state/registers.json  REGISTERS as read at the save (the VM paused)
  state/device.json     the model's observation counters at the save
                        (they do not migrate: docs/fidelity.md)
  state/resume.sh       runs `./e1000e-pp resume` on this cell

Everything here raises harness.HarnessError; the caller decides what a
failed save means (run_cells notes it in state/not-saved.txt).
"""

import hashlib
import json
import os
import re
import time

from e1000epp.vm import harness
from e1000epp.vm.migration import wait_completed

FORMAT = 1
STATE_FILE = "vm.state"
# What QEMUMachine adds to our arguments besides its own QMP monitor;
# part of the machine (a VGA device would change it), so resume adds
# them too.
MACHINE_ARGS = ["-display", "none", "-vga", "none"]
# Unlimited for a local file or socket (QEMU's default is 128 MiB/s).
MAX_BANDWIDTH = 1 << 40
SAVE_TIMEOUT = 300

# 82574L registers (datasheet §10.2) whose read changes nothing: no
# read-to-clear (ICR, statistics), no auto-clear, no FIFO pop. Offsets
# in BAR 0.
REGISTERS = {
    "CTRL": 0x00000, "STATUS": 0x00008, "CTRL_EXT": 0x00018,
    "ITR": 0x000C4, "IMS": 0x000D0, "IVAR": 0x000E4,
    "EITR0": 0x000E8, "EITR1": 0x000EC, "EITR2": 0x000F0,
    "EITR3": 0x000F4, "EITR4": 0x000F8,
    "RCTL": 0x00100, "TCTL": 0x00400, "TIPG": 0x00410,
    "PSRCTL": 0x02170,
    "RDBAL0": 0x02800, "RDBAH0": 0x02804, "RDLEN0": 0x02808,
    "RDH0": 0x02810, "RDT0": 0x02818, "RDTR": 0x02820,
    "RXDCTL0": 0x02828, "RADV": 0x0282C,
    "TDBAL0": 0x03800, "TDBAH0": 0x03804, "TDLEN0": 0x03808,
    "TDH0": 0x03810, "TDT0": 0x03818, "TIDV": 0x03820,
    "TXDCTL0": 0x03828, "TADV": 0x0382C,
    "RXCSUM": 0x05000, "RFCTL": 0x05008,
    "RAL0": 0x05400, "RAH0": 0x05404,
}
# The model's own counters, kept for the record (not compared: the
# observation state starts from zero on a destination).
OBSERVED = ("rx-offered", "rx-delivered", "rx-missed", "rx-not-ready",
            "dma-errors", "situations")

_hashes = {}


def sha256(path):
    """SHA-256 of a file, once per (path, size, mtime) in this process."""
    st = os.stat(path)
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _hashes:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        _hashes[key] = h.hexdigest()
    return _hashes[key]


def find_bar0(qmp, qdev_id):
    """The guest-physical address of the NIC's BAR 0 (query-pci)."""
    def walk(devices):
        for d in devices:
            if d.get("qdev_id") == qdev_id:
                for r in d.get("regions", []):
                    if r.get("bar") == 0 and r.get("type") == "memory":
                        return r["address"]
            sub = (d.get("pci_bridge") or {}).get("devices") or []
            found = walk(sub)
            if found is not None:
                return found
        return None
    for bus in qmp.execute("query-pci"):
        found = walk(bus.get("devices", []))
        if found is not None:
            return found
    raise harness.HarnessError(f"query-pci lists no BAR 0 of {qdev_id}")


XP_LINE = re.compile(r"^\s*[0-9a-f]+:\s+0x([0-9a-f]+)\s*$", re.I)


def read_registers(qmp, bar0, names=None):
    """{name: value} of REGISTERS through the monitor's `xp` (a 32-bit
    read of guest-physical memory: the device's own MMIO read)."""
    out = {}
    for name in names or REGISTERS:
        addr = bar0 + REGISTERS[name]
        text = qmp.execute("human-monitor-command",
                           **{"command-line": f"xp /1wx {addr:#x}"})
        m = XP_LINE.match(text.strip())
        if not m:
            raise harness.HarnessError(f"xp of {name} at {addr:#x} "
                                       f"answered {text!r}")
        out[name] = int(m.group(1), 16)
    return out


def machine_cmdline(vm):
    """The QEMU process's argv as it ran (/proc), QEMUMachine's own
    arguments included."""
    raw = open(f"/proc/{vm.machine.get_pid()}/cmdline", "rb").read()
    return [a.decode() for a in raw.rstrip(b"\0").split(b"\0")]


def _observed(vm):
    out = {}
    for name in OBSERVED:
        try:
            out[name] = vm.qmp.execute(
                "qom-get", path=f"/machine/peripheral/{vm.NIC_ID}",
                property=name)
        except harness.HarnessError:
            out[name] = None
    return out


def resume_script(state_dir):
    """resume.sh: `./e1000e-pp resume` on the cell this state is in."""
    repo = harness.REPO
    return ("#!/bin/sh\n"
            "# Resume this cell's VM where it failed: the same QEMU command\n"
            "# line (cmdline.json) plus -incoming file:vm.state, a fresh\n"
            "# peer on the NIC's netdev socket, QMP, the monitor and a\n"
            "# gdbstub. Options: see ./e1000e-pp resume --help.\n"
            f'exec "{repo}/e1000e-pp" resume '
            f'"$(dirname "$0")/.." "$@"\n')


def save(vm, state_dir, cell=None):
    """Stop, read the registers, migrate into state_dir/vm.state, run on.
    Returns the figures written into cmdline.json ("saved")."""
    if not vm.machine or not vm.machine.is_running():
        raise harness.HarnessError("the VM is not running: nothing to save")
    os.makedirs(state_dir, exist_ok=True)
    path = os.path.abspath(os.path.join(state_dir, STATE_FILE))
    if "," in path:
        raise harness.HarnessError(f"{path}: QEMU's option syntax cannot "
                                   "carry a path with a comma")
    qmp = vm.qmp
    t0 = time.monotonic()
    qmp.execute("stop")
    try:
        bar0 = find_bar0(qmp, vm.NIC_ID)
        regs = read_registers(qmp, bar0)
        observed = _observed(vm)
        qmp.execute("migrate-set-parameters", **{"max-bandwidth":
                                                 MAX_BANDWIDTH})
        t1 = time.monotonic()
        qmp.execute("migrate", uri=f"file:{path}")
        info = wait_completed(qmp, SAVE_TIMEOUT, "the save")
        t2 = time.monotonic()
    finally:
        # From postmigrate (or paused, if the save failed) the guest
        # runs on: the matrix's next cell needs it.
        qmp.execute("cont")
    resumed = time.monotonic()
    p = vm.paths
    kernel = vm.kernel()
    initrd = vm.guest_dir / "initrd.img"
    saved = {
        "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "state_bytes": os.path.getsize(path),
        "save_seconds": round(t2 - t1, 3),
        "paused_seconds": round(resumed - t0, 3),
        "migrate": {k: info.get(k) for k in ("total-time", "downtime",
                                             "setup-time")},
        "ram_transferred": (info.get("ram") or {}).get("transferred"),
    }
    meta = {
        "format": FORMAT,
        "cell": cell,
        "device": vm.device,
        "qemu": str(p["QEMU_BIN"]),
        "qemu_sha256": sha256(p["QEMU_BIN"]),
        "qemu_version": qmp.execute("query-version"),
        "args": vm.argv(),
        "machine_args": MACHINE_ARGS,
        "exact_cmdline": machine_cmdline(vm),
        "sockdir": str(vm.sockdir),
        "console": str(vm.console),
        "netdev": {"id": vm.netdev_id, "socket": str(vm.net_sock),
                   "how": "-netdev stream,server=off: QEMU connects to "
                          "the peer, which listens on the socket"},
        "peer": {"mac": harness.PEER_MAC, "ip": harness.PEER_IP,
                 "ip6": harness.PEER_IP6},
        "guest": {"mac": vm.mac, "ip": harness.GUEST_IP,
                  "agent_socket": str(vm.sockdir / "agent.sock")},
        "build": {"kernel": str(kernel), "kernel_sha256": sha256(kernel),
                  "initrd": str(initrd), "initrd_sha256": sha256(initrd)},
        "state_file": STATE_FILE,
        "bar0": bar0,
        "saved": saved,
    }
    _write_json(os.path.join(state_dir, "cmdline.json"), meta)
    _write_json(os.path.join(state_dir, "registers.json"),
                {"bar0": bar0, "registers": regs})
    _write_json(os.path.join(state_dir, "device.json"), observed)
    script = os.path.join(state_dir, "resume.sh")
    with open(script, "w") as f:
        f.write(resume_script(state_dir))
    os.chmod(script, 0o755)
    return saved


def _write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")


def keep(vm, cell_dir, cell_name, log):
    """run --keep-state after a failing cell: save into cell_dir/state,
    or write why not into state/not-saved.txt. Never raises a harness
    error (the matrix goes on)."""
    state_dir = os.path.join(cell_dir, "state")
    try:
        saved = save(vm, state_dir, cell_name)
    except (harness.HarnessError, OSError) as e:
        os.makedirs(state_dir, exist_ok=True)
        with open(os.path.join(state_dir, "not-saved.txt"), "w") as f:
            f.write(f"{e}\n")
        log(f"{cell_name}: state not saved: {str(e).splitlines()[0]}")
        return None
    log(f"{cell_name}: state saved in {state_dir} "
        f"({saved['state_bytes'] / 1e6:.0f} MB in "
        f"{saved['save_seconds']:.1f}s; ./e1000e-pp resume {cell_dir})")
    return saved
