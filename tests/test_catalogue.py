"""Runs numbered by PySolFC's game numbers (solve-batch --numbering pysol, solve --pysol) and the
catalogue of deals by difficulty (winnable deals)."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from winnable import get_game
from winnable.runs.batch import solve_batch
from winnable.runs.read import read_runs
from winnable.runs.spec import RunSpec
from winnable.runs.store import to_table, write_atomic
from winnable.catalogue import GRADINGS, Selection, catalogue, catalogue_rows
from winnable.implication import apply_implications
from winnable.numbering import pysol_deals
from winnable.runs.resolve import resolve_file
from winnable.stats import summarize

# Thoughtful leaves some deals unknown with these options.
TINY = {"budget": 60, "strategy": 0}


def test_pysol_numbered_batch(tmp_path, run_cli):
    out = tmp_path / "p.parquet"
    code, text, err = run_cli("--game", "chinese", "--numbering", "pysol", "--start", "31999",
                              "--n", "3", "--solver", "strategy", "--workers", "1", "-q",
                              "--out", out, program="solve-batch")
    assert code == 0, err
    assert "pysol numbers 31999-32001" in text
    rows = pd.read_parquet(out)
    g = get_game("chinese")
    assert list(rows["numbering"]) == ["pysol"] * 3
    assert rows["deal"].tolist() == g.format_deals(pysol_deals([31999, 32000, 32001]))
    assert json.loads(pq.read_schema(out).metadata[b"winnable"])["numbering"] == "pysol"
    # One file never holds two numberings.
    code, _, err = run_cli("--game", "chinese", "--start", "31999", "--n", "3", "--solver",
                           "strategy", "--workers", "1", "-q", "--out", out,
                           program="solve-batch")
    assert code == 2 and "numbering pysol" in err and "numbering winnable" in err
    assert err.count("\n") == 1
    code, _, err = run_cli("--game", "nineball", "--numbering", "pysol", "--n", "2",
                           program="solve-batch")
    assert code == 2 and "chinese only" in err
    # The default file name says the numbering.
    spec = RunSpec.make("chinese", {"easy": 1}, "strategy", None, "pysol")
    assert spec.slug() == "chinese_strategy_easy-1_pysol"
    assert RunSpec.from_json(spec.to_json()) == spec


def test_solve_pysol(run_cli):
    code, text, _ = run_cli("solve", "--game", "chinese", "--pysol", "1", "--solver", "strategy")
    assert code == 0 and "PySolFC Chinese Discipline game 1" in text
    assert "t1: JD 5H KH AS 4H TH 8D" in text  # Microsoft's deal 1, seven to a row
    code, text, _ = run_cli("solve", "--game", "chinese", "--pysol", "40000", "--variant",
                            "easy=1", "--solver", "strategy", "--json")
    data = json.loads(text)
    assert data["pysol"] == 40000 and data["variant"] == "easy=1"
    assert data["deal"] == get_game("chinese").format_deal(pysol_deals([40000])[0])
    for args, message in ((("--game", "nineball", "--pysol", "3"), "chinese only"),
                          (("--game", "chinese", "--pysol", "x1"), "not a whole number"),
                          (("--game", "chinese", "--pysol", "3", "--seed", "3"), "exactly one")):
        code, _, err = run_cli("solve", *args)
        assert code == 2 and message in err and err.count("\n") == 1


def test_pysol_numbers_choose_the_deal_of_play_replay_and_verify(run_cli, tmp_path):
    """--pysol goes through the one deal helper: the strategy player's line of PySolFC game 1
    replays and verifies there, and play's saved line names the game the same way."""
    code, text, _ = run_cli("solve", "--game", "chinese", "--pysol", "1", "--solver", "strategy",
                            "--json")
    line = " ".join(json.loads(text)["moves"])
    code, text, _ = run_cli("verify", "--game", "chinese", "--pysol", "1", "--moves", line)
    assert code == 0, text
    code, text, _ = run_cli("replay", "--game", "chinese", "--pysol", "1", "--moves", line)
    assert code == 0 and "PySolFC Chinese Discipline game 1" in text
    code, text, _ = run_cli("verify", "--game", "chinese", "--seed", "1", "--moves", line)
    assert code != 0  # another deal: the line does not belong to it
    saved = tmp_path / "line.txt"
    played = subprocess.run(
        [sys.executable, "-m", "winnable", "play", "--game", "chinese", "--pysol", "1"],
        input=f"{line.split()[0]}\nsave {saved}\nquit\n", capture_output=True, text=True,
        timeout=300)
    assert played.returncode == 0, played.stderr
    assert "--pysol 1" in saved.read_text()
    code, _, err = run_cli("replay", "--game", "addario", "--pysol", "1")
    assert code == 2 and "chinese only" in err and err.count("\n") == 1


def test_resolve_summary_and_implication_keep_numberings_apart(tmp_path):
    own, pysol = tmp_path / "own.parquet", tmp_path / "pysol.parquet"
    for out, numbering in ((own, None), (pysol, "pysol")):
        solve_batch("chinese", n=6, solver="thoughtful", options=TINY, workers=1, out=out,
                    progress=False, numbering=numbering)
    rows = read_runs([own, pysol])
    assert sorted(rows["numbering"].unique()) == ["pysol", "winnable"]
    assert [s.numbering for s in summarize(rows)] == ["pysol", "winnable"]
    before = pd.read_parquet(pysol)
    assert (before["outcome"] == "unknown").any()
    resolve_file(pysol, {"budget": 5000}, workers=1, progress=False)
    after = pd.read_parquet(pysol)
    assert list(after["numbering"]) == ["pysol"] * 6
    assert after["deal"].tolist() == before["deal"].tolist()
    assert json.loads(pq.read_schema(pysol).metadata[b"winnable"])["numbering"] == "pysol"


def fake_run(path, game, solver, outcomes, variant=None, numbering=None, extra=None):
    """A run file holding the given outcomes for deals 1..k (no solving)."""
    spec = RunSpec.make(game, variant, solver, None, numbering)
    g = get_game(game)
    k = len(outcomes)
    columns = {"seed": np.arange(1, k + 1), "deal": g.format_deals(g.deals(np.arange(1, k + 1))),
               "outcome": outcomes, "score": [0] * k, "moves": [[]] * k, "nodes": [0] * k,
               "seconds": [0.0] * k}
    names = list(g.extra_columns)
    for name in names:
        columns[name] = (extra or {}).get(name, [0] * k)
    write_atomic(to_table(spec, columns, names), path)
    return path


def test_implication_stays_within_a_numbering(tmp_path):
    strict = fake_run(tmp_path / "s.parquet", "chinese", "thoughtful", ["unknown", "unknown"],
                      numbering="pysol")
    easy_own = fake_run(tmp_path / "e.parquet", "chinese", "thoughtful", ["loss", "win"],
                        {"easy": 1})
    easy = fake_run(tmp_path / "p.parquet", "chinese", "thoughtful", ["win", "loss"],
                    {"easy": 1}, "pysol")
    df, settled = apply_implications(read_runs([strict, easy_own, easy]))
    assert settled == 1  # pysol game 2: lost in easy, so lost in strict; deal 1 of ours is not
    pysol_strict = df[(df.numbering == "pysol") & (df.variant == "default")]
    assert pysol_strict["outcome"].tolist() == ["unknown", "loss"]


def test_chinese_grades(tmp_path):
    t = fake_run(tmp_path / "t.parquet", "chinese", "thoughtful",
                 ["win", "win", "win", "win", "loss", "unknown", "win"])
    s = fake_run(tmp_path / "s.parquet", "chinese", "strategy",
                 ["win", "loss", "loss", "loss", "loss", "loss", "loss"])
    p = fake_run(tmp_path / "p.parquet", "chinese", "sampling",
                 ["win", "win", "loss", "loss", "loss", "loss"])  # deal 7 not sampled
    r = fake_run(tmp_path / "r.parquet", "chinese", "random",
                 ["loss", "loss", "loss", "win", "loss", "loss", "loss"])
    table = catalogue(catalogue_rows([t, s, p, r], Selection("chinese")), "chinese")
    assert table["grade"].tolist() == ["easy", "hard", "expert", "hard", "lost", "unknown",
                                       "hard-or-expert"]
    assert table["outcome"].tolist() == ["win"] * 4 + ["loss", "unknown", "win"]
    assert list(table.columns) == ["seed", "numbering", "grade", "outcome", "thoughtful",
                                   "strategy", "sampling", "random", "deal"]
    only = catalogue(catalogue_rows([t], Selection("chinese", start=2, n=2)), "chinese")
    assert only["seed"].tolist() == [2, 3] and set(only["grade"]) == {"ungraded"}


def test_other_games_grades(tmp_path):
    f = fake_run(tmp_path / "f.parquet", "addario", "first", ["win", "loss", "loss", "loss"])
    n = fake_run(tmp_path / "n.parquet", "addario", "nopeek", ["win", "win", "loss", "loss"])
    t = fake_run(tmp_path / "t.parquet", "addario", "thoughtful", ["win", "win", "win", "loss"])
    table = catalogue(catalogue_rows([f, n, t], Selection("addario")), "addario")
    assert table["grade"].tolist() == ["easy", "medium", "hard", "lost"]
    w = fake_run(tmp_path / "w.parquet", "nineball", "nopeek-win", ["win"] * 5,
                 extra={"win_probability": [1.0, 0.6, 0.1, 0.3, 0.9],
                        "thoughtful_win": [True, True, True, False, True]})
    table = catalogue(catalogue_rows([w], Selection("nineball")), "nineball")
    assert table["grade"].tolist() == ["easy", "medium", "hard", "lost", "easy"]
    assert table["outcome"].tolist() == ["win", "win", "win", "loss", "win"]
    runs = [fake_run(tmp_path / f"{p}.parquet", "impossible", p, o) for p, o in
            (("greedy", ["win", "loss", "loss", "loss"]),
             ("lookahead", ["win", "win", "loss", "loss"]),
             ("random", ["loss", "loss", "win", "loss"]))]
    table = catalogue(catalogue_rows(runs, Selection("impossible")), "impossible")
    assert table["grade"].tolist() == ["easy", "medium", "lucky", "unwon"]
    assert table["outcome"].tolist() == ["win", "win", "win", "unknown"]
    for name, grading in GRADINGS.items():
        assert set(grading.solvers) <= set(get_game(name).solvers)


def test_deals_command(tmp_path, run_cli, monkeypatch):
    t = fake_run(tmp_path / "t.parquet", "chinese", "thoughtful", ["win", "loss", "win"])
    s = fake_run(tmp_path / "s.parquet", "chinese", "strategy", ["win", "loss", "loss"])
    e = fake_run(tmp_path / "e.parquet", "chinese", "strategy", ["win"] * 3, {"easy": 1})
    code, text, _ = run_cli("deals", "--game", "chinese", t, s, "--difficulty", "lost")
    assert code == 0 and "1 of 3 deals listed" in text
    assert text.splitlines()[:2] == [" deal grade outcome thoughtful strategy",
                                     "    2  lost    loss       loss     loss"]
    code, text, _ = run_cli("deals", "--game", "chinese", t, s, "--outcome", "win", "--csv")
    csv = text.splitlines()
    assert csv[0] == "seed,numbering,grade,outcome,thoughtful,strategy,deal" and len(csv) == 3
    for args, message in (((t, e), "several rule sets"),
                          ((t, "--difficulty", "tough"), "unknown --difficulty 'tough'"),
                          ((tmp_path / "none.parquet",), "no such file"),
                          ((), "give run files"),
                          (("--solve",), "--solve needs")):
        code, _, err = run_cli("deals", "--game", "chinese", *args)
        assert code == 2 and message in err and err.count("\n") == 1, err
    # --solve runs what the grades need (Nineball: nopeek-win) into runs/, resumably.
    monkeypatch.chdir(tmp_path)
    code, text, err = run_cli("deals", "--game", "nineball", "--n", "4", "--solve", "-q",
                              "--workers", "1", "--csv")
    assert code == 0, err
    assert (tmp_path / "runs" / "nineball_nopeek-win.parquet").exists()
    assert len(text.splitlines()) == 5 and "ungraded" not in text
