"""Nineball Solitaire wired to its solvers."""

from __future__ import annotations

import numpy as np

from .. import pictures as P
from ..cards import CODES
from ..outcomes import LOSS, WIN, outcome_name
from ..rules import nineball as R
from ..solvers import nineball as S
from ..solvers import nineball_nopeek as NP
from ..session import Advice
from .base import Game, SolverInfo, solver_table
from .timing import timed_columns


def _thoughtful(game, deals, rules, options, record_moves):
    columns = timed_columns(deals, _Thoughtful(rules).search, game.format_line)
    best = columns["score"].copy()
    columns["expected_score"] = best.astype(np.float64)
    columns["win_probability"] = (best >= R.CLEARED_MIN_SCORE).astype(np.float64)
    return _with_thoughtful(columns, best)


def _no_peek(objective):
    def run(game, deals, rules, options, record_moves):
        codes = R.rule_params(rules)
        memo = NP.Scratch()
        expected: list[float] = []
        win: list[float] = []

        def search(deal):
            value, chance, score, expanded, length, _ = NP.nopeek(
                deal, codes, objective, memo.memo, memo.generation.next(), memo.work, memo.line)
            expected.append(value)
            win.append(chance)
            return outcome_name(_outcome(score)), score, expanded, memo.line[:length]

        columns = timed_columns(deals, search, game.format_line)
        # The exact values are multiples of 1/720 (NP.DENOMINATOR): snap off float noise.
        for name, values in (("expected_score", expected), ("win_probability", win)):
            columns[name] = np.round(np.array(values) * NP.DENOMINATOR) / NP.DENOMINATOR
        thoughtful = _Thoughtful(rules)
        best = np.array([thoughtful.search(deal)[1] for deal in deals], dtype=np.int16)
        return _with_thoughtful(columns, best)

    return run


class _Thoughtful:
    """The exact optimum of deal after deal, in one memo."""

    def __init__(self, rules):
        self.codes = R.rule_params(rules)
        self.scratch = S.Scratch()

    def search(self, deal):
        """(outcome, score, states expanded, line), as ``timed_columns`` takes them."""
        scratch = self.scratch
        score, expanded, length = S.thoughtful(deal, self.codes, scratch.memo,
                                               scratch.generation.next(), scratch.moves,
                                               scratch.line)
        return outcome_name(_outcome(score)), score, expanded, scratch.line[:length]


def _with_thoughtful(columns, best):
    """The thoughtful optimum of each deal beside any solver's columns."""
    columns["thoughtful_score"] = best
    columns["thoughtful_win"] = best >= R.CLEARED_MIN_SCORE
    return columns


def _outcome(score: int) -> int:
    return WIN if score >= R.CLEARED_MIN_SCORE else LOSS


class Nineball(Game):
    rules_module = R
    solvers = solver_table(
        SolverInfo(
            "thoughtful",
            "exact optimum with every card known: best score, whether a win exists, one "
            "optimal line of play", _thoughtful,
        ),
        SolverInfo(
            "nopeek-score",
            "exact optimal player that sees only what a person sees (face-down kitchen cards "
            "unknown): maximum expected score, ties broken by win probability; its exact "
            "values, then its play of the actual deal", _no_peek(NP.OBJECTIVE_SCORE),
        ),
        SolverInfo(
            "nopeek-win",
            "as nopeek-score, but maximum probability of clearing the rack, ties broken by "
            "expected score", _no_peek(NP.OBJECTIVE_WIN),
        ),
    )
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

    hint_player = "nopeek-win"
    move_example = "2H+7D"

    def layout(self, cards: np.ndarray) -> str:
        return R.layout(cards)

    def scene(self, table, peek: bool = False) -> P.Scene:
        """The rack as its 1-2-3-2-1 diamond, each row lying on the row above it; the kitchen's
        three piles to its right, the top card face up on the face-down ones."""
        scene = P.Scene()
        top = P.MARGIN + P.LABEL_H
        step = P.CARD_W + 8
        middle = P.MARGIN + step + P.CARD_W / 2
        present = table.state >> 6
        scene.label("rack", P.MARGIN, P.MARGIN + 10)
        for r, row in enumerate(R.RACK_ROWS):
            for k, i in enumerate(row):
                if present >> i & 1:
                    scene.card(table.deal[i], middle + (k - (len(row) - 1) / 2) * step
                               - P.CARD_W / 2, top + r * P.CARD_H / 2)
        left = P.MARGIN + 3 * step + 3 * P.GAP
        scene.label("kitchen", left, P.MARGIN + 10)
        for p in range(R.PILES):
            x = left + p * (P.CARD_W + P.GAP)
            height = int(R.pile_height(table.state, p))
            first = R.RACK + R.PILE_DEPTH * p
            if not height:
                scene.space(x, top, "empty")
            scene.fan(table.deal[first:first + height], x, top,
                      hidden=[depth < height - 1 for depth in range(height)])
        bottom = top + 3 * P.CARD_H + P.LABEL_H
        scene.label(f"rack cards removed: {int(R.rack_removed(table.state))} · score if play "
                    f"ended here: {table.score()}", P.MARGIN, bottom)
        return scene

    def hint(self, session) -> Advice:
        table = session.table
        if not hasattr(self, "_nopeek"):
            self._nopeek = NP.Scratch()
        score, win, group = NP.decide_at(table.deal, table.state, table.codes,
                                         NP.OBJECTIVES[self.hint_player], self._nopeek)
        return Advice(self.hint_player, table.format(group) if group >= 0 else None, None, [],
                      f"the exact optimal player that sees only what you see (highest chance "
                      f"of clearing the rack): chance {win:.3f}, expected score {score:.2f}")

    def solve_position(self, session, budget=None) -> Advice:
        """Exact: the thoughtful search of the deal leaves the best score still to come from
        every reachable position in its memo, and its best group there."""
        table = session.table
        search = _Thoughtful(session.rules)
        search.search(table.deal)
        memo = search.scratch.memo
        state, line = table.state, []
        final = int(R.rack_removed(state)) + int(memo.value[state])
        while memo.move[state] >= 0:
            group = int(memo.move[state])
            line.append("+".join(CODES[c] for c in R.group_cards(table.deal, state, group)))
            state = int(R.apply_group(state, group))
        outcome = "win" if final >= R.CLEARED_MIN_SCORE else "loss"
        return Advice("thoughtful", line[0] if line else None, outcome, line,
                      f"exact, with every card known (the face-down kitchen cards too): best "
                      f"score {final}", peeks=True)

    def format_line(self, deal: np.ndarray, line: np.ndarray) -> list[str]:
        return ["+".join(CODES[c] for c in R.group_cards(deal, state, int(group)))
                for state, group in zip(S.line_states(line), line)]
