# SPDX-License-Identifier: GPL-2.0-or-later
"""The sanitized QEMU build: its configure line and when it re-runs."""

import json
import os

from e1000epp.common import paths
from e1000epp.setup import qemu_build


def test_sanitized_build_is_the_same_configure_plus_the_sanitizers(
        tmp_path, monkeypatch):
    src = str(tmp_path / "src" / "qemu-10.0")
    plain_dir = str(tmp_path / "qemu")
    sanitized_dir = str(tmp_path / "qemu-sanitized")
    monkeypatch.setattr(paths, "QEMU_BUILD", plain_dir)
    monkeypatch.setattr(paths, "QEMU_SANITIZED_BUILD", sanitized_dir)
    plain = qemu_build.configure_cmd(src)
    sanitized = qemu_build.configure_cmd(src, sanitized_dir)
    assert plain[0] == "../src/qemu-10.0/configure"
    assert "--with-devices-x86_64=e1000e-pp" in plain
    assert "--enable-asan" not in plain and "--enable-ubsan" not in plain
    assert sanitized == plain + ["--enable-asan", "--enable-ubsan"]


def test_sanitized_build_configures_once_per_flag_set(tmp_path,
                                                      monkeypatch):
    src = str(tmp_path / "src" / "qemu-10.0")
    build = tmp_path / "qemu-sanitized"
    monkeypatch.setattr(paths, "QEMU_SANITIZED_BUILD", str(build))
    assert qemu_build.needs_configure(src, str(build)) == \
        "not configured yet"
    build.mkdir()
    (build / "build.ninja").write_text("")
    stamp = build / qemu_build.STAMP_NAME
    # configured with build/qemu's line (no sanitizers): again
    stamp.write_text(json.dumps({"cmd": qemu_build.configure_cmd(src)}))
    assert qemu_build.needs_configure(src, str(build)) == \
        "configure flags changed"
    stamp.write_text(json.dumps(
        {"cmd": qemu_build.configure_cmd(src, str(build))}))
    assert qemu_build.needs_configure(src, str(build)) is None
    os.unlink(stamp)
    assert qemu_build.needs_configure(src, str(build)).startswith(
        "configured by hand")
