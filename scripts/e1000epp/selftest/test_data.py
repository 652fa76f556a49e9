# SPDX-License-Identifier: GPL-2.0-or-later
"""Inputs the functional suite needs that come from Debian's archive.

The --driver-src test rebuilds the stock e1000e from Debian's own
linux-source of the guest kernel's version. Fetching that package (140 MB)
and unpacking its driver directory is the suite's preparation, not a
test: `test` does it before the functional suite's clock starts (and
says so, with the time it took), the test fixture only when it is still
missing (pytest run by hand).
"""

import json
import os
import shutil
import subprocess
import time

from e1000epp.common import paths
from e1000epp.selftest.results import selected

LINUX_SOURCE = "linux-source-6.1"
E1000E_IN_TREE = "drivers/net/ethernet/intel/e1000e"
CACHE = os.path.join(paths.BUILD, "cache")
# The test that uses it, named as -k matches it.
USER_TEST = ("test_user_kernel.py::"
             "test_driver_rebuilt_from_debian_source_runs_the_matrix")


class PrepareError(Exception):
    """What could not be prepared, and why, for the person running."""


def guest_kernel_version():
    """The Debian version of the default image's kernel (6.1.x-y), or None
    while there is no image."""
    try:
        with open(os.path.join(paths.GUEST_DIR, "manifest.json")) as f:
            return json.load(f)["kernel"]["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _source_top():
    """build/cache's tree of the package, holding only the driver."""
    return os.path.join(CACHE, LINUX_SOURCE + "-e1000e")


def e1000e_source_dir():
    return os.path.join(_source_top(), E1000E_IN_TREE)


def e1000e_source_ready():
    return os.path.exists(os.path.join(e1000e_source_dir(), "netdev.c"))


def _run(argv, timeout, what, cwd=None):
    try:
        proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=timeout)
    except OSError as e:
        raise PrepareError("%s: cannot run %s: %s"
                           % (what, argv[0], e.strerror or e))
    except subprocess.TimeoutExpired:
        raise PrepareError("%s: %s did not finish in %d s"
                           % (what, argv[0], timeout))
    if proc.returncode:
        tail = proc.stdout.strip().splitlines()[-3:]
        raise PrepareError("%s: %s exited with %d%s"
                           % (what, " ".join(argv[:2]), proc.returncode,
                               (": " + " / ".join(tail)) if tail else ""))


def debian_e1000e_source(version):
    """drivers/net/ethernet/intel/e1000e from linux-source-6.1 at Debian
    version `version`, downloaded and unpacked once into build/cache."""
    if e1000e_source_ready():
        return e1000e_source_dir()
    os.makedirs(CACHE, exist_ok=True)
    deb = os.path.join(CACHE, "%s_%s_all.deb" % (LINUX_SOURCE, version))
    if not os.path.exists(deb):
        _run(["apt-get", "download", "%s=%s" % (LINUX_SOURCE, version)],
             1800, "downloading %s %s (run apt-get update if the archive "
             "no longer has it)" % (LINUX_SOURCE, version), cwd=CACHE)
    if not os.path.exists(deb):
        raise PrepareError("apt-get download left no %s" % deb)
    unpacked = os.path.join(CACHE, "linux-source-unpacked")
    top = _source_top()
    # Unpacked beside it and renamed whole: an interrupted run leaves
    # nothing that looks finished.
    part = top + ".part"
    for d in (unpacked, part, top):
        shutil.rmtree(d, ignore_errors=True)
    try:
        _run(["dpkg-deb", "-x", deb, unpacked], 600,
             "unpacking %s" % os.path.basename(deb))
        os.makedirs(part)
        _run(["tar", "-xJf", os.path.join(unpacked, "usr", "src",
                                          LINUX_SOURCE + ".tar.xz"),
              "-C", part, "--strip-components=1",
              "%s/%s" % (LINUX_SOURCE, E1000E_IN_TREE)], 1800,
             "unpacking %s from %s.tar.xz" % (E1000E_IN_TREE, LINUX_SOURCE))
        os.rename(part, top)
    finally:
        shutil.rmtree(unpacked, ignore_errors=True)
        shutil.rmtree(part, ignore_errors=True)
    if not e1000e_source_ready():
        raise PrepareError("%s has no %s/netdev.c" % (deb, E1000E_IN_TREE))
    return e1000e_source_dir()


def prepare_functional(k, log):
    """Before the functional suite: what its selected tests need from the
    archive. Returns a note for the suite's row, or None. A failure is
    only reported: the test that needs the data fails with it."""
    if not selected(USER_TEST, k):
        return None
    version = guest_kernel_version()
    if not version:
        return None         # no image yet: the fixture builds it first
    if e1000e_source_ready():
        return None
    log("functional: preparing Debian's e1000e source (%s %s, about 140 "
        "MB) in %s ..." % (LINUX_SOURCE, version,
                           os.path.relpath(CACHE, paths.REPO)))
    start = time.monotonic()
    try:
        debian_e1000e_source(version)
    except PrepareError as e:
        log("functional: %s" % e)
        return "test data not prepared: %s" % e
    log("functional: Debian's e1000e source ready (%.1fs, before the "
        "suite's clock)" % (time.monotonic() - start))
    return None
