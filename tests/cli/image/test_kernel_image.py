# SPDX-License-Identifier: GPL-2.0-or-later
"""What the guest builder reads from a kernel image (kernel_modules.py): the kernel
a bzImage decompresses to, and whether it has a PVH entry point; and the
vmlinux it writes beside the bzImage for the harness to boot (image/guest_image.py).

The images are built here byte by byte from the formats' own
definitions: the x86 boot protocol (setup_sects at 0x1f1, the compressed
kernel after the setup sectors), the ELF-64 header and program headers,
and Xen's ELF note XEN_ELFNOTE_PHYS32_ENTRY = 18 (xen/include/public/
elfnote.h), the note Linux's CONFIG_PVH adds.
"""

import gzip
import os
import lzma
import struct

from e1000epp.image import guest_image, kernel_modules
PT_LOAD, PT_NOTE = 1, 4
EM_X86_64, EM_AARCH64 = 0x3e, 0xb7


def note(name, ntype, desc):
    name = name + b"\0"
    pad = (lambda b: b + b"\0" * (-len(b) % 4))
    return struct.pack("<III", len(name), len(desc), ntype) + pad(name) + \
        pad(desc)


def elf64(notes=b"", machine=EM_X86_64, phnum_claimed=None):
    """A minimal ELF-64 file: a PT_LOAD and, if notes, a PT_NOTE."""
    phdrs = [(PT_LOAD, 0, 0)]
    if notes:
        phdrs.append((PT_NOTE, 64 + 56 * 2, len(notes)))
    ehdr = b"\x7fELF" + bytes([2, 1, 1]) + b"\0" * 9
    ehdr += struct.pack("<HHIQQQIHHHHHH", 2, machine, 1, 0, 64, 0, 0, 64,
                        56, phnum_claimed or len(phdrs), 0, 0, 0)
    ph = b"".join(struct.pack("<IIQQQQQQ", t, 0, off, 0, 0, size, size, 8)
                  for t, off, size in phdrs)
    if len(phdrs) == 1:
        ph += b"\0" * 56
    return ehdr + ph + notes


PVH_NOTE = note(b"Xen", 18, struct.pack("<Q", 0x1000000))


def bzimage(payload, setup_sects=1, gap=16):
    """Boot sector and setup sectors, then the compressed kernel."""
    head = bytearray(512 * (setup_sects + 1))
    head[0x1f1] = setup_sects
    head[0x202:0x206] = b"HdrS"
    return bytes(head) + b"\0" * gap + payload


def test_a_kernel_with_the_xen_phys32_entry_note_has_a_pvh_entry():
    assert kernel_modules.has_pvh_entry(elf64(PVH_NOTE))
    other = note(b"GNU", 3, b"\x01" * 20) + PVH_NOTE
    assert kernel_modules.has_pvh_entry(elf64(other))


def test_no_pvh_entry_without_that_note_or_on_another_machine():
    assert not kernel_modules.has_pvh_entry(elf64())
    # XEN_ELFNOTE_ENTRY (1) is the PV entry, not PVH's
    assert not kernel_modules.has_pvh_entry(elf64(note(b"Xen", 1, b"\0" * 8)))
    assert not kernel_modules.has_pvh_entry(elf64(note(b"GNU", 18, b"\0" * 8)))
    assert not kernel_modules.has_pvh_entry(
        elf64(PVH_NOTE, machine=EM_AARCH64))


def test_truncated_or_foreign_files_are_no_pvh_kernel():
    assert not kernel_modules.has_pvh_entry(b"")
    assert not kernel_modules.has_pvh_entry(b"MZ" + b"\0" * 100)
    assert not kernel_modules.has_pvh_entry(elf64(PVH_NOTE)[:100])
    assert not kernel_modules.has_pvh_entry(elf64(PVH_NOTE, phnum_claimed=900))


def test_bzimage_payload_decompresses_xz_and_gzip():
    kernel = elf64(PVH_NOTE) + bytes(range(256)) * 64
    for packed in (lzma.compress(kernel, format=lzma.FORMAT_XZ),
                   gzip.compress(kernel, mtime=0)):
        # the build appends the uncompressed size after the stream
        image = bzimage(packed + struct.pack("<I", len(kernel)))
        assert kernel_modules.bzimage_payload_bytes(image) == kernel


def test_bzimage_payload_is_none_for_an_unknown_compression():
    assert kernel_modules.bzimage_payload_bytes(bzimage(b"\x02\x21\x4c\x18" +
                                                        b"\0" * 64)) is None
    assert kernel_modules.bzimage_payload_bytes(b"\0" * 100) is None


def test_builder_writes_vmlinux_only_for_a_pvh_kernel(tmp_path):
    lines = []
    pvh = elf64(PVH_NOTE)
    (tmp_path / "vmlinuz").write_bytes(bzimage(gzip.compress(pvh)))
    assert guest_image._write_vmlinux(tmp_path / "vmlinuz",
                                      tmp_path / "vmlinux", lines.append) == "pvh"
    assert (tmp_path / "vmlinux").read_bytes() == pvh
    assert lines == []

    # another kernel without CONFIG_PVH: the old vmlinux must not stay
    (tmp_path / "vmlinuz").write_bytes(bzimage(gzip.compress(elf64())))
    assert guest_image._write_vmlinux(tmp_path / "vmlinuz", tmp_path / "vmlinux",
                                      lines.append) == "bzimage"
    assert not (tmp_path / "vmlinux").exists()
    assert lines == ["guest: the kernel has no PVH entry point: it boots "
                     "as a bzImage"]


def test_the_same_driver_is_built_once_per_image(tmp_path, monkeypatch):
    from e1000epp.image import user_kernel
    built = []

    def build(src, headers, out, log):
        built.append(headers)
        ko = tmp_path / f"e1000e-{len(built)}.ko"
        ko.write_bytes(b"\x7fELF")
        return str(ko)
    monkeypatch.setattr(user_kernel, "build_driver", build)
    out = str(tmp_path)
    first = user_kernel._built_driver("src", "/h/6.12", out, print)
    assert user_kernel._built_driver("src", "/h/6.12", out, print) == first
    assert built == ["/h/6.12"]
    # Other headers: built again; a module gone: built again.
    user_kernel._built_driver("src", "/h/other", out, print)
    os.unlink(tmp_path / "e1000e-2.ko")
    user_kernel._built_driver("src", "/h/other", out, print)
    assert built == ["/h/6.12", "/h/other", "/h/other"]


def fake_module(path, depends):
    """A module's bytes as far as the lookup reads them: its .modinfo
    strings (NUL-terminated key=value, include/linux/moduleparam.h)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"\0license=GPL\0depends=" + depends.encode() + b"\0name=x\0"
    if path.name.endswith(".xz"):
        data = lzma.compress(data)
    path.write_bytes(data)


def test_a_built_kernel_trees_modules_load_by_their_depends(tmp_path):
    """run --kernel-tree: no modules.dep, compressed or not, the order
    from each module's depends (the series' e1000e needs libeth)."""
    tree = tmp_path / "farm"
    fake_module(tree / "drivers/net/intel/e1000e/e1000e.ko", "libeth")
    fake_module(tree / "drivers/net/intel/libeth/libeth.ko.xz", "")
    (tree / "modules.order").write_text("")
    (tree / "modules.builtin").write_text("kernel/lib/crc32.ko\n")
    (tree / kernel_modules.KERNEL_TREE_MARK).write_text(str(tree) + "\n")
    mods = kernel_modules.ModuleTree(tree, "6.12.0", None, print)
    order = []
    mods.load_order("e1000e", order, set())
    assert order == ["libeth", "e1000e"]


def test_a_debian_packages_tree_gets_its_depmod(tmp_path, monkeypatch):
    """linux-image-*.deb ships modules.order and modules.builtin but no
    modules.dep (dpkg's postinst runs depmod): the lookup runs depmod
    over the unpacked tree, whatever its modules are compressed with."""
    root = tmp_path / "unpacked"
    tree = root / "lib" / "modules" / "6.12.95+deb12-amd64"
    fake_module(tree / "kernel/drivers/e1000e/e1000e.ko.xz", "libeth")
    fake_module(tree / "kernel/drivers/libeth/libeth.ko.xz", "")
    (tree / "modules.order").write_text("")
    (tree / "modules.builtin").write_text("")
    calls = []

    def depmod(argv, what):
        calls.append(argv)
        (tree / "modules.dep").write_text(
            "kernel/drivers/e1000e/e1000e.ko.xz: "
            "kernel/drivers/libeth/libeth.ko.xz\n"
            "kernel/drivers/libeth/libeth.ko.xz:\n")
    monkeypatch.setattr(kernel_modules, "run", depmod)
    mods = kernel_modules.ModuleTree(tree, "6.12.95+deb12-amd64", None,
                                     print)
    assert calls == [["depmod", "-b", str(root), "6.12.95+deb12-amd64"]]
    order = []
    mods.load_order("e1000e", order, set())
    assert order == ["libeth", "e1000e"]
