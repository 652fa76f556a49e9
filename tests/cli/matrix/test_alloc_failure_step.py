# SPDX-License-Identifier: GPL-2.0-or-later
"""The allocation-failure step's reading of the kernel log
(matrix/traffic_faults.py): a line at KERN_ERR or above (busybox
`dmesg -r` prefixes each line with <level>, KERN_ERR is 3), and an
error code logged without its sign. The lines are the series' own
report (e1000_configure: "Unable to create the Rx page pool: %d")."""

from e1000epp.matrix import traffic_faults as tf


def unsigned(line):
    return bool(tf._ERRNO_UNSIGNED.search(line.split("] ", 1)[-1]))


def test_kern_err_and_above_are_the_driver_saying_so():
    assert tf._URGENT.match("<3>[    5.393867] e1000e 0000:00:01.0 eth0: "
                            "Unable to create the Rx page pool: -12")
    assert tf._URGENT.match("<0>[    1.0] e1000e: emergency")
    assert not tf._URGENT.match("<4>[    5.4] e1000e: a warning")
    assert not tf._URGENT.match("<6>[    5.4] e1000e 0000:00:01.0 eth0: "
                                "NIC Link is Up")


def test_an_errno_logged_without_its_sign_is_found():
    assert not unsigned("<3>[    5.393867] e1000e 0000:00:01.0 eth0: "
                        "Unable to create the Rx page pool: -12")
    assert unsigned("<3>[    5.393867] e1000e 0000:00:01.0 eth0: "
                    "Unable to create the Rx page pool: 12")
    # Neither the time nor a PCI address is an error code.
    assert not unsigned("<3>[   12.000012] e1000e 0000:00:12.0 eth0: "
                        "Unable to create the Rx page pool: -12")
