# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian packages: the apt source file and the packages the project needs.

A second run costs one dpkg-query call: apt-get update runs only when the
source file was just written or a needed package has no install candidate,
and apt-get install runs only for what is missing.
"""

import os
import shutil
import subprocess

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.common.progress import run_logged
SOURCES_FILE = "/etc/apt/sources.list.d/e1000e-pp.sources"
SOURCES_TEXT = """\
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""

BACKPORTS = "bookworm-backports"

# name -> minimum version (None: any).  The QEMU build needs meson >= 1.5
# and python3-pycotap, both only in bookworm-backports.
BACKPORTS_PACKAGES = {
    "meson": "1.5",
    "python3-pycotap": None,
}

PACKAGES = [
    # QEMU build (configure creates a python venv from Debian's python3)
    "ninja-build", "gcc", "libc6-dev", "make", "pkg-config",
    "libglib2.0-dev", "libpixman-1-dev", "libslirp-dev", "libfdt-dev",
    "python3-distlib", "python3-venv", "flex", "bison", "bzip2",
    # 32-bit libgcc: configure builds the x86 option ROMs (linuxboot_dma.bin
    # for -kernel, kvmvapic.bin, ...) only when `gcc -m32 ... -lgcc` links
    "gcc-multilib",
    # apt-get source (dpkg-source applies Debian's quilt patches)
    "dpkg-dev", "patch", "xz-utils",
    # firmware for the emulator
    "seabios", "ipxe-qemu",
    # guest image (initramfs built from Debian packages)
    "busybox-static", "cpio", "kmod", "zstd",
    # ethtool in the guest needs libmnl.so.0; image/guest_image.py finds the package
    # of every library with `dpkg -S` on this host
    "libmnl0",
    # peer, agent and tests
    "libpcap-dev", "tcpdump", "python3-pytest",
    # the functional suite runs its test files side by side (pytest -n)
    "python3-pytest-xdist",
    # the functional tests open the matrix's report.html in a real browser
    "chromium",
    # `bench --insn`: callgrind counts instructions per frame
    "valgrind",
    # the coverage-guided fuzzer of the core (libFuzzer, ASan, UBSan)
    "clang", "libclang-rt-14-dev",
    # the sanitizing guest kernel (setup --debug-kernel): objtool, certs
    "libelf-dev", "libssl-dev", "bc",
    # replay --break-symbol and the replay suite drive the gdbstub
    "gdb",
]


def _installed_versions(names):
    """{name: version} of the installed packages among names."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${db:Status-Abbrev}\t${Version}\n"]
        + names, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[1].startswith("ii"):
            found[parts[0].split(":")[0]] = parts[2]
    return found


def _version_ge(a, b):
    return subprocess.run(["dpkg", "--compare-versions", a, "ge", b]
                          ).returncode == 0


def missing_packages():
    """(plain, backports) lists of packages still to install."""
    plain = list(PACKAGES)
    names = plain + list(BACKPORTS_PACKAGES)
    have = _installed_versions(names)
    miss_plain = [p for p in plain if p not in have]
    miss_bpo = [p for p, minv in BACKPORTS_PACKAGES.items()
                if p not in have or (minv and not _version_ge(have[p], minv))]
    return miss_plain, miss_bpo


def _installable(plain, bpo):
    """True when apt knows a candidate for every package (backports ones
    from bookworm-backports)."""
    names = plain + bpo
    if not names:
        return True
    out = subprocess.run(["apt-cache", "policy"] + names,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    blocks = {}
    cur = None
    for line in out.splitlines():
        if line and not line[0].isspace() and line.endswith(":"):
            cur = line[:-1].split(":")[0]
            blocks[cur] = []
        elif cur:
            blocks[cur].append(line)
    for name in names:
        text = "\n".join(blocks.get(name, []))
        if "Candidate:" not in text or "Candidate: (none)" in text:
            return False
        if name in bpo and BACKPORTS not in text:
            return False
    return True


def _sudo_prefix(what_cmd):
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(
            ["sudo", "-n", "true"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode == 0:
        return ["sudo", "-n"]
    raise StepError("installing Debian packages needs root",
                    "you are not root and passwordless sudo is not available",
                    "run as root: %s   (or run ./e1000e-pp setup as root)"
                    % what_cmd)


def write_sources(reporter):
    """Write the apt source file if missing; True when it was written."""
    if os.path.exists(SOURCES_FILE):
        return False
    reporter.line("writing %s (bookworm-backports deb, trixie deb-src)"
                  % SOURCES_FILE)
    if os.geteuid() == 0:
        with open(SOURCES_FILE, "w") as f:
            f.write(SOURCES_TEXT)
    else:
        pre = _sudo_prefix("tee %s < (the text in scripts/e1000epp/setup/apt.py)"
                           % SOURCES_FILE)
        subprocess.run(pre + ["tee", SOURCES_FILE], input=SOURCES_TEXT,
                       text=True, stdout=subprocess.DEVNULL, check=True)
    return True


def apt_update(reporter):
    log = os.path.join(paths.LOG_DIR, "apt-update.log")
    pre = _sudo_prefix("apt-get update")
    reporter.line("apt-get update")
    run_logged(pre + ["apt-get", "update"], log, "apt-get update failed",
               "the Debian archive could not be reached or a source line "
               "is wrong (see %s)" % SOURCES_FILE,
               "check network access to deb.debian.org and the apt sources",
               reporter=reporter)


def ensure_packages(reporter):
    """Step 1: packages.  Returns a short status text."""
    wrote = write_sources(reporter)
    plain, bpo = missing_packages()
    if not plain and not bpo and not wrote:
        return "all %d packages present" % (len(PACKAGES) +
                                            len(BACKPORTS_PACKAGES))
    if wrote or not _installable(plain, bpo):
        apt_update(reporter)
        if not _installable(plain, bpo):
            raise StepError(
                "some packages cannot be installed: %s" % " ".join(plain + bpo),
                "apt has no install candidate for them (backports ones must "
                "come from %s)" % BACKPORTS,
                "check %s and run apt-get update" % SOURCES_FILE)
    log = os.path.join(paths.LOG_DIR, "apt-install.log")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    base = ["apt-get", "install", "-y", "--no-install-recommends"]
    if plain:
        cmd = base + plain
        reporter.line("installing %s" % " ".join(plain))
        run_logged(_sudo_prefix(" ".join(cmd)) + cmd, log,
                   "apt-get install failed", None,
                   "read the log; run the apt-get command by hand to see",
                   env=env, reporter=reporter, append=True)
    if bpo:
        cmd = base + ["-t", BACKPORTS] + bpo
        reporter.line("installing from %s: %s" % (BACKPORTS, " ".join(bpo)))
        run_logged(_sudo_prefix(" ".join(cmd)) + cmd, log,
                   "apt-get install -t %s failed" % BACKPORTS, None,
                   "read the log; run the apt-get command by hand to see",
                   env=env, reporter=reporter, append=True)
    return "installed %d package(s)" % (len(plain) + len(bpo))
