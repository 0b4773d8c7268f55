"""Impossible wired to its players."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .. import shuffle
from ..cards import code
from ..rules import impossible as R
from ..solvers import impossible as S
from .base import Game, SolverInfo

OUTCOME_NAMES = np.array(["win", "loss", "unknown"], dtype=object)  # by code: R.WIN, R.LOSS, ...
assert (R.WIN, R.LOSS, R.UNKNOWN) == (0, 1, 2)
MOVE_CAPACITY = 10_000  # actions kept per game in the `moves` column (the count is exact)
DEFAULT_ROLLOUTS = 8


class Impossible(Game):
    rules_module = R
    solvers = {
        "random": SolverInfo("random", "uniformly random among the legal actions",
                             {"rollouts": 0, "record_moves": 0}),
        "greedy": SolverInfo("greedy", "picks up at once, uses the fifteen rule at once, covers "
                             "the pair that brings piles towards 11 cards",
                             {"rollouts": 0, "record_moves": 0}),
        "lookahead": SolverInfo("lookahead", "tries each action in rollouts finished by greedy, "
                                "with the unseen deck reshuffled (never read)",
                                {"rollouts": DEFAULT_ROLLOUTS, "record_moves": 0}),
    }
    default_solver = "greedy"
    extra_columns = ("pickups", "removals", "new_piles", "steps", "rollouts")
    summary_means = ("pickups", "new_piles", "steps")
    bench_deals = 100_000

    def chunk_size(self, solver: str) -> int:
        return 200 if solver == "lookahead" else 20_000

    def layout(self, cards: np.ndarray) -> str:
        return ("deck, top card first (the nine piles are dealt from it, each covered while a "
                "face card shows):\n  " + " ".join(code(int(c)) for c in cards))

    def solve(self, deal, variant=None, solver=None, **options):
        """One game, with its moves recorded (batches leave them out: see ``solve_deals``)."""
        options.setdefault("record_moves", 1)
        return super().solve(deal, variant, solver, **options)

    def solve_deals(self, deals: np.ndarray, rules, solver: str,
                    options: Mapping[str, Any], seeds=None) -> dict[str, Any]:
        """Games are played one call per game when their moves are recorded (or when the deal
        was typed in, so has no seed); otherwise a whole chunk runs in one kernel call and each
        game's ``seconds`` is the chunk's average.  A game's moves can always be regenerated
        with ``winnable solve --game impossible --seed N``: the game replays exactly."""
        fifteen, every, jokers, step_cap = R.rule_params(rules)
        player = S.PLAYERS[solver]
        rollouts = int(options["rollouts"])
        n = len(deals)
        table = np.zeros((n, 7), dtype=np.int64)
        seconds = np.empty(n, dtype=np.float64)
        moves: list[Sequence[str]] = [()] * n  # batches leave the moves out
        if seeds is not None and not int(options["record_moves"]):
            start = time.perf_counter()
            S.play_seeds(self.deck, np.uint64(self.salt), np.asarray(seeds, dtype=np.int64),
                         fifteen, every, jokers, step_cap, player, rollouts, table)
            seconds[:] = (time.perf_counter() - start) / n
        else:
            record = np.empty(MOVE_CAPACITY, dtype=np.int64)
            for k in range(n):
                seed = 0 if seeds is None else int(seeds[k])
                rng = shuffle.seed_state(np.uint64(self.salt), np.uint64(seed))
                if seeds is not None:  # the stream that dealt game n, continued
                    shuffle.shuffle_in_place(self.deck.copy(), rng)
                start = time.perf_counter()
                result = S.play(deals[k], fifteen, every, jokers, step_cap, player, rollouts,
                                rng, record)
                seconds[k] = time.perf_counter() - start
                table[k, :6] = result[:6]
                table[k, 6] = result[7]
                moves[k] = [R.format_action(int(a)) for a in record[:result[6]]]
        columns = {name: table[:, c] for c, name in enumerate(
            ("outcome", "score", "pickups", "removals", "new_piles", "steps", "rollouts"))}
        columns["outcome"] = OUTCOME_NAMES[columns["outcome"]]
        columns["nodes"] = columns["steps"]
        return {"moves": moves, "seconds": seconds, **columns}
