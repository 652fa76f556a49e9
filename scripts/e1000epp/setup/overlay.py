# SPDX-License-Identifier: GPL-2.0-or-later
"""Step 3: link our device and qtests into the QEMU source tree.

The overlay is a sync, applied on every setup run: each symlink and each
appended line exists exactly when the file it hooks in exists in this
repository (the device, Kconfig, trace-events and qtest meson.build are
written in parallel by other people; a hook to a missing file would break
QEMU's configure).  Nothing is edited by hand.

Kconfig note: scripts/minikconf.py resolves `source X` relative to the
directory of the including file, so `source e1000e_pp/Kconfig` in
hw/net/Kconfig names hw/net/e1000e_pp/Kconfig.
"""

import os

from e1000epp.common import paths
from e1000epp.common.errors import StepError


class Overlay:
    def __init__(self, src, repo=paths.REPO):
        self.src = src
        self.repo = repo
        self.changes = []

    # -- primitives ------------------------------------------------------

    def link(self, rel_link, target, wanted):
        """Make src/rel_link a symlink to target when wanted, else absent."""
        path = os.path.join(self.src, rel_link)
        if os.path.islink(path):
            if wanted and os.readlink(path) == target:
                return
            os.unlink(path)
            if not wanted:
                self.changes.append("removed link %s" % rel_link)
                return
            self.changes.append("repaired stale link %s" % rel_link)
        elif os.path.exists(path):
            raise StepError(
                "overlay: %s exists in the QEMU tree and is not our symlink"
                % rel_link,
                "something else put a file or directory there",
                "remove %s (or the whole build/src) and run setup again"
                % path)
        elif not wanted:
            return
        else:
            self.changes.append("linked %s" % rel_link)
        os.symlink(target, path)

    def line(self, rel_file, text, wanted, after=None):
        """Make `text` a line of src/rel_file when wanted, else remove it.

        New lines go at the end, or right after the line equal to `after`.
        """
        path = os.path.join(self.src, rel_file)
        with open(path) as f:
            lines = f.read().split("\n")
        present = [i for i, ln in enumerate(lines) if ln == text]
        if bool(present) == wanted:
            return
        if wanted:
            if after is None:
                while lines and lines[-1] == "":
                    lines.pop()
                lines += [text, ""]
            else:
                idx = [i for i, ln in enumerate(lines) if ln == after]
                if len(idx) != 1:
                    raise StepError(
                        "overlay: cannot find the line %r in %s" %
                        (after.strip(), rel_file),
                        "the QEMU source differs from the 10.0 layout the "
                        "overlay expects",
                        "check %s by hand and adapt scripts/e1000epp/"
                        "setup/overlay.py" % path)
                lines.insert(idx[0] + 1, text)
            self.changes.append("added %r to %s" % (text.strip(), rel_file))
        else:
            lines = [ln for ln in lines if ln != text]
            self.changes.append("removed %r from %s" % (text.strip(),
                                                        rel_file))
        with open(path, "w") as f:
            f.write("\n".join(lines))

    def has(self, *rel):
        return os.path.exists(os.path.join(self.repo, *rel))

    # -- the contract ----------------------------------------------------

    def apply(self):
        repo = self.repo
        dev = ("hw", "net", "e1000e_pp")
        qtest = ("tests", "qtest")
        self.link("configs/devices/x86_64-softmmu/e1000e-pp.mak",
                  os.path.join(repo, "configs", "e1000e-pp.mak"), True)

        self.link("hw/net/e1000e_pp", os.path.join(repo, *dev),
                  self.has(*dev))
        self.line("hw/net/meson.build", "subdir('e1000e_pp')",
                  self.has(*dev, "meson.build"))
        self.line("hw/net/Kconfig", "source e1000e_pp/Kconfig",
                  self.has(*dev, "Kconfig"))
        self.line("meson.build", "    'hw/net/e1000e_pp',",
                  self.has(*dev, "trace-events"), after="    'hw/net',")

        # QEMU's generic-fuzz target (fuzz --whole-device): a configuration
        # of the same form as those of QEMU's own NICs.
        self.line(GENERIC_FUZZ_CONFIGS, GENERIC_FUZZ_CONFIG, self.has(*dev),
                  after=GENERIC_FUZZ_TABLE)

        self.link("tests/qtest/e1000e_pp", os.path.join(repo, *qtest),
                  self.has(*qtest, "meson.build"))
        self.line("tests/qtest/meson.build", "subdir('e1000e_pp')",
                  self.has(*qtest, "meson.build"))
        return self.changes


GENERIC_FUZZ_CONFIGS = "tests/qtest/fuzz/generic_fuzz_configs.h"
GENERIC_FUZZ_TABLE = "const generic_fuzz_config predefined_configs[] = {"
# The machine, the device on a user-mode netdev that reaches nothing
# (restrict=on), and the objects whose MMIO/PIO regions and DMA the
# fuzzer aims at: every region of an e1000e-pp (BAR0, the I/O BAR, the
# flash BAR, the MSI-X BAR).
GENERIC_FUZZ_CONFIG = (
    '    { .name = "e1000e-pp", .args = "-M q35 -nodefaults '
    '-device e1000e-pp,netdev=net0 -netdev user,id=net0,restrict=on", '
    '.objects = "e1000e-pp" },')


def apply_overlay(reporter):
    src = paths.qemu_src()
    changes = Overlay(src).apply()
    for c in changes:
        reporter.line("overlay: %s" % c)
    return "%d change(s)" % len(changes) if changes else "up to date"


def status(src=None):
    """Which hooks are active (for diagnostics)."""
    src = src or paths.qemu_src()
    return {
        "device": os.path.islink(os.path.join(src, "hw/net/e1000e_pp")),
        "qtest": os.path.islink(os.path.join(src, "tests/qtest/e1000e_pp")),
    }
