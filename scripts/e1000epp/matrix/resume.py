# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp resume CELLDIR`: a cell's saved VM (run --keep-state,
matrix/kept_state.py) back where it failed, ready for gdb and tracing.

The same QEMU command line as the saving run (state/cmdline.json), with
new paths for its sockets and console, plus:

  -incoming file:state/vm.state   the whole VM: RAM, CPU, every device
  -S (unless --run)               paused once loaded: `cont` to go on
  -qmp unix:qmp.sock              QMP for you (one client at a time)
  -monitor unix:monitor.sock      the human monitor (HMP)
  -gdb tcp:127.0.0.1:PORT         QEMU's gdbstub (--gdb-port)

and a fresh peer (tools/peer) listening on the NIC's netdev socket, so
the netdev has its other end (it answers ARP, ping, UDP echo; lines you
type are its commands). Logs go to CELLDIR/resume/; resume waits until
QEMU exits (quit in the monitor, or Ctrl-C).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from e1000epp.common import ports
from e1000epp.common.errors import StepError
from e1000epp.matrix import kept_state
from e1000epp.vm import harness

LOAD_TIMEOUT = 300
# What a cost run (run --cost) added; the plugin's windows would be
# written into the saving run's files, so resume leaves it out.
DROPPED = ("-plugin", "-D")


def add_arguments(p):
    p.add_argument("celldir", metavar="CELLDIR",
                   help="a cell's directory in a report (cells/<name>) "
                   "whose state/ a run --keep-state wrote")
    p.add_argument("--run", action="store_true",
                   help="let the guest run as soon as the state is loaded "
                   "(default: paused, as with -S; `cont` in the monitor "
                   "or over QMP continues it)")
    p.add_argument("--gdb-port", metavar="PORT", type=int, default=1234,
                   help="TCP port of the gdbstub on 127.0.0.1 (default "
                   "1234; 0 picks a free one)")
    p.add_argument("--force", action="store_true",
                   help="load even when the emulator, kernel or initrd "
                   "differ from the ones that saved the state")


def state_dir_of(celldir):
    """The state directory of CELLDIR (or CELLDIR itself when it is
    one), and its cmdline.json; StepError when there is none."""
    if not os.path.isdir(celldir):
        raise StepError(f"{celldir}: no such directory",
                        "resume takes a cell's directory of a report",
                        "give build/reports/<stamp>/cells/<name>")
    for d in (os.path.join(celldir, "state"), celldir):
        meta = os.path.join(d, "cmdline.json")
        if os.path.exists(meta) and os.path.exists(
                os.path.join(d, kept_state.STATE_FILE)):
            return os.path.abspath(d), meta
    why = ("it has no state/ with cmdline.json and vm.state: the cell "
           "passed, or its run had no --keep-state")
    failed = os.path.join(celldir, "state", "not-saved.txt")
    if os.path.exists(failed):
        with open(failed) as f:
            why = "the save failed: " + f.read().strip()
    raise StepError(f"{celldir}: no saved state", why,
                    "run the cell again with ./e1000e-pp run --keep-state "
                    "(only failing cells keep their state)")


def load_meta(path):
    try:
        with open(path) as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        raise StepError(f"{path}: unreadable", str(e),
                        "the state directory is damaged: save it again")
    if meta.get("format") != kept_state.FORMAT:
        raise StepError(f"{path}: format {meta.get('format')!r}",
                        f"this resume reads format {kept_state.FORMAT}",
                        "resume with the checkout that saved it")
    return meta


def check_build(meta, force):
    """The emulator, kernel and initrd that saved the state, by SHA-256."""
    build = meta.get("build", {})
    want = [(meta["qemu"], meta["qemu_sha256"], "the emulator"),
            (build.get("kernel"), build.get("kernel_sha256"),
             "the guest kernel"),
            (build.get("initrd"), build.get("initrd_sha256"),
             "the guest initrd")]
    for path, digest, what in want:
        if not path or not os.path.exists(path):
            raise StepError("build mismatch",
                            f"{what} {path} is gone (the state was saved "
                            "with it)", "rebuild the checkout that saved "
                            "the state (./e1000e-pp setup)")
        now = kept_state.sha256(path)
        if now != digest and not force:
            raise StepError("build mismatch",
                            f"{what} {path} is not the one that saved the "
                            f"state (SHA-256 {digest[:12]}..., now "
                            f"{now[:12]}...)",
                            "rebuild the checkout that saved it, or "
                            "--force to try (the load may be refused, or "
                            "the device may not be where it was)")


def qemu_argv(meta, state_file, sockdir, run_dir, gdb_port, run):
    """The saving run's arguments with this resume's paths, plus the
    incoming state, the monitors and the gdbstub; (argv, dropped)."""
    old_sock, old_con = meta["sockdir"], meta["console"]
    args, dropped = [], []
    it = iter(meta["args"])
    for a in it:
        if a in DROPPED:
            dropped += [a, next(it, "")]
            continue
        a = a.replace(old_con, str(run_dir / "console.log"))
        args.append(a.replace(old_sock, str(sockdir)))
    args += meta.get("machine_args", kept_state.MACHINE_ARGS)
    args += ["-chardev", f"socket,id=resume-qmp,path={sockdir}/resume.sock,"
             "server=on,wait=off", "-mon", "chardev=resume-qmp,mode=control",
             "-qmp", f"unix:{sockdir}/qmp.sock,server=on,wait=off",
             "-monitor", f"unix:{sockdir}/monitor.sock,server=on,wait=off",
             "-gdb", f"tcp:127.0.0.1:{gdb_port}",
             "-incoming", f"file:{state_file}"]
    if not run:
        args.append("-S")
    return [meta["qemu"]] + args, dropped


class Resumed:
    """The resumed QEMU and its peer."""

    def __init__(self, proc, qmp, peer, log):
        self.proc, self.qmp, self.peer, self.log = proc, qmp, peer, log

    def tail(self, n=15):
        try:
            with open(self.log, errors="replace") as f:
                return f.read().splitlines()[-n:]
        except OSError:
            return []


def _connect_qmp(path, proc, deadline):
    harness.qemu_python()
    from qemu.qmp.legacy import QEMUMonitorProtocol
    while True:
        if proc.poll() is not None:
            return None
        if os.path.exists(path):
            try:
                q = QEMUMonitorProtocol(path)
                q.connect()
                return q
            except Exception:       # qemu.qmp's ConnectError, OSError
                pass
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def wait_loaded(r, deadline):
    """'paused' or 'running' once the incoming state is in; None if QEMU
    exited or the time ran out."""
    while r.proc.poll() is None and time.monotonic() < deadline:
        try:
            status = r.qmp.cmd("query-status")["status"]
        except Exception:           # QEMU went away under the command
            time.sleep(0.1)
            continue
        if status not in ("inmigrate", "prelaunch"):
            return status
        time.sleep(0.05)
    return None


def compare_registers(r, state_dir):
    """Saved and loaded REGISTERS: (same, differing [(name, saved, now)])."""
    with open(os.path.join(state_dir, "registers.json")) as f:
        saved = json.load(f)
    bar0 = kept_state.find_bar0(_Hmp(r.qmp), "nic0")
    now = kept_state.read_registers(_Hmp(r.qmp), bar0,
                                    list(saved["registers"]))
    diff = [(k, v, now[k]) for k, v in saved["registers"].items()
            if now[k] != v]
    return len(saved["registers"]) - len(diff), diff, bar0


class _Hmp:
    """The legacy QMP client as snapshot's execute() wants it."""

    def __init__(self, q):
        self.q = q

    def execute(self, cmd, **args):
        ret = self.q.cmd_raw(cmd, args) if hasattr(self.q, "cmd_raw") \
            else self.q.cmd(cmd, args)
        if "error" in ret:
            raise harness.HarnessError(f"QMP {cmd}: {ret['error']}")
        return ret["return"]


def _forward_stdin(peer):
    """Lines typed are peer commands; their answers are printed."""
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            print(json.dumps(peer.command(line)), flush=True)
        except harness.HarnessError as e:
            print(f"peer: {e}", flush=True)


def run(args):
    state_dir, meta_path = state_dir_of(args.celldir)
    meta = load_meta(meta_path)
    check_build(meta, args.force)
    state_file = os.path.join(state_dir, meta.get("state_file",
                                                  kept_state.STATE_FILE))
    celldir = os.path.dirname(state_dir) \
        if os.path.basename(state_dir) == "state" else state_dir
    from pathlib import Path
    run_dir = Path(celldir) / "resume"
    run_dir.mkdir(exist_ok=True)
    gdb_port = args.gdb_port or ports.free_port()
    try:
        peer_bin = harness.peer_binary(harness.repo_paths())
    except harness.HarnessError as e:
        raise StepError("cannot build the traffic peer", str(e),
                        "install libpcap-dev (./e1000e-pp setup does)")
    sockdir = Path(tempfile.mkdtemp(prefix="e1000epp-resume-"))
    argv, dropped = qemu_argv(meta, state_file, sockdir, run_dir, gdb_port,
                              args.run)
    with open(run_dir / "qemu.cmdline", "w") as f:
        f.write(" ".join(argv) + "\n")
    peer = proc = qmp = None
    try:
        try:
            peer = harness.Peer(peer_bin, sockdir / "net.sock", run_dir)
        except harness.HarnessError as e:
            raise StepError("the peer did not start", str(e))
        t0 = time.monotonic()
        log = run_dir / "qemu.log"
        with open(log, "w") as out:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        deadline = time.monotonic() + LOAD_TIMEOUT
        qmp = _connect_qmp(str(sockdir / "resume.sock"), proc, deadline)
        r = Resumed(proc, qmp, peer, log)
        status = wait_loaded(r, deadline) if qmp else None
        if status is None:
            rc = proc.poll()
            raise StepError("the saved state did not load",
                            f"QEMU exited with status {rc}" if rc is not None
                            else f"not loaded in {LOAD_TIMEOUT} s",
                            "see the log; a state saved by another build "
                            "is refused (--force only tries)",
                            log=str(log), tail=r.tail())
        loaded = time.monotonic() - t0
        same = diff = None
        if status == "paused":
            same, diff, _ = compare_registers(r, state_dir)
        info = {"pid": proc.pid, "status": status,
                "load_seconds": round(loaded, 3),
                "qmp": str(sockdir / "qmp.sock"),
                "monitor": str(sockdir / "monitor.sock"),
                "gdb": f"127.0.0.1:{gdb_port}",
                "agent": str(sockdir / "agent.sock"),
                "netdev_socket": str(sockdir / "net.sock"),
                "console": str(run_dir / "console.log"),
                "peer_log": str(run_dir / "peer.log"),
                "registers_same": same,
                "registers_differing": diff, "dropped": dropped}
        with open(run_dir / "info.json", "w") as f:
            json.dump(info, f, indent=1)
        _print_info(meta, info, state_file)
        threading.Thread(target=_forward_stdin, args=(peer,),
                         daemon=True).start()
        try:
            rc = proc.wait()
        except KeyboardInterrupt:
            print("\nstopping QEMU", flush=True)
            rc = None
        print(f"QEMU exited ({rc})", flush=True)
        return 0
    finally:
        if qmp:
            try:
                qmp.close()
            except Exception:       # QEMU gone: EOF on the socket
                pass
        if proc and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if peer:
            peer.close()
        shutil.rmtree(sockdir, ignore_errors=True)


def _print_info(meta, info, state_file):
    saved = meta.get("saved", {})
    regs = ""
    if info["registers_same"] is not None:
        d = info["registers_differing"]
        regs = (f"; {info['registers_same']} device registers as saved" +
                ("" if not d else ", differing: " + ", ".join(
                    f"{k} {a:#x}->{b:#x}" for k, a, b in d)))
    lines = [
        f"[resume] {meta.get('cell') or state_file}: {meta['device']} "
        f"loaded in {info['load_seconds']:.1f}s from {state_file} "
        f"({saved.get('state_bytes', 0) / 1e6:.0f} MB, saved "
        f"{saved.get('utc', '?')}){regs}",
        f"[resume] guest {info['status']}" +
        (": `cont` in the monitor (or QMP) lets it run" if
         info["status"] == "paused" else ""),
        f"  QMP       {info['qmp']}   (e.g. socat - UNIX-CONNECT:...)",
        f"  monitor   {info['monitor']}",
        f"  gdb       gdb -ex 'target remote {info['gdb']}' "
        f"{meta['build']['kernel']}",
        f"  agent     {info['agent']}   (the guest's agent, ttyS1: "
        "HELLO, SH <command>, ...)",
        f"  console   {info['console']}",
        f"  peer      {info['netdev_socket']} (a fresh one; log "
        f"{info['peer_log']}); lines typed here are its commands",
        "[resume] ready; quit in the monitor or Ctrl-C ends it",
    ]
    if info["dropped"]:
        lines.insert(1, "[resume] left out of the command line: " +
                     " ".join(info["dropped"]))
    print("\n".join(lines), flush=True)
