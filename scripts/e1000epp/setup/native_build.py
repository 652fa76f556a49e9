# SPDX-License-Identifier: GPL-2.0-or-later
"""Step 6: the native build (unit tests, peer, agent) in build/native."""

import json
import os

from e1000epp.common import paths
from e1000epp.common.progress import ninja_progress, run_logged

SUBDIRS = ["tests/unit", "tests/fuzz", "tests/bench", "tools/peer",
           "tools/plugin", "guest/agent"]
STAMP_NAME = ".e1000e-pp-subdirs"
MESON = "/usr/bin/meson"


def present_subdirs():
    return [d for d in SUBDIRS
            if os.path.exists(os.path.join(paths.REPO, d, "meson.build"))]


def _recorded(stamp):
    try:
        with open(stamp) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def build(reporter, jobs=None, build_dir=paths.NATIVE_DIR, cc=None):
    """Configure (once) and build the native parts in build_dir, with the
    compiler `cc` (meson's default, gcc, when None)."""
    name = os.path.basename(build_dir)
    log = os.path.join(paths.LOG_DIR, name + ".log")
    stamp = os.path.join(build_dir, STAMP_NAME)
    subdirs = present_subdirs()
    fix = "fix the error and run ./e1000e-pp setup again"
    configured = os.path.exists(os.path.join(build_dir, "build.ninja"))
    env = dict(os.environ, CC=cc) if cc else None
    total = 0.0
    if not configured:
        reporter.line("meson setup build/%s (parts: %s)"
                      % (name, ", ".join(subdirs) or "none yet"))
        total += run_logged([MESON, "setup", build_dir, paths.REPO],
                            log, "meson setup of the native build failed",
                            "see the log tail above", fix, env=env,
                            reporter=reporter)
    elif _recorded(stamp) != subdirs:
        # fs.exists() results are not tracked by meson: a part that
        # appeared or vanished needs an explicit reconfigure.
        reporter.line("parts changed (%s): meson setup --reconfigure"
                      % (", ".join(subdirs) or "none"))
        total += run_logged([MESON, "setup", "--reconfigure",
                             build_dir, paths.REPO],
                            log, "meson reconfigure of the native build "
                            "failed", "see the log tail above", fix, env=env,
                            reporter=reporter)
    with open(stamp, "w") as f:
        json.dump(subdirs, f)
    cmd = ["ninja", "-C", build_dir]
    if jobs:
        cmd += ["-j", str(jobs)]
    total += run_logged(cmd, log, "native build failed",
                        "a compile or link error, see the log tail above",
                        fix, reporter=reporter, append=True,
                        on_line=ninja_progress(reporter, "building " + name))
    return "parts: %s" % (", ".join(subdirs) or "none yet")
