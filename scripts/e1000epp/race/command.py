# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp race`: the reset task against runtime suspend, every
interleaving on a fresh device, with the table and the first violating
step list written to a report directory (build/reports/race-<UTC stamp>/
race.txt unless --report says otherwise)."""

import os
import subprocess
import time

from e1000epp.common import argtypes, paths, qtest_binary

TEST_BIN = os.path.join(paths.QEMU_BUILD, paths.QTEST_DIR,
                        "e1000e-pp-device-race-test")
SCENARIO = "/x86_64/e1000e-pp/race_reset_task_vs_runtime_suspend"


def add_arguments(parser):
    parser.add_argument("--report", metavar="DIR", type=argtypes.output_dir,
                        help="report directory (default: build/reports/"
                        "race-<UTC stamp>)")
    parser.add_argument("--vm-cycles", metavar="N",
                        type=argtypes.positive_int, default=None,
                        help="then run the VM stress (link drops, Tx-hang "
                        "resets, runtime suspend and PME wake) N cycles "
                        "with the unmodified driver")


def run(args):
    err = qtest_binary.need_qtest(TEST_BIN)
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
    proc = qtest_binary.spawn([TEST_BIN, "--tap", "-p", SCENARIO])
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
        return qtest_binary.fail("the race scenario failed (%s); see above"
                                 % (verdict or "exit %d" % rc))
    print("race: report in %s" % os.path.relpath(table, paths.REPO))
    if getattr(args, "vm_cycles", None):
        return _vm_stress(args.vm_cycles, report)
    return 0


def _vm_stress(cycles, report):
    """tests/functional/test_pm_stress.py with its evidence in report."""
    if not os.path.exists(os.path.join(paths.GUEST_DIR, "initrd.img")):
        return qtest_binary.fail("the guest image is not built; run "
                                 "./e1000e-pp setup")
    print("race: VM stress, %d cycles (about %d s under TCG) ..."
          % (cycles, 20 + 15 * cycles), flush=True)
    functional = os.path.join(paths.REPO, "tests", "functional")
    env = dict(os.environ, E1000EPP_STRESS_CYCLES=str(cycles),
               E1000EPP_REPORT_DIR=report,
               PYTHONPATH=os.path.join(paths.REPO, "scripts"))
    rc = subprocess.run(
        ["/usr/bin/python3", "-m", "pytest", "--rootdir=" + functional,
         "-p", "no:cacheprovider", "-v", "test_pm_stress.py"],
        cwd=functional, env=env, stdin=subprocess.DEVNULL).returncode
    if rc:
        return qtest_binary.fail("the VM stress failed (pytest exit %d); "
                                 "evidence in %s"
                                 % (rc, os.path.relpath(report, paths.REPO)))
    print("race: VM stress passed; dmesg and the device's events in %s"
          % os.path.relpath(report, paths.REPO))
    return 0
