# SPDX-License-Identifier: GPL-2.0-or-later
"""`fuzz --whole-device`: the device inside QEMU under QEMU's own
generic-fuzz target (the one OSS-Fuzz runs for QEMU's NICs).

    ./e1000e-pp fuzz --whole-device --minutes 30 [--device e1000e]

generic-fuzz turns each input into MMIO and PIO accesses to the regions
of the objects its configuration names (every BAR of the device, the
MSI-X table and PBA among them), PCI configuration reads and writes,
virtual-clock steps, and DMA patterns: whatever the device reads from
guest memory is filled from the input, so descriptors, buffers and
addresses aimed back at the device's own BARs are the fuzzer's to
choose.  The adapter, the memory API, the netdev and the bottom halves
run as in a VM, under AddressSanitizer and UBSan.

The configuration for e1000e-pp is an entry of QEMU's own table
(tests/qtest/fuzz/generic_fuzz_configs.h, added by the overlay in the
form QEMU uses for its e1000e); --device e1000e runs QEMU's entry for
its stock model the same way.  The run starts from the committed seeds
(tests/fuzz/whole-device/seeds: the core fuzzer's driver sequences
re-encoded for generic-fuzz), the regressions and the working corpus of
earlier runs (build/fuzz/whole-device/<model>/corpus); crashes and
hangs are minimised into tests/fuzz/whole-device/regressions.
"""

import os
import shutil
import subprocess

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.fuzz.core import _inputs, _rel, ARTIFACTS, run_fuzzer

FUZZER = paths.QEMU_FUZZ_BIN
HERE = os.path.join(paths.REPO, "tests", "fuzz", "whole-device")
SEEDS = os.path.join(HERE, "seeds")
REGRESSIONS = os.path.join(HERE, "regressions")
WORK = os.path.join(paths.BUILD, "fuzz", "whole-device")
TARGETS = {"e1000e-pp": "generic-fuzz-e1000e-pp",
           "e1000e": "generic-fuzz-e1000e"}
# QEMU leaks on purpose at exit and between fuzz runs (its objects live
# for the process): leaks are not what this run looks for.
ENV = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
       "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}
# A generic-fuzz input runs in milliseconds, but each DMA the device
# issues costs the fuzzer's fill callback some 30 us under ASan: a Tx
# ring of 21,600 descriptors walked whole (the guest's right, 256 per
# main-loop turn) takes 1.3 s, and 30 times that on a loaded machine
# with the run niced.  A device that loops never ends at all: 120 s
# tells the two apart on a shared machine.
TIMEOUT = 120


def _fuzzer():
    if not os.access(FUZZER, os.X_OK):
        raise StepError("QEMU's fuzzer is not built",
                        "%s is missing" % _rel(FUZZER),
                        "run ./e1000e-pp setup --fuzzing")
    return FUZZER


def _cmd(device, *extra):
    return [_fuzzer(), "--fuzz-target=%s" % TARGETS[device]] + list(extra)


def _env():
    return dict(os.environ, **ENV)


def minimize(device, crash, seconds=120):
    """One crashing input, minimised into the regressions; its path."""
    name = "%s-%s" % (device, os.path.basename(crash))
    out = os.path.join(REGRESSIONS, name)
    os.makedirs(REGRESSIONS, exist_ok=True)
    subprocess.run(_cmd(device, "-minimize_crash=1",
                        "-max_total_time=%d" % seconds,
                        "-exact_artifact_path=%s" % out, crash),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   stdin=subprocess.DEVNULL, env=_env())
    if not os.path.exists(out):
        shutil.copy(crash, out)      # could not shrink it: keep it whole
    return out


def run(minutes, device="e1000e-pp", minimize_file=None, keep_corpus=False):
    if minimize_file:
        if not os.path.isfile(minimize_file):
            raise StepError("no such input: %s" % minimize_file,
                            "--minimize takes a crashing input file",
                            "pass the path libFuzzer printed")
        print("regression input: %s" % _rel(minimize(device, minimize_file)))
        return 0
    work = os.path.join(WORK, device)
    corpus = os.path.join(work, "corpus")
    crashes = os.path.join(work, "crashes")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    for f in _inputs(SEEDS) + _inputs(REGRESSIONS):
        dst = os.path.join(corpus, os.path.basename(f))
        if not os.path.exists(dst):
            shutil.copy(f, dst)
    before = set(os.listdir(crashes))
    log = os.path.join(paths.LOG_DIR, "fuzz-whole-device-%s.log" % device)
    os.makedirs(paths.LOG_DIR, exist_ok=True)
    cmd = _cmd(device, "-max_total_time=%d" % int(minutes * 60),
               "-timeout=%d" % TIMEOUT, "-rss_limit_mb=4096",
               "-print_final_stats=1", "-artifact_prefix=%s/" % crashes,
               corpus)
    print("[fuzz] whole device %s (%s), %s minutes, corpus %s, log %s" % (
        device, TARGETS[device], minutes, _rel(corpus), _rel(log)),
        flush=True)
    rc = run_fuzzer(cmd, log, _env())
    print("[fuzz] working corpus %s: %d inputs, kept for the next run"
          % (_rel(corpus), len(_inputs(corpus))))
    if keep_corpus:
        had = set(os.listdir(SEEDS))
        subprocess.run(_cmd(device, "-merge=1", SEEDS, corpus),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL, env=_env())
        added = sorted(set(os.listdir(SEEDS)) - had)
        print("[fuzz] %d new seed%s in %s%s" % (
            len(added), "" if len(added) == 1 else "s", _rel(SEEDS),
            ": commit them" if added else ""))
    found = sorted(n for n in set(os.listdir(crashes)) - before
                   if n.startswith(ARTIFACTS))
    for n in found:
        reg = minimize(device, os.path.join(crashes, n))
        print("[fuzz] %s minimised into %s (turn it into a qtest "
              "reproducer: docs/security.md)" % (n, _rel(reg)))
    if rc and not found:
        print("[fuzz] the fuzzer exited with status %d; see %s"
              % (rc, _rel(log)))
    return 1 if rc or found else 0
