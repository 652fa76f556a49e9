# SPDX-License-Identifier: GPL-2.0-or-later
"""Before run or soak boots a guest: a missing image or emulator is one
error that says what to do, before any VM starts."""

import pytest

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.vm import preflight


def test_a_guest_without_its_initrd_is_refused(tmp_path):
    (tmp_path / "vmlinuz").write_bytes(b"")
    with pytest.raises(StepError) as e:
        preflight.vm_preflight(str(tmp_path))
    assert e.value.what == "no guest image"
    assert e.value.why == "%s is missing" % (tmp_path / "initrd.img")
    assert e.value.fix == "run ./e1000e-pp setup (or drop --no-setup)"


def test_an_emulator_that_is_not_built_is_refused(tmp_path, monkeypatch):
    for f in ("vmlinuz", "initrd.img"):
        (tmp_path / f).write_bytes(b"")
    monkeypatch.setattr(paths, "QEMU_BIN", str(tmp_path / "no-qemu"))
    with pytest.raises(StepError) as e:
        preflight.vm_preflight(str(tmp_path))
    assert e.value.what == "the emulator is not built"
    assert "no-qemu is missing" in e.value.why
