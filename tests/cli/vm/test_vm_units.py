# SPDX-License-Identifier: GPL-2.0-or-later
"""How the VM suite is shared out between pytest-xdist workers
(tests/functional/conftest.py): one unit per VM, read from node ids."""

import importlib.util
import os
import sys

from e1000epp.common import paths

FUNCTIONAL = os.path.join(paths.REPO, "tests", "functional")


def functional_conftest():
    sys.path.insert(0, FUNCTIONAL)
    try:
        spec = importlib.util.spec_from_file_location(
            "functional_conftest", os.path.join(FUNCTIONAL, "conftest.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(FUNCTIONAL)


def test_a_file_sharing_one_vm_is_one_unit():
    unit = functional_conftest().work_unit
    assert unit("test_smoke.py::test_probe_is_clean") == "test_smoke.py"
    assert unit("test_smoke.py::test_dmesg_stays_clean_after_traffic") == \
        "test_smoke.py"
    # a parameter of a file-wide VM does not split the file
    assert unit("test_tso.py::test_tso_segments[1448]") == "test_tso.py"


def test_self_test_modes_are_units_of_their_own():
    unit = functional_conftest().work_unit
    assert unit("test_selftest.py::test_online_selftest[msi]") == \
        "test_selftest.py[msi]"
    assert unit("test_selftest.py::test_online_selftest[msi]") == \
        unit("test_selftest.py::test_offline_selftest_with_link_up[msi]")
    assert len({unit(f"test_selftest.py::test_online_selftest[{m}]")
                for m in ("msix", "msi", "intx")}) == 3


def test_user_kernel_tests_are_units_but_driver_builds_stay_together():
    unit = functional_conftest().work_unit
    f = "test_user_kernel.py::"
    units = {unit(f + t) for t in (
        "test_missing_kernel_file", "test_debian_kernel_6_12",
        "test_user_kernel_with_its_module_tree",
        "test_own_module_runs_the_matrix_on_its_own_image")}
    assert len(units) == 4
    # both may apt-get install the kernel headers (dpkg's lock)
    assert unit(f + "test_driver_source_that_does_not_build") == \
        unit(f + "test_driver_rebuilt_from_debian_source_runs_the_matrix")
    assert unit(f + "test_driver_source_that_does_not_build") not in units


def test_every_long_unit_names_tests_that_exist():
    # a renamed file, test or mode must not drop out of the longest-first
    # order silently
    conf = functional_conftest()
    for u in conf.LONG_UNITS:
        path, _, test = u.partition("::")
        name, _, param = path.partition("[")
        text = open(os.path.join(FUNCTIONAL, name)).read()
        tests = [t for t, g in conf.SHARED_UNITS.items() if g == test] or \
            ([test] if test else [])
        for t in tests:
            assert f"def {t}(" in text, u
            assert conf.work_unit(f"{name}::{t}") == u
        if param:
            assert f'("{param[:-1]}", ' in text, u      # INT_MODES
