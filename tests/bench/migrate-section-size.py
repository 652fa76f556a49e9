#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Bytes each device section takes in a QEMU migration stream file.

Usage: migrate-section-size.py QEMU_SRC STREAM [NAME]

Reads the stream with QEMU's own parser (scripts/analyze-migration.py in
the QEMU source tree QEMU_SRC) and prints, for every section whose name
contains NAME (default: e1000e), its name and the bytes from its header
to its footer, both included, as they are on the wire.
"""

import os
import sys
import types


def load_analyzer(src):
    """QEMU's parser classes, without the command line at its end."""
    path = os.path.join(src, "scripts", "analyze-migration.py")
    with open(path) as f:
        text = f.read()
    text = text[:text.index("\nparser = argparse.ArgumentParser(")]
    mod = types.ModuleType("analyze_migration")
    exec(compile(text, path, "exec"), mod.__dict__)
    return mod


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    mod = load_analyzer(argv[1])
    want = argv[3] if len(argv) > 3 else "e1000e"
    sizes = []
    depth = [0]
    orig = mod.VMSDSection.read

    def read(self):
        # The section's header (type, id, name, instance, version) and
        # footer (type, id) are read around this call; subsections are
        # read inside it and counted with their section.
        f = self.file.file
        start = f.tell()
        depth[0] += 1
        orig(self)
        depth[0] -= 1
        if depth[0]:
            return
        name = self.section_key[0]
        header = 1 + 4 + 1 + len(name) + 4 + 4
        sizes.append((name, f.tell() - start + header + 1 + 4))

    mod.VMSDSection.read = read
    mod.MigrationDump(argv[2]).read(desc_only=False)
    for name, size in sizes:
        if want in name:
            print("%s %d" % (name, size))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
