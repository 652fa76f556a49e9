# SPDX-License-Identifier: GPL-2.0-or-later
"""mutate's patch reader: the lines a patch (or a series) adds or changes
in the final tree, C code only; the tree with or without the patch; the
owner of a line two patches touch; clear errors on bad input."""

import os
import subprocess

import pytest

from e1000epp.common.errors import StepError
from e1000epp.image import pagepool_series
from e1000epp.mutate import patch_lines

BASE = """\
#include <linux/kernel.h>

static int g(int n)
{
\treturn n;
}

int f(int n)
{
\tint x = 1;

\tx += g(n);
\treturn x;
}
"""

# As git format-patch writes it: a mail header, the diffstat after a
# bare "---", a hunk, the signature.
PATCH1 = """\
From 1 Mon Sep 17 00:00:00 2001
Subject: [PATCH 1/2] drv: check n

---
 drivers/x/drv/foo.c | 9 ++++++++-
 1 file changed, 8 insertions(+), 1 deletion(-)

diff --git a/drivers/x/drv/foo.c b/drivers/x/drv/foo.c
--- a/drivers/x/drv/foo.c
+++ b/drivers/x/drv/foo.c
@@ -1,4 +1,5 @@
 #include <linux/kernel.h>
+#include <linux/errno.h>
\x20
 static int g(int n)
 {
@@ -8,7 +9,13 @@ static int g(int n)
 int f(int n)
 {
 \tint x = 1;
+\tint y;
\x20
-\tx += g(n);
+\t/* a negative n is refused */
+\tif (n < 0)
+\t\treturn -EINVAL;
+
+\ty = g(n);
+\tx += y;
 \treturn x;
 }
--\x20
2.39.5
"""

PATCH2 = """\
--- a/drivers/x/drv/foo.c
+++ b/drivers/x/drv/foo.c
@@ -15,7 +15,7 @@ int f(int n)
 \tif (n < 0)
 \t\treturn -EINVAL;
\x20
-\ty = g(n);
+\ty = g(n + 1);
 \tx += y;
 \treturn x;
 }
"""


def _tree(tmp_path, *patches):
    d = tmp_path / "drv"
    d.mkdir()
    (d / "foo.c").write_text(BASE)
    paths = []
    for k, text in enumerate(patches, 1):
        p = tmp_path / f"000{k}-p.patch"
        p.write_text(text)
        paths.append(str(p))
    return d, paths


def _apply(d, paths):
    for p in paths:
        subprocess.run(["patch", "-s", "-p4", "-d", str(d), "-i", p],
                       check=True)


def test_lines_of_one_patch_applied(tmp_path):
    d, paths = _tree(tmp_path, PATCH1)
    _apply(d, paths)
    lines, final, applied = patch_lines.read(str(d), paths)
    assert applied
    # not the include, the declaration, the comment, the blank line
    assert [(ln.line, ln.text.strip(), ln.function) for ln in lines] == [
        (15, "if (n < 0)", "f"), (16, "return -EINVAL;", "f"),
        (18, "y = g(n);", "f"), (19, "x += y;", "f")]
    assert {ln.patch for ln in lines} == {"0001"}
    assert final["foo.c"] == (d / "foo.c").read_text().split("\n")


def test_the_same_lines_from_the_tree_without_the_patch(tmp_path):
    d, paths = _tree(tmp_path, PATCH1)
    lines, final, applied = patch_lines.read(str(d), paths)
    assert not applied
    assert [ln.line for ln in lines] == [15, 16, 18, 19]
    assert (d / "foo.c").read_text() == BASE        # untouched
    assert "\tif (n < 0)" in final["foo.c"]


def test_a_line_rewritten_by_a_later_patch_is_that_patchs(tmp_path):
    d, paths = _tree(tmp_path, PATCH1, PATCH2)
    _apply(d, paths)
    lines, _, _ = patch_lines.read(str(d), paths)
    assert [(ln.line, ln.patch) for ln in lines] == [
        (15, "0001"), (16, "0001"), (18, "0002"), (19, "0001")]


def test_base_directory_instead_of_a_patch(tmp_path):
    d, paths = _tree(tmp_path, PATCH1)
    base = tmp_path / "base"
    base.mkdir()
    (base / "foo.c").write_text(BASE)
    _apply(d, paths)
    lines, _, _ = patch_lines.read(str(d), base_dir=str(base))
    assert [(ln.line, ln.patch) for ln in lines] == [
        (15, "base"), (16, "base"), (18, "base"), (19, "base")]


def test_a_patch_that_does_not_apply(tmp_path):
    d, paths = _tree(tmp_path, PATCH2)          # needs PATCH1 first
    with pytest.raises(StepError, match="does not apply"):
        patch_lines.read(str(d), paths)


def test_not_a_patch_and_a_missing_one(tmp_path):
    d, _ = _tree(tmp_path)
    (tmp_path / "x.patch").write_text("hello\n")
    with pytest.raises(StepError, match="is not a patch"):
        patch_lines.read(str(d), [str(tmp_path / "x.patch")])
    with pytest.raises(StepError, match="cannot read it"):
        patch_lines.read(str(d), [str(tmp_path / "none.patch")])


def test_a_patch_of_other_files(tmp_path):
    d, _ = _tree(tmp_path)
    p = tmp_path / "k.patch"
    p.write_text(PATCH1.replace("drv/foo.c", "drv/bar.c"))
    with pytest.raises(StepError, match="touches no file"):
        patch_lines.read(str(d), [str(p)])


SERIES_TREE = os.path.join(pagepool_series.out_dir(None),
                           pagepool_series.E1000E)


@pytest.mark.skipif(not os.path.isdir(SERIES_TREE),
                    reason="the page-pool series' tree is not made "
                    "(./e1000e-pp run --driver pagepool makes it)")
def test_the_series_patch_3_lines():
    """A real patch: 0003 holds a runtime PM reference in the reset task
    (its comment is not judged, its five code lines are)."""
    lines, _, applied = patch_lines.read(
        SERIES_TREE, pagepool_series.patches("pagepool"))
    assert applied
    three = [ln.text.strip() for ln in lines if ln.patch == "0003"]
    assert three == ["pm_runtime_get_sync(&adapter->pdev->dev);",
                     "if (test_bit(__E1000_DOWN, &adapter->state))",
                     "goto out;", "out:",
                     "pm_runtime_put(&adapter->pdev->dev);"]
    assert {ln.function for ln in lines if ln.patch == "0003"} == {
        "e1000_reset_task"}
