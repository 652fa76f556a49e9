# SPDX-License-Identifier: GPL-2.0-or-later
"""A matrix cell's pattern-frame steps: the frames both ways (the
cell's length sweep, matrix/length_sweep.py; the VLAN tag on the wire,
marked and faulted frames, over-long frames the driver drops) and a
burst faster than the guest cleans; and the reading of the peer's
capture by VLAN tag (wire_tags, tcp_tags).
"""

import os
import struct
import time
from collections import Counter

from e1000epp.matrix import buffer_layout, cell_model, length_sweep, report
from e1000epp.matrix.guest_io import qom_get, qom_set, situations_now
from e1000epp.matrix.traffic_context import agent_rx_wait
from e1000epp.vm import harness

# Peer -> guest the sweep goes in rounds, each length once a round, each
# round a pattern run of its own (these offsets of the cell's run base;
# 2-5 are the other steps', traffic_power.HANG_RUN 9): the page-pool
# design takes up to 5 of its 2 KB buffers a frame, so the whole sweep
# at once (up to 139 buffers a round at MTU 9000) would overrun the
# 256-descriptor ring and the packet buffer faster than the guest
# cleans under TCG (MPC), which only the burst cells exist to do.
ROUND_RUNS = (1, 6, 7)
REPEAT = len(ROUND_RUNS)
# Missing sequence numbers the agent names (PP_FAIL_KEEP,
# tools/wire/rxsession.h).
LOST_LISTED = 8
ERR_MARKED = cell_model.ERR_FRAMES
# Rx data writes the DMA-fault cell has the device reject.
DMA_FAULTS = 1


def _kv_counters(d):
    keys = ("good", "bad", "trunc", "corrupt", "fcs_bad", "missing", "dup",
            "reorder", "stale", "bytes")
    return {k: d.get(k) for k in keys}


def _frames_by_tag(pcap_path, src_mac):
    """(VLAN ID or "untagged", EtherType, payload) of every frame src_mac
    put on the wire, from the peer's capture (802.1Q: the tag after the
    MACs)."""
    src = harness.mac_bytes(src_mac)
    for _, f in harness.read_pcap(pcap_path):
        if f[6:12] != src or len(f) < 14:
            continue
        if f[12:14] == b"\x81\x00" and len(f) >= 18:
            yield (str(struct.unpack_from(">H", f, 14)[0] & 0xfff),
                   struct.unpack_from(">H", f, 16)[0], f[18:])
        else:
            yield "untagged", struct.unpack_from(">H", f, 12)[0], f[14:]


def wire_tags(pcap_path, src_mac, run):
    """{"VLAN ID" or "untagged": frames} of the pattern frames of run
    that src_mac put on the wire, from the peer's capture."""
    out = Counter()
    for vid, etype, p in _frames_by_tag(pcap_path, src_mac):
        if etype == harness.PP_ETHERTYPE and len(p) >= 8 and \
                struct.unpack_from(">I", p, 4)[0] == run:
            out[vid] += 1
    return dict(out)


def tcp_tags(pcap_path, src_mac, dport):
    """{"VLAN ID" or "untagged": frames} of the IPv4 TCP frames to dport
    that src_mac put on the wire, from the peer's capture."""
    out = Counter()
    for vid, etype, p in _frames_by_tag(pcap_path, src_mac):
        if etype != 0x0800 or len(p) < 24 or p[9] != 6:
            continue
        l4 = (p[0] & 0xf) * 4
        if len(p) >= l4 + 4 and struct.unpack_from(">H", p, l4 + 2)[0] == \
                dport:
            out[vid] += 1
    return dict(out)


def marked_frames(fam):
    """How many pattern frames the family's knob marks or faults."""
    if not fam or not fam.knob:
        return 0
    if fam.knob.startswith("error-"):
        return ERR_MARKED
    return DMA_FAULTS if fam.knob == "dma-fault-writes" else 0


def _lost(fails):
    """The sequence numbers of `lost:3,7;...` (the agent's first ones)."""
    for word in (fails or "-").split(";"):
        if word.startswith("lost:"):
            return [int(x) for x in word[5:].split(",") if x]
    return []


def plan_frames(cell, layout, seed, marked=0, delivered=False):
    """What the frames step sends and expects peer -> guest: the sweep
    (length_sweep.sweep) and, per round (seq k of a round is rx[k]
    long), the frames that never reach the socket (in the first round
    the first marked ones, lost unless the family delivers them; in
    every round those of a length the driver drops) and the agent's
    counters to expect; want: their sum."""
    sw = length_sweep.sweep(cell, layout, seed)
    rx = sw["rx"]
    lost = 0 if not marked or delivered else marked
    rounds, got = [], []
    for r in range(REPEAT):
        missing = length_sweep.missing_seqs(rx, 1, sw["dropped"],
                                            lost if r == 0 else 0)
        arrive = [n for k, n in enumerate(rx) if k not in set(missing)]
        got += arrive
        rounds.append({"missing": missing, "want": {
            "good": len(arrive), "bad": 0, "trunc": 0, "corrupt": 0,
            "fcs_bad": 0, "missing": len(missing), "dup": 0, "reorder": 0,
            "stale": 0, "bytes": sum(arrive)}})
    sw.update(repeat=REPEAT, marked_lost=lost, rounds=rounds,
              # Frames the device delivers and the driver drops itself.
              driver_drops=len(rx) * REPEAT - len(got) - lost,
              # Frames a one-buffer driver copies (execute.SMALL_FRAMES).
              small_frames=length_sweep.below_copybreak(cell, got),
              want={k: sum(r["want"][k] for r in rounds)
                    for k in rounds[0]["want"]})
    return sw


def traffic_frames(ctx):
    vm, cell, run_base, checks, cell_dir, tlog, bound = (
        ctx.vm, ctx.cell, ctx.run_base, ctx.checks, ctx.cell_dir, ctx.tlog,
        ctx.bound)
    ifname = "eth0.100" if cell.vlan else "eth0"
    layout = checks.layout
    fam = cell.family
    marked = marked_frames(fam)
    seed = length_sweep.run_seed()
    sw = plan_frames(cell, layout, seed, marked, fam and fam.delivered)
    report.write_json(os.path.join(cell_dir, "sweep.json"), dict(
        sw, rerun=f"{length_sweep.SEED_ENV}={seed} ./e1000e-pp run "
        f"--only '{cell.name}$'"))
    lens, lost, want = sw["rx"], sw["marked_lost"], sw["want"]
    count = len(lens) * REPEAT
    lens_csv = ",".join(map(str, lens))
    tlog(f"length sweep: run seed {seed}, cell seed {sw['cell_seed']} "
         f"(sweep.json)")
    tlog(f"frame lengths {lens_csv} x{REPEAT} on {ifname}" +
         (f"; the driver drops {sw['dropped']}" if sw["dropped"] else ""))
    if sw["driver_drops"]:
        # The device delivers them; the driver drops them whole
        # (frame_count balances its boundary with them).
        checks.expect_driver_drops("the sweep's frames longer than the "
                                   "driver takes", sw["driver_drops"])
    dma_fault = bool(fam and fam.knob == "dma-fault-writes")

    # Peer -> guest, round by round; the rounds share one wait bound.
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    vid = f" {cell_model.VLAN_ID}" if cell.vlan else ""
    sit0 = situations_now(vm)
    if marked:
        knob = cell_model.KNOBS[fam.knob]
        qom_set(vm, knob, marked)
        tlog(f"qom-set {knob} {marked}")
    deadline = time.monotonic() + bound
    counted = dict.fromkeys(want, 0)
    fails, lost_got = [], []
    for r, rnd in enumerate(sw["rounds"]):
        run = run_base + ROUND_RUNS[r]
        vm.agent.kv(f"RXSTART {ifname} {run} {len(lens)} "
                    f"{harness.PEER_MAC}{fcs}")
        vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {lens_csv} 1{vid}")
        left = max(1, int(deadline - time.monotonic()))
        if rnd["missing"]:
            # The frames lost or dropped never come: wait for the others.
            harness.poll_value(lambda: vm.agent.kv("RXSTAT"),
                               lambda st: st.get("good", 0) >=
                               rnd["want"]["good"], left, interval=0.2)
        else:
            agent_rx_wait(vm, left)
        got = vm.agent.kv("RXSTOP")
        tlog(f"peer->guest round {r + 1} agent: {got}")
        for k, v in _kv_counters(got).items():
            counted[k] += v if isinstance(v, int) else 0
        words = got.get("fails", "-").split(";")
        lost_got.append(_lost(got.get("fails")))
        fails += [f"round {r + 1} {w}" for w in words
                  if w != "-" and not (rnd["missing"] and
                                       w.startswith("lost:"))]
    sit1 = situations_now(vm)
    checks.frames_ok = counted["good"] > 0
    if dma_fault:
        # The rejected frame's buffer kept its old bytes: a frame of an
        # earlier run when it held one, else nothing for this socket.
        stale = counted.pop("stale")
        checks.true("peer->guest: at most the rejected frame seen as "
                    "another run's", stale <= marked, f"stale {stale}")
        want = {k: v for k, v in want.items() if k != "stale"}
    checks.eq("frames peer->guest (agent)", counted, want)
    if sw["marked_lost"] or sw["dropped"]:
        # The agent names the first LOST_LISTED missing sequence numbers
        # of each round.
        checks.eq("peer->guest: the frames missing are the marked ones "
                  "and those the driver drops (first sequence numbers of "
                  "each round)", lost_got,
                  [rnd["missing"][:LOST_LISTED] for rnd in sw["rounds"]])
    checks.lost_seqs = list(range(lost))
    if fails:
        checks.true("peer->guest first failures", False, ";".join(fails))
    if marked:
        checks.eq(f"{knob} marks left after the stream",
                  qom_get(vm, knob), 0)
    if layout and not layout["secrc"]:
        # Each placement confirmed by the device's counters: every
        # pattern frame whose FCS the layout places across a boundary or
        # alone, REPEAT times; nothing else crosses in this step.
        # (The marked frames the device dropped never reach a buffer;
        # those the driver drops did.)
        want_fcs = {k: sum(buffer_layout.placement(
                        layout, lens[i % len(lens)]) == k
                        for i in range(lost, count))
                    for k in ("straddle", "alone")}
        if sit0 is None or sit1 is None:
            checks.true("FCS placements (device situations)", False,
                        "the device has no situations counters")
        else:
            checks.eq("FCS placements peer->guest (device situations "
                      "fcs-straddle, fcs-alone)",
                      {k: sit1.get(f"fcs-{k}", 0) - sit0.get(f"fcs-{k}", 0)
                       for k in want_fcs}, want_fcs)
        layout["placements"] = {str(n): buffer_layout.placement(layout, n)
                                for n in lens}

    # Guest -> peer: the sweep but the over-long frames.
    tx = sw["tx"]
    count = len(tx) * REPEAT
    want = dict(want, good=count, missing=0, bytes=sum(tx) * REPEAT,
                stale=0)
    run = run_base + 2
    vm.peer.command(f"RX {run} {count} {harness.GUEST_MAC}")
    vm.agent.kv(f"TXL {ifname} {harness.PEER_MAC} {run} "
                f"{','.join(map(str, tx))} {REPEAT}")
    st = vm.peer.wait("rx", count, timeout=bound)
    tlog(f"guest->peer peer: {st['rx']} fails={st['fails']} "
         f"vlan_in={st['vlan_in']}")
    checks.eq("frames guest->peer (peer)", _kv_counters(st["rx"]), want)
    if st["fails"] != "-":
        checks.true("guest->peer first failures", False, st["fails"])
    # On the wire (the peer's capture): the guest's frames carry the
    # VLAN's tag, and only those, or none.
    vid = str(cell_model.VLAN_ID) if cell.vlan else "untagged"
    try:
        tags = wire_tags(os.path.join(cell_dir, "peer.pcap"),
                         harness.GUEST_MAC, run)
    except (OSError, harness.HarnessError) as e:
        checks.true("guest->peer tags read from the capture", False, str(e))
    else:
        checks.eq("guest->peer frames on the wire by VLAN ID (the capture)",
                  tags, {vid: count})


def traffic_burst(ctx):
    """BURST_FRAMES pattern frames queued by the peer at once, faster than
    the guest's NAPI cleans them under TCG. Conservation from both sides:
    what the peer sent = what the agent got + what the device dropped
    (MPC); the device saw every frame. A multi-buffer burst (LONG_FRAME
    at MTU 1500) is discarded whole by the driver ("all receives must
    fit into a single buffer", e1000_clean_rx_irq): the agent gets none,
    the device wrote each one it did not drop to the ring."""
    vm, cell, run_base, checks, tlog, bound = (
        ctx.vm, ctx.cell, ctx.run_base, ctx.checks, ctx.tlog, ctx.bound)
    fam = cell.family
    long = fam.burst == "long"
    n = cell_model.LONG_FRAMES if long else cell_model.BURST_FRAMES
    length = cell_model.LONG_FRAME if long else cell.mtu + 14
    run = run_base + 5
    fcs = " fcs" if cell.crc == "rxfcs" else ""
    names = ("rx-offered", "rx-delivered", "rx-missed")
    d0 = {k: qom_get(vm, k) for k in names}
    p0 = vm.peer.stats()
    vm.agent.kv(f"RXSTART eth0 {run} {n} {harness.PEER_MAC}{fcs}")
    knob = cell_model.KNOBS["fetch-limit"]
    if fam.knob == "fetch-limit":
        qom_set(vm, knob, cell_model.FETCH_LIMIT)
        tlog(f"qom-set {knob} {cell_model.FETCH_LIMIT}")
    sit0 = situations_now(vm) or {}
    vm.peer.command(f"TXL {harness.GUEST_MAC} {run} {length} {n}")

    def delta():
        return {k: qom_get(vm, k) - d0[k] for k in names}
    # The device takes every frame from the socket, then the guest
    # cleans what reached the ring: wait for both (frames the device
    # dropped never come).
    harness.wait_until("the device to take the burst",
                       lambda: delta()["rx-offered"] >= n, bound,
                       interval=0.2)
    if fam.knob == "fetch-limit":
        # Fetching only on tail writes, the ring stops part-way into a
        # frame; with Linux's tail every 16 buffers it may not move on
        # by itself, so the knob goes back to 0 (fetch on demand) once
        # the dry point is there (or the bound passed: the cell then
        # fails for the situation) and the rest of the burst drains.
        harness.poll_value(lambda: (situations_now(vm) or {}).get(
            "ring-dry-midframe", 0) - sit0.get("ring-dry-midframe", 0),
            lambda v: v > 0, bound, interval=0.2)
        qom_set(vm, knob, 0)
        tlog(f"qom-set {knob} 0")
        harness.poll_value(delta, lambda d: d["rx-delivered"] + d["rx-missed"]
                           >= n, bound, interval=0.2)
    want_agent = 0 if long else None

    def agent_done():
        st = vm.agent.kv("RXSTAT")
        d = delta()
        expect = d["rx-delivered"] if want_agent is None else 0
        return st if st.get("good", 0) >= expect else None
    if want_agent is None:
        harness.poll_value(agent_done, lambda v: v is not None, bound,
                           interval=0.2)
    got = vm.agent.kv("RXSTOP")
    d = delta()
    p1 = vm.peer.stats()
    sent = p1["tx_pattern_frames"] - p0["tx_pattern_frames"]
    tlog(f"burst {n} x {length}: peer sent {sent}; device {d}; agent {got}")
    checks.eq(f"burst of {n} x {length} bytes: peer sent, device offered",
              (sent, d["rx-offered"]), (n, n))
    checks.eq("burst: device offered = delivered to the ring + missed "
              "(MPC)", d["rx-delivered"] + d["rx-missed"], d["rx-offered"])
    if long:
        checks.eq("burst: multi-descriptor frames reaching the socket "
                  "(the driver discards them)", got.get("good"), 0)
        checks.expect_driver_drops("multi-descriptor frames of the long "
                                   "burst (discarded whole)",
                                   d["rx-delivered"])
    else:
        checks.eq("burst: peer sent = agent got + device missed (MPC)",
                  got.get("good", 0) + d["rx-missed"], sent)
        checks.eq("burst: frames the agent got intact",
                  {k: got.get(k) for k in ("bad", "trunc", "corrupt",
                                           "fcs_bad", "dup", "reorder")},
                  {k: 0 for k in ("bad", "trunc", "corrupt", "fcs_bad",
                                  "dup", "reorder")})
    checks.burst = d
