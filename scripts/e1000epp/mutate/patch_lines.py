# SPDX-License-Identifier: GPL-2.0-or-later
"""Which lines of the final driver tree a patch (or a series) adds or
changes.

A patch is read as unified diffs, one section per file; a section whose
file is not in the driver directory (Kconfig, documentation) is left
aside. The strip level is the one that maps the most of the patch's
files into the driver directory (so a/drivers/net/.../e1000e/netdev.c
and a plain netdev.c both work, and the Makefile of the directory above
never lands on the driver's own).

Every file the patches touch is taken through its versions: the final
text, then each patch reversed in turn (GNU patch, one file at a time,
so offsets and fuzz are handled as `patch` handles them). Walking the
versions forward, difflib's opcodes between one version and the next
carry each line's owner: a line kept keeps its owner, a line inserted
or replaced belongs to the patch that wrote it. A line of patch 1 that
patch 5 rewrites is patch 5's.

Of the owned lines, those judged are C code: blank lines, comments,
`#include` lines, lines of braces alone and declarations without an
initialiser are not (nothing there can be wrong on its own, or nothing
to mutate).
"""

import collections
import difflib
import os
import re
import subprocess
import tempfile

from e1000epp.common.errors import StepError
from e1000epp.mutate import ctokens

Section = collections.namedtuple("Section", "old new text")
PatchLine = collections.namedtuple("PatchLine",
                                   "file line patch text function")
C_SUFFIXES = (".c", ".h")


def read_sections(path):
    """The file sections of a unified diff: [(old path, new path, text)]
    with the text ready for `patch` (its header and hunks)."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise StepError(f"--patch {path}: cannot read it", str(e),
                        "check the path given to --patch")
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("--- ") and i + 1 < len(lines) and \
                lines[i + 1].startswith("+++ "):
            old = _diff_path(lines[i][4:])
            new = _diff_path(lines[i + 1][4:])
            body = [lines[i], lines[i + 1]]
            i += 2
            while i < len(lines) and lines[i].startswith("@@"):
                m = re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@",
                             lines[i])
                if not m:
                    break
                old_n = int(m.group(1) if m.group(1) is not None else 1)
                new_n = int(m.group(2) if m.group(2) is not None else 1)
                body.append(lines[i])
                i += 1
                while (old_n > 0 or new_n > 0) and i < len(lines):
                    ln = lines[i]
                    c = ln[:1]
                    if c == "\\":
                        body.append(ln)
                        i += 1
                        continue
                    if c in (" ", ""):
                        old_n -= 1
                        new_n -= 1
                    elif c == "-":
                        old_n -= 1
                    elif c == "+":
                        new_n -= 1
                    else:
                        break
                    body.append(ln)
                    i += 1
                if i < len(lines) and lines[i].startswith("\\"):
                    body.append(lines[i])
                    i += 1
            out.append(Section(old, new, "\n".join(body) + "\n"))
            continue
        i += 1
    if not out:
        raise StepError(f"--patch {path} is not a patch",
                        "it holds no unified diff (no ---/+++ file "
                        "header followed by @@ hunks)",
                        "give a file made by git format-patch or diff -u")
    return out


def _diff_path(text):
    p = text.split("\t")[0].strip()
    return None if p == "/dev/null" else p


def _strip(path, k):
    parts = path.split("/")
    return "/".join(parts[k:]) if k < len(parts) else None


def map_sections(sections, driver_dir):
    """{relative file in driver_dir: section}, the strip level chosen to
    map the most files; files outside the directory are dropped."""
    best = {}
    for k in range(0, 8):
        got = {}
        for s in sections:
            for p in (s.new, s.old):
                rel = _strip(p, k) if p else None
                if rel and os.path.isfile(os.path.join(driver_dir, rel)):
                    got.setdefault(rel, []).append(s)
                    break
        if len(got) > len(best):
            best = got
    return best


def _apply_one(content, section_text, reverse, tmp):
    """`content` (a list of lines, None: no such file) through one file's
    section with GNU patch; the new lines, or None when it failed."""
    src = os.path.join(tmp, "src")
    out = os.path.join(tmp, "out")
    diff = os.path.join(tmp, "diff")
    with open(src, "w") as f:
        f.write("\n".join(content) if content is not None else "")
    with open(diff, "w") as f:
        f.write(section_text)
    if os.path.exists(out):
        os.unlink(out)
    argv = ["patch", "-s", "-f", "--no-backup-if-mismatch", "-r",
            os.path.join(tmp, "rej"), "-o", out, src, "-i", diff]
    if reverse:
        argv.insert(1, "-R")
    p = subprocess.run(argv, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return None
    if not os.path.exists(out):
        return []
    with open(out) as f:
        return f.read().split("\n")


def _read_lines(path):
    try:
        with open(path) as f:
            return f.read().split("\n")
    except FileNotFoundError:
        return None


def versions(driver_dir, patches):
    """Each touched file through the patches: ({file: [v0, .., vn]},
    applied) where vn is the final text (lists of lines) and applied
    says whether driver_dir already held the patches (else they were
    applied forward to it, and vn is what the mutants start from).
    patches: [(label, [Section])] in apply order."""
    per_file = collections.OrderedDict()
    for label, sections in patches:
        for rel, secs in map_sections(sections, driver_dir).items():
            per_file.setdefault(rel, {})[label] = secs
    if not per_file:
        raise StepError("the patch touches no file of the driver "
                        f"directory {driver_dir}", "none of its file "
                        "paths, with any leading directories stripped, "
                        "names a file there", "give the driver directory "
                        "the patch is written against")
    labels = [label for label, _ in patches]
    with tempfile.TemporaryDirectory(prefix="mutate-patch-") as tmp:
        for reverse in (True, False):
            out, ok = {}, True
            for rel, by_label in per_file.items():
                text = _read_lines(os.path.join(driver_dir, rel))
                chain = [text]
                order = reversed(labels) if reverse else labels
                for label in order:
                    for sec in by_label.get(label, []):
                        text = _apply_one(text, sec.text, reverse, tmp)
                        if text is None:
                            ok = False
                            break
                    if not ok:
                        break
                    chain.append(text)
                if not ok:
                    break
                out[rel] = list(reversed(chain)) if reverse else chain
            if ok:
                return out, reverse
    raise StepError("the patch does not apply to " + driver_dir,
                    "its hunks neither reverse (the directory holding the "
                    "patch) nor apply (the directory without it)",
                    "give the driver directory the patch was made against "
                    "(or with), and the patches in their apply order")


def owners(chain, labels):
    """Per line of the final version (chain[-1]), the label of the patch
    that wrote it, or None for a line of the base."""
    own = [None] * len(chain[0] or [])
    for k in range(1, len(chain)):
        a, b = chain[k - 1] or [], chain[k] or []
        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        new = []
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "equal":
                new.extend(own[i1:i2])
            elif op in ("replace", "insert"):
                new.extend([labels[k - 1]] * (j2 - j1))
        own = new
    return own


def judged_lines(rel, final_lines, own):
    """The PatchLines of one file: owned, C, and code worth mutating."""
    if not rel.endswith(C_SUFFIXES):
        return []
    src = ctokens.Source("\n".join(final_lines))
    out = []
    for n, label in enumerate(own, 1):
        if label is None or \
                src.kind.get(n) not in (ctokens.CODE, ctokens.PREPROC):
            continue
        toks = [src.tokens[i] for i in src.line_tokens(n)]
        if src.kind[n] == ctokens.CODE and (
                ctokens.is_pure_declaration(toks) or
                ctokens.is_only_braces(toks)):
            continue
        out.append(PatchLine(rel, n, label, final_lines[n - 1],
                             src.function_at(n)))
    return out


def patch_label(path):
    """A patch's short name: its number for a series file (0004-...),
    else its file name."""
    base = os.path.basename(path)
    m = re.match(r"(\d{4})-", base)
    return m.group(1) if m else base


def read(driver_dir, patch_paths=None, base_dir=None):
    """(lines, final, applied): the judged PatchLines of every file,
    {file: final text} and whether driver_dir already held the patches.
    Either patch_paths (in apply order) or base_dir (the unpatched
    tree: every file differing from driver_dir)."""
    if not os.path.isdir(driver_dir):
        raise StepError(f"--driver-src {driver_dir}: no such directory",
                        "the path does not exist or is not a directory",
                        "check the path given to --driver-src")
    if base_dir is not None:
        chains, applied, labels = _base_versions(driver_dir, base_dir)
    else:
        patches = [(patch_label(p), read_sections(p)) for p in patch_paths]
        labels = [label for label, _ in patches]
        if len(set(labels)) != len(labels):
            labels = [os.path.basename(p) for p in patch_paths]
            patches = [(lb, s) for lb, (_, s) in zip(labels, patches)]
        chains, applied = versions(driver_dir, patches)
    lines, final = [], {}
    for rel in sorted(chains):
        chain = chains[rel]
        final[rel] = chain[-1]
        if chain[-1] is None:
            continue
        lines.extend(judged_lines(rel, chain[-1], owners(chain, labels)))
    return lines, final, applied


def _base_versions(driver_dir, base_dir):
    if not os.path.isdir(base_dir):
        raise StepError(f"--base {base_dir}: no such directory",
                        "the path does not exist or is not a directory",
                        "give the unpatched driver directory")
    chains = {}
    for root, dirs, files in os.walk(driver_dir):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            if not f.endswith(C_SUFFIXES) or f.endswith(".mod.c"):
                continue
            rel = os.path.relpath(os.path.join(root, f), driver_dir)
            new = _read_lines(os.path.join(driver_dir, rel))
            old = _read_lines(os.path.join(base_dir, rel))
            if new != old:
                chains[rel] = [old, new]
    if not chains:
        raise StepError(f"--base {base_dir} and --driver-src {driver_dir} "
                        "hold the same C files", "there is no change to "
                        "judge", "give the unpatched tree as --base")
    return chains, True, ["base"]
