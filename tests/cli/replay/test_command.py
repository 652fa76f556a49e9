# SPDX-License-Identifier: GPL-2.0-or-later
"""`replay`: its verdict lines (replay/command.py compare) and its bad
input (one message, exit 1 or 2, no QEMU)."""

import subprocess
import sys
from pathlib import Path

from e1000epp.replay import command, sidecar

CLI = str(Path(__file__).resolve().parents[3] / "e1000e-pp")


def recorded(events, counters, icount=1000):
    return {"icount": icount, "events": events, "counters": counters,
            "device_digest": sidecar.device_digest(events, counters)}


def test_a_replay_that_followed_the_recording_says_so():
    data = recorded(["1 a", "2 b"], {"rx-offered": 4})
    assert command.compare(data, 1000, ["1 a", "2 b"], {"rx-offered": 4}) \
        == (True, [
            "instruction count: recorded 1000, replayed 1000 (same)",
            "device digest: recorded "
            f"{data['device_digest'][:16]}, replayed "
            f"{data['device_digest'][:16]} (same)",
            "device events: 2 recorded, 2 replayed"])


def test_a_diverged_replay_names_the_first_event_and_the_counter():
    data = recorded(["1 a", "2 b", "3 c"], {"rx-offered": 4})
    ok, lines = command.compare(data, 999, ["1 a", "2 x"],
                                {"rx-offered": 3})
    assert ok is False
    assert lines[0] == "instruction count: recorded 1000, replayed 999 " \
        "(DIFFERENT)"
    assert lines[1].endswith("(DIFFERENT)")
    assert lines[2:] == ["device events: 3 recorded, 2 replayed",
                         "first event that differs: #2",
                         "  recorded: 2 b",
                         "  replayed: 2 x",
                         "counter rx-offered: recorded 4, replayed 3"]


def cli(*argv):
    return subprocess.run([sys.executable, CLI, "replay"] + list(argv),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=60)


def test_a_directory_without_a_recording_is_one_message(tmp_path):
    r = cli(str(tmp_path))
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        f"error: {tmp_path} holds no recording",
        "  why: replay/recording.json is missing",
        "  what to do: record the cell with ./e1000e-pp run --record "
        "--only CELL"]


def test_a_break_that_is_no_count_is_an_argument_error(tmp_path):
    r = cli(str(tmp_path), "--break", "zero")
    assert r.returncode == 2
    assert r.stderr.startswith("e1000e-pp replay: error: argument --break:")
