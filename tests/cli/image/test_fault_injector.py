# SPDX-License-Identifier: GPL-2.0-or-later
"""The fault injector's guest (image/fault_injector.py,
image/guest_overlay.py): the injector's module added to a guest's
initramfs as a second newc archive after the first (the layout Linux's
initramfs unpacker reads: "070701" headers, names NUL-terminated,
header and name padded to 4 bytes, data padded to 4, "TRAILER!!!"
last), the headers a user kernel's guest builds it against, and which
cells ask for it.
"""

import json

import pytest

from e1000epp.common.errors import StepError
from e1000epp.image import fault_injector, guest_overlay
from e1000epp.matrix import cell_model


def newc_files(data):
    """{name: contents} of the newc archives in data (read by hand)."""
    out, at = {}, 0
    while True:
        at = data.find(b"070701", at)
        if at < 0:
            return out
        fields = [int(data[at + 6 + 8 * i:at + 14 + 8 * i], 16)
                  for i in range(13)]
        size, namesize = fields[6], fields[11]
        name = data[at + 110:at + 110 + namesize - 1].decode()
        start = at + 110 + namesize
        start += -start % 4
        out[name] = data[start:start + size]
        at = start + size


def test_overlay_appends_the_files_after_the_base_archive(tmp_path):
    base, out = tmp_path / "base", tmp_path / "out"
    base.mkdir()
    (base / "initrd.img").write_bytes(b"\x1f\x8b" + b"z" * 13)  # 15 bytes
    (base / "vmlinuz").write_bytes(b"kernel")
    (base / "manifest.json").write_text('{"kernel": {"release": "r"}}')
    ko = tmp_path / "e1000epp_fail.ko"
    ko.write_bytes(b"\x7fELF module")
    guest_overlay.overlay(str(base), str(out),
                          {fault_injector.GUEST_PATH: str(ko)})
    data = (out / "initrd.img").read_bytes()
    # The base untouched, a NUL to the next multiple of 4, then newc.
    assert data[:16] == b"\x1f\x8b" + b"z" * 13 + b"\0"
    assert data[16:22] == b"070701"
    files = newc_files(data[16:])
    assert files["lib/modules/e1000epp/e1000epp_fail.ko"] == \
        b"\x7fELF module"
    assert "TRAILER!!!" in files
    assert (out / "vmlinuz").resolve() == (base / "vmlinuz").resolve()
    assert json.loads((out / "manifest.json").read_text()) == \
        {"kernel": {"release": "r"}}
    assert not (out / "vmlinux").exists()


def test_user_kernel_without_a_build_tree_is_refused(tmp_path):
    (tmp_path / "inputs.json").write_text(json.dumps(
        {"args": {"kernel": "/k/bzImage", "modules": None}}))
    with pytest.raises(StepError) as e:
        fault_injector.headers_for(str(tmp_path), "6.18.0", print)
    assert "cannot build the fault injector for kernel 6.18.0" in \
        str(e.value)


def test_a_kernel_tree_is_its_own_headers(tmp_path):
    (tmp_path / "inputs.json").write_text(json.dumps(
        {"args": {"kernel": "/k/bzImage", "kernel_tree": "/src/linux"}}))
    assert fault_injector.headers_for(str(tmp_path), "6.18.0", print) == \
        "/src/linux"


def test_a_user_kernel_builds_against_its_modules_build_link(tmp_path):
    mods = tmp_path / "lib-modules"
    (mods / "build").mkdir(parents=True)
    (tmp_path / "inputs.json").write_text(json.dumps(
        {"args": {"kernel": "/k/bzImage", "modules": str(mods)}}))
    assert fault_injector.headers_for(str(tmp_path), "6.18.0", print) == \
        str(mods / "build")


def test_only_allocation_failure_cells_ask_for_the_injector():
    assert not fault_injector.wanted(cell_model.reduced_matrix())
    assert fault_injector.wanted(cell_model.mutate_matrix())
    named = [c.name for c in cell_model.default_matrix()
             if c.family and c.family.inject]
    assert named == ["mtu1500-strip-msix-noiommu-allocfail",
                     "mtu9000-keep-intx-noiommu-allocfail"]


def test_two_runs_at_once_build_the_injector_once(tmp_path, monkeypatch):
    # Campaign shards started together ask for the same guest: one
    # builds, the other waits and takes what it built.
    import threading
    import time
    from e1000epp.image import user_kernel
    base = tmp_path / "base"
    base.mkdir()
    (base / "initrd.img").write_bytes(b"\x1f\x8b" + b"z" * 14)
    (base / "manifest.json").write_text(json.dumps(
        {"kernel": {"release": "6.1.0-57-amd64"}, "inputs_key": "k"}))
    monkeypatch.setattr(user_kernel, "GUESTS_DIR", str(tmp_path / "guests"))
    monkeypatch.setattr(fault_injector, "headers_for",
                        lambda d, rel, log: "/usr/src/headers")
    builds = []

    def build(headers, out_dir, log):
        builds.append(out_dir)
        time.sleep(0.3)
        ko = tmp_path / f"built{len(builds)}.ko"
        ko.write_bytes(b"\x7fELF")
        return str(ko)
    monkeypatch.setattr(fault_injector, "build", build)
    got = []
    threads = [threading.Thread(target=lambda: got.append(
        fault_injector.guest_with_injector(str(base), log=lambda m: None)))
        for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1
    assert got[0] == got[1] == builds[0]
