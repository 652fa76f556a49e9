# SPDX-License-Identifier: GPL-2.0-or-later
"""The harness's shape: one package per command over what they share,
imports only downwards (docs/architecture.md, "The harness"), and no
source file in the tree over 600 lines."""

import ast
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PACKAGE = os.path.join(REPO, "scripts", "e1000epp")

# Lowest first.  A package may import packages of lower layers only;
# packages of one layer do not import each other.
LAYERS = (
    ("common",),
    ("vm", "image"),
    ("setup",),
    ("replay",),
    ("matrix",),
    ("soak", "bench", "fuzz", "race", "bugs", "mutate", "kselftest"),
    ("selftest",),
    ("cli",),
)
LIMIT = 600
SOURCE_SUFFIXES = (".py", ".c", ".h")


def _layer_of():
    return {pkg: i for i, layer in enumerate(LAYERS) for pkg in layer}


def _package_of(path):
    rel = os.path.relpath(path, PACKAGE)
    head = rel.split(os.sep)[0]
    return head[:-3] if head.endswith(".py") else head


def _imported_packages(path):
    """The e1000epp packages a module imports, at any depth of its code
    (a function-level import is still a dependency)."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                continue        # a module of the same package
            if node.level:
                raise AssertionError(f"{path}:{node.lineno}: relative "
                                     "import across packages; write "
                                     "`from e1000epp.PACKAGE import ...`")
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "e1000epp" and len(parts) > 1:
                out.add(parts[1])
            elif parts[0] == "e1000epp" and isinstance(node, ast.ImportFrom):
                out.update(a.name for a in node.names)
    return out


def _modules():
    for root, dirs, files in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py") and f != "__init__.py":
                yield os.path.join(root, f)


def package_edges():
    """{(importer, imported)} between packages, with one example module."""
    edges = {}
    for path in _modules():
        src = _package_of(path)
        for dst in _imported_packages(path):
            if dst != src:
                edges.setdefault((src, dst), os.path.relpath(path, REPO))
    return edges


def test_every_package_has_a_layer():
    layer = _layer_of()
    found = {_package_of(p) for p in _modules()}
    assert sorted(found - set(layer)) == []
    assert sorted(set(layer) - found) == []


def test_imports_go_down_only():
    layer = _layer_of()
    wrong = ["%s imports %s (%s)" % (src, dst, where)
             for (src, dst), where in sorted(package_edges().items())
             if layer[dst] >= layer[src]]
    assert wrong == []


def test_the_checker_sees_an_upward_import(tmp_path, monkeypatch):
    """The rule fails where it should: a vm module importing matrix."""
    pkg = tmp_path / "e1000epp"
    (pkg / "vm").mkdir(parents=True)
    (pkg / "matrix").mkdir()
    (pkg / "vm" / "x.py").write_text(
        "def f():\n    from e1000epp.matrix import cell_model\n")
    (pkg / "matrix" / "y.py").write_text("from e1000epp.vm import x\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", str(pkg))
    edges = package_edges()
    assert set(edges) == {("vm", "matrix"), ("matrix", "vm")}
    layer = _layer_of()
    assert [e for e in edges if layer[e[1]] >= layer[e[0]]] == [
        ("vm", "matrix")]


def _tracked_sources():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO,
                             capture_output=True, check=True).stdout
        names = [n.decode() for n in out.split(b"\0") if n]
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [n for n in names if n.endswith(SOURCE_SUFFIXES)
            and os.path.exists(os.path.join(REPO, n))]


def test_no_source_file_over_the_limit():
    long = []
    for name in _tracked_sources():
        with open(os.path.join(REPO, name), "rb") as f:
            n = sum(1 for _ in f)
        if n > LIMIT:
            long.append(f"{name}: {n} lines")
    assert long == []


def test_a_relative_import_across_packages_is_refused(tmp_path,
                                                      monkeypatch):
    pkg = tmp_path / "e1000epp" / "soak"
    pkg.mkdir(parents=True)
    (pkg / "x.py").write_text("from ..matrix import cell_model\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE",
                        str(tmp_path / "e1000epp"))
    with pytest.raises(AssertionError, match="relative import across "
                       "packages"):
        package_edges()


def test_the_cli_tests_mirror_the_packages():
    """tests/cli/<package>/ holds each package's tests; the tests of
    cli.py and of the tree's shape stay at the top."""
    here = os.path.dirname(os.path.abspath(__file__))
    folders = {d for d in os.listdir(here)
               if os.path.isdir(os.path.join(here, d)) and d != "__pycache__"}
    packages = {p for layer in LAYERS for p in layer} - {"cli"}
    assert sorted(folders ^ packages) == []
    for d in sorted(folders):
        assert any(f.startswith("test_") and f.endswith(".py")
                   for f in os.listdir(os.path.join(here, d))), d
