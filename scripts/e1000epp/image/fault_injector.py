# SPDX-License-Identifier: GPL-2.0-or-later
"""The fault injector in a guest: guest/failinject's e1000epp_fail.ko (a
kprobe module that fails one function's calls from e1000e) built
against the guest kernel's headers and added to its initramfs as
GUEST_PATH, in a guest directory of its own beside the one it extends
(build/guests/inject-<key>). The allocation-failure cells load it with
insmod (matrix/traffic_faults.py).

The headers are the kernel's own: Debian's linux-headers-<release>
(installed with apt when missing, as --driver-src's are), or the build
tree a user kernel was prepared with (--kernel-tree, --modules DIR's
build/). Built once per kernel and source.
"""

import fcntl
import hashlib
import json
import os
import shutil
import subprocess

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.image import guest_overlay, user_kernel

SRC = os.path.join(paths.REPO, "guest", "failinject")
MODULE = "e1000epp_fail"
GUEST_PATH = f"/lib/modules/e1000epp/{MODULE}.ko"
STAMP = "injector.stamp"


def _read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def headers_for(guest_dir, release, log):
    """The kernel build directory the guest's modules build against."""
    args = _read_json(os.path.join(guest_dir, "inputs.json")).get("args",
                                                                   {})
    if args.get("kernel_tree"):
        return args["kernel_tree"]
    if args.get("kernel"):
        build = os.path.join(args.get("modules") or "", "build")
        if args.get("modules") and os.path.isdir(build):
            return build
        raise StepError(
            "the allocation-failure cells cannot build the fault injector "
            f"for kernel {release}", "the guest was made from --kernel "
            "without a kernel build tree",
            "give --modules lib/modules/<release> with its build/ link, "
            "or --kernel-tree DIR; or leave the allocfail cells out "
            "(--only '!*allocfail*')")
    return user_kernel.headers_for_release(release, log)


def _source_digest():
    h = hashlib.sha256()
    for name in sorted(os.listdir(SRC)):
        with open(os.path.join(SRC, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


def build(headers, out_dir, log):
    """e1000epp_fail.ko built in out_dir against headers."""
    work = os.path.join(out_dir, "build")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(SRC, work)
    cmd = ["make", "-C", headers, f"M={work}", "modules",
           f"-j{os.cpu_count() or 1}"]
    log(f"building the fault injector: {' '.join(cmd)}")
    proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    ko = os.path.join(work, f"{MODULE}.ko")
    if proc.returncode != 0 or not os.path.isfile(ko):
        raise StepError("the fault injector does not build",
                        f"make exited with {proc.returncode} against "
                        f"{headers}", "the kernel needs CONFIG_KPROBES and "
                        "x86-64; see the output above",
                        tail=proc.stdout.splitlines()[-12:])
    return ko


def guest_with_injector(guest_dir, log=print):
    """A guest directory: guest_dir's plus the injector at GUEST_PATH.
    One process at a time builds it (runs and campaign shards started
    together share it)."""
    os.makedirs(user_kernel.GUESTS_DIR, exist_ok=True)
    with open(os.path.join(user_kernel.GUESTS_DIR, ".inject.lock"),
              "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _guest_with_injector(guest_dir, log)


def _guest_with_injector(guest_dir, log):
    manifest = _read_json(os.path.join(guest_dir, "manifest.json"))
    release = (manifest.get("kernel") or {}).get("release")
    if not release:
        raise StepError("the allocation-failure cells need the guest's "
                        "kernel release", f"{guest_dir}/manifest.json "
                        "names none", "run ./e1000e-pp setup")
    headers = headers_for(guest_dir, release, log)
    key = hashlib.sha256(json.dumps({
        "base": os.path.abspath(guest_dir),
        "image": manifest.get("inputs_key"), "headers": headers,
        "release": release, "source": _source_digest()},
        sort_keys=True).encode()).hexdigest()[:16]
    out = os.path.join(user_kernel.GUESTS_DIR, f"inject-{key}")
    stamp = os.path.join(out, STAMP)
    if os.path.isfile(stamp) and \
            os.path.isfile(os.path.join(out, "initrd.img")):
        return out
    os.makedirs(out, exist_ok=True)
    ko = build(headers, out, log)
    guest_overlay.overlay(guest_dir, out, {GUEST_PATH: ko})
    with open(stamp, "w") as f:
        f.write(f"{ko}\n{headers}\n")
    log(f"the fault injector for {release}: {out}")
    return out


def wanted(cells):
    """Whether any cell's family makes kernel calls fail."""
    return any(c.family and c.family.inject for c in cells)
