"""Solitario di Addario wired to its players and solver."""

from __future__ import annotations

import numpy as np

from ..cards import CODES, code
from ..outcomes import LOSS, UNKNOWN, WIN, outcome_name
from ..rules import addario as R
from ..solvers import addario as S
from .base import Game, Option, OptionLimits, SolverInfo, solver_table, timed_columns

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
                                     OptionLimits(1, unit="pairs removed in the search"))}),
        SolverInfo("nopeek", "sees the tableau, not the deck: takes the pair after which the "
                   "most cards can go from the table before the next refill", _solver(_nopeek)),
    )
    batch_chunk = 10000
    bench_deals = 50000

    def layout(self, cards: np.ndarray) -> str:
        first_row = " ".join(code(int(c)) for c in cards[:R.COLS])
        return (f"first row: {first_row}\n"
                f"then drawn in order: {' '.join(code(int(c)) for c in cards[R.COLS:])}")
