# SPDX-License-Identifier: GPL-2.0-or-later
"""Fixtures of the `replay` suite (`./e1000e-pp test --suite replay`):
the longer record/replay checks, outside the bounded functional suite
(docs/usage/replay.md). The helpers are the functional suite's
(tests/functional/replaytools.py).

Environment: E1000EPP_REPORT_DIR as in tests/functional."""

import os
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE.parent / "functional"))
from e1000epp.vm import harness  # noqa: E402


@pytest.fixture(scope="session")
def paths():
    return harness.repo_paths()


@pytest.fixture(scope="session")
def guest_image(paths):
    from e1000epp.image.guest_image import GuestBuildError, build_guest
    try:
        return build_guest(paths["REPO"], paths["GUEST_DIR"],
                           log=lambda line: print(line, flush=True))
    except GuestBuildError as e:
        pytest.fail(f"guest image: {e}")


@pytest.fixture(scope="session")
def peer_bin(paths):
    try:
        return harness.peer_binary(paths)
    except harness.HarnessError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def report_dir():
    env = os.environ.get("E1000EPP_REPORT_DIR")
    root = Path(env) if env else Path(tempfile.mkdtemp(
        prefix="e1000epp-replay-"))
    root.mkdir(parents=True, exist_ok=True)
    return root
