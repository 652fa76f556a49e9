# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian packages for the guest image: the candidate versions apt knows,
the kernel package linux-image-amd64 depends on, and .debs fetched with
`apt-get download` (cached) and unpacked with `dpkg-deb -x` -- nothing is
installed on the host."""

import re
import shutil
import subprocess

from e1000epp.image.build_tools import GuestBuildError, run

KERNEL_META_PACKAGE = "linux-image-amd64"


_apt_cache = {}


def apt_fields(*packages):
    """Candidate (Version, Architecture) of the first package; one
    `apt-cache show` call fetches (and caches) all the given packages."""
    todo = [p for p in packages if p not in _apt_cache]
    if todo:
        proc = subprocess.run(["apt-cache", "show", "--no-all-versions"] +
                              todo, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        for stanza in proc.stdout.split("\n\n"):
            fields = {}
            for line in stanza.splitlines():
                if ":" in line and not line.startswith(" "):
                    key, _, value = line.partition(":")
                    fields.setdefault(key, value.strip())
            if "Package" in fields and "Version" in fields:
                _apt_cache.setdefault(fields["Package"], (
                    fields["Version"], fields.get("Architecture", "amd64")))
    if packages[0] not in _apt_cache:
        raise GuestBuildError(f"apt knows no installable version of "
                              f"{packages[0]} (run apt-get update?)")
    return _apt_cache[packages[0]]


def resolve_kernel_package():
    """linux-image-<abi>-amd64 that linux-image-amd64's candidate needs."""
    out = run(["apt-cache", "depends", KERNEL_META_PACKAGE],
              what=f"apt-cache depends {KERNEL_META_PACKAGE}")
    for line in out.splitlines():
        m = re.match(r"\s*Depends:\s*(linux-image-\S+)", line)
        if m:
            return m.group(1)
    raise GuestBuildError(f"{KERNEL_META_PACKAGE} depends on no linux-image-*"
                          " package (apt-cache depends output unexpected)")


class Packages:
    """Fetches (cached) and unpacks Debian packages under out_dir."""

    def __init__(self, out_dir, log):
        self.debs = out_dir / "debs"
        self.unpacked = out_dir / "unpacked"
        self.log = log
        self.versions = {}
        self.roots = {}

    def fetch(self, name):
        """Download name's candidate .deb if not cached; return its path."""
        version, arch = apt_fields(name)
        self.versions[name] = version
        fname = f"{name}_{version.replace(':', '%3a')}_{arch}.deb"
        path = self.debs / fname
        if path.exists():
            return path
        self.debs.mkdir(parents=True, exist_ok=True)
        self.log(f"guest: apt-get download {name}={version}")
        try:
            run(["apt-get", "download", f"{name}={version}"], cwd=self.debs,
                what=f"apt-get download {name}={version}")
        except GuestBuildError as e:
            raise GuestBuildError(f"{e}\nhint: check the apt sources and run"
                                  " `apt-get update`")
        if not path.exists():
            raise GuestBuildError(f"apt-get download {name} did not produce "
                                  f"{path}")
        return path

    def unpack(self, name):
        """Fetch and unpack name; return the root of its files."""
        if name in self.roots:
            return self.roots[name]
        deb = self.fetch(name)
        root = self.unpacked / deb.stem
        stamp = root / ".e1000epp-unpacked"
        if not stamp.exists():
            self.log(f"guest: unpacking {deb.name}")
            if root.exists():
                shutil.rmtree(root)
            root.mkdir(parents=True)
            run(["dpkg-deb", "-x", str(deb), str(root)],
                what=f"dpkg-deb -x {deb.name}")
            stamp.write_text(self.versions[name] + "\n")
        self.roots[name] = root
        return root
