# SPDX-License-Identifier: GPL-2.0-or-later
"""A C tokeniser good enough to mutate a driver's source line by line.

It splits a whole file (so that a block comment or a preprocessor
directive continued over lines is seen as such) into identifiers,
numbers, strings, character constants and punctuators, and drops the
comments. Every token carries its line (1-based), its column span on
that line, whether it belongs to a preprocessor directive, and the
parenthesis depth it sits at. Strings and character constants are
single tokens, so nothing inside them is ever mutated.

Per line it also says what the line is (blank, comment only,
preprocessor, code), and functions() gives every function definition's
line span, for a report's "which function" and for coverage by
function.
"""

import collections
import re

Token = collections.namedtuple("Token", "kind text line col end pp depth")

# Longest first: three-character punctuators, then two, then one.
_PUNCT = ["<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=",
          "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=",
          "|=", "##"]
_SCAN = re.compile(r"""
    (?P<ws>[ \t\f\v\r]+)
  | (?P<nl>\n)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?(?:\*/|\Z))
  | (?P<string>(?:L|u8|u|U)?"(?:\\.|\\\n|[^"\\\n])*")
  | (?P<char>(?:L|u8|u|U)?'(?:\\.|[^'\\\n])*')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<splice>\\\n)
  | (?P<punct>""" + "|".join(re.escape(p) for p in _PUNCT) + r"""|[^\s])
""", re.X | re.S)

# What a line of the file is.
BLANK, COMMENT, INCLUDE, PREPROC, CODE = ("blank", "comment", "include",
                                          "preproc", "code")


class Source:
    """One file's tokens and what each line is."""

    def __init__(self, text):
        self.text = text
        self.lines = text.split("\n")
        self.tokens = []
        self.kind = {}            # line -> BLANK/COMMENT/INCLUDE/...
        self._scan()
        self.by_line = collections.defaultdict(list)
        for i, t in enumerate(self.tokens):
            self.by_line[t.line].append(i)
        self._match = _match_brackets(self.tokens)

    def _scan(self):
        line, line_start, pos = 1, 0, 0
        depth = 0
        pp = False             # inside a preprocessor directive
        pp_kind = None
        at_line_start = True   # only blanks (or comments) so far
        comment_lines = set()
        text = self.text
        while pos < len(text):
            m = _SCAN.match(text, pos)
            kind = m.lastgroup
            s = m.group()
            col = pos - line_start
            if kind == "nl":
                line += 1
                line_start = m.end()
                pp = False
                at_line_start = True
            elif kind == "splice":
                line += 1
                line_start = m.end()
            elif kind in ("lcomment", "bcomment"):
                n = s.count("\n")
                for k in range(line, line + n + 1):
                    comment_lines.add(k)
                if n:
                    line += n
                    line_start = pos + s.rindex("\n") + 1
            elif kind != "ws":
                if at_line_start and s == "#":
                    pp = True
                    nxt = _SCAN.match(text, m.end())
                    while nxt and nxt.lastgroup == "ws":
                        nxt = _SCAN.match(text, nxt.end())
                    pp_kind = nxt.group() if nxt else ""
                at_line_start = False
                if s in ")]":
                    depth -= 1
                self.tokens.append(Token(kind, s, line, col, col + len(s),
                                         pp, depth))
                if s in "([":
                    depth += 1
                if pp:
                    self.kind[line] = (INCLUDE if pp_kind == "include"
                                       else PREPROC)
                else:
                    self.kind[line] = CODE
            pos = m.end()
        for n in range(1, len(self.lines) + 1):
            if n not in self.kind:
                self.kind[n] = COMMENT if n in comment_lines else BLANK

    def line_tokens(self, line):
        """Indexes into self.tokens of the tokens on `line`."""
        return self.by_line.get(line, [])

    def match(self, i):
        """Index of the bracket matching token i, or None."""
        return self._match.get(i)

    def function_at(self, line):
        """The name of the function whose definition holds `line`."""
        if not hasattr(self, "_functions"):
            self._functions = self.functions()
        return next((f for f, a, b in self._functions if a <= line <= b),
                    None)

    def functions(self):
        """[(name, first line, last line)] of every function definition:
        a `{` at brace depth 0 right after a `)`, named by the
        identifier before that `)`'s `(`."""
        out = []
        braces = 0
        toks = self.tokens
        for i, t in enumerate(toks):
            if t.pp:
                continue
            if t.text == "{":
                if braces == 0:
                    j = i - 1
                    while j >= 0 and toks[j].pp:
                        j -= 1
                    if j >= 0 and toks[j].text == ")":
                        o = self.match(j)
                        if o and o > 0 and toks[o - 1].kind == "ident":
                            end = self.match(i)
                            if end is not None:
                                out.append((toks[o - 1].text,
                                            toks[o - 1].line,
                                            toks[end].line))
                braces += 1
            elif t.text == "}":
                braces -= 1
        return out


def _match_brackets(tokens):
    """{index: index} of matching (), [] and {} outside directives."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack, out = [], {}
    for i, t in enumerate(tokens):
        if t.pp:
            continue
        if t.text in pairs:
            stack.append(i)
        elif t.text in (")", "]", "}"):
            while stack and pairs[tokens[stack[-1]].text] != t.text:
                stack.pop()          # unbalanced: best effort
            if stack:
                o = stack.pop()
                out[o] = i
                out[i] = o
    return out


# Words that start a declaration (a type or a storage class) in kernel C.
TYPE_WORDS = frozenset("""
    struct union enum const volatile static extern inline register
    unsigned signed int char short long void bool float double
    u8 u16 u32 u64 s8 s16 s32 s64 __u8 __u16 __u32 __u64 __s8 __s16 __s32
    __s64 __le16 __le32 __le64 __be16 __be32 __be64 __sum16 __wsum
    dma_addr_t size_t ssize_t netdev_tx_t irqreturn_t netdev_features_t
    gfp_t atomic_t spinlock_t resource_size_t
""".split())
STATEMENT_WORDS = frozenset("""return goto break continue if else while for
                               do switch case default sizeof""".split())


def is_pure_declaration(toks):
    """True when the tokens of one line declare without initialising:
    `struct page *page;`, `u32 len, i;`, a prototype or a member. No `=`
    on the line, and it starts with a type word or `T name`/`T *name`."""
    texts = [t.text for t in toks]
    if not texts or "=" in texts:
        return False
    if texts[0] in STATEMENT_WORDS:
        return False
    if texts[0] in TYPE_WORDS:
        return True
    if toks[0].kind != "ident" or len(toks) < 3:
        return False
    k = 1
    while k < len(texts) and texts[k] == "*":
        k += 1
    return (k < len(toks) and toks[k].kind == "ident" and
            texts[-1] in (";", ",", ")", ");"))


def is_only_braces(toks):
    """A line of `{`, `}`, `};`, `else`, `} else {`, `do`: no operand."""
    return all(t.text in ("{", "}", ";", "else", "do") for t in toks)
