# SPDX-License-Identifier: GPL-2.0-or-later
"""The emulator's command line (`./e1000e-pp qemu`, the VM harness): the
built binary, a -L for each firmware directory there is, in QEMU's search
order, then the caller's arguments."""

from e1000epp.common import emulator, paths


def test_firmware_directories_in_order_then_the_arguments(tmp_path,
                                                          monkeypatch):
    for name in ("optionrom", "seabios", "ipxe"):
        (tmp_path / name).mkdir()
    monkeypatch.setattr(paths, "QEMU_BIN", "/q/qemu-system-x86_64")
    monkeypatch.setattr(paths, "OPTIONROM_DIR", str(tmp_path / "optionrom"))
    monkeypatch.setattr(paths, "SEABIOS_DIR", str(tmp_path / "seabios"))
    monkeypatch.setattr(paths, "IPXE_DIR", str(tmp_path / "ipxe"))
    assert emulator.qemu_cmd(["-M", "q35"]) == [
        "/q/qemu-system-x86_64", "-L", str(tmp_path / "optionrom"),
        "-L", str(tmp_path / "seabios"), "-L", str(tmp_path / "ipxe"),
        "-M", "q35"]


def test_a_firmware_directory_that_is_missing_is_left_out(tmp_path,
                                                          monkeypatch):
    (tmp_path / "seabios").mkdir()
    monkeypatch.setattr(paths, "OPTIONROM_DIR", str(tmp_path / "none"))
    monkeypatch.setattr(paths, "SEABIOS_DIR", str(tmp_path / "seabios"))
    monkeypatch.setattr(paths, "IPXE_DIR", str(tmp_path / "neither"))
    assert emulator.firmware_args() == ["-L", str(tmp_path / "seabios")]
