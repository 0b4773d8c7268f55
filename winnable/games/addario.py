"""Solitario di Addario wired to its players and solver."""

from __future__ import annotations

import numpy as np

from .. import pictures as P
from ..cards import CODES, code
from ..outcomes import LOSS, UNKNOWN, WIN, outcome_name
from ..rules import addario as R
from ..solvers import addario as S
from ..session import Advice
from .base import Game, Option, OptionLimits, SolverInfo, solver_table
from .timing import timed_columns

DEFAULT_BUDGET = 10_000_000


def _solver(play):
    """A solver's ``run``: ``play(scratch, deal, cfe, options)`` returns (score, pairs removed,
    moves recorded in ``scratch.moves``, whether the search was complete)."""
    def run(game, deals, rules, options, record_moves):
        cfe = bool(rules["column_free_equal"])
        scratch = S.Scratch()

        def search(deal):
            score, expanded, length, complete = play(scratch, deal, cfe, options)
            outcome = WIN if score == R.N_CARDS else (LOSS if complete else UNKNOWN)
            return outcome_name(outcome), score, expanded, scratch.moves[:length]

        def describe(deal, pairs):
            return [f"{CODES[deal[m >> 6]]}+{CODES[deal[m & 63]]}" for m in pairs]

        return timed_columns(deals, search, describe)

    return run


def _first(scratch, deal, cfe, options):
    score, length = S.play_line(deal, cfe, scratch.path, 0, scratch.moves)
    return score, length, length, True


def _thoughtful(scratch, deal, cfe, options):
    score, expanded, length, complete = S.thoughtful(deal, cfe, options["budget"], scratch.memo,
                                                     scratch.generation.next(), scratch.path,
                                                     scratch.moves)
    return score, expanded, length, complete


def _nopeek(scratch, deal, cfe, options):
    score, expanded, length = S.nopeek(deal, cfe, scratch.memo,
                                       scratch.generation.reserve(S.NOPEEK_STAMPS),
                                       scratch.path, scratch.moves)
    return score, expanded, length, True


class Addario(Game):
    rules_module = R
    solvers = solver_table(
        SolverInfo("first", "plays the deal as written: the first pair of the top tier, pairs "
                   "compared by their positions in reading order", _solver(_first)),
        SolverInfo("thoughtful", "every choice of pair searched with every card known: does any "
                   "sequence of choices win, and the best score", _solver(_thoughtful),
                   {"budget": Option(DEFAULT_BUDGET,
                                     OptionLimits(1, unit="pairs removed in the search"))},
                   undecided=True),
        SolverInfo("nopeek", "sees the tableau, not the deck: takes the pair after which the "
                   "most cards can go from the table before the next refill", _solver(_nopeek)),
    )
    batch_chunk = 10000
    bench_deals = 50000
    hint_player = "nopeek"
    move_example = "5H+5C"
    position_budget = 1_000_000

    def _scratch(self):
        if not hasattr(self, "_position_scratch"):
            self._position_scratch = S.Scratch()
        return self._position_scratch

    def hint(self, session) -> Advice:
        table = session.table
        legal = table.legal()
        if not legal:
            return Advice(self.hint_player, None, None, [], "no pair is left")
        scratch = self._scratch()
        pairs = np.array(legal + [0] * (R.MAX_PAIRS - len(legal)), dtype=np.int64)
        choice, _ = S.nopeek_choice(table.tableau, table.values, table.cfe, pairs, len(legal),
                                    scratch.memo, scratch.generation.next(), scratch.path)
        return Advice(self.hint_player, table.format(legal[choice]), None, [],
                      "sees the table, not the deck: the pair after which the most cards can "
                      "go before the next refill")

    def solve_position(self, session, budget=None) -> Advice:
        table = session.table
        budget = budget or self.position_budget
        scratch = self._scratch()
        columns, heights, state = table.tableau
        best, nodes, complete, length = S.search(
            R.Tableau(columns.copy(), heights.copy(), state.copy()),
            S.Deal(table.values, R.N_CARDS, table.cfe), budget, scratch.memo,
            scratch.generation.next(), scratch.path)
        # The line: the best choices at each choice point, the forced pairs between them.
        replay = session.copy()
        replay.automatic = True
        line, k = [], 0
        while not replay.over:
            legal = replay.table.legal()
            pick = 0
            if len(legal) > 1:
                pick = int(scratch.path[k]) if k < length else 0
                k += 1
            line += [step.move for step in replay.play(replay.table.format(legal[pick]))]
        outcome = ("win" if best == R.N_CARDS else "loss" if complete else "unknown")
        return Advice("thoughtful", line[0] if line else None, outcome, line,
                      f"searched with every card known (the deck too), {nodes:,} pairs of a "
                      f"budget of {budget:,}: best score {max(best, replay.score)}", peeks=True)

    def scene(self, table, peek: bool = False) -> P.Scene:
        """The four columns, each row lying on the one before; the deck to their right."""
        scene = P.Scene()
        columns, heights, state = table.tableau
        top = P.MARGIN + P.LABEL_H
        for c in range(R.COLS):
            x = P.MARGIN + c * (P.CARD_W + P.GAP)
            if not heights[c]:
                scene.space(x, top)
            scene.fan([table.deal[columns[c, r]] for r in range(int(heights[c]))], x, top)
        left = P.MARGIN + R.COLS * (P.CARD_W + P.GAP) + 2 * P.GAP
        bottom = scene.deck(table.deal[int(state[0]):], left, top, peek)
        scene.label(f"discarded: {table.score()}", left, bottom + P.LABEL_H)
        return scene

    def layout(self, cards: np.ndarray) -> str:
        first_row = " ".join(code(int(c)) for c in cards[:R.COLS])
        return (f"first row: {first_row}\n"
                f"then drawn in order: {' '.join(code(int(c)) for c in cards[R.COLS:])}")
