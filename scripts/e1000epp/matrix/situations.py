# SPDX-License-Identifier: GPL-2.0-or-later
"""The datapath situations the device counts (its `situations` property,
docs/coverage.md): what a cell declares it must produce, known before
any VM boots."""

# The device's situation names, in its order (core/coverage.c; the cli
# test test_coverage.py checks the two lists agree). Known before a run,
# so --require-coverage with a misspelt name fails in a second.
SITUATIONS = (
    "fcs-straddle", "fcs-alone", "split-polls", "ring-dry-midframe",
    "rnbc", "mpc", "xoff-sent", "wb-timer", "wb-threshold", "hdr-split",
    "vlan-strip", "rx-csum-ip", "rx-csum-tcp", "rx-csum-udp",
    "rx-csum-err", "tx-csum-ip", "tx-csum-l4", "tso", "irq-throttled",
    "link-change-traffic", "err-crc", "err-symbol", "err-data",
    "err-oversize", "null-desc", "dma-fault")
# Situations no cell can produce with Linux's e1000e, and why (the
# coverage table and `run --list` print the reason; `--require-coverage
# all` asks for every other one).
UNREACHABLE = {
    "null-desc": "Linux's e1000e never posts a buffer address of 0: every "
                 "descriptor it hands the device carries a mapped buffer",
}
REACHABLE = tuple(s for s in SITUATIONS if s not in UNREACHABLE)
