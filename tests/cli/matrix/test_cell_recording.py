# SPDX-License-Identifier: GPL-2.0-or-later
"""The end of a recorded cell (matrix/cell_recording.py): under
--record-failing a passing cell's recording is deleted and a failing
cell's kept; under --record both are kept; the figures stay in the
result either way."""

import types

import pytest

from e1000epp.matrix import cell_model
from e1000epp.matrix.cell_recording import finish_recording

DATA = {"icount": 2069109537, "record_seconds": 33.1, "guest_seconds": 21.5,
        "log_bytes": 52_000_000, "device_digest": "d7c89f9e"}


class FakeRecorder:
    def __init__(self, d):
        self.dir = str(d)

    def finish(self, vm, name, counters):
        return dict(DATA)


def run(tmp_path, status, keep_passing):
    cell_dir = tmp_path / "cells" / "c1"
    rec_dir = cell_dir / "replay"
    rec_dir.mkdir(parents=True)
    (rec_dir / "replay.bin").write_bytes(b"x")
    vm = types.SimpleNamespace(machine=types.SimpleNamespace(
        is_running=lambda: True))
    r = {"status": status, "reason": ""}
    lines = []
    finish_recording(FakeRecorder(rec_dir), vm,
                     types.SimpleNamespace(name="c1"), r, lines.append,
                     str(tmp_path), keep_passing)
    return r, rec_dir.exists(), lines


@pytest.mark.parametrize("status,keep_passing,kept", [
    (cell_model.PASS, False, False),
    (cell_model.FAIL, False, True),
    (cell_model.ERROR, False, True),
    (cell_model.PASS, True, True),
])
def test_what_is_kept(tmp_path, status, keep_passing, kept):
    r, exists, lines = run(tmp_path, status, keep_passing)
    assert exists is kept
    assert r["recording"]["kept"] is kept
    assert r["recording"]["icount"] == 2069109537
    assert ("deleted" in lines[0]) is not kept
    assert ("replay" in r["evidence"]) is kept
