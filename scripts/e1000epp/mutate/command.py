# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp mutate`: mutants of exactly the lines a driver patch adds
or changes, each built against the guest kernel's headers; the ones
whose object is identical to the unmutated build are equivalent and set
aside; the report lists every line with its mutants and verdicts.

    mutate --driver pagepool[+BUG] [--patch FILE...]
    mutate --driver-src DIR (--patch FILE... | --base DIR)
           [--debian-kernel 6.1|6.12]
    [--out DIR] [--shard I/N] [--patches LIST] [--ops LIST] [-k TEXT]
    [--list] [--json FILE]
    mutate merge --report OUT DIR...

A mutant whose object differs is judged in VMs by the cells that reach
its line (mutate/judging.py, judge.py); with --no-judge it ends as
`built`.
"""

import json
import os
import shutil
import statistics
import sys
import time

from e1000epp.common import argtypes, paths
from e1000epp.common.errors import StepError
from e1000epp.image import pagepool_series, user_kernel
from e1000epp.matrix import cell_model
from e1000epp.mutate import build, campaign, ctokens, operators
from e1000epp.mutate import judge, judging, patch_lines, report


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="merge", required=False)
    m = sub.add_parser("merge", help="combine the campaign directories "
                       "of mutate --shard I/N runs: mutate merge --report "
                       "OUT DIR...")
    m.add_argument("--report", metavar="OUT", type=argtypes.output_dir,
                   required=True, help="the merged campaign directory")
    m.add_argument("dirs", nargs="+", metavar="DIR",
                   help="campaign directories (--out of each shard)")
    m.add_argument("--json", metavar="FILE",
                   help="also write the report's JSON to FILE ('-': "
                   "standard output)")
    m.add_argument("--baseline", metavar="DIR",
                   help="an earlier campaign (its directory or "
                   "report.json) to compare the merged one with")
    p.add_argument("--driver", metavar="WORD",
                   help="a driver the project ships: 'pagepool' (the "
                   "page-pool series on Debian's 6.12; its patches are "
                   "the default --patch) or 'pagepool+BUG'")
    p.add_argument("--driver-src", metavar="DIR",
                   help="the driver directory (with the patch applied, or "
                   "without it: the patch is then applied to a copy)")
    p.add_argument("--patch", metavar="FILE", action="append",
                   help="the patch to judge (unified diff); repeat for a "
                   "series, in apply order")
    p.add_argument("--base", metavar="DIR",
                   help="instead of --patch: the unpatched driver "
                   "directory; every C line differing in --driver-src is "
                   "judged")
    p.add_argument("--debian-kernel", choices=sorted(
        user_kernel.DEBIAN_KERNELS), help="with --driver-src: the Debian "
        "kernel whose headers build the mutants (default: the guest's)")
    p.add_argument("--out", metavar="DIR", type=argtypes.output_dir,
                   help="the campaign directory (default: build/reports/"
                   "mutate-<UTC stamp>); the same --out again resumes")
    p.add_argument("--shard", metavar="I/N",
                   help="every N-th mutant by id from the I-th (the rule "
                   "of run --shard)")
    p.add_argument("--patches", metavar="LIST",
                   help="only the lines of these patches (comma-separated "
                   "labels: a series patch's number, 0001 or 1, a range "
                   "4-7, else its file name)")
    p.add_argument("--ops", type=argtypes.name_list(
        "operator", operators.OPERATORS), metavar="LIST",
        help="only these operators (%s)" % ",".join(operators.OPERATORS))
    p.add_argument("-k", metavar="TEXT", type=argtypes.nonempty,
                   help="only the mutants whose id contains TEXT "
                   "(ignoring case)")
    p.add_argument("--ids", metavar="LIST", help="only these mutants "
                   "(comma-separated ids, as --list prints them)")
    p.add_argument("--list", action="store_true",
                   help="list the mutants (id and diff) and stop")
    p.add_argument("--equivalent", metavar="FILE",
                   help="mutants equivalent by inspection: per line a "
                   "mutant id or FILE:FUNCTION, then the reason (default "
                   "for --driver pagepool: the series' "
                   "mutate-equivalents.txt)")
    p.add_argument("--baseline", metavar="DIR",
                   help="an earlier campaign (its --out directory or "
                   "report.json): the report gives both scores and every "
                   "mutant whose verdict changed")
    p.add_argument("--json", metavar="FILE",
                   help="also write the report's JSON to FILE ('-': "
                   "standard output)")
    p.add_argument("--matrix", choices=sorted(cell_model.MATRICES),
                   default="mutate", help="the cells that judge the "
                   "mutants (default: mutate, the reduced matrix and an "
                   "allocation-failure cell)")
    p.add_argument("--only", metavar="PATTERNS", help="only these cells "
                   "of the matrix (run --only's globs or expressions)")
    p.add_argument("--traffic-timeout", type=float, metavar="SECONDS",
                   default=judge.MUTANT_TRAFFIC_TIMEOUT,
                   help="how long a mutant's cell waits for its pattern "
                   "frames (default %(default)s)")
    p.add_argument("--no-judge", action="store_true",
                   help="build the mutants only (verdict `built` for the "
                   "ones whose object differs); no VM")
    p.set_defaults(before_setup=before_setup)


def before_setup(args):
    """Check the arguments in a second; set up first only when judging
    (--list and --no-judge boot no VM: the mutants are built against the
    kernel's headers)."""
    if args.action == "merge":
        return False
    if args.baseline:
        report.load_baseline(args.baseline)
    if args.equivalent:
        campaign.read_equivalents(args.equivalent)
    if args.driver:
        pagepool_series.parse(args.driver)
        for flag in ("driver_src", "base"):
            if getattr(args, flag):
                raise StepError(f"--driver and --{flag.replace('_', '-')} "
                                "both given", "--driver names the driver "
                                "source and its patches", "drop one")
    elif not args.driver_src:
        raise StepError("no driver given", "mutate judges a patch to a "
                        "driver", "give --driver pagepool, or --driver-src "
                        "DIR with --patch FILE or --base DIR")
    elif not args.patch and not args.base:
        raise StepError("--driver-src without --patch or --base",
                        "the lines to mutate are the ones a patch adds",
                        "give --patch FILE (or --base DIR, the unpatched "
                        "tree)")
    if args.patch and args.base:
        raise StepError("--patch and --base both given", "each names what "
                        "the driver is compared with", "drop one")
    for p in args.patch or []:
        if not os.path.isfile(p):
            raise StepError(f"--patch {p}: no such file", "the path does "
                            "not exist or is not a file",
                            "check the path given to --patch")
    for flag in ("driver_src", "base"):
        d = getattr(args, flag)
        if d and not os.path.isdir(d):
            raise StepError(f"--{flag.replace('_', '-')} {d}: no such "
                            "directory", "the path does not exist or is not "
                            "a directory", "check the path")
    if args.shard:
        campaign.select_shard([], args.shard)
    # judging boots VMs: the emulator and the guest are set up first
    return not (args.list or args.no_judge)


def _log(msg):
    print(f"[mutate] {msg}", flush=True)


def labels(text):
    """--patches: comma-separated numbers (1 or 0001), ranges of numbers
    (4-7) or file names, as the labels patch_lines gives patches."""
    out = set()
    for w in (text or "").split(","):
        w = w.strip()
        lo, dash, hi = w.partition("-")
        if w.isdigit():
            out.add(f"{int(w):04d}")
        elif dash and lo.isdigit() and hi.isdigit():
            out.update(f"{k:04d}" for k in range(int(lo), int(hi) + 1))
        elif w:
            out.add(w)
    return out


def generate(lines, final):
    """Every mutant of the judged lines, in id order, with its line."""
    srcs = {f: ctokens.Source("\n".join(t)) for f, t in final.items() if t}
    out = []
    for ln in lines:
        for m in operators.mutants(srcs[ln.file], ln.file, ln.line):
            out.append((m, ln))
    out.sort(key=lambda x: x[0].sort_key())
    return out


def _sources(args):
    """(driver dir, [patch files], kernel series, description)."""
    if args.driver:
        src = pagepool_series.prepare(args.driver, _log)
        return (src, args.patch or pagepool_series.patches(args.driver),
                "6.12", f"--driver {args.driver}")
    return (os.path.abspath(args.driver_src),
            [os.path.abspath(p) for p in args.patch or []],
            args.debian_kernel, f"--driver-src {args.driver_src}")


def run(args):
    if args.action == "merge":
        return merge(args)
    before_setup(args)
    baseline = report.load_baseline(args.baseline) if args.baseline \
        else None
    src, patches, kernel, what = _sources(args)
    lines, final, applied = patch_lines.read(
        src, patch_paths=None if args.base else patches,
        base_dir=args.base)
    wanted = labels(args.patches)
    if wanted:
        known = {ln.patch for ln in lines}
        if not wanted & known:
            raise StepError(f"--patches {args.patches}: no judged line "
                            "belongs to them", "the patches with judged "
                            "lines are " + ", ".join(sorted(known)),
                            "give labels from that list")
        lines = [ln for ln in lines if ln.patch in wanted]
    pairs = generate(lines, final)
    if args.ops:
        pairs = [(m, ln) for m, ln in pairs if m.op in args.ops]
    if args.k:
        pairs = [(m, ln) for m, ln in pairs if args.k.lower() in m.id.lower()]
    if args.ids:
        ids = {i.strip() for i in args.ids.split(",") if i.strip()}
        pairs = [(m, ln) for m, ln in pairs if m.id in ids]
    if args.list:
        for m, ln in pairs:
            _, diff = operators.describe(final[m.file], m)
            print(f"{m.id}  [{ln.patch}] " + " | ".join(diff))
        print(f"{len(pairs)} mutants of {len(lines)} lines")
        return 0
    if not pairs:
        raise StepError("no mutant to judge", f"{len(lines)} judged lines, "
                        "no operator applies (or -k/--ops left none)",
                        "check --patches, --ops and -k")
    all_mutants = [m for m, _ in pairs]
    selected, shard = campaign.select_shard(all_mutants, args.shard)
    line_of = {m.id: ln for m, ln in pairs}
    out = args.out or os.path.join(
        paths.REPORTS_DIR,
        "mutate-" + time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
    camp = campaign.Campaign(out)
    meta = {"driver": what, "patches": [os.path.basename(p) for p in
                                        patches] if not args.base else
            [f"--base {args.base}"], "src": src}
    done = camp.start(meta, lines, all_mutants, selected, shard)
    _mark_inspected(args, camp, selected, done, line_of, final)
    todo = campaign.pending(selected, done, judging=not args.no_judge)
    _log(f"{len(all_mutants)} mutants of {len(lines)} lines"
         f"{', shard ' + shard + ': ' + str(len(selected)) if shard else ''}"
         f"; {len(selected) - len(todo)} already judged, {len(todo)} to "
         f"build; campaign {out}")
    if todo and args.no_judge:
        _build_all(args, camp, src, final, applied, kernel, todo, line_of)
    elif todo:
        b = _builder(camp, src, final, applied, kernel)
        judging.run(args, camp, b, final, lines, todo, line_of, kernel,
                    _log)
    meta = camp.meta()
    data, text = report.write(out, meta, camp.records(), baseline)
    print(text if len(text) < 4000 else "\n".join(
        text.splitlines()[:4] + ["..."] + text.splitlines()[-1:]))
    _write_json(args.json, data)
    _log(f"report: {os.path.join(out, 'report.txt')} (report.json, "
         "report.html)")
    return 0


def equivalents_file(args):
    """--equivalent, or the series' own list for --driver pagepool."""
    if args.equivalent:
        return args.equivalent
    if args.driver:
        path = os.path.join(pagepool_series.SERIES,
                            "mutate-equivalents.txt")
        return path if os.path.isfile(path) else None
    return None


def _mark_inspected(args, camp, selected, done, line_of, final):
    """Mutants an equivalents list names get their verdict without a
    build: equivalent, by inspection, with its reason (one already
    killed keeps its verdict: the list is then wrong, and said so)."""
    path = equivalents_file(args)
    if not path:
        return
    eq = campaign.read_equivalents(path)
    marked = 0
    for m in selected:
        reason = campaign.inspected(m, line_of[m.id].function, eq)
        if reason is None:
            continue
        old = done.get(m.id, {}).get("verdict")
        if old in (campaign.KILLED, campaign.KILLED_HANG):
            _log(f"{m.id}: listed equivalent in {path} but {old}: the "
                 "list is wrong for it")
            continue
        mutated, diff = operators.describe(final[m.file], m)
        r = campaign.record(m, line_of[m.id], mutated, diff, {
            "verdict": campaign.EQUIVALENT,
            "reason": f"by inspection: {reason}"})
        camp.write(r)
        done[m.id] = r
        marked += 1
    if marked:
        _log(f"{marked} mutants equivalent by inspection "
             f"({os.path.relpath(path, paths.REPO)})")


def _builder(camp, src, final, applied, kernel):
    """The Builder of the campaign, with the unmutated driver built."""
    build_src = src
    work = os.path.join(camp.out, "build")
    if not applied:
        # the driver without the patch: the final tree is a patched copy
        build_src = os.path.join(work, "src")
        shutil.rmtree(build_src, ignore_errors=True)
        shutil.copytree(src, build_src, symlinks=True)
        for rel, text in final.items():
            with open(os.path.join(build_src, rel), "w") as f:
                f.write("\n".join(text))
    headers = user_kernel.debian_headers(kernel, _log)
    b = build.Builder(build_src, headers, work, log=_log)
    _log("building the unmutated driver (one job)")
    b.build_base()
    meta = camp.meta()
    meta.update(headers=headers, base_build_s=round(b.base_seconds, 1))
    report.write_json(os.path.join(camp.out, "campaign.json"), meta)
    return b


def _build_all(args, camp, src, final, applied, kernel, todo, line_of):
    b = _builder(camp, src, final, applied, kernel)
    times = []
    for k, m in enumerate(todo, 1):
        ln = line_of[m.id]
        mutated, diff = operators.describe(final[m.file], m)
        result = b.build(m, final[m.file])
        camp.write(campaign.record(m, ln, mutated, diff, result))
        times.append(result["build_s"])
        print(f"[{k}/{len(todo)}] {m.id:28} {result['verdict']:11} "
              f"{result['build_s']:5.1f}s  {' | '.join(diff)[:90]}",
              flush=True)
    if times:
        _log(f"median build of one mutant: {statistics.median(times):.1f} s")


def _write_json(dest, data):
    if not dest:
        return
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if dest == "-":
        sys.stdout.write(text)
    else:
        with open(dest, "w") as f:
            f.write(text)


def merge(args):
    dirs = args.dirs
    for d in dirs:
        if not os.path.isdir(d):
            raise StepError(f"{d}: no such directory", "merge takes the "
                            "--out directories of mutate runs",
                            "check the paths")
    camp = campaign.merge(args.report, dirs)
    baseline = report.load_baseline(args.baseline) if args.baseline \
        else None
    data, text = report.write(args.report, camp.meta(), camp.records(),
                              baseline)
    print(text if len(text) < 4000 else "\n".join(
        text.splitlines()[:4] + ["..."] + text.splitlines()[-1:]))
    _write_json(args.json, data)
    missing = data["counts"]["pending"]
    total = camp.meta().get("total")
    _log(f"merged {len(dirs)} campaigns into {args.report}: "
         f"{data['mutants']} of {total} mutants"
         f"{', ' + str(missing) + ' without a verdict' if missing else ''}")
    return 0
