# SPDX-License-Identifier: GPL-2.0-or-later
"""`setup --debug-kernel`: the sanitizing guest kernel.

Debian's kernels have no KASAN, kmemleak, lockdep or DEBUG_NET, so a
page recycled while an skb still points at it, a leak or a NAPI-only
call made outside NAPI shows nothing. This step builds, once, a kernel
with them from the same Debian source the guest boots (linux-source-6.12
of the backports kernel's version, the package the page-pool series is
applied to): x86_64_defconfig + kvm_guest.config + configs/
debug-kernel.config, every option of the fragment checked after
olddefconfig. The tree is kept in build/debug-kernel/linux (a built
tree for `run --kernel-tree`, which `run --debug-kernel` names) and
rebuilt only when the source package or the fragment changes.
"""

import glob
import hashlib
import os
import shutil
import subprocess

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.common.progress import fmt_secs, run_logged

OUT = os.path.join(paths.BUILD, "debug-kernel")
TREE = paths.DEBUG_KERNEL_TREE
FRAGMENT = os.path.join(paths.REPO, "configs", "debug-kernel.config")
STAMP = os.path.join(OUT, "built.stamp")
LOG = os.path.join(paths.LOG_DIR, "debug-kernel.log")
BZIMAGE = os.path.join(TREE, "arch", "x86", "boot", "bzImage")


def fragment_options(path=FRAGMENT):
    """{CONFIG_X: value} the fragment asks for ("n" for =n)."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("CONFIG_") and "=" in line:
                k, _, v = line.partition("=")
                out[k] = v
    return out


def release_suffix(path=FRAGMENT):
    """What the sanitizing kernel's release ends with (its
    CONFIG_LOCALVERSION): how a booted guest is known to be it."""
    return fragment_options(path).get("CONFIG_LOCALVERSION", "").strip('"')


def unmet(config_text, wanted):
    """The fragment's options the final .config does not have."""
    have = {}
    for line in config_text.splitlines():
        if line.startswith("CONFIG_") and "=" in line:
            k, _, v = line.partition("=")
            have[k] = v
        elif line.startswith("# CONFIG_") and line.endswith(" is not set"):
            have[line[2:-len(" is not set")]] = "n"
    return sorted(k for k, v in wanted.items() if have.get(k, "n") != v)


def source_deb(log):
    """Debian's linux-source-6.12 package, fetched as the series does."""
    from e1000epp.image import pagepool_series
    pagepool_series.prepare(pagepool_series.WORD, log=log)
    debs = glob.glob(os.path.join(pagepool_series.out_dir(None),
                                  "linux-source-6.12_*_all.deb"))
    if not debs:
        raise StepError("no linux-source-6.12 package",
                        "examples/pagepool-e1000e/apply.sh fetched none",
                        "run ./e1000e-pp setup, then retry")
    return debs[0]


def _key(deb):
    h = hashlib.sha256()
    h.update(os.path.basename(deb).encode())
    with open(FRAGMENT, "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def _unpack(deb, log):
    if os.path.isdir(TREE):
        shutil.rmtree(TREE)
    os.makedirs(OUT, exist_ok=True)
    log("unpacking Debian's linux-source-6.12")
    tar = subprocess.run(f"dpkg-deb --fsys-tarfile '{deb}' | tar -xO "
                         "./usr/src/linux-source-6.12.tar.xz | "
                         f"tar -xJ -C '{OUT}'", shell=True)
    tops = glob.glob(os.path.join(OUT, "linux-source-6.12"))
    if tar.returncode or not tops:
        raise StepError("unpacking linux-source-6.12 failed",
                        f"from {deb}", "delete build/debug-kernel and retry")
    os.rename(tops[0], TREE)


def build(reporter, jobs=None):
    """The step: (re)configure and build when the inputs changed."""
    deb = source_deb(reporter.line)
    key = _key(deb)
    if os.path.isfile(STAMP) and open(STAMP).read().strip() == key and \
            os.path.isfile(BZIMAGE):
        return f"{os.path.relpath(TREE, paths.REPO)} (cached)"
    _unpack(deb, reporter.line)
    os.makedirs(paths.LOG_DIR, exist_ok=True)
    make = ["nice", "-n", "10", "make", "-C", TREE]
    run_logged(make + ["x86_64_defconfig", "kvm_guest.config"], LOG,
               "configuring the debug kernel", reporter=reporter)
    run_logged([os.path.join(TREE, "scripts", "kconfig", "merge_config.sh"),
                "-m", "-O", TREE, os.path.join(TREE, ".config"), FRAGMENT],
               LOG, "merging configs/debug-kernel.config", cwd=TREE,
               reporter=reporter, append=True)
    run_logged(make + ["olddefconfig"], LOG, "make olddefconfig",
               reporter=reporter, append=True)
    with open(os.path.join(TREE, ".config")) as f:
        missing = unmet(f.read(), fragment_options())
    if missing:
        raise StepError("the debug kernel's config lost options of "
                        "configs/debug-kernel.config",
                        ", ".join(missing),
                        "their dependencies are not met: add them to the "
                        "fragment")
    n = str(jobs or os.cpu_count() or 1)
    state = {"n": 0}

    def progress(line):
        if line.lstrip().startswith(("CC", "LD", "AR")):
            state["n"] += 1
            if state["n"] % 500 == 0:
                reporter.line(f"debug kernel: {state['n']} objects built")
    secs = run_logged(make + ["-j", n, "bzImage", "modules"], LOG,
                      "building the debug kernel", reporter=reporter,
                      append=True, on_line=progress,
                      fix=f"see {os.path.relpath(LOG, paths.REPO)}")
    with open(STAMP, "w") as f:
        f.write(key + "\n")
    return f"{os.path.relpath(TREE, paths.REPO)} built in {fmt_secs(secs)}"
