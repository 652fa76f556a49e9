# SPDX-License-Identifier: GPL-2.0-or-later
"""`fuzz`: the long coverage-guided run of the core (tests/fuzz).

    ./e1000e-pp fuzz --minutes 30        fuzz, keep what is new, minimise
    ./e1000e-pp fuzz --keep-corpus       ... and merge it into the seeds
    ./e1000e-pp fuzz --minimize FILE     one crashing input -> regression
    ./e1000e-pp fuzz --stream ...        the same for hostile migration
                                         streams (the fuzz-stream target)

The run starts from the committed seeds and regressions plus the working
corpus of earlier runs (build/fuzz/corpus), where new inputs stay for
the next run.  With --keep-corpus the inputs that reach new coverage are
merged into tests/fuzz/corpus (commit them; hundreds after a long run,
so only now and then).  Every crash is minimised into
tests/fuzz/regressions/, which the unit suite replays.

--stream runs fuzz-stream, the core fuzzer built with the migration
point turned into a hostile stream (tests/fuzz/fuzz-core.c): the same
seeds, its own working corpus (build/fuzz/stream-corpus) and
regressions (tests/fuzz/stream-regressions).
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

from e1000epp.common import paths
from e1000epp.common.errors import StepError

SEEDS = os.path.join(paths.REPO, "tests", "fuzz", "corpus")
WORK = os.path.join(paths.BUILD, "fuzz")


class Target:
    """A libFuzzer binary with its regressions (tests/fuzz), working
    corpus and crashes (build/fuzz), all named with one prefix, and its
    log."""

    def __init__(self, binary, prefix, log):
        self.fuzzer = os.path.join(paths.NATIVE_DIR, "tests", "fuzz", binary)
        self.regressions = os.path.join(paths.REPO, "tests", "fuzz",
                                        prefix + "regressions")
        self.corpus = os.path.join(WORK, prefix + "corpus")
        self.crashes = os.path.join(WORK, prefix + "crashes")
        self.log = os.path.join(paths.LOG_DIR, log)


CORE = Target("fuzz-core", "", "fuzz.log")
STREAM = Target("fuzz-stream", "stream-", "fuzz-stream.log")

ARTIFACTS = ("crash-", "leak-", "timeout-", "oom-")


def _rel(p):
    return os.path.relpath(p, paths.REPO)


def _fuzzer(t):
    if not os.access(t.fuzzer, os.X_OK):
        raise StepError("the fuzzer is not built",
                        "%s is missing" % _rel(t.fuzzer),
                        "run ./e1000e-pp setup (it installs clang)")
    return t.fuzzer


def _inputs(d):
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, n) for n in sorted(os.listdir(d))
            if not n.endswith(".md")]


def _stats(text):
    """(executions, edges, features, corpus) from libFuzzer's output."""
    runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    cov = re.findall(r"cov: (\d+) ft: (\d+) corp: (\d+)", text)
    if not cov:
        return None
    return (int(runs[-1]) if runs else 0,) + tuple(int(x) for x in cov[-1])


# What a run echoes of libFuzzer's output (the rest goes to the log).
ECHOED = ("pulse", "INVARIANT", "ERROR", "SUMMARY", "stat::")


def run_fuzzer(cmd, log, env=None):
    """Run a libFuzzer command, its output into log, the progress lines
    echoed; print the run's figures; its exit status."""
    start = time.monotonic()
    text = []
    with open(log, "w") as lf:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                errors="replace", stdin=subprocess.DEVNULL,
                                env=env)
        for line in proc.stdout:
            lf.write(line)
            text.append(line)
            if any(m in line for m in ECHOED):
                sys.stdout.write(line)
                sys.stdout.flush()
        rc = proc.wait()
    stats = _stats("".join(text))
    if stats:
        print("[fuzz] %.0f s: %d executions, %d edges, %d features, "
              "corpus %d" % ((time.monotonic() - start,) + stats))
    return rc


def minimize(fuzzer, crash, regressions, seconds=60):
    """Minimise one crashing input into the regressions directory; its
    path."""
    with open(crash, "rb") as f:
        digest = hashlib.sha1(f.read()).hexdigest()[:12]
    out = os.path.join(regressions, "crash-%s" % digest)
    os.makedirs(regressions, exist_ok=True)
    proc = subprocess.run([fuzzer, "-minimize_crash=1",
                           "-max_total_time=%d" % seconds,
                           "-exact_artifact_path=%s" % out, crash],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace",
                          stdin=subprocess.DEVNULL)
    if not os.path.exists(out):
        if "not crash" in proc.stdout or proc.returncode == 0:
            raise StepError("%s does not crash the fuzzer" % crash,
                            "it passes on the core as built",
                            "check it was found with this build")
        shutil.copy(crash, out)      # could not shrink it: keep it whole
    return out


def run(minutes, minimize_file=None, keep_corpus=False, stream=False):
    t = STREAM if stream else CORE
    fuzzer = _fuzzer(t)
    if minimize_file:
        if not os.path.isfile(minimize_file):
            raise StepError("no such input: %s" % minimize_file,
                            "--minimize takes a crashing input file",
                            "pass the path libFuzzer printed")
        print("regression input: %s" % _rel(minimize(
            fuzzer, minimize_file, t.regressions)))
        return 0
    os.makedirs(t.corpus, exist_ok=True)
    os.makedirs(t.crashes, exist_ok=True)
    for f in _inputs(SEEDS) + _inputs(t.regressions):
        dst = os.path.join(t.corpus, os.path.basename(f))
        if not os.path.exists(dst):
            shutil.copy(f, dst)
    before = set(os.listdir(t.crashes))
    os.makedirs(paths.LOG_DIR, exist_ok=True)
    cmd = [fuzzer, "-max_total_time=%d" % int(minutes * 60), "-timeout=10",
           "-rss_limit_mb=2048", "-print_final_stats=1",
           "-artifact_prefix=%s/" % t.crashes, t.corpus]
    print("[fuzz] %s%s minutes, corpus %s, log %s" % (
        "hostile streams, " if stream else "", minutes, _rel(t.corpus),
        _rel(t.log)), flush=True)
    rc = run_fuzzer(cmd, t.log)

    kept = len(_inputs(t.corpus))
    print("[fuzz] working corpus %s: %d inputs, kept for the next run"
          % (_rel(t.corpus), kept))
    if keep_corpus:
        # merge adds only the inputs that reach new coverage
        had = set(os.listdir(SEEDS))
        subprocess.run([fuzzer, "-merge=1", SEEDS, t.corpus],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL)
        added = sorted(set(os.listdir(SEEDS)) - had)
        print("[fuzz] %d new corpus entr%s in %s%s" % (
            len(added), "y" if len(added) == 1 else "ies", _rel(SEEDS),
            ": commit them" if added else ""))

    crashes = sorted(n for n in set(os.listdir(t.crashes)) - before
                     if n.startswith(ARTIFACTS))
    for n in crashes:
        reg = minimize(fuzzer, os.path.join(t.crashes, n), t.regressions)
        print("[fuzz] %s minimised into %s (replayed by ./e1000e-pp test; "
              "rename it after the bug)" % (n, _rel(reg)))
    if rc and not crashes:
        print("[fuzz] the fuzzer exited with status %d; see %s"
              % (rc, _rel(t.log)))
    return 1 if rc or crashes else 0
