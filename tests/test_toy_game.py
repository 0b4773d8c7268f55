"""A fifth game in a few lines: its classes (below) and one line in the registry make
`solve-batch`, `winnable solve` and `winnable play` work for it, as the game contract
(``winnable.games.base``) promises."""

import io
import sys

import numpy as np
import pandas as pd
import pytest

from winnable.cards import CODES
from winnable.errors import IllegalMove
from winnable.games import GAMES, get_game
from winnable.games.base import Game, SolverInfo, solver_table
from winnable.games.timing import timed_columns
from winnable.runs.store import startup


class Turns:
    """The toy in play: four cards face down in a row, turned one by one; a card showing its own
    place (the ace first, the 2 second, ...) loses the game, four turned without one win it."""

    forced_automatic = False

    def __init__(self, cards, rules=None, player=None):
        self.cards, self.turned = [int(c) for c in cards], 0

    def legal(self):
        return [] if self.over() else [0]

    def parse(self, text):
        if text.strip() != "turn" or self.over():
            raise IllegalMove("the only move is `turn`, while the game goes on")
        return 0

    def format(self, move):
        return "turn"

    def describe(self, move):
        return f"turns card {self.turned + 1}"

    def play(self, move):
        self.turned += 1
        return f"turns up {CODES[self.cards[self.turned - 1]]}"

    def lost(self):
        return any(card % 13 == place for place, card in enumerate(self.cards[:self.turned]))

    def over(self):
        return self.lost() or self.turned == len(self.cards)

    def outcome(self):
        return "loss" if self.lost() else "win"

    def score(self):
        return self.turned

    def board(self, peek=False):
        return " ".join(CODES[c] if k < self.turned or peek else "[??]"
                        for k, c in enumerate(self.cards))


def turn_every_card(game, deals, rules, options, record_moves):
    def search(deal):
        table = Turns(deal)
        while not table.over():
            table.play(0)
        return table.outcome(), table.score(), table.turned, [0] * table.turned

    return timed_columns(deals, search, lambda deal, line: ["turn"] * len(line))


class Toy(Game):
    name, title, flags = "toy", "Toy Solitaire (no card in its place)", {}
    deck = np.arange(4, dtype=np.int8)  # AC 2C 3C 4C
    solvers = solver_table(SolverInfo("turn", "turns every card", turn_every_card))
    move_example = "turn"

    def table(self, cards, rules, player=None):
        return Turns(cards)


@pytest.fixture
def toy(monkeypatch):
    """The registry line that adds the toy."""
    monkeypatch.setitem(GAMES, "toy", "tests.test_toy_game:Toy")
    return get_game("toy")


def test_solve_batch_runs_the_toy_in_worker_processes(toy, run_cli, tmp_path):
    out = tmp_path / "toy.parquet"
    code, printed, err = run_cli("--game", "toy", "--n", "300", "--workers", "2", "--chunk",
                                 "100", "--out", out, "--quiet", program="solve-batch")
    assert code == 0, err
    rows = pd.read_parquet(out)
    assert list(rows.seed) == list(range(1, 301)) and set(rows.outcome) == {"win", "loss"}
    for seed in (1, 2, 150, 300):
        solved = toy.solve(seed)
        row = rows.set_index("seed").loc[seed]
        assert (row.deal, row.outcome, row.score, row.moves.split()) == (
            solved.deal, solved.outcome, solved.score, solved.moves)
    # No card in its place: 9 of the 24 orders of four cards.
    assert "toy | solver turn" in printed and abs((rows.outcome == "win").mean() - 9 / 24) < 0.1
    assert startup(out)["processes"] == 2  # each worker got ready once: they knew the toy


def test_winnable_solve_and_games_know_the_toy(toy, run_cli):
    code, printed, _ = run_cli("solve", "--game", "toy", "--seed", "3")
    solved = toy.solve(3)
    assert code == 0 and f"outcome: {solved.outcome}   score: {solved.score}" in printed
    assert "1. turn  turns up 2C" in printed
    code, printed, _ = run_cli("games")
    assert code == 0 and "toy: Toy Solitaire" in printed


def test_winnable_play_plays_the_toy(toy, run_cli, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nhint\nflip\nturn\nturn\nturn\nturn\n"))
    code, printed, _ = run_cli("play", "--game", "toy", "--deal", "2C AC 4C 3C")
    assert code == 0
    assert "(turn)" in printed  # the help's example move
    assert "error: toy has no player to give hints" in printed
    assert "illegal: the only move is `turn`" in printed
    assert "1. turn  turns up 2C" in printed and "outcome: win   score: 4" in printed


def test_a_game_that_declares_too_little_is_refused():
    with pytest.raises(TypeError, match="does not declare deck, solvers"):
        type("Half", (Game,), {"name": "half", "title": "Half", "flags": {}})
