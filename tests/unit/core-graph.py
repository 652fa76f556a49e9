#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The device core's dependencies between files, checked (TAP).

The settle design (docs/architecture.md) gives the core's files a
dependency order: entry points -> settle -> engines -> moderation ->
interrupts, with leaves (log, dma, stats, net) below.  The order is the
"layer" table of docs/architecture.md; this reads it and every core/*.c
and core/*.h, and draws the edges a file depends on:

  - a call from a .c into a non-static e1000e_pp_* function another .c
    defines;
  - a .c including a header: it depends on the concept the header
    belongs to, the .c files that define what the header declares
    (core.h, the adapter's interface, belongs to none; a header of
    types and inline helpers only belongs to none either);
  - a header including another: the first header's concept depends on
    the second's (and so does every file including the first).

It reports:

  - no cycle among the core's files;
  - every .c has a layer in the table, and every edge goes to a lower
    layer or stays in its own;
  - intr.c (interrupts) depends on no other core file but the leaves;
  - no core file, headers included, over 600 lines.

Usage: core-graph.py CORE_DIR [ARCHITECTURE_MD] [--dot]
(--dot prints the graph instead; the table is read from
docs/architecture.md beside CORE_DIR's repository by default)
"""

import os
import re
import sys

DEF = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b(e1000e_pp_\w+)\(",
                 re.M)
CALL = re.compile(r"\b(e1000e_pp_\w+)\s*\(")
PROTO = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b(e1000e_pp_\w+)\(",
                   re.M)
INCLUDE = re.compile(r'^#include "([\w.]+)"', re.M)
LAYER_ROW = re.compile(r"^\|\s*(\d+)\s*\|([^|]*)\|")
LEAVES = {"log.c", "dma.c", "stats.c", "net.c", "coverage.c", "timesync.c"}
# The adapter's interface declares the entry points; it is no concept.
INTERFACE = {"core.h"}
MAX_LINES = 600


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def read_core(core):
    sources, headers = {}, {}
    for name in sorted(os.listdir(core)):
        if name.startswith("crc32_clmul"):
            continue
        if name.endswith(".c") or name.endswith(".h"):
            with open(os.path.join(core, name)) as f:
                (sources if name.endswith(".c") else headers)[name] = f.read()
    return sources, headers


def read_layers(path):
    """The rows "| N | a.c b.c ... | what |" after "Dependency order"."""
    layers = {}
    with open(path) as f:
        text = f.read()
    start = text.find("Dependency order")
    if start < 0:
        return layers
    for line in text[start:].splitlines():
        m = LAYER_ROW.match(line)
        if m:
            for name in re.findall(r"[\w]+\.c", m.group(2)):
                layers[name] = int(m.group(1))
        elif layers and not line.startswith("|"):
            break
    return layers


def owners(sources):
    owner = {}
    for name, text in sources.items():
        for fn in DEF.findall(strip_comments(text)):
            owner.setdefault(fn, name)
    return owner


def header_concepts(headers, owner):
    """Each header: the .c files that define what it declares."""
    concept = {}
    for name, text in headers.items():
        concept[name] = set()
        if name in INTERFACE:
            continue
        for fn in PROTO.findall(strip_comments(text)):
            if fn in owner:
                concept[name].add(owner[fn])
    return concept


def includes(text, known):
    return [h for h in INCLUDE.findall(text) if h in known]


def closure(name, headers):
    """The headers name includes, not through the adapter's interface."""
    seen, todo = set(), [name]
    while todo:
        h = todo.pop()
        if h in INTERFACE:
            continue
        for inc in includes(headers[h], headers):
            if inc not in seen:
                seen.add(inc)
                todo.append(inc)
    return seen


def graph(sources, headers):
    """Edges between .c files (concepts), each with why."""
    owner = owners(sources)
    concept = header_concepts(headers, owner)
    edges = {name: {} for name in sources}

    def add(src, dst, why):
        if dst != src:
            edges[src].setdefault(dst, why)

    for name, text in sources.items():
        body = strip_comments(text)
        for fn in CALL.findall(body):
            dst = owner.get(fn)
            if dst and not re.search(r"^[A-Za-z_][\w \*]*\b%s\(" % fn,
                                     body, re.M):
                add(name, dst, "calls %s" % fn)
        for h in includes(text, headers):
            for dst in concept[h]:
                add(name, dst, "includes %s" % h)
            for inner in closure(h, headers):
                for dst in concept[inner]:
                    add(name, dst, "includes %s via %s" % (inner, h))
    hedges = []
    for h in headers:
        for inner in closure(h, headers):
            for src in concept[h]:
                for dst in concept[inner]:
                    if src != dst:
                        hedges.append((h, inner, src, dst))
    return edges, hedges


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
    args = [a for a in argv[1:] if not a.startswith("--")]
    if not args or not os.path.isdir(args[0]):
        sys.stderr.write("usage: core-graph.py CORE_DIR [ARCHITECTURE_MD] "
                         "[--dot]\n")
        return 2
    core = args[0]
    doc = args[1] if len(args) > 1 else os.path.join(
        core, "..", "..", "..", "..", "docs", "architecture.md")
    sources, headers = read_core(core)
    edges, hedges = graph(sources, headers)
    if "--dot" in argv:
        print("digraph core {")
        for src in sorted(edges):
            for dst in sorted(edges[src]):
                print('  "%s" -> "%s";' % (src, dst))
        print("}")
        return 0
    layers = read_layers(doc)
    print("1..5")
    for src in sorted(edges):
        print("# %s [%s] -> %s" % (src, layers.get(src, "?"),
                                   ", ".join(sorted(edges[src])) or "-"))
    found = cycles(edges)
    print("%s 1 - no cycle among the core's files%s" % (
        "not ok" if found else "ok",
        "".join(" [%s]" % " ".join(c) for c in found)))
    missing = sorted(n for n in sources if n not in layers)
    print("%s 2 - every core .c has a layer in %s%s" % (
        "not ok" if missing or not layers else "ok", os.path.basename(doc),
        " (none: %s)" % ", ".join(missing) if missing else ""))
    up = []
    for src in sorted(edges):
        for dst, why in sorted(edges[src].items()):
            if src in layers and dst in layers and \
                    layers[dst] < layers[src]:
                up.append("%s [%d] -> %s [%d] (%s)" % (
                    src, layers[src], dst, layers[dst], why))
    for h, inner, src, dst in sorted(hedges):
        if src in layers and dst in layers and layers[dst] < layers[src]:
            up.append("%s (%s [%d]) includes %s (%s [%d])" % (
                h, src, layers[src], inner, dst, layers[dst]))
    print("%s 3 - every dependency goes down the layers, headers "
          "included%s" % ("not ok" if up else "ok",
                          "".join("\n# up: %s" % u for u in up)))
    bad = sorted(set(edges.get("intr.c", {})) - LEAVES)
    print("%s 4 - intr.c depends only on leaves%s" % (
        "not ok" if bad else "ok", " (depends on %s)" % ", ".join(bad)
        if bad else ""))
    files = dict(sources, **headers)
    long = ["%s (%d)" % (n, t.count("\n")) for n, t in sorted(files.items())
            if t.count("\n") > MAX_LINES]
    print("%s 5 - no core file, headers included, over %d lines%s" % (
        "not ok" if long else "ok", MAX_LINES,
        " " + ", ".join(long) if long else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
