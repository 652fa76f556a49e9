# SPDX-License-Identifier: GPL-2.0-or-later
"""Step 2: Debian's QEMU source (10.0.x from trixie) in build/src."""

import os
import re

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.common.progress import run_logged
from e1000epp.setup.apt import apt_update, SOURCES_FILE

WANT = "10.0."


def ensure_source(reporter):
    src = paths.qemu_src()
    if src:
        return "present: %s" % os.path.relpath(src, paths.REPO)
    os.makedirs(paths.SRC_DIR, exist_ok=True)
    log = os.path.join(paths.LOG_DIR, "apt-source.log")
    cmd = ["apt-get", "source", "qemu"]
    reporter.line("apt-get source qemu (40 MB download, 410 MB unpacked, "
                  "Debian's patches applied)")
    try:
        run_logged(cmd, log, "apt-get source qemu failed",
                   cwd=paths.SRC_DIR, reporter=reporter)
    except StepError:
        # The usual cause: the trixie deb-src line was added but apt's
        # lists were not refreshed since.  Refresh once and retry.
        text = "\n".join(_tail(log))
        if "Unable to find a source package" in text or \
                "You must put some 'deb-src'" in text:
            apt_update(reporter)
            run_logged(cmd, log, "apt-get source qemu failed",
                       "no deb-src entry serves the qemu source package",
                       "make sure %s has the 'Types: deb-src ... Suites: "
                       "trixie' stanza and run apt-get update" % SOURCES_FILE,
                       cwd=paths.SRC_DIR, reporter=reporter)
        else:
            raise StepError(
                "apt-get source qemu failed",
                "see the log (network, disk space or dpkg-source error)",
                "fix the cause, remove build/src and run ./e1000e-pp setup",
                log=log, tail=_tail(log))
    src = paths.qemu_src()
    if not src:
        found = [d for d in os.listdir(paths.SRC_DIR)
                 if re.match(r"qemu-\d", d) and
                 os.path.isdir(os.path.join(paths.SRC_DIR, d))]
        raise StepError(
            "apt-get source qemu did not give QEMU %sx" % WANT,
            "trixie's deb-src now serves %s, not 10.0.x; the overlay and "
            "the configure line are checked against 10.0 only"
            % (", ".join(found) or "nothing usable"),
            "place a 10.0.x tree at build/src/qemu-10.0.<n>+ds (e.g. "
            "`apt-get source qemu=1:10.0.<n>+ds-...` from an archive that "
            "still has it) or port the overlay to the new version")
    return "fetched %s" % os.path.relpath(src, paths.REPO)


def _tail(log):
    from e1000epp.common.progress import tail_of
    return tail_of(log, 20)
