# SPDX-License-Identifier: GPL-2.0-or-later
"""`./e1000e-pp race` without its qtest binary: one line naming what is
missing and the ninja command that builds it, exit status 2, no
traceback."""

import argparse

from e1000epp.race import command as race_command


def test_race_without_its_binary_says_to_run_setup(tmp_path, monkeypatch,
                                                   capsys):
    monkeypatch.setattr(race_command, "TEST_BIN",
                        str(tmp_path / "e1000e-pp-device-race-test"))
    args = argparse.Namespace(report=str(tmp_path / "r"), vm_cycles=None)
    assert race_command.run(args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("error: ")
    assert "e1000e-pp-device-race-test is not built; run: ninja -C " \
        "build/qemu " in err
