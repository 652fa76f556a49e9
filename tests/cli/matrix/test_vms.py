# SPDX-License-Identifier: GPL-2.0-or-later
"""`run --vms N`: boot groups side by side, results in plan order, one
progress stream, a failure of one group raised in the caller."""

import threading
import time

import pytest

from e1000epp import cli
from e1000epp.matrix import command as matrix_command


def parse(*argv):
    return cli.build_parser().parse_args(list(argv))


def groups(*sizes):
    return [(f"boot{i}", [f"g{i}c{j}" for j in range(n)])
            for i, n in enumerate(sizes)]


def fake_group(first_wave, log, running, peak):
    """A run_group whose first groups (first_wave: their first cells) wait
    for each other, so they must run at once; it notes how many groups
    ran at once."""
    lock = threading.Lock()
    barrier = threading.Barrier(len(first_wave))

    def run_group(cells, on_result):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        if cells[0] in first_wave:
            barrier.wait(timeout=60)
        out = []
        for c in cells:
            r = {"cell": c}
            on_result(r)
            out.append(r)
        with lock:
            running[0] -= 1
        log.append(cells[0])
        return out, 1
    return run_group


@pytest.mark.parametrize("vms, at_once", [(1, 1), (2, 2), (8, 3)])
def test_groups_run_side_by_side_up_to_vms(vms, at_once):
    running, peak, log, seen = [0], [0], [], []
    first_wave = ["g0c0", "g1c0", "g2c0"][:at_once]
    results, boots = matrix_command.run_groups(
        groups(3, 1, 2), vms, fake_group(first_wave, log, running, peak),
        seen.append)
    assert peak[0] == at_once
    assert boots == 3
    # plan order whatever order the groups ended in
    assert [r["cell"] for r in results] == \
        ["g0c0", "g0c1", "g0c2", "g1c0", "g2c0", "g2c1"]
    assert sorted(r["cell"] for r in seen) == \
        sorted(r["cell"] for r in results)


def test_one_progress_stream():
    inside, overlaps = [0], [0]

    def on_result(r):
        inside[0] += 1
        overlaps[0] += inside[0] > 1
        time.sleep(0.01)
        inside[0] -= 1

    def run_group(cells, report):
        for c in cells:
            report({"cell": c})
        return [], 1

    matrix_command.run_groups(groups(5, 5, 5), 3, run_group, on_result)
    assert overlaps[0] == 0


def test_a_failing_group_is_raised_and_stops_new_groups():
    started = []

    def run_group(cells, report):
        started.append(cells[0])
        if cells[0] == "g0c0":
            raise RuntimeError("boot group 0 broke")
        return [], 1

    with pytest.raises(RuntimeError, match="boot group 0 broke"):
        matrix_command.run_groups(groups(1, 1, 1, 1), 1, run_group, print)
    assert started == ["g0c0"]


def test_default_is_one_vm_per_cpu_within_memory(monkeypatch, tmp_path):
    meminfo = tmp_path / "meminfo"
    real_open = open

    def fake_open(path, *a, **k):
        return real_open(meminfo if path == "/proc/meminfo" else path,
                         *a, **k)
    monkeypatch.setattr("builtins.open", fake_open)
    monkeypatch.setattr(matrix_command.os, "cpu_count", lambda: 8)
    meminfo.write_text("MemTotal: 4000000 kB\nMemAvailable: 3500000 kB\n")
    assert matrix_command.default_vms() == 3        # 3.3 GiB: three VMs
    meminfo.write_text("MemAvailable: 24000000 kB\n")
    assert matrix_command.default_vms() == 8        # the CPUs bound it
    meminfo.write_text("MemAvailable: 100 kB\n")
    assert matrix_command.default_vms() == 1


def test_vms_flag_range(capsys):
    assert parse("run", "--vms", "2").vms == 2
    assert parse("run").vms is None
    for bad in ("0", "65", "two"):
        with pytest.raises(SystemExit) as e:
            parse("run", "--vms", bad)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert "argument --vms" in err and "Traceback" not in err
