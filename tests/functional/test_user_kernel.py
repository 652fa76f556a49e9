# SPDX-License-Identifier: GPL-2.0-or-later
"""`run` with the user's kernel and driver: every bad input is refused
with a clear message and exit status 1, no traceback, before anything is
booted; a good module runs the matrix on its own image.

The inputs are made here: a junk file as a "bzImage", Debian's own
kernel (e1000e is a module there, so the bzImage alone has none), a fake
module whose .modinfo names another kernel, a driver source with a
syntax error.
"""

import json
import lzma
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CLI = REPO / "e1000e-pp"
ONE_CELL = ["--matrix", "reduced", "--only", "mtu1500-strip-msix-noiommu$"]


def cli(*args, timeout=600):
    return subprocess.run(["/usr/bin/python3", str(CLI), "run",
                           "--no-setup"] + [str(a) for a in args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def refused(r, *messages):
    assert r.returncode == 1, r.stdout + r.stderr
    for m in messages:
        assert m in r.stderr, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "[run]" not in r.stdout, "nothing may run after bad input"


@pytest.fixture(scope="module")
def debian(guest_image, paths):
    """Debian's kernel and its e1000e.ko, from the default image."""
    e1000e = [m for m in guest_image["modules"] if m["name"] == "e1000e"][0]
    release = guest_image["kernel"]["release"]
    return {"vmlinuz": paths["GUEST_DIR"] / "vmlinuz", "release": release,
            "version": guest_image["kernel"]["version"],
            "e1000e": Path(e1000e["source"]),
            "tree": _tree_of(Path(e1000e["source"]), release)}


def _tree_of(module, release):
    """lib/modules/<release> above a module's path."""
    for p in module.parents:
        if p.name == release:
            return p
    raise AssertionError(f"{module} is not under lib/modules/{release}")


def fake_module(path, vermagic):
    path.write_bytes(b"\x7fELF" + b"\0" * 60 + b"license=GPL\0vermagic=" +
                     vermagic.encode() + b" SMP preempt mod_unload "
                     b"modversions \0name=e1000e\0")
    return path


def test_missing_kernel_file(tmp_path):
    refused(cli("--kernel", tmp_path / "bzImage"),
            f"error: --kernel {tmp_path / 'bzImage'}: no such file")


def test_kernel_that_is_not_a_bzimage(tmp_path):
    junk = tmp_path / "bzImage"
    junk.write_bytes(b"\0" * 4096)
    refused(cli("--kernel", junk),
            f"error: --kernel {junk} is not a bzImage",
            "no 'HdrS' x86 boot header")


def test_kernel_without_e1000e(debian):
    refused(cli("--kernel", debian["vmlinuz"]),
            f"error: --kernel {debian['vmlinuz']} has no e1000e driver",
            "not built in (CONFIG_E1000E=y)")


def test_module_for_another_kernel(tmp_path, debian):
    ko = fake_module(tmp_path / "e1000e.ko", "5.10.0-99-amd64")
    refused(cli("--module", ko), f"error: {ko} does not match the kernel",
            f"module vermagic 5.10.0-99-amd64, kernel release "
            f"{debian['release']}")


def test_modules_dir_for_another_kernel(tmp_path, debian):
    mods = tmp_path / "modules"
    mods.mkdir()
    fake_module(mods / "e1000e.ko", "6.99.0-other")
    refused(cli("--kernel", debian["vmlinuz"], "--modules", mods),
            "does not match the kernel",
            f"module vermagic 6.99.0-other, kernel release "
            f"{debian['release']}")


def test_missing_module_and_not_a_module(tmp_path):
    refused(cli("--module", tmp_path / "e1000e.ko"),
            f"error: --module {tmp_path / 'e1000e.ko'}: no such file")
    txt = tmp_path / "e1000e.ko"
    txt.write_text("hello\n")
    refused(cli("--module", txt), f"error: --module {txt} is not a kernel "
            "module", "no vermagic")


def test_modules_without_kernel_and_missing_driver_src(tmp_path):
    refused(cli("--modules", tmp_path), "error: --modules without --kernel")
    refused(cli("--driver-src", tmp_path / "nope"),
            f"error: --driver-src {tmp_path / 'nope'}: no such directory")
    refused(cli("--driver-src", tmp_path),
            f"error: --driver-src {tmp_path} has no Makefile or Kbuild")


def test_driver_source_that_does_not_build(tmp_path):
    src = tmp_path / "e1000e"
    src.mkdir()
    (src / "Makefile").write_text("obj-m += e1000e.o\n")
    (src / "e1000e.c").write_text(
        "// SPDX-License-Identifier: GPL-2.0\n"
        "#include <linux/module.h>\n"
        "static int __init broken_init(void) { return this_is_not_c; }\n"
        "module_init(broken_init);\nMODULE_LICENSE(\"GPL\");\n")
    r = cli("--driver-src", src, *ONE_CELL, timeout=1200)
    refused(r, f"error: --driver-src {src} does not build",
            "make exited with")
    # The compiler's own words, as the tail of the build log.
    assert "this_is_not_c" in r.stderr and "error:" in r.stderr


def test_own_module_runs_the_matrix_on_its_own_image(tmp_path, debian,
                                                     paths):
    ko = tmp_path / "e1000e.ko"
    src = debian["e1000e"]
    ko.write_bytes(lzma.open(src).read() if src.suffix == ".xz"
                   else src.read_bytes())
    before = (paths["GUEST_DIR"] / "manifest.json").read_text()
    report = tmp_path / "report"
    r = cli("--module", ko, "--report", report, *ONE_CELL, timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    meta = json.loads((report / "results.json").read_text())["meta"]
    assert meta["guest"].startswith(f"Debian {debian['release']} + {ko}")
    key = meta["guest"].split("build/guests/")[1].rstrip(")")
    image = REPO / "build" / "guests" / key
    manifest = json.loads((image / "manifest.json").read_text())
    mod = [m for m in manifest["modules"] if m["name"] == "e1000e"][0]
    assert mod["source"] == str(image / "override" / "e1000e.ko")
    # The default image (setup's and the fixture's) is left alone.
    assert (paths["GUEST_DIR"] / "manifest.json").read_text() == before
    assert "1 passed, 0 failed" in r.stdout


@pytest.fixture(scope="module")
def e1000e_source(debian):
    """drivers/net/ethernet/intel/e1000e from Debian's linux-source of the
    guest kernel's version (`test` fetches it into build/cache before the
    suite; here only when it is still missing)."""
    from e1000epp.selftest.test_data import PrepareError, debian_e1000e_source
    try:
        return Path(debian_e1000e_source(debian["version"]))
    except PrepareError as e:
        pytest.fail(f"Debian's e1000e source: {e}")


def test_driver_rebuilt_from_debian_source_runs_the_matrix(tmp_path,
                                                           e1000e_source,
                                                           debian):
    report = tmp_path / "report"
    r = cli("--driver-src", e1000e_source, "--report", report, *ONE_CELL,
            timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    meta = json.loads((report / "results.json").read_text())["meta"]
    assert meta["guest"].startswith(
        f"Debian {debian['release']} + e1000e built from {e1000e_source}")
    assert "1 passed, 0 failed" in r.stdout


def test_user_kernel_with_its_module_tree(tmp_path, debian):
    report = tmp_path / "report"
    r = cli("--kernel", debian["vmlinuz"], "--modules", debian["tree"],
            "--report", report, *ONE_CELL, timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    meta = json.loads((report / "results.json").read_text())["meta"]
    assert meta["guest"].startswith(
        f"your kernel {debian['release']} + modules from {debian['tree']}")
    assert "1 passed, 0 failed" in r.stdout


def kernel_tree(root, debian, guest_image):
    """A kernel build tree as `make` leaves it (no modules_install): the
    bzImage under arch/x86/boot, each module where its source directory
    is, the module lists at the top, and sources beside them."""
    boot = root / "arch" / "x86" / "boot"
    boot.mkdir(parents=True)
    (boot / "bzImage").write_bytes(debian["vmlinuz"].read_bytes())
    for m in guest_image["modules"]:
        src = Path(m["source"])
        rel = src.relative_to(debian["tree"] / "kernel")
        (root / rel.parent).mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(src.read_bytes())
        (root / rel.parent / "Makefile").write_text("obj-m += x.o\n")
    (root / "modules.builtin").write_bytes(
        (debian["tree"] / "modules.builtin").read_bytes())
    (root / ".git").mkdir()
    return root


def test_kernel_tree_refused_when_not_built_or_doubled(tmp_path, debian):
    refused(cli("--kernel-tree", tmp_path),
            f"error: --kernel-tree {tmp_path} is not a built kernel tree",
            "it has no arch/x86/boot/bzImage")
    refused(cli("--kernel-tree", tmp_path, "--kernel", debian["vmlinuz"]),
            "error: --kernel-tree and --kernel both given")
    refused(cli("--kernel-tree", tmp_path / "nothing"),
            f"error: --kernel-tree {tmp_path / 'nothing'}: no such "
            "directory")


def test_kernel_tree_boots_its_bzimage_with_its_modules(tmp_path, debian,
                                                        guest_image):
    tree = kernel_tree(tmp_path / "linux", debian, guest_image)
    report = tmp_path / "report"
    r = cli("--kernel-tree", tree, "--report", report, *ONE_CELL,
            timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    meta = json.loads((report / "results.json").read_text())["meta"]
    assert meta["guest"].startswith(
        f"your kernel tree {tree} ({debian['release']})")
    key = meta["guest"].split("build/guests/")[1].rstrip(")")
    manifest = json.loads((REPO / "build" / "guests" / key /
                           "manifest.json").read_text())
    # every module of the default image, each from its place in the tree
    got = {m["name"]: Path(m["source"]).resolve()
           for m in manifest["modules"]}
    assert got == {m["name"]: tree / Path(m["source"]).relative_to(
        debian["tree"] / "kernel") for m in guest_image["modules"]}
    assert "1 passed, 0 failed" in r.stdout


def test_debian_kernel_6_12(tmp_path):
    report = tmp_path / "report"
    r = cli("--debian-kernel", "6.12", "--report", report, *ONE_CELL,
            timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    meta = json.loads((report / "results.json").read_text())["meta"]
    assert meta["guest"].startswith("Debian 6.12.")
    assert "1 passed, 0 failed" in r.stdout
