# SPDX-License-Identifier: GPL-2.0-or-later
"""The VM harness: one QEMU booting the test guest with the NIC under test,
the host-side peer behind its socket and the in-guest agent on ttyS1.

One module per concept (waits, addresses, buildpaths, hostpeer, qmplog,
agentlink, guestnet, patterns); `harness` holds the Vm and the names the
functional tests (tests/functional) and the matrix (matrix_exec) use.
"""
