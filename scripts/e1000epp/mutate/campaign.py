# SPDX-License-Identifier: GPL-2.0-or-later
"""A campaign's state on disk: one directory, one JSON per mutant.

    OUT/campaign.json          what is judged: the driver, the patches,
                               every judged line of the patch, every
                               mutant id, the key (a hash of the mutants'
                               ids and edits) and the shard
    OUT/mutants/<id>.json      one mutant and its verdict, written (atomically)
                               the moment the verdict is known
    OUT/build/                 the unmutated build and the mutants' tree

Running the same command with the same --out again finds the verdicts
already written and goes on with the mutants that have none: an
interrupted campaign resumes where it stopped. A directory holding a
campaign of other mutants (another patch, another driver) is refused.

--shard I/N keeps every N-th mutant by id from the I-th, the rule of
`run --shard` (matrix.cell_model.shard), so N machines judge every
mutant exactly once; merge() puts their directories together.
"""

import hashlib
import json
import os
import re
import shutil

from e1000epp.common.errors import StepError
from e1000epp.matrix import cell_model
from e1000epp.matrix.report import write_json
from e1000epp.mutate import operators

# Verdicts. FINAL ones are not judged again on resume.
KILLED = "killed"
KILLED_HANG = "killed (hang or crash)"
SURVIVED = "survived"
NOT_REACHED = "not reached"
EQUIVALENT = "equivalent"
NOT_BUILT = "not built"
BUILT = "built"          # differs from the unmutated object; not judged
VERDICTS = (KILLED, KILLED_HANG, SURVIVED, NOT_REACHED, EQUIVALENT,
            NOT_BUILT, BUILT)
FINAL = frozenset(VERDICTS) - {BUILT}


def mutant_key(mutants):
    """The campaign's identity: its mutants' ids and edits."""
    h = hashlib.sha256()
    for m in sorted(mutants, key=lambda m: m.sort_key()):
        h.update(m.id.encode() + b"\0" + repr(m.edits).encode() + b"\n")
    return h.hexdigest()[:16]


def file_name(mutant_id):
    return re.sub(r"[^A-Za-z0-9._-]", "_", mutant_id) + ".json"


def select_shard(mutants, text):
    """The mutants of --shard I/N (all of them for None), and 'I/N'."""
    if not text:
        return list(mutants), ""
    try:
        i, n = cell_model.parse_shard(text)
    except cell_model.MatrixError as e:
        raise StepError(str(e.args[0]), e.args[1] if len(e.args) > 1 else
                        "", "give --shard I/N, e.g. 2/4")
    return cell_model.shard(mutants, i, n), f"{i}/{n}"


class Campaign:
    """One campaign directory."""

    def __init__(self, out):
        self.out = out
        self.mutant_dir = os.path.join(out, "mutants")

    def start(self, meta, lines, all_mutants, mutants, shard):
        """Create the directory, or check it holds this campaign (a
        resume); returns {id: record} of the verdicts already there.
        all_mutants: the whole campaign's; mutants: this shard's."""
        key = mutant_key(all_mutants)
        path = os.path.join(self.out, "campaign.json")
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
            if old.get("key") != key:
                raise StepError(f"{self.out} holds another campaign",
                                f"its mutants (key {old.get('key')}) are "
                                f"not this patch's (key {key})",
                                "give a new --out, or the same patch and "
                                "driver to resume it")
            if old.get("shard", "") != shard:
                raise StepError(f"{self.out} holds shard "
                                f"{old.get('shard') or 'all'}",
                                f"this run is shard {shard or 'all'}",
                                "give the same --shard to resume it")
        os.makedirs(self.mutant_dir, exist_ok=True)
        write_json(path, dict(meta, key=key, shard=shard,
                              lines=[ln._asdict() for ln in lines],
                              mutants=[m.id for m in mutants],
                              total=len(all_mutants)))
        return self.records()

    def meta(self):
        with open(os.path.join(self.out, "campaign.json")) as f:
            return json.load(f)

    def records(self):
        """{id: record} of every mutant JSON in the directory."""
        out = {}
        if not os.path.isdir(self.mutant_dir):
            return out
        for f in sorted(os.listdir(self.mutant_dir)):
            if f.endswith(".json"):
                try:
                    with open(os.path.join(self.mutant_dir, f)) as fh:
                        r = json.load(fh)
                except (OSError, ValueError):
                    continue        # a torn write: judged again
                out[r["id"]] = r
        return out

    def write(self, record):
        write_json(os.path.join(self.mutant_dir, file_name(record["id"])),
                   record)


def record(mutant, line, mutated, diff, result):
    """A mutant's JSON: where it is, what it changes, its verdict."""
    r = {"id": mutant.id, "file": mutant.file, "line": mutant.line,
         "op": mutant.op, "n": mutant.n, "patch": line.patch,
         "function": line.function, "mutated": mutated, "diff": diff}
    r.update(result)
    return r


def read_equivalents(path):
    """[(what, reason)] of an equivalents file: per line a mutant's id
    (file:line:operator:n) or FILE:FUNCTION (every mutant of that
    function), then the reason; '#' starts a comment."""
    out = []
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise StepError(f"--equivalent {path}: cannot be read", str(e),
                        "give a file of 'ID reason' lines")
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        what, _, reason = line.partition(" ")
        if what.count(":") not in (1, 3) or not reason.strip():
            raise StepError(f"--equivalent {path}:{n}: {line!r}",
                            "a line is a mutant id (file:line:op:n) or "
                            "file:function, then the reason",
                            "fix that line")
        out.append((what, reason.strip()))
    return out


def inspected(mutant, function, equivalents):
    """The reason an equivalents list gives for a mutant, else None."""
    for what, reason in equivalents:
        if what == mutant.id or what == f"{mutant.file}:{function}":
            return reason
    return None


def pending(mutants, records, judging):
    """The mutants still to do: no record, or only `built` while this
    run judges."""
    out = []
    for m in mutants:
        r = records.get(m.id)
        if r is None or (r.get("verdict") not in FINAL and
                         (judging or r.get("verdict") != BUILT)):
            out.append(m)
    return out


def merge(out, shard_dirs):
    """Put shard campaigns together in `out`: the same key, every
    mutant's record once. Returns the merged Campaign."""
    metas = []
    for d in shard_dirs:
        p = os.path.join(d, "campaign.json")
        if not os.path.isfile(p):
            raise StepError(f"{d} is not a mutate campaign",
                            "it has no campaign.json",
                            "give the --out directories of mutate runs")
        with open(p) as f:
            metas.append(json.load(f))
    keys = {m.get("key") for m in metas}
    if len(keys) != 1:
        raise StepError("the campaigns to merge judge different mutants",
                        "their keys differ: " + ", ".join(sorted(
                            str(k) for k in keys)),
                        "merge the shards of one patch and driver")
    if os.path.abspath(out) in {os.path.abspath(d) for d in shard_dirs}:
        raise StepError(f"--report {out} is one of the shards",
                        "merging writes a new directory",
                        "give another --report")
    merged = Campaign(out)
    if os.path.isdir(merged.mutant_dir):
        shutil.rmtree(merged.mutant_dir)
    os.makedirs(merged.mutant_dir)
    seen = {}
    for d in shard_dirs:
        for mid, r in Campaign(d).records().items():
            if mid not in seen or (seen[mid].get("verdict") not in FINAL and
                                   r.get("verdict") in FINAL):
                seen[mid] = r
    for r in seen.values():
        merged.write(r)
    meta = dict(metas[0], shard="", merged_from=[os.path.abspath(d) for d
                                                 in shard_dirs])
    meta["mutants"] = sorted({i for m in metas for i in m["mutants"]},
                             key=operators.sort_key)
    write_json(os.path.join(out, "campaign.json"), meta)
    return merged
