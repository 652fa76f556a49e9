# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp report` and `bench` without what they run: one line
naming the missing program and how to build it, exit status 2, no
traceback."""

import argparse

from e1000epp.bench import rx as rx_bench
from e1000epp.bench import tx as tx_bench
from e1000epp.common import paths


def test_report_without_its_binary_names_the_ninja_target(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paths, "QEMU_BIN", "/bin/true")
    monkeypatch.setattr(rx_bench, "REPORT_BIN",
                        str(tmp_path / "e1000e-pp-rx-report"))
    args = argparse.Namespace(model="e1000e-pp", mtu=None, step=None,
                              json=None)
    assert rx_bench.report(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert "e1000e-pp-rx-report is not built; run: ninja -C build/qemu " \
        in err


def test_tx_bench_without_the_emulator_says_to_run_setup(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paths, "QEMU_BIN", str(tmp_path / "no-qemu"))
    args = argparse.Namespace(tx_seconds=1.0, profile=0, insn=False)
    assert tx_bench.bench(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert err.rstrip().endswith("no-qemu is not built; run ./e1000e-pp "
                                 "setup")
