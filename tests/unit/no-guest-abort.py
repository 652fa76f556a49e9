#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Guest errors never abort: no way out of QEMU from the device (TAP).

A guest that programs the device badly gets a logged guest error and a
counter, never an assertion: QEMU's e1000 family had guest-reachable
assert()s that took the host's QEMU down.  This checks

  1. the core's sources call no assert, abort, exit, hw_error,
     g_assert*, g_error or __builtin_trap/__builtin_unreachable;
  2. the built core library links none of abort, __assert_fail, exit,
     _exit, __builtin_trap's ud2 aside (nm -u of every object);
  3. the QEMU adapter's only assertion is the one listed below, which no
     guest action reaches (timers run from the main loop, never inside
     a core step).

Usage: no-guest-abort.py CORE_DIR ADAPTER.c CORE_LIB.a
"""

import os
import re
import subprocess
import sys

CALLS = re.compile(r"\b(assert|abort|exit|_exit|hw_error|g_assert\w*|"
                   r"g_error|__builtin_trap|__builtin_unreachable)\s*\(")
SYMBOLS = {"abort", "__assert_fail", "exit", "_exit", "__assert_perror_fail"}
# Assertions in the adapter that no guest action reaches, and why.
ADAPTER_ALLOWED = {
    "assert(!slot->s->core.depth);":
        "timers run from the main loop, never inside a core step",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def calls_in(path):
    with open(path) as f:
        text = strip_comments(f.read())
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        if CALLS.search(line):
            found.append((n, line.strip()))
    return found


def main(argv):
    if len(argv) != 4:
        print("1..0 # SKIP usage: no-guest-abort.py CORE_DIR ADAPTER LIB")
        return 2
    core, adapter, lib = argv[1:]
    print("1..3")

    bad = []
    names = sorted(n for n in os.listdir(core) if n.endswith((".c", ".h")))
    for name in names:
        bad += ["%s:%d: %s" % (name, n, ln)
                for n, ln in calls_in(os.path.join(core, name))]
    print("%s 1 - the core's %d sources call no assert/abort/exit" %
          ("not ok" if bad or not names else "ok", len(names)))
    for b in bad:
        print("#   " + b)

    proc = subprocess.run(["nm", "-u", lib], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    undefined = {ln.split()[-1] for ln in proc.stdout.splitlines()
                 if ln.strip().startswith("U ")}
    linked = sorted(undefined & SYMBOLS)
    ok = proc.returncode == 0 and undefined and not linked
    print("%s 2 - the built core (%s) links none of %s" %
          ("ok" if ok else "not ok", os.path.basename(lib),
           ", ".join(sorted(SYMBOLS))))
    if proc.returncode:
        print("#   nm failed: %s" % proc.stdout.strip()[:200])
    for s in linked:
        print("#   links %s" % s)

    extra = [(n, ln) for n, ln in calls_in(adapter)
             if ln not in ADAPTER_ALLOWED]
    print("%s 3 - the adapter asserts only where no guest reaches" %
          ("not ok" if extra else "ok"))
    for n, ln in extra:
        print("#   %s:%d: %s (not in the allowed list, with its reason)"
              % (os.path.basename(adapter), n, ln))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
