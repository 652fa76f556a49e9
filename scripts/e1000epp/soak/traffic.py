# SPDX-License-Identifier: GPL-2.0-or-later
"""The soak's traffic: a TCP stream each way for the whole run (each in a
thread of its own, on an agent of its own: stream after stream, every
byte checked at the receiving end), and pattern frames both ways in a
round after every event (soak/command.py).

A round's frames peer->guest may be lost only as far as the device
counted drops over the round (rx-missed and the others of
soak_guest.DROPS; on the stock model, the driver's rx_missed_errors);
guest->peer none may be (the round runs with the link up and nothing
held). Neither side may see a frame corrupted, truncated, duplicated or
out of order.

The streams take turns at one point: the agent's TCPTX answers only
once its capture of eth0 has been quiet for 300 ms (guest/agent/
tcptx.c), which a stream the other way never lets happen. So once the
sink has the whole guest->peer stream, the peer->guest direction starts
no new stream until the TCPTX answer is in (about a second).
"""

import threading
import time

from e1000epp.soak import guest as soak_guest
from e1000epp.vm import harness

TCP_BYTES = 1024 * 1024
TCP_CHUNK = 16384
# A stream of 1 MiB takes a few seconds; one that meets a runtime
# suspend waits for the resume (up to PM_TIMEOUT) and TCP's backed-off
# retransmission after it.
TCP_TIMEOUT = 300
# A connection comes up in milliseconds; generous for TCG under load.
CONNECT_TIMEOUT = 60
TX_PORT = 5001
RX_PORT = 5002
# The peer's TCP source sends segments for the smallest MTU of the run,
# since the guest's MTU changes under it (a 9000-byte segment met by MTU
# 1500 would never arrive); the guest's own stack follows its MTU.
RX_MSS = 1460
# The sink announces the largest MSS; the guest sends at most its MTU's.
TX_MSS = 8960
# Pattern frames of a round: up to ROUND_FRAMES, lengths drawn for the
# MTU; how long the receiving side waits for them.
ROUND_FRAMES = 48
ROUND_TIMEOUT = 60
INTACT = ("bad", "trunc", "corrupt", "fcs_bad", "dup", "reorder", "stale")


class Stream(threading.Thread):
    """One direction's TCP streams, one after the other until stop():
    each result appended to results ({run, bytes, ok, seconds, detail})."""

    def __init__(self, svm, agent, direction, run_base, draining,
                 nbytes=TCP_BYTES, starting=None):
        super().__init__(daemon=True, name=f"soak-tcp-{direction}")
        self.nbytes = nbytes
        # Held from a stream's first request until its connection is up,
        # and by an event that takes the link out (soak/command.py): a SYN sent
        # into a link that is out can leave the connection never made.
        self.starting = starting or threading.Lock()
        self.svm = svm
        self.agent = agent
        self.direction = direction
        self.run_no = run_base
        self.results = []
        # Sink errors that are frames the driver dropped, resent by TCP.
        self.resent = 0
        self.stopping = threading.Event()
        # Set while a TCPTX waits for a quiet eth0 (shared by both).
        self.draining = draining
        self.error = None

    def stop(self):
        self.stopping.set()

    def run(self):
        try:
            while not self.stopping.is_set():
                self.run_no += 1
                t0 = time.monotonic()
                ok, nbytes, detail = (self.tx if self.direction == "tx"
                                      else self.rx)(self.run_no)
                self.results.append({
                    "run": self.run_no, "bytes": nbytes, "ok": ok,
                    "seconds": round(time.monotonic() - t0, 2),
                    "detail": detail, "t": round(time.time(), 1)})
        except (harness.HarnessError, OSError, KeyError, ValueError) as e:
            self.error = f"{type(e).__name__}: {e}"

    def _poll_peer(self, cmd):
        return harness.poll_value(lambda: self.svm.peer(cmd),
                                  lambda s: s["state"] in ("closed", "failed"),
                                  60, interval=0.2)

    def tx(self, run):
        """Guest -> peer: the agent writes, the peer's sink checks."""
        log = self.svm.vm.report_dir / "tcpsink.log"
        line = (f"TCPTX eth0 {harness.PEER_IP} {TX_PORT} {run} {self.nbytes} "
                f"{TCP_CHUNK} {TCP_TIMEOUT}")
        with self.starting:
            self.svm.peer(f"TCPSINK {TX_PORT} {run} {TX_MSS} {log}")
            self.agent.send(line)
            harness.poll_value(lambda: self.svm.peer("TCPSTAT"),
                               lambda s: s["state"] != "listen", CONNECT_TIMEOUT,
                               interval=0.05)
        try:
            harness.poll_value(lambda: self.svm.peer("TCPSTAT"),
                               lambda s: s["state"] == "closed",
                               TCP_TIMEOUT, interval=0.2)
            self.draining.set()
            _, term = self.agent.collect(line, timeout=TCP_TIMEOUT + 60)
        except harness.AgentError as e:
            return False, 0, str(e).splitlines()[0]
        finally:
            self.draining.clear()
        sink = self._poll_peer("TCPSTAT")
        # A frame the driver dropped from its ring (a reset, the link
        # gone) leaves a hole the guest's TCP fills again: the sink counts
        # the gap and the skipped IP IDs; every other error is one.
        lost = sink.get("gaps", 0) + sink.get("bad_ip_id", 0)
        errors = sink["errors"] - lost
        # fin_rcvd: every byte and the guest's FIN are in, and the agent
        # saw the sink's FIN (it answered OK); only the guest's last
        # ACK was lost (an event), which TCP never resends.
        ok = (sink["data_bytes"], errors) == (self.nbytes, 0) and \
            sink["state"] in ("closed", "fin_rcvd")
        self.resent += lost
        detail = "" if ok else \
            (f"sink: {sink['data_bytes']} bytes, {errors} errors beyond "
             f"{lost} gaps/IP ID jumps ({sink.get('first_error')}), "
             f"{sink['state']}; agent {term}")
        return ok, sink["data_bytes"], detail

    def rx(self, run):
        """Peer -> guest: the peer's source sends, the agent checks."""
        # A TCPTX waiting for quiet (see the top) goes first.
        harness.poll_value(lambda: not self.draining.is_set(), bool, 60,
                           interval=0.1)
        line = f"TCPRX {RX_PORT} {run} {self.nbytes} {TCP_TIMEOUT}"
        with self.starting:
            self.agent.send(line)
            time.sleep(0.2)
            self.svm.peer(f"TCPSEND {harness.GUEST_MAC} {harness.GUEST_IP} "
                          f"{RX_PORT} {run} {self.nbytes} {RX_MSS}")
            harness.poll_value(lambda: self.svm.peer("TCPSENDSTAT"),
                               lambda s: s["state"] != "syn_sent",
                               CONNECT_TIMEOUT, interval=0.05)
        try:
            _, term = self.agent.collect(line, timeout=TCP_TIMEOUT + 60)
        except harness.AgentError as e:
            return False, 0, str(e).splitlines()[0]
        got = {k: int(v) for k, v in (w.split("=") for w in term.split())}
        src = self._poll_peer("TCPSENDSTAT")
        ok = (got["bytes"], got["bad"], got["complete"],
              src["state"], src["bad_csum"], src["resets"]) == \
            (self.nbytes, 0, 1, "closed", 0, 0)
        detail = "" if ok else f"agent {got}; source {src}"
        return ok, got["bytes"], detail


def round_lengths(rng, mtu):
    """The lengths of a round at this MTU: the smallest frame, the
    largest, one byte less, 1514 (where the MTU allows more), and
    lengths drawn between 60 and MTU + 14."""
    top = mtu + 14
    lens = {60, top, top - 1, min(1514, top)}
    while len(lens) < 8:
        lens.add(rng.randint(60, top))
    return sorted(lens)


def _counted(svm, stock):
    """The drops counted so far: the device's (soak_guest.DROPS), or on
    the stock model the driver's rx_missed_errors."""
    if not stock:
        return soak_guest.drops(svm.counters(soak_guest.DROPS))
    return svm.ethtool_stats().get("rx_missed_errors")


def pattern_round(svm, rng, mtu, run):
    """Pattern frames both ways at this MTU; returns the round's record
    ({lens, sent, got, ..., failures: [text]})."""
    stock = svm.device == "e1000e"
    lens = round_lengths(rng, mtu)
    repeat = max(1, ROUND_FRAMES // len(lens))
    count = len(lens) * repeat
    csv = ",".join(map(str, lens))
    fails = []
    rec = {"mtu": mtu, "run": run, "frames": count, "lengths": lens}

    # Peer -> guest.
    drops0 = _counted(svm, stock)
    svm.agent.kv(f"RXSTART eth0 {run} {count} {harness.PEER_MAC}")
    svm.peer(f"TXL {harness.GUEST_MAC} {run} {csv} {repeat}")
    svm.agent.kv(f"RXWAIT {ROUND_TIMEOUT * 1000}",
                 timeout=ROUND_TIMEOUT + 30)
    got = svm.agent.kv("RXSTOP")
    drops1 = _counted(svm, stock)
    counted = None if drops0 is None or drops1 is None else drops1 - drops0
    missing = got.get("missing", 0)
    rec["p2g"] = {k: got.get(k) for k in ("good", "missing") + INTACT}
    rec["p2g"]["counted_drops"] = counted
    if counted is None and missing:
        fails.append(f"peer->guest: {missing} of {count} frames lost and "
                     "no drop counter to account for them")
    elif missing > (counted or 0):
        fails.append(f"peer->guest: {missing} of {count} frames lost, "
                     f"only {counted} drops counted ({got.get('fails')})")
    bad = {k: got.get(k) for k in INTACT if got.get(k)}
    if bad:
        fails.append(f"peer->guest: frames not intact {bad} "
                     f"({got.get('fails')})")

    # Guest -> peer.
    run += 1
    svm.peer(f"RX {run} {count} {harness.GUEST_MAC}")
    svm.agent.kv(f"TXL eth0 {harness.PEER_MAC} {run} {csv} {repeat}")
    st = harness.poll_value(lambda: svm.peer("STATS"),
                            lambda s: s["rx"].get("good", 0) +
                            s["rx"].get("bad", 0) + s["rx"].get("dup", 0)
                            >= count, ROUND_TIMEOUT, interval=0.1)
    rx = st["rx"]
    rec["g2p"] = {k: rx.get(k) for k in ("good", "missing") + INTACT
                  if k in rx}
    if rx.get("good", 0) != count:
        fails.append(f"guest->peer: {rx.get('good', 0)} of {count} frames "
                     f"arrived ({st.get('fails')})")
    bad = {k: rx.get(k) for k in INTACT if rx.get(k)}
    if bad:
        fails.append(f"guest->peer: frames not intact {bad} "
                     f"({st.get('fails')})")
    rec["failures"] = fails
    return rec
