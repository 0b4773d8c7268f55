"""Nineball Solitaire wired to its solvers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cards import CODES
from ..rules import nineball as R
from ..solvers import nineball as S
from .base import Game, SolverInfo, timed_columns


class Nineball(Game):
    rules_module = R
    solvers = {
        "thoughtful": SolverInfo(
            "thoughtful",
            "exact optimum with every card known: best score, whether a win exists, one "
            "optimal line of play",
        ),
    }
    default_solver = "thoughtful"
    batch_chunk = 10000
    bench_deals = 50000

    def layout(self, cards: np.ndarray) -> str:
        return R.layout(cards)

    def format_line(self, deal: np.ndarray, line: np.ndarray) -> list[str]:
        return ["+".join(CODES[c] for c in R.group_cards(deal, state, int(group)))
                for state, group in zip(S.line_states(line), line)]

    def solve_deals(self, deals: np.ndarray, rules, solver: str,
                    options: Mapping[str, Any], seeds=None) -> dict[str, Any]:
        kitchen_limit, target_mask, bonus_always = R.rule_params(rules)
        scratch = S.Scratch()

        def search(deal):
            score, expanded, length = S.thoughtful(
                deal, kitchen_limit, target_mask, bonus_always, scratch.memo_value,
                scratch.memo_move, scratch.generation.stamps, scratch.generation.next(),
                scratch.moves, scratch.line)
            outcome = "win" if score >= R.CLEARED_MIN_SCORE else "loss"
            return outcome, score, expanded, scratch.line[:length]

        return timed_columns(deals, search, self.format_line)
