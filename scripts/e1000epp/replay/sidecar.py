# SPDX-License-Identifier: GPL-2.0-or-later
"""A recording's sidecar (CELLDIR/replay/recording.json) and what is
decided from it without QEMU: the digests that tie it to the QEMU binary
and the device source that made it, the device's end state and its
digest, the first event that differs, the replay's command line.

QEMU checks only its log format's version when it opens a replay log:
a log replayed by another binary, or by one built from another device
source, runs on and diverges somewhere. The sidecar names both, and
`replay` refuses a mismatch before QEMU starts."""

import hashlib
import json
import os

from e1000epp.vm import device_events

RECORD_DIR = "replay"
SIDECAR = "recording.json"
LOG = "replay.bin"
SNAPSHOTS = "snapshots.qcow2"
FORMAT = 1
# The sidecar's fields, each required.
FIELDS = ("format", "cell", "device", "qemu", "qemu_sha256",
          "device_source_sha256", "argv", "cmdline", "icount", "events",
          "counters", "device_digest", "record_seconds", "log_bytes")


class SidecarError(Exception):
    """(what, why, fix): a recording that cannot be replayed."""


def tree_sha256(root):
    """One digest of every file under root: each file's path relative
    to root and its bytes, in path order (a file added, removed,
    renamed or changed changes it)."""
    h = hashlib.sha256()
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        files += [os.path.join(d, n) for n in names]
    for path in sorted(files, key=lambda p: os.path.relpath(p, root)):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        h.update(rel.encode() + b"\0")
        with open(path, "rb") as f:
            data = f.read()
        h.update(str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def device_digest(events, counters):
    """The device's state at the end of a recording or replay: its event
    list (lines) and its counters ({name: value}), as one SHA-256."""
    text = "\n".join(events) + "\n" + json.dumps(counters, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def first_difference(recorded, replayed):
    """None when the lists are equal; else (index, recorded line or None,
    replayed line or None) of the first line that differs."""
    for i in range(max(len(recorded), len(replayed))):
        a = recorded[i] if i < len(recorded) else None
        b = replayed[i] if i < len(replayed) else None
        if a != b:
            return i, a, b
    return None


def counter_differences(recorded, replayed):
    """[(name, recorded, replayed)] of the counters that differ."""
    return [(k, recorded.get(k), replayed.get(k))
            for k in sorted(set(recorded) | set(replayed))
            if recorded.get(k) != replayed.get(k)]


def event_icount(events, spec):
    """(instruction count, line) of the event spec names in the recorded
    event list: WORD (its first line containing WORD) or WORD:N (the
    N-th). The device stamps an event with the instruction count only
    under record/replay (hw/net/e1000e_pp/core/log.c, " icount=N")."""
    word, sep, nth = spec.rpartition(":")
    if not sep or not nth.isdigit() or not word:
        word, nth = spec, "1"
    nth = int(nth)
    if nth < 1:
        raise SidecarError(f"--break-event {spec}: events count from 1",
                           f"{nth} names no event", f"give {word}:1 or more")
    hits = [line for line in events if word in line]
    if len(hits) < nth:
        listed = "; ".join(events[:8]) or "none"
        raise SidecarError(
            f"--break-event {spec}: the recording has "
            f"{len(hits)} event(s) with {word!r}",
            f"its {len(events)} events: {listed}",
            "name a word of one of them (e.g. ctrl-rst), and :N for the "
            "N-th")
    line = hits[nth - 1]
    icount = device_events.fields(line).get("icount", "")
    if icount.isdigit():
        return int(icount), line
    raise SidecarError(f"--break-event {spec}: the event has no "
                       "instruction count", f"event: {line}",
                       "record the cell again (the device stamps events "
                       "under record/replay since 2026-12-06; stock "
                       "e1000e keeps no events)")


def sidecar_path(cell_dir):
    return os.path.join(cell_dir, RECORD_DIR, SIDECAR)


def load(cell_dir):
    """The sidecar of cell_dir's recording; SidecarError when there is
    none or it is not one this harness wrote."""
    path = sidecar_path(cell_dir)
    if not os.path.isdir(cell_dir):
        raise SidecarError(f"{cell_dir}: no such directory",
                           "replay takes a cell's directory of a report "
                           "(build/reports/<stamp>/cells/<cell>)",
                           "give the cell directory that run --record "
                           "wrote")
    if not os.path.exists(path):
        raise SidecarError(f"{cell_dir} holds no recording",
                           f"{os.path.join(RECORD_DIR, SIDECAR)} is missing",
                           "record the cell with ./e1000e-pp run --record "
                           "--only CELL")
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise SidecarError(f"{path} cannot be read", str(e),
                           "record the cell again with run --record")
    missing = [k for k in FIELDS if k not in data] \
        if isinstance(data, dict) else list(FIELDS)
    if missing:
        raise SidecarError(f"{path} is not a recording's sidecar",
                           "missing " + ", ".join(missing),
                           "record the cell again with run --record")
    if data["format"] != FORMAT:
        raise SidecarError(f"{path} has format {data['format']!r}",
                           f"this harness reads format {FORMAT}",
                           "record the cell again with run --record")
    log = os.path.join(cell_dir, RECORD_DIR, LOG)
    if not os.path.exists(log):
        raise SidecarError(f"{cell_dir} has a sidecar but no replay log",
                           f"{os.path.join(RECORD_DIR, LOG)} is missing",
                           "record the cell again with run --record")
    return data


def check_build(data, qemu_sha256, source_sha256):
    """SidecarError when the recording was made by another QEMU binary
    or from another device source than the ones given (today's)."""
    if data["qemu_sha256"] != qemu_sha256:
        raise SidecarError(
            "the recording was made by another QEMU binary",
            f"recorded with {data['qemu']} of SHA-256 "
            f"{data['qemu_sha256'][:16]}..., the QEMU here is "
            f"{qemu_sha256[:16]}... (QEMU checks only its log format, a "
            "replay on another binary diverges)",
            "replay with the binary that recorded it, or record the cell "
            "again with run --record")
    if data["device_source_sha256"] != source_sha256:
        raise SidecarError(
            "the recording was made from another device source",
            f"hw/net/e1000e_pp digested {data['device_source_sha256'][:16]}"
            f"... when recorded, {source_sha256[:16]}... now",
            "check out the device source it was recorded with, or record "
            "the cell again with run --record")


def _set_opt(value, key, new):
    """value (a QEMU option string a=b,c=d) with key set to new."""
    parts = value.split(",")
    out = [f"{key}={new}" if p.split("=", 1)[0] == key else p
           for p in parts]
    if not any(p.split("=", 1)[0] == key for p in parts):
        out.append(f"{key}={new}")
    return ",".join(out)


def _opt(value, key):
    for p in value.split(","):
        k, sep, v = p.partition("=")
        if sep and k == key:
            return v
    return None


def replay_argv(argv, log, sockdir, out_dir):
    """The recording's QEMU arguments (harness.Vm.argv) for its replay:
    -icount rr=replay on log; the unix sockets (the agent's chardev, the
    netdev's peer) moved into sockdir, where nobody listens or connects
    (their input is in the log; what the guest writes goes nowhere); the
    console and QEMU's trace log (-D) into out_dir; the snapshot image
    (recording.snapshot_image) the one beside log."""
    out = list(argv)
    for i in range(len(out) - 1):
        flag, value = out[i], out[i + 1]
        if flag == "-icount":
            value = _set_opt(_set_opt(value, "rr", "replay"), "rrfile", log)
        elif flag == "-chardev" and value.startswith("socket,"):
            path = _opt(value, "path")
            if path:
                value = _set_opt(value, "path", os.path.join(
                    sockdir, os.path.basename(path)))
        elif flag == "-chardev" and value.startswith("file,"):
            cid = _opt(value, "id")
            value = _set_opt(value, "path", os.path.join(
                out_dir, f"{cid}.log" if cid != "con" else "console.log"))
        elif flag == "-netdev" and _opt(value, "addr.path"):
            value = _set_opt(value, "addr.path", os.path.join(
                sockdir, os.path.basename(_opt(value, "addr.path"))))
        elif flag == "-D":
            value = os.path.join(out_dir, os.path.basename(value))
        elif flag == "-drive" and _opt(value, "id") == "rrsnap":
            value = _set_opt(value, "file", os.path.join(
                os.path.dirname(log), SNAPSHOTS))
        out[i + 1] = value
    if not any(a == "-icount" for a in out):
        raise SidecarError("the recording's command line has no -icount",
                           "it was not made by run --record",
                           "record the cell again with run --record")
    return out
