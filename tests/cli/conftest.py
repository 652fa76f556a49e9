# SPDX-License-Identifier: GPL-2.0-or-later
"""Tests of the ./e1000e-pp command line and its Python package
(scripts/e1000epp): no build, no VM, a few seconds.  Run by
`./e1000e-pp test` as the `cli` suite, or by hand:

    /usr/bin/python3 -m pytest tests/cli
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))), "scripts"))
