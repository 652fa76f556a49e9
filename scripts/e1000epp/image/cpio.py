# SPDX-License-Identifier: GPL-2.0-or-later
"""A newc cpio archive built in memory, deterministic (inode numbers in
name order, mtime 0, everything root-owned), for the initramfs."""

import os
import stat


class Cpio:
    """A newc archive built in memory: deterministic, everything root-owned."""

    def __init__(self):
        self.entries = {}

    def dir(self, path):
        parts = path.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub not in self.entries:
                self.entries[sub] = (stat.S_IFDIR | 0o755, b"", 0)

    def file(self, path, data, mode=0o644):
        path = path.strip("/")
        if "/" in path:
            self.dir(os.path.dirname(path))
        self.entries[path] = (stat.S_IFREG | mode, data, 0)

    def symlink(self, path, target):
        path = path.strip("/")
        if "/" in path:
            self.dir(os.path.dirname(path))
        self.entries[path] = (stat.S_IFLNK | 0o777, target.encode(), 0)

    def chardev(self, path, major, minor, mode=0o600):
        path = path.strip("/")
        self.dir(os.path.dirname(path))
        self.entries[path] = (stat.S_IFCHR | mode, b"", (major, minor))

    def bytes(self):
        out = bytearray()
        ino = 1

        def entry(name, mode, data, rdev):
            nonlocal ino
            nlink = 2 if stat.S_ISDIR(mode) else 1
            rmaj, rmin = rdev if rdev else (0, 0)
            fields = (ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rmaj, rmin,
                      len(name) + 1, 0)
            out.extend(b"070701" + "".join(f"{v:08x}" for v in fields)
                       .encode())
            out.extend(name.encode() + b"\0")
            out.extend(b"\0" * (-len(out) % 4))
            out.extend(data)
            out.extend(b"\0" * (-len(out) % 4))
            ino += 1

        for name in sorted(self.entries):
            mode, data, rdev = self.entries[name]
            entry(name, mode, data, rdev)
        entry("TRAILER!!!", 0, b"", None)
        return bytes(out)
