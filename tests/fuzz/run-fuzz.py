#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The bounded fuzz run of `./e1000e-pp test`, as TAP.

    run-fuzz.py FUZZER CORPUS_DIR REGRESSIONS_DIR

0. with E1000EPP_FUZZ_SEED_GENERATOR (a script taking an output
   directory), the seeds it writes must be in CORPUS_DIR byte for byte;
1. every seed, corpus and regression input runs once and must pass;
2. then E1000EPP_FUZZ_SECONDS (default 20) of coverage-guided fuzzing
   from them, with a fixed seed (E1000EPP_FUZZ_SEED, default 1); new
   inputs go to a temporary directory. The target is deterministic per
   input, but libFuzzer's path is not (the same seed reaches different
   inputs from run to run), so what reproduces a failure is the crashing
   input, kept and named in the output, not the seed.
A failure shows the fuzzer's last lines and the crashing input.

For a fuzzer that is not built by default (QEMU's generic-fuzz binary,
setup --fuzzing), E1000EPP_FUZZ_OPTIONAL names the step that builds it:
without the binary, 1 and 2 are skipped with that reason.
E1000EPP_FUZZ_ARGS are the fuzzer's own arguments (its target),
E1000EPP_FUZZ_TIMEOUT the seconds one input may take (default 10),
E1000EPP_FUZZ_MODE the `fuzz` option that minimises a crash of it.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile


def inputs(*dirs):
    """Input files of the directories (notes such as README.md left out)."""
    found = []
    for d in dirs:
        if os.path.isdir(d):
            found += sorted(os.path.join(d, n) for n in os.listdir(d)
                            if not n.endswith(".md"))
    return found


def tail(text, n=25):
    for line in text.splitlines()[-n:]:
        print("#   " + line)


def read(path):
    """The file's bytes, or None if there is no such file."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def seeds_regenerate(generator, corpus):
    """Test: GENERATOR writes, byte for byte, seeds the corpus holds."""
    out = tempfile.mkdtemp(prefix="e1000epp-seeds-")
    try:
        proc = subprocess.run([sys.executable, generator, out],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace", stdin=subprocess.DEVNULL)
        made = inputs(out)
        differ = [os.path.basename(f) for f in made
                  if read(f) != read(os.path.join(corpus,
                                                  os.path.basename(f)))]
        ok = proc.returncode == 0 and made and not differ
        print("%s - the %d seeds regenerate from %s" % (
            "ok" if ok else "not ok", len(made),
            os.path.basename(generator)), flush=True)
        if proc.returncode:
            tail(proc.stdout)
        if differ:
            print("# not in %s as generated: %s (run the generator and "
                  "commit)" % (corpus, ", ".join(differ[:5])))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main(argv):
    if len(argv) != 4:
        print("1..0 # SKIP usage: run-fuzz.py FUZZER CORPUS REGRESSIONS")
        return 2
    fuzzer, corpus, regressions = argv[1:]
    seconds = int(os.environ.get("E1000EPP_FUZZ_SECONDS", "20"))
    seed = os.environ.get("E1000EPP_FUZZ_SEED", "1")
    timeout = int(os.environ.get("E1000EPP_FUZZ_TIMEOUT", "10"))
    optional = os.environ.get("E1000EPP_FUZZ_OPTIONAL")
    generator = os.environ.get("E1000EPP_FUZZ_SEED_GENERATOR")
    minimize = os.environ.get("E1000EPP_FUZZ_MODE", "")
    minimize += " " if minimize else ""
    print("1..%d" % (3 if generator else 2), flush=True)
    if generator:
        seeds_regenerate(generator, corpus)
    if optional and not os.access(fuzzer, os.X_OK):
        why = "%s is not built (./e1000e-pp %s builds it)" % (fuzzer,
                                                              optional)
        print("ok - replays the seed and regression inputs # SKIP " + why)
        print("ok - %d s of coverage-guided fuzzing # SKIP %s"
              % (seconds, why))
        return 0
    fuzzer = [fuzzer] + os.environ.get("E1000EPP_FUZZ_ARGS", "").split()
    files = inputs(corpus, regressions)

    proc = subprocess.run(fuzzer + files, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          errors="replace", stdin=subprocess.DEVNULL)
    ok = proc.returncode == 0 and files
    print("%s - replays %d seed and regression inputs" %
          ("ok" if ok else "not ok", len(files)), flush=True)
    if not ok:
        tail(proc.stdout)

    work = tempfile.mkdtemp(prefix="e1000epp-fuzz-")
    try:
        new = os.path.join(work, "corpus")
        os.makedirs(new)
        for f in files:
            shutil.copy(f, new)
        proc = subprocess.run(
            fuzzer + ["-max_total_time=%d" % seconds, "-seed=%s" % seed,
                      "-timeout=%d" % timeout, "-rss_limit_mb=2048",
                      "-print_final_stats=1",
                      "-artifact_prefix=%s/" % work, new],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            errors="replace", stdin=subprocess.DEVNULL)
        out = proc.stdout
        runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", out)
        cov = re.findall(r"cov: (\d+) ft: (\d+) corp: (\d+)", out)
        what = "%s s of coverage-guided fuzzing" % seconds
        if runs and cov:
            what += ": %s executions, %s edges, %s features, corpus %s" % (
                runs[-1], cov[-1][0], cov[-1][1], cov[-1][2])
        if proc.returncode == 0:
            print("ok - %s" % what)
        else:
            print("not ok - %s (exit %d)" % (what, proc.returncode))
            tail(out)
            for art in os.listdir(work):
                if art != "corpus":
                    keep = os.path.join(tempfile.gettempdir(), art)
                    shutil.copy(os.path.join(work, art), keep)
                    print("# crashing input kept: %s (minimise it with "
                          "./e1000e-pp fuzz %s--minimize %s)"
                          % (keep, minimize, keep))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
