# SPDX-License-Identifier: GPL-2.0-or-later
"""`run --driver pagepool[+BUG]`: the page-pool e1000e series of
examples/pagepool-e1000e (and one of its bug-class fixtures on top) as
the guest's driver, in one word.

The word stands for `--debian-kernel 6.12 --driver-src DIR`, where DIR
is the e1000e directory examples/pagepool-e1000e/apply.sh writes:
Debian's linux-source-6.12 of the backports kernel's version with the
eight patches, into build/pagepool-e1000e (the series) or
build/pagepool-e1000e-BUG (the series and bugs/<n>-FIXTURE-...). A tree
is kept while its patches and kernel version are unchanged; the
source package is fetched once and shared.
"""

import fcntl
import glob
import hashlib
import os
import shutil
import subprocess

from e1000epp.common import paths
from e1000epp.common.errors import StepError

SERIES = os.path.join(paths.REPO, "examples", "pagepool-e1000e")
APPLY = os.path.join(SERIES, "apply.sh")
WORD = "pagepool"
# The fixtures of bugs/README.md, by the name its table gives them.
BUGS = {
    "fcs-straddle": "0001",
    "fcs-alone": "0002",
    "truesize": "0003",
    "reset-pm": "0004",
    "napi-down": "0005",
    "no-sync": "0006",
    "early-recycle": "0007",
    "csum-err": "0008",
    "budget-drop": "0009",
    "teardown-leak": "0010",
    "silent-vector": "0011",
    "no-tx-reset": "0012",
}
E1000E = os.path.join("linux", "drivers", "net", "ethernet", "intel",
                      "e1000e")
STAMP = ".e1000e-pp-patches"


def choices():
    return [WORD] + [f"{WORD}+{b}" for b in BUGS]


def parse(word):
    """The fixture a --driver word names (None: the series alone), or
    StepError naming the words there are."""
    name, plus, bug = word.partition("+")
    if name != WORD or (plus and bug not in BUGS):
        raise StepError(f"--driver {word!r}: no such driver",
                        "the project ships the page-pool series and its "
                        "bug-class fixtures (examples/pagepool-e1000e)",
                        "give one of: " + ", ".join(choices()))
    return bug or None


def fixture_patch(bug):
    found = glob.glob(os.path.join(SERIES, "bugs",
                                   f"{BUGS[bug]}-FIXTURE-*.patch"))
    if len(found) != 1:
        raise StepError(f"bugs/{BUGS[bug]}-FIXTURE-*.patch: "
                        f"{len(found)} files", "the fixture is missing",
                        "restore examples/pagepool-e1000e/bugs")
    return found[0]


def out_dir(bug):
    return os.path.join(paths.BUILD, "pagepool-e1000e" +
                        (f"-{bug}" if bug else ""))


def _patches(bug):
    series = sorted(glob.glob(os.path.join(SERIES, "0*.patch")))
    return series + ([fixture_patch(bug)] if bug else [])


def patches(word):
    """The patch files of a --driver word, in the order apply.sh applies
    them (the series' 0*.patch by name, then the fixture)."""
    return _patches(parse(word))


def _stamp(bug):
    h = hashlib.sha256()
    for p in _patches(bug):
        h.update(os.path.basename(p).encode() + b"\0")
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def prepare(word, log=print):
    """The --driver-src directory of the word's tree, made if it is not
    current. One process at a time per tree: apply.sh empties the tree
    before it unpacks, so a second maker (a `mutate` beside a `run`, the
    functional tests' workers) would pull it from under the first."""
    bug = parse(word)
    os.makedirs(paths.BUILD, exist_ok=True)
    # The series' tree too: a fixture's tree links its source package.
    lock_path = os.path.join(paths.BUILD, ".pagepool-e1000e.lock")
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _prepare(word, bug, log)


def _prepare(word, bug, log):
    out = out_dir(bug)
    src = os.path.join(out, E1000E)
    stamp_path = os.path.join(out, STAMP)
    want = _stamp(bug)
    try:
        with open(stamp_path) as f:
            if f.read() == want and os.path.isdir(src):
                log(f"{word}: {src} (current)")
                return src
    except OSError:
        pass
    os.makedirs(out, exist_ok=True)
    if bug:
        # The source package the series' tree was made from, shared.
        for deb in glob.glob(os.path.join(out_dir(None),
                                          "linux-source-6.12_*_all.deb")):
            target = os.path.join(out, os.path.basename(deb))
            if not os.path.exists(target):
                try:
                    os.link(deb, target)
                except OSError:
                    shutil.copy(deb, target)
    log(f"{word}: applying the series to Debian's linux-source-6.12 "
        f"({os.path.relpath(out, paths.REPO)})")
    _sh([APPLY, out], log)
    if bug:
        patch = fixture_patch(bug)
        log(f"{word}: + {os.path.basename(patch)}")
        _sh(["patch", "-d", os.path.join(out, "linux"), "-p1", "--quiet",
             "--no-backup-if-mismatch", "-i", patch], log)
    with open(stamp_path, "w") as f:
        f.write(want)
    return src


def _sh(argv, log):
    p = subprocess.run(argv, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    for line in p.stdout.splitlines():
        log(line)
    if p.returncode != 0:
        raise StepError(f"{os.path.basename(argv[0])} failed "
                        f"(exit {p.returncode})", "preparing the page-pool "
                        "driver", "see the lines above")
