# SPDX-License-Identifier: GPL-2.0-or-later
"""mutate's builds on a tiny out-of-tree module compiled against a guest
kernel's headers: a mutant of dead code is object-identical (equivalent,
not run), a mutant of live code differs and links into a module, a
mutant that does not compile is `not built` with the compiler's error."""

import glob
import os

import pytest

from e1000epp.mutate import build, ctokens, operators

MODULE = """\
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>

static int tiny_value = 3;
module_param(tiny_value, int, 0444);

static int __init tiny_init(void)
{
\tif (0)
\t\ttiny_value = 7;
\tpr_info("tiny %d\\n", tiny_value + 1);
\treturn 0;
}

static void __exit tiny_exit(void)
{
}

module_init(tiny_init);
module_exit(tiny_exit);
MODULE_LICENSE("GPL");
"""


def _headers():
    for d in sorted(glob.glob("/usr/src/linux-headers-*-amd64")):
        if os.path.isfile(os.path.join(d, "Makefile")) and \
                os.path.isfile(os.path.join(d, ".config")):
            return d
    return None


@pytest.mark.skipif(_headers() is None, reason="no guest kernel headers "
                    "(/usr/src/linux-headers-*-amd64): ./e1000e-pp setup "
                    "or run --driver-src installs them")
def test_equivalent_differing_and_broken_mutants(tmp_path):
    src = tmp_path / "tiny"
    src.mkdir()
    (src / "tiny.c").write_text(MODULE)
    (src / "Makefile").write_text("obj-m += tiny.o\n")
    lines = MODULE.split("\n")
    s = ctokens.Source(MODULE)
    dead = next(m for m in operators.mutants(s, "tiny.c", 10)
                if m.op == "const")                     # 7 -> 8
    live = next(m for m in operators.mutants(s, "tiny.c", 11)
                if m.op == "const")                     # + 1 -> + 2
    broken = operators.Mutant("tiny.c", 12, "ret", 0, (
        operators.Edit(12, 1, 7, "retrun"),))
    b = build.Builder(str(src), _headers(), str(tmp_path / "out"),
                      log=lambda m: None, module="tiny")
    assert os.path.isfile(b.build_base())
    assert set(b.base) == {"tiny.o"}
    assert b.objects_of("tiny.c") == ["tiny.o"]

    r = b.build(dead, lines)
    assert r["verdict"] == build.EQUIVALENT, r
    assert "identical object" in r["reason"]

    ko = str(tmp_path / "live.ko")
    r = b.build(live, lines, ko_dest=ko)
    assert r["verdict"] == build.BUILT, r
    assert r["objects"] == ["tiny.o"] and os.path.isfile(ko)
    assert r["build_s"] > 0

    r = b.build(broken, lines)
    assert r["verdict"] == build.NOT_BUILT
    assert "retrun" in r["reason"]
    # the tree holds the unmutated source again
    tree = os.path.join(b.mdir, "tiny.c")
    assert open(tree).read() == MODULE
