# SPDX-License-Identifier: GPL-2.0-or-later
"""Building mutants: the unmutated driver once, then each mutant by
recompiling only the objects its file feeds.

The unmutated build is image/user_kernel.build_driver (the code path
`run --driver-src` builds with, one job: the machine is shared), in
OUT/build/driver-build. A mutant is written into that tree, its
object(s) rebuilt with the same Kbuild command (user_kernel.kbuild_argv
with the object as target: `make -C HEADERS M=DIR netdev.o`), compared
with the unmutated object, and the source put back. A header's mutant
rebuilds every object whose Kbuild dependency file (.NAME.o.cmd) names
the header.

Equivalence by identical object. Both objects are copied through
`objcopy --strip-debug --remove-section .comment --remove-section
.note*` and the copies compared byte for byte. What is removed never
reaches the code the guest runs: DWARF (debug info and its relocations),
the compiler's ident string and build notes. Everything else stays in
the comparison: every allocated section's bytes (code, data, rodata,
the bug and exception tables), the relocations against them (a call to
another function differs only there), the symbol table and the section
layout. A mutant changes no line count, so __LINE__ in WARN and
dynamic-debug records is the same in both. Two byte-identical stripped
objects therefore link into the same module, which behaves identically
under any test: the mutant is equivalent by construction and is not
run. (The converse does not hold: objects that differ may still be
equivalent; those go to the VMs.)
"""

import hashlib
import os
import shutil
import subprocess
import time

from e1000epp.common.errors import StepError
from e1000epp.image import user_kernel
from e1000epp.mutate import operators

# Without DWARF: a third less compile time, and GCC guarantees that -g
# does not change the code it generates, so the objects compared (which
# drop debug info anyway) and the modules judged are those of the
# driver's own flags. Without DWARF pahole cannot make the module's BTF
# (optional for loading a module), so that step is off.
MAKE_EXTRA = ("KCFLAGS=-g0", "CONFIG_DEBUG_INFO_BTF_MODULES=")
EQUIVALENT = "equivalent"
NOT_BUILT = "not built"
BUILT = "built"


def stripped_digest(obj, tmp_dir):
    """sha256 of `obj` without debug info, .comment and .note* (see the
    module's docstring for why that is the identity that matters)."""
    out = os.path.join(tmp_dir, "stripped.o")
    p = subprocess.run(["objcopy", "--strip-debug", "--wildcard",
                        "--remove-section", ".comment",
                        "--remove-section", ".note*", obj, out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        raise StepError(f"objcopy failed on {obj}", p.stdout.strip()[-300:],
                        "install binutils")
    with open(out, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Builder:
    """The unmutated build and the mutants' builds in one tree."""

    def __init__(self, src, headers, out_dir, log=print, module="e1000e"):
        self.src = src
        self.headers = headers
        self.out_dir = out_dir
        self.log = log
        self.module = module
        self.tree = None
        self.mdir = None
        self.base = {}            # object -> stripped digest
        self.base_ko = None

    def build_base(self):
        os.makedirs(self.out_dir, exist_ok=True)
        t0 = time.monotonic()
        self.base_ko = user_kernel.build_driver(
            self.src, self.headers, self.out_dir, self.log, jobs=1,
            module=self.module, extra=MAKE_EXTRA)
        self.tree = os.path.join(self.out_dir, "driver-build")
        self.mdir = user_kernel.kbuild_module_dir(self.tree)
        for f in sorted(os.listdir(self.mdir)):
            c = os.path.join(self.mdir, f[:-2] + ".c")
            if f.endswith(".o") and not f.endswith(".mod.o") and \
                    os.path.exists(c):
                self.base[f] = stripped_digest(os.path.join(self.mdir, f),
                                               self.out_dir)
        self.base_seconds = time.monotonic() - t0
        return self.base_ko

    def objects_of(self, rel):
        """The objects a source file of the driver feeds."""
        if rel.endswith(".c"):
            obj = rel[:-2] + ".o"
            return [obj] if obj in self.base else []
        path = os.path.realpath(os.path.join(self.mdir, rel))
        out = []
        for obj in sorted(self.base):
            d, b = os.path.split(obj)
            cmd = os.path.join(self.mdir, d, f".{b}.cmd")
            try:
                with open(cmd) as f:
                    if path in f.read():
                        out.append(obj)
            except OSError:
                pass
        return out

    def _make(self, target, log_path):
        argv = user_kernel.kbuild_argv(self.headers, self.tree, target, 1,
                                       MAKE_EXTRA)
        with open(log_path, "w") as f:
            return subprocess.run(argv, stdout=f,
                                  stderr=subprocess.STDOUT).returncode

    def build(self, mutant, lines, ko_dest=None):
        """Build one mutant of the file whose final text is `lines`.
        Returns {"verdict", "reason", "build_s", ...}: equivalent
        (identical object), not built (the compiler's first error), or
        built (with the module at ko_dest when given)."""
        t0 = time.monotonic()
        path = os.path.join(self.mdir, mutant.file)
        objs = self.objects_of(mutant.file)
        log_path = os.path.join(self.out_dir, "mutant-build.log")
        if not objs:
            return {"verdict": NOT_BUILT, "reason": f"{mutant.file} feeds "
                    "no object of the module", "build_s": 0.0}
        with open(path) as f:
            original = f.read()
        try:
            with open(path, "w") as f:
                f.write("\n".join(operators.apply(lines, mutant.edits)))
            differs = []
            for obj in objs:
                if self._make(obj, log_path) != 0:
                    return {"verdict": NOT_BUILT,
                            "reason": _first_error(log_path),
                            "build_s": round(time.monotonic() - t0, 2)}
                if stripped_digest(os.path.join(self.mdir, obj),
                                   self.out_dir) != self.base[obj]:
                    differs.append(obj)
            if not differs:
                return {"verdict": EQUIVALENT,
                        "reason": "identical object (" + ", ".join(objs) +
                        " the same without debug info)",
                        "build_s": round(time.monotonic() - t0, 2)}
            out = {"verdict": BUILT, "objects": differs}
            if ko_dest:
                if self._make("modules", log_path) != 0:
                    return {"verdict": NOT_BUILT,
                            "reason": _first_error(log_path),
                            "build_s": round(time.monotonic() - t0, 2)}
                shutil.copy(os.path.join(self.mdir, f"{self.module}.ko"),
                            ko_dest)
                out["module"] = ko_dest
            out["build_s"] = round(time.monotonic() - t0, 2)
            return out
        finally:
            with open(path, "w") as f:
                f.write(original)


def _first_error(log_path):
    try:
        with open(log_path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return "make failed"
    for ln in lines:
        if ": error:" in ln:
            return ln.split(": error:", 1)[1].strip()[:200]
    return (lines[-1] if lines else "make failed")[:200]
