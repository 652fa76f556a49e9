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


def test_a_replay_whose_memory_differs_has_diverged():
    data = dict(recorded(["1 a"], {"rx-offered": 4}),
                memory_sha256="ab" * 32)
    ok, lines = command.compare(data, 1000, ["1 a"], {"rx-offered": 4},
                                "cd" * 32)
    assert ok is False
    assert lines[2] == ("guest memory: recorded abababababababab, "
                        "replayed cdcdcdcdcdcdcdcd (DIFFERENT)")
    ok, lines = command.compare(data, 1000, ["1 a"], {"rx-offered": 4},
                                "ab" * 32)
    assert ok is True
    assert lines[2].endswith("(same)")


def test_a_recording_without_a_memory_hash_compares_the_rest():
    data = recorded(["1 a"], {"rx-offered": 4})
    ok, lines = command.compare(data, 1000, ["1 a"], {"rx-offered": 4},
                                "cd" * 32)
    assert ok is True
    assert not any(line.startswith("guest memory") for line in lines)


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


def replay_args(tmp_path, **over):
    import argparse
    a = dict(cell_dir=str(tmp_path), break_at=None, break_symbol=None,
             break_event=None, before=None, gdb=None, timeout=None,
             out=str(tmp_path / "o"))
    a.update(over)
    return argparse.Namespace(**a)


def refusal(tmp_path, monkeypatch, **over):
    import pytest
    from e1000epp.common.errors import StepError
    data = {"icount": 1000, "record_seconds": 9, "events": EVENTS}
    monkeypatch.setattr(command, "prepare", lambda d: data)
    with pytest.raises(StepError) as e:
        command.replay(replay_args(tmp_path, **over))
    return e.value


def test_before_needs_break_symbol(tmp_path, monkeypatch):
    e = refusal(tmp_path, monkeypatch, before=500)
    assert (e.what, e.fix) == ("--before without --break-symbol",
                               "add --break-symbol FUNCTION")


def test_before_past_the_end_is_refused(tmp_path, monkeypatch):
    e = refusal(tmp_path, monkeypatch, before=1001,
                break_symbol="e1000_reset_task")
    assert (e.what, e.why) == ("--before 1001 is past the recording's end",
                               "its last instruction count is 1000")


def test_break_and_break_symbol_together_are_refused(tmp_path, monkeypatch):
    e = refusal(tmp_path, monkeypatch, break_at=5,
                break_symbol="e1000_reset_task")
    assert e.what == "--break and --break-symbol together"


def test_break_event_and_break_together_are_refused(tmp_path, monkeypatch):
    e = refusal(tmp_path, monkeypatch, break_at=5, break_event="ctrl-rst")
    assert e.what == "--break and --break-event together"


# Event lines as the device writes them under record (the second without
# a count, as a recording from before the stamp would have it).
EVENTS = ["7245978470 ctrl-rst reg=0x00000 value=0x0410024c icount=912",
          "7245978502 write-during-reset reg=0x00f00 value=0x00000000",
          "7294609283 ctrl-rst reg=0x00000 value=0x0410024c icount=977"]


def test_break_event_names_the_nth_event_with_the_word():
    assert sidecar.event_icount(EVENTS, "ctrl-rst") == (912, EVENTS[0])
    assert sidecar.event_icount(EVENTS, "ctrl-rst:2") == (977, EVENTS[2])
    assert sidecar.event_icount(EVENTS, "reg=0x00000:2") == (977,
                                                             EVENTS[2])


def test_break_event_without_such_an_event_is_refused(tmp_path,
                                                       monkeypatch):
    e = refusal(tmp_path, monkeypatch, break_event="ctrl-rst:3")
    assert e.what == "--break-event ctrl-rst:3: the recording has 2 " \
        "event(s) with 'ctrl-rst'"
    assert e.why.startswith("its 3 events: 7245978470 ctrl-rst ")


def test_break_event_without_an_instruction_count_is_refused(tmp_path,
                                                             monkeypatch):
    e = refusal(tmp_path, monkeypatch, break_event="write-during-reset")
    assert e.what == "--break-event write-during-reset: the event has no " \
        "instruction count"
    assert e.fix.startswith("record the cell again")


def test_break_event_zero_is_refused(tmp_path, monkeypatch):
    e = refusal(tmp_path, monkeypatch, break_event="ctrl-rst:0")
    assert e.what == "--break-event ctrl-rst:0: events count from 1"


def test_a_symbol_the_recording_lacks_is_refused_before_qemu(
        tmp_path, monkeypatch):
    rec = tmp_path / "replay"
    rec.mkdir()
    (rec / "symbols.txt").write_text(
        "ffffffffc0a24c40 t e1000_reset_task\t[e1000e]\n")
    e = refusal(tmp_path, monkeypatch, break_symbol="e1000_reset")
    assert e.what == "no function 'e1000_reset' in the recorded e1000e " \
        "module"
    assert e.why == "1 functions; close: e1000_reset_task"


class MemoryQmp:
    def __init__(self, size):
        self.size, self.calls = size, []

    def execute(self, cmd, **args):
        self.calls.append((cmd, args))
        if cmd == "query-memory-size-summary":
            return {"base-memory": self.size}
        with open(args["filename"], "wb") as f:
            f.write(b"\0" * 16)
        return {}


class MemoryVm:
    def __init__(self, size):
        self.qmp = MemoryQmp(size)


def test_the_memory_hash_reads_the_ram_from_address_zero(tmp_path):
    from e1000epp.replay import recording
    vm = MemoryVm(512 << 20)
    # the hash of the 16 bytes the fake pmemsave wrote, file gone after
    assert recording.memory_sha256(vm, str(tmp_path)) == \
        "374708fff7719dd5979ec875d56cd2286f6d3cf7ec317a3b25632aab28ec37bb"
    assert vm.qmp.calls[1] == ("pmemsave", {
        "val": 0, "size": 512 << 20,
        "filename": str(tmp_path / "memory.img")})
    assert not (tmp_path / "memory.img").exists()


def test_the_memory_hash_refuses_ram_past_q35s_low_window(tmp_path):
    import pytest
    from e1000epp.replay import recording
    from e1000epp.vm.harness import HarnessError
    with pytest.raises(HarnessError) as e:
        recording.memory_sha256(MemoryVm(3 << 30), str(tmp_path))
    assert str(e.value).startswith("guest RAM of 3221225472 bytes")
