"""A game in a package of its own (issue 59): the example examples/golf, installed as a user
installs a game (conftest.py: ``pip install -e examples/golf``), registers through its entry
point (group ``winnable.games``) and then works like the built-in four: `winnable games`,
`solve-batch` in worker processes, `winnable solve`, `play`, `sweep`, `plot`, `resolve`.  Its
own tests (examples/golf/tests/) run here too; the contract test covers it
(tests/test_games_contract.py)."""

import io
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from winnable import game_names, get_game
from winnable.games import GAMES, plugins

ROOT = Path(__file__).resolve().parent.parent


def test_the_plugin_is_found_through_its_entry_point():
    assert plugins()["golf"] == "winnable_golf.game:Golf" and "golf" not in GAMES
    assert game_names()[:4] == ("nineball", "addario", "chinese", "impossible")
    assert "golf" in game_names() and get_game("Golf").title == "Golf (patience)"


def test_winnable_games_lists_it_in_a_fresh_process():
    done = subprocess.run([sys.executable, "-m", "winnable", "games"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "golf: Golf (patience)" in done.stdout
    assert "solvers: thoughtful (default), longest-run" in done.stdout


def test_solve_batch_in_worker_processes_and_the_summary(run_cli, tmp_path):
    out = tmp_path / "golf.parquet"
    code, printed, err = run_cli("--game", "golf", "--n", "400", "--workers", "2", "--out", out,
                                 "--quiet", program="solve-batch")
    assert code == 0, err
    rows = pd.read_parquet(out)
    assert list(rows.seed) == list(range(1, 401)) and set(rows.outcome) <= {"win", "loss"}
    assert "golf | solver thoughtful" in printed and "mean stock_left" in printed
    game = get_game("golf")
    for seed in (1, 200, 400):
        row, solved = rows.set_index("seed").loc[seed], game.solve(seed)
        assert (row.outcome, row.score, row.moves.split()) == (
            solved.outcome, solved.score, solved.moves)


def test_solve_play_and_verify(run_cli, monkeypatch):
    code, printed, _ = run_cli("solve", "--game", "golf", "--seed", "1")
    assert code == 0 and "outcome: win   score: 35" in printed and "foundation: AD" in printed
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nhint\n4S\n2H\ncheck\nquit\n"))
    code, printed, _ = run_cli("play", "--game", "golf", "--seed", "1")
    assert code == 0
    assert "(5H, stock)" in printed                       # the help's example moves
    assert "hint (longest-run" in printed
    assert "illegal: 4S does not go on AD" in printed
    assert "1. 2H  2H from column 4 to the foundation" in printed
    assert "check (thoughtful, uses the hidden cards, budget 10,000,000): win" in printed
    moves = " ".join(get_game("golf").solve(1).moves)
    code, printed, _ = run_cli("verify", "--game", "golf", "--seed", "1", "--moves", moves)
    assert code == 0 and "outcome win, score 35" in printed


def test_sweep_plot_and_resolve(run_cli, tmp_path):
    sweeps = tmp_path / "sweep"
    code, printed, err = run_cli("sweep", "--game", "golf", "--n", "150", "--grid",
                                 "kings=stop,queen,wrap", "--workers", "1", "--out-dir", sweeps)
    assert code == 0, err
    summary = pd.read_csv(sweeps / "summary.csv").set_index("rules")
    # A Queen on a King, then the corner turned, only add plays: more deals won each time.
    assert summary.loc["default", "wins"] <= summary.loc["kings=queen", "wins"] <= \
        summary.loc["kings=wrap", "wins"]
    runs = sorted((sweeps / "runs").glob("*.parquet"))
    code, _, err = run_cli("plot", "paired", *runs[:2], "--out", tmp_path / "paired")
    assert code == 0, err
    assert (tmp_path / "paired.png").exists() and (tmp_path / "paired.svg").exists()

    small = tmp_path / "small.parquet"
    code, _, err = run_cli("--game", "golf", "--n", "60", "--option", "budget=2000",
                           "--workers", "1", "--out", small, "--quiet", program="solve-batch")
    unknown = (pd.read_parquet(small).outcome == "unknown").sum()
    assert code == 0 and unknown > 0, err
    code, printed, err = run_cli("resolve", small, "--option", "budget=10000000",
                                 "--workers", "1")
    assert code == 0, err
    rows = pd.read_parquet(small)
    assert (rows.outcome == "unknown").sum() == 0 and (rows.step == 1).sum() == unknown


def test_the_example_packages_own_tests(tmp_path):
    """examples/golf/tests/, as its author runs them (a process of their own)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-o", "addopts=", "-p", "no:xdist", "tests"],
                          cwd=ROOT / "examples" / "golf", capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
