# SPDX-License-Identifier: GPL-2.0-or-later
"""The ./e1000e-pp command line: one package per command (setup, matrix
for run/merge/resume, soak, bench, fuzz, race, bugs, selftest for test)
over what they share (common, vm, image); docs/architecture.md draws
the layers."""
