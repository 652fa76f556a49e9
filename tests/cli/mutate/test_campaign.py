# SPDX-License-Identifier: GPL-2.0-or-later
"""mutate's campaign: --shard I/N covers every mutant once, merge puts
shards together (and refuses two different campaigns), an interrupted
campaign resumes with the mutants that have no verdict, and bad input
ends in one error message without a traceback."""

import json
import os

import pytest

from e1000epp import cli
from e1000epp.common.errors import StepError
from e1000epp.image import user_kernel
from e1000epp.mutate import build, campaign, command, ctokens, operators

from test_operators import SAMPLE
from test_patch_lines import PATCH1, _tree


def _sample_mutants():
    src = ctokens.Source(SAMPLE)
    return [m for n in range(1, SAMPLE.count("\n") + 2)
            for m in operators.mutants(src, "s.c", n)]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
def test_shards_cover_every_mutant_once(n):
    ms = _sample_mutants()
    seen = []
    for i in range(1, n + 1):
        part, label = campaign.select_shard(ms, f"{i}/{n}")
        assert label == f"{i}/{n}"
        seen += [m.id for m in part]
    assert sorted(seen) == sorted(m.id for m in ms)
    # deterministic: the same slice twice
    assert campaign.select_shard(ms, f"1/{n}")[0] == \
        campaign.select_shard(list(reversed(ms)), f"1/{n}")[0]


def test_patch_labels():
    assert command.labels("1,4-7") == {"0001", "0004", "0005", "0006",
                                       "0007"}
    assert command.labels("0002, my.patch") == {"0002", "my.patch"}


def test_a_bad_shard_is_a_clear_error():
    with pytest.raises(StepError, match="is not I/N"):
        campaign.select_shard([], "3/2")


class FakeLine:
    patch = "0001"
    function = "f"

    def _asdict(self):
        return {"file": "s.c", "line": 1, "patch": "0001", "text": "x",
                "function": "f"}


def _judge(camp, ms, verdict="built"):
    for m in ms:
        camp.write(campaign.record(m, FakeLine(), "x", ["-a", "+b"],
                                   {"verdict": verdict, "build_s": 1.0}))


def test_merge_of_shards(tmp_path):
    ms = _sample_mutants()
    dirs = []
    for i in (1, 2):
        part, label = campaign.select_shard(ms, f"{i}/2")
        c = campaign.Campaign(str(tmp_path / f"s{i}"))
        c.start({"driver": "x"}, [FakeLine()], ms, part, label)
        _judge(c, part)
        dirs.append(c.out)
    merged = campaign.merge(str(tmp_path / "all"), dirs)
    assert sorted(merged.records()) == sorted(m.id for m in ms)
    assert merged.meta()["mutants"] == sorted((m.id for m in ms),
                                              key=operators.sort_key)
    other = campaign.Campaign(str(tmp_path / "other"))
    other.start({}, [], ms[:3], ms[:3], "")
    with pytest.raises(StepError, match="judge different mutants"):
        campaign.merge(str(tmp_path / "bad"), dirs + [other.out])


def test_a_directory_of_another_campaign_is_refused(tmp_path):
    ms = _sample_mutants()
    c = campaign.Campaign(str(tmp_path / "c"))
    c.start({}, [], ms, ms, "")
    with pytest.raises(StepError, match="holds another campaign"):
        c.start({}, [], ms[1:], ms[1:], "")
    with pytest.raises(StepError, match="holds shard all"):
        c.start({}, [], ms, ms[:2], "1/2")


class FakeBuilder:
    """Builds nothing; records what it was asked; may stop after N."""
    built = []
    stop_after = None

    def __init__(self, src, headers, out_dir, log=print, module="e1000e"):
        self.base_seconds = 0.5

    def build_base(self):
        return "e1000e.ko"

    def build(self, m, lines, ko_dest=None):
        if FakeBuilder.stop_after is not None and \
                len(FakeBuilder.built) >= FakeBuilder.stop_after:
            raise KeyboardInterrupt
        FakeBuilder.built.append(m.id)
        return {"verdict": build.BUILT if m.op != "ret" else
                build.EQUIVALENT, "build_s": 2.0,
                "reason": "identical object" if m.op == "ret" else None}


@pytest.fixture
def fake_build(monkeypatch):
    FakeBuilder.built = []
    FakeBuilder.stop_after = None
    monkeypatch.setattr(build, "Builder", FakeBuilder)
    monkeypatch.setattr(user_kernel, "debian_headers",
                        lambda kernel, log=print: "/headers")
    return FakeBuilder


def _run(argv):
    args = cli.build_parser().parse_args(["mutate", "--no-setup",
                                          "--no-judge"] + argv)
    return command.run(args)


def test_an_interrupted_campaign_resumes(tmp_path, fake_build, capsys):
    d, paths = _tree(tmp_path, PATCH1)
    out = str(tmp_path / "camp")
    argv = ["--driver-src", str(d), "--patch", paths[0], "--out", out]
    fake_build.stop_after = 3
    with pytest.raises(KeyboardInterrupt):
        _run(argv)
    first = list(fake_build.built)
    assert len(first) == 3
    assert len(campaign.Campaign(out).records()) == 3
    fake_build.stop_after = None
    assert _run(argv) == 0
    rest = fake_build.built[3:]
    assert not set(first) & set(rest)
    everything = first + rest
    assert everything == sorted(everything, key=operators.sort_key)
    # a third run has nothing to build
    n = len(fake_build.built)
    assert _run(argv) == 0
    assert len(fake_build.built) == n
    rep = json.load(open(os.path.join(out, "report.json")))
    assert rep["mutants"] == len(everything)
    assert rep["counts"]["built"] + rep["counts"]["equivalent"] == \
        len(everything)
    assert rep["median_build_s"] == 2.0
    assert [ln["line"] for ln in rep["lines"]] == [15, 16, 18, 19]
    for f in ("report.txt", "report.html"):
        assert os.path.getsize(os.path.join(out, f)) > 0
    assert "foo.c:15 [0001, f] if (n < 0)" in capsys.readouterr().out


def test_shards_then_merge_through_the_command(tmp_path, fake_build,
                                               capsys):
    d, paths = _tree(tmp_path, PATCH1)
    base = ["--driver-src", str(d), "--patch", paths[0]]
    for i in (1, 2):
        assert _run(base + ["--shard", f"{i}/2", "--out",
                            str(tmp_path / f"s{i}")]) == 0
    built = list(fake_build.built)
    assert len(built) == len(set(built))
    rc = cli.main(["mutate", "merge", "--report", str(tmp_path / "m"),
                   str(tmp_path / "s1"), str(tmp_path / "s2")])
    assert rc == 0
    rep = json.load(open(tmp_path / "m" / "report.json"))
    assert rep["mutants"] == len(built) and rep["counts"]["pending"] == 0


@pytest.mark.parametrize("argv,message", [
    (["--driver", "nosuch"], "--driver 'nosuch': no such driver"),
    (["--driver-src", "{d}", "--patch", "{tmp}/none.patch"],
     "--patch {tmp}/none.patch: no such file"),
    (["--driver-src", "{tmp}/nodir", "--patch", "{p}"],
     "--driver-src {tmp}/nodir: no such directory"),
    (["--driver-src", "{d}"], "--driver-src without --patch or --base"),
    ([], "no driver given"),
    (["--driver-src", "{d}", "--patch", "{p2}"], "does not apply"),
    (["merge", "--report", "{tmp}/m", "{d}"], "is not a mutate campaign"),
])
def test_bad_input_is_one_clear_error(tmp_path, capsys, argv, message):
    d, paths = _tree(tmp_path, PATCH1)
    p2 = tmp_path / "p2.patch"
    p2.write_text(PATCH1.replace("x += g(n);", "x += h(n);"))
    fill = {"d": str(d), "tmp": str(tmp_path), "p": paths[0],
            "p2": str(p2)}
    argv = [a.format(**fill) for a in argv]
    rc = cli.main(["mutate", "--no-setup", "--out", str(tmp_path / "o")] +
                  argv)
    err = capsys.readouterr().err
    assert rc == 1
    assert "Traceback" not in err
    assert message.format(**fill) in err


def test_an_equivalents_file_names_mutants_by_id_or_function(tmp_path):
    Mutant = operators.Mutant
    path = tmp_path / "eq.txt"
    path.write_text("# inspected\n"
                    "netdev.c:363:rel:1 a label in the dump's text only\n"
                    "\n"
                    "netdev.c:e1000e_dump_regs prints registers it may "
                    "read   # trailing comment\n")
    eq = campaign.read_equivalents(str(path))
    assert eq == [("netdev.c:363:rel:1", "a label in the dump's text only"),
                  ("netdev.c:e1000e_dump_regs",
                   "prints registers it may read")]
    m = Mutant("netdev.c", 363, "rel", 1, ())
    assert campaign.inspected(m, "e1000e_dump", eq) == \
        "a label in the dump's text only"
    other = Mutant("netdev.c", 150, "const", 0, ())
    assert campaign.inspected(other, "e1000e_dump_regs", eq) == \
        "prints registers it may read"
    assert campaign.inspected(other, "e1000_clean_rx_irq", eq) is None


def test_an_equivalents_line_without_a_reason_is_refused(tmp_path):
    path = tmp_path / "eq.txt"
    path.write_text("netdev.c:363:rel:1\n")
    with pytest.raises(StepError) as e:
        campaign.read_equivalents(str(path))
    assert e.value.what == f"--equivalent {path}:1: 'netdev.c:363:rel:1'"
