# SPDX-License-Identifier: GPL-2.0-or-later
"""A free TCP port on the loopback (a gdbstub's, for resume and replay)."""

import socket


def free_port():
    """A port nothing listens on now (the kernel's pick for port 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
