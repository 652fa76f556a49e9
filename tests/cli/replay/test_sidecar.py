# SPDX-License-Identifier: GPL-2.0-or-later
"""The recording's sidecar: loading and refusing it, the digests, the
first differing event, the replay's command line (replay/sidecar.py)."""

import hashlib
import json
import os

import pytest

from e1000epp.replay import sidecar

QEMU_SUM = "a" * 64
SOURCE_SUM = "b" * 64

ARGV = [
    "-M", "q35", "-m", "512",
    "-append", "console=ttyS0 nohz=off",
    "-chardev", "file,id=con,path=/r/boots/01-noiommu/console.log",
    "-serial", "chardev:con",
    "-chardev", "socket,id=agent,path=/tmp/e1000epp-x1/agent.sock,"
                "server=on,wait=off",
    "-serial", "chardev:agent",
    "-device", "e1000e-pp,id=nic0,netdev=n0,mac=52:54:00:12:34:56,romfile=",
    "-netdev", "stream,id=n0,server=off,addr.type=unix,"
               "addr.path=/tmp/e1000epp-x1/net.sock",
    "-object", "filter-replay,id=rr0,netdev=n0",
    "-icount", "shift=auto,rr=record,rrfile=/r/cells/c/replay/replay.bin",
]


def sample(**over):
    data = {"format": 1, "cell": "mtu1500-strip-msix-noiommu",
            "device": "e1000e-pp", "qemu": "/b/qemu-system-x86_64",
            "qemu_sha256": QEMU_SUM, "device_source_sha256": SOURCE_SUM,
            "argv": ARGV, "cmdline": " ".join(ARGV), "icount": 1811629515,
            "events": ["1 ev a", "2 ev b"], "counters": {"rx-offered": 54},
            "device_digest": "d" * 64, "record_seconds": 13.7,
            "log_bytes": 22493132}
    data.update(over)
    return data


def write_recording(cell_dir, data, log=True):
    d = os.path.join(cell_dir, "replay")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "recording.json"), "w") as f:
        json.dump(data, f)
    if log:
        open(os.path.join(d, "replay.bin"), "wb").close()


def test_a_written_recording_loads_as_written(tmp_path):
    write_recording(str(tmp_path), sample())
    assert sidecar.load(str(tmp_path)) == sample()


def test_a_cell_without_a_recording_is_refused_saying_how_to_make_one(
        tmp_path):
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.load(str(tmp_path))
    assert e.value.args == (f"{tmp_path} holds no recording",
                            "replay/recording.json is missing",
                            "record the cell with ./e1000e-pp run --record "
                            "--only CELL")


def test_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.load(str(tmp_path / "nope"))
    assert e.value.args[0] == f"{tmp_path / 'nope'}: no such directory"


def test_a_sidecar_without_its_log_is_refused(tmp_path):
    write_recording(str(tmp_path), sample(), log=False)
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.load(str(tmp_path))
    assert e.value.args[1] == "replay/replay.bin is missing"


def test_a_sidecar_missing_fields_names_them(tmp_path):
    data = sample()
    del data["icount"], data["qemu_sha256"]
    write_recording(str(tmp_path), data)
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.load(str(tmp_path))
    assert e.value.args[1] == "missing qemu_sha256, icount"


def test_another_format_is_refused(tmp_path):
    write_recording(str(tmp_path), sample(format=2))
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.load(str(tmp_path))
    assert e.value.args[1] == "this harness reads format 1"


def test_the_same_build_is_accepted():
    assert sidecar.check_build(sample(), QEMU_SUM, SOURCE_SUM) is None


def test_another_qemu_binary_is_refused_naming_both_digests():
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.check_build(sample(), "c" * 64, SOURCE_SUM)
    assert e.value.args[0] == "the recording was made by another QEMU binary"
    assert e.value.args[1] == (
        "recorded with /b/qemu-system-x86_64 of SHA-256 aaaaaaaaaaaaaaaa..., "
        "the QEMU here is cccccccccccccccc... (QEMU checks only its log "
        "format, a replay on another binary diverges)")


def test_another_device_source_is_refused():
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.check_build(sample(), QEMU_SUM, "e" * 64)
    assert e.value.args[:2] == (
        "the recording was made from another device source",
        "hw/net/e1000e_pp digested bbbbbbbbbbbbbbbb... when recorded, "
        "eeeeeeeeeeeeeeee... now")


def test_the_device_digest_is_the_events_then_the_sorted_counters():
    text = "1 a\n2 b\n" + '{"rx-delivered": 3, "rx-offered": 4}'
    assert sidecar.device_digest(["1 a", "2 b"],
                                 {"rx-offered": 4, "rx-delivered": 3}) == \
        hashlib.sha256(text.encode()).hexdigest()


def test_the_device_digest_changes_with_one_counter():
    assert sidecar.device_digest([], {"rx-offered": 4}) != \
        sidecar.device_digest([], {"rx-offered": 5})


def test_the_tree_digest_covers_names_and_bytes(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "a.c").write_bytes(b"x")
    (tmp_path / "core" / "b.c").write_bytes(b"yz")
    h = hashlib.sha256()
    h.update(b"a.c\0" + b"1\0x")
    h.update(b"core/b.c\0" + b"2\0yz")
    assert sidecar.tree_sha256(str(tmp_path)) == h.hexdigest()
    first = h.hexdigest()
    (tmp_path / "core" / "b.c").rename(tmp_path / "core" / "c.c")
    assert sidecar.tree_sha256(str(tmp_path)) != first


def test_equal_event_lists_have_no_difference():
    assert sidecar.first_difference(["a", "b"], ["a", "b"]) is None


def test_the_first_differing_event_is_named_with_its_index():
    assert sidecar.first_difference(["a", "b", "c"], ["a", "x", "c"]) == \
        (1, "b", "x")


def test_an_event_missing_from_the_replay_is_a_difference():
    assert sidecar.first_difference(["a", "b"], ["a"]) == (1, "b", None)
    assert sidecar.first_difference(["a"], ["a", "b"]) == (1, None, "b")


def test_counter_differences_name_each_counter():
    assert sidecar.counter_differences({"a": 1, "b": 2}, {"a": 1, "b": 3,
                                                          "c": 0}) == \
        [("b", 2, 3), ("c", None, 0)]


def test_the_replay_command_line_replays_the_log_without_peer_or_agent():
    out = sidecar.replay_argv(ARGV, "/c/replay/replay.bin", "/tmp/s", "/o")
    assert out == [
        "-M", "q35", "-m", "512",
        "-append", "console=ttyS0 nohz=off",
        "-chardev", "file,id=con,path=/o/console.log",
        "-serial", "chardev:con",
        "-chardev", "socket,id=agent,path=/tmp/s/agent.sock,server=on,"
                    "wait=off",
        "-serial", "chardev:agent",
        "-device", "e1000e-pp,id=nic0,netdev=n0,mac=52:54:00:12:34:56,"
                   "romfile=",
        "-netdev", "stream,id=n0,server=off,addr.type=unix,"
                   "addr.path=/tmp/s/net.sock",
        "-object", "filter-replay,id=rr0,netdev=n0",
        "-icount", "shift=auto,rr=replay,rrfile=/c/replay/replay.bin",
    ]


def test_the_trace_log_moves_with_the_replay():
    out = sidecar.replay_argv(ARGV + ["-D", "/r/boots/01/trace.log"],
                              "/l", "/s", "/o")
    assert out[-2:] == ["-D", "/o/trace.log"]


def test_the_snapshot_image_is_the_one_beside_the_log():
    argv = ARGV[:-1] + [ARGV[-1] + ",rrsnapshot=init", "-drive",
                        "file=/r/cells/c/replay/snapshots.qcow2,if=none,"
                        "id=rrsnap"]
    out = sidecar.replay_argv(argv, "/moved/c/replay/replay.bin", "/s",
                              "/o")
    assert out[-4:] == [
        "-icount", "shift=auto,rr=replay,rrfile=/moved/c/replay/replay.bin,"
                   "rrsnapshot=init",
        "-drive", "file=/moved/c/replay/snapshots.qcow2,if=none,id=rrsnap"]


def test_a_command_line_without_icount_is_refused():
    with pytest.raises(sidecar.SidecarError) as e:
        sidecar.replay_argv(ARGV[:-2], "/l", "/s", "/o")
    assert e.value.args[0] == "the recording's command line has no -icount"
