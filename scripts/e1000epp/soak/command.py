# SPDX-License-Identifier: GPL-2.0-or-later
"""`soak`: one guest for N minutes under traffic and events.

    ./e1000e-pp soak --minutes N [--seed S] [--device e1000e-pp|e1000e]
                     [--report DIR] [--interval SECONDS]
                     [--sample-seconds SECONDS]

One guest (Debian's kernel, the unmodified e1000e) on the device, a TCP
stream each way for the whole run (soak_traffic.Stream, every byte
checked), and every few seconds an event in the seed's order
(soak_events: link flaps, Tx-hang resets, runtime suspend and resume,
MTU changes; with --migrate also live migrations into a new QEMU), each
followed by a round of pattern frames both ways.
Every minute: QEMU's resident memory, the guest's MemAvailable and the
device's counters (read with the VM stopped). The run lasts N minutes
and until every event kind has happened once.

It fails on a frame lost beyond what the device counted as dropped, a
frame or byte corrupted, a TCP stream that does not complete, a kernel
warning, bug or fault in dmesg (a Tx hang or reset outside a Tx-hang
event included), the device's receive counters not adding up
(offered = delivered + each drop counter + what the packet buffer holds:
between 0 and its 512 frames at every sample, 0 once the traffic has
stopped; the peer's frames all offered), DMA errors, the function
touched in D3hot or doing DMA after a bus-master disable
(pm-violations moving over the run), or memory drifting
(soak_report: the least-squares slope over the run's second half).

The report directory holds soak.json (the seed, every sample, every
event in order with its pattern round, every TCP stream, the verdict),
summary.txt, memory.svg (both memory curves), device-events.txt (the
device's event list), dmesg.txt, and vm/ (console, QMP, agents, peer,
the peer's capture of the last event and of every event where something
failed).
"""

import os
import random
import sys
import threading
import time
from collections import Counter

from e1000epp.common import argtypes, paths
from e1000epp.matrix import report as matrix_report
from e1000epp.matrix import page_pools
from e1000epp.soak import events as soak_events
from e1000epp.soak import guest as soak_guest
from e1000epp.soak import report as soak_report
from e1000epp.soak import traffic as soak_traffic
from e1000epp.vm import harness, preflight


def add_arguments(p):
    p.add_argument("--minutes", type=argtypes.int_range(1, 1440),
                   required=True, metavar="N",
                   help="how long the soak runs (it also runs until every "
                   "event kind has happened once)")
    p.add_argument("--seed", type=argtypes.int_range(0, 2 ** 32 - 1),
                   metavar="S",
                   help="the seed of the events' order and parameters "
                   "(default: a random one, printed and kept in soak.json)")
    p.add_argument("--device", choices=["e1000e-pp", "e1000e"],
                   default="e1000e-pp",
                   help="device model under test (default: e1000e-pp)")
    p.add_argument("--report", metavar="DIR", type=argtypes.output_dir,
                   help="report directory (default: build/reports/"
                   "soak-<UTC stamp>)")
    p.add_argument("--interval", metavar="SECONDS",
                   type=argtypes.seconds(600), default=4.0,
                   help="mean pause between one event's pattern round and "
                   "the next event (default 4; each pause is drawn from "
                   "0.5-1.5 times it)")
    p.add_argument("--migrate", action="store_true",
                   help="also live-migrate the guest into a new QEMU as "
                   "one of the events (QEMU's memory is then not judged: "
                   "each migration starts a new process)")
    p.add_argument("--sample-seconds", metavar="SECONDS",
                   type=argtypes.int_range(5, 600), default=60,
                   help="how often memory and the device's counters are "
                   "sampled and progress printed (default 60)")
    # The guest's kernel and driver, as `run` takes them (--driver
    # pagepool soaks the page-pool series).
    from e1000epp.image import user_kernel
    user_kernel.add_arguments(p)
    p.set_defaults(before_setup=before_setup)


def before_setup(args):
    """Bad kernel or driver options fail before the setup."""
    from e1000epp.image import user_kernel
    if user_kernel.wanted(args):
        user_kernel.validate(args)
    return True


class Soak:
    """One run: the guest, the streams, the schedule, what was seen."""

    def __init__(self, args, report, seed):
        self.args = args
        self.report = report
        self.seed = seed
        self.rng = random.Random(seed)
        self.stock = args.device == "e1000e"
        why = soak_events.supported(args.device)
        self.kinds = [k for k in soak_events.KINDS if why[k] is None]
        if getattr(args, "migrate", False):
            self.kinds.append(soak_events.MIGRATE)
        self.not_run = {k: v for k, v in why.items() if v}
        self.schedule = soak_events.Schedule(self.rng, self.kinds)
        self.samples, self.events, self.failures = [], [], []
        self.mtu = 1500
        self.t0 = None
        self.streams = []
        self.starting = threading.Lock()
        self.svm = None
        self.end_counters = self.ethtool0 = self.ethtool1 = None
        # pm-violations at the first reading, and at the last judged.
        self.pm0 = self.pm_seen = None
        self.kept_failures = 0
        self.guest_dir = self.guest = None
        # Page pools seen detached with pages out: {pool id: first t_min}.
        self.detached = {}
        self.start_stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                         time.gmtime())

    def minutes(self):
        return (time.monotonic() - self.t0) / 60 if self.t0 else 0.0

    def fail(self, text):
        self.failures.append(f"[{self.minutes():.1f} min] {text}")

    # -- samples ----------------------------------------------------------

    def sample(self, final=False):
        svm = self.svm
        rss = svm.qemu_rss_kib()
        s = {"t_min": round(self.minutes(), 3),
             "qemu": svm.migrations,
             "qemu_rss_kib": rss.get("VmRSS"),
             "qemu_rss_anon_kib": rss.get("RssAnon"),
             "guest_mem_available_kib": svm.mem_available_kib()}
        if not self.stock:
            c = svm.counters_at_one_instant()
            s["counters"] = c
            held = soak_guest.conservation(c)
            s["in_packet_buffer"] = held
            if held is not None and not (
                    0 <= held <= soak_guest.PKTBUF_FRAMES):
                self.fail(f"device counters do not add up: offered - "
                          f"every sink = {held} (0..."
                          f"{soak_guest.PKTBUF_FRAMES} the packet buffer "
                          "holds)")
            for text in self.judge_counters(c):
                self.fail(text)
        self.judge_pools(s)
        if final:
            s["final"] = True
        self.samples.append(s)
        return s

    def judge_pools(self, s):
        """The page pools (matrix/page_pools.py): a pool detached with
        pages out at two samples in a row (the kernel takes them back
        within a second of their return) is a leak, failed once."""
        try:
            pools = page_pools.read(self.svm.vm)
        except harness.HarnessError as e:
            self.fail(f"page pools unreadable: {str(e).splitlines()[0]}")
            return
        s["page_pools"] = pools
        now = {p["id"]: p for p in page_pools.detached(pools)}
        for pid, p in now.items():
            first = self.detached.get(pid)
            if first is None:
                self.detached[pid] = s["t_min"]
            elif first is not True:
                self.fail(f"page pool {pid} detached with {p['inflight']} "
                          f"pages ({p['inflight_mem']} bytes) out since "
                          f"{first} min: a leak")
                self.detached[pid] = True

    def judge_counters(self, c):
        """What a counter reading fails: any DMA error since the boot;
        any access the device counted in D3hot or DMA after a bus-master
        disable (pm-violations) since the soak's first reading, each
        counted once (the unmodified driver makes none); a counter that
        could not be read."""
        out = []
        if c.get("dma-errors") is None:
            out.append("device counter dma-errors could not be read")
        elif c["dma-errors"]:
            out.append(f"device counter dma-errors = {c['dma-errors']}")
        v = c.get("pm-violations")
        if v is None:
            out.append("device counter pm-violations could not be read")
        elif self.pm0 is None:
            self.pm0 = self.pm_seen = v
        elif v != self.pm_seen:
            out.append(f"device counter pm-violations +{v - self.pm_seen} "
                       f"({v - self.pm0} since the soak began, want 0): "
                       "the function touched in D3hot or DMA after a "
                       "bus-master disable")
            self.pm_seen = v
        return out

    def progress(self, s):
        by = Counter(e["kind"] for e in self.events)
        f = self.frames()
        t = self.tcp()
        print(f"[soak] {s['t_min']:5.1f}/{self.args.minutes} min: "
              f"{len(self.events)} events ("
              + ", ".join(f"{k} {by[k]}" for k in self.kinds) +
              f"), frames p->g {f['p2g_good']}/{f['p2g_sent']} "
              f"g->p {f['g2p_good']}/{f['g2p_sent']}, tcp "
              f"{t['tx']['mib']:.0f}+{t['rx']['mib']:.0f} MiB, "
              f"QEMU RSS {s['qemu_rss_kib'] / 1024:.1f} MiB, guest "
              f"MemAvailable {s['guest_mem_available_kib'] / 1024:.1f} MiB"
              f", {len(self.failures)} failures", flush=True)

    # -- totals -----------------------------------------------------------

    def frames(self):
        out = Counter()
        for e in self.events:
            r = e.get("round")
            if not r:
                continue
            out["p2g_sent"] += r["frames"]
            out["g2p_sent"] += r["frames"]
            out["p2g_good"] += r["p2g"].get("good") or 0
            out["p2g_missing"] += r["p2g"].get("missing") or 0
            out["p2g_counted_drops"] += r["p2g"].get("counted_drops") or 0
            out["g2p_good"] += r["g2p"].get("good") or 0
        return {k: out[k] for k in ("p2g_sent", "p2g_good", "p2g_missing",
                                    "p2g_counted_drops", "g2p_sent",
                                    "g2p_good")}

    def tcp(self):
        out = {}
        for s in self.streams:
            out[s.direction] = {
                "streams": len(s.results),
                "mib": sum(r["bytes"] for r in s.results) / 2 ** 20,
                "failed": sum(not r["ok"] for r in s.results),
                "resent": s.resent}
        for d in ("tx", "rx"):
            out.setdefault(d, {"streams": 0, "mib": 0.0, "failed": 0,
                               "resent": 0})
        return out

    # -- the run ----------------------------------------------------------

    def run(self, peer_bin):
        a = self.args
        self.svm = svm = soak_guest.SoakVm(a.device,
                                           os.path.join(self.report, "vm"),
                                           peer_bin, self.guest_dir)
        try:
            svm.start()
        except harness.HarnessError as e:
            self.fail(f"boot: {e}")
            svm.stop()
            return
        self.dmesg = soak_guest.Dmesg(svm, os.path.join(self.report,
                                                        "dmesg.txt"))
        self.devevents = soak_guest.DeviceEvents(
            svm, os.path.join(self.report, "device-events.txt"))
        try:
            self._run()
        except harness.HarnessError as e:
            self.fail(f"harness: {str(e).splitlines()[0]}")
            (open(os.path.join(self.report, "error.txt"), "w")
             .write(str(e) + "\n"))
        finally:
            for s in self.streams:
                s.stop()
            self.final = svm.stop()
            self.dmesg.close()

    def _run(self):
        svm, a = self.svm, self.args
        self.ethtool0 = svm.ethtool_stats()
        self.dmesg.take()           # the boot's lines are not the soak's
        self.devevents.poll()
        # Some Tx for the driver's hang check at every moment (one a
        # second: a TCPTX answer waits for 300 ms of quiet, soak_traffic).
        svm.sh(f"ping -q -i 1 {harness.PEER_IP} >/dev/null 2>&1 &")
        draining = threading.Event()
        self.streams = [soak_traffic.Stream(svm, svm.extra[0], "tx",
                                            0x100000, draining,
                                            starting=self.starting),
                        soak_traffic.Stream(svm, svm.extra[1], "rx",
                                            0x200000, draining,
                                            starting=self.starting)]
        self.t0 = time.monotonic()
        for s in self.streams:
            s.start()
        self.progress(self.sample())
        next_sample = self.t0 + a.sample_seconds
        deadline = self.t0 + a.minutes * 60
        run_no = 0x10000
        while True:
            done = {e["kind"] for e in self.events}
            if time.monotonic() >= deadline and \
                    all(k in done for k in self.kinds):
                break
            self.one_event(run_no)
            run_no += 2
            for s in self.streams:
                if s.error:
                    raise harness.HarnessError(
                        f"TCP {s.direction} stream: {s.error}")
            if time.monotonic() >= next_sample:
                self.progress(self.sample())
                self.write()
                while next_sample <= time.monotonic():
                    next_sample += a.sample_seconds
            time.sleep(self.rng.uniform(0.5, 1.5) * a.interval)
        self.finish()

    def capture(self, n):
        """The peer's capture of event n (from its start to the next
        event's) in vm/capture-NNNN.pcap; the previous event's is
        deleted unless something failed in it: a capture of everything
        grows by about 100 MiB a minute."""
        vmdir = os.path.join(self.report, "vm")
        self.svm.peer(f"PCAP {vmdir}/capture-{n:04d}.pcap")
        prev = os.path.join(vmdir, f"capture-{n - 1:04d}.pcap")
        if n > 1 and len(self.failures) == self.kept_failures:
            try:
                os.unlink(prev)
            except OSError:
                pass
        self.kept_failures = len(self.failures)

    def one_event(self, run_no):
        svm = self.svm
        kind, params = self.schedule.next(self.mtu)
        ev = {"n": len(self.events) + 1, "t_min": round(self.minutes(), 3),
              "kind": kind, "params": params}
        self.capture(ev["n"])
        t0 = time.monotonic()
        try:
            # No stream starts its connection while the event runs (an
            # established one rides it out: TCP resends), nor before the
            # guest has the peer's address again (soak_guest.
            # NEIGH_RESOLVED).
            with self.starting:
                ok, detail = soak_events.run_event(svm, self.dmesg, kind,
                                                   params)
                ev["arp"] = svm.wait_neighbour(harness.PEER_IP)
        except harness.HarnessError as e:
            ev.update(ok=False, detail=str(e).splitlines()[0],
                      seconds=round(time.monotonic() - t0, 2))
            self.events.append(ev)
            self.fail(f"event {ev['n']} {kind}: {ev['detail']}")
            raise
        if kind == "mtu":
            self.mtu = params["mtu"]
        ev.update(ok=ok, detail=detail,
                  seconds=round(time.monotonic() - t0, 2))
        r = soak_traffic.pattern_round(svm, self.rng, self.mtu, run_no)
        ev["round"] = r
        for x in r["failures"]:
            self.fail(f"event {ev['n']} {kind}, pattern round at MTU "
                      f"{self.mtu}: {x}")
        ev["device_events"] = len(self.devevents.poll())
        bad = soak_guest.bad_lines(self.dmesg.take(), kind == "tx-hang")
        if bad:
            ev["dmesg_bad"] = bad[:5]
            self.fail(f"event {ev['n']} {kind}: kernel log: {bad[0]}")
        self.events.append(ev)

    def finish(self):
        """Stop the streams and the ping, let the traffic drain, check
        the final accounting."""
        svm = self.svm
        for s in self.streams:
            s.stop()
        for s in self.streams:
            s.join(soak_traffic.TCP_TIMEOUT + 120)
            if s.is_alive() or s.error:
                self.fail(f"TCP {s.direction}: the last stream did not end"
                          + (f" ({s.error})" if s.error else ""))
        for s in self.streams:
            for r in s.results:
                if not r["ok"]:
                    self.fail(f"TCP {s.direction} stream run {r['run']}: "
                              f"{r['detail']}")
        svm.sh("killall ping 2>/dev/null; true", check=False)
        self.ethtool1 = svm.ethtool_stats()
        if not self.stock:
            def read():
                p = svm.peer("STATS")
                c = svm.counters_at_one_instant()
                return p, c
            # A migration loses the frames the peer wrote to the
            # source's socket after the stop (vm/migration.py): with
            # migrations the peer may have sent more than was offered.
            moved = svm.migrations > 0
            p, c = harness.poll_value(
                read, lambda pc: pc[0]["tx_pending_bytes"] == 0 and
                soak_guest.conservation(pc[1]) == 0 and
                (moved or pc[0]["frames_out"] == pc[1][soak_guest.OFFERED]),
                30, interval=0.5)
            wire = p["frames_out"] - c[soak_guest.OFFERED]
            self.end_counters = {"peer_frames_out": p["frames_out"],
                                 "device": c, "lost_at_switch_overs":
                                 wire if moved else None}
            held = soak_guest.conservation(c)
            if held != 0:
                self.fail(f"device counters at the end: offered - every "
                          f"sink = {held}, want 0 (the traffic stopped)")
            if wire < 0 or (wire and not moved):
                self.fail(f"the peer sent {p['frames_out']} frames, the "
                          f"device was offered {c[soak_guest.OFFERED]}")
        bad = soak_guest.bad_lines(self.dmesg.take(), False)
        if bad:
            self.fail(f"kernel log at the end: {bad[0]}")
        self.devevents.poll()
        self.progress(self.sample(final=True))

    # -- the verdict ------------------------------------------------------

    def device_text(self):
        if self.stock:
            return ("QEMU's e1000e keeps none of e1000e-pp's counters "
                    "(rx-offered, the drop counters, events): conservation "
                    "not checked, drops are the driver's rx_missed_errors")
        c = (self.end_counters or {}).get("device") or \
            (self.samples[-1].get("counters") if self.samples else None)
        if not c:
            return "no counters read"
        drops = {k: c[k] for k in soak_guest.DROPS if c.get(k)}
        return (f"offered {c.get(soak_guest.OFFERED)}, delivered "
                f"{c.get('rx-delivered')}, drops "
                + (", ".join(f"{k} {v}" for k, v in drops.items()) or "none")
                + f"; dma-errors {c.get('dma-errors')}, pm-violations "
                f"{c.get('pm-violations')}, writes during reset "
                f"{c.get('reset-accesses')}")

    def data(self):
        a = self.args
        rss = soak_report.drift(self.samples, a.minutes, "qemu_rss_kib",
                                +1)
        if self.svm and self.svm.migrations:
            rss.update(judged=False, ok=True, why=(
                f"not judged: {self.svm.migrations} live migrations each "
                "started a new QEMU (the guest's memory is judged)"))
        memory = {
            "qemu_rss_kib": rss,
            "guest_mem_available_kib": soak_report.drift(
                self.samples, a.minutes, "guest_mem_available_kib", -1)}
        fails = list(self.failures)
        for key, m in memory.items():
            if not m["ok"]:
                fails.append(f"memory drift: {key}: {m['why']}")
        by = Counter(e["kind"] for e in self.events)
        # The events after which the guest was still resolving the peer's
        # address, so the streams waited (soak_guest.NEIGH_RESOLVED).
        arp = Counter(e["kind"] for e in self.events if e.get("arp") and
                      e["arp"][0].split()[0] not in
                      soak_guest.NEIGH_RESOLVED)
        return {
            "meta": {"seed": self.seed, "device": a.device,
                     "guest": self.guest, "minutes": a.minutes,
                     "minutes_run": round(self.minutes(), 2),
                     "interval": a.interval,
                     "sample_seconds": a.sample_seconds,
                     "kinds": self.kinds, "not_run": self.not_run,
                     "mtus": list(soak_events.MTUS),
                     "started": self.start_stamp,
                     "drift_limit_mib_per_min":
                     soak_report.DRIFT_MIB_PER_MIN,
                     "warmup_min": soak_report.WARMUP_MIN},
            "ok": not fails, "failures": fails,
            "events_by_kind": {k: by[k] for k in self.kinds},
            "arp_unresolved_by_kind": dict(sorted(arp.items())),
            "frames": self.frames(), "tcp": self.tcp(),
            "device": {"text": self.device_text(),
                       "end": self.end_counters},
            "memory": memory, "samples": self.samples,
            "events": self.events,
            "streams": {s.direction: s.results for s in self.streams},
            "ethtool_delta": self._ethtool_delta(),
        }

    def _ethtool_delta(self):
        e0, e1 = self.ethtool0, self.ethtool1
        if not e0 or not e1:
            return {}
        return {k: e1[k] - e0.get(k, 0) for k in sorted(e1)
                if e1[k] != e0.get(k, 0)}

    def write(self):
        data = self.data()
        matrix_report.write_json(os.path.join(self.report, "soak.json"),
                                 data)
        with open(os.path.join(self.report, "memory.svg"), "w") as f:
            f.write(soak_report.svg_plot(
                self.samples, data["memory"],
                f"soak on {self.args.device}, seed {self.seed}"))
        return data


def run(args):
    from e1000epp.image import user_kernel
    guest_dir, desc = None, "Debian's kernel and e1000e"
    if user_kernel.wanted(args):
        guest_dir, desc = user_kernel.prepare(
            args, log=lambda line: print(f"[guest] {line}", flush=True))
    peer_bin = preflight.vm_preflight(guest_dir or paths.GUEST_DIR)
    seed = args.seed if args.seed is not None else \
        int.from_bytes(os.urandom(4), "little")
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    report = os.path.abspath(args.report or os.path.join(
        paths.REPORTS_DIR, f"soak-{stamp}"))
    os.makedirs(report, exist_ok=True)
    soak = Soak(args, report, seed)
    soak.guest_dir, soak.guest = guest_dir, desc
    print(f"[soak] {args.minutes} min on {args.device}, seed {seed} "
          f"(again: --seed {seed}); events {', '.join(soak.kinds)}; report "
          f"{report}", flush=True)
    for k, why in soak.not_run.items():
        print(f"[soak] not run: {k}: {why}", flush=True)
    try:
        soak.run(peer_bin)
    except KeyboardInterrupt:
        # The VM is stopped (Soak.run); what was seen so far is kept.
        soak.fail("interrupted")
        soak.write()
        print(f"\n[soak] interrupted; what was seen so far: {report}",
              flush=True)
        raise
    data = soak.write()
    text = soak_report.summary_text(data)
    with open(os.path.join(report, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print()
    print(text)
    print(f"report: {report} (soak.json, summary.txt, memory.svg, "
          "device-events.txt, dmesg.txt, vm/)")
    return 0 if data["ok"] else 1


if __name__ == "__main__":
    sys.exit("use ./e1000e-pp soak")
