# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp race`: the reset task against runtime suspend, every
interleaving on a fresh device, with the table and the first violating
step list written to a report directory (build/reports/race-<UTC stamp>/
race.txt unless --report says otherwise)."""

import os
import time

from e1000epp import argtypes, paths, qtestrun

TEST_BIN = os.path.join(paths.QEMU_BUILD,
                        "tests/qtest/e1000e_pp/e1000e-pp-test")
SCENARIO = "/x86_64/e1000e-pp/race_reset_task_vs_runtime_suspend"


def add_arguments(parser):
    parser.add_argument("--report", metavar="DIR", type=argtypes.output_dir,
                        help="report directory (default: build/reports/"
                        "race-<UTC stamp>)")


def run(args):
    err = qtestrun.need_qtest(TEST_BIN)
    if err:
        return err
    report = args.report or os.path.join(
        paths.REPORTS_DIR, "race-" + time.strftime("%Y%m%dT%H%M%SZ",
                                                   time.gmtime()))
    os.makedirs(report, exist_ok=True)
    table = os.path.join(report, "race.txt")
    os.environ["E1000EPP_RACE_REPORT"] = table
    print("race: every interleaving of the reset task and runtime suspend "
          "(about 10 s) ...", flush=True)
    proc = qtestrun.spawn([TEST_BIN, "--tap", "-p", SCENARIO])
    if proc is None:
        return 2
    verdict = None
    for line in proc.stdout:
        if line.startswith("# ") and not line.startswith("# starting"):
            print(line[2:], end="", flush=True)
        elif line.startswith(("ok ", "not ok ")):
            verdict = line.strip()
    rc = proc.wait()
    if rc or not verdict or not verdict.startswith("ok "):
        return qtestrun.fail("the race scenario failed (%s); see above"
                             % (verdict or "exit %d" % rc))
    print("race: report in %s" % os.path.relpath(table, paths.REPO))
    return 0
