# SPDX-License-Identifier: GPL-2.0-or-later
"""Judging mutants in VMs: the unmutated driver's run (baseline and
coverage), then each built mutant in the cells that reach its line.

1. Baseline and coverage. One boot per boot group of the selected cells
   (matrix.cell_model.plan; run's traffic bound), the unmutated module
   (built like the mutants, -g0) swapped in, kprobe events on the judged
   lines' functions (mutate/coverage.py); every cell must pass, or the
   campaign stops naming the cell and its reason. The cells each
   function's probes fired in are kept in OUT/judge/coverage.json (a
   resume reuses it for the same cells and the same unmutated object).
2. Mutants. A built mutant no selected cell reaches is `not reached` (no
   VM). The others are judged boot group by boot group: up to BATCH
   mutants' modules ride in one boot's initramfs (mutate/guestswap.py);
   for each, the module is swapped in and its reaching cells of that
   group run in plan order (matrix.execute.run_cell, unchanged, with a
   short traffic bound: bound_of()): the first failing cell kills it
   (`killed`, the cell and its reason); a cell that ends in an error
   with the guest gone or crashed, or a crash the watchdog saw, is
   `killed (hang or crash)`. After a kill the guest is booted again for
   the next mutant (its kernel may hold what the mutant broke). Every
   reaching cell passing is `survived`.
"""

import json
import os
import shutil
import tempfile
import time

from e1000epp.common.errors import StepError
from e1000epp.matrix import cell_model, execute, families, guest_cost
from e1000epp.matrix.guest_io import Guest, boot_args, sh
from e1000epp.matrix.report import write_json
from e1000epp.mutate import campaign as cp
from e1000epp.mutate import coverage, guestswap
from e1000epp.vm import harness

BATCH = 8
# Seconds a mutant's cell waits for its pattern frames (run's default is
# 120): the unmutated driver's cells pass in 2-10 s under TCG.
MUTANT_TRAFFIC_TIMEOUT = 10
BASE = "base"


class Judge:
    def __init__(self, camp, cells, guest_dir, peer_bin, device, log,
                 bound=MUTANT_TRAFFIC_TIMEOUT, driver=None):
        self.camp = camp
        self.cells = cells
        self.groups = cell_model.plan(cells)
        self.guest_dir = guest_dir
        self.peer_bin = peer_bin
        self.device = device
        self.log = log
        self.bound = bound
        self.driver = driver
        self.dir = os.path.join(camp.out, "judge")
        self.boots = 0
        self.boot_s = []
        self.index = 0
        os.makedirs(self.dir, exist_ok=True)

    # --- booting ---------------------------------------------------------

    def _boot(self, key, modules, label=""):
        self.boots += 1
        d = os.path.join(self.dir, "boots", f"{self.boots:03d}-{key}{label}")
        img = guestswap.make_image(self.guest_dir, os.path.join(d, "image"),
                                   modules)
        dev_args, append = boot_args(key)
        # QEMU's trace log, where the IOMMU cells count IOTLB fills (as
        # run_cells has it)
        trace = ["-D", guest_cost.trace_path(d)] \
            if key.partition("+")[0] == "iommu" else []
        # a short path (a unix socket's is at most 107 bytes)
        mon = os.path.join(tempfile.mkdtemp(prefix="e1000epp-wd-"), "qmp")
        vm = harness.Vm(self.device, d, append="e1000epp.load=0 " + append,
                        device_args=dev_args, guest_dir=img,
                        extra_args=trace + guestswap.monitor_args(mon),
                        bzimage=key.partition("+")[2] in
                        families.BZIMAGE_BOOTS)
        vm.watchdog_monitor = mon
        t0 = time.monotonic()
        try:
            vm.start(self.peer_bin)
        except harness.HarnessError as e:
            vm.stop()
            raise StepError(f"booting the guest ({key}) failed", str(e)[:300],
                            f"see {d}")
        self.boot_s.append(time.monotonic() - t0)
        self.log(f"boot {self.boots} ({key}{label}, {len(modules)} modules): "
                 f"guest ready in {self.boot_s[-1]:.1f}s")
        return vm, d

    def _cell(self, vm, g, cell, index, where, bound, last=False):
        """One cell; last: the module's last before it is swapped out,
        which also judges the pools after an interface down (a pool the
        mutant forgot to destroy or left pages in)."""
        return execute.run_cell(vm, g, cell, index,
                                os.path.join(where, "cells", cell.name),
                                lambda t: None, None, bound, self.driver,
                                last=last)

    def bound_of(self, cell, cov):
        """A mutant's traffic bound in a cell: --traffic-timeout, or
        twice the unmutated driver's time in the cell when longer (a
        cell that waits for the driver's own timers, the Tx-hang
        reset, needs its time)."""
        return max(self.bound, round(2 * cov["seconds"].get(cell.name, 0)))

    # --- 1. the unmutated driver -------------------------------------------

    def baseline(self, base_ko, functions, sources):
        """Run every selected cell on the unmutated module; returns the
        coverage {"cells", "probes", "hits", "seconds"}."""
        path = os.path.join(self.dir, "coverage.json")
        names = [c.name for c in self.cells]
        digest = _digest(base_ko)
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
            if old.get("cells") == names and old.get("base") == digest:
                self.log("baseline and coverage: reused "
                         f"{os.path.relpath(path, self.camp.out)}")
                return old
        hits, seconds, probes = {}, {}, None
        for key, group in self.groups:
            vm, d = self._boot(key, {BASE: base_ko}, "-base")
            try:
                g = Guest()
                guestswap.swap(vm, g, BASE)
                if probes is None:
                    sh(vm, "load-e1000e", timeout=60)
                    _, ks = sh(vm, "grep '\\[e1000e\\]' /proc/kallsyms",
                               timeout=120)
                    syms = coverage.module_symbols(ks)
                    sh(vm, "rmmod e1000e", timeout=30)
                    probes = coverage.targets(functions, syms, sources)
                wanted = sorted({s for v in probes.values() for s in v
                                 if s != coverage.EVERY_CELL})
                script, ev = coverage.setup_script(wanted)
                sh(vm, script, timeout=120)
                before = self._profile(vm, ev)
                for cell in group:
                    self.index += 1
                    r = self._cell(vm, g, cell, self.index, os.path.join(
                        self.dir, "baseline"), cell_model.TRAFFIC_TIMEOUT,
                        last=cell is group[-1])
                    after = self._profile(vm, ev)
                    hits[cell.name] = coverage.entered(before, after)
                    before = after
                    seconds[cell.name] = r["seconds"]
                    self.log(f"baseline {r['status']:5} {cell.name} "
                             f"({r['seconds']:.1f}s, "
                             f"{len(hits[cell.name])} functions entered)")
                    if r["status"] != cell_model.PASS:
                        raise StepError(
                            f"the unmutated driver fails cell {cell.name}",
                            r["reason"].splitlines()[0][:300] if r["reason"]
                            else r["status"], "mutants are judged only by "
                            "cells the unmutated driver passes: fix the "
                            "driver, or leave the cell out (--only)")
            finally:
                vm.stop()
        cov = {"cells": names, "base": digest, "probes": {
            str(k): v for k, v in probes.items()}, "hits": hits,
            "seconds": seconds}
        write_json(path, cov)
        return cov

    def _profile(self, vm, ev):
        _, text = sh(vm, coverage.profile_command(), timeout=30)
        return coverage.parse_profile(text, ev)

    # --- 2. the mutants ----------------------------------------------------

    def mutants(self, todo, cov, on_verdict):
        """todo: [(record, module path, [reaching cell names])]; each
        record gets its verdict and is handed to on_verdict(record)."""
        self.cov = cov
        self.on_verdict = on_verdict
        by_name = {c.name: c for c in self.cells}
        state = {r["id"]: {"rec": r, "ko": ko, "cells": [
            by_name[n] for n in names], "ran": [], "swap_s": 0.0,
            "cells_s": 0.0} for r, ko, names in todo}
        order = [r["id"] for r, _, _ in todo]
        for key, group in self.groups:
            in_group = {c.name for c in group}
            queue = [i for i in order if not state[i].get("verdict") and
                     any(c.name in in_group for c in state[i]["cells"])]
            while queue:
                batch = queue[:BATCH]
                done = self._boot_batch(key, in_group, batch, state)
                queue = [i for i in queue if i not in done]
        for i in order:
            self._finish(state[i])

    def _finish(self, s):
        """Write a mutant's verdict (once): killed, or survived when its
        last reaching group passed."""
        if s.get("written"):
            return
        s["written"] = True
        r = s["rec"]
        if not s.get("verdict"):
            s["verdict"], s["reason"] = cp.SURVIVED, ""
        r.update(verdict=s["verdict"], reason=s["reason"],
                 cells=list(s["ran"]), swap_s=round(s["swap_s"], 2),
                 cells_s=round(s["cells_s"], 2))
        if s.get("cell"):
            r["cell"] = s["cell"]
        r["judge_s"] = round(r.get("build_s", 0) + r["swap_s"] +
                             r["cells_s"], 2)
        self.on_verdict(r)

    def _boot_batch(self, key, in_group, batch, state):
        """Judge the batch's mutants in one boot, until one is killed
        (the guest is then booted again). Returns the ids judged."""
        vm, d = self._boot(key, {_safe(i): state[i]["ko"] for i in batch})
        wd = guestswap.Watchdog(vm, vm.watchdog_monitor)
        done = []
        # One kernel log and one device for the boot: a mutant's first
        # cell reads the log and the events from the previous mutant's
        # last mark on, not from the boot (the other cells' expected
        # lines, a Tx hang's, a failed pool's, are not its own).
        g = Guest()
        try:
            for n, i in enumerate(batch):
                s = state[i]
                wd.rearm()
                g.flow_control = True       # the new module's default
                try:
                    s["swap_s"] += guestswap.swap(vm, g, _safe(i))
                except (harness.HarnessError, OSError) as e:
                    if n == 0:
                        s["verdict"] = cp.KILLED_HANG
                        s["reason"] = f"module swap failed: {e}"[:300]
                        done.append(i)
                    return done
                done.append(i)
                here = [c for c in s["cells"] if c.name in in_group]
                for cell in here:
                    self.index += 1     # a traffic run id of its own
                    r = self._cell(vm, g, cell, self.index, os.path.join(
                        d, _safe(i)), self.bound_of(cell, self.cov),
                        last=cell is here[-1])
                    s["ran"].append(cell.name)
                    s["cells_s"] += r["seconds"]
                    self.log(f"{i}: {r['status']:5} {cell.name} "
                             f"({r['seconds']:.1f}s)")
                    if r["status"] == cell_model.PASS:
                        continue
                    crash = wd.reason or (None if guestswap.alive(vm) else
                                          "the guest stopped answering: " +
                                          r["reason"].splitlines()[0][:200])
                    if crash:
                        s["verdict"] = cp.KILLED_HANG
                        s["reason"] = f"{cell.name}: {crash}"
                    else:
                        s["verdict"] = cp.KILLED
                        s["reason"] = f"{cell.name}: " + \
                            r["reason"].replace("\n", "; ")[:300]
                    s["cell"] = cell.name
                    self.log(f"{i}: {s['verdict']} ({s['reason'][:100]})")
                    self._finish(s)
                    return done
                self.log(f"{i}: passed {len(s['ran'])} cells so far "
                         f"({s['cells_s']:.1f}s)")
                if len(s["ran"]) == len(s["cells"]):
                    self._finish(s)         # no other group reaches it
            return done
        finally:
            wd.stop()
            vm.stop()
            shutil.rmtree(os.path.dirname(vm.watchdog_monitor),
                          ignore_errors=True)


def _safe(mutant_id):
    return cp.file_name(mutant_id)[:-len(".json")]


def _digest(path):
    import hashlib
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]
