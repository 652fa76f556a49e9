# SPDX-License-Identifier: GPL-2.0-or-later
"""A kernel and its modules: module names and contents (compressed or
not), .modinfo fields, the load order from modules.dep, and what a
bzImage holds (its release string, the kernel it decompresses to, and
whether that kernel has a PVH entry point)."""

import gzip
import lzma
import os
import re
import struct
import subprocess
import zlib
from pathlib import Path

from e1000epp.image.build_tools import GuestBuildError, run


# In the module directory made of a built kernel tree (run --kernel-tree):
# its modules are found by name, their dependencies by their modinfo.
KERNEL_TREE_MARK = ".e1000epp-kernel-tree"


def module_name(path):
    base = os.path.basename(str(path))
    base = re.sub(r"\.ko(\.(xz|zst|gz))?$", "", base)
    return base.replace("-", "_")


def module_bytes(path):
    """Contents of a module, decompressed."""
    path = str(path)
    if path.endswith(".xz"):
        with lzma.open(path) as f:
            return f.read()
    if path.endswith(".gz"):
        with gzip.open(path) as f:
            return f.read()
    if path.endswith(".zst"):
        try:
            return subprocess.run(["zstd", "-dc", path], check=True,
                                  stdout=subprocess.PIPE).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            raise GuestBuildError(f"cannot decompress {path}: {e}")
    with open(path, "rb") as f:
        return f.read()


def modinfo(data, key):
    m = re.search(rb"(?:^|\0)" + key.encode() + rb"=([^\0]*)\0", data)
    return m.group(1).decode(errors="replace") if m else None


class ModuleTree:
    """Modules of one kernel: an override directory searched first, then the
    kernel's own tree with its modules.dep (made with depmod if missing)."""

    def __init__(self, tree, release, override, log):
        self.release = release
        self.paths = {}
        self.deps = {}
        self.builtin = set()
        self.log = log
        if tree is not None:
            self._load_tree(tree)
        if override is not None:
            for p in sorted(Path(override).rglob("*.ko*")):
                if re.search(r"\.ko(\.(xz|zst|gz))?$", p.name):
                    self.paths[module_name(p)] = p
                    self.deps.pop(module_name(p), None)

    def _load_tree(self, tree):
        dep = tree / "modules.dep"
        if not dep.exists() and (tree / KERNEL_TREE_MARK).exists():
            # A built kernel tree's modules (run --kernel-tree): no
            # depmod has run; each module's "depends" (modinfo) says.
            # A Debian package's tree (modules.order, no modules.dep
            # until installed) gets its depmod below.
            for p in sorted(tree.rglob("*.ko*")):
                if re.search(r"\.ko(\.(xz|zst|gz))?$", p.name):
                    self.paths.setdefault(module_name(p), p)
            self._load_builtin(tree)
            return
        if not dep.exists():
            root = tree.parent.parent.parent    # <root>/lib/modules/<rel>
            self.log(f"guest: depmod for {self.release}")
            run(["depmod", "-b", str(root), self.release],
                what=f"depmod -b {root} {self.release}")
        for line in dep.read_text().splitlines():
            mod, _, deps = line.partition(":")
            name = module_name(mod)
            self.paths[name] = tree / mod
            self.deps[name] = [module_name(d) for d in deps.split()]
        self._load_builtin(tree)

    def _load_builtin(self, tree):
        builtin = tree / "modules.builtin"
        if builtin.exists():
            self.builtin = {module_name(m)
                            for m in builtin.read_text().split()}

    def deps_of(self, name):
        if name not in self.deps:
            depends = modinfo(module_bytes(self.paths[name]), "depends")
            self.deps[name] = [module_name(d) for d in
                               (depends or "").split(",") if d]
        return self.deps[name]

    def load_order(self, name, order, seen):
        """Append name's dependencies, then name, to order (paths)."""
        if name in seen:
            return
        seen.add(name)
        for dep in self.deps_of(name):
            if dep not in self.paths:
                if dep in self.builtin:
                    continue
                raise GuestBuildError(f"module {name} needs {dep}, which is "
                                      "neither a module here nor built in")
            self.load_order(dep, order, seen)
        order.append(name)


def bzimage_release(path):
    """Kernel release string from a bzImage's setup header ("" when it
    holds none), or None when the file is no bzImage."""
    with open(path, "rb") as f:
        data = f.read(0x10000)
    if len(data) < 0x210 or data[0x202:0x206] != b"HdrS":
        return None
    off = int.from_bytes(data[0x20e:0x210], "little") + 0x200
    text = data[off:off + 256].split(b"\0")[0].decode(errors="replace")
    return text.split()[0] if text else ""


def bzimage_payload(path):
    """The decompressed kernel inside the bzImage at path, or None if its
    compression is not one we can read (gzip, xz, zstd)."""
    with open(path, "rb") as f:
        return bzimage_payload_bytes(f.read())


def bzimage_payload_bytes(data):
    """bzimage_payload() of a bzImage's bytes."""
    if len(data) < 0x250:
        return None
    # The compressed kernel follows the real-mode setup sectors.
    setup_sects = data[0x1f1] or 4
    start = (setup_sects + 1) * 512
    for magic, kind in ((b"\xfd7zXZ\x00", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"),
                        (b"\x1f\x8b\x08", "gzip")):
        at = data.find(magic, start)
        if at < 0 or at > start + 0x100000:
            continue
        try:
            if kind == "xz":
                return lzma.LZMADecompressor().decompress(data[at:])
            if kind == "gzip":
                return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(
                    data[at:])
            return subprocess.run(["zstd", "-dc"], input=data[at:],
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL).stdout or None
        except (lzma.LZMAError, zlib.error, OSError):
            continue
    return None


PT_NOTE = 4
XEN_ELFNOTE_PHYS32_ENTRY = 18


def has_pvh_entry(elf):
    """Whether elf (bytes) is a 64-bit x86 kernel with a PVH entry point
    (CONFIG_PVH: a "Xen" note of type XEN_ELFNOTE_PHYS32_ENTRY), which
    QEMU's -kernel boots directly, without the bzImage decompressor."""
    if len(elf) < 64 or elf[:4] != b"\x7fELF" or elf[4] != 2 or \
            elf[5] != 1 or struct.unpack_from("<H", elf, 0x12)[0] != 0x3e:
        return False
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    if phentsize < 56 or phoff + phnum * phentsize > len(elf):
        return False
    for i in range(phnum):
        ptype, = struct.unpack_from("<I", elf, phoff + i * phentsize)
        off, = struct.unpack_from("<Q", elf, phoff + i * phentsize + 8)
        size, = struct.unpack_from("<Q", elf, phoff + i * phentsize + 32)
        if ptype != PT_NOTE or off + size > len(elf):
            continue
        at, end = off, off + size
        while at + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, at)
            name = elf[at + 12:at + 12 + namesz].rstrip(b"\0")
            if name == b"Xen" and ntype == XEN_ELFNOTE_PHYS32_ENTRY:
                return True
            at += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False
