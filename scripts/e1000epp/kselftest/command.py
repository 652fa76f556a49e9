# SPDX-License-Identifier: GPL-2.0-or-later
"""`kselftest`: the kernel's own driver tests as a second judge.

    ./e1000e-pp kselftest [-k TEXT] [--report DIR] [--ipv6]
                          [--device e1000e-pp|e1000e] [--timeout SECONDS]
                          [the kernel and driver options of `run`]

Boots the guest (Debian's 6.1 kernel by default; --debian-kernel 6.12,
--driver pagepool, --kernel-tree ... as `run` takes them) with two NICs
on one wire: the device under test (eth0, NETIF) and a remote NIC
(virtio-net when the guest kernel has it as modules, else a second
e1000e-pp) moved into the network namespace ksft-remote
(REMOTE_TYPE=netns). It then runs, one after the other, the Linux
tree's tools/testing/selftests/drivers/net and drivers/net/hw tests
that apply to an 82574 (TESTS), taken from Debian's linux-source-6.12
whatever the guest kernel (6.1's source has no such tests).

The report directory holds kselftest.ktap (one KTAP document: a result
per selftest file, its own KTAP nested under it), junit.xml,
summary.txt, kselftest.json, <test>.log (each test's raw output),
dmesg.txt and vm/ (console, agent transcript, wire.pcap). Exit 0 when
no selftest case failed (skips and expected failures pass), else 1.
"""

import json
import os
import re
import sys
import time

from e1000epp.common import argtypes, paths
from e1000epp.common.errors import StepError
from e1000epp.kselftest import guest as ks_guest
from e1000epp.kselftest import image as ks_image
from e1000epp.kselftest import junit, ktap
from e1000epp.vm import harness, preflight

# The selftests run, relative to tools/testing/selftests, in order.
TESTS = (
    "drivers/net/ping.py",
    "drivers/net/stats.py",
    "drivers/net/queues.py",
    "drivers/net/hw/csum.py",
    "drivers/net/hw/pp_alloc_fail.py",
)
# Run only when -k names them: what they judge is mostly the guest's
# tools and the driver's missing ethtool operations, not the Rx/Tx path
# (docs/usage/kselftest.md).
OPTIONAL = (
    "drivers/net/hw/rss_ctx.py",
)
# Those of the two directories left out, and why (docs/usage/kselftest.md).
NOT_RUN = {
    "drivers/net/netcons_basic.sh": "netconsole over a netdevsim pair "
    "or NETIF; needs the bash networking library (net/lib.sh) and "
    "netconsole's configfs",
    "drivers/net/hw/devlink_port_split.py": "devlink port splitting: the "
    "82574's driver registers no devlink instance",
    "drivers/net/hw/*.sh": "the forwarding library's two-port topologies "
    "(mausezahn, jq, tc) with both ports in one namespace",
}


# What a known failure names, by the text it prints: (selftest, regular
# expression over the case's diagnostics or a crash's output, what it
# means). docs/usage/kselftest.md has the evidence for each.
KNOWN = (
    ("drivers/net/stats.py", r"driver does not report stats",
     "driver gap: e1000e reports pause settings but no pause statistics "
     "(no get_pause_stats; the 82574's XON/XOFF counters stay in "
     "ethtool -S)"),
    (None, r"Family 'netdev' not supported by the kernel",
     "kernel: no netdev netlink family in this kernel (6.12's tests "
     "need it); no verdict on the device or driver"),
    (None, r"ethtool: bad command line argument",
     "guest tool: bookworm's ethtool 6.1 has no --json for this option; "
     "no verdict on the device or driver"),
    ("drivers/net/hw/rss_ctx.py", r"error: -95",
     "driver: e1000e has no ethtool channels operations (EOPNOTSUPP) and "
     "the test does not skip on it"),
)


def explain(test, text):
    """What a failure means, when KNOWN names it; else None."""
    for t, pattern, meaning in KNOWN:
        if (t is None or t == test) and re.search(pattern, text):
            return meaning
    return None


def add_arguments(p):
    p.add_argument("-k", metavar="TEXT", type=argtypes.nonempty,
                   help="only the selftests whose path contains TEXT "
                   "(ignoring case), e.g. -k csum")
    p.add_argument("--report", metavar="DIR", type=argtypes.output_dir,
                   help="report directory (default: build/reports/"
                   "kselftest-<UTC stamp>)")
    p.add_argument("--device", choices=["e1000e-pp", "e1000e"],
                   default="e1000e-pp",
                   help="device model under test (default: e1000e-pp)")
    p.add_argument("--ipv6", action="store_true",
                   help="also give both ends IPv6 addresses (2001:2::/64, "
                   "the IPv6 benchmarking range of RFC 5180), so the "
                   "tests' IPv6 cases run instead of skipping")
    p.add_argument("--timeout", metavar="SECONDS",
                   type=argtypes.int_range(10, 3600), default=300,
                   help="each selftest's limit (default 300)")
    from e1000epp.image import user_kernel
    user_kernel.add_arguments(p)
    p.set_defaults(before_setup=before_setup)


def before_setup(args):
    """Bad options fail before the setup."""
    from e1000epp.image import user_kernel
    if user_kernel.wanted(args):
        user_kernel.validate(args)
    if args.k and not selected(args.k):
        raise StepError(f"-k {args.k!r} selects no selftest",
                        "the selftests are " + ", ".join(TESTS + OPTIONAL),
                        "give part of one of their paths")
    return True


def selected(k):
    if not k:
        return list(TESTS)
    return [t for t in TESTS + OPTIONAL if k.lower() in t.lower()]


def summarize(doc, rc):
    """{outcome: count} of a selftest's cases; a test that printed no
    result counts as one error."""
    counts = {}
    results = doc.results if doc else []
    for r in results:
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
    if not results or not doc.plan_met():
        counts[ktap.ERROR] = counts.get(ktap.ERROR, 0) + 1
    return counts


def file_result(doc, rc):
    """(ok, directive, data) of a selftest file, as kselftest's runner
    judges one: exit 0 passes, exit 4 (KSFT_SKIP) skips, else fails."""
    if rc == 0:
        return True, None, ""
    if rc == 137:       # timeout -s KILL in the guest
        return False, "TIMEOUT", "killed at the --timeout limit"
    if rc == 4:
        reason = ""
        if doc and doc.results and doc.results[-1].outcome == ktap.SKIP:
            reason = doc.results[-1].reason
        return True, "SKIP", reason
    return False, None, f"exit={rc}"


def document(runs):
    """The run's KTAP document: one result per selftest file, each
    file's own output nested under it."""
    out = ["KTAP version 1", f"1..{len(runs)}"]
    for n, st in enumerate(runs, 1):
        out.append(f"# selftests: {st['test']}")
        out += ktap.nest(st["output"])
        ok, directive, data = file_result(st["document"], st["rc"])
        out.append(ktap.result_line(ok, n, "selftests: " + st["test"],
                                    directive, data))
    return out


def case_table(runs):
    """Lines: each case of each selftest with its outcome and reason."""
    lines = []
    for st in runs:
        doc = st["document"]
        counts = summarize(doc, st["rc"])
        lines.append(f"{st['test']}: exit {st['rc']}, "
                     f"{st['seconds']:.1f} s, " +
                     ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
        for r in (doc.results if doc else []):
            why = f"  ({r.reason})" if r.reason else ""
            lines.append(f"  {r.outcome.upper():7} {r.name}{why}")
            known = explain(st["test"], "\n".join(r.diagnostics)) \
                if r.outcome in ktap.FAILING else None
            if known:
                lines.append(f"          -> {known}")
        if not doc or not doc.results:
            last = [ln for ln in st["output"] if ln.strip()][-1:]
            lines.append("  ERROR   no KTAP result: " +
                         (last[0].strip() if last else "no output"))
            known = explain(st["test"], "\n".join(st["output"]))
            if known:
                lines.append(f"          -> {known}")
    return lines


def run(args):
    from e1000epp.image import user_kernel
    log = (lambda line: print(f"[guest] {line}", flush=True))
    t0 = time.monotonic()
    base, desc = paths.GUEST_DIR, "Debian's kernel and e1000e"
    if user_kernel.wanted(args):
        base, desc = user_kernel.prepare(args, log=log)
    preflight.vm_preflight(base)
    image_dir, info = ks_image.prepare(base, log=log)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    report = os.path.abspath(args.report or os.path.join(
        paths.REPORTS_DIR, f"kselftest-{stamp}"))
    os.makedirs(report, exist_ok=True)
    tests = selected(args.k)
    remote = info["remote"]
    print(f"[kselftest] {len(tests)} selftests of Debian's linux-source "
          f"{info['source_version']} on {args.device} (guest {desc}); "
          f"remote NIC {remote} in netns {ks_guest.REMOTE_NS}; "
          f"report {report}", flush=True)
    if not info["kernel_release"].startswith("6.12"):
        print(f"[kselftest] note: the guest kernel is "
              f"{info['kernel_release']}; its source has no driver "
              "selftests, these are 6.12's", flush=True)
    vm = ks_guest.KselftestVm(args.device, os.path.join(report, "vm"),
                              remote, image_dir, ipv6=True,
                              boot_timeout=180)
    runs = []
    t_boot = None
    try:
        try:
            vm.start()
            t_boot = vm.since_start()
            remote_if = ks_guest.setup(vm, ipv6=args.ipv6)
        except harness.HarnessError as e:
            raise StepError("the guest did not come up with both NICs",
                            str(e).splitlines()[0],
                            f"see {report}/vm/console.log and agent.log")
        env = {"KSFT_REMOTE_IFNAME": remote_if} \
            if info.get("shim_remote_ifname") else {}
        for n, test in enumerate(tests, 1):
            try:
                rc, out, secs = ks_guest.run_test(vm, test, args.timeout,
                                                  env)
            except harness.HarnessError as e:
                # The guest stopped answering: this test errs, the rest
                # are not run; the report is still written.
                rc, out, secs = -1, ["e1000e-pp: " + ln for ln in
                                     str(e).splitlines()], 0.0
                print(f"[{n}/{len(tests)}] {test}: the guest stopped "
                      f"answering: {str(e).splitlines()[0]}; the rest "
                      "not run", flush=True)
            doc = ktap.parse(out)
            st = {"test": test, "rc": rc, "output": out, "seconds": secs,
                  "document": doc}
            runs.append(st)
            name = test.replace("/", "_")
            with open(os.path.join(report, f"{name}.log"), "w") as f:
                f.write("\n".join(out) + "\n")
            counts = summarize(doc, rc)
            print(f"[{n}/{len(tests)}] {test}: " +
                  ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
                  + f" ({secs:.1f}s)", flush=True)
            if rc == -1:
                break
        try:
            _, dmesg = vm.agent.sh("dmesg", timeout=60, check=False)
        except harness.HarnessError as e:
            dmesg = f"(not read: {e})"
        with open(os.path.join(report, "dmesg.txt"), "w") as f:
            f.write(dmesg + "\n")
    finally:
        vm.stop()
    return _write(args, report, runs, info, desc, t0, t_boot)


def _write(args, report, runs, info, desc, t0, t_boot):
    with open(os.path.join(report, "kselftest.ktap"), "w") as f:
        f.write("\n".join(document(runs)) + "\n")
    junit.write(os.path.join(report, "junit.xml"), runs)
    totals = {}
    for st in runs:
        for k, v in summarize(st["document"], st["rc"]).items():
            totals[k] = totals.get(k, 0) + v
    failed = sum(totals.get(k, 0) for k in ktap.FAILING)
    wall = time.monotonic() - t0
    head = [f"kselftest on {args.device}: guest {desc}",
            f"tests: Debian linux-source-6.12 {info['source_version']}"
            + ("" if info["kernel_release"].startswith("6.12") else
               f" (the guest runs {info['kernel_release']}, whose source "
               "has no driver selftests)"),
            f"remote NIC: {info['remote']} in netns "
            f"{ks_guest.REMOTE_NS}; addresses {ks_guest.LOCAL_V4} / "
            f"{ks_guest.REMOTE_V4}" +
            (f", {ks_guest.LOCAL_V6} / {ks_guest.REMOTE_V6}"
             if args.ipv6 else "")]
    head.append(f"note: csum receivers wait {ks_image.CSUM_RX_WINDOW} s "
                "for the sender, not 1-2 s (TCG)")
    if info.get("shim_remote_ifname"):
        head.append("note: this release's NetDrvEpEnv lacks "
                    "remote_ifname; the launcher supplies it "
                    "(docs/usage/kselftest.md)")
    text = head + [""] + case_table(runs) + [
        "",
        "cases: " + ", ".join(f"{v} {k}" for k, v in sorted(totals.items())),
        f"boot {t_boot or 0:.1f}s, wall {wall:.1f}s"]
    with open(os.path.join(report, "summary.txt"), "w") as f:
        f.write("\n".join(text) + "\n")
    data = {"device": args.device, "guest": desc, "image": info,
            "wall_seconds": round(wall, 1),
            "boot_seconds": round(t_boot or 0, 1), "totals": totals,
            "selftests": [{"test": st["test"], "rc": st["rc"],
                           "seconds": round(st["seconds"], 1),
                           "ended_early": None if st["document"] and
                           st["document"].results else
                           (explain(st["test"], "\n".join(st["output"]))
                            or "no KTAP result"),
                           "cases": [{"name": r.name,
                                      "outcome": r.outcome,
                                      "reason": r.reason,
                                      "known": explain(
                                          st["test"],
                                          "\n".join(r.diagnostics))
                                      if r.outcome in ktap.FAILING
                                      else None}
                                     for r in (st["document"].results
                                               if st["document"] else [])]}
                          for st in runs]}
    with open(os.path.join(report, "kselftest.json"), "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print()
    print("\n".join(text))
    print(f"report: {report} (kselftest.ktap, junit.xml, summary.txt, "
          "kselftest.json, <test>.log, dmesg.txt, vm/)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit("use ./e1000e-pp kselftest")
