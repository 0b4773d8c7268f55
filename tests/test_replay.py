"""A batch row's deal string is a complete description of its game: `winnable solve --deal` of
it replays the row exactly (outcome, score, moves, nodes and extra columns), for every game and
player, random players included."""

import json
import subprocess
import sys

import numpy as np
import pytest

from winnable import GAME_NAMES, get_game, solve_batch

CASES = [(name, solver, {}) for name in GAME_NAMES for solver in get_game(name).solvers]
CASES += [("impossible", "random", {"jokers": 0}), ("chinese", "random", {"easy": 1}),
          ("nineball", "thoughtful", {"kitchen_per_group": 1})]
DEALS = {"chinese": [1, 2], "impossible": [1, 2, 3, 4]}


def _id(case):
    name, solver, flags = case
    return "-".join([name, solver] + [f"{k}={v}" for k, v in flags.items()])


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_a_rows_deal_string_replays_the_row(case):
    name, solver, flags = case
    game = get_game(name)
    seeds = np.array(DEALS.get(name, [1, 2, 3]))
    rows = game.solve_seeds(seeds, flags, solver)
    for k, seed in enumerate(seeds):
        replay = game.solve(rows["deal"][k], flags, solver)
        assert replay.deal == rows["deal"][k]
        assert (replay.outcome, replay.score, replay.nodes) == (
            rows["outcome"][k], rows["score"][k], rows["nodes"][k]), seed
        if game.batch_moves:
            assert replay.moves == list(rows["moves"][k]), seed
        else:  # the batch leaves the moves out; the game replayed is the same game
            assert replay.moves == game.solve(int(seed), flags, solver).moves
        for column in game.extra_columns:
            assert replay.extra[column] == pytest.approx(rows[column][k]), (seed, column)


def test_impossible_row_replays_from_the_command_line(tmp_path):
    out = tmp_path / "imp.parquet"
    solve_batch("impossible", n=3, solver="greedy", out=out, workers=1, progress=False)
    import pandas as pd
    row = pd.read_parquet(out).set_index("seed").loc[2]
    p = subprocess.run([sys.executable, "-m", "winnable", "solve", "--game", "impossible",
                        "--solver", "greedy", "--deal", row.deal, "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert (data["outcome"], data["score"], data["steps"]) == (row.outcome, row.score, row.steps)
    assert len(data["moves"]) == row.steps
