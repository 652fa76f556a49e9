# SPDX-License-Identifier: GPL-2.0-or-later
"""Mutants of one line of C: the operators and their sites.

The operators come from the mutation-testing literature (Offutt et al.'s
sufficient set: relational, arithmetic, logical, constant replacement,
statement deletion; Kaminski, Ammann and Offutt's minimal relational
replacements) cut to what breaks a NIC driver, as its bug history shows
(off-by-one lengths and thresholds, a lost put/free/sync/unmap, a
counter not updated, a wrong error return, a condition inverted):

  rel    < -> <=, !=   <= -> <, ==   > -> >=, !=   >= -> >, ==
         == -> <=, >=  != -> <, >    (the non-constant members of
         Kaminski's sufficient set; the constant ones are `force`)
  arith  binary + <-> -, += <-> -=, ++ <-> --
  const  an integer literal +1 and -1; sizeof(...) +1 and -1; a named
         constant (UPPER_CASE, not a macro call) next to a binary
         + - * / +1 and -1
  neg    if (c) -> if (!(c))
  del    a statement that is only a call (a put, free, sync, unmap,
         enable...) or only a counter update (x++, x += n, x |= f)
         removed; logging, prefetches and WARN/BUILD_BUG checks are not
         removed (the object changes, the behaviour a test sees does not)
  swap   two adjacent arguments of a call of the same kind (both plain
         names, both &names, both constants) exchanged
  ret    return true <-> false; return 0 -> 1; return E -> 0; return err
         -> -err for an error variable (err, ret, rc, error, retval)
  force  if (c) -> if (1), if (0)
  logic  && <-> ||

A mutant's id is file:line:operator:n, n counting that operator's
mutants on the line from 0 in token order (then replacement order), so
ids are stable while the line's text is. Preprocessor lines (#define
bodies) are not mutated: a macro's expansion is mutated where it is
used, at the use's line. A condition spanning lines is negated or forced
by an edit on its first and last line (`if (!(` ... `))`, `if (1 || (`
... `))`); every other mutant changes one line.
"""

import collections
import re

from e1000epp.mutate import ctokens

OPERATORS = ("rel", "arith", "const", "neg", "del", "swap", "ret", "force",
             "logic")
Edit = collections.namedtuple("Edit", "line col end text")


class Mutant(collections.namedtuple("Mutant", "file line op n edits")):
    @property
    def id(self):
        return f"{self.file}:{self.line}:{self.op}:{self.n}"

    name = id      # what matrix.cell_model.shard orders by

    def sort_key(self):
        return sort_key(self.id)


def sort_key(mutant_id):
    """Order of ids: by file, line (as a number), operator, n."""
    f, line, op, n = mutant_id.rsplit(":", 3)
    return (f, int(line), OPERATORS.index(op) if op in OPERATORS else 99,
            op, int(n))


REL = {"<": ("<=", "!="), "<=": ("<", "=="), ">": (">=", "!="),
       ">=": (">", "=="), "==": ("<=", ">="), "!=": ("<", ">")}
ARITH = {"+": "-", "-": "+", "+=": "-=", "-=": "+=", "++": "--", "--": "++"}
COMPOUND = ("++", "--", "+=", "-=", "|=", "&=", "^=", "<<=", ">>=", "*=",
            "/=")
KEYWORDS = ctokens.STATEMENT_WORDS | {"typeof", "__typeof__", "asm"}
NOT_REMOVED = re.compile(
    r"^(e_(dbg|err|info|warn|notice)|netdev_(dbg|info|warn|err|notice)|"
    r"netif_(dbg|info|warn|err|notice)|pr_\w+|dev_(dbg|info|warn|err|"
    r"notice|printk)\w*|printk\w*|\w*prefetch\w*|WARN\w*|BUILD_BUG\w*|"
    r"might_sleep|trace_\w+|print_hex_dump\w*)$")
INT = re.compile(r"^(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0[0-7]*)([uUlL]*)$")
UPPER = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z][A-Z0-9_]*$")
ERROR_VARS = ("err", "ret", "rc", "error", "retval")


def mutants(src, file, line):
    """The mutants of `line` (1-based) of Source `src`, in id order."""
    idx = [i for i in src.line_tokens(line) if not src.tokens[i].pp]
    if not idx:
        return []
    found = {op: [] for op in OPERATORS}
    g = _Line(src, line)
    for i in idx:
        t = src.tokens[i]
        if t.text in REL:
            for r in REL[t.text]:
                found["rel"].append([g.replace(i, r)])
        if t.text in ARITH and (t.text not in "+-" or g.binary(i)):
            found["arith"].append([g.replace(i, ARITH[t.text])])
        if t.text in ("&&", "||"):
            found["logic"].append([g.replace(i, "||" if t.text == "&&"
                                             else "&&")])
        if t.kind == "number":
            for text in _literal_pm1(t.text):
                found["const"].append([g.replace(i, text)])
        elif t.text == "sizeof" and g.next_is(i, "("):
            close = src.match(i + 1)
            if close is not None and src.tokens[close].line == line:
                for sign in ("+", "-"):
                    found["const"].append([
                        Edit(line, t.col, t.col, "("),
                        Edit(line, src.tokens[close].end,
                             src.tokens[close].end, f" {sign} 1)")])
        elif t.kind == "ident" and UPPER.match(t.text) and \
                not g.next_is(i, "(") and g.next_to_arith(i):
            for sign in ("+", "-"):
                found["const"].append([g.replace(i, f"({t.text} {sign} 1)")])
        if t.text == "if" and g.next_is(i, "("):
            _conditions(g, i, found)
        if t.text == "return":
            _returns(g, i, found)
        if g.statement_start(i) and src.function_at(line):
            _removal(g, i, found)
        if t.kind == "ident" and t.text not in KEYWORDS and \
                g.next_is(i, "("):
            _swaps(g, i + 1, found)
    out = []
    for op in OPERATORS:
        for n, edits in enumerate(found[op]):
            out.append(Mutant(file, line, op, n, tuple(edits)))
    return out


class _Line:
    """Token helpers for one line of a Source."""

    def __init__(self, src, line):
        self.src = src
        self.line = line
        self.toks = src.tokens

    def replace(self, i, text):
        t = self.toks[i]
        return Edit(t.line, t.col, t.end, text)

    def prev(self, i):
        j = i - 1
        while j >= 0 and self.toks[j].pp:
            j -= 1
        return self.toks[j] if j >= 0 else None

    def next_is(self, i, text):
        return i + 1 < len(self.toks) and self.toks[i + 1].text == text

    def binary(self, i):
        p = self.prev(i)
        return p is not None and (
            p.text in (")", "]") or
            (p.kind in ("ident", "number", "string", "char") and
             p.text not in KEYWORDS))

    def next_to_arith(self, i):
        def arith(j):
            return 0 <= j < len(self.toks) and \
                self.toks[j].text in ("+", "-", "*", "/") and self.binary(j)
        return arith(i + 1) or arith(i - 1)

    def statement_start(self, i):
        t = self.toks[i]
        if t.depth != 0 or t.pp:
            return False
        p = self.prev(i)
        if p is None:
            return False
        if p.text in (";", "{", "}", "else"):
            return True
        if p.text == ":":
            return self.src.by_line.get(t.line, [None])[0] == i
        if p.text == ")":
            o = self.src.match(i - 1)
            return o is not None and o > 0 and \
                self.toks[o - 1].text in ("if", "for", "while")
        return False

    def end_of_statement(self, i):
        """Index of the `;` ending the statement from i, at its depth."""
        d = self.toks[i].depth
        j = i
        while j < len(self.toks):
            t = self.toks[j]
            if t.text == ";" and t.depth == d:
                return j
            if t.text in ("{", "}") and not t.pp:
                return None
            j += 1
        return None


def _literal_pm1(text):
    m = INT.match(text)
    if not m:
        return []
    digits, suffix = m.groups()
    if digits.lower().startswith("0x"):
        v = int(digits, 16)
        upper = any(c in "ABCDEF" for c in digits[2:])

        def fmt(x):
            s = format(x, "X" if upper else "x")
            return digits[:2] + s.zfill(len(digits) - 2)
    elif digits != "0" and digits.startswith("0"):
        v = int(digits, 8)

        def fmt(x):
            return "0" + format(x, "o")
    else:
        v = int(digits)

        def fmt(x):
            return str(x)
    out = [fmt(v + 1) + suffix]
    out.append(fmt(v - 1) + suffix if v > 0 else "(-1)")
    return out


def _conditions(g, i, found):
    src, toks = g.src, g.toks
    open_ = i + 1
    close = src.match(open_)
    if close is None:
        return
    o, c = toks[open_], toks[close]
    if c.line == o.line:
        found["neg"].append([Edit(o.line, o.end, o.end, "!("),
                             Edit(c.line, c.col, c.col, ")")])
        for value in ("1", "0"):
            found["force"].append([Edit(o.line, o.end, c.col, value)])
        return
    found["neg"].append([Edit(o.line, o.end, o.end, "!("),
                         Edit(c.line, c.col, c.col, ")")])
    for value, op in (("1", "||"), ("0", "&&")):
        found["force"].append([Edit(o.line, o.end, o.end, f"{value} {op} ("),
                               Edit(c.line, c.col, c.col, ")")])


def _returns(g, i, found):
    end = g.end_of_statement(i)
    toks = g.toks
    if end is None or end == i + 1 or toks[end].line != toks[i].line:
        return
    expr = [t.text for t in toks[i + 1:end]]
    first, last = toks[i + 1], toks[end - 1]
    texts = []
    if expr == ["true"]:
        texts = ["false"]
    elif expr == ["false"]:
        texts = ["true"]
    elif expr == ["0"]:
        texts = ["1"]
    elif expr in (["NULL"],):
        texts = []
    else:
        texts = ["0"]
        if len(expr) == 1 and expr[0] in ERROR_VARS:
            texts.append("-" + expr[0])
    for text in texts:
        found["ret"].append([Edit(first.line, first.col, last.end, text)])


def _removal(g, i, found):
    toks = g.toks
    t = toks[i]
    end = g.end_of_statement(i)
    if end is None:
        return
    # a call: name ((. | ->) name)* ( ... ) ;
    if g.next_is(i, ":"):
        return          # a label: the statement after it starts its own
    j = i
    is_call = False
    if t.kind == "ident" and t.text not in KEYWORDS:
        while j + 2 < end and toks[j + 1].text in (".", "->") and \
                toks[j + 2].kind == "ident":
            j += 2
        if toks[j + 1].text == "(" and g.src.match(j + 1) == end - 1:
            is_call = not NOT_REMOVED.match(toks[j].text)
            if not is_call:
                return
    counter = not is_call and t.text not in KEYWORDS and any(
        toks[k].text in COMPOUND and toks[k].depth == t.depth
        for k in range(i, end)) and not any(
        toks[k].text == "=" for k in range(i, end))
    if not (is_call or counter):
        return
    if toks[end].line == t.line:
        found["del"].append([Edit(t.line, t.col, toks[end].end, ";")])
        return
    p = g.prev(i)
    prefix = "if (0) " if p.text in (";", "{", "}", ":") else \
        "if (1) ; else "
    found["del"].append([Edit(t.line, t.col, t.col, prefix)])


def _kind(arg):
    texts = [t.text for t in arg]
    if len(arg) == 1 and (arg[0].kind == "number" or
                          UPPER.match(arg[0].text) or
                          arg[0].text in ("true", "false", "NULL")):
        return "const"
    if texts and texts[0] in ctokens.TYPE_WORDS:
        return None
    body = arg[1:] if texts and texts[0] == "&" else arg
    if not body or body[0].kind != "ident":
        return None
    k = 1
    while k + 1 < len(body) and body[k].text in (".", "->") and \
            body[k + 1].kind == "ident":
        k += 2
    if k != len(body):
        return None
    return "ref" if texts[0] == "&" else "name"


def _swaps(g, open_, found):
    toks = g.toks
    close = g.src.match(open_)
    if close is None:
        return
    args, cur = [], []
    for k in range(open_ + 1, close):
        t = toks[k]
        if t.text == "," and t.depth == toks[open_].depth + 1:
            args.append(cur)
            cur = []
        else:
            cur.append(t)
    args.append(cur)
    for a, b in zip(args, args[1:]):
        if not a or not b or a[0].line != g.line or b[-1].line != g.line \
                or a[-1].line != g.line:
            continue
        ka = _kind(a)
        if ka is None or ka != _kind(b):
            continue
        ta = " ".join(t.text for t in a)
        tb = " ".join(t.text for t in b)
        if ta == tb:
            continue
        line = g.src.lines[g.line - 1]
        sep = line[a[-1].end:b[0].col]
        text_a = line[a[0].col:a[-1].end]
        text_b = line[b[0].col:b[-1].end]
        found["swap"].append([Edit(g.line, a[0].col, b[-1].end,
                                   text_b + sep + text_a)])


def apply(lines, edits):
    """The file's lines with the edits made (each on one line, right to
    left so the columns stay right)."""
    out = list(lines)
    for e in sorted(edits, key=lambda e: (e.line, e.col, e.end),
                    reverse=True):
        s = out[e.line - 1]
        out[e.line - 1] = s[:e.col] + e.text + s[e.end:]
    return out


def describe(lines, m):
    """(the mutated line, the diff: '-old' and '+new' per changed line)."""
    new = apply(lines, m.edits)
    diff = []
    for n in sorted({e.line for e in m.edits}):
        diff.append(f"-{lines[n - 1].strip()}")
        diff.append(f"+{new[n - 1].strip()}")
    return new[m.line - 1], diff
