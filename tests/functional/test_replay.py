# SPDX-License-Identifier: GPL-2.0-or-later
"""Record and replay (`run --record`, `replay`; docs/usage/replay.md):
a short recording with pattern frames both ways, replayed without the
peer and the agent to the same instruction count and the same device
digest; the recording refused by `replay` once its sidecar names
another QEMU binary or device source. The longer checks (three replays
in a row, stock e1000e, a matrix cell) are the `replay` suite
(tests/replay)."""

import json
import subprocess

import pytest

import replaytools

CLI = str(replaytools.harness.REPO / "e1000e-pp")


@pytest.fixture(scope="module")
def recorded(device, guest_image, peer_bin, report_dir):
    return replaytools.record_short(device, peer_bin,
                                    report_dir / f"replay-{device}")


def test_the_recording_saw_every_frame_both_ways(recorded):
    _, data, traffic = recorded
    want = replaytools.pattern_bytes(replaytools.FRAMES)
    assert (traffic["tx"]["good"], traffic["tx"]["bytes"],
            traffic["tx"]["missing"]) == (replaytools.FRAMES, want, 0)
    assert (traffic["rx"]["good"], traffic["rx"]["bytes"],
            traffic["rx"]["missing"]) == (replaytools.FRAMES, want, 0)
    assert data["icount"] > 0 and data["log_bytes"] > 0


def test_the_replay_ends_at_the_recorded_icount_with_the_same_digest(
        recorded, device, report_dir):
    cell_dir, data, _ = recorded
    r = replaytools.replay_once(cell_dir, report_dir /
                                f"replay-{device}" / "replay1")
    print("\n".join(r["lines"]) + f"\nreplay {r['seconds']:.1f} s, record "
          f"{data['record_seconds']} s")
    assert r["icount"] == data["icount"]
    assert r["digest"] == data["device_digest"]
    assert r["events"] == data["events"]
    assert r["counters"] == data["counters"]
    # the guest's whole RAM, byte for byte, at the same instruction
    assert len(data["memory_sha256"]) == 64
    assert r["memory"] == data["memory_sha256"]
    assert r["ok"] is True


@pytest.mark.parametrize("field,what", [
    ("qemu_sha256", "the recording was made by another QEMU binary"),
    ("device_source_sha256",
     "the recording was made from another device source"),
])
def test_a_recording_of_another_build_is_refused(recorded, tmp_path, field,
                                                 what):
    cell_dir, data, _ = recorded
    copy = tmp_path / "cell"
    (copy / "replay").mkdir(parents=True)
    (copy / "replay" / "replay.bin").symlink_to(cell_dir / "replay" /
                                                "replay.bin")
    (copy / "replay" / "recording.json").write_text(
        json.dumps(dict(data, **{field: "0" * 64})))
    r = subprocess.run(["/usr/bin/python3", CLI, "replay", str(copy)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == f"error: {what}"
    assert "Traceback" not in r.stderr
    assert not any((copy / "replay").glob("replay-*"))


def test_replay_with_a_break_past_the_end_is_refused(recorded):
    cell_dir, data, _ = recorded
    r = subprocess.run(["/usr/bin/python3", CLI, "replay", str(cell_dir),
                        "--break", str(data["icount"] + 1)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.splitlines()[:2] == [
        f"error: --break {data['icount'] + 1} is past the recording's end",
        f"  why: its last instruction count is {data['icount']}"]


def test_a_replay_stops_where_the_device_logged_an_event(recorded, device,
                                                         report_dir):
    cell_dir, data, _ = recorded
    argv = ["/usr/bin/python3", CLI, "replay", str(cell_dir),
            "--break-event", "ctrl-rst:2",
            "--out", str(report_dir / f"replay-{device}" / "event")]
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=replaytools.REPLAY_TIMEOUT)
    if device == "e1000e":
        # stock e1000e keeps no event list: nothing to stop at
        assert r.returncode == 1
        assert r.stderr.splitlines()[0] == "error: --break-event " \
            "ctrl-rst:2: the recording has 0 event(s) with 'ctrl-rst'"
        return
    # the driver's probe and its open each reset the MAC (CTRL.RST)
    resets = [e for e in data["events"] if " ctrl-rst " in e]
    assert len(resets) >= 2, data["events"]
    icount = int(resets[1].rsplit("icount=", 1)[1])
    assert r.returncode == 0, r.stderr
    assert f"[replay] stopped at instruction count {icount} " in r.stdout
    # the replay stands right after the instruction that reset the MAC
    assert f"[replay] the device's last event there: {resets[1]}" \
        in r.stdout.splitlines()
