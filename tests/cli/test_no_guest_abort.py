# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/unit/no-guest-abort.py fails on what it looks for: an assert in
a core source, abort linked into the built core, a new adapter assert."""

import os
import subprocess
import sys

import pytest

from e1000epp.common import paths
CHECK = os.path.join(paths.REPO, "tests", "unit", "no-guest-abort.py")


def build_lib(tmp_path, source):
    c = tmp_path / "obj.c"
    c.write_text(source)
    obj, lib = tmp_path / "obj.o", tmp_path / "libcore.a"
    subprocess.run(["cc", "-c", "-o", str(obj), str(c)], check=True)
    subprocess.run(["ar", "rcs", str(lib), str(obj)], check=True)
    return str(lib)


def check(core, adapter, lib):
    out = subprocess.run([sys.executable, CHECK, str(core), str(adapter),
                          lib], stdout=subprocess.PIPE, text=True).stdout
    return [ln for ln in out.splitlines() if ln.startswith(("ok", "not"))]


@pytest.fixture
def tree(tmp_path):
    core = tmp_path / "core"
    core.mkdir()
    (core / "rx.c").write_text("/* assert(x) in a comment is fine */\n"
                               "int rx(int x) { return x + 1; }\n")
    adapter = tmp_path / "adapter.c"
    adapter.write_text("void cb(void)\n{\n    assert(!slot->s->core.depth);\n"
                       "}\n")
    return core, adapter


def test_clean_core_passes(tmp_path, tree):
    lib = build_lib(tmp_path, "#include <string.h>\n"
                    "size_t f(const char *s) { return strlen(s); }\n")
    assert [ln.split(" - ")[0] for ln in check(*tree, lib)] == [
        "ok 1", "ok 2", "ok 3"]


def test_each_rule_fails(tmp_path, tree):
    core, adapter = tree
    (core / "tx.c").write_text("void t(int n) { if (n) abort(); }\n")
    adapter.write_text(adapter.read_text() + "void w(int v) { assert(v); }\n")
    lib = build_lib(tmp_path, "#include <assert.h>\n"
                    "int f(int x) { assert(x); return x; }\n")
    assert [ln.split(" - ")[0] for ln in check(core, adapter, lib)] == [
        "not ok 1", "not ok 2", "not ok 3"]
