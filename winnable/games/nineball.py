"""Nineball Solitaire wired to its solvers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cards import CODES
from ..rules import nineball as R
from ..solvers import nineball as S
from ..solvers import nineball_nopeek as NP
from .base import Game, SolverInfo, timed_columns


class Nineball(Game):
    rules_module = R
    solvers = {
        "thoughtful": SolverInfo(
            "thoughtful",
            "exact optimum with every card known: best score, whether a win exists, one "
            "optimal line of play",
        ),
        "nopeek-score": SolverInfo(
            "nopeek-score",
            "exact optimal player that sees only what a person sees (face-down kitchen cards "
            "unknown): maximum expected score, ties broken by win probability; its exact "
            "values, then its play of the actual deal",
        ),
        "nopeek-win": SolverInfo(
            "nopeek-win",
            "as nopeek-score, but maximum probability of clearing the rack, ties broken by "
            "expected score",
        ),
    }
    default_solver = "thoughtful"
    # Per deal, for every solver: the player's exact expected score and win probability (for
    # thoughtful, its score and 0/1), and the thoughtful optimum of the same deal beside them.
    extra_columns = ("expected_score", "win_probability", "thoughtful_score", "thoughtful_win")
    summary_means = extra_columns
    column_names = {"expected_score": "expected score (points)",
                    "win_probability": "probability of clearing the rack",
                    "thoughtful_score": "best score with every card known (points)",
                    "thoughtful_win": "rack clearable with every card known (share)"}
    batch_chunk = 10000
    bench_deals = 50000

    def layout(self, cards: np.ndarray) -> str:
        return R.layout(cards)

    def format_line(self, deal: np.ndarray, line: np.ndarray) -> list[str]:
        return ["+".join(CODES[c] for c in R.group_cards(deal, state, int(group)))
                for state, group in zip(S.line_states(line), line)]

    def solve_deals(self, deals: np.ndarray, rules, solver: str,
                    options: Mapping[str, Any], record_moves: bool = True) -> dict[str, Any]:
        codes = R.rule_params(rules)
        scratch = S.Scratch()
        best = np.empty(len(deals), dtype=np.int16)

        def thoughtful(deal):
            score, expanded, length = S.thoughtful(deal, codes, scratch.memo,
                                                   scratch.generation.next(), scratch.moves,
                                                   scratch.line)
            return score, expanded, scratch.line[:length]

        if solver == "thoughtful":
            def search(deal):
                score, expanded, line = thoughtful(deal)
                return _outcome(score), score, expanded, line
            columns = timed_columns(deals, search, self.format_line)
            best[:] = columns["score"]
            columns["expected_score"] = best.astype(np.float64)
            columns["win_probability"] = (best >= R.CLEARED_MIN_SCORE).astype(np.float64)
        else:
            objective = NP.OBJECTIVES[solver]
            memo = NP.Scratch()
            expected: list[float] = []
            win: list[float] = []

            def search(deal):
                value, chance, score, expanded, length, _ = NP.nopeek(
                    deal, codes, objective, memo.memo, memo.generation.next(), memo.work,
                    memo.line)
                expected.append(value)
                win.append(chance)
                return _outcome(score), score, expanded, memo.line[:length]

            columns = timed_columns(deals, search, self.format_line)
            # The exact values are multiples of 1/720 (NP.DENOMINATOR): snap off float noise.
            for name, values in (("expected_score", expected), ("win_probability", win)):
                columns[name] = np.round(np.array(values) * NP.DENOMINATOR) / NP.DENOMINATOR
            for i, deal in enumerate(deals):
                best[i] = thoughtful(deal)[0]
        columns["thoughtful_score"] = best
        columns["thoughtful_win"] = best >= R.CLEARED_MIN_SCORE
        return columns


def _outcome(score: int) -> str:
    return "win" if score >= R.CLEARED_MIN_SCORE else "loss"
