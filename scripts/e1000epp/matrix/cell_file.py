# SPDX-License-Identifier: GPL-2.0-or-later
"""A user's own matrix cells from a TOML file (`run --cells FILE`).

One table per cell, in the vocabulary of cell_model.Cell:

    [[cell]]
    mtu = 9000              # one of cell_model.MTUS
    crc = "keep"            # strip | keep | rxfcs        (default strip)
    irq = "msix"            # msix | msi | intx           (default msix)
    iommu = "noiommu"       # noiommu | iommu | bounce    (default noiommu)
    vlan = false            # traffic through eth0.100    (default false)
    copybreak = 0           # module parameter            (default: none)
    family = "errcrc"       # cell_model.FAMILIES             (default: none)

The cells run, report, shard and baseline exactly like a built-in
matrix's. A file that does not parse, or a cell with an unknown key or
value, is refused naming the file, the line and the reason.
"""

import tomllib

from e1000epp.matrix import cell_model
_DEFAULTS = {"crc": "strip", "irq": "msix", "iommu": "noiommu",
             "vlan": False, "copybreak": None, "family": None}
_CHOICES = {"mtu": cell_model.MTUS, "crc": cell_model.CRCS, "irq": cell_model.IRQS,
            "iommu": cell_model.DMA_PATHS, "family": tuple(cell_model.FAMILIES)}


def _cell_lines(text):
    """The line number of each [[cell]] header, in order."""
    return [n for n, line in enumerate(text.splitlines(), 1)
            if line.strip().replace(" ", "") == "[[cell]]"]


def _bad(path, line, reason):
    return cell_model.MatrixError(f"{path}:{line}: {reason}",
                                  "see docs/usage/cells.md, \"Your own cells\"")


def _value(path, line, k, key, value):
    if key in ("mtu", "copybreak"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise _bad(path, line, f"cell {k}: {key} = {value!r} is not "
                       "an integer")
        if key == "copybreak" and not 0 <= value <= 65535:
            raise _bad(path, line, f"cell {k}: copybreak = {value} is "
                       "not 0..65535")
    if key == "vlan" and not isinstance(value, bool):
        raise _bad(path, line, f"cell {k}: vlan = {value!r} is not true "
                   "or false")
    if key in _CHOICES and value not in _CHOICES[key]:
        raise _bad(path, line, f"cell {k}: {key} = {value!r} is not one "
                   "of " + ", ".join(map(str, _CHOICES[key])))
    return value


def load(path):
    """[cell_model.Cell] from the file; MatrixError naming the line."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise cell_model.MatrixError(f"--cells {path}: {e.strerror}",
                                     "give a readable TOML file")
    text = raw.decode("utf-8", errors="replace")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # The parser's message ends "(at line N, column M)".
        raise cell_model.MatrixError(f"--cells {path}: not TOML: {e}",
                                     "see docs/usage/cells.md, \"Your own cells\"")
    extra = sorted(set(data) - {"cell"})
    if extra:
        raise _bad(path, 1, f"unknown table or key {extra[0]!r} (only "
                   "[[cell]] tables)")
    tables = data.get("cell")
    if not isinstance(tables, list) or not tables:
        raise _bad(path, 1, "no [[cell]] table")
    lines = _cell_lines(text)
    cells, seen = [], {}
    for k, t in enumerate(tables, 1):
        line = lines[k - 1] if k <= len(lines) else 1
        unknown = sorted(set(t) - {"mtu"} - set(_DEFAULTS))
        if unknown:
            raise _bad(path, line, f"cell {k}: unknown key {unknown[0]!r}")
        if "mtu" not in t:
            raise _bad(path, line, f"cell {k}: no mtu")
        args = dict(_DEFAULTS)
        for key, value in t.items():
            args[key] = _value(path, line, k, key, value)
        cell = cell_model.Cell(args["mtu"], args["crc"], args["irq"],
                               args["iommu"], args["vlan"], args["copybreak"],
                               args["family"])
        if cell.name in seen:
            raise _bad(path, line, f"cell {k}: {cell.name} is cell "
                       f"{seen[cell.name]} again")
        seen[cell.name] = k
        cells.append(cell)
    return cells
