"""Nineball Solitaire wired to its solvers."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cards import CODES
from ..rules import nineball as R
from ..solvers import nineball as S
from .base import Game, SolverInfo


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
        n = len(deals)
        scores = np.empty(n, dtype=np.int16)
        nodes = np.empty(n, dtype=np.int64)
        seconds = np.empty(n, dtype=np.float64)
        moves: list[list[str]] = []
        for k in range(n):
            start = time.perf_counter()
            score, expanded, length = S.thoughtful(
                deals[k], kitchen_limit, target_mask, bonus_always, scratch.memo_value,
                scratch.memo_move, scratch.generation.stamps, scratch.generation.next(),
                scratch.moves, scratch.line)
            seconds[k] = time.perf_counter() - start
            scores[k] = score
            nodes[k] = expanded
            moves.append(self.format_line(deals[k], scratch.line[:length]))
        outcome = np.where(scores >= R.CLEARED_MIN_SCORE, "win", "loss").astype(object)
        return {"outcome": outcome, "score": scores, "moves": moves, "nodes": nodes,
                "seconds": seconds}
