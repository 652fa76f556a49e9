# SPDX-License-Identifier: GPL-2.0-or-later
"""A guest directory that boots another's kernel with its initramfs
plus some files: the base initrd.img followed by an uncompressed newc
archive of them (Linux unpacks concatenated archives in order, a later
file over an earlier one). `mutate` adds its mutants' modules this way,
the allocation-failure cells the fault injector."""

import os

from e1000epp.image.cpio import Cpio

# Linked, not copied: the kernel and what describes the base guest.
LINKED = ("vmlinux", "vmlinuz", "manifest.json", "inputs.json")


def overlay(base_dir, out_dir, files):
    """out_dir booting base_dir's kernel and initramfs plus {guest path:
    host path}; returns out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    for f in LINKED:
        src = os.path.join(base_dir, f)
        dst = os.path.join(out_dir, f)
        if os.path.lexists(dst):
            os.unlink(dst)
        if os.path.exists(src):
            os.symlink(os.path.abspath(src), dst)
    c = Cpio()
    for guest_path, path in sorted(files.items()):
        with open(path, "rb") as f:
            c.file(guest_path, f.read())
    with open(os.path.join(base_dir, "initrd.img"), "rb") as f:
        data = f.read()
    tmp = os.path.join(out_dir, "initrd.img.tmp")
    with open(tmp, "wb") as f:
        f.write(data + b"\0" * (-len(data) % 4) + c.bytes())
    os.replace(tmp, os.path.join(out_dir, "initrd.img"))
    return out_dir
