# SPDX-License-Identifier: GPL-2.0-or-later
"""QEMU record/replay of a matrix cell: `run --record` (recording.py,
pacing.py) and `./e1000e-pp replay CELLDIR` (command.py); the
recording's sidecar, its digests and the replay's command line
(sidecar.py). docs/usage/replay.md, docs/replay.md."""
