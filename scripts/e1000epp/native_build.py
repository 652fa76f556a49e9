# SPDX-License-Identifier: GPL-2.0-or-later
"""Step 6: the native build (unit tests, peer, agent) in build/native."""

import json
import os

from . import paths
from .progress import run_logged, ninja_progress

SUBDIRS = ["tests/unit", "tests/fuzz", "tests/bench", "tools/peer",
           "tools/plugin", "guest/agent"]
STAMP = os.path.join(paths.NATIVE_DIR, ".e1000e-pp-subdirs")
MESON = "/usr/bin/meson"


def present_subdirs():
    return [d for d in SUBDIRS
            if os.path.exists(os.path.join(paths.REPO, d, "meson.build"))]


def _recorded():
    try:
        with open(STAMP) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def build(reporter, jobs=None):
    log = os.path.join(paths.LOG_DIR, "native.log")
    subdirs = present_subdirs()
    fix = "fix the error and run ./e1000e-pp setup again"
    configured = os.path.exists(os.path.join(paths.NATIVE_DIR, "build.ninja"))
    total = 0.0
    if not configured:
        reporter.line("meson setup build/native (parts: %s)"
                      % (", ".join(subdirs) or "none yet"))
        total += run_logged([MESON, "setup", paths.NATIVE_DIR, paths.REPO],
                            log, "meson setup of the native build failed",
                            "see the log tail above", fix, reporter=reporter)
    elif _recorded() != subdirs:
        # fs.exists() results are not tracked by meson: a part that
        # appeared or vanished needs an explicit reconfigure.
        reporter.line("parts changed (%s): meson setup --reconfigure"
                      % (", ".join(subdirs) or "none"))
        total += run_logged([MESON, "setup", "--reconfigure",
                             paths.NATIVE_DIR, paths.REPO],
                            log, "meson reconfigure of the native build "
                            "failed", "see the log tail above", fix,
                            reporter=reporter)
    with open(STAMP, "w") as f:
        json.dump(subdirs, f)
    cmd = ["ninja", "-C", paths.NATIVE_DIR]
    if jobs:
        cmd += ["-j", str(jobs)]
    total += run_logged(cmd, log, "native build failed",
                        "a compile or link error, see the log tail above",
                        fix, reporter=reporter, append=True,
                        on_line=ninja_progress(reporter, "building native"))
    return "parts: %s" % (", ".join(subdirs) or "none yet")
