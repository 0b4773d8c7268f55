"""Impossible wired to its players."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import pictures as P
from .. import shuffle
from ..cards import code
from ..outcomes import NAME_OF
from ..rules import impossible as R
from ..solvers import impossible as S
from ..session import Advice
from ..solvers import impossible_thoughtful as T
from .base import (ChoiceLimits, Game, Option, OptionLimits, SolverInfo, physical_memory_mb,
                   solver_table)
from .timing import Stopwatch

MOVE_CAPACITY = 10_000  # actions kept per game in the `moves` column (the count is exact)
DEFAULT_ROLLOUTS = 1
DEFAULT_HALVING_BUDGET = 64


OBJECTIVES = {"win": S.OBJECTIVE_WIN, "score": S.OBJECTIVE_SCORE}
OBJECTIVE = Option("win", ChoiceLimits(tuple(OBJECTIVES)))


def _columns(table, nodes, moves, seconds, proofs=None):
    """The result columns from a table of (outcome code, score, pickups, removals, new piles,
    steps, rollouts) rows, and each game's proof of a loss (thoughtful's; "" for the rest)."""
    columns = {name: table[:, c] for c, name in enumerate(
        ("outcome", "score", "pickups", "removals", "new_piles", "steps", "rollouts"))}
    columns["outcome"] = NAME_OF[columns["outcome"]]
    columns["proof"] = proofs if proofs is not None else [""] * len(table)
    return {"moves": moves, "seconds": seconds, "nodes": nodes, **columns}


def _player(player):
    def run(game, deals, rules, options, record_moves):
        """Games are played one call per game when their moves are recorded; otherwise a whole
        chunk runs in one kernel call and each game's ``seconds`` is the chunk's average."""
        codes = R.rule_params(rules)
        settings = S.PlayerSettings(player, options.get("rollouts", 0), options.get("budget", 0),
                                    OBJECTIVES[options.get("objective", "win")])
        n = len(deals)
        table = np.zeros((n, 7), dtype=np.int64)
        seconds = np.empty(n, dtype=np.float64)
        moves: list[Sequence[str]] = [()] * n
        salt = np.uint64(game.salt)
        if not record_moves:
            clock = Stopwatch()
            S.play_deals(deals, salt, codes, settings, table)
            seconds[:] = clock.seconds() / max(n, 1)
        else:
            record = np.empty(MOVE_CAPACITY, dtype=np.int64)
            for k in range(n):
                clock = Stopwatch()
                result = S.play(deals[k], codes, settings,
                                shuffle.play_stream(salt, deals[k]), record)
                seconds[k] = clock.seconds()
                table[k, :6] = result[:6]
                table[k, 6] = result[7]
                moves[k] = [R.format_action(int(a)) for a in record[:result[6]]]
        return _columns(table, table[:, 5], moves, seconds)

    return run


def thoughtful_options(options) -> T.Options:
    """The thoughtful driver's options from the solver's (``--option``)."""
    return T.Options(int(options["restarts"]), bool(int(options["probe"])),
                     bool(int(options["deck_bound"])), bool(int(options["score_bound"])),
                     bool(int(options["dominance"])))


def _thoughtful(game, deals, rules, options, record_moves):
    """One search per deal (``impossible_thoughtful``); the moves are those of the won line,
    else of the line with the best score; a proven loss keeps its proof."""
    codes = R.rule_params(rules)
    solver = T.Thoughtful(options["memory_mb"])
    driver = thoughtful_options(options)
    n = len(deals)
    table = np.zeros((n, 7), dtype=np.int64)
    seconds = np.empty(n, dtype=np.float64)
    nodes = np.empty(n, dtype=np.int64)
    moves: list[Sequence[str]] = [()] * n
    proofs = [""] * n
    salt = np.uint64(game.salt)
    for k in range(n):
        clock = Stopwatch()
        outcome, nodes[k], line, _, proofs[k] = solver.solve(
            deals[k], codes, shuffle.play_stream(salt, deals[k])[0], options["budget"], driver)
        seconds[k] = clock.seconds()
        st = solver.stack.best_st
        table[k, 0] = outcome
        table[k, 1:6] = [st[R.ST_SCORE], st[R.ST_PICKUPS], st[R.ST_REMOVALS], st[R.ST_NEW],
                         st[R.ST_STEPS]]
        if record_moves:
            moves[k] = [R.format_action(int(a)) for a in line]
    return _columns(table, nodes, moves, seconds, proofs)


class Impossible(Game):
    rules_module = R
    solvers = solver_table(
        SolverInfo("greedy", "picks up at once, uses the fifteen rule at once, covers the pair "
                   "that brings piles towards 11 cards", _player(S.GREEDY), chunk=20_000),
        SolverInfo("random", "uniformly random among the legal actions", _player(S.RANDOM),
                   chunk=20_000),
        SolverInfo("lookahead", "tries each action in rollouts finished by greedy (the unseen "
                   "deck reshuffled, never read; the same reshuffles for every action) and takes "
                   "the one that wins most often (ties: greedy's action, then the score)",
                   _player(S.LOOKAHEAD),
                   {"rollouts": Option(DEFAULT_ROLLOUTS,
                                       OptionLimits(1, unit="simulated games per action")),
                    "objective": OBJECTIVE},
                   chunk=200),
        SolverInfo("halving", "lookahead's rollouts spent by sequential halving: rounds of the "
                   "same rollouts for every action still in, the better half kept each round",
                   _player(S.HALVING),
                   {"budget": Option(DEFAULT_HALVING_BUDGET,
                                     OptionLimits(1, unit="simulated games per decision")),
                    "objective": OBJECTIVE},
                   chunk=100),
        SolverInfo("thoughtful", "knows the deck and every future reshuffle (the deal's seeded "
                   "stream): searches every choice for a winning line, memoised, with probes "
                   "and restarts, and proves losses with bounds, within a node budget (unknown "
                   "past it); the upper bound of every player",
                   _thoughtful,
                   {"budget": Option(T.DEFAULT_BUDGET, OptionLimits(1, unit="search nodes")),
                    "memory_mb": Option(T.DEFAULT_MEMORY_MB,
                                        OptionLimits(1, physical_memory_mb(),
                                                     "MB, at most this machine's memory")),
                    "restarts": Option(T.DEFAULT_RESTART, OptionLimits(
                        0, unit="nodes per search before a restart with other choices first; "
                        "0: one search")),
                    "probe": Option(1, OptionLimits(0, 1)),
                    "deck_bound": Option(1, OptionLimits(0, 1)),
                    "score_bound": Option(1, OptionLimits(0, 1)),
                    "dominance": Option(0, OptionLimits(
                        0, 1, "the dominance memo, under fifteen=off and unlimited; it costs "
                        "time and meets no position in practice"))},
                   chunk=500, undecided=True),
    )
    # 2: every game draws from its deal's play stream (before: from the stream that dealt deal
    # n, continued), so a deal string replays its game; jokers=0 deals are the 52 cards.
    rules_version = 2
    # lookahead 3: maximises the rollouts won, with common random numbers.  thoughtful 3:
    # probes, restarts and the loss bounds (issue 58).
    solver_versions = {"lookahead": 3, "thoughtful": 3}
    extra_columns = ("pickups", "removals", "new_piles", "steps", "rollouts", "proof")
    summary_means = ("pickups", "new_piles", "steps")
    column_names = {"pickups": "piles picked up", "removals": "fifteen removals",
                    "new_piles": "new piles started", "steps": "decisions taken",
                    "rollouts": "simulated games",
                    "proof": "why a loss is proven (thoughtful)"}
    batch_moves = False  # any game is replayed from its deal by `winnable solve`
    bench_deals = 100_000
    bench_counts = {"lookahead": 10_000, "halving": 1000, "thoughtful": 1000}

    hint_player = "halving"  # the strongest player that never reads the deck
    move_example = "up3, rm2, 1+5, new"
    BEST_BUDGET = 1024  # `best`: the halving player, thinking harder

    def _choice(self, table, budget: int):
        """The halving player's action at the table's turn with ``budget`` rollouts, from a
        copy of its stream (so the game's own reshuffles stay as they are)."""
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
        settings = S.PlayerSettings(S.HALVING, 0, budget, S.OBJECTIVE_WIN)
        action, _ = S.rollout_action(game, rng, table.codes, settings, space.actions,
                                     len(legal), space.buffer, space.rollout)
        return int(action)

    def hint(self, session) -> Advice:
        if session.over:
            return Advice(self.hint_player, None, None, [], "the game is over")
        budget = self.solvers[self.hint_player].defaults["budget"]
        return Advice(self.hint_player, session.table.format(self._choice(session.table,
                                                                          budget)), None, [],
                      f"never reads the deck: sequential halving over the actions with "
                      f"{budget} games finished by greedy, the unseen deck shuffled afresh")

    def solve_position(self, session, budget=None) -> Advice:
        """The thoughtful solver decides whole deals (from the deal, every reshuffle known);
        from a position of a game in progress the answer is the halving player's, with more
        rollouts, and the outcome unknown."""
        if session.over:
            return Advice("halving", None, session.outcome, [], "the game is over")
        move = session.table.format(self._choice(session.table, self.BEST_BUDGET))
        return Advice("halving", move, "unknown", [],
                      "from a position of a game in progress this is the halving player with "
                      f"{self.BEST_BUDGET} rollouts per decision (it never reads the deck); "
                      "`winnable solve --solver thoughtful` decides the whole deal")

    def deck_for(self, rules) -> np.ndarray:
        return R.DECK if rules["jokers"] else R.DECK_WITHOUT_JOKERS

    def scene(self, table, peek: bool = False) -> P.Scene:
        """The piles in creation order, nine to a row, each with only its top card seen (the
        cards under it as an edge of backs; ``peek``: fanned face up); the deck to the right."""
        scene = P.Scene()
        game, st = table.game, table.game.st
        column = P.CARD_W + P.GAP
        step = P.FAN_UP * 0.7 if peek else 3
        y = P.MARGIN + P.LABEL_H
        count = int(st[R.ST_COUNT])
        bottom = y + P.CARD_H
        for k in range(count):
            row, place = divmod(k, R.INITIAL_PILES)
            if place == 0 and row:
                y = bottom + P.LABEL_H + 6
            x = P.MARGIN + place * column
            slot = int(game.order[k])
            size = int(game.size[slot])
            scene.label(f"#{k + 1} ({size})", x + P.CARD_W / 2, y - 4, "middle")
            bottom = max(bottom, scene.fan(game.cards[slot, :size], x, y,
                                           [i < size - 1 for i in range(size)], step, step))
        if not count:
            scene.space(P.MARGIN, y, "no pile")
        left = P.MARGIN + R.INITIAL_PILES * column + P.GAP
        deck_bottom = scene.deck(game.deck[:int(st[R.ST_DECK])][::-1], left, P.MARGIN + P.LABEL_H,
                                 peek, per_row=6)
        removal = ", a fifteen removal available" if R.removal_available(
            st, table.codes.fifteen) else ""
        scene.label(f"score: {int(st[R.ST_SCORE])}{removal}", P.MARGIN,
                    max(bottom, deck_bottom) + P.LABEL_H)
        return scene

    def layout(self, cards: np.ndarray) -> str:
        return ("deck, top card first (the nine piles are dealt from it, each covered while a "
                "face card shows):\n  " + " ".join(code(int(c)) for c in cards))
