"""The command line: output shapes, and one-line errors with a non-zero exit for bad input."""

import json
import subprocess
import sys

import pandas as pd
import pytest

WINNABLE = [sys.executable, "-m", "winnable"]
SOLVE_BATCH = [sys.executable, "-c", "from winnable.cli import solve_batch_main; solve_batch_main()"]


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)


def test_solve_json_and_deal_roundtrip():
    p = run(WINNABLE + ["solve", "--game", "nineball", "--seed", "1", "--json"])
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    for key in ("game", "seed", "deal", "variant", "solver", "outcome", "score", "moves", "nodes",
                "seconds"):
        assert key in data
    assert data["outcome"] in ("win", "loss", "unknown") and isinstance(data["moves"], list)
    q = run(WINNABLE + ["solve", "--game", "nineball", "--deal", data["deal"].lower(), "--json"])
    again = json.loads(q.stdout)
    assert (again["outcome"], again["score"], again["moves"]) == (data["outcome"], data["score"], data["moves"])
    assert again["seed"] is None


def test_solve_text_shows_layout_outcome_and_line():
    p = run(WINNABLE + ["solve", "--game", "nineball", "--seed", "1", "--variant", "kitchen_per_group=1"])
    assert p.returncode == 0
    for needle in ("rack", "kitchen", "outcome: win", "score: 25", "2H+7H", "kitchen_per_group=1"):
        assert needle in p.stdout


@pytest.mark.parametrize("args, needle", [
    (["solve", "--game", "nineball", "--deal", "AH 2H"], "has 18 cards, got 2"),
    (["solve", "--game", "nineball", "--deal", "AH 2H 3H 4H 5H 6H 7H 8H 9H AD 2D 3D 4D 5D 6D 7D 8D 8D"], "card 8D appears twice"),
    (["solve", "--game", "poker", "--seed", "1"], "unknown game 'poker'"),
    (["solve", "--game", "nineball", "--seed", "1", "--variant", "colour=red"], "unknown variant key 'colour'"),
    (["solve", "--game", "nineball", "--seed", "1", "--variant", "kitchen_per_group=7"], "bad value '7' for variant kitchen_per_group"),
    (["solve", "--game", "nineball", "--seed", "1", "--variant", "targets"], "is not key=value"),
    (["solve", "--game", "nineball", "--seed", "1", "--solver", "magic"], "unknown solver 'magic'"),
    (["solve", "--game", "nineball", "--seed", "0"], "--seed must be at least 1"),
    (["solve", "--game", "nineball"], "give exactly one of --seed N or --deal"),
    (["batch", "--game", "nineball", "--n", "0"], "--n must be at least 1"),
    (["batch", "--game", "nineball", "--n", "5", "--workers", "0"], "--workers must be at least 1"),
    (["summary", "no-such-file.parquet"], "no such file: no-such-file.parquet"),
    (["batch", "--game", "nineball", "--n", "5", "--scheduler", "localhost:8786"], "--scheduler must look like tcp://HOST:PORT"),
    (["solve", "--game", "nineball", "--seed", "x"], "'x' is not a valid integer"),
])
def test_user_errors_are_one_line(args, needle, tmp_path):
    p = run(WINNABLE + args, cwd=tmp_path)
    assert p.returncode != 0
    assert needle in p.stderr
    assert "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_solve_batch_and_summary(tmp_path):
    out = tmp_path / "nb.parquet"
    p = run(SOLVE_BATCH + ["--game", "nineball", "--n", "30", "--start", "5", "--out", str(out), "--quiet"])
    assert p.returncode == 0, p.stderr
    assert "deals 30: " in p.stdout and "95% CI" in p.stdout and "score distribution" in p.stdout
    df = pd.read_parquet(out)
    assert sorted(df.seed) == list(range(5, 35))
    s = run(WINNABLE + ["summary", str(out)])
    assert s.returncode == 0 and "deals 30: " in s.stdout
    c = run(WINNABLE + ["summary", "--csv", str(out)])
    assert c.stdout.splitlines()[0].startswith("game,solver,variant,deals,wins")


def test_default_out_is_under_runs(tmp_path):
    p = run(WINNABLE + ["batch", "--game", "nineball", "--n", "5", "--variant", "targets=9", "--quiet"], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "runs" / "nineball_thoughtful_targets-9.parquet").exists()


def test_bench_prints_rates():
    p = run(WINNABLE + ["bench", "--game", "nineball", "--n", "500"])
    assert p.returncode == 0, p.stderr
    assert "deals/s" in p.stdout and "nodes/s" in p.stdout


def test_impossible_seed_is_the_same_game_in_solve_and_batch(tmp_path):
    p = run(WINNABLE + ["solve", "--game", "impossible", "--seed", "4", "--json"])
    data = json.loads(p.stdout)
    out = tmp_path / "imp.parquet"
    run(SOLVE_BATCH + ["--game", "impossible", "--n", "5", "--out", str(out), "--quiet"])
    row = pd.read_parquet(out).set_index("seed").loc[4]
    assert (row.outcome, row.score, row.steps) == (data["outcome"], data["score"], data["steps"])
    assert len(data["moves"]) == data["steps"]
