#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The bounded fuzz run of `./e1000e-pp test`, as TAP.

    run-fuzz.py FUZZER CORPUS_DIR REGRESSIONS_DIR

1. every seed, corpus and regression input runs once and must pass;
2. then E1000EPP_FUZZ_SECONDS (default 20) of coverage-guided fuzzing
   from them, with a fixed seed (E1000EPP_FUZZ_SEED, default 1); new
   inputs go to a temporary directory. The target is deterministic per
   input, but libFuzzer's path is not (the same seed reaches different
   inputs from run to run), so what reproduces a failure is the crashing
   input, kept and named in the output, not the seed.
A failure shows the fuzzer's last lines and the crashing input.
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


def main(argv):
    if len(argv) != 4:
        print("1..0 # SKIP usage: run-fuzz.py FUZZER CORPUS REGRESSIONS")
        return 2
    fuzzer, corpus, regressions = argv[1:]
    seconds = int(os.environ.get("E1000EPP_FUZZ_SECONDS", "20"))
    seed = os.environ.get("E1000EPP_FUZZ_SEED", "1")
    files = inputs(corpus, regressions)
    print("1..2", flush=True)

    proc = subprocess.run([fuzzer] + files, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          errors="replace", stdin=subprocess.DEVNULL)
    ok = proc.returncode == 0 and files
    print("%s 1 - replays %d seed and regression inputs" %
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
            [fuzzer, "-max_total_time=%d" % seconds, "-seed=%s" % seed,
             "-timeout=10", "-rss_limit_mb=2048", "-print_final_stats=1",
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
            print("ok 2 - %s" % what)
        else:
            print("not ok 2 - %s (exit %d)" % (what, proc.returncode))
            tail(out)
            for art in os.listdir(work):
                if art != "corpus":
                    keep = os.path.join(tempfile.gettempdir(), art)
                    shutil.copy(os.path.join(work, art), keep)
                    print("# crashing input kept: %s (minimise it with "
                          "./e1000e-pp fuzz --minimize %s)" % (keep, keep))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
