# SPDX-License-Identifier: GPL-2.0-or-later
"""Which cells execute a mutated line: function-level coverage from one
run of the unmutated driver (mutate/judge.py runs it, with the
baseline).

A line is reached by a cell when the cell enters the function holding
it. Entries are counted by kprobe events in the guest (tracefs
kprobe_events, CONFIG_KPROBE_EVENTS=y in Debian's kernels; the
function profiler is not built in): one `p:e1000epp_cov/fN
e1000e:SYMBOL` per probed function, defined once per boot. A probe on
a module's symbol outlives rmmod/insmod (the kernel re-registers it
when the module comes back), so the cells' own module reloads keep
it; its hit count (tracefs kprobe_profile) is read before and after
every cell.

Only functions the compiler kept can be probed (the module's text
symbols in /proc/kallsyms, with their .isra/.constprop/.part clones). A
function inlined everywhere is replaced by the functions that call it
(found in the driver's sources: an identifier followed by `(`, or taken
as a function pointer), up to INLINE_DEPTH levels: a cell that enters a
caller may not run the inlined body, so such a line is judged by more
cells than strictly reach it, never fewer. A line outside any function
(an initialiser) is reached by every cell, which loads the module.
"""

import re

GROUP = "e1000epp_cov"
TRACING = "/sys/kernel/tracing"
INLINE_DEPTH = 3
# Every cell: a line outside any function (the module's data).
EVERY_CELL = "*"
_CLONE = re.compile(r"^(\w+)\.(isra|constprop|part|cold)\.\d+")


def module_symbols(kallsyms, module="e1000e"):
    """The text symbols of `module` in /proc/kallsyms lines."""
    out = set()
    for ln in kallsyms.splitlines():
        f = ln.split()
        if len(f) >= 4 and f[1] in "tT" and f[3] == f"[{module}]":
            out.add(f[2])
    return out


def probe_symbols(function, symbols):
    """The symbols of `function` itself: its name and its clones (not
    .cold parts, which are not entered from the top)."""
    out = []
    for s in sorted(symbols):
        m = _CLONE.match(s)
        if s == function or (m and m.group(1) == function and
                             m.group(2) != "cold"):
            out.append(s)
    return out


def callers(function, sources):
    """Functions of the driver's sources ({file: ctokens.Source}) that
    name `function` (a call or a function pointer)."""
    out = set()
    for src in sources.values():
        spans = src.functions()
        for t in src.tokens:
            if t.kind == "ident" and t.text == function:
                for name, a, b in spans:
                    if a <= t.line <= b and name != function:
                        out.add(name)
    return out


def targets(functions, symbols, sources):
    """{function: [symbols to probe]} for the judged lines' functions:
    its own symbols, else (inlined) its callers' up to INLINE_DEPTH
    levels; [EVERY_CELL] for None (a line outside functions); [] when
    nothing probeable calls it."""
    out = {}
    for fn in sorted({f for f in functions if f}):
        seen, level, found = {fn}, [fn], []
        for _ in range(INLINE_DEPTH + 1):
            nxt = []
            for f in level:
                own = probe_symbols(f, symbols)
                if own:
                    found += own
                else:
                    nxt += sorted(callers(f, sources) - seen)
            if not nxt:
                break
            seen.update(nxt)
            level = nxt
        out[fn] = sorted(set(found))
    if None in functions:
        out[None] = [EVERY_CELL]
    return out


def setup_script(symbols, module="e1000e"):
    """(shell command defining and enabling one kprobe event per symbol,
    {event name: symbol})."""
    names = {f"f{i}": s for i, s in enumerate(sorted(symbols))}
    cmd = [f"mountpoint -q {TRACING} || mount -t tracefs nodev {TRACING}",
           f"cd {TRACING}",
           f"echo 0 > events/{GROUP}/enable 2>/dev/null",
           f"sed -n 's/^p:{GROUP}\\/\\([^ ]*\\) .*/-:{GROUP}\\/\\1/p' "
           "kprobe_events > /tmp/cov.del; cat /tmp/cov.del >> kprobe_events"]
    for ev, sym in names.items():
        cmd.append(f"echo 'p:{GROUP}/{ev} {module}:{sym}' >> kprobe_events")
    cmd.append(f"echo 1 > events/{GROUP}/enable")
    return " && ".join(cmd[:2]) + "; " + "; ".join(cmd[2:]), names


def profile_command():
    return f"cat {TRACING}/kprobe_profile"


def parse_profile(text, names):
    """{symbol: hits} from kprobe_profile (`EVENT NHIT NMISSED`)."""
    out = {}
    for ln in text.splitlines():
        f = ln.split()
        if len(f) == 3 and f[0] in names and f[1].isdigit():
            out[names[f[0]]] = int(f[1])
    return out


def entered(before, after):
    """The symbols entered between two readings (a count that went down
    was re-created: entered if it is above 0)."""
    return sorted(s for s, n in after.items()
                  if n > before.get(s, 0) or (n < before.get(s, 0) and n))


def reaching(function, probes, cell_hits, cells):
    """The cells (in `cells` order) that reach a line of `function`."""
    syms = probes.get(function, [])
    if EVERY_CELL in syms:
        return list(cells)
    return [c for c in cells if set(cell_hits.get(c, ())) & set(syms)]
