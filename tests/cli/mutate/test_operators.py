# SPDX-License-Identifier: GPL-2.0-or-later
"""mutate's operators: exact input, exact mutated lines and ids; ids
stable from run to run; nothing mutated inside strings, characters,
comments or #define lines."""

from e1000epp.mutate import ctokens, operators

SAMPLE = """\
static int f(struct a *p, int n, int m)
{
\tint x = 0;

\tif (p->len < n + 4)
\t\tx++;
\tif (a && b)
\t\treturn -EINVAL;
\tkfree(p);
\tmemcpy(dst, src, sizeof(*dst));
\tfoo(n, m, "a<b", 'x');
\tlen -= ETH_FCS_LEN;
\ty = 0x1F + PAGE_SIZE;
\te_dbg("n %d\\n", n); /* a < b */
\tif (x == 3 ||
\t    x != m)
\t\tbar(p,
\t\t    n);
\treturn err;
}
#define G(x) ((x) + 1)
MODULE_IMPORT_NS(LIBETH);
"""

# id -> the changed lines of the mutated file
EXPECTED = {
    "s.c:3:const:0": ["\tint x = 1;"],
    "s.c:3:const:1": ["\tint x = (-1);"],
    "s.c:5:rel:0": ["\tif (p->len <= n + 4)"],
    "s.c:5:rel:1": ["\tif (p->len != n + 4)"],
    "s.c:5:arith:0": ["\tif (p->len < n - 4)"],
    "s.c:5:const:0": ["\tif (p->len < n + 5)"],
    "s.c:5:const:1": ["\tif (p->len < n + 3)"],
    "s.c:5:neg:0": ["\tif (!(p->len < n + 4))"],
    "s.c:5:force:0": ["\tif (1)"],
    "s.c:5:force:1": ["\tif (0)"],
    "s.c:6:arith:0": ["\t\tx--;"],
    "s.c:6:del:0": ["\t\t;"],
    "s.c:7:neg:0": ["\tif (!(a && b))"],
    "s.c:7:force:0": ["\tif (1)"],
    "s.c:7:force:1": ["\tif (0)"],
    "s.c:7:logic:0": ["\tif (a || b)"],
    "s.c:8:ret:0": ["\t\treturn 0;"],
    "s.c:9:del:0": ["\t;"],
    "s.c:10:const:0": ["\tmemcpy(dst, src, (sizeof(*dst) + 1));"],
    "s.c:10:const:1": ["\tmemcpy(dst, src, (sizeof(*dst) - 1));"],
    "s.c:10:del:0": ["\t;"],
    "s.c:10:swap:0": ["\tmemcpy(src, dst, sizeof(*dst));"],
    "s.c:11:del:0": ["\t;"],
    "s.c:11:swap:0": ["\tfoo(m, n, \"a<b\", 'x');"],
    "s.c:12:arith:0": ["\tlen += ETH_FCS_LEN;"],
    "s.c:12:del:0": ["\t;"],
    "s.c:13:arith:0": ["\ty = 0x1F - PAGE_SIZE;"],
    "s.c:13:const:0": ["\ty = 0x20 + PAGE_SIZE;"],
    "s.c:13:const:1": ["\ty = 0x1E + PAGE_SIZE;"],
    "s.c:13:const:2": ["\ty = 0x1F + (PAGE_SIZE + 1);"],
    "s.c:13:const:3": ["\ty = 0x1F + (PAGE_SIZE - 1);"],
    "s.c:15:rel:0": ["\tif (x <= 3 ||"],
    "s.c:15:rel:1": ["\tif (x >= 3 ||"],
    "s.c:15:const:0": ["\tif (x == 4 ||"],
    "s.c:15:const:1": ["\tif (x == 2 ||"],
    "s.c:15:neg:0": ["\tif (!(x == 3 ||", "\t    x != m))"],
    "s.c:15:force:0": ["\tif (1 || (x == 3 ||", "\t    x != m))"],
    "s.c:15:force:1": ["\tif (0 && (x == 3 ||", "\t    x != m))"],
    "s.c:15:logic:0": ["\tif (x == 3 &&"],
    "s.c:16:rel:0": ["\t    x < m)"],
    "s.c:16:rel:1": ["\t    x > m)"],
    "s.c:17:del:0": ["\t\tif (1) ; else bar(p,"],
    "s.c:19:ret:0": ["\treturn 0;"],
    "s.c:19:ret:1": ["\treturn -err;"],
}


def _all(text):
    src = ctokens.Source(text)
    lines = text.split("\n")
    out = {}
    for n in range(1, len(lines) + 1):
        for m in operators.mutants(src, "s.c", n):
            new = operators.apply(lines, m.edits)
            changed = sorted({e.line for e in m.edits})
            out[m.id] = [new[k - 1] for k in changed]
    return out


def test_every_operator_exact_lines_and_ids():
    got = _all(SAMPLE)
    assert got == EXPECTED
    # every operator has a site in the sample
    assert {i.split(":")[2] for i in got} == set(operators.OPERATORS)


def test_ids_are_stable_and_in_order():
    first = list(_all(SAMPLE))
    assert first == list(_all(SAMPLE))
    assert first == sorted(first, key=operators.sort_key)


def test_strings_chars_comments_and_defines_are_not_mutated():
    got = _all(SAMPLE)
    assert not any(":14:" in i for i in got)     # e_dbg, a comment
    assert not any(":21:" in i for i in got)     # #define
    assert not any(":22:" in i for i in got)     # a call at file scope
    assert all("a<b" in v[0] for i, v in got.items()
               if ":11:" in i and ":del:" not in i)


def test_hex_and_octal_literals_keep_their_form():
    assert operators._literal_pm1("0x800") == ["0x801", "0x7ff"]
    assert operators._literal_pm1("0xFFu") == ["0x100u", "0xFEu"]
    assert operators._literal_pm1("010") == ["011", "07"]
    assert operators._literal_pm1("0") == ["1", "(-1)"]
    assert operators._literal_pm1("1.5") == []


def test_describe_gives_the_one_line_diff():
    lines = SAMPLE.split("\n")
    m = next(m for m in operators.mutants(ctokens.Source(SAMPLE), "s.c", 5)
             if m.op == "rel")
    mutated, diff = operators.describe(lines, m)
    assert mutated == "\tif (p->len <= n + 4)"
    assert diff == ["-if (p->len < n + 4)", "+if (p->len <= n + 4)"]


def test_line_kinds_and_functions():
    src = ctokens.Source(SAMPLE + "/* a\n * b */\n#include <x.h>\n")
    assert src.kind[4] == ctokens.BLANK
    assert src.kind[21] == ctokens.PREPROC
    assert src.kind[24] == ctokens.COMMENT
    assert src.kind[25] == ctokens.INCLUDE
    assert src.functions() == [("f", 1, 20)]
    decl = [src.tokens[i] for i in ctokens.Source(
        "struct page *page;").line_tokens(1)]
    assert ctokens.is_pure_declaration(decl)
    init = [src.tokens[i] for i in src.line_tokens(3)]
    assert not ctokens.is_pure_declaration(init)
