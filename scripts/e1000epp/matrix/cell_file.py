# SPDX-License-Identifier: GPL-2.0-or-later
"""A user's own matrix cells from a TOML file (`run --cells FILE`).

One table per cell, in the vocabulary of cell_model.Cell and
cell_settings.Settings (docs/usage/cells.md, "Your own cells"):

    [[cell]]
    mtu = 3000              # 104..9212                   (required)
    crc = "keep"            # strip | keep | rxfcs        (default strip)
    irq = "msix"            # msix | msi | intx           (default msix)
    iommu = "noiommu"       # noiommu | iommu | bounce    (default noiommu)
    vlan = false            # traffic through eth0.100    (default false)
    copybreak = 0           # module parameter            (default: none)
    family = "errcrc"       # cell_model.FAMILIES         (default: none)
    params = { RxIntDelay = 0, InterruptThrottleRate = 0 }   # e1000e's
    ring_rx = 64            # ethtool -G eth0 rx N        (64..4096, x8)
    ring_tx = 64            # ethtool -G eth0 tx N
    rx_usecs = 1000         # ethtool -C eth0 rx-usecs N
    gro = "off"             # ethtool -K: gro, tso, rx, tx: "on" | "off"
    knobs = { "x-rx-fetch-limit" = 16 }   # the device's configuration
    lengths = [100, 256, 257]   # more pattern frame lengths, both ways
    expect = ["rnbc"]       # more situations the cell must produce

The cells run, report, shard and baseline exactly like a built-in
matrix's. A file that does not parse, or a cell with an unknown key or
value, is refused naming the file, the line and the reason.
"""

import tomllib

from e1000epp.matrix import cell_model, cell_settings
from e1000epp.matrix.cell_settings import SettingError
from e1000epp.matrix.situations import SITUATIONS, UNREACHABLE

_DEFAULTS = {"crc": "strip", "irq": "msix", "iommu": "noiommu",
             "vlan": False, "copybreak": None, "family": None}
_CHOICES = {"crc": cell_model.CRCS, "irq": cell_model.IRQS,
            "iommu": cell_model.DMA_PATHS,
            "family": tuple(cell_model.FAMILIES)}
_SETTINGS = ("params", "ring_rx", "ring_tx", "rx_usecs", "knobs", "lengths",
             "expect") + tuple(cell_settings.OFFLOADS)
_REACHABLE = [s for s in SITUATIONS if s not in UNREACHABLE]
_SEE = "see docs/usage/cells.md, \"Your own cells\""
_INTS = ("mtu", "copybreak", "ring_rx", "ring_tx", "rx_usecs")


class FileCell(cell_model.Cell):
    """A cell of a file: a built-in cell's traffic, plus the file's
    pattern-frame lengths (`lengths`) in both directions."""

    __slots__ = ()

    def frame_lengths(self, *args, **kwargs):
        return sorted(set(super().frame_lengths(*args, **kwargs)) |
                      set(self.settings.lengths))


def _cell_lines(text):
    """The line number of each [[cell]] header, in order."""
    return [n for n, line in enumerate(text.splitlines(), 1)
            if line.strip().replace(" ", "") == "[[cell]]"]


def _bad(path, line, reason):
    return cell_model.MatrixError(f"{path}:{line}: {reason}", _SEE)


def _int(key, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise SettingError(f"{key} = {value!r} is not an integer")
    return value


def _table(key, value):
    if not isinstance(value, dict):
        raise SettingError(f"{key} = {value!r} is not a table "
                           f"({key} = {{ NAME = VALUE }})")
    return value


def _list(key, value):
    if not isinstance(value, list):
        raise SettingError(f"{key} = {value!r} is not a list")
    return value


def _value(key, value):
    """The checked value of one key (SettingError: why not)."""
    if key in _INTS:
        _int(key, value)
    if key == "mtu":
        cell_settings.check_mtu(value)
    elif key == "copybreak" and not 0 <= value <= 65535:
        raise SettingError(f"copybreak = {value} is not 0..65535")
    elif key in ("ring_rx", "ring_tx"):
        cell_settings.check_ring(key[5:], value)
    elif key == "rx_usecs":
        cell_settings.check_usecs(value)
    elif key == "vlan" and not isinstance(value, bool):
        raise SettingError(f"vlan = {value!r} is not true or false")
    elif key in cell_settings.OFFLOADS:
        on = {"on": True, "off": False, True: True, False: False}
        if value not in on or type(value) is int:
            raise SettingError(f"{key} = {value!r} is not \"on\" or \"off\"")
        return on[value]
    elif key in _CHOICES and value not in _CHOICES[key]:
        raise SettingError(f"{key} = {value!r} is not one of " +
                           ", ".join(map(str, _CHOICES[key])))
    elif key == "params":
        for name, v in _table(key, value).items():
            cell_settings.check_param(name, _int(f"params: {name}", v))
    elif key == "knobs":
        for name, v in _table(key, value).items():
            cell_settings.check_knob(name, _int(f"knobs: {name}", v))
    elif key == "expect":
        for name in _list(key, value):
            if name not in _REACHABLE:
                raise SettingError(
                    f"expect: {name!r} is not a situation the driver can "
                    "produce (" + ", ".join(_REACHABLE) + ")")
    elif key == "lengths":
        if not 1 <= len(_list(key, value)) <= cell_settings.MAX_LENGTHS:
            raise SettingError(f"lengths: {len(value)} lengths, not 1.."
                               f"{cell_settings.MAX_LENGTHS}")
        for n in value:
            _int("lengths: a length", n)
    return value


def _cell(t):
    """The Cell of one table (SettingError: why not)."""
    unknown = sorted(set(t) - {"mtu"} - set(_DEFAULTS) - set(_SETTINGS))
    if unknown:
        raise SettingError(f"unknown key {unknown[0]!r}")
    if "mtu" not in t:
        raise SettingError("no mtu")
    args = dict(_DEFAULTS)
    for key, value in t.items():
        args[key] = _value(key, value)
    for n in args.get("lengths", ()):
        cell_settings.check_length(n, args["mtu"])
    fam = cell_model.FAMILIES.get(args["family"])
    knobs = args.get("knobs", {})
    if fam and fam.knob and cell_model.KNOBS[fam.knob] in knobs:
        raise SettingError(f"knobs: {cell_model.KNOBS[fam.knob]} is the "
                           f"{fam.name} family's own knob")
    if args.get("rx") is False and not (fam and fam.name == "rxcsumoff"):
        raise SettingError('rx = "off" needs family = "rxcsumoff" (the '
                           "checksum step's expectations with the driver's "
                           "Rx checksum offload off)")
    settings = cell_settings.Settings(
        params=args.get("params"), ring_rx=args.get("ring_rx"),
        ring_tx=args.get("ring_tx"), rx_usecs=args.get("rx_usecs"),
        offloads={k: args[k] for k in cell_settings.OFFLOADS if k in args},
        knobs=knobs, lengths=args.get("lengths", ()),
        expect=args.get("expect", ()))
    make = FileCell if settings.lengths else cell_model.Cell
    return make(args["mtu"], args["crc"], args["irq"], args["iommu"],
                args["vlan"], args["copybreak"], args["family"], settings)


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
        raise cell_model.MatrixError(f"--cells {path}: not TOML: {e}", _SEE)
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
        try:
            cell = _cell(t)
        except SettingError as e:
            raise _bad(path, line, f"cell {k}: {e}")
        if cell.name in seen:
            raise _bad(path, line, f"cell {k}: {cell.name} is cell "
                       f"{seen[cell.name]} again")
        seen[cell.name] = k
        cells.append(cell)
    return cells
