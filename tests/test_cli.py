"""The command line: output shapes, and one-line errors with a non-zero exit for bad input."""

import json
import os
import shlex
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from winnable import get_game, solve_batch

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
    (["solve", "--game", "nineball"], "give exactly one of --seed N, --pysol N or --deal"),
    (["batch", "--game", "nineball", "--n", "0"], "--n must be at least 1"),
    (["batch", "--game", "nineball", "--n", "5", "--workers", "0"], "--workers must be at least 1"),
    (["summary", "no-such-file.parquet"], "no such file: no-such-file.parquet"),
    (["batch", "--game", "nineball", "--n", "5", "--scheduler", "localhost:8786"], "--scheduler must look like tcp://HOST:PORT"),
    (["solve", "--game", "nineball", "--seed", "x"], "'x' is not a valid integer"),
    (["solve", "--game", "nineball", "--seed", "99999999999999999999999"],
     "--seed must be at most 9223372036854775807"),
    (["batch", "--game", "nineball", "--n", "10", "--start", "9223372036854775800"],
     "past the last deal number"),
    (["batch", "--game", "chinese", "--n", "2", "--option", "budget=abc"],
     "bad value 'abc' for option budget of chinese solver thoughtful: expected a whole number, at least 1"),
    (["batch", "--game", "chinese", "--n", "2", "--option", "budget=-5"],
     "bad value -5 for option budget"),
    (["batch", "--game", "chinese", "--n", "2", "--option", "budget=0"],
     "bad value 0 for option budget"),
    (["batch", "--game", "chinese", "--n", "2", "--solver", "sampling", "--option", "samples=0"],
     "bad value 0 for option samples of chinese solver sampling: expected a whole number, 1 to 256"),
    (["batch", "--game", "chinese", "--n", "2", "--option", "memory_mb=100000000"],
     "bad value 100000000 for option memory_mb"),
    (["batch", "--game", "impossible", "--n", "2", "--solver", "lookahead", "--option",
      "rollouts=-1"], "bad value -1 for option rollouts of impossible solver lookahead"),
    (["batch", "--game", "impossible", "--n", "2", "--option", "rollouts=8"],
     "option 'rollouts' does not apply to impossible solver greedy (it takes no options)"),
    (["batch", "--game", "impossible", "--n", "2", "--option", "record_moves=1"],
     "option 'record_moves' does not apply"),
    (["solve", "--game", "impossible", "--seed", "1", "--option", "record_moves=0"],
     "option 'record_moves' does not apply"),
    (["batch", "--game", "nineball", "--n", "2", "--chunk", "0"], "--chunk must be at least 1"),
    (["batch", "--game", "nineball", "--n", "2", "--out", "/proc/x.parquet"],
     "cannot write --out /proc/x.parquet"),
    (["batch", "--game", "nineball", "--n", "2", "--out", "{file}/x.parquet"],
     "is not a folder"),
    (["solve", "--game", "impossible", "--seed", "1", "--variant", "jokers=1"],
     "bad value '1' for variant jokers of impossible: expected 0 or 2"),
    (["solve", "--game", "impossible", "--deal", "{impossible_52}"],
     "an impossible deal has 54 cards, got 52 (missing: X1 X2)"),
    (["solve", "--game", "impossible", "--variant", "jokers=0", "--deal", "{impossible_54}"],
     "is not in the impossible (jokers=0) deck"),
    (["solve", "--game", "nineball", "--deal", "{nineball_17}"],
     "a nineball deal has 18 cards, got 17 (missing: "),
    (["solve", "--game", "addario", "--deal", "AH AH"], "card AH appears twice"),
    (["solve", "--game", "nineball", "--deal", "AH ZZ"], "position 2: unknown card code 'ZZ'"),
    (["plot", "winrate", "{run}", "--out", "/proc/x"], "cannot write the figure /proc/x"),
    (["summary", "{table}"], "is not a winnable run file"),
])
def test_user_errors_are_one_line(args, needle, tmp_path, run_file, run_cli, monkeypatch):
    """In this process (``run_cli``): an error other than a user's would escape as an exception
    instead of exiting, and fail the test as a traceback would."""
    (tmp_path / "file").write_text("a file, not a folder")
    pd.DataFrame({"x": [1]}).to_parquet(tmp_path / "table.parquet")
    impossible = get_game("impossible")
    names = {"file": tmp_path / "file", "table": tmp_path / "table.parquet", "run": run_file,
             "impossible_52": impossible.format_deal(impossible.deal(1, {"jokers": 0})),
             "impossible_54": impossible.format_deal(impossible.deal(1)),
             "nineball_17": " ".join(get_game("nineball").format_deal(
                 get_game("nineball").deal(1)).split()[1:])}
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(*[a.format(**names) for a in args])
    assert code != 0
    assert needle in err
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "runs").exists()  # nothing solved, nothing written


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "nb.parquet"
    solve_batch("nineball", n=20, out=out, workers=1, progress=False)
    return out


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


def test_help_names_the_commands():
    p = run(SOLVE_BATCH[:1] + ["-m", "winnable", "--help"])
    assert p.returncode == 0 and p.stdout.startswith("Usage: winnable "), p.stdout[:200]
    for args in (["batch", "-h"], ["solve", "-h"]):
        assert run(WINNABLE + args).returncode == 0
    p = run(SOLVE_BATCH + ["-h"])
    assert p.returncode == 0 and p.stdout.startswith("Usage: solve-batch "), p.stdout[:200]


def test_batch_says_what_it_does_and_where_the_rows_went(tmp_path):
    p = run(SOLVE_BATCH + ["--game", "nineball", "--n", "20", "--workers", "1"], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "compiling" in p.stderr and "ready in" in p.stderr
    assert "deals stored in runs/nineball_thoughtful.parquet (20 solved now, 0 already there)" \
        in p.stdout
    again = run(SOLVE_BATCH + ["--game", "nineball", "--n", "30", "--quiet"], cwd=tmp_path)
    assert again.stderr == "" and "(10 solved now, 20 already there)" in again.stdout


def test_output_cannot_go_to_a_read_only_folder(tmp_path):
    """A folder without write permission (for root: a read-only bind mount)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    args = ["--game", "nineball", "--n", "5", "--quiet", "--out", f"{folder}/x.parquet"]
    if os.geteuid() != 0:
        folder.chmod(0o555)
        p = run(SOLVE_BATCH + args)
    else:
        try_mount = run(["unshare", "-rm", "true"]) if shutil.which("unshare") else None
        if try_mount is None or try_mount.returncode != 0:
            pytest.skip("root, and no user namespace for a read-only bind mount")
        script = (f"mount --bind -o ro {shlex.quote(str(folder))} {shlex.quote(str(folder))} && "
                  + shlex.join(SOLVE_BATCH + args))
        p = run(["unshare", "-rm", "sh", "-c", script])
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr.startswith(f"error: cannot write --out {folder}/x.parquet: ")
    assert ("Read-only file system" in p.stderr or "Permission denied" in p.stderr)
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_summary_counts_each_deal_once(tmp_path, run_cli):
    small, large = tmp_path / "a.parquet", tmp_path / "b.parquet"
    solve_batch("nineball", n=20, out=small, workers=1, progress=False)
    solve_batch("nineball", n=50, out=large, workers=1, progress=False)
    for files, deals in (([small, small], 20), ([small, large], 50), ([large, small], 50)):
        code, out, err = run_cli("summary", *files)
        assert code == 0, err
        assert f"deals {deals}: " in out and out.count("nineball |") == 1, out
    # The same deal with another result, or another run of the same rules, is refused.
    changed = pd.read_parquet(large)
    changed.loc[changed.seed == 7, ["outcome", "score"]] = ["loss", 3]
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(changed, preserve_index=False)
    pq.write_table(table.replace_schema_metadata(pq.read_schema(large).metadata),
                   tmp_path / "changed.parquet")
    code, _, err = run_cli("summary", small, tmp_path / "changed.parquet")
    assert code == 2 and "deal 7 of nineball solver thoughtful" in err, err
    assert len(err.strip().splitlines()) == 1
    budget = tmp_path / "budget.parquet"
    solve_batch("addario", n=5, solver="thoughtful", options={"budget": 100}, out=budget,
                workers=1, progress=False)
    solve_batch("addario", n=5, solver="thoughtful", out=tmp_path / "default.parquet", workers=1,
                progress=False)
    code, _, err = run_cli("summary", budget, tmp_path / "default.parquet")
    assert code == 2 and "different solver options (budget=100 / budget=10000000)" in err, err


def test_summary_of_several_games_and_rounded_values(tmp_path, run_cli):
    files = []
    for game in ("nineball", "impossible"):
        files.append(tmp_path / f"{game}.parquet")
        solve_batch(game, n=10, out=files[-1], workers=1, progress=False)
    code, out, err = run_cli("summary", *files)
    assert code == 0, err
    assert "nan" not in out and "mean pickups" in out and "mean expected_score" in out
    _, csv, _ = run_cli("summary", "--csv", *files)
    assert not any(len(cell.split(".")[-1]) > 6 for cell in csv.replace("\n", ",").split(",")
                   if cell.replace(".", "").replace("-", "").isdigit() and "." in cell)
    _, out, _ = run_cli("solve", "--game", "nineball", "--solver", "nopeek-score", "--seed", "1")
    assert "expected_score: 24.7389" in out, out


def test_impossible_without_jokers_takes_the_52_cards(run_cli):
    game = get_game("impossible")
    deal = game.format_deal(game.deal(2, {"jokers": 0}))
    games = [run_cli("solve", "--game", "impossible", "--variant", "jokers=0", *how, "--json")
             for how in (("--deal", deal), ("--seed", "2"))]
    assert [code for code, _, _ in games] == [0, 0], games
    a, b = (json.loads(out) for _, out, _ in games)
    assert a["deal"] == b["deal"] == deal and a["moves"] == b["moves"]


def test_effort_figure_of_players_that_count_no_nodes(tmp_path, run_cli):
    out = tmp_path / "strategy.parquet"
    solve_batch("chinese", n=3, solver="strategy", out=out, workers=1, progress=False)
    code, _, err = run_cli("plot", "effort", out, "--out", tmp_path / "fig")
    assert code == 0, err
    assert (tmp_path / "fig.png").stat().st_size > 0
