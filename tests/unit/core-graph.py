#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The device core's call graph between files, checked for cycles (TAP).

The settle design (docs/architecture.md) gives the core's files a
dependency order: entry points -> settle -> engines -> moderation ->
interrupts, with leaves (log, dma, stats, net) below.  This reads every
core/*.c, maps each non-static e1000e_pp_* function to the file that
defines it, draws an edge for every call into another file, and reports:

  - no cycle among the core's files at all;
  - intr.c (interrupts) calls no other core file but the leaves;
  - no core source file over 600 lines.

Usage: core-graph.py CORE_DIR [--dot]   (--dot prints the graph instead)
"""

import os
import re
import sys

DEF = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b(e1000e_pp_\w+)\(",
                 re.M)
CALL = re.compile(r"\b(e1000e_pp_\w+)\s*\(")
LEAVES = {"log.c", "dma.c", "stats.c", "net.c", "power.c"}
MAX_LINES = 600


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def read_core(core):
    files = {}
    for name in sorted(os.listdir(core)):
        if name.endswith(".c") and not name.startswith("crc32_clmul"):
            with open(os.path.join(core, name)) as f:
                files[name] = f.read()
    return files


def graph(files):
    owner = {}
    for name, text in files.items():
        for fn in DEF.findall(strip_comments(text)):
            owner.setdefault(fn, name)
    edges = {name: set() for name in files}
    for name, text in files.items():
        body = strip_comments(text)
        for fn in CALL.findall(body):
            dst = owner.get(fn)
            if dst and dst != name and not DEF.search(
                    "%s(" % fn) and not re.search(
                        r"^[A-Za-z_][\w \*]*\b%s\(" % fn, body, re.M):
                edges[name].add(dst)
    return edges


def cycles(edges):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 2 or not os.path.isdir(argv[1]):
        sys.stderr.write("usage: core-graph.py CORE_DIR [--dot]\n")
        return 2
    files = read_core(argv[1])
    edges = graph(files)
    if "--dot" in argv:
        print("digraph core {")
        for src in sorted(edges):
            for dst in sorted(edges[src]):
                print('  "%s" -> "%s";' % (src, dst))
        print("}")
        return 0
    print("1..3")
    for src in sorted(edges):
        print("# %s -> %s" % (src, ", ".join(sorted(edges[src])) or "-"))
    found = cycles(edges)
    print("%s 1 - no cycle among the core's files%s" % (
        "not ok" if found else "ok",
        "".join(" [%s]" % " ".join(c) for c in found)))
    bad = sorted(edges.get("intr.c", set()) - LEAVES)
    print("%s 2 - intr.c calls only leaves%s" % (
        "not ok" if bad else "ok", " (calls %s)" % ", ".join(bad)
        if bad else ""))
    long = ["%s (%d)" % (n, t.count("\n")) for n, t in files.items()
            if t.count("\n") > MAX_LINES]
    print("%s 3 - no core file over %d lines%s" % (
        "not ok" if long else "ok", MAX_LINES,
        " " + ", ".join(long) if long else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
