# SPDX-License-Identifier: GPL-2.0-or-later
"""Fixtures for the VM tests.

Environment:
  E1000EPP_DEVICE      NIC model under test (default e1000e-pp; `e1000e` is
                       QEMU's stock model, built into the same binary)
  E1000EPP_REPORT_DIR  where console logs, pcaps, QMP and agent transcripts
                       go (default: a fresh temporary directory)
"""

import os
import sys
import tempfile
from pathlib import Path

import pytest

# The harness is the CLI's package (scripts/e1000epp/vm).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent /
                       "scripts"))
from e1000epp.vm import harness  # noqa: E402


def pytest_report_header(config):
    return [f"e1000e-pp VM tests: device={device_name()}, "
            f"report dir={report_root()}"]


def device_name():
    return os.environ.get("E1000EPP_DEVICE", "e1000e-pp")


_report_root = None


def report_root():
    global _report_root
    if _report_root is None:
        env = os.environ.get("E1000EPP_REPORT_DIR")
        if env:
            _report_root = Path(env).resolve()
            _report_root.mkdir(parents=True, exist_ok=True)
        else:
            _report_root = Path(tempfile.mkdtemp(prefix="e1000epp-report-"))
    return _report_root


# The suite runs side by side (pytest -n): one work unit per VM, longest
# first, so that a long unit started last does not keep one worker busy
# after the rest ended. A file's tests share its module-scoped VM, so a
# file is a unit, except:
# - PER_PARAM_FILES: the VM fixture is parametrized (one VM per interrupt
#   mode); each parameter is a unit;
# - PER_TEST_FILES: no VM is shared (each test runs `./e1000e-pp run`);
#   each test is a unit, but those named in SHARED_UNITS stay together
#   (the --driver-src tests may both apt-get install the kernel headers,
#   which takes dpkg's lock).
# Units start longest first (LONG_UNITS, in this order; the rest follow
# in file order). Seconds per unit, measured on 2 CPUs with four workers,
# on this machine and on a clean one (where the driver is built from
# Debian's linux-source and the user-kernel images from nothing).
LONG_UNITS = (
    "test_mutate.py",                                   # 165-240 (builds)
    "test_pagepool_bugs.py",                            # 70-230 (2 drivers)
    "test_kselftest.py",                                # 50; 200 clean (image)
    "test_replay.py",                                   # 40-60 (2 replays)
    "test_soak.py",                                     # ~90
    "test_matrix_run.py",                               # 85-100
    "test_pagepool_truesize.py",                        # 60-95 (series image)
    "test_user_kernel.py::driver-src",                  # 45-85
    "test_selftest.py[msix]",                           # ~50 each
    "test_selftest.py[msi]",
    "test_selftest.py[intx]",
    "test_matrix_stock.py",                             # ~40
    "test_mutate_cells.py",                             # ~50 (2 runs)
    "test_registers.py",                                # 35
    "test_user_kernel.py::test_debian_kernel_6_12",     # 20-32
    "test_pm_stress.py",                                # 27-32
    "test_tso.py",                                      # ~30
    "test_migration.py",                                # ~28
    "test_cell_purpose.py",                             # ~28
    "test_user_kernel.py::test_own_module_runs_the_matrix_on_its_own_image",
    "test_cost_vm.py",                                  # 14-28
    "test_user_kernel.py::test_user_kernel_with_its_module_tree",
    "test_user_kernel.py::test_kernel_tree_boots_its_bzimage_with_its_modules",
    "test_matrix_cost.py",                              # ~20
    "test_system_sleep.py",                             # ~19 (bzImage)
    "test_user_kernel.py::test_kernel_without_e1000e",  # 17-19
    "test_smoke.py",                                    # ~17
)
PER_PARAM_FILES = ("test_selftest.py",)
PER_TEST_FILES = ("test_user_kernel.py",)
SHARED_UNITS = {
    "test_driver_source_that_does_not_build": "driver-src",
    "test_driver_rebuilt_from_debian_source_runs_the_matrix": "driver-src",
}


def pytest_collection_modifyitems(config, items):
    def rank(item):
        # node ids are relative to where pytest runs: name the file alone
        unit = work_unit(item.path.name + "::" +
                         item.nodeid.partition("::")[2])
        return LONG_UNITS.index(unit) if unit in LONG_UNITS else \
            len(LONG_UNITS)
    items.sort(key=rank)


def work_unit(nodeid):
    """The unit a test runs in: its file, its file and parameter, or
    (PER_TEST_FILES) the test or its shared unit."""
    path, _, test = nodeid.partition("::")
    name = os.path.basename(path)
    if name in PER_PARAM_FILES and nodeid.endswith("]"):
        return path + nodeid[nodeid.rindex("["):]
    if name in PER_TEST_FILES and test:
        return f"{path}::{SHARED_UNITS.get(test, test)}"
    return path


try:
    from xdist.scheduler import LoadFileScheduling
except ImportError:         # no pytest-xdist: one file at a time
    LoadFileScheduling = None

if LoadFileScheduling is not None:
    class VmScheduling(LoadFileScheduling):
        """--dist loadfile, with the units of work_unit()."""

        def _split_scope(self, nodeid):
            return work_unit(nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(config, log):
        return VmScheduling(config, log)


@pytest.fixture(scope="session")
def paths():
    return harness.repo_paths()


@pytest.fixture(scope="session")
def device(paths):
    """The device model under test; skips if this QEMU lacks it."""
    name = device_name()
    qemu = paths["QEMU_BIN"]
    if not qemu.exists():
        pytest.fail(f"{qemu} is missing: run ./e1000e-pp setup")
    import subprocess
    out = subprocess.run([str(qemu), "-device", "help"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=60).stdout
    if f'name "{name}"' not in out:
        pytest.fail(f"{qemu} has no device {name!r} "
                    "(set E1000EPP_DEVICE=e1000e for the stock model)")
    return name


@pytest.fixture(scope="session")
def guest_image(paths):
    """Build (or reuse) build/guest; returns its manifest."""
    from e1000epp.image.guest_image import GuestBuildError, build_guest
    try:
        return build_guest(paths["REPO"], paths["GUEST_DIR"],
                           log=lambda line: print(line, flush=True))
    except GuestBuildError as e:
        pytest.fail(f"guest image: {e}")


@pytest.fixture(scope="session")
def peer_bin(paths):
    try:
        return harness.peer_binary(paths)
    except harness.HarnessError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def report_dir():
    return report_root()


@pytest.fixture(scope="module")
def vm(request, device, guest_image, peer_bin, report_dir):
    """A booted guest with the agent answering; one per test module.
    The module's VM_APPEND string, if any, is added to the kernel command
    line (e.g. "e1000epp.load=0"); VM_IPV6 = True boots with IPv6 (the
    default guest has it disabled)."""
    name = request.module.__name__.split(".")[-1]
    vm = harness.Vm(device, report_dir / f"{name}-{device}",
                    append=getattr(request.module, "VM_APPEND", ""),
                    ipv6=getattr(request.module, "VM_IPV6", False))
    try:
        vm.start(peer_bin)
    except harness.HarnessError:
        vm.stop()
        raise
    print(f"\n[{name}] guest ready {vm.t_ready - vm.t_start:.1f} s after "
          f"QEMU start; evidence in {vm.report_dir}", flush=True)
    yield vm
    final = vm.stop()
    print(f"\n[{name}] peer final counters: {final}", flush=True)
