# SPDX-License-Identifier: GPL-2.0-or-later
"""The shared libraries a guest program loads: ELF NEEDED entries and the
program interpreter (readelf), followed recursively through the unpacked
Debian packages, fetching the package that holds a library when none
has it yet (dpkg -S on this host)."""

import os
import re
import subprocess

from e1000epp.image.build_tools import GuestBuildError, run

LIB_DIR = "lib/x86_64-linux-gnu"


def _elf_needed(path):
    out = run(["readelf", "-d", "-W", str(path)], what=f"readelf -d {path}")
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def _elf_interp(path):
    out = run(["readelf", "-l", "-W", str(path)], what=f"readelf -l {path}")
    m = re.search(r"Requesting program interpreter: ([^\]]+)\]", out)
    return m.group(1) if m else None


def _package_of_library(soname):
    """Debian package holding soname on this host (dpkg -S)."""
    proc = subprocess.run(["dpkg", "-S", soname], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    for line in proc.stdout.splitlines():
        pkgs, _, path = line.partition(": ")
        if path.endswith(f"/x86_64-linux-gnu/{soname}") or \
                path == f"/lib64/{soname}":
            return pkgs.split(",")[0].split(":")[0].strip()
    raise GuestBuildError(f"no Debian package on this host provides {soname}"
                          " (needed by a guest program)")


def _find_library(roots, soname):
    for root in roots:
        for d in (LIB_DIR, "usr/" + LIB_DIR, "lib64", "lib"):
            p = root / d / soname
            if p.exists():
                return p
    return None


def library_closure(programs, pkgs):
    """{soname: file} for every library the programs load, recursively,
    plus {"@interp": (guest path, file)}; fetches packages as needed."""
    libs = {}
    interp = None
    todo = list(programs)
    while todo:
        elf = todo.pop()
        want = _elf_interp(elf)
        if want and interp is None:
            interp = want
        for soname in _elf_needed(elf):
            if soname in libs:
                continue
            found = _find_library(pkgs.roots.values(), soname)
            if found is None:
                pkgs.unpack(_package_of_library(soname))
                found = _find_library(pkgs.roots.values(), soname)
            if found is None:
                raise GuestBuildError(f"{soname} not found in the unpacked "
                                      "packages")
            libs[soname] = found
            todo.append(found.resolve())
    if interp:
        name = os.path.basename(interp)
        found = libs.get(name) or _find_library(pkgs.roots.values(), name)
        if found is None:
            raise GuestBuildError(f"program interpreter {interp} not found")
        libs["@interp"] = (interp.lstrip("/"), found)
    return libs
