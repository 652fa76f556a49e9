# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the e1000e-pp test guest: a kernel and a busybox initramfs.

    build_guest(repo_root, out_dir, log=print, kernel=None, modules_dir=None)

Everything comes from Debian packages fetched with `apt-get download` into
out_dir/debs/ (cached) and unpacked with `dpkg-deb -x` under
out_dir/unpacked/ -- nothing is installed on the host:

  linux-image-<abi>-amd64   the kernel linux-image-amd64 currently depends on
  busybox-static            shell and tools (ip, ping, insmod, dmesg, ...)
  ethtool                   plus the shared libraries its ELF NEEDED entries
                            name (libc6, libmnl0), found with `dpkg -S`

plus the in-guest agent (guest/agent, built here with `gcc -static -O2`),
guest/init and guest/load-e1000e.  Outputs in out_dir:

  vmlinuz         the kernel
  initrd.img      gzip'd cpio (newc), deterministic (mtime 0, uid 0)
  manifest.json   kernel release, package versions, module list, input hashes

The build is incremental: when the inputs (package versions, user kernel and
module hashes, agent source, init scripts, this file) match the manifest,
nothing is rebuilt.

A developer's own kernel and driver:

  kernel=PATH       a bzImage to boot instead of Debian's kernel; its modules
                    (if any are needed) come from modules_dir.
  modules_dir=PATH  a directory searched (recursively) for .ko / .ko.xz /
                    .ko.zst / .ko.gz files before the kernel's own module
                    tree: put a patched e1000e.ko there to boot Debian's
                    kernel with your driver, or point it at
                    <staging>/lib/modules/<release> of your kernel build.
                    With kernel= and no modules_dir, e1000e must be built in.

Command line: PYTHONPATH=scripts /usr/bin/python3 -m e1000epp.guest --help
"""

import argparse
import gzip
import hashlib
import json
import lzma
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

# Bump when the image layout changes in a way the input hashes do not see.
LAYOUT_VERSION = 1

KERNEL_META_PACKAGE = "linux-image-amd64"
BASE_PACKAGES = ("busybox-static", "ethtool")
# ELF programs copied from the unpacked packages: (package, path in package).
PROGRAMS = (("ethtool", "sbin/ethtool"),)
# Modules the tests may need besides e1000e, loaded when they are modules
# (skipped when built in or absent).  af_packet is built into Debian's
# kernel (CONFIG_PACKET=y); it is listed for user kernels.
EXTRA_MODULES = ("af_packet", "8021q")
DRIVER_MODULE = "e1000e"
LIB_DIR = "lib/x86_64-linux-gnu"


class GuestBuildError(Exception):
    """A guest build step failed; the message says which and why."""


def _run(argv, cwd=None, what=None):
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


def _sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _sha256_tree(paths):
    h = hashlib.sha256()
    for p in sorted(paths, key=str):
        h.update(str(p).encode() + b"\0")
        h.update(_sha256_file(p).encode())
    return h.hexdigest()


# --- Debian packages --------------------------------------------------------

_apt_cache = {}


def _apt_fields(*packages):
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
    out = _run(["apt-cache", "depends", KERNEL_META_PACKAGE],
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
        version, arch = _apt_fields(name)
        self.versions[name] = version
        fname = f"{name}_{version.replace(':', '%3a')}_{arch}.deb"
        path = self.debs / fname
        if path.exists():
            return path
        self.debs.mkdir(parents=True, exist_ok=True)
        self.log(f"guest: apt-get download {name}={version}")
        try:
            _run(["apt-get", "download", f"{name}={version}"], cwd=self.debs,
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
            _run(["dpkg-deb", "-x", str(deb), str(root)],
                 what=f"dpkg-deb -x {deb.name}")
            stamp.write_text(self.versions[name] + "\n")
        self.roots[name] = root
        return root


# --- ELF shared library closure ---------------------------------------------

def _elf_needed(path):
    out = _run(["readelf", "-d", "-W", str(path)], what=f"readelf -d {path}")
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def _elf_interp(path):
    out = _run(["readelf", "-l", "-W", str(path)], what=f"readelf -l {path}")
    m = re.search(r"Requesting program interpreter: ([^\]]+)\]", out)
    return m.group(1) if m else None


def _package_of_library(soname):
    """Debian package holding soname on this host (dpkg -S)."""
    proc = subprocess.run(["dpkg", "-S", soname], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    for line in proc.stdout.splitlines():
        pkgs, _, path = line.partition(": ")
        if path.endswith(f"/x86_64-linux-gnu/{soname}") or \
                path == f"/lib64/{soname}":
            return pkgs.split(",")[0].split(":")[0].strip()
    raise GuestBuildError(f"no Debian package on this host provides {soname}"
                          " (needed by a guest program)")


def _find_library(roots, soname):
    for root in roots:
        for d in (LIB_DIR, "usr/" + LIB_DIR, "lib64", "lib"):
            p = root / d / soname
            if p.exists():
                return p
    return None


def library_closure(programs, pkgs):
    """{soname: file} for every library the programs load, recursively,
    plus {"@interp": (guest path, file)}; fetches packages as needed."""
    libs = {}
    interp = None
    todo = list(programs)
    while todo:
        elf = todo.pop()
        want = _elf_interp(elf)
        if want and interp is None:
            interp = want
        for soname in _elf_needed(elf):
            if soname in libs:
                continue
            found = _find_library(pkgs.roots.values(), soname)
            if found is None:
                pkgs.unpack(_package_of_library(soname))
                found = _find_library(pkgs.roots.values(), soname)
            if found is None:
                raise GuestBuildError(f"{soname} not found in the unpacked "
                                      "packages")
            libs[soname] = found
            todo.append(found.resolve())
    if interp:
        name = os.path.basename(interp)
        found = libs.get(name) or _find_library(pkgs.roots.values(), name)
        if found is None:
            raise GuestBuildError(f"program interpreter {interp} not found")
        libs["@interp"] = (interp.lstrip("/"), found)
    return libs


# --- kernel modules ---------------------------------------------------------

def _module_name(path):
    base = os.path.basename(str(path))
    base = re.sub(r"\.ko(\.(xz|zst|gz))?$", "", base)
    return base.replace("-", "_")


def _module_bytes(path):
    """Contents of a module, decompressed."""
    path = str(path)
    if path.endswith(".xz"):
        with lzma.open(path) as f:
            return f.read()
    if path.endswith(".gz"):
        with gzip.open(path) as f:
            return f.read()
    if path.endswith(".zst"):
        try:
            return subprocess.run(["zstd", "-dc", path], check=True,
                                  stdout=subprocess.PIPE).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            raise GuestBuildError(f"cannot decompress {path}: {e}")
    with open(path, "rb") as f:
        return f.read()


def _modinfo(data, key):
    m = re.search(rb"(?:^|\0)" + key.encode() + rb"=([^\0]*)\0", data)
    return m.group(1).decode(errors="replace") if m else None


class ModuleTree:
    """Modules of one kernel: an override directory searched first, then the
    kernel's own tree with its modules.dep (made with depmod if missing)."""

    def __init__(self, tree, release, override, log):
        self.release = release
        self.paths = {}
        self.deps = {}
        self.builtin = set()
        self.log = log
        if tree is not None:
            self._load_tree(tree)
        if override is not None:
            for p in sorted(Path(override).rglob("*.ko*")):
                if re.search(r"\.ko(\.(xz|zst|gz))?$", p.name):
                    self.paths[_module_name(p)] = p
                    self.deps.pop(_module_name(p), None)

    def _load_tree(self, tree):
        dep = tree / "modules.dep"
        if not dep.exists():
            root = tree.parent.parent.parent    # <root>/lib/modules/<rel>
            self.log(f"guest: depmod for {self.release}")
            _run(["depmod", "-b", str(root), self.release],
                 what=f"depmod -b {root} {self.release}")
        for line in dep.read_text().splitlines():
            mod, _, deps = line.partition(":")
            name = _module_name(mod)
            self.paths[name] = tree / mod
            self.deps[name] = [_module_name(d) for d in deps.split()]
        builtin = tree / "modules.builtin"
        if builtin.exists():
            self.builtin = {_module_name(m)
                            for m in builtin.read_text().split()}

    def deps_of(self, name):
        if name not in self.deps:
            depends = _modinfo(_module_bytes(self.paths[name]), "depends")
            self.deps[name] = [_module_name(d) for d in
                               (depends or "").split(",") if d]
        return self.deps[name]

    def load_order(self, name, order, seen):
        """Append name's dependencies, then name, to order (paths)."""
        if name in seen:
            return
        seen.add(name)
        for dep in self.deps_of(name):
            if dep not in self.paths:
                if dep in self.builtin:
                    continue
                raise GuestBuildError(f"module {name} needs {dep}, which is "
                                      "neither a module here nor built in")
            self.load_order(dep, order, seen)
        order.append(name)


def _bzimage_release(path):
    """Kernel release string from a bzImage's setup header, or None."""
    with open(path, "rb") as f:
        data = f.read(0x10000)
    if len(data) < 0x210 or data[0x202:0x206] != b"HdrS":
        return None
    off = int.from_bytes(data[0x20e:0x210], "little") + 0x200
    text = data[off:off + 256].split(b"\0")[0].decode(errors="replace")
    return text.split()[0] if text else None


# --- initramfs ----------------------------------------------------------------

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


def _build_agent(repo_root, out_dir, log):
    src = repo_root / "guest" / "agent"
    sources = sorted(src.glob("*.[ch]"))
    if not sources:
        raise GuestBuildError(f"no agent sources in {src}")
    digest = _sha256_tree(sources)
    binary = out_dir / "agent" / "e1000epp-agent"
    stamp = binary.with_suffix(".sha256")
    if binary.exists() and stamp.exists() and stamp.read_text() == digest:
        return binary, digest
    log("guest: building agent (gcc -static -O2)")
    binary.parent.mkdir(parents=True, exist_ok=True)
    _run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
          "-o", str(binary)] + [str(s) for s in sources if s.suffix == ".c"],
         what="building the agent (libc6-dev provides the static libc)")
    stamp.write_text(digest)
    return binary, digest


def build_guest(repo_root, out_dir, log=print, kernel=None, modules_dir=None,
                force=False, kernel_package=None, module_tree=None,
                cache_dir=None):
    """Build (or reuse) the guest image; return the manifest dict.
    kernel_package: Debian's linux-image-* to use (default: what
    linux-image-amd64 depends on); module_tree: the kernel's own module
    tree when modules_dir only holds overrides (default: modules_dir if
    it has a modules.dep); cache_dir: where .debs are downloaded and
    unpacked (default out_dir)."""
    repo_root = Path(repo_root).resolve()
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    if kernel is not None:
        kernel = Path(kernel).resolve()
        if not kernel.is_file():
            raise GuestBuildError(f"kernel image {kernel} does not exist")
    if modules_dir is not None:
        modules_dir = Path(modules_dir).resolve()
        if not modules_dir.is_dir():
            raise GuestBuildError(f"modules directory {modules_dir} does not"
                                  " exist")

    log("guest: resolving packages")
    pkgs = Packages(Path(cache_dir).resolve() if cache_dir else out_dir, log)
    kernel_pkg = None if kernel else \
        (kernel_package or resolve_kernel_package())
    wanted = list(BASE_PACKAGES) + ([kernel_pkg] if kernel_pkg else [])
    manifest_path = out_dir / "manifest.json"
    try:
        old = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        old = {}
    _apt_fields(*wanted, *old.get("library_packages", []))
    for name in wanted:
        pkgs.fetch(name)

    init = repo_root / "guest" / "init"
    loader = repo_root / "guest" / "load-e1000e"
    for p in (init, loader):
        if not p.exists():
            raise GuestBuildError(f"missing {p}")
    agent, agent_digest = _build_agent(repo_root, out_dir, log)

    # Programs and their shared libraries (cheap to unpack; the library
    # packages they pull in are inputs too).
    programs = []
    for pkg, rel in PROGRAMS:
        src = pkgs.unpack(pkg) / rel
        if not src.exists():
            raise GuestBuildError(f"{pkg} has no {rel}")
        programs.append((rel, src))
    libs = library_closure([src for _, src in programs], pkgs)
    lib_pkgs = sorted(set(pkgs.roots) - set(wanted))

    inputs = {
        "layout": LAYOUT_VERSION,
        "builder": _sha256_file(__file__),
        "packages": dict(sorted(pkgs.versions.items())),
        "agent": agent_digest,
        "init": _sha256_file(init),
        "load-e1000e": _sha256_file(loader),
        "kernel": _sha256_file(kernel) if kernel else kernel_pkg,
        "modules_dir": (_sha256_tree(p for p in modules_dir.rglob("*")
                                     if p.is_file())
                        if modules_dir else None),
    }
    if module_tree:
        inputs["module_tree"] = str(Path(module_tree).resolve())
    inputs_key = hashlib.sha256(json.dumps(inputs, sort_keys=True)
                                .encode()).hexdigest()
    vmlinuz = out_dir / "vmlinuz"
    initrd = out_dir / "initrd.img"
    if not force and vmlinuz.exists() and initrd.exists():
        if old.get("inputs_key") == inputs_key:
            log(f"guest: up to date ({old['kernel']['release']}, "
                f"{len(old['modules'])} modules)")
            return old

    for name in wanted:
        pkgs.unpack(name)

    # Kernel and its module tree.
    if kernel:
        release = _bzimage_release(kernel) or "unknown"
        tree = None
        base = Path(module_tree).resolve() if module_tree else modules_dir
        if base and (base / "modules.dep").exists():
            tree = base
        kernel_file = kernel
    else:
        release = kernel_pkg[len("linux-image-"):]
        kroot = pkgs.roots[kernel_pkg]
        tree = kroot / "lib" / "modules" / release
        kernel_file = kroot / "boot" / f"vmlinuz-{release}"
        if not kernel_file.exists():
            raise GuestBuildError(f"{kernel_pkg} has no boot/vmlinuz-{release}")
    modules = ModuleTree(tree, release, modules_dir, log)

    base_order, driver_order, seen = [], [], set()
    for name in EXTRA_MODULES:
        if name in modules.paths:
            modules.load_order(name, base_order, seen)
    e1000e_builtin = DRIVER_MODULE not in modules.paths
    if e1000e_builtin and not kernel:
        raise GuestBuildError(f"{kernel_pkg} has no {DRIVER_MODULE} module")
    if not e1000e_builtin:
        modules.load_order(DRIVER_MODULE, driver_order, seen)

    log("guest: assembling initramfs")
    cpio = Cpio()
    for d in ("bin", "sbin", "usr/bin", "usr/sbin", "proc", "sys", "dev",
              "tmp", "run", "etc", "root", "var", LIB_DIR, "lib64",
              f"lib/modules/{release}"):
        cpio.dir(d)
    cpio.chardev("dev/console", 5, 1)
    cpio.chardev("dev/null", 1, 3, 0o666)

    busybox = pkgs.roots["busybox-static"] / "bin" / "busybox"
    cpio.file("bin/busybox", busybox.read_bytes(), 0o755)
    applets = _run([str(busybox), "--list-full"], what="busybox --list-full")
    for applet in applets.split():
        if applet in ("linuxrc", "sbin/init", "init", "bin/busybox"):
            continue
        depth = applet.count("/")
        if depth == 0:
            continue
        cpio.symlink(applet, "../" * depth + "bin/busybox")

    for rel, src in programs:
        cpio.file(rel, src.read_bytes(), 0o755)
    interp_path, interp_file = libs.pop("@interp", (None, None))
    for soname, path in sorted(libs.items()):
        cpio.file(f"{LIB_DIR}/{soname}", path.resolve().read_bytes(), 0o755)
    if interp_path:
        cpio.file(interp_path, interp_file.resolve().read_bytes(), 0o755)

    cpio.file("init", init.read_bytes(), 0o755)
    cpio.file("sbin/load-e1000e", loader.read_bytes(), 0o755)
    cpio.file("sbin/e1000epp-agent", agent.read_bytes(), 0o755)
    cpio.file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    cpio.file("etc/group", b"root:x:0:\n")

    module_list = []
    order_lines = []
    for group, names in (("base", base_order), ("e1000e", driver_order)):
        if group == "e1000e":
            order_lines.append("#e1000e")
        for name in names:
            src = modules.paths[name]
            guest_path = f"lib/modules/{release}/{name}.ko"
            data = _module_bytes(src)
            cpio.file(guest_path, data)
            order_lines.append("/" + guest_path)
            module_list.append({
                "name": name, "group": group, "source": str(src),
                "guest_path": "/" + guest_path,
                "vermagic": _modinfo(data, "vermagic"),
                "sha256": hashlib.sha256(data).hexdigest(),
            })
    cpio.file("lib/modules/e1000epp.order",
              ("\n".join(order_lines) + "\n").encode())

    for m in module_list:
        vermagic = (m["vermagic"] or "").split()
        if vermagic and release != "unknown" and vermagic[0] != release:
            log(f"guest: WARNING: {m['name']} was built for {vermagic[0]}, "
                f"the kernel is {release}; insmod will refuse it")

    log("guest: writing initrd.img")
    tmp = initrd.with_suffix(".tmp")
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                           compresslevel=6) as gz:
            gz.write(cpio.bytes())
    os.replace(tmp, initrd)
    shutil.copyfile(kernel_file, vmlinuz.with_suffix(".tmp"))
    os.replace(vmlinuz.with_suffix(".tmp"), vmlinuz)

    manifest = {
        "inputs_key": inputs_key,
        "inputs": inputs,
        "kernel": {
            "source": "user" if kernel else "debian",
            "package": kernel_pkg,
            "version": pkgs.versions.get(kernel_pkg) if kernel_pkg else None,
            "release": release,
            "file": str(kernel_file),
            "sha256": _sha256_file(vmlinuz),
        },
        "packages": dict(sorted(pkgs.versions.items())),
        "library_packages": lib_pkgs,
        "libraries": sorted(libs),
        "modules": module_list,
        "e1000e_builtin": e1000e_builtin,
        "modules_dir": str(modules_dir) if modules_dir else None,
        "agent_sha256": agent_digest,
        "initrd_sha256": _sha256_file(initrd),
        "initrd_bytes": initrd.stat().st_size,
    }
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    log(f"guest: done: {release}, {len(module_list)} modules "
        f"({', '.join(m['name'] for m in module_list) or 'none'}), "
        f"initrd {manifest['initrd_bytes'] // 1024} KiB")
    return manifest


def main(argv=None):
    here = Path(__file__).resolve()
    repo = here.parent.parent.parent
    ap = argparse.ArgumentParser(
        prog="python3 -m e1000epp.guest",
        description="Build the e1000e-pp test guest (kernel + initramfs) "
                    "from Debian packages.")
    ap.add_argument("--out", type=Path, default=repo / "build" / "guest",
                    help="output directory (default: build/guest)")
    ap.add_argument("--kernel", type=Path,
                    help="boot this bzImage instead of Debian's kernel")
    ap.add_argument("--modules-dir", type=Path,
                    help="directory searched first for .ko files "
                         "(e.g. your patched e1000e.ko)")
    ap.add_argument("--force", action="store_true",
                    help="rebuild even if the inputs did not change")
    args = ap.parse_args(argv)
    try:
        build_guest(repo, args.out, kernel=args.kernel,
                    modules_dir=args.modules_dir, force=args.force)
    except GuestBuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
