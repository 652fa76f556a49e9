# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver's symbols in a recording, so that a replay stops at a
function by name and gdb shows names, not addresses.

At the recording's end (recording.Recorder.finish, before the VM
stops) the guest is asked for the e1000e module as the kernel loaded it:
its symbols (/proc/kallsyms, the module's lines) and its section
addresses (/sys/module/e1000e/sections/). The module file the image
loaded (its manifest's source, decompressed) is copied beside them.
Then:

  symbols.txt     the module's kallsyms lines: ADDRESS TYPE NAME [e1000e]
  sections.json   {section: address} of the loaded module
  e1000e.ko       the module file, for gdb's add-symbol-file

A module reloaded during the cell (a cell's rmmod/insmod) has the
addresses of its last load: the function names hold from that load
on."""

import json
import os
import re

from e1000epp.image import kernel_modules

MODULE = "e1000e"
SYMBOLS = "symbols.txt"
SECTIONS = "sections.json"
KO = f"{MODULE}.ko"


class SymbolError(Exception):
    """(what, why, fix) of a symbol that cannot be resolved."""


def capture(vm, out_dir):
    """Ask the guest, copy the module; returns what was written (a list
    of file names), empty when the guest has no e1000e module loaded."""
    _, text = vm.agent.sh(
        f"grep '\\[{MODULE}\\]$' /proc/kallsyms; true", check=False)
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return []
    _, text = vm.agent.sh(
        f"cd /sys/module/{MODULE}/sections && for f in .* *; do "
        "[ -f \"$f\" ] && echo \"$f $(cat \"$f\")\"; done; true",
        check=False)
    sections = {}
    for line in text.splitlines():
        name, _, addr = line.strip().rpartition(" ")
        if name and addr.startswith("0x"):
            sections[name] = addr
    with open(os.path.join(out_dir, SYMBOLS), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out_dir, SECTIONS), "w") as f:
        json.dump(sections, f, indent=1, sort_keys=True)
    written = [SYMBOLS, SECTIONS]
    source = module_source(vm.guest_dir)
    if source:
        dest = os.path.join(out_dir, KO)
        with open(dest, "wb") as f:
            f.write(kernel_modules.module_bytes(source))
        written.append(KO)
    return written


def module_source(guest_dir):
    """The e1000e file the image put in its initrd (manifest.json), or
    None (a kernel with e1000e built in, an image without a manifest)."""
    try:
        with open(os.path.join(guest_dir, "manifest.json")) as f:
            mods = json.load(f).get("modules", [])
    except (OSError, ValueError):
        return None
    for m in mods:
        if m.get("name") == MODULE and os.path.isfile(m.get("source", "")):
            return m["source"]
    return None


def load(rec_dir):
    """{name: address} of the recording's module symbols (text ones)."""
    out = {}
    try:
        with open(os.path.join(rec_dir, SYMBOLS)) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[1] in "tTwW":
                    out.setdefault(parts[2], int(parts[0], 16))
    except (OSError, ValueError):
        pass
    return out


def resolve(rec_dir, name):
    """The address of function name in the recorded module."""
    syms = load(rec_dir)
    if not syms:
        raise SymbolError(
            "the recording has no symbols of the e1000e module",
            f"no {SYMBOLS} in {rec_dir} (recorded before symbols were "
            "kept, or the guest had no e1000e module loaded)",
            "record the cell again with run --record")
    if name not in syms:
        near = sorted(n for n in syms if name in n or n in name)[:6]
        raise SymbolError(
            f"no function {name!r} in the recorded e1000e module",
            f"{len(syms)} functions; " + (f"close: {', '.join(near)}"
                                          if near else "none is close"),
            f"see {os.path.join(rec_dir, SYMBOLS)}")
    return syms[name]


def gdb_script(rec_dir, port):
    """gdb commands: connect to the replay's gdbstub and load the
    module's symbols at their recorded addresses (when the module file
    is in the recording)."""
    lines = [f"target remote 127.0.0.1:{port}"]
    ko = os.path.join(rec_dir, KO)
    try:
        with open(os.path.join(rec_dir, SECTIONS)) as f:
            sections = json.load(f)
    except (OSError, ValueError):
        sections = {}
    if os.path.isfile(ko) and ".text" in sections:
        extra = " ".join(f"-s {name} {addr}"
                         for name, addr in sorted(sections.items())
                         if name not in (".text", ".symtab", ".strtab")
                         and not name.startswith((".note", "__", ".gnu")))
        lines.insert(0, f"add-symbol-file {ko} {sections['.text']} {extra}"
                     .rstrip())
    return "\n".join(lines) + "\n"


def hit_icount(gdb_output):
    """The instruction counts gdb's `monitor info replay` printed."""
    return [int(n) for n in re.findall(r"instruction count = (\d+)",
                                       gdb_output)]
