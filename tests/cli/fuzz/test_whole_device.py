# SPDX-License-Identifier: GPL-2.0-or-later
"""`fuzz --whole-device`: its options, the setup it asks for, and the
seeds' encoding as QEMU's generic-fuzz reads it
(tests/qtest/fuzz/generic_fuzz.c: commands split at "FUZZ", an opcode
byte, then the command's C struct), and the bounded run of `test`
(tests/fuzz/run-fuzz.py) where the fuzzer is not built."""

import importlib.util
import struct
import subprocess
from pathlib import Path

import pytest

from e1000epp import cli
from e1000epp.common import paths
from e1000epp.fuzz import whole_device
from e1000epp.setup import overlay, qemu_build
REPO = Path(paths.REPO)
SEEDER = REPO / "tests" / "fuzz" / "whole-device" / "make-seeds.py"


def parse(*argv):
    return cli.build_parser().parse_args(list(argv))


def seeder():
    spec = importlib.util.spec_from_file_location("wd_seeds", SEEDER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_whole_device_asks_setup_for_the_fuzzer():
    a = parse("fuzz", "--whole-device", "--device", "e1000e")
    assert a.before_setup(a) is True
    assert a.fuzzing is True and a.device == "e1000e"
    a = parse("fuzz")
    a.before_setup(a)
    assert a.fuzzing is False and a.device == "e1000e-pp"


@pytest.mark.parametrize("argv, message", [
    (["--device", "e1000e"], "--device without --whole-device"),
    (["--stream", "--whole-device"], "--stream with --whole-device"),
])
def test_contradictory_fuzz_options_are_refused(argv, message):
    r = subprocess.run(["/usr/bin/python3", str(REPO / "e1000e-pp"),
                        "fuzz", "--no-setup"] + argv,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    assert r.returncode == 1
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_stream_target_keeps_its_own_corpus_and_regressions():
    from e1000epp.fuzz import core as fuzz_core
    assert fuzz_core.STREAM.fuzzer.endswith("tests/fuzz/fuzz-stream")
    assert fuzz_core.STREAM.regressions == str(REPO / "tests" / "fuzz" /
                                               "stream-regressions")
    assert fuzz_core.STREAM.corpus != fuzz_core.CORE.corpus
    assert fuzz_core.STREAM.crashes != fuzz_core.CORE.crashes
    assert fuzz_core.STREAM.log != fuzz_core.CORE.log


def test_fuzz_build_configure_line():
    cmd = qemu_build.configure_cmd("/src", paths.QEMU_FUZZ_BUILD)
    assert {"--cc=clang", "--cxx=clang++", "--enable-fuzzing",
            "--enable-asan", "--enable-ubsan",
            "--with-devices-x86_64=e1000e-pp"} <= set(cmd)
    assert "--enable-plugins" not in cmd
    assert whole_device.TARGETS == {"e1000e-pp": "generic-fuzz-e1000e-pp",
                                    "e1000e": "generic-fuzz-e1000e"}


def test_generic_fuzz_config_is_in_qemus_form():
    c = overlay.GENERIC_FUZZ_CONFIG
    assert c.startswith('    { .name = "e1000e-pp", .args = "-M q35 ')
    assert "-device e1000e-pp,netdev=net0" in c
    # user-mode networking that reaches nothing (the project's rule)
    assert "-netdev user,id=net0,restrict=on" in c
    assert c.endswith('.objects = "e1000e-pp" },')


def commands(data):
    assert data.endswith(b"FUZZ")
    return [c for c in data.split(b"FUZZ")[:-1]]


def test_seeds_decode_as_generic_fuzz_commands():
    seeds = seeder().seeds()
    assert "bar0-dma" not in seeds and "bringup" in seeds
    cmds = commands(seeds["bringup"])
    # bus mastering on: PCI config write of COMMAND = IO | MEM | MASTER
    assert cmds[0] == bytes([5]) + struct.pack("<BBBxI", 1, 0, 4, 7)
    # then IMC = ~0 in BAR0: size Long (2), region 0, offset, value
    assert cmds[1] == bytes([3]) + struct.pack("<BBxxIQ", 2, 0, 0xd8,
                                               0xffffffff)
    ops = {c[0] for c in cmds}
    assert ops <= {2, 3, 5, 7, 9}
    writes = [struct.unpack("<BBxxIQ", c[1:]) for c in cmds if c[0] == 3]
    assert all(len(c) == 17 for c in cmds if c[0] == 3)
    # the ring registers of the bring-up, in Linux e1000e's order
    offs = [w[2] for w in writes]
    assert offs.index(0x2800) < offs.index(0x2818) < offs.index(0x0100)
    # 32 receive descriptors as DMA patterns (struct index, stride; data)
    pats = [c for c in cmds if c[0] == 7]
    assert len(pats) == 32 and all(len(p) == 1 + 2 + 16 for p in pats)


def test_committed_seeds_are_the_generators():
    seeds = seeder().seeds()
    d = REPO / "tests" / "fuzz" / "whole-device" / "seeds"
    assert sorted(p.name for p in d.iterdir()) == \
        sorted("seed-" + n for n in seeds)
    for n, data in seeds.items():
        assert (d / ("seed-" + n)).read_bytes() == data, n


@pytest.mark.parametrize("flag", ["--minutes", "--device"])
def test_bad_values_are_usage_errors(flag, capsys):
    with pytest.raises(SystemExit) as e:
        parse("fuzz", "--whole-device", flag, "nonsense")
    assert e.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


RUN_FUZZ = REPO / "tests" / "fuzz" / "run-fuzz.py"


def run_fuzz(fuzzer, seeds, tmp_path):
    env = {"PATH": "/usr/bin:/bin",
           "E1000EPP_FUZZ_OPTIONAL": "setup --fuzzing",
           "E1000EPP_FUZZ_SEED_GENERATOR": str(SEEDER)}
    return subprocess.run(
        ["/usr/bin/python3", str(RUN_FUZZ), str(fuzzer), str(seeds),
         str(tmp_path / "regressions")], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=60)


def test_bounded_run_without_the_fuzzer_checks_the_seeds_and_says_why(
        tmp_path):
    # What `test` runs where setup --fuzzing has not built QEMU's fuzzer
    # (CI): the committed seeds against their generator, the rest
    # skipped with the step that builds it.
    missing = tmp_path / "qemu-fuzz-x86_64"
    seeds = REPO / "tests" / "fuzz" / "whole-device" / "seeds"
    p = run_fuzz(missing, seeds, tmp_path)
    assert p.returncode == 0, p.stdout
    why = (f"# SKIP {missing} is not built (./e1000e-pp setup --fuzzing "
           "builds it)")
    assert p.stdout.splitlines() == [
        "1..3",
        f"ok - the {len(list(seeds.iterdir()))} seeds regenerate from "
        "make-seeds.py",
        "ok - replays the seed and regression inputs " + why,
        "ok - 20 s of coverage-guided fuzzing " + why]


def test_a_seed_that_differs_from_its_generator_fails(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in (REPO / "tests" / "fuzz" / "whole-device" / "seeds").iterdir():
        (seeds / f.name).write_bytes(f.read_bytes())
    (seeds / "seed-bringup").write_bytes(b"FUZZ")
    (seeds / "seed-loopback").unlink()
    lines = run_fuzz(tmp_path / "none", seeds, tmp_path).stdout.splitlines()
    assert lines[1].startswith("not ok - the ")
    assert lines[2] == (f"# not in {seeds} as generated: seed-bringup, "
                        "seed-loopback (run the generator and commit)")
