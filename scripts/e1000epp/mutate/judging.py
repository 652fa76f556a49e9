# SPDX-License-Identifier: GPL-2.0-or-later
"""`mutate` with judging (the default): the unmutated driver's baseline
and coverage run, each mutant built (its module too when a cell reaches
its line), then the reached ones judged in VMs (mutate/judge.py).
Every verdict is written the moment it is known; the campaign's
timings go into campaign.json ("judging")."""

import argparse
import json
import os
import shutil
import statistics

from e1000epp.common.errors import StepError
from e1000epp.image import fault_injector, user_kernel
from e1000epp.matrix import cell_model
from e1000epp.matrix.report import write_json
from e1000epp.mutate import campaign, coverage, ctokens, judge, operators
from e1000epp.vm import preflight


def select_cells(args):
    try:
        return cell_model.select(cell_model.MATRICES[args.matrix](),
                                 args.only)
    except cell_model.MatrixError as e:
        raise StepError(str(e.args[0]), e.args[1] if len(e.args) > 1
                        else "", "check --only")


def guest(args, src, kernel, log, out):
    """The guest image `run` boots for this driver, prepared by the
    campaign's first judging run and then reused (its kernel and base
    modules are what count: e1000e is swapped in anyway): (driver under
    test for the cells, guest dir)."""
    driver = cell_model.DRIVER_SERIES if args.driver else None
    saved = os.path.join(out, "judge", "guest.json")
    if os.path.exists(saved):
        with open(saved) as f:
            d = json.load(f)["guest_dir"]
        if os.path.exists(os.path.join(d, "initrd.img")):
            log(f"guest: {d} (prepared by this campaign before)")
            return driver, d
    ns = argparse.Namespace(kernel=None, modules=None, module=None,
                            kernel_tree=None, driver=args.driver,
                            driver_src=None if args.driver else src,
                            debian_kernel=None if args.driver else kernel)
    guest_dir, desc = user_kernel.prepare(ns, log)
    log(f"guest: {desc}")
    write_json(saved, {"guest_dir": guest_dir, "desc": desc})
    return driver, guest_dir


def _cached(ko):
    """The build of a module a run interrupted before its verdict
    (judge/modules/<id>.ko and its .json): not built again."""
    if ko and os.path.exists(ko) and os.path.exists(ko + ".json"):
        with open(ko + ".json") as f:
            return json.load(f)
    return None


def _median(xs):
    return round(statistics.median(xs), 2) if xs else None


def run(args, camp, b, final, lines, todo, line_of, kernel, log):
    cells = select_cells(args)
    os.makedirs(os.path.join(camp.out, "judge", "modules"), exist_ok=True)
    driver, guest_dir = guest(args, b.src, kernel, log, camp.out)
    peer_bin = preflight.vm_preflight(guest_dir)
    if fault_injector.wanted(cells):
        guest_dir = fault_injector.guest_with_injector(guest_dir, log)
    kodir = os.path.join(camp.out, "judge", "modules")
    base_ko = os.path.join(camp.out, "judge", "base.ko")
    shutil.copy(b.base_ko, base_ko)
    sources = {f: ctokens.Source("\n".join(t)) for f, t in final.items()
               if t and f.endswith((".c", ".h"))}
    j = judge.Judge(camp, cells, guest_dir, peer_bin, "e1000e-pp", log,
                    bound=args.traffic_timeout, driver=driver)
    log(f"baseline and coverage: {len(cells)} cells ({args.matrix} matrix"
        f"{', --only ' + args.only if args.only else ''}) on the unmutated "
        "driver")
    cov = j.baseline(base_ko, {ln.function for ln in lines}, sources)
    names = [c.name for c in cells]
    probes = cov["probes"]
    to_judge = []
    for k, m in enumerate(todo, 1):
        ln = line_of[m.id]
        reach = coverage.reaching(str(ln.function), probes, cov["hits"],
                                  names)
        mutated, diff = operators.describe(final[m.file], m)
        ko = os.path.join(kodir, judge._safe(m.id) + ".ko") if reach \
            else None
        result = _cached(ko) or b.build(m, final[m.file], ko_dest=ko)
        if ko and result["verdict"] == campaign.BUILT:
            write_json(ko + ".json", result)
        rec = campaign.record(m, ln, mutated, diff, result)
        if result["verdict"] == campaign.BUILT:
            if reach:
                to_judge.append((rec, ko, reach))
            else:
                rec.update(verdict=campaign.NOT_REACHED, reason="no "
                           f"selected cell enters {ln.function or '?'}"
                           + ("" if probes.get(str(ln.function)) else
                              " (nothing of it to probe)"))
        if rec["verdict"] != campaign.BUILT:
            camp.write(rec)
        print(f"[{k}/{len(todo)}] {m.id:28} {rec['verdict']:11} "
              f"{result['build_s']:5.1f}s  "
              f"{len(reach)} cells reach it  {' | '.join(diff)[:70]}",
              flush=True)
    log(f"{len(to_judge)} mutants to judge in VMs")
    judged = []

    def on_verdict(r):
        camp.write(r)
        judged.append(r)
        print(f"[judged {len(judged)}/{len(to_judge)}] {r['id']:28} "
              f"{r['verdict']:22} build {r['build_s']:.1f}s swap "
              f"{r['swap_s']:.1f}s cells {r['cells_s']:.1f}s "
              f"({len(r['cells'])})  {r.get('reason', '')[:80]}",
              flush=True)

    j.mutants(to_judge, cov, on_verdict)
    meta = camp.meta()
    meta["judging"] = {
        "cells": names, "traffic_timeout": args.traffic_timeout,
        "boots": j.boots, "median_boot_s": _median(j.boot_s),
        "judged": len(judged),
        "median_judge_s": _median([r["judge_s"] for r in judged]),
        "median_build_s": _median([r["build_s"] for r in judged]),
        "median_swap_s": _median([r["swap_s"] for r in judged]),
        "median_cells_s": _median([r["cells_s"] for r in judged])}
    write_json(os.path.join(camp.out, "campaign.json"), meta)
    if judged:
        log("median per judged mutant: {median_judge_s} s (build "
            "{median_build_s} s, swap {median_swap_s} s, cells "
            "{median_cells_s} s); {boots} boots, median boot "
            "{median_boot_s} s".format(**meta["judging"]))
