# SPDX-License-Identifier: GPL-2.0-or-later
"""What a cell sets beyond the axes of its name (cell_model.Cell's
`settings`): e1000e's module parameters, the ring sizes, interrupt
moderation and offloads set with ethtool, the device's configuration
knobs, extra pattern-frame lengths and extra situations it must
produce. Pure data and the driver's own rules; guest_io.configure
applies a cell's settings and reads every one of them back.

The ranges are Linux e1000e's (drivers/net/ethernet/intel/e1000e/,
Debian 6.1 and 6.12 alike):

  MTU          68 (ETH_MIN_MTU) .. 9212 (max_mtu = the 82574's
               max_hw_frame_size DEFAULT_JUMBO 9234 - VLAN_ETH_HLEN 18
               - ETH_FCS_LEN 4, e1000_probe); a cell's traffic needs
               104 or more (CELL_MTU_MIN)
  ethtool -G   rx/tx 64 (E1000_MIN_RXD/TXD) .. 4096 (E1000_MAX_RXD/TXD);
               e1000_set_ringparam rounds up to a multiple of 8
               (REQ_RX/TX_DESCRIPTOR_MULTIPLE), so other values are
               refused here rather than read back different
  ethtool -C   rx-usecs 0 (off), 1, 3 (dynamic), 4 (simplified) or
               10 .. 10000 (E1000_MIN/MAX_ITR_USECS): e1000_set_coalesce
  parameters   param.c (below, PARAMS) and netdev.c (debug; copybreak
               in Debian's driver)
"""

MTU_MIN = 68
MAX_HW_FRAME = 9234
MTU_MAX = MAX_HW_FRAME - 18 - 4
# The smallest MTU a cell's traffic crosses: its TCP streams run through
# the peer's sink and source, which take an MSS (MTU - 40) of 64 or more
# (tools/peer/tcpsink.c, tcpsrc.c); the UDP step's 64-byte datagrams
# (92 bytes of IPv4, the peer reassembles no fragments) then fit too.
# Seen 2026-12-06: at MTU 68 no 64-byte datagram came back, at 92 the
# peer refused `TCPSINK ... 52`.
PEER_MIN_MSS = 64
CELL_MTU_MIN = PEER_MIN_MSS + 40
RING_MIN, RING_MAX, RING_MULTIPLE = 64, 4096, 8
# The ring the driver allocates when nobody asks (E1000_DEFAULT_RXD/TXD).
RING_DEFAULT = 256
USECS_MIN, USECS_MAX = 10, 10000
USECS_MODES = (0, 1, 3, 4)
# The rx-usecs a freshly loaded driver reports (InterruptThrottleRate's
# default 3, dynamic conservative: itr_setting 3).
ITR_DEFAULT = 3
# RDTR/RADV when RxIntDelay/RxAbsIntDelay are not given: the 82574 has
# FLAG2_DMA_BURST, whose BURST_RDTR and BURST_RADV are 0x20.
RDTR_DEFAULT = RADV_DEFAULT = 0x20

# e1000e's module parameters a cell may set: (min, max, short name in
# the cell's name, register that shows it or None, the driver's word).
# InterruptThrottleRate takes 0, 1, 3, 4 or 100 .. 100000 (2 is the
# driver's "Invalid mode", 5..99 "Invalid ... value specified").
PARAMS = {
    "TxIntDelay": (0, 0xffff, "txdelay", "TIDV"),
    "TxAbsIntDelay": (0, 0xffff, "txabsdelay", "TADV"),
    "RxIntDelay": (0, 0xffff, "rxdelay", "RDTR"),
    "RxAbsIntDelay": (0, 0xffff, "rxabsdelay", "RADV"),
    "InterruptThrottleRate": (0, 100000, "itr", None),
    "SmartPowerDownEnable": (0, 1, "spd", None),
    "KumeranLockLoss": (0, 1, "kll", None),
    "WriteProtectNVM": (0, 1, "wpnvm", None),
    "debug": (0, 16, "debug", None),
}
ITR_MIN = 100
# Parameters a cell's own keys set (the name's axes).
OWN_KEY = {"IntMode": 'irq = "msix" | "msi" | "intx"',
           "CrcStripping": 'crc = "keep"', "copybreak": "copybreak = N"}
# ethtool -K features a cell may turn off: the key, ethtool's word for
# it, and the line `ethtool -k` answers with.
OFFLOADS = {"gro": ("gro", "generic-receive-offload"),
            "tso": ("tso", "tcp-segmentation-offload"),
            "rx": ("rx", "rx-checksumming"),
            "tx": ("tx", "tx-checksumming")}
# The device's configuration knobs (x-* QOM properties of e1000e-pp,
# hw/net/e1000e_pp/e1000e_pp_qom.c): their range, their word in the
# cell's name and the value that turns them off. The other x-* knobs
# are events their family turns (EVENT_KNOBS).
DEVICE_KNOBS = {"x-rx-fetch-limit": (0, 32, "fetch"),
                "x-reset-delay-ns": (0, 1000 * 1000 * 1000, "resetdelay")}
EVENT_KNOBS = {"x-rx-error-crc": "errcrc", "x-rx-error-symbol": "errsym",
               "x-rx-error-data": "errdata", "x-rx-error-oversize": "errlong",
               "x-link-drop-ms": "linkdrop", "x-tx-hold": "txhang",
               "x-dma-fault-writes": "dmafault", "x-wake-event": None}
# Pattern frames: Ethernet header + payload, no FCS, from the smallest
# frame to MTU + 14; at most this many extra lengths a cell.
FRAME_MIN = 60
MAX_LENGTHS = 32


class SettingError(ValueError):
    """A value the driver or the device would refuse (its reason)."""


def check_mtu(mtu):
    if not MTU_MIN <= mtu <= MTU_MAX:
        raise SettingError(f"mtu = {mtu} is not {MTU_MIN}..{MTU_MAX} (the "
                           "82574's MTU range in e1000e)")
    if mtu < CELL_MTU_MIN:
        raise SettingError(f"mtu = {mtu} is below {CELL_MTU_MIN}: a cell's "
                           "TCP streams need an MSS of "
                           f"{PEER_MIN_MSS} or more (the peer's)")


def check_param(name, value):
    if name in OWN_KEY:
        raise SettingError(f"params: {name} is set by the cell's own key: "
                           f"{OWN_KEY[name]}")
    if name not in PARAMS:
        raise SettingError(f"params: {name!r} is not a parameter of e1000e "
                           "(one of " + ", ".join(PARAMS) + ")")
    lo, hi = PARAMS[name][:2]
    ok = lo <= value <= hi
    if name == "InterruptThrottleRate":
        ok = value in (0, 1, 3, 4) or ITR_MIN <= value <= hi
        if not ok:
            raise SettingError(f"params: InterruptThrottleRate = {value} is "
                               "not 0, 1, 3, 4 or 100..100000")
    if not ok:
        raise SettingError(f"params: {name} = {value} is not {lo}..{hi}")


def check_ring(which, n):
    if not RING_MIN <= n <= RING_MAX:
        raise SettingError(f"ring_{which} = {n} is not {RING_MIN}.."
                           f"{RING_MAX} (E1000_MIN/MAX_{which.upper()}D)")
    if n % RING_MULTIPLE:
        up = n + RING_MULTIPLE - n % RING_MULTIPLE
        raise SettingError(f"ring_{which} = {n} is not a multiple of "
                           f"{RING_MULTIPLE} (the driver would make it {up})")


def check_usecs(n):
    if n not in USECS_MODES and not USECS_MIN <= n <= USECS_MAX:
        raise SettingError(f"rx_usecs = {n} is not 0, 1, 3, 4 or "
                           f"{USECS_MIN}..{USECS_MAX}")


def check_knob(name, value):
    if name in EVENT_KNOBS:
        fam = EVENT_KNOBS[name]
        raise SettingError(f"knobs: {name} is an event, not a configuration"
                           + (f": family = \"{fam}\" turns it" if fam
                              else ""))
    if name not in DEVICE_KNOBS:
        raise SettingError(f"knobs: {name!r} is not a knob of e1000e-pp (one"
                           " of " + ", ".join(DEVICE_KNOBS) + ")")
    lo, hi = DEVICE_KNOBS[name][:2]
    if not lo <= value <= hi:
        raise SettingError(f"knobs: {name} = {value} is not {lo}..{hi}")


def check_length(n, mtu):
    if not FRAME_MIN <= n <= mtu + 14:
        raise SettingError(f"lengths: {n} is not {FRAME_MIN}..{mtu + 14} "
                           f"(a frame of MTU {mtu} without its FCS)")


def itr_setting(usecs):
    """adapter->itr_setting after `ethtool -C rx-usecs usecs`
    (e1000_set_coalesce)."""
    if usecs <= 4:
        return usecs
    return (1000000 // usecs) & ~3


def usecs_read(setting):
    """What `ethtool -c` reports for an itr_setting (e1000_get_coalesce)."""
    return setting if setting <= 4 else 1000000 // setting


def param_itr_setting(value):
    """itr_setting after InterruptThrottleRate=value (e1000e_check_options:
    2 is the default 3; above 4 the low two bits cleared)."""
    return 3 if value == 2 else (value if value <= 4 else value & ~3)


class Settings:
    """A cell's settings beyond its name's axes; every value already
    checked (the check_* functions). offloads: {key of OFFLOADS: bool}."""

    __slots__ = ("params", "ring_rx", "ring_tx", "rx_usecs", "offloads",
                 "knobs", "lengths", "expect")

    def __init__(self, params=None, ring_rx=None, ring_tx=None,
                 rx_usecs=None, offloads=None, knobs=None, lengths=(),
                 expect=()):
        self.params = dict(sorted((params or {}).items()))
        self.ring_rx, self.ring_tx, self.rx_usecs = ring_rx, ring_tx, rx_usecs
        self.offloads = {k: bool(v) for k, v in (offloads or {}).items()}
        self.knobs = dict(sorted((knobs or {}).items()))
        self.lengths = tuple(sorted(set(lengths)))
        self.expect = tuple(expect)

    def __bool__(self):
        return any((self.params, self.ring_rx, self.ring_tx,
                    self.rx_usecs is not None, self.offloads_off(),
                    self.knobs, self.lengths, self.expect))

    def offloads_off(self):
        return [k for k in OFFLOADS if self.offloads.get(k) is False]

    def tokens(self):
        """The parts of the cell's name these settings add, in order."""
        out = []
        if self.ring_rx is not None or self.ring_tx is not None:
            rx, tx = self.ring_rx, self.ring_tx
            out.append(f"ring{rx}" if rx == tx else
                       "ring" + (f"{rx}" if rx is not None else "") +
                       (f"tx{tx}" if tx is not None else ""))
        if self.rx_usecs is not None:
            out.append(f"usecs{self.rx_usecs}")
        out += [f"{PARAMS[k][2]}{v}" for k, v in self.params.items()]
        out += [f"no{k}" for k in self.offloads_off()]
        out += [f"{DEVICE_KNOBS[k][2]}{v}" for k, v in self.knobs.items()]
        if self.lengths:
            out.append("len" + ".".join(map(str, self.lengths)))
        return out

    def module_params(self):
        return tuple(f"{k}={v}" for k, v in self.params.items())

    def sticky(self):
        """What stays set until the driver is loaded again (ring sizes,
        moderation): cells that differ here reload the module."""
        return tuple(f"{k}={v}" for k, v in (
            ("ring_rx", self.ring_rx), ("ring_tx", self.ring_tx),
            ("rx_usecs", self.rx_usecs)) if v is not None)

    def itr_setting(self):
        """The driver's itr_setting once the settings are applied."""
        if self.rx_usecs is not None:
            return itr_setting(self.rx_usecs)
        return param_itr_setting(self.params.get("InterruptThrottleRate",
                                                 ITR_DEFAULT))

    def rdtr(self):
        return self.params.get("RxIntDelay", RDTR_DEFAULT)

    def rules_out(self):
        """Situations these settings keep the device from producing:
        no ITR window when moderation is off; no held Rx write-backs
        when RDTR is 0 (every one goes out at once, so neither WTHRESH
        nor a delay timer holds any: §7.1.7); no TSO segment (nor the
        IPv4 header checksum only TSO contexts ask for, POPTS.IXSM) with
        TSO or Tx checksumming off; no TCP/UDP checksum without
        RXCSUM.TUOFL, which `rx off` clears (e1000_configure_rx)."""
        out = set()
        if self.itr_setting() == 0:
            out.add("irq-throttled")
        if self.rdtr() == 0:
            out |= {"wb-timer", "wb-threshold"}
        off = self.offloads_off()
        if "tso" in off or "tx" in off:
            out |= {"tso", "tx-csum-ip"}
        if "tx" in off:
            out.add("tx-csum-l4")
        if "rx" in off:
            out |= {"rx-csum-tcp", "rx-csum-udp"}
        return out

    def ethtool_k(self):
        """(ethtool -K word, on) for every offload, in the order that
        ethtool accepts them (tx before tso: TSO needs Tx checksums)."""
        on = {k: self.offloads.get(k, True) for k in OFFLOADS}
        on["tso"] = on["tso"] and on["tx"]
        return [(OFFLOADS[k][0], on[k]) for k in ("tx", "tso", "gro", "rx")]
