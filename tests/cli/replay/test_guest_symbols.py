# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver's symbols in a recording (replay/guest_symbols.py): what
is read from the recorded guest, how a function name resolves, and the
gdb script a replay writes. The kallsyms and section lines are the
formats Linux 6.1/6.12 print (kernel/kallsyms.c: "%px %c %s\\t[%s]",
kernel/module/sysfs.c: one address per section file)."""

import json
import lzma
import types

import pytest

from e1000epp.replay import guest_symbols

KALLSYMS = (
    "ffffffffc0a1e010 t e1000_clean_tx_irq\t[e1000e]\n"
    "ffffffffc0a24c40 t e1000_reset_task\t[e1000e]\n"
    "ffffffffc0a2b5a0 t e1000e_pm_runtime_suspend\t[e1000e]\n"
    "ffffffffc0a40080 d e1000_driver\t[e1000e]\n"
    "ffffffffc0a1e010 t e1000_clean_tx_irq.cold\t[e1000e]\n")
SECTIONS = (".text 0xffffffffc0a1d000\n.data 0xffffffffc0a40000\n"
            ".bss 0xffffffffc0a42000\n.note.gnu.build-id "
            "0xffffffffc0a3c000\n__ksymtab 0xffffffffc0a3d000\n")


class FakeAgent:
    def __init__(self):
        self.cmds = []

    def sh(self, cmd, check=True):
        self.cmds.append(cmd)
        return 0, KALLSYMS if "kallsyms" in cmd else SECTIONS


def test_capture_writes_symbols_sections_and_the_module(tmp_path):
    guest = tmp_path / "guest"
    guest.mkdir()
    ko = tmp_path / "e1000e.ko.xz"
    with lzma.open(ko, "wb") as f:
        f.write(b"\x7fELF module")
    (guest / "manifest.json").write_text(json.dumps({"modules": [
        {"name": "libeth", "source": str(ko)},
        {"name": "e1000e", "source": str(ko)}]}))
    out = tmp_path / "rec"
    out.mkdir()
    vm = types.SimpleNamespace(agent=FakeAgent(), guest_dir=str(guest))
    assert guest_symbols.capture(vm, str(out)) == [
        "symbols.txt", "sections.json", "e1000e.ko"]
    assert (out / "e1000e.ko").read_bytes() == b"\x7fELF module"
    assert json.loads((out / "sections.json").read_text())[".text"] == \
        "0xffffffffc0a1d000"
    assert guest_symbols.resolve(str(out), "e1000_reset_task") == \
        0xffffffffc0a24c40


def test_capture_without_a_loaded_module_writes_nothing(tmp_path):
    agent = types.SimpleNamespace(sh=lambda cmd, check=True: (0, ""))
    vm = types.SimpleNamespace(agent=agent, guest_dir=str(tmp_path))
    assert guest_symbols.capture(vm, str(tmp_path)) == []
    assert list(tmp_path.iterdir()) == []


def test_only_functions_resolve_and_a_near_miss_is_named(tmp_path):
    (tmp_path / "symbols.txt").write_text(KALLSYMS)
    with pytest.raises(guest_symbols.SymbolError) as e:
        guest_symbols.resolve(str(tmp_path), "e1000_driver")
    assert e.value.args[0] == \
        "no function 'e1000_driver' in the recorded e1000e module"
    with pytest.raises(guest_symbols.SymbolError) as e:
        guest_symbols.resolve(str(tmp_path), "e1000_clean_tx")
    assert e.value.args[1] == "4 functions; close: e1000_clean_tx_irq, " \
        "e1000_clean_tx_irq.cold"


def test_a_recording_without_symbols_says_so(tmp_path):
    with pytest.raises(guest_symbols.SymbolError) as e:
        guest_symbols.resolve(str(tmp_path), "e1000_reset_task")
    assert e.value.args[2] == "record the cell again with run --record"


def test_the_gdb_script_loads_the_module_at_its_sections(tmp_path):
    (tmp_path / "e1000e.ko").write_bytes(b"\x7fELF")
    (tmp_path / "sections.json").write_text(json.dumps({
        ".text": "0xffffffffc0a1d000", ".data": "0xffffffffc0a40000",
        ".bss": "0xffffffffc0a42000", ".note.gnu.build-id": "0x1",
        "__ksymtab": "0x2", ".symtab": "0x3", ".strtab": "0x4"}))
    assert guest_symbols.gdb_script(str(tmp_path), 1234).splitlines() == [
        f"add-symbol-file {tmp_path}/e1000e.ko 0xffffffffc0a1d000 "
        "-s .bss 0xffffffffc0a42000 -s .data 0xffffffffc0a40000",
        "target remote 127.0.0.1:1234"]


def test_without_the_module_file_the_script_only_connects(tmp_path):
    assert guest_symbols.gdb_script(str(tmp_path), 1234) == \
        "target remote 127.0.0.1:1234\n"


def test_instruction_counts_from_gdbs_monitor_output():
    out = ("Breakpoint 1, 0xffffffffc0a24c40 in e1000_reset_task ()\n"
           "Recording mode\nCurrent instruction count = 1234567\n"
           "Replaying execution log from file ...\n"
           "Current instruction count = 2345678\n")
    assert guest_symbols.hit_icount(out) == [1234567, 2345678]
