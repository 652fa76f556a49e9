# SPDX-License-Identifier: GPL-2.0-or-later
"""The sanitizing kernel: its config fragment checked option by option
after olddefconfig, and `run --debug-kernel` refusing what it cannot
do before anything runs."""

import types

import pytest

from e1000epp.common import paths
from e1000epp.common.errors import StepError
from e1000epp.image import user_kernel
from e1000epp.setup import debug_kernel


def test_the_fragment_asks_for_every_sanitizer():
    want = debug_kernel.fragment_options()
    for opt in ("CONFIG_KASAN", "CONFIG_DEBUG_KMEMLEAK",
                "CONFIG_PROVE_LOCKING", "CONFIG_DEBUG_NET", "CONFIG_E1000E"):
        assert opt in want
    assert want["CONFIG_E1000E"] == "m"
    assert want["CONFIG_MODULE_SIG"] == "n"


def test_options_olddefconfig_dropped_are_named():
    config = "\n".join(["CONFIG_KASAN=y", "# CONFIG_DEBUG_NET is not set",
                        "CONFIG_E1000E=y", "# CONFIG_MODULE_SIG is not set"])
    want = {"CONFIG_KASAN": "y", "CONFIG_DEBUG_NET": "y",
            "CONFIG_E1000E": "m", "CONFIG_MODULE_SIG": "n",
            "CONFIG_PROVE_LOCKING": "y"}
    assert debug_kernel.unmet(config, want) == [
        "CONFIG_DEBUG_NET", "CONFIG_E1000E", "CONFIG_PROVE_LOCKING"]


def args(**kw):
    base = dict(kernel=None, modules=None, module=None, driver_src=None,
                debian_kernel=None, kernel_tree=None, driver=None,
                debug_kernel=True)
    base.update(kw)
    return types.SimpleNamespace(**base)


def test_debug_kernel_not_built_is_refused_with_the_setup_to_run(
        tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "DEBUG_KERNEL_TREE", str(tmp_path / "linux"))
    with pytest.raises(StepError) as e:
        user_kernel._expand_debug_kernel(args())
    assert e.value.what == "--debug-kernel: the sanitizing kernel is not " \
        "built"
    assert "setup --debug-kernel" in e.value.fix


def test_debug_kernel_with_another_kernel_is_refused():
    for flag, kw in (("--kernel-tree", {"kernel_tree": "/x"}),
                     ("--debian-kernel", {"debian_kernel": "6.1"})):
        with pytest.raises(StepError) as e:
            user_kernel._expand_debug_kernel(args(**kw))
        assert e.value.what == f"--debug-kernel and {flag} both given"


def test_debug_kernel_is_the_built_tree(tmp_path, monkeypatch):
    tree = tmp_path / "linux"
    (tree / "arch" / "x86" / "boot").mkdir(parents=True)
    (tree / "arch" / "x86" / "boot" / "bzImage").write_bytes(b"")
    monkeypatch.setattr(paths, "DEBUG_KERNEL_TREE", str(tree))
    a = args()
    user_kernel._expand_debug_kernel(a)
    assert a.kernel_tree == str(tree)
