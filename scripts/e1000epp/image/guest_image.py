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

plus the in-guest agent (guest/agent with tools/wire's headers, built
here with `gcc -static -O2`),
guest/init and guest/load-e1000e.  Outputs in out_dir:

  vmlinuz         the kernel (bzImage)
  vmlinux         the same kernel decompressed, when it has a PVH entry
                  point (CONFIG_PVH, as Debian's has): QEMU boots it
                  directly, which skips the bzImage's decompressor -- about
                  5 of the 10 s a boot takes under TCG on this host
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

The pieces: guestbase (errors, hashes), debs (Debian packages), elflibs
(shared libraries), kmods (kernel modules, bzImage), cpio (the archive).

Command line: PYTHONPATH=scripts /usr/bin/python3 -m e1000epp.image.guest_image --help
"""

import argparse
import contextlib
import fcntl
import gzip
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

from e1000epp.image.cpio import Cpio
from e1000epp.image.debian_packages import (apt_fields, Packages,
                                            resolve_kernel_package)
from e1000epp.image.elf_libraries import LIB_DIR, library_closure
from e1000epp.image.build_tools import GuestBuildError, run, sha256_file, sha256_tree
from e1000epp.image.kernel_modules import (ModuleTree, bzimage_payload, bzimage_release,
                                           has_pvh_entry, modinfo, module_bytes)

# What other modules import from here (setup, userkernel, the tests).
__all__ = ["GuestBuildError", "build_guest", "resolve_kernel_package",
           "modinfo", "module_bytes", "bzimage_release"]

# Bump when the image layout changes in a way the input hashes do not see.
LAYOUT_VERSION = 2
# The decompressed kernel the harness boots when it is there (PVH).
BOOT_FILE = "vmlinux"

BASE_PACKAGES = ("busybox-static", "ethtool")
# ELF programs copied from the unpacked packages: (package, path in package).
PROGRAMS = (("ethtool", "sbin/ethtool"),)
# Modules the tests may need besides e1000e, loaded when they are modules
# (skipped when built in or absent).  af_packet is built into Debian's
# kernel (CONFIG_PACKET=y); it is listed for user kernels.
EXTRA_MODULES = ("af_packet", "8021q")
DRIVER_MODULE = "e1000e"
# The builder's own sources: a change to any of them rebuilds the image.
BUILDER_MODULES = ("guest_image.py", "build_tools.py", "debian_packages.py",
                   "elf_libraries.py", "kernel_modules.py", "cpio.py")


def _builder_digest():
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in BUILDER_MODULES:
        h.update(sha256_file(here / name).encode())
    return h.hexdigest()


def _write_vmlinux(vmlinuz, vmlinux, log):
    """Decompress a PVH-capable kernel next to its bzImage; returns how
    the harness boots it ("pvh": vmlinux, "bzimage": vmlinuz)."""
    elf = bzimage_payload(vmlinuz)
    if elf is None or not has_pvh_entry(elf):
        vmlinux.unlink(missing_ok=True)
        log("guest: the kernel has no PVH entry point: it boots as a "
            "bzImage")
        return "bzimage"
    tmp = vmlinux.with_suffix(".tmp")
    tmp.write_bytes(elf)
    os.replace(tmp, vmlinux)
    return "pvh"


def _build_agent(repo_root, out_dir, log):
    src = repo_root / "guest" / "agent"
    wire = repo_root / "tools" / "wire"
    sources = sorted(src.glob("*.[ch]")) + sorted(wire.glob("*.h"))
    if not sources:
        raise GuestBuildError(f"no agent sources in {src}")
    digest = sha256_tree(sources)
    binary = out_dir / "agent" / "e1000epp-agent"
    stamp = binary.with_suffix(".sha256")
    if binary.exists() and stamp.exists() and stamp.read_text() == digest:
        return binary, digest
    log("guest: building agent (gcc -static -O2)")
    binary.parent.mkdir(parents=True, exist_ok=True)
    run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
         "-I", str(wire), "-o", str(binary)] +
        [str(s) for s in sources if s.suffix == ".c"],
        what="building the agent (libc6-dev provides the static libc)")
    stamp.write_text(digest)
    return binary, digest


@contextlib.contextmanager
def _dir_lock(directory):
    """Hold directory's build lock: VM test files run side by side
    (pytest -n) and may each ask for the same image or package cache."""
    with open(directory / ".build-lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def build_guest(repo_root, out_dir, log=print, kernel=None, modules_dir=None,
                force=False, kernel_package=None, module_tree=None,
                cache_dir=None):
    """Build (or reuse) the guest image; return the manifest dict.
    kernel_package: Debian's linux-image-* to use (default: what
    linux-image-amd64 depends on); module_tree: the kernel's own module
    tree when modules_dir only holds overrides (default: modules_dir if
    it has a modules.dep); cache_dir: where .debs are downloaded and
    unpacked (default out_dir).  One build at a time per package cache
    and per image directory."""
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    cache = Path(cache_dir).resolve() if cache_dir else out_dir
    cache.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as held:
        held.enter_context(_dir_lock(cache))
        if cache != out_dir:
            held.enter_context(_dir_lock(out_dir))
        return _build_guest(repo_root, out_dir, log, kernel, modules_dir,
                            force, kernel_package, module_tree, cache_dir)


def _build_guest(repo_root, out_dir, log, kernel, modules_dir, force,
                 kernel_package, module_tree, cache_dir):
    repo_root = Path(repo_root).resolve()
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
    apt_fields(*wanted, *old.get("library_packages", []))
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
        "builder": _builder_digest(),
        "packages": dict(sorted(pkgs.versions.items())),
        "agent": agent_digest,
        "init": sha256_file(init),
        "load-e1000e": sha256_file(loader),
        "kernel": sha256_file(kernel) if kernel else kernel_pkg,
        "modules_dir": (sha256_tree(p for p in modules_dir.rglob("*")
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
        release = bzimage_release(kernel) or "unknown"
        tree = None
        base = Path(module_tree).resolve() if module_tree else modules_dir
        if base and any((base / f).exists() for f in
                        ("modules.dep", "modules.order", "modules.builtin")):
            tree = base
        kernel_file = kernel
    else:
        release = kernel_pkg[len("linux-image-"):]
        kroot = pkgs.roots[kernel_pkg]
        tree = kroot / "lib" / "modules" / release
        kernel_file = kroot / "boot" / f"vmlinuz-{release}"
        if not kernel_file.exists():
            raise GuestBuildError(
                f"{kernel_pkg} has no boot/vmlinuz-{release}")
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
    applets = run([str(busybox), "--list-full"], what="busybox --list-full")
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
            data = module_bytes(src)
            cpio.file(guest_path, data)
            order_lines.append("/" + guest_path)
            module_list.append({
                "name": name, "group": group, "source": str(src),
                "guest_path": "/" + guest_path,
                "vermagic": modinfo(data, "vermagic"),
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
    boot = _write_vmlinux(vmlinuz, out_dir / BOOT_FILE, log)

    manifest = {
        "inputs_key": inputs_key,
        "inputs": inputs,
        "kernel": {
            "source": "user" if kernel else "debian",
            "package": kernel_pkg,
            "version": pkgs.versions.get(kernel_pkg) if kernel_pkg else None,
            "release": release,
            "file": str(kernel_file),
            "sha256": sha256_file(vmlinuz),
            "boot": boot,
        },
        "packages": dict(sorted(pkgs.versions.items())),
        "library_packages": lib_pkgs,
        "libraries": sorted(libs),
        "modules": module_list,
        "e1000e_builtin": e1000e_builtin,
        "modules_dir": str(modules_dir) if modules_dir else None,
        "agent_sha256": agent_digest,
        "initrd_sha256": sha256_file(initrd),
        "initrd_bytes": initrd.stat().st_size,
    }
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    log(f"guest: done: {release}, {len(module_list)} modules "
        f"({', '.join(m['name'] for m in module_list) or 'none'}), "
        f"initrd {manifest['initrd_bytes'] // 1024} KiB")
    return manifest


def main(argv=None):
    here = Path(__file__).resolve()
    repo = here.parents[3]
    ap = argparse.ArgumentParser(
        prog="python3 -m e1000epp.image.guest_image",
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
