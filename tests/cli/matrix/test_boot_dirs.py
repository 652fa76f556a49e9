# SPDX-License-Identifier: GPL-2.0-or-later
"""Each VM of a run has its own boot directory (matrix/boot_dirs.py),
also when two VMs of one boot key run at once (--vms, --record's VM per
cell): before, both wrote 01-noiommu, and one read the other's console
for its agent's READY."""

import threading

from e1000epp.matrix import boot_dirs


def test_the_first_vm_of_a_key_takes_its_name(tmp_path):
    assert boot_dirs.new_boot_dir(str(tmp_path), "01-noiommu") == \
        str(tmp_path / "boots" / "01-noiommu")
    assert (tmp_path / "boots" / "01-noiommu").is_dir()


def test_vms_of_one_key_at_once_get_a_directory_each(tmp_path):
    got = []

    def one():
        got.append(boot_dirs.new_boot_dir(str(tmp_path), "01-noiommu"))
    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == sorted(
        [str(tmp_path / "boots" / "01-noiommu")] +
        [str(tmp_path / "boots" / f"01-noiommu-{n}") for n in range(2, 9)])
