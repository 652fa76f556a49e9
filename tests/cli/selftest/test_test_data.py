# SPDX-License-Identifier: GPL-2.0-or-later
"""The functional suite's test data (test_data.py): Debian's e1000e source
fetched before the suite only when a selected test needs it, unpacked
exactly, and a failure reported as a note with the command's own words."""

import json
import os
import subprocess
import textwrap

import pytest

from e1000epp.common import paths
from e1000epp.selftest import test_data
VERSION = "6.1.192-3"
NETDEV = b"/* netdev.c of the fake linux-source */\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    guest = tmp_path / "guest"
    guest.mkdir()
    (guest / "manifest.json").write_text(json.dumps(
        {"kernel": {"version": VERSION, "release": "6.1.0-41-amd64"}}))
    monkeypatch.setattr(paths, "GUEST_DIR", str(guest))
    monkeypatch.setattr(test_data, "CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def fake_apt_get(tmp_path, monkeypatch, body):
    """`apt-get` on PATH is a shell script running body."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    tool = bindir / "apt-get"
    tool.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", "%s:%s" % (bindir, os.environ["PATH"]))


def source_deb(tmp_path, files=None, cut=False):
    """A linux-source-6.1 package holding linux-source-6.1.tar.xz with
    files ({path in the tree: bytes}, archived in that order; by default
    e1000e's netdev.c and a top-level Makefile), cut to half its length
    when cut."""
    if files is None:
        files = {test_data.E1000E_IN_TREE + "/netdev.c": NETDEV,
                 "Makefile": b"not unpacked\n"}
    tree = tmp_path / "tree"
    for rel, data in files.items():
        path = tree / "linux-source-6.1" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    pkg = tmp_path / "pkg"
    (pkg / "DEBIAN").mkdir(parents=True)
    (pkg / "DEBIAN" / "control").write_text(
        "Package: linux-source-6.1\nVersion: %s\nArchitecture: all\n"
        "Maintainer: test <t@example.invalid>\nDescription: fake\n"
        % VERSION)
    (pkg / "usr" / "src").mkdir(parents=True)
    tarball = pkg / "usr" / "src" / "linux-source-6.1.tar.xz"
    subprocess.run(["tar", "-cJf", str(tarball), "-C", str(tree)] +
                   ["linux-source-6.1/" + rel for rel in files], check=True)
    if cut:
        data = tarball.read_bytes()
        tarball.write_bytes(data[:len(data) // 2])
    deb = tmp_path / "linux-source.deb"
    subprocess.run(["dpkg-deb", "--build", "--root-owner-group", str(pkg),
                    str(deb)], check=True, stdout=subprocess.DEVNULL)
    return deb


def test_fetched_and_unpacked_before_the_suite(tmp_path, monkeypatch,
                                               cache):
    deb = source_deb(tmp_path)
    fake_apt_get(tmp_path, monkeypatch, """\
        [ "$1 $2" = "download linux-source-6.1=%s" ] || exit 9
        cp %s linux-source-6.1_%s_all.deb
        """ % (VERSION, deb, VERSION))
    lines = []
    assert test_data.prepare_functional(None, lines.append) is None
    drv = cache / "linux-source-6.1-e1000e" / test_data.E1000E_IN_TREE
    assert (drv / "netdev.c").read_bytes() == NETDEV
    # Only the driver directory; the package's unpacked tree is gone.
    assert sorted(os.listdir(cache / "linux-source-6.1-e1000e")) == \
        ["drivers"]
    assert sorted(os.listdir(cache)) == [
        "linux-source-6.1-e1000e", "linux-source-6.1_%s_all.deb" % VERSION]
    assert len(lines) == 2
    assert "linux-source-6.1 %s" % VERSION in lines[0]
    assert "before the suite's clock" in lines[1]
    # A second run finds it and does nothing (apt-get would now fail).
    (tmp_path / "again").mkdir()
    fake_apt_get(tmp_path / "again", monkeypatch, "exit 1\n")
    lines.clear()
    assert test_data.prepare_functional(None, lines.append) is None
    assert lines == []


def test_download_failure_is_a_note_with_apt_gets_words(tmp_path,
                                                        monkeypatch, cache):
    fake_apt_get(tmp_path, monkeypatch, """\
        echo "E: Can't find a source to download version '%s'" >&2
        exit 100
        """ % VERSION)
    lines = []
    note = test_data.prepare_functional(None, lines.append)
    assert note.startswith("test data not prepared: downloading "
                           "linux-source-6.1 %s" % VERSION)
    assert "apt-get download exited with 100" in note
    assert "Can't find a source to download version" in note
    assert lines[-1] == "functional: " + note[len("test data not "
                                                  "prepared: "):]
    assert not (cache / "linux-source-6.1-e1000e").exists()


def test_the_fixture_raises_the_same_error(tmp_path, monkeypatch, cache):
    fake_apt_get(tmp_path, monkeypatch, "exit 100\n")
    with pytest.raises(test_data.PrepareError,
                       match="apt-get download exited with 100"):
        test_data.debian_e1000e_source(VERSION)


@pytest.mark.parametrize("k", ["test_matrix", "selftest", "6_12"])
def test_not_fetched_when_no_selected_test_needs_it(tmp_path, monkeypatch,
                                                    cache, k):
    fake_apt_get(tmp_path, monkeypatch, "exit 1\n")
    lines = []
    assert test_data.prepare_functional(k, lines.append) is None
    assert lines == [] and not cache.exists()


@pytest.mark.parametrize("k", ["driver_rebuilt", "test_user_kernel",
                               "DEBIAN_SOURCE"])
def test_fetched_when_k_selects_the_test(tmp_path, monkeypatch, cache, k):
    fake_apt_get(tmp_path, monkeypatch, "exit 100\n")
    note = test_data.prepare_functional(k, lambda line: None)
    assert "apt-get download exited with 100" in note


def test_nothing_before_the_guest_image_exists(tmp_path, monkeypatch,
                                               cache):
    os.unlink(os.path.join(paths.GUEST_DIR, "manifest.json"))
    fake_apt_get(tmp_path, monkeypatch, "exit 1\n")
    assert test_data.prepare_functional(None, lambda line: None) is None
    assert not cache.exists()


def test_a_failed_unpack_leaves_nothing_that_looks_finished(
        tmp_path, monkeypatch, cache):
    # netdev.c first, then a megabyte the cut-short tarball ends inside:
    # tar has written netdev.c when it fails.
    drv = test_data.E1000E_IN_TREE
    cut = source_deb(tmp_path, {drv + "/netdev.c": NETDEV,
                                drv + "/zz.bin": os.urandom(1 << 20)},
                     cut=True)
    fake_apt_get(tmp_path, monkeypatch, "cp %s linux-source-6.1_%s_all.deb\n"
                 % (cut, VERSION))
    note = test_data.prepare_functional(None, lambda line: None)
    assert "unpacking %s from linux-source-6.1.tar.xz: tar -xJf exited " \
        "with 2" % drv in note
    assert sorted(os.listdir(cache)) == [
        "linux-source-6.1_%s_all.deb" % VERSION]
