# SPDX-License-Identifier: GPL-2.0-or-later
"""The cost plugin (tools/plugin/cost.c) on a tiny guest whose every
instruction is known: costguest/costguest.S, booted with -kernel.

Expected counts are counted by hand from the listing (not by the plugin's
rules):

window 1, after the start mark:
  call outer                                           1
  outer: nop, mov, call thunk_rax                      3
  thunk_rax (retpoline): call 2f, mov %rax,(%rsp), ret 3
  inner: nop, nop, nop, call shared                    4
  shared: nop, ret                                     2
  inner: jmp ret_thunk; ret_thunk: ret                 2
  outer: int $0x20                                     1
  [interrupt] irq_stub: call shared; shared: nop, ret;
              irq_stub: nop, iretq                     5
  outer: nop, jmp ret_thunk; ret_thunk: ret            3
  stop mark                                            1
  => 25 instructions in the window; outer inclusive = 1+... without the
  caller's call and the mark: 3+3+4+2+2+1+3 = 18; the 5 of the interrupt
  apart (irq_in_funcs); inner = 4+2+2 = 8 (entered by the retpoline's
  ret, left through the return thunk); shared = 2 called from inner plus
  2 called inside the interrupt (a function entered in an interrupt
  counts for itself) = 4, in 2 calls.
window 2: nop, stop mark => 2 instructions, every function 0.
"""

import json
import subprocess
from pathlib import Path

import pytest

from e1000epp.vm import harness

HERE = Path(__file__).resolve().parent
P = harness.repo_paths()
PLUGIN = P["NATIVE_DIR"] / "tools" / "plugin" / "libe1000epp-cost.so"


@pytest.fixture(scope="module")
def guest(tmp_path_factory):
    d = tmp_path_factory.mktemp("costguest")
    elf64, elf = d / "costguest64.elf", d / "costguest.elf"
    subprocess.run(["gcc", "-nostdlib", "-static", "-no-pie", "-Wl,-N",
                    "-Wl,-Ttext=0x100000", "-Wl,--build-id=none",
                    "-Wl,--no-warn-rwx-segments", "-o", str(elf64),
                    str(HERE / "costguest" / "costguest.S")], check=True)
    # QEMU's multiboot loader takes 32-bit ELF only.
    subprocess.run(["objcopy", "-O", "elf32-i386", str(elf64), str(elf)],
                   check=True)
    nm = subprocess.run(["nm", str(elf64)], stdout=subprocess.PIPE,
                        text=True, check=True).stdout
    syms = {w[2]: int(w[0], 16) for w in map(str.split, nm.splitlines())
            if len(w) == 3}
    return d, elf, syms


def run_plugin(d, elf, ranges):
    (d / "ranges.txt").write_text(ranges)
    out = d / "out.jsonl"
    out.unlink(missing_ok=True)
    if not PLUGIN.exists():
        pytest.fail(f"{PLUGIN} is not built: run ./e1000e-pp setup")
    r = subprocess.run(
        [str(P["QEMU_BIN"])] + P["firmware_args"] +
        ["-M", "q35", "-nodefaults", "-display", "none", "-no-reboot",
         "-m", "64", "-kernel", str(elf),
         "-plugin", f"{PLUGIN},ranges={d / 'ranges.txt'},out={out}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=120)
    assert out.exists(), f"no window written; QEMU said:\n{r.stdout}"
    return [json.loads(ln) for ln in out.read_text().splitlines()]


def test_inclusive_counts_through_retpoline_return_thunk_and_interrupt(
        guest):
    d, elf, s = guest
    ranges = (f"func outer {s['outer']:x}\nfunc inner {s['inner']:x}\n"
              f"func shared {s['shared']:x}\nirq {s['irq_stub']:x}\n")
    w1, w2 = run_plugin(d, elf, ranges)
    assert w1["insns"] == 25
    assert w1["funcs"] == {"outer": 18, "inner": 8, "shared": 4}
    assert w1["calls"] == {"outer": 1, "inner": 1, "shared": 2}
    assert w1["irq_in_funcs"] == 5 and w1["irq_entries"] == 1
    assert (w1["open"], w1["overflow"]) == (0, 0)
    assert w1["vcpus"][0]["insns"] == 25
    assert w2["insns"] == 2
    assert w2["funcs"] == {"outer": 0, "inner": 0, "shared": 0}


def test_without_irq_entries_the_interrupt_counts_inside(guest):
    """Not telling the plugin where interrupts enter: the handler's 5
    instructions count as outer's (18 + 5) - the reason the harness
    passes the kernel's interrupt entry points."""
    d, elf, s = guest
    w1, _ = run_plugin(d, elf, f"func outer {s['outer']:x}\n")
    assert w1["funcs"] == {"outer": 23}
    assert w1["irq_in_funcs"] == 0
