# SPDX-License-Identifier: GPL-2.0-or-later
"""The guest image of `kselftest`: the image `run` would boot, plus a
second initramfs archive appended to it (the kernel unpacks both, the
second over the first) with what the kernel's Python driver tests need.

The default image (build/guest) and the images of `run` are not
changed: this variant lives in build/kselftest/images/<key>/, its
vmlinuz/vmlinux linked to the base image's, its initrd.img the base's
archive followed by the overlay's.

The overlay holds, from Debian bookworm's packages (fetched with
`apt-get download` into build/kselftest/debs, unpacked beside them):

  python3.11 and its standard library   (python3.11-minimal,
                                         libpython3.11-minimal,
                                         libpython3.11-stdlib; the modules
                                         byte-compiled on the host)
  PyYAML                                (python3-yaml, pure Python)
  ip, ping, socat, bash                 (iproute2, iputils-ping, socat,
                                         bash) in /usr/local/bin, ahead of
                                         busybox's applets in the tests'
                                         PATH; /bin/sh is bash (busybox's
                                         ash prefers its own applets to
                                         PATH)
  their shared libraries                (those the base image lacks)

the tests themselves, unpacked from Debian's linux-source-6.12 into
/ksft (the kernel tree's own layout, so lib/py finds the ynl library
and the netlink specs "in tree"), the selftests' csum helper built here
with `gcc -static`, and, when the guest kernel has it as modules,
virtio-net's modules for the remote NIC (/lib/modules/ksft.order).
"""

import compileall
import py_compile
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.image import pagepool_series
from e1000epp.image.build_tools import GuestBuildError, run, sha256_file
from e1000epp.image.cpio import Cpio
from e1000epp.image.debian_packages import Packages, apt_fields
from e1000epp.image.elf_libraries import LIB_DIR, library_closure
from e1000epp.image.kernel_modules import ModuleTree, module_bytes

CACHE = os.path.join(paths.BUILD, "kselftest")
IMAGES = os.path.join(CACHE, "images")
# Where the kernel source's tests go in the guest.
GUEST_TREE = "ksft"
SELFTESTS = "tools/testing/selftests"

PY = "python3.11"
PACKAGES = ("python3.11-minimal", "libpython3.11-minimal",
            "libpython3.11-stdlib", "python3-yaml", "iproute2",
            "iputils-ping", "socat", "bash")
# Library packages unpacked first: libraries this host may not have
# installed (elf_libraries asks dpkg -S on the host for the rest).
LIBRARY_PACKAGES = ("libwrap0",)
# (package, path in the package, path in the guest)
PROGRAMS = (
    ("python3.11-minimal", "usr/bin/python3.11", "usr/bin/python3.11"),
    ("iproute2", "bin/ip", "usr/local/bin/ip"),
    ("iputils-ping", "bin/ping", "usr/local/bin/ping"),
    ("socat", "usr/bin/socat", "usr/local/bin/socat"),
    ("bash", "bin/bash", "bin/bash"),
)
# Parts of the standard library no test imports, left out (size: the
# initramfs is unpacked under TCG at every boot).
STDLIB_SKIP = {"test", "idlelib", "tkinter", "turtledemo", "ensurepip",
               "lib2to3", "pydoc_data", "distutils", "venv", "tkinter",
               "config-3.11-x86_64-linux-gnu", "turtle.py", "pydoc.py"}
# Extension modules left out: test modules and those needing libraries
# (curses, readline, databases) no test loads.
DYNLOAD_SKIP = ("_test", "xx", "_ctypes_test", "_curses", "_dbm", "_gdbm",
                "_sqlite3", "nis", "ossaudiodev", "readline", "audioop",
                "_crypt", "_tkinter")

# What is taken from the kernel source (paths under linux-source-6.12/).
SOURCE_PATHS = (
    f"{SELFTESTS}/drivers/net",
    f"{SELFTESTS}/net/lib",
    f"{SELFTESTS}/kselftest.h",
    "tools/net/ynl/lib",
    "Documentation/netlink/specs",
    "Documentation/dev-tools/ktap.rst",
)
# The launcher (launch.py) in the guest.
LAUNCHER = "usr/local/lib/e1000epp/ksft_launch.py"
# Seconds a csum receiver waits for the sender's packets (the test asks
# 1 or 2; the last -L on the command line wins).
CSUM_RX_WINDOW = 5
CSUM_WRAPPER = """#!/bin/sh
# e1000e-pp kselftest: the selftests' csum helper (csum.bin) with a
# receiver's window of {window} s, for TCG (docs/usage/kselftest.md).
for a in "$@"; do
    if [ "$a" = -R ]; then
        exec "$0.bin" "$@" -L {window}
    fi
done
exec "$0.bin" "$@"
"""
# Remote NIC's modules (when modules), dependencies first.
REMOTE_MODULES = ("virtio_pci", "virtio_net")

# Bump when the overlay's layout changes in a way the inputs do not show.
LAYOUT = 2


def source_deb(log=print):
    """Debian's linux-source-6.12 .deb, the one `run --driver pagepool`
    fetches into build/pagepool-e1000e (fetched that way when missing:
    one download shared with the page-pool series)."""
    pattern = os.path.join(paths.BUILD, "pagepool-e1000e",
                           "linux-source-6.12_*_all.deb")
    found = sorted(glob.glob(pattern))
    if not found:
        pagepool_series.prepare(pagepool_series.WORD, log)
        found = sorted(glob.glob(pattern))
    if not found:
        raise StepError("no linux-source-6.12 package",
                        f"nothing matches {pattern}",
                        "run ./e1000e-pp run --driver pagepool --list, or "
                        "examples/pagepool-e1000e/apply.sh")
    return found[-1]


def source_version(deb):
    """'6.12.95-1~bpo12+1' of linux-source-6.12_6.12.95-1~bpo12+1_all.deb."""
    return os.path.basename(deb).split("_")[1]


def unpack_tests(log):
    """The selftests' part of the kernel source, unpacked once per source
    version into build/kselftest/linux-<version>; returns its path."""
    deb = source_deb(log)
    out = os.path.join(CACHE, "linux-" + source_version(deb))
    stamp = os.path.join(out, ".e1000epp-unpacked")
    if os.path.exists(stamp):
        return out, deb
    log(f"kselftest: unpacking the selftests of {os.path.basename(deb)}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    members = [f"linux-source-6.12/{p}" for p in SOURCE_PATHS]
    script = ('dpkg-deb --fsys-tarfile "$1" | tar -x -O '
              './usr/src/linux-source-6.12.tar.xz | xz -dc | '
              'tar -x -C "$2" --strip-components=1 "${@:3}"')
    p = subprocess.run(["bash", "-c", script, "unpack", deb, out] + members,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        shutil.rmtree(out, ignore_errors=True)
        raise StepError("unpacking the kernel's selftests failed",
                        p.stdout.strip()[-2000:] or f"exit {p.returncode}",
                        f"check {deb}")
    Path(stamp).write_text(source_version(deb) + "\n")
    return out, deb


def build_csum(src, out, log):
    """The selftests' csum helper (net/lib/csum.c), static."""
    c = os.path.join(src, SELFTESTS, "net", "lib", "csum.c")
    binary = os.path.join(out, "csum")
    digest = sha256_file(c)
    stamp = binary + ".sha256"
    if os.path.exists(binary) and os.path.exists(stamp) and \
            Path(stamp).read_text() == digest:
        return binary
    log("kselftest: building net/lib/csum (gcc -static)")
    try:
        run(["gcc", "-static", "-O2", "-Wall", "-I",
             os.path.join(src, SELFTESTS), "-o", binary, c],
            what="building the selftests' csum helper")
    except GuestBuildError as e:
        raise StepError("building net/lib/csum failed", str(e),
                        "install gcc and linux-libc-dev (setup does)")
    Path(stamp).write_text(digest)
    return binary


def _stdlib_files(root):
    """(path in the guest, file) of the standard library under root."""
    base = root / "usr" / "lib" / PY
    if not base.is_dir():
        return
    for dirpath, dirs, files in os.walk(base):
        rel = Path(dirpath).relative_to(root)
        if Path(dirpath) == base:
            dirs[:] = [d for d in dirs if d not in STDLIB_SKIP]
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if Path(dirpath) == base and f in STDLIB_SKIP:
                continue
            if Path(dirpath).name == "lib-dynload" and \
                    f.startswith(DYNLOAD_SKIP):
                continue
            if not (Path(dirpath) / f).exists():
                continue        # a link to another package's file
            yield str(rel / f), Path(dirpath) / f


def _module_tree(manifest):
    """The guest kernel's module tree, for a Debian kernel; else None."""
    k = manifest.get("kernel", {})
    if k.get("source") != "debian" or not k.get("file"):
        return None
    tree = Path(k["file"]).parents[1] / "lib" / "modules" / k["release"]
    return tree if tree.is_dir() else None


def _remote_modules(manifest, log):
    """[(name, path)] of the remote NIC's modules in load order, [] when
    virtio-net is built in, None when the kernel has no virtio-net we can
    load (the remote NIC is then a second e1000e-pp)."""
    tree = _module_tree(manifest)
    if tree is None:
        return None
    mods = ModuleTree(tree, manifest["kernel"]["release"], None, log)
    if "virtio_net" not in mods.paths:
        return [] if "virtio_net" in mods.builtin else None
    order, seen = [], set()
    try:
        for name in REMOTE_MODULES:
            if name in mods.paths:
                mods.load_order(name, order, seen)
    except GuestBuildError:
        return None
    return [(n, mods.paths[n]) for n in order]


def _inputs_digest():
    h = hashlib.sha256()
    for name in ("image.py", "launch.py"):
        h.update(sha256_file(Path(__file__).with_name(name)).encode())
    return h.hexdigest()


def needs_remote_ifname(src):
    """Whether this source's NetDrvEpEnv lacks remote_ifname (launch.py
    then supplies it)."""
    env = Path(src) / SELFTESTS / "drivers/net/lib/py/env.py"
    try:
        return "remote_ifname" not in env.read_text()
    except OSError:
        return False


def prepare(base_dir, log=print):
    """The kselftest image over the image in base_dir; returns
    (image dir, info dict: remote NIC model, source version, ...)."""
    base_dir = Path(base_dir).resolve()
    try:
        manifest = json.loads((base_dir / "manifest.json").read_text())
    except (OSError, ValueError) as e:
        raise StepError("the guest image has no manifest",
                        f"{base_dir}/manifest.json: {e}",
                        "run ./e1000e-pp setup (or drop --no-setup)")
    src, deb = unpack_tests(log)
    pkgs = Packages(Path(CACHE), log)
    try:
        apt_fields(*(LIBRARY_PACKAGES + PACKAGES))    # one apt-cache call
        for name in LIBRARY_PACKAGES + PACKAGES:
            pkgs.fetch(name)
        remote = _remote_modules(manifest, log)
    except GuestBuildError as e:
        raise StepError("fetching the kselftest image's packages failed",
                        str(e), "check apt's sources; run apt-get update")
    inputs = {
        "layout": LAYOUT,
        "builder": _inputs_digest(),
        "base_initrd": manifest.get("initrd_sha256"),
        "packages": dict(sorted(pkgs.versions.items())),
        "source": os.path.basename(deb),
        "remote_modules": [str(p) for _, p in remote or []],
        "remote": "virtio-net-pci" if remote is not None else "e1000e-pp",
    }
    key = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()) \
        .hexdigest()[:16]
    out = Path(IMAGES) / key
    info_path = out / "kselftest.json"
    info = dict(inputs, key=key, source_version=source_version(deb),
                kernel_release=manifest["kernel"]["release"],
                shim_remote_ifname=needs_remote_ifname(src),
                base=str(base_dir))
    if info_path.exists() and (out / "initrd.img").exists():
        return out, json.loads(info_path.read_text())
    out.mkdir(parents=True, exist_ok=True)
    try:
        overlay = _overlay(src, pkgs, manifest, remote, out, log)
    except GuestBuildError as e:
        raise StepError("building the kselftest image failed", str(e),
                        "check the inputs named above")
    log(f"kselftest: writing {out}/initrd.img")
    tmp = out / "initrd.tmp"
    with open(tmp, "wb") as f:
        f.write((base_dir / "initrd.img").read_bytes())
        f.write(overlay)
    os.replace(tmp, out / "initrd.img")
    for name in ("vmlinuz", "vmlinux"):
        link = out / name
        link.unlink(missing_ok=True)
        if (base_dir / name).exists():
            link.symlink_to(base_dir / name)
    info["overlay_bytes"] = len(overlay)
    info_path.write_text(json.dumps(info, indent=1) + "\n")
    _prune(out, info["base"])
    return out, info


def _prune(keep, base):
    """Remove the images over the same base image older than keep (a
    newer builder or package made them stale)."""
    for other in Path(IMAGES).iterdir():
        if other == keep or not other.is_dir():
            continue
        try:
            if json.loads((other / "kselftest.json").read_text()) \
                    .get("base") != base:
                continue
        except (OSError, ValueError):
            continue        # one being built, or not ours
        shutil.rmtree(other, ignore_errors=True)


def _overlay(src, pkgs, manifest, remote, out, log):
    """The overlay archive (gzip'd newc cpio)."""
    import gzip
    for name in LIBRARY_PACKAGES + PACKAGES:
        pkgs.unpack(name)
    stage = out / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()

    def put(guest_path, data_or_file, mode=0o644):
        dst = stage / guest_path
        dst.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data_or_file, bytes):
            dst.write_bytes(data_or_file)
        else:
            shutil.copyfile(data_or_file, dst)
        os.chmod(dst, mode)

    elves = []
    for pkg, rel, guest in PROGRAMS:
        f = pkgs.roots[pkg] / rel
        if not f.exists():
            raise GuestBuildError(f"{pkg} has no {rel}")
        put(guest, f, 0o755)
        elves.append(f)
    for pkg in ("libpython3.11-minimal", "libpython3.11-stdlib",
                "python3.11-minimal"):
        for guest, f in _stdlib_files(pkgs.roots[pkg]):
            ext = f.suffix == ".so"
            put(guest, f, 0o755 if ext else 0o644)
            if ext:
                elves.append(f)
    yaml = pkgs.roots["python3-yaml"] / "usr/lib/python3/dist-packages/yaml"
    for f in sorted(yaml.glob("*.py")):
        put(f"usr/lib/python3/dist-packages/yaml/{f.name}", f)
    have = set(manifest.get("libraries", []))
    # The library packages the last build found, unpacked first (one
    # apt-cache call): each one found by dpkg -S costs seconds.
    known = Path(CACHE) / "library-packages.json"
    try:
        names = [n for n in json.loads(known.read_text())
                 if n not in pkgs.roots]
    except (OSError, ValueError):
        names = []
    if names:
        try:
            apt_fields(*names)
            for n in names:
                pkgs.unpack(n)
        except GuestBuildError:
            pass            # found again below
    libs = library_closure(elves, pkgs)
    known.write_text(json.dumps(sorted(
        set(pkgs.roots) - set(PACKAGES))) + "\n")
    libs.pop("@interp", None)
    for soname, f in sorted(libs.items()):
        if soname not in have:
            put(f"{LIB_DIR}/{soname}", f.resolve(), 0o755)

    # The tests, in the kernel tree's layout.
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.startswith(".e1000epp"):
                continue
            full = Path(dirpath) / f
            rel = full.relative_to(src)
            mode = 0o755 if os.access(full, os.X_OK) else 0o644
            put(f"{GUEST_TREE}/{rel}", full, mode)
    put(LAUNCHER, Path(__file__).with_name("launch.py"))
    # The helper as net/lib/csum.bin, behind a wrapper at its own path
    # that widens a receiver's window (csum -R waits 1-2 s for the
    # sender; under TCG the sender's start-up alone can take that).
    put(f"{GUEST_TREE}/{SELFTESTS}/net/lib/csum.bin",
        Path(build_csum(src, CACHE, log)), 0o755)
    put(f"{GUEST_TREE}/{SELFTESTS}/net/lib/csum", CSUM_WRAPPER.format(
        window=CSUM_RX_WINDOW).encode(), 0o755)

    order = []
    rel = manifest["kernel"]["release"]
    for name, path in remote or []:
        guest = f"lib/modules/{rel}/ksft/{name}.ko"
        put(guest, module_bytes(path))
        order.append("/" + guest)
    put("lib/modules/ksft.order", ("\n".join(order) + "\n").encode())

    # Byte-compiled on the host when its Python is the guest's (3.11):
    # compiling under TCG at every import would cost seconds per test.
    if sys.version_info[:2] == (3, 11):
        log("kselftest: byte-compiling the Python modules")
        compileall.compile_dir(
            str(stage), quiet=2, stripdir=str(stage), prependdir="/",
            invalidation_mode=py_compile.PycInvalidationMode
            .UNCHECKED_HASH, workers=1)

    cpio = Cpio()
    for dirpath, dirs, files in os.walk(stage):
        dirs.sort()
        for f in sorted(files):
            full = Path(dirpath) / f
            rel = str(full.relative_to(stage))
            cpio.file(rel, full.read_bytes(),
                      0o755 if os.access(full, os.X_OK) else 0o644)
    cpio.symlink("usr/bin/python3", PY)
    # busybox's ash runs its own applet for a name it has (ip, ping)
    # whatever PATH says; the tests' shell commands need Debian's.
    cpio.symlink("bin/sh", "bash")
    shutil.rmtree(stage, ignore_errors=True)
    import io
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0,
                       compresslevel=6) as gz:
        gz.write(cpio.bytes())
    return buf.getvalue()
