"""Solitario di Addario wired to its players and solver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cards import CODES, code
from ..rules import addario as R
from ..solvers import addario as S
from .base import Game, OptionLimits, SolverInfo, timed_columns

DEFAULT_BUDGET = 10_000_000


class Addario(Game):
    rules_module = R
    solvers = {
        "first": SolverInfo("first", "plays the deal as written: the first pair of the top "
                            "tier, pairs compared by their positions in reading order"),
        "thoughtful": SolverInfo("thoughtful", "every choice of pair searched with every card "
                                 "known: does any sequence of choices win, and the best score",
                                 {"budget": DEFAULT_BUDGET}),
        "nopeek": SolverInfo("nopeek", "sees the tableau, not the deck: takes the pair after "
                             "which the most cards can go from the table before the next "
                             "refill"),
    }
    default_solver = "first"
    option_limits = {"budget": OptionLimits(1, unit="pairs removed in the search")}
    batch_chunk = 10000
    bench_deals = 50000

    def layout(self, cards: np.ndarray) -> str:
        first_row = " ".join(code(int(c)) for c in cards[:R.COLS])
        return (f"first row: {first_row}\n"
                f"then drawn in order: {' '.join(code(int(c)) for c in cards[R.COLS:])}")

    def solve_deals(self, deals: np.ndarray, rules, solver: str,
                    options: Mapping[str, Any], record_moves: bool = True) -> dict[str, Any]:
        cfe = bool(rules["column_free_equal"])
        scratch = S.Scratch()
        budget = int(options.get("budget", DEFAULT_BUDGET))
        line = scratch.moves

        def search(deal):
            complete = True
            if solver == "first":
                score, length = S.play_line(deal, cfe, scratch.path, 0, line)
                expanded = length
            elif solver == "thoughtful":
                score, expanded, length, complete = S.thoughtful(
                    deal, cfe, budget, scratch.memo, scratch.generation.next(), scratch.path,
                    line)
            else:
                score, expanded, length = S.nopeek(
                    deal, cfe, scratch.memo, scratch.generation.reserve(S.NOPEEK_STAMPS),
                    scratch.path, line)
            outcome = "win" if score == R.N_CARDS else ("loss" if complete else "unknown")
            return outcome, score, expanded, line[:length]

        def describe(deal, pairs):
            return [f"{CODES[deal[m >> 6]]}+{CODES[deal[m & 63]]}" for m in pairs]

        return timed_columns(deals, search, describe)
