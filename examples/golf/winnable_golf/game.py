"""Golf wired to winnable: the game class that the entry point in pyproject.toml names.

Everything a built-in game has comes from ``winnable.games.base.Game``: deals by number (the
same deal on every machine), rule flags, batches, resolve, sweeps, figures, `winnable play`.
What is Golf's own: the rules module, the two solvers' ``run`` functions, the extra column, the
hint and the thoughtful search from a position, and the reference the contract test replays
lines with.
"""

from __future__ import annotations

import copy

import numpy as np

from winnable.games.base import Game, Option, OptionLimits, SolverInfo, solver_table
from winnable.games.timing import timed_columns
from winnable.outcomes import outcome_name
from winnable.session import Advice

from . import rules as R
from . import solvers as S

DEFAULT_BUDGET = 10_000_000  # positions: a second or two of search


def _scratch() -> S.Scratch:
    """One set of search buffers per process (7.7 MB)."""
    global _SCRATCH
    if _SCRATCH is None:
        _SCRATCH = S.Scratch()
    return _SCRATCH


_SCRATCH = None


def _replayed(table: R.Table, moves) -> list[str]:
    """Play ``moves`` (move codes) on ``table``; each as it is written."""
    written = []
    for move in moves:
        written.append(table.format(int(move)))
        table.play(int(move))
    return written


def _finish(table: R.Table) -> list[str]:
    """Play a lost deal to its end (a play from the columns first, else the stock): after a
    complete search no line takes more cards than the best one, so the score stays."""
    written = []
    while not table.over():
        move = table.legal()[0]
        written.append(table.format(move))
        table.play(move)
    return written


def _run(play):
    """A solver's ``run``: ``play(deal, rules, options)`` returns (outcome code, nodes, move
    codes, whether to play a loss to its end)."""
    def run(game, deals, rules, options, record_moves):
        tables = []

        def search(deal):
            outcome, nodes, line, finish = play(deal, rules, options)
            table = R.Table(deal, rules)
            written = _replayed(table, line) + (_finish(table) if finish else [])
            tables.append(table)
            return outcome_name(outcome), table.score(), nodes, written

        columns = timed_columns(deals, search, lambda deal, written: written)
        columns["stock_left"] = np.array([t.stock_left() for t in tables], dtype=np.int8)
        return columns

    return run


def _thoughtful(deal, rules, options):
    columns, stock, top = R.layout(deal)
    heights = np.full(R.COLUMNS, R.HEIGHT, dtype=np.int8)
    scratch = _scratch()
    outcome, _, nodes, length = S.search(columns, stock, heights, 0, top,
                                         R.KINGS[rules["kings"]], options["budget"],
                                         scratch.seen, scratch.path, scratch.best)
    return outcome, nodes, scratch.best[:length].copy(), outcome == S.LOSS


def _longest_run(deal, rules, options):
    columns, stock, top = R.layout(deal)
    line = np.zeros(S.MAX_LINE, dtype=np.int8)
    outcome, _, _, length = S.play_longest_run(columns, stock, top, R.KINGS[rules["kings"]],
                                               line)
    return outcome, length, line[:length], False


class Golf(Game):
    rules_module = R
    solvers = solver_table(
        SolverInfo("thoughtful", "every position searched with the stock's order known: whether "
                   "any line clears the columns, else the most cards a line takes",
                   _run(_thoughtful),
                   {"budget": Option(DEFAULT_BUDGET,
                                     OptionLimits(1, unit="positions searched"))},
                   chunk=200, undecided=True),
        SolverInfo("longest-run", "sees the columns and the foundation, not the stock: plays "
                   "the card that starts the longest run of plays from the columns, else turns "
                   "the stock", _run(_longest_run)),
    )
    extra_columns = ("stock_left",)
    column_names = {"stock_left": "stock cards left at the end"}
    summary_means = ("stock_left",)
    hint_player = "longest-run"
    position_budget = DEFAULT_BUDGET
    move_example = "5H, stock"
    reference = "winnable_golf.reference:replay_score"

    def layout(self, cards: np.ndarray) -> str:
        return R.Table(cards, self.rules()).board(peek=True)

    def hint(self, session) -> Advice:
        table = session.table
        move = S.longest_run_choice(table.columns, table.heights.copy(), table.top,
                                    table.kings)
        chosen = move if move in table.legal() else None
        return Advice(self.hint_player, None if chosen is None else table.format(chosen), None,
                      [], "sees the columns and the foundation, not the stock: the card that "
                      "starts the longest run of plays from the columns")

    def solve_position(self, session, budget=None) -> Advice:
        table = session.table
        scratch = _scratch()
        outcome, taken, nodes, length = S.search(
            table.columns, table.stock, table.heights.copy(), table.turned, table.top,
            table.kings, budget or self.position_budget, scratch.seen, scratch.path,
            scratch.best)
        line = _replayed(copy.deepcopy(table), scratch.best[:length])
        return Advice("thoughtful", line[0] if line else None, outcome_name(outcome), line,
                      f"with the stock's order known: {nodes:,} positions searched, at most "
                      f"{taken} cards taken from the columns", peeks=True)
