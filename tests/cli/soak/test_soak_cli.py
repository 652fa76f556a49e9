# SPDX-License-Identifier: GPL-2.0-or-later
"""`soak`: bad options end in one line and exit status 2 before any setup
or boot; the seeded schedule, the memory-drift verdict and the plot
(scripts/e1000epp/soak_events.py, soak_report.py) on made-up samples;
the wait for the guest's ARP entry (soak_guest.py) on made-up `ip neigh`
output."""

import random
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from e1000epp import cli
from e1000epp.common import paths
from e1000epp.soak import events as soak_events
from e1000epp.soak import guest as soak_guest
from e1000epp.soak import report as soak_report
from e1000epp.vm import harness

REPO = Path(paths.REPO)


def soak(*argv):
    return subprocess.run([str(REPO / "e1000e-pp"), "soak", *argv],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=60)


@pytest.mark.parametrize("argv, says", [
    ((), "the following arguments are required: --minutes"),
    (("--minutes", "0"), "--minutes: must be a whole number from 1 to "
     "1440, not '0'"),
    (("--minutes", "-3"), "--minutes: must be a whole number from 1 to "
     "1440, not '-3'"),
    (("--minutes", "ten"), "--minutes: must be a whole number from 1 to "
     "1440, not 'ten'"),
    (("--minutes", "1441"), "--minutes: must be a whole number from 1 to "
     "1440, not '1441'"),
    (("--minutes", "2", "--seed", "-1"), "--seed: must be a whole number "
     "from 0 to 4294967295, not '-1'"),
    (("--minutes", "2", "--seed", "0x10"), "--seed: must be a whole number "
     "from 0 to 4294967295, not '0x10'"),
    (("--minutes", "2", "--device", "virtio"), "--device: invalid choice: "
     "'virtio' (choose from"),
    (("--minutes", "2", "--interval", "0"), "--interval: must be a number "
     "of seconds in (0, 600], not '0'"),
    (("--minutes", "2", "--sample-seconds", "1"), "--sample-seconds: must "
     "be a whole number from 5 to 600, not '1'"),
    (("--minutes", "2", "--report", "/etc/hostname"), "--report: "
     "/etc/hostname exists and is not a directory"),
])
def test_bad_option_is_one_line_and_exit_2(argv, says):
    p = soak(*argv)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr + p.stdout
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("e1000e-pp soak: error: "), p.stderr
    assert says in last
    assert last.endswith("(see e1000e-pp soak --help)")
    assert p.stdout == ""


def test_unknown_option_is_one_line_and_exit_2():
    p = soak("--minutes", "2", "--frames", "9")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip() == ("e1000e-pp: error: unrecognized arguments: "
                                "--frames 9 (see e1000e-pp --help)")


def test_defaults():
    a = cli.build_parser().parse_args(["soak", "--minutes", "30"])
    assert (a.minutes, a.seed, a.device, a.report, a.interval,
            a.sample_seconds) == (30, None, "e1000e-pp", None, 4.0, 60)
    assert a.setup == cli.SETUP_ALL


def test_schedule_is_the_seeds_and_every_kind_comes_once_per_round():
    def order(seed, n=40):
        s = soak_events.Schedule(random.Random(seed), soak_events.KINDS)
        mtu, out = 1500, []
        for _ in range(n):
            kind, params = s.next(mtu)
            if kind == "mtu":
                assert params["mtu"] in soak_events.MTUS
                assert params["mtu"] != mtu
                mtu = params["mtu"]
            if kind == "link-flap":
                assert 100 <= params["ms"] <= 1500
            out.append((kind, tuple(sorted(params.items()))))
        return out
    a = order(27)
    assert a == order(27)
    assert a != order(28)
    k = len(soak_events.KINDS)
    for i in range(0, len(a), k):
        assert sorted(x[0] for x in a[i:i + k]) == \
            sorted(soak_events.KINDS)


def test_stock_model_runs_what_it_can():
    why = soak_events.supported("e1000e")
    assert [k for k, v in why.items() if v is None] == ["link-flap", "mtu"]
    assert "x-tx-hold" in why["tx-hang"]
    assert "PME" in why["runtime-pm"]
    assert all(v is None for v in soak_events.supported(
        "e1000e-pp").values())


def samples(minutes, rss_slope, avail_slope, noise=0.0):
    """One sample a minute, MiB curves as KiB, with +-noise alternating."""
    out = []
    for t in range(minutes + 1):
        wiggle = noise if t % 2 else -noise
        out.append({"t_min": float(t),
                    "qemu_rss_kib": (670 + rss_slope * t + wiggle) * 1024,
                    "guest_mem_available_kib":
                    (420 + avail_slope * t + wiggle) * 1024})
    return out


def test_least_squares_slope():
    b, a = soak_report.slope([(0, 1), (1, 3), (2, 5), (3, 7)])
    assert (b, a) == (2.0, 1.0)


def test_flat_memory_passes_with_noise():
    s = samples(30, 0.0, 0.0, noise=3.0)
    for key, sign in (("qemu_rss_kib", 1), ("guest_mem_available_kib", -1)):
        d = soak_report.drift(s, 30, key, sign)
        assert d["judged"] and d["ok"], d
        assert d["judged_from_min"] == 15.0
        assert abs(d["slope_mib_per_min"]) < 0.1


def test_growth_in_the_second_half_fails():
    s = samples(30, 0.0, 0.0)
    for x in s:
        if x["t_min"] > 15:
            x["qemu_rss_kib"] += (x["t_min"] - 15) * 1024   # 1 MiB/min
            x["guest_mem_available_kib"] -= (x["t_min"] - 15) * 1024
    rss = soak_report.drift(s, 30, "qemu_rss_kib", +1)
    avail = soak_report.drift(s, 30, "guest_mem_available_kib", -1)
    assert not rss["ok"] and not avail["ok"]
    assert rss["slope_mib_per_min"] > 0.5
    assert avail["slope_mib_per_min"] < -0.5
    assert "beyond" in rss["why"]


def test_warm_up_growth_is_not_judged_and_the_right_direction_passes():
    s = samples(30, 0.0, 0.0)
    for x in s:
        x["qemu_rss_kib"] += min(x["t_min"], 5) * 4 * 1024    # warm-up
        x["guest_mem_available_kib"] += x["t_min"] * 2048     # more free
    assert soak_report.drift(s, 30, "qemu_rss_kib", +1)["ok"]
    assert soak_report.drift(s, 30, "guest_mem_available_kib", -1)["ok"]


def test_short_run_is_not_judged():
    s = samples(2, 5.0, -5.0)
    d = soak_report.drift(s, 2, "qemu_rss_kib", +1)
    assert d["ok"] and not d["judged"]
    assert d["why"].startswith("not judged")
    assert d["start_mib"] == 670.0 and d["end_mib"] == 680.0


def test_plot_is_svg_with_both_curves():
    s = samples(30, 0.1, -0.1, noise=1.0)
    mem = {k: soak_report.drift(s, 30, k, sign) for k, sign in
           (("qemu_rss_kib", 1), ("guest_mem_available_kib", -1))}
    root = ET.fromstring(soak_report.svg_plot(s, mem, "a <title> & more"))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == ns + "svg"
    assert len(root.findall(ns + "polyline")) == 2
    assert len(root.findall(ns + "circle")) == 2 * len(s)
    texts = [t.text for t in root.iter(ns + "text")]
    assert "a <title> & more" in texts
    assert any("QEMU resident memory" in (t or "") for t in texts)


class FakeGuest(soak_guest.SoakVm):
    """SoakVm whose shell answers from a list of `ip neigh` outputs
    (BusyBox's form, as the guest prints it)."""

    def __init__(self, outputs):
        self.outputs = list(outputs)

    def sh(self, cmd, timeout=60, check=True):
        assert cmd == "ip neigh show dev eth0"
        return 0, self.outputs.pop(0) if len(self.outputs) > 1 \
            else self.outputs[0]


PEER = "198.18.0.1"
INCOMPLETE = "198.18.0.1  ref 1 used 0/0/0 probes 6 INCOMPLETE\n"
FAILED = "198.18.0.1  used 0/0/0 probes 6 FAILED\n"
REACHABLE = ("198.18.0.9 lladdr 02:00:00:00:00:09 used 0/0/0 probes 1 "
             "STALE\n198.18.0.1 lladdr 02:00:00:00:00:01 ref 1 used 0/0/0 "
             "probes 4 REACHABLE\n")


def test_neighbour_entry_is_read_from_busybox_ip():
    assert FakeGuest([INCOMPLETE]).neighbour(PEER) == ("INCOMPLETE", "6")
    assert FakeGuest([REACHABLE]).neighbour(PEER) == ("REACHABLE", "4")
    assert FakeGuest([""]).neighbour(PEER) == (None, None)
    assert FakeGuest([REACHABLE]).neighbour("198.18.0.10") == (None, None)


def test_no_connection_starts_until_the_entry_is_resolved():
    # The failure of the 30-minute soak of 2026-12-05: the probes spent
    # in the outage, the entry fails and the SYN queued on it with it.
    g = FakeGuest([INCOMPLETE, INCOMPLETE, FAILED, "", REACHABLE])
    assert g.wait_neighbour(PEER, timeout=10) == [
        "INCOMPLETE (probes 6)", "FAILED (probes 6)", "none",
        "REACHABLE (probes 4)"]
    with pytest.raises(harness.HarnessError, match=r"ARP entry for "
                       r"198\.18\.0\.1 resolved.*\n.*INCOMPLETE \(probes 6"
                       r"\) -> FAILED"):
        FakeGuest([INCOMPLETE, FAILED]).wait_neighbour(PEER, timeout=0.5)
