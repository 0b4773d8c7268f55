"""Impossible wired to its players."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import shuffle
from ..cards import code
from ..outcomes import NAME_OF
from ..rules import impossible as R
from ..solvers import impossible as S
from ..session import Advice
from .base import Game, Option, OptionLimits, SolverInfo, Stopwatch, solver_table

MOVE_CAPACITY = 10_000  # actions kept per game in the `moves` column (the count is exact)
DEFAULT_ROLLOUTS = 8


def _player(player):
    def run(game, deals, rules, options, record_moves):
        """Games are played one call per game when their moves are recorded; otherwise a whole
        chunk runs in one kernel call and each game's ``seconds`` is the chunk's average."""
        codes = R.rule_params(rules)
        rollouts = options.get("rollouts", 0)  # only the lookahead player rolls out
        n = len(deals)
        table = np.zeros((n, 7), dtype=np.int64)
        seconds = np.empty(n, dtype=np.float64)
        moves: list[Sequence[str]] = [()] * n
        salt = np.uint64(game.salt)
        if not record_moves:
            clock = Stopwatch()
            S.play_deals(deals, salt, codes, player, rollouts, table)
            seconds[:] = clock.seconds() / max(n, 1)
        else:
            record = np.empty(MOVE_CAPACITY, dtype=np.int64)
            for k in range(n):
                clock = Stopwatch()
                result = S.play(deals[k], codes, player, rollouts,
                                shuffle.play_stream(salt, deals[k]), record)
                seconds[k] = clock.seconds()
                table[k, :6] = result[:6]
                table[k, 6] = result[7]
                moves[k] = [R.format_action(int(a)) for a in record[:result[6]]]
        columns = {name: table[:, c] for c, name in enumerate(
            ("outcome", "score", "pickups", "removals", "new_piles", "steps", "rollouts"))}
        columns["outcome"] = NAME_OF[columns["outcome"]]
        columns["nodes"] = columns["steps"]
        return {"moves": moves, "seconds": seconds, **columns}

    return run


class Impossible(Game):
    rules_module = R
    solvers = solver_table(
        SolverInfo("greedy", "picks up at once, uses the fifteen rule at once, covers the pair "
                   "that brings piles towards 11 cards", _player(S.GREEDY), chunk=20_000),
        SolverInfo("random", "uniformly random among the legal actions", _player(S.RANDOM),
                   chunk=20_000),
        SolverInfo("lookahead", "tries each action in rollouts finished by greedy, with the "
                   "unseen deck reshuffled (never read)", _player(S.LOOKAHEAD),
                   {"rollouts": Option(DEFAULT_ROLLOUTS,
                                       OptionLimits(1, unit="simulated games per action"))},
                   chunk=200),
    )
    # 2: every game draws from its deal's play stream (before: from the stream that dealt deal
    # n, continued), so a deal string replays its game; jokers=0 deals are the 52 cards.
    rules_version = 2
    extra_columns = ("pickups", "removals", "new_piles", "steps", "rollouts")
    summary_means = ("pickups", "new_piles", "steps")
    column_names = {"pickups": "piles picked up", "removals": "fifteen removals",
                    "new_piles": "new piles started", "steps": "decisions taken",
                    "rollouts": "simulated games"}
    batch_moves = False  # any game is replayed from its deal by `winnable solve`
    bench_deals = 100_000

    hint_player = "lookahead"
    BEST_ROLLOUTS = 64  # `best`: the lookahead player, thinking harder

    def _choice(self, table, rollouts: int):
        """The lookahead player's action at the table's turn, from a copy of its stream (so
        the game's own reshuffles stay as they are)."""
        if not hasattr(self, "_space"):
            self._space = S.workspace()
        space = self._space
        game, rng = table.game, table.rng.copy()
        if table.turn() == R.TAKE_BACK:
            return int(S.take_back_choice(game.size, game.order, game.st, table.codes.fifteen,
                                          S.GREEDY, rng, space.buffer)) + R.EMERGENCY
        legal = table.legal()
        if len(legal) == 1:
            return legal[0]
        space.actions[:len(legal)] = legal
        return int(S.lookahead_action(game, rng, table.codes, rollouts, space.actions,
                                      len(legal), space.buffer, space.rollout))

    def hint(self, session) -> Advice:
        if session.over:
            return Advice(self.hint_player, None, None, [], "the game is over")
        rollouts = self.solvers[self.hint_player].defaults["rollouts"]
        return Advice(self.hint_player, session.table.format(self._choice(session.table,
                                                                          rollouts)), None, [],
                      f"never reads the deck: each action tried in {rollouts} games finished "
                      "by greedy, the unseen deck shuffled afresh")

    def solve_position(self, session, budget=None) -> Advice:
        """No solver decides an Impossible position: the deck is reshuffled during play.  The
        answer is the lookahead player's, with more rollouts, and the outcome unknown."""
        if session.over:
            return Advice("lookahead", None, session.outcome, [], "the game is over")
        move = session.table.format(self._choice(session.table, self.BEST_ROLLOUTS))
        return Advice("lookahead", move, "unknown", [],
                      "Impossible reshuffles its deck during play, so no solver here decides "
                      f"a position; this is the lookahead player with {self.BEST_ROLLOUTS} "
                      "rollouts per action (it never reads the deck)")

    def deck_for(self, rules) -> np.ndarray:
        return R.DECK if rules["jokers"] else R.DECK_WITHOUT_JOKERS

    def layout(self, cards: np.ndarray) -> str:
        return ("deck, top card first (the nine piles are dealt from it, each covered while a "
                "face card shows):\n  " + " ".join(code(int(c)) for c in cards))
