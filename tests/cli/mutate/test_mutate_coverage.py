# SPDX-License-Identifier: GPL-2.0-or-later
"""mutate/coverage.py: the functions probed for a judged line (inlined
ones through their callers), the kprobe events' script, the profile
read, and the cells that reach a line."""

from e1000epp.mutate import coverage, ctokens

SRC = """static inline int helper(int x)
{
    return x + 1;
}

static int deep(int y)
{
    return helper(y);
}

int e1000_poll(int z)
{
    return deep(z) + helper(z);
}

static void (*hook)(int) = NULL;
"""

KALLSYMS = """ffffffffc0001000 t e1000_poll\t[e1000e]
ffffffffc0002000 t deep.isra.0\t[e1000e]
ffffffffc0003000 t deep.cold\t[e1000e]
ffffffffc0004000 d e1000_data\t[e1000e]
ffffffff81000000 T schedule
ffffffffc0005000 t other_fn\t[libeth]
"""


def test_module_symbols_are_the_modules_text_only():
    assert coverage.module_symbols(KALLSYMS) == {
        "e1000_poll", "deep.isra.0", "deep.cold"}


def test_clones_are_probed_but_not_cold_parts():
    syms = coverage.module_symbols(KALLSYMS)
    assert coverage.probe_symbols("deep", syms) == ["deep.isra.0"]
    assert coverage.probe_symbols("helper", syms) == []


def test_an_inlined_function_is_judged_by_its_callers():
    src = {"netdev.c": ctokens.Source(SRC)}
    syms = coverage.module_symbols(KALLSYMS)
    assert coverage.callers("helper", src) == {"deep", "e1000_poll"}
    assert coverage.targets({"helper", "e1000_poll", "gone", None}, syms,
                            src) == {
        "e1000_poll": ["e1000_poll"],
        "helper": ["deep.isra.0", "e1000_poll"],
        "gone": [],
        None: [coverage.EVERY_CELL]}


def test_setup_script_and_profile():
    script, names = coverage.setup_script(["e1000_poll", "deep.isra.0"])
    assert names == {"f0": "deep.isra.0", "f1": "e1000_poll"}
    assert "echo 'p:e1000epp_cov/f0 e1000e:deep.isra.0' >> kprobe_events" \
        in script
    assert script.endswith("echo 1 > events/e1000epp_cov/enable")
    text = ("  f0                                              12"
            "               0\n"
            "  f1                                               0"
            "               0\n"
            "  other                                            5"
            "               0\n")
    assert coverage.parse_profile(text, names) == {"deep.isra.0": 12,
                                                   "e1000_poll": 0}


def test_entered_and_reaching():
    before = {"a": 3, "b": 5, "c": 0}
    after = {"a": 3, "b": 2, "c": 4}
    assert coverage.entered(before, after) == ["b", "c"]
    probes = {"f": ["a", "c"], "g": ["a"], "None": [coverage.EVERY_CELL]}
    hits = {"cell1": ["c"], "cell2": ["a"], "cell3": []}
    cells = ["cell1", "cell2", "cell3"]
    assert coverage.reaching("f", probes, hits, cells) == ["cell1", "cell2"]
    assert coverage.reaching("g", probes, hits, cells) == ["cell2"]
    assert coverage.reaching("None", probes, hits, cells) == cells
    assert coverage.reaching("h", probes, hits, cells) == []


def test_a_spin_is_six_readings_in_module_code_never_halted():
    from e1000epp.mutate import guestswap
    mod, kern = 0xffffffffc0a01234, 0xffffffff81001234
    assert guestswap.spinning([(mod, False)] * 6)
    assert not guestswap.spinning([(mod, False)] * 5)
    assert not guestswap.spinning([(mod, False)] * 5 + [(mod, True)])
    assert not guestswap.spinning([(mod, False)] * 5 + [(kern, False)])
    assert not guestswap.spinning([(None, False)] * 6)
