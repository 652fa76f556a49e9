# SPDX-License-Identifier: GPL-2.0-or-later
"""What the guest builder's modules share: the error they raise, running
a host tool, file hashes."""

import hashlib
import subprocess


class GuestBuildError(Exception):
    """A guest build step failed; the message says which and why."""


def run(argv, cwd=None, what=None):
    """Run argv, return stdout; raise GuestBuildError with stderr on error."""
    try:
        proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise GuestBuildError(f"{what or argv[0]}: cannot run {argv[0]}: {e}")
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-8:])
        raise GuestBuildError(
            f"{what or ' '.join(argv)} failed (exit {proc.returncode}):\n"
            f"{tail}")
    return proc.stdout


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_tree(paths):
    h = hashlib.sha256()
    for p in sorted(paths, key=str):
        h.update(str(p).encode() + b"\0")
        h.update(sha256_file(p).encode())
    return h.hexdigest()
