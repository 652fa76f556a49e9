# SPDX-License-Identifier: GPL-2.0-or-later
"""The mutants judged one after another in one boot (mutate/judge.py,
_boot_batch) share the boot's kernel log and device: a mutant's first
cell reads the log from the previous mutant's last mark on. From the
boot's start, it would read the cells that mutant ran, with their own
expected lines (a Tx hang's reports, a failed pool's error) that are
not the new cell's: the campaign before this test killed mutants that
way (netdev.c:992:rel:0 and :1, equivalent, "killed" by another cell's
"Detected Hardware Unit Hang")."""

import types

from e1000epp.matrix import cell_model
from e1000epp.mutate import guestswap, judge


class FakeVm:
    watchdog_monitor = "/nonexistent/mon"

    def stop(self):
        pass


def test_a_mutants_first_cell_starts_at_the_previous_mutants_mark(
        tmp_path, monkeypatch):
    cells = [cell_model.Cell(1500), cell_model.Cell(9000)]
    camp = types.SimpleNamespace(out=str(tmp_path))
    j = judge.Judge(camp, cells, str(tmp_path), "peer", "e1000e-pp",
                    lambda m: None)
    monkeypatch.setattr(j, "_boot", lambda key, mods: (FakeVm(),
                                                       str(tmp_path)))
    monkeypatch.setattr(guestswap, "Watchdog", lambda vm, mon: types.
                        SimpleNamespace(rearm=lambda: None, reason=None,
                                        stop=lambda: None))
    monkeypatch.setattr(guestswap, "swap", lambda vm, g, name: 0.1)
    monkeypatch.setattr(j, "_finish", lambda s: None)
    j.cov = {}
    monkeypatch.setattr(j, "bound_of", lambda cell, cov: 10)
    seen, marks = [], iter(range(100))

    def cell(vm, g, c, index, where, bound, last=False):
        seen.append((c.name, g.log_mark, g.flow_control))
        g.log_mark = f"mark{next(marks)}"   # what scan_dmesg leaves
        g.flow_control = False              # a cell's ethtool -A
        return {"status": cell_model.PASS, "seconds": 1.0, "reason": ""}
    monkeypatch.setattr(j, "_cell", cell)
    state = {m: {"ko": f"/k/{m}.ko", "cells": cells, "ran": [],
                 "swap_s": 0.0, "cells_s": 0.0}
             for m in ("netdev.c:1:del:0", "netdev.c:2:del:0")}
    names = {c.name for c in cells}
    j._boot_batch("noiommu", names, list(state), state)
    assert seen == [
        ("mtu1500-strip-msix-noiommu", None, True),
        ("mtu9000-strip-msix-noiommu", "mark0", False),
        # The second mutant: the first's last mark, the driver's
        # default flow control (a new module).
        ("mtu1500-strip-msix-noiommu", "mark1", True),
        ("mtu9000-strip-msix-noiommu", "mark2", False)]
