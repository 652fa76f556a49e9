# SPDX-License-Identifier: GPL-2.0-or-later
"""Steps 4 and 5: configure and build QEMU in build/qemu; with
setup --sanitized, a step more: the same emulator with AddressSanitizer
and UBSan in build/qemu-sanitized; with setup --fuzzing, QEMU's
libFuzzer targets (clang) in build/qemu-fuzz.

Configure runs only when a build directory is not configured yet or the
flags changed (they are stored in <dir>/.e1000e-pp-configure); after that
ninja alone keeps the build current (it re-runs meson itself when a
meson.build or Kconfig file changed), so touching one device file costs a
few compile steps.
"""

import json
import os
import subprocess
import time

from e1000epp.common import emulator, paths
from e1000epp.common.progress import fmt_secs, ninja_progress, run_logged

STAMP_NAME = ".e1000e-pp-configure"
OPTIONROM_CONFIG = os.path.join(paths.OPTIONROM_DIR, "config.mak")
OPTIONROMS = ["linuxboot_dma.bin", "linuxboot.bin", "multiboot.bin",
              "multiboot_dma.bin", "kvmvapic.bin", "pvh.bin"]

CONFIGURE_FLAGS = [
    "--python=/usr/bin/python3",
    "--target-list=x86_64-softmmu",
    "--without-default-features",
    "--without-default-devices",
    "--with-devices-x86_64=e1000e-pp",
    "--enable-slirp",
    "--enable-tcg",
    # TCG plugins: the guest cost counter (tools/plugin, docs/cost.md)
    "--enable-plugins",
    "--enable-fdt=system",
    "--disable-install-blobs",
    "--disable-docs",
]
# QEMU's own switches for its sanitizer builds (meson: b_sanitize).
SANITIZER_FLAGS = ["--enable-asan", "--enable-ubsan"]
# Its fuzzing build (docs/devel/testing/fuzzing.rst): clang, libFuzzer,
# the sanitizers; no TCG plugins (the fuzzer has no use for them).
FUZZING_FLAGS = ["--cc=clang", "--cxx=clang++", "--enable-fuzzing"] + \
    SANITIZER_FLAGS


def configure_cmd(src, build_dir=None):
    build_dir = build_dir or paths.QEMU_BUILD
    flags = CONFIGURE_FLAGS
    if build_dir == paths.QEMU_SANITIZED_BUILD:
        flags = CONFIGURE_FLAGS + SANITIZER_FLAGS
    elif build_dir == paths.QEMU_FUZZ_BUILD:
        flags = [f for f in CONFIGURE_FLAGS if f != "--enable-plugins"] + \
            FUZZING_FLAGS
    return [os.path.join(os.path.relpath(src, build_dir),
                         "configure")] + flags


def _log_suffix(build_dir):
    return {paths.QEMU_BUILD: "", paths.QEMU_SANITIZED_BUILD: "-sanitized",
            paths.QEMU_FUZZ_BUILD: "-fuzz"}.get(build_dir, "-other")


def _recorded_cmd(build_dir=None):
    """The configure command line build_dir was set up with, or None."""
    try:
        with open(os.path.join(build_dir or paths.QEMU_BUILD,
                               STAMP_NAME)) as f:
            return json.load(f)["cmd"]
    except (OSError, ValueError, KeyError):
        return None


def _multilib_ok():
    """Can gcc build 32-bit freestanding code (needed for option ROMs)?"""
    return subprocess.run(
        ["sh", "-c", "echo 'int x;' | cc -m32 -x c -c -o /dev/null - && "
         "cc -m32 -print-libgcc-file-name | xargs test -f"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def needs_configure(src, build_dir=None):
    build_dir = build_dir or paths.QEMU_BUILD
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        return "not configured yet"
    rec = _recorded_cmd(build_dir)
    if rec is None:
        return "configured by hand (no %s)" % STAMP_NAME
    if rec != configure_cmd(src, build_dir):
        return "configure flags changed"
    if (build_dir == paths.QEMU_BUILD and
            not os.path.exists(OPTIONROM_CONFIG) and _multilib_ok()):
        return "32-bit gcc now available for the option ROMs"
    return None


def configure(reporter, src, build_dir=None):
    build_dir = build_dir or paths.QEMU_BUILD
    why = needs_configure(src, build_dir)
    if not why:
        return "up to date"
    os.makedirs(build_dir, exist_ok=True)
    cmd = configure_cmd(src, build_dir)
    log = "configure%s.log" % _log_suffix(build_dir)
    reporter.line("running configure (%s); log: build/logs/%s" % (why, log))
    secs = run_logged(cmd, os.path.join(paths.LOG_DIR, log),
                      "QEMU configure failed",
                      "see the log tail above",
                      "fix the cause (often a missing -dev package: "
                      "./e1000e-pp setup installs them) and run setup again",
                      cwd=build_dir, reporter=reporter)
    with open(os.path.join(build_dir, STAMP_NAME), "w") as f:
        json.dump({"cmd": cmd, "src": src}, f)
        f.write("\n")
    return "configured in %s" % fmt_secs(secs)


def _other_ninja(build_dir):
    """pids of ninja processes already running in build_dir."""
    # /proc directly: pgrep (procps) is not in every base image
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/comm" % pid) as f:
                if f.read().strip() == "ninja":
                    out.append(pid)
        except OSError:
            continue
    pids = []
    real = os.path.realpath(build_dir)
    for pid in out:
        try:
            cwd = os.path.realpath("/proc/%s/cwd" % pid)
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        dirs = [cwd]
        for i, a in enumerate(argv):
            if a == "-C" and i + 1 < len(argv):
                dirs.append(os.path.realpath(os.path.join(cwd, argv[i + 1])))
        if real in dirs:
            pids.append(pid)
    return pids


def wait_for_other_ninja(reporter, build_dir):
    said = False
    while True:
        pids = _other_ninja(build_dir)
        if not pids:
            return
        if not said:
            reporter.line("waiting for another ninja in %s (pid %s)"
                          % (os.path.relpath(build_dir, paths.REPO),
                             ", ".join(pids)))
            said = True
        time.sleep(5)


def ninja(reporter, targets, jobs, label, log, append=False,
          build_dir=None):
    cmd = ["ninja", "-C", build_dir or paths.QEMU_BUILD]
    if jobs:
        cmd += ["-j", str(jobs)]
    cmd += targets
    return run_logged(cmd, log, "building %s failed" % " ".join(targets),
                      "a compile or link error, see the log tail above",
                      "fix the error and run ./e1000e-pp setup again (it "
                      "rebuilds incrementally)",
                      reporter=reporter, append=append,
                      on_line=ninja_progress(reporter, label))


def qtest_targets():
    """Every executable our tests/qtest/meson.build defines."""
    out = subprocess.run(["ninja", "-C", paths.QEMU_BUILD, "-t", "targets",
                          "all"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    prefix = paths.QTEST_DIR + "/"
    found = []
    for line in out.splitlines():
        target, _, rule = line.partition(": ")
        if (target.startswith(prefix) and "/" not in target[len(prefix):]
                and "LINKER" in rule and not target.endswith(".a")):
            found.append(target)
    return sorted(found)


def has_ninja_target(target):
    return subprocess.run(["ninja", "-C", paths.QEMU_BUILD, "-t", "query",
                           target], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def build_optionroms(reporter):
    """x86 option ROMs (linuxboot_dma.bin for -kernel etc.) from the tree."""
    if not os.path.exists(OPTIONROM_CONFIG):
        reporter.line("warning: no 32-bit gcc at configure time: option ROMs "
                      "(needed for -kernel) not built; install gcc-multilib")
        return False
    if all(os.path.exists(os.path.join(paths.OPTIONROM_DIR, r))
           for r in OPTIONROMS):
        # make is cheap, but keep the no-op run silent and fast
        newest = max(os.path.getmtime(os.path.join(paths.OPTIONROM_DIR, r))
                     for r in OPTIONROMS)
        if newest >= os.path.getmtime(OPTIONROM_CONFIG):
            return True
    run_logged(["make", "-C", paths.OPTIONROM_DIR],
               os.path.join(paths.LOG_DIR, "optionrom.log"),
               "building the x86 option ROMs failed",
               "see the log tail above",
               "install gcc-multilib, re-run ./e1000e-pp setup",
               reporter=reporter)
    return True


def build(reporter, jobs=None):
    wait_for_other_ninja(reporter, paths.QEMU_BUILD)
    log = os.path.join(paths.LOG_DIR, "ninja.log")
    ninja(reporter, ["qemu-system-x86_64"], jobs, "building QEMU", log)
    built = ["qemu-system-x86_64"]
    targets = qtest_targets()
    if targets:
        ninja(reporter, targets, jobs, "building qtests", log, append=True)
        built.append("%d qtest/bench binaries" % len(targets))
    else:
        reporter.line("no qtest target yet (%s): skipped"
                      % paths.QTEST_DIR)
    if build_optionroms(reporter):
        built.append("option ROMs")
    return ", ".join(built)


def _bundle_datadir(binary):
    """The data directory the built binary searches by itself (its
    qemu-bundle tree), from `qemu -L help`."""
    out = subprocess.run([binary, "-L", "help"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout.split()
    for d in out:
        if "/qemu-bundle/" in d and d.endswith("/share/qemu"):
            return d
    return None


def link_firmware(reporter, binary=None, datadir=None):
    """Link the firmware into the binary's own data directory.

    Then build/qemu/qemu-system-x86_64 (or the sanitized one) finds BIOS,
    option ROMs and NIC ROMs without -L, which the qtests need
    (QTEST_QEMU_BINARY takes no arguments).  qemu_cmd() still passes -L
    explicitly.
    """
    datadir = datadir or _bundle_datadir(binary or paths.QEMU_BIN)
    if not datadir:
        reporter.line("warning: cannot find the binary's data directory; "
                      "use ./e1000e-pp qemu (it passes -L)")
        return 0
    os.makedirs(datadir, exist_ok=True)
    count = 0
    for d in reversed(emulator.firmware_dirs()):
        for name in sorted(os.listdir(d)):
            if not name.endswith((".bin", ".rom", ".aml")):
                continue
            src = os.path.join(d, name)
            dst = os.path.join(datadir, name)
            if os.path.islink(dst) and os.readlink(dst) == src:
                count += 1
                continue
            if os.path.islink(dst) or os.path.exists(dst):
                if not os.path.islink(dst):
                    continue  # a real file from QEMU's install plan
                os.unlink(dst)
            os.symlink(src, dst)
            count += 1
    return count


def build_sanitized(reporter, jobs=None):
    """Step 8 (setup --sanitized): the emulator alone, from the same tree
    and flags plus SANITIZER_FLAGS, with the firmware linked; the qtest
    programs are build/qemu's."""
    src = paths.qemu_src()
    status = configure(reporter, src, paths.QEMU_SANITIZED_BUILD)
    wait_for_other_ninja(reporter, paths.QEMU_SANITIZED_BUILD)
    ninja(reporter, ["qemu-system-x86_64"], jobs,
          "building QEMU with AddressSanitizer and UBSan",
          os.path.join(paths.LOG_DIR, "ninja-sanitized.log"),
          build_dir=paths.QEMU_SANITIZED_BUILD)
    n = link_firmware(reporter, paths.QEMU_SANITIZED_BIN)
    return "%s; %s built; %d firmware files linked" % (
        status, os.path.relpath(paths.QEMU_SANITIZED_BIN, paths.REPO), n)


def build_fuzzer(reporter, jobs=None):
    """setup --fuzzing: QEMU's libFuzzer binary, from the same tree (whose
    overlay adds the e1000e-pp generic-fuzz configuration)."""
    src = paths.qemu_src()
    status = configure(reporter, src, paths.QEMU_FUZZ_BUILD)
    wait_for_other_ninja(reporter, paths.QEMU_FUZZ_BUILD)
    target = os.path.basename(paths.QEMU_FUZZ_BIN)
    ninja(reporter, [target], jobs, "building QEMU's fuzzer (clang)",
          os.path.join(paths.LOG_DIR, "ninja-fuzz.log"),
          build_dir=paths.QEMU_FUZZ_BUILD)
    # The fuzzer takes libFuzzer's options, not -L help: its data
    # directory is build/qemu's, moved to its own build directory.
    main = _bundle_datadir(paths.QEMU_BIN)
    n = link_firmware(reporter, datadir=main and os.path.join(
        paths.QEMU_FUZZ_BUILD, os.path.relpath(main, paths.QEMU_BUILD)))
    return "%s; %s built; %d firmware files linked" % (
        status, os.path.relpath(paths.QEMU_FUZZ_BIN, paths.REPO), n)
