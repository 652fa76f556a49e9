# SPDX-License-Identifier: GPL-2.0-or-later
"""The guest image for `run`: Debian's kernel, or the user's kernel and
driver.

    --kernel BZIMAGE [--modules DIR]   your kernel; its modules (e1000e and
                                       what it needs) from DIR, else e1000e
                                       must be built in
    --module e1000e.ko                 your e1000e module on Debian's kernel
                                       (or on --kernel with --modules)
    --driver-src DIR                   build DIR (an e1000e source directory
                                       with a Kbuild/Makefile) against the
                                       guest kernel's headers (Debian's
                                       linux-headers, or DIR/build of
                                       --modules), then as --module
    --debian-kernel 6.1|6.12           Debian's kernel from bookworm (6.1)
                                       or bookworm-backports (6.12)
    --kernel-tree DIR                  a built kernel tree (make, no
                                       modules_install): its
                                       arch/x86/boot/bzImage and the modules
                                       built in place; --driver-src is built
                                       against it

Every combination gets its own image in build/guests/<key>/, key = a hash
of the inputs (file contents, not names); nothing but `run` with the same
inputs writes there, so setup and the test fixture (which own
build/guest/) never overwrite a user's image.

validate() checks what can be checked without building (files exist, a
bzImage, module vermagic against the kernel, e1000e present) so that bad
input fails in a second, before setup; prepare() builds the image.
"""

import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess

from e1000epp.common import paths
from e1000epp.image import pagepool_series
from e1000epp.image.build_tools import sha256_file
from e1000epp.common.errors import StepError
from e1000epp.image.kernel_modules import (KERNEL_TREE_MARK, bzimage_payload,
                                           bzimage_release, modinfo,
                                           module_bytes)

GUESTS_DIR = os.path.join(paths.BUILD, "guests")
DEBIAN_KERNELS = {"6.1": "bookworm", "6.12": "bookworm-backports"}
DRIVER = "e1000e"
# Strings only the e1000e driver carries (its description and the name of
# its PCI driver); searched for in a decompressed kernel image.
E1000E_MARKERS = (b"Intel(R) PRO/1000 Network Driver", b"e1000e")


def add_arguments(p):
    g = p.add_argument_group("guest kernel and driver (default: Debian's "
                             "6.1 kernel and its e1000e)")
    g.add_argument("--kernel", metavar="BZIMAGE",
                   help="boot this kernel (x86 bzImage)")
    g.add_argument("--modules", metavar="DIR",
                   help="modules of --kernel: lib/modules/<release> of its "
                   "build, or any directory with e1000e.ko and its "
                   "dependencies")
    g.add_argument("--module", metavar="E1000E.KO",
                   help="your e1000e module instead of the kernel's")
    g.add_argument("--driver-src", metavar="DIR",
                   help="e1000e source directory, built against the guest "
                   "kernel's headers")
    g.add_argument("--debian-kernel", choices=sorted(DEBIAN_KERNELS),
                   help="Debian's kernel: 6.1 (bookworm, default) or 6.12 "
                   "(bookworm-backports)")
    g.add_argument("--driver", metavar="WORD",
                   help="a driver the project ships, in one word: "
                   "'pagepool' (the page-pool series of "
                   "examples/pagepool-e1000e on Debian's 6.12 kernel: "
                   "--debian-kernel 6.12 --driver-src of its patched "
                   "tree) or 'pagepool+BUG' (with one of its bug-class "
                   "fixtures: " + ", ".join(pagepool_series.BUGS) + ")")
    g.add_argument("--kernel-tree", metavar="DIR",
                   help="a built kernel tree (make; no modules_install "
                   "needed): boots its arch/x86/boot/bzImage with the "
                   "modules built in it")
    g.add_argument("--debug-kernel", action="store_true",
                   help="the sanitizing kernel (KASAN, kmemleak, lockdep, "
                   "DEBUG_NET; built by setup --debug-kernel from Debian's "
                   "6.12 source): --kernel-tree build/debug-kernel/linux, "
                   "also under --driver pagepool")


def wanted(args):
    return any(getattr(args, k, None) for k in
               ("kernel", "modules", "module", "driver_src", "debian_kernel",
                "kernel_tree", "driver", "debug_kernel"))


def _expand_debug_kernel(args):
    """--debug-kernel is --kernel-tree of setup --debug-kernel's tree."""
    if not getattr(args, "debug_kernel", False) or \
            getattr(args, "kernel_tree_modules", None):
        return
    for flag, given in (("--kernel-tree", getattr(args, "kernel_tree",
                                                  None)),
                        ("--kernel", args.kernel),
                        ("--debian-kernel", args.debian_kernel)):
        if given:
            _fail(f"--debug-kernel and {flag} both given", "--debug-kernel "
                  "names the kernel", f"drop {flag}")
    if not os.path.isfile(os.path.join(paths.DEBUG_KERNEL_TREE,
                                       KERNEL_TREE_BZIMAGE)):
        _fail("--debug-kernel: the sanitizing kernel is not built",
              f"{paths.DEBUG_KERNEL_TREE} has no {KERNEL_TREE_BZIMAGE}",
              "run ./e1000e-pp setup --debug-kernel (it builds it once)")
    args.kernel_tree = paths.DEBUG_KERNEL_TREE


KERNEL_TREE_BZIMAGE = os.path.join("arch", "x86", "boot", "bzImage")
# What a module lookup needs from a build tree besides the .ko files.
KERNEL_TREE_LISTS = ("modules.builtin", "modules.order")


def _kernel_tree_modules(tree):
    """A directory of symlinks to the modules built in `tree` (their paths
    kept) and its module lists: the --modules of a tree nobody ran
    modules_install for. Made anew each time (the tree may have been
    rebuilt), under build/guests."""
    tag = hashlib.sha256(os.path.realpath(tree).encode()).hexdigest()[:12]
    farm = os.path.join(GUESTS_DIR, "kernel-tree-" + tag)
    shutil.rmtree(farm, ignore_errors=True)
    os.makedirs(farm)
    with open(os.path.join(farm, KERNEL_TREE_MARK), "w") as f:
        f.write(os.path.realpath(tree) + "\n")
    for name in KERNEL_TREE_LISTS:
        if os.path.isfile(os.path.join(tree, name)):
            os.symlink(os.path.realpath(os.path.join(tree, name)),
                       os.path.join(farm, name))
    for dirpath, dirnames, files in os.walk(tree):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for f in files:
            if re.search(r"\.ko(\.(xz|gz|zst))?$", f):
                rel = os.path.relpath(os.path.join(dirpath, f), tree)
                os.makedirs(os.path.join(farm, os.path.dirname(rel)),
                            exist_ok=True)
                os.symlink(os.path.realpath(os.path.join(dirpath, f)),
                           os.path.join(farm, rel))
    return farm


def _expand_kernel_tree(args):
    """--kernel-tree DIR is --kernel DIR/arch/x86/boot/bzImage with the
    tree's modules as --modules (and DIR as --driver-src's build tree)."""
    tree = getattr(args, "kernel_tree", None)
    if not tree or getattr(args, "kernel_tree_modules", None):
        return
    for flag, given in (("--kernel", args.kernel),
                        ("--modules", args.modules),
                        ("--debian-kernel", args.debian_kernel)):
        if given:
            _fail(f"--kernel-tree and {flag} both given", "--kernel-tree "
                  "names the kernel and its modules", f"drop {flag}")
    _check_dir("--kernel-tree", tree)
    bzimage = os.path.join(tree, KERNEL_TREE_BZIMAGE)
    if not os.path.isfile(bzimage):
        _fail(f"--kernel-tree {tree} is not a built kernel tree",
              f"it has no {KERNEL_TREE_BZIMAGE}",
              "build it (make -j$(nproc) bzImage modules) or give the "
              "tree's top directory")
    args.kernel = bzimage
    args.kernel_tree_modules = _kernel_tree_modules(tree)
    args.modules = args.kernel_tree_modules


def _fail(what, why, fix):
    raise StepError(what, why, fix)


def _vermagic(ko):
    return (modinfo(module_bytes(ko), "vermagic") or "").split()[:1]


def _find_e1000e(modules_dir, module=DRIVER):
    hits = [p for p in glob.glob(os.path.join(modules_dir, "**",
                                              f"{module}.ko*"),
                                 recursive=True)]
    if hits:
        return sorted(hits)[0]
    return None


def _builtin_in_tree(modules_dir):
    f = os.path.join(modules_dir, "modules.builtin")
    try:
        with open(f) as fh:
            return any(re.search(r"/e1000e\.ko$", ln.strip())
                       for ln in fh)
    except OSError:
        return False


def _check_file(flag, path):
    if not os.path.exists(path):
        _fail(f"{flag} {path}: no such file", "the path does not exist",
              f"check the path given to {flag}")
    if not os.path.isfile(path):
        _fail(f"{flag} {path}: not a file", "it is a directory or special "
              "file", f"give {flag} a file")


def _check_dir(flag, path):
    if not os.path.isdir(path):
        _fail(f"{flag} {path}: no such directory", "the path does not exist "
              "or is not a directory", f"check the path given to {flag}")


def _expand_driver(args):
    """--driver pagepool[+BUG] is --debian-kernel 6.12 with the series'
    tree as --driver-src (made by prepare(), after setup)."""
    word = getattr(args, "driver", None)
    if not word:
        return
    try:
        pagepool_series.parse(word)
    except StepError as e:
        _fail(e.what, e.why, e.fix)
    debug = getattr(args, "debug_kernel", False)
    for flag, given in (("--driver-src", args.driver_src),
                        ("--module", args.module),
                        ("--kernel", args.kernel),
                        ("--kernel-tree", getattr(args, "kernel_tree",
                                                  None))):
        # The debug kernel is Debian's 6.12 source: the series' kernel.
        if debug and flag in ("--kernel", "--kernel-tree"):
            continue
        if given and not (flag == "--driver-src" and
                          getattr(args, "driver_prepared", False)):
            _fail(f"--driver and {flag} both given", "--driver names "
                  "the kernel and the driver source", f"drop {flag}")
    if args.debian_kernel not in (None, "6.12"):
        _fail(f"--driver {word} with --debian-kernel {args.debian_kernel}",
              "the series is written against Debian's 6.12 kernel",
              "drop --debian-kernel (it is 6.12)")
    if not debug:
        args.debian_kernel = "6.12"


def validate(args):
    """Fail fast on bad input; returns the kernel release of --kernel."""
    _expand_debug_kernel(args)
    _expand_kernel_tree(args)
    _expand_driver(args)
    if args.kernel and args.debian_kernel:
        _fail("--kernel and --debian-kernel both given", "they name two "
              "different kernels", "drop one of them")
    if args.modules and not args.kernel:
        _fail("--modules without --kernel", "--modules are the modules of "
              "your kernel", "add --kernel, or use --module e1000e.ko for "
              "Debian's kernel")
    if args.module and args.driver_src:
        _fail("--module and --driver-src both given", "both name the e1000e "
              "module to use", "drop one of them")
    release = None
    if args.kernel:
        _check_file("--kernel", args.kernel)
        release = bzimage_release(args.kernel)
        if release is None:
            _fail(f"--kernel {args.kernel} is not a bzImage",
                  "no 'HdrS' x86 boot header at offset 0x202",
                  "give the arch/x86/boot/bzImage of your kernel build")
    if args.modules:
        _check_dir("--modules", args.modules)
    if args.driver_src:
        _check_dir("--driver-src", args.driver_src)
        if not any(os.path.exists(os.path.join(args.driver_src, f))
                   for f in ("Makefile", "Kbuild")):
            _fail(f"--driver-src {args.driver_src} has no Makefile or Kbuild",
                  "an out-of-tree module is built with make M=DIR",
                  "point at drivers/net/ethernet/intel/e1000e of a kernel "
                  "tree")
    if args.module:
        _check_file("--module", args.module)
        if not re.search(r"\.ko(\.(xz|gz|zst))?$", args.module):
            _fail(f"--module {args.module} is not a kernel module",
                  "the name does not end in .ko", "give the e1000e.ko built "
                  "for the guest kernel")
        if not _vermagic(args.module):
            _fail(f"--module {args.module} is not a kernel module",
                  "it has no vermagic in its .modinfo", "give the e1000e.ko "
                  "built for the guest kernel")
    if args.module and not args.kernel:
        from e1000epp.image.guest_image import (GuestBuildError,
                                                resolve_kernel_package)
        try:
            pkg = _debian_kernel_package(args.debian_kernel) \
                if args.debian_kernel else resolve_kernel_package()
        except GuestBuildError as e:
            _fail("cannot resolve Debian's kernel", str(e), "apt-get update")
        rel = pkg[len("linux-image-"):]
        vm = _vermagic(args.module)
        if vm[0] != rel:
            _fail(f"{args.module} does not match the kernel",
                  f"module vermagic {vm[0]}, kernel release {rel}",
                  "build the module against this kernel (--driver-src "
                  "does that for you)")
    if args.kernel:
        ko = args.module or (_find_e1000e(args.modules) if args.modules
                             else None)
        if ko:
            vm = _vermagic(ko)
            if vm and release and vm[0] != release:
                _fail(f"{ko} does not match the kernel",
                      f"module vermagic {vm[0]}, kernel release {release}",
                      "build the module against this kernel's tree")
        elif not (args.modules and _builtin_in_tree(args.modules)) and \
                not args.driver_src:
            payload = bzimage_payload(args.kernel)
            if payload is not None and \
                    not all(m in payload for m in E1000E_MARKERS):
                _fail(f"--kernel {args.kernel} has no e1000e driver",
                      "neither built in (CONFIG_E1000E=y) nor a module "
                      "in --modules" if args.modules else
                      "not built in (CONFIG_E1000E=y), and no --modules "
                      "with e1000e.ko given",
                      "pass --modules DIR with its e1000e.ko, --module, or "
                      "build the kernel with CONFIG_E1000E=y")
    return release


def _debian_kernel_package(series):
    """linux-image-<abi>-amd64 of Debian's 6.1 or 6.12 (backports)."""
    suite = DEBIAN_KERNELS[series]
    out = subprocess.run(["apt-cache", "madison", "linux-image-amd64"],
                         stdout=subprocess.PIPE, text=True).stdout
    version = None
    for line in out.splitlines():
        cols = [c.strip() for c in line.split("|")]
        if len(cols) >= 3 and cols[1].startswith(series + ".") and \
                (suite == "bookworm-backports") == ("backports" in cols[2]):
            version = cols[1]
            break
    if not version:
        _fail(f"Debian kernel {series} not found", f"apt knows no "
              f"linux-image-amd64 {series}.x in {suite}",
              "run ./e1000e-pp setup (it adds bookworm-backports) or "
              "apt-get update")
    deps = subprocess.run(["apt-cache", "depends",
                           f"linux-image-amd64={version}"],
                          stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"Depends:\s*(linux-image-\S+)", deps)
    if not m:
        _fail(f"Debian kernel {series}: no image package",
              f"linux-image-amd64={version} depends on no linux-image-*",
              "apt-get update")
    return m.group(1)


def _tree_hash(root):
    h = hashlib.sha256()
    for dirpath, dirnames, files in sorted(os.walk(root)):
        dirnames.sort()
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            if os.path.isfile(p):
                h.update(os.path.relpath(p, root).encode() + b"\0")
                with open(p, "rb") as fh:
                    h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def kbuild_argv(headers, work, target, jobs=1, extra=()):
    """The make command that builds `target` (modules, or one object such
    as netdev.o) of the e1000e copy in `work` against `headers`: the one
    command line build_driver and `mutate` (one object per mutant) share.
    extra: more make variables (mutate's KCFLAGS=-g0)."""
    # An out-of-tree build of the in-tree driver needs CONFIG_E1000E=m.
    return ["make", "-C", headers, f"M={kbuild_module_dir(work)}", target,
            f"-j{jobs}", "CONFIG_E1000E=m", *extra]


def kbuild_module_dir(work):
    """The directory make's M= names for a copy of --driver-src: the copy,
    or its e1000e/ when it holds the driver one level down."""
    if os.path.isdir(os.path.join(work, "e1000e")) and not \
            os.path.exists(os.path.join(work, "Makefile")):
        return f"{work}/e1000e"
    return work


def build_driver(src, headers, out_dir, log, jobs=None, module=DRIVER,
                 extra=()):
    """make -C HEADERS M=<copy of SRC> modules in OUT_DIR/driver-build;
    returns the module's .ko (e1000e.ko)."""
    work = os.path.join(out_dir, "driver-build")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(src, work, symlinks=True)
    log_path = os.path.join(out_dir, "driver-build.log")
    cmd = kbuild_argv(headers, work, "modules", jobs or os.cpu_count() or 1,
                      extra)
    log(f"building the driver: {' '.join(cmd)}")
    with open(log_path, "w") as f:
        proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        with open(log_path) as f:
            tail = f.read().splitlines()[-15:]
        raise StepError(f"--driver-src {src} does not build",
                        f"make exited with {proc.returncode} (against "
                        f"{headers})", "fix the compile error shown above",
                        log=log_path, tail=tail)
    ko = _find_e1000e(work, module)
    if not ko:
        raise StepError(f"--driver-src {src} built no {module}.ko",
                        f"make succeeded but produced no {module}.ko",
                        "the directory must build the e1000e module",
                        log=log_path)
    return ko


DRIVER_STAMP = "driver-build.stamp"


def _built_driver(src, headers, out, log):
    """build_driver, or the module an earlier run built in `out` (whose
    key already hashes the driver's source and the kernel) against the
    same headers: a fixture's run and the series' share no build, but
    the same driver twice builds once."""
    stamp = os.path.join(out, DRIVER_STAMP)
    if os.path.isfile(stamp):
        with open(stamp) as f:
            ko, was = (f.read().split("\n") + [""])[:2]
        if was == headers and os.path.isfile(ko):
            log(f"the driver: built before against {headers} ({ko})")
            return ko
    if os.path.exists(stamp):
        os.unlink(stamp)
    ko = build_driver(src, headers, out, log)
    with open(stamp, "w") as f:
        f.write(f"{ko}\n{headers}")
    return ko


def debian_headers(debian_kernel, log=print):
    """The headers directory of Debian's kernel `debian_kernel` (6.1 or
    6.12; None: the default guest kernel), installed if missing: what
    prepare() builds --driver-src against."""
    if debian_kernel:
        pkg = _debian_kernel_package(debian_kernel)
    else:
        from e1000epp.image.guest_image import (GuestBuildError,
                                                resolve_kernel_package)
        try:
            pkg = resolve_kernel_package()
        except GuestBuildError as e:
            _fail("cannot resolve Debian's kernel", str(e), "apt-get update")
    return headers_for_release(pkg[len("linux-image-"):], log)


def headers_for_release(release, log):
    """/usr/src/linux-headers-<release>, installed with apt if missing."""
    d = f"/usr/src/linux-headers-{release}"
    if not os.path.isdir(d):
        log(f"installing linux-headers-{release}")
        # Another apt at work (a second run building a driver) is waited
        # for, not failed on.
        proc = subprocess.run(["apt-get", "install", "-y",
                               "--no-install-recommends",
                               "-o", "DPkg::Lock::Timeout=600",
                               f"linux-headers-{release}"],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              env=dict(os.environ,
                                       DEBIAN_FRONTEND="noninteractive"))
        if proc.returncode != 0 or not os.path.isdir(d):
            raise StepError(f"no headers for kernel {release}",
                            f"apt-get install linux-headers-{release} "
                            "failed", "install them, or give --modules "
                            "DIR with a build/ tree",
                            tail=proc.stdout.splitlines()[-8:])
    return d


def prepare(args, log=print):
    """Build (or reuse) the image; returns (guest_dir, description).
    One at a time across processes (runs side by side, the functional
    tests' workers): the headers' apt-get install takes dpkg's lock, and
    two runs of the same inputs would build the same tree and image."""
    os.makedirs(GUESTS_DIR, exist_ok=True)
    with open(os.path.join(GUESTS_DIR, ".prepare.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _prepare(args, log)


def _prepare(args, log):
    from e1000epp.image.guest_image import GuestBuildError, build_guest
    if getattr(args, "driver", None) and \
            not getattr(args, "driver_prepared", False):
        validate(args)
        args.driver_src = pagepool_series.prepare(args.driver, log)
        args.driver_prepared = True
    validate(args)
    kernel_pkg = None
    if not args.kernel:
        series = args.debian_kernel or "6.1"
        kernel_pkg = _debian_kernel_package(series) if args.debian_kernel \
            else None
    inputs = {
        "kernel": sha256_file(args.kernel) if args.kernel else None,
        "modules": _tree_hash(args.modules) if args.modules else None,
        "module": sha256_file(args.module) if args.module else None,
        "driver_src": _tree_hash(args.driver_src) if args.driver_src
        else None,
        "debian_kernel": kernel_pkg,
    }
    key = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()) \
        .hexdigest()[:16]
    out = os.path.join(GUESTS_DIR, key)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "inputs.json"), "w") as f:
        json.dump(dict(inputs, args={k: getattr(args, k, None) for k in
                                     ("kernel", "modules", "module",
                                      "driver_src", "debian_kernel",
                                      "kernel_tree")}),
                  f, indent=1)
    module = args.module
    if args.driver_src:
        if getattr(args, "kernel_tree", None):
            headers = args.kernel_tree
        elif args.kernel:
            build = os.path.join(args.modules or "", "build")
            if not args.modules or not os.path.isdir(build):
                _fail("--driver-src with --kernel needs the kernel's build "
                      "tree", f"{build} does not exist",
                      "give --modules lib/modules/<release> of your kernel "
                      "build (with its build/ link)")
            headers = build
        else:
            from e1000epp.image.guest_image import resolve_kernel_package
            pkg = kernel_pkg or resolve_kernel_package()
            headers = headers_for_release(pkg[len("linux-image-"):], log)
        module = _built_driver(args.driver_src, headers, out, log)
        if not args.kernel:
            vm = _vermagic(module)
            want = (kernel_pkg or "")[len("linux-image-"):]
            if want and vm and vm[0] != want:
                _fail(f"the module built from {args.driver_src} does not "
                      "match the kernel", f"vermagic {vm[0]}, kernel {want}",
                      "report this: the headers used do not match")
    modules_dir = args.modules
    if module:
        # The module overrides the kernel's own e1000e (guest.ModuleTree
        # searches the override directory first).
        over = os.path.join(out, "override")
        shutil.rmtree(over, ignore_errors=True)
        os.makedirs(over)
        shutil.copy(module, os.path.join(over, os.path.basename(module)))
        modules_dir = over
    try:
        manifest = build_guest(paths.REPO, out, log=log,
                               kernel=args.kernel, modules_dir=modules_dir,
                               kernel_package=kernel_pkg,
                               module_tree=args.modules if module and
                               args.kernel else None,
                               cache_dir=paths.GUEST_DIR)
    except GuestBuildError as e:
        raise StepError("building the guest image failed", str(e),
                        "check the inputs named above")
    if not args.kernel and module:
        vm = _vermagic(module)
        rel = manifest["kernel"]["release"]
        if vm and vm[0] != rel:
            _fail(f"{module} does not match the kernel",
                  f"module vermagic {vm[0]}, kernel release {rel}",
                  "build the module against this kernel (--driver-src "
                  "does that for you)")
    rel = manifest["kernel"]["release"]
    what = ("your kernel " + rel) if args.kernel else ("Debian " + rel)
    if getattr(args, "kernel_tree", None):
        what = f"your kernel tree {args.kernel_tree} ({rel})"
    if module:
        what += " + " + ("e1000e built from " + args.driver_src
                         if args.driver_src else module)
    elif args.modules and not getattr(args, "kernel_tree", None):
        what += " + modules from " + args.modules
    return out, f"{what} (build/guests/{key})"
