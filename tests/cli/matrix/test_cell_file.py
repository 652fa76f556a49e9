# SPDX-License-Identifier: GPL-2.0-or-later
"""A user's own cells from a TOML file (`run --cells FILE`): they list,
select and shard like a built-in matrix's; bad files are refused with
the file, the line and the reason, before anything is set up."""

import os
import subprocess
import sys

from e1000epp.common import paths

CLI = os.path.join(paths.REPO, "e1000e-pp")

GOOD = """# two cells of my own
[[cell]]
mtu = 9000
crc = "keep"
family = "errcrc"

[[cell]]
mtu = 1500
irq = "msi"
copybreak = 0
"""


def run(*args):
    return subprocess.run([sys.executable, CLI, "run", "--no-setup"] +
                          list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=60)


def test_cells_from_a_file_are_listed_by_name(tmp_path):
    f = tmp_path / "cells.toml"
    f.write_text(GOOD)
    r = run("--list", "--cells", str(f))
    assert r.returncode == 0, r.stderr
    names = [ln.strip() for ln in r.stdout.splitlines()
             if ln.startswith("  ")]
    assert names == ["mtu1500-strip-msi-noiommu-cb0",
                     "mtu9000-keep-msix-noiommu-errcrc"]
    assert r.stdout.splitlines()[-1] == "2 cells, 1 boots"
    assert "situation err-crc: 1 cells (mtu9000-keep-msix-noiommu-errcrc)" \
        in r.stdout
    r = run("--list", "--cells", str(f), "--only", "*-cb0")
    assert [ln.strip() for ln in r.stdout.splitlines()
            if ln.startswith("  ")] == ["mtu1500-strip-msi-noiommu-cb0"]


def _refused(tmp_path, text, message):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    r = run("--cells", str(f))
    assert r.returncode == 1
    assert message.replace("FILE", str(f)) in r.stderr, r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_a_value_out_of_the_vocabulary_names_its_cell_and_line(tmp_path):
    # e1000e's MTU range on the 82574: ETH_MIN_MTU 68 to max_mtu 9212
    # (max_hw_frame_size 9234 - VLAN_ETH_HLEN 18 - ETH_FCS_LEN 4).
    _refused(tmp_path, "[[cell]]\nmtu = 9000\n\n[[cell]]\nmtu = 67\n",
             "error: FILE:4: cell 2: mtu = 67 is not 68..9212 (the 82574's "
             "MTU range in e1000e)")
    _refused(tmp_path, "[[cell]]\nmtu = 9213\n",
             "error: FILE:1: cell 1: mtu = 9213 is not 68..9212")


def test_an_unknown_key_is_refused(tmp_path):
    _refused(tmp_path, "[[cell]]\nmtu = 1500\nmtus = 9000\n",
             "error: FILE:1: cell 1: unknown key 'mtus'")


def test_an_unknown_family_is_refused(tmp_path):
    _refused(tmp_path, '[[cell]]\nmtu = 1500\nfamily = "errcrcc"\n',
             "error: FILE:1: cell 1: family = 'errcrcc' is not one of "
             "errcrc, errcrc-rxall")


def test_a_file_that_is_not_toml_says_where(tmp_path):
    _refused(tmp_path, '[[cell]]\nmtu = 9000\ncrc = "kep\n',
             "error: --cells FILE: not TOML: Illegal character '\\n' "
             "(at line 3, column 11)")


def test_a_cell_twice_and_no_cell_are_refused(tmp_path):
    _refused(tmp_path, "[[cell]]\nmtu = 1500\n[[cell]]\nmtu = 1500\n",
             "error: FILE:3: cell 2: mtu1500-strip-msix-noiommu is cell 1 "
             "again")
    _refused(tmp_path, "# nothing\n", "error: FILE:1: no [[cell]] table")


def test_a_missing_file_is_refused(tmp_path):
    r = run("--cells", str(tmp_path / "none.toml"))
    assert r.returncode == 1
    assert "No such file or directory" in r.stderr
