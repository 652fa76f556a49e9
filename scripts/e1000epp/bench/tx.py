# SPDX-License-Identifier: GPL-2.0-or-later
"""Transmit benchmark for the CLI.

`./e1000e-pp bench` -> bench(args): runs the qtest-driven Tx benchmark
(`e1000e-pp-txbench`) for 64-byte frames, 1514-byte frames and 64 KiB TSO
packets (MSS 1448), on e1000e-pp and the stock e1000e in the same run, and
prints packets/s, frames/s and bytes/s per model and case (median of
--tx-repeat runs, the models interleaved) with the
e1000e-pp / e1000e ratio (the issue's target: at least as fast as stock).

bench takes an argparse namespace; add_bench_arguments declares the
options it reads.  Missing attributes fall back to defaults, so a bare
namespace works too.  It returns a process exit code.
"""

import os
import subprocess
import sys

from e1000epp.common import argtypes, paths, qtest_binary
from e1000epp.common.qtest_binary import fail as _fail

TXBENCH_BIN = os.path.join(paths.QEMU_BUILD, paths.QTEST_DIR,
                           "e1000e-pp-txbench")
MODELS = ("e1000e-pp", "e1000e")
CASES = ("64B", "1514B", "TSO-64KiB")


def add_bench_arguments(parser):
    parser.add_argument("--tx-seconds", type=argtypes.seconds(600),
                        default=1.0,
                        help="wall-clock seconds per Tx run (default 1)")
    parser.add_argument("--tx-repeat", type=argtypes.int_range(1, 15),
                        default=3,
                        help="runs per Tx case and model, median shown "
                        "(default 3)")


def _run(argv):
    """Run the benchmark; return (rc, rows) with rows parsed from --tsv."""
    rows = []
    proc = qtest_binary.spawn(argv, stderr=subprocess.PIPE)
    if proc is None:
        return 2, rows
    for line in proc.stdout:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue            # GLib/qtest chatter
        f = line.split("\t")
        if len(f) != 6:
            print("txbench: unexpected line: %r" % line, file=sys.stderr)
            continue
        row = {"model": f[0], "case": f[1], "packets": int(f[2]),
               "frames": int(f[3]), "bytes": int(f[4]),
               "seconds": float(f[5])}
        rows.append(row)
        s = row["seconds"]
        print("  %-10s %-10s %10.0f packets/s %10.0f frames/s %8.1f MB/s"
              % (row["model"], row["case"], row["packets"] / s,
                 row["frames"] / s, row["bytes"] / s / 1e6), flush=True)
    err = proc.stderr.read()
    rc = proc.wait()
    if rc:
        sys.stderr.write(err)
    return rc, rows


def bench(args):
    """Run the Tx benchmark on both models and print the numbers."""
    seconds = getattr(args, "tx_seconds", 1.0)
    repeat = getattr(args, "tx_repeat", 3)
    if not 0 < seconds <= 600 or not 1 <= repeat <= 15:
        return _fail("--tx-seconds must be in (0, 600] and --tx-repeat "
                     "in 1..15")
    err = qtest_binary.need_qtest(TXBENCH_BIN)
    if err:
        return err
    print("bench: qtest transmit, e1000e-pp and stock e1000e in one run "
          "(%d cases x %d models x %d runs x %.1f s, median shown) ..."
          % (len(CASES), len(MODELS), repeat, seconds), flush=True)
    rc, rows = _run([TXBENCH_BIN, "--seconds", str(seconds), "--repeat",
                     str(repeat), "--tsv"])
    if rc:
        return _fail("e1000e-pp-txbench exited with %d" % rc)
    rate = {(r["model"], r["case"]): r["packets"] / r["seconds"]
            for r in rows}
    print("\nsummary (Tx):")
    for case in CASES:
        pp, stock = rate.get(("e1000e-pp", case)), rate.get(("e1000e", case))
        if pp and stock:
            print("  tx %-10s e1000e-pp / e1000e = %.2f (target >= 1.00)"
                  % (case, pp / stock))
    return 0


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_bench_arguments(p)
    sys.exit(bench(p.parse_args()))
