"""Chinese Solitaire wired to its solvers."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cards import code
from ..rules import chinese as R
from ..solvers import chinese as S
from ..solvers import chinese_nopeek as NP
from .base import Game, OptionLimits, SolverInfo, physical_memory_mb, timed_columns

OUTCOME_NAMES = {S.LOSS: "loss", S.WIN: "win", S.UNKNOWN: "unknown"}


class Chinese(Game):
    rules_module = R
    solvers = {
        "thoughtful": SolverInfo(
            "thoughtful",
            "depth-first search with every card known; `unknown` past the node budget",
            {"budget": S.DEFAULT_BUDGET, "restart": S.DEFAULT_RESTART,
             "memory_mb": S.DEFAULT_MEMORY_MB, "prune": 1, "strategy": 1,
             "walks": S.DEFAULT_WALKS, "occupation": 1}),
        # No-peek players (winnable/solvers/chinese_nopeek.py): they see what a person sees.
        "strategy": SolverInfo(
            "strategy", "no peeking: plays by the Strategy section of the source text",
            {"lookahead": NP.DEFAULT_LOOKAHEAD, "patience": NP.DEFAULT_PATIENCE}),
        "sampling": SolverInfo(
            "sampling", "no peeking: solves samples of the unseen cards; plays strategy's move "
            "unless most samples prove it lost",
            {"samples": NP.DEFAULT_SAMPLES, "budget": NP.DEFAULT_BUDGET,
             "lookahead": NP.DEFAULT_LOOKAHEAD, "memory_mb": NP.DEFAULT_MEMORY_MB,
             "patience": NP.DEFAULT_PATIENCE}),
        "random": SolverInfo(
            "random", "no peeking: a uniformly random legal move each turn",
            {"patience": NP.DEFAULT_PATIENCE}),
    }
    default_solver = "thoughtful"
    # 2: the dead-end rule of version 1 could call a winnable deal lost (deal 11); runs stored
    # under version 1 are refused rather than resumed.
    rules_version = 2
    # 3: parent-swap pruning (rule 4) also allows carrying the freed card onto the pile the
    # block went to, and unknowns get a strategy-player attempt; both can change what the
    # thoughtful search, and the sampling player that uses it, return.
    # 4 (thoughtful): deals the search leaves unknown get an occupation-aware dead-end test
    # (can prove a loss) and random playouts (can find a win).
    # 4 (sampling): strategy's move is overruled only when most won samples prove it lost
    # (before: when one did and another move was merely not proven lost).
    solver_versions = {"thoughtful": 4, "sampling": 5, "random": 3}
    # 5 (sampling), 3 (random): a game draws from its deal's play stream
    # (winnable.shuffle.play_stream; before: the stream that dealt deal n, continued), so a deal
    # string replays its game.
    option_limits = {
        "budget": OptionLimits(1, unit="search nodes"),
        "restart": OptionLimits(0, unit="nodes per short search; 0: none"),
        "memory_mb": OptionLimits(1, physical_memory_mb(), "MB, at most this machine's memory"),
        "prune": OptionLimits(0, 1), "strategy": OptionLimits(0, 1),
        "occupation": OptionLimits(0, 1),
        "walks": OptionLimits(0, unit="random playouts"),
        "lookahead": OptionLimits(0, unit="moves"),
        "patience": OptionLimits(1, unit="moves without progress"),
        "samples": OptionLimits(1, NP.MAX_SAMPLES),
    }
    batch_chunk = 50
    bench_deals = 500

    def chunk_size(self, solver: str) -> int:
        return {"strategy": 200, "random": 1000}.get(solver, self.batch_chunk)

    def implies(self, stricter, looser) -> bool:
        return (stricter != looser
                and (not stricter["easy"] or looser["easy"])
                and (stricter["blocks"] == "sequence" or looser["blocks"] == "any"))

    def layout(self, cards: np.ndarray) -> str:
        lines = ["piles (bottom card first; face-down cards in brackets):"]
        for p in range(R.PILES):
            pile = cards[7 * p:7 * p + 7]
            shown = [f"[{code(int(c))}]" if i < R.FACE_DOWN[p] else code(int(c))
                     for i, c in enumerate(pile)]
            lines.append(f"  t{p + 1}: " + " ".join(shown))
        lines.append("stock (onto t1, t2, t3): "
                     + " ".join(code(int(c)) for c in cards[R.STOCK_FIRST:]))
        return "\n".join(lines)

    def solve_deals(self, deals: np.ndarray, rules, solver: str,
                    options: Mapping[str, Any], record_moves: bool = True) -> dict[str, Any]:
        if solver in NP.PLAYERS:
            return NP.solve_deals(self.salt, deals, rules, solver, options)
        easy = bool(rules["easy"])
        sequence = rules["blocks"] == "sequence"
        budget = int(options["budget"])
        restart = int(options["restart"])
        prune = bool(int(options["prune"]))
        fallback = bool(int(options.get("strategy", 1)))
        # Random playouts on deals left unknown: ``walks`` at the default budget, in proportion
        # to the budget otherwise (so the budget bounds all the work); off with the strategy
        # fallback (strategy=0 leaves the search alone).
        walks = (int(options.get("walks", S.DEFAULT_WALKS)) * budget // S.DEFAULT_BUDGET
                 if fallback else 0)
        occupation = prune and bool(int(options.get("occupation", 1)))
        status = np.zeros(R.N_CARDS, dtype=np.int64)
        occupant = np.zeros(2 * R.N_CARDS, dtype=np.int64)
        scratch = S.Scratch(float(options["memory_mb"]))
        if fallback:
            # The no-peek strategy player (it draws nothing from its random stream).
            cfg, record = NP.configure(rules, {"patience": NP.DEFAULT_PATIENCE})
            player_scratch = S.Scratch(NP.DEFAULT_MEMORY_MB)

        def strategy_win(deal):
            """The strategy player's game: its moves if it wins (a legal winning line, found by
            a player who does not even look at the face-down cards), else None.  It finds some
            wins that the search's move orders miss within the budget."""
            won, _, n, _, stamp = NP.play(deal, NP.STRATEGY, cfg, np.zeros(1, dtype=np.uint64),
                                          record, player_scratch.table_a,
                                          player_scratch.table_b, player_scratch.table_stamp,
                                          player_scratch.generation.current)
            player_scratch.generation.current = int(stamp)
            return record[:n].copy() if won else None

        def walk_seed(deal):
            """The random walks' seed: a function of the deal alone, so results repeat."""
            return int(zlib.crc32(np.asarray(deal, dtype=np.int8).tobytes()))

        def restarts(deal, easy_mode, budget):
            """Short searches of ``restart`` nodes, each in another move order, while they
            have spent less than half the budget, then one search with the rest (so a loss
            that needs a long search can still be proven); stops as soon as one decides the
            deal.  restart=0: one search of the whole budget.  Wins hide in a heavy tail of
            bad move orders, which restarts escape.  Returns (result, best score, nodes, line
            length)."""
            spent = best = 0
            jitter = 0
            while spent < budget:
                short = 0 < restart and spent + restart <= budget // 2
                size = restart if short else budget - spent
                result, score, expanded, length = S.thoughtful(
                    deal, easy_mode, sequence, prune, size, scratch.table_a, scratch.table_b,
                    scratch.table_stamp, scratch.next_stamp(), scratch.line, jitter)
                spent += expanded
                best = max(best, score)
                if result != S.UNKNOWN or expanded == 0:
                    return result, best, spent, length
                jitter += 1
            return S.UNKNOWN, best, spent, 0

        def search(deal):
            spent = 0
            if easy:
                # Every strict line is legal in easy mode, and the strict space is far smaller:
                # look for a strict win first with half the budget.
                result, score, spent, length = restarts(deal, False, budget // 2)
                if result == S.WIN:
                    return "win", score, spent, scratch.line[:length]
            result, score, expanded, length = restarts(deal, easy, budget - spent)
            # Deals the search leaves unknown: a stronger, costlier loss test on the deal
            # (occupation_dead_end, sound by its docstring; the search itself never uses it),
            # then two ways of finding a win (any legal line that wins is a proof).
            if result == S.UNKNOWN and occupation and S.occupation_dead_end(
                    *R.new_state(deal), deal, easy, status, occupant):
                return "loss", score, spent + expanded, scratch.line[:0]
            if result == S.UNKNOWN and fallback:
                line = strategy_win(deal)
                if line is not None:
                    return "win", R.N_CARDS, spent + expanded, line
            if result == S.UNKNOWN and walks > 0:
                won, length, _ = S.random_walks(deal, easy, sequence, walks, S.WALK_STEPS,
                                                walk_seed(deal), scratch.line, S.WALK_GREEDY)
                if won:
                    return "win", R.N_CARDS, spent + expanded, scratch.line[:length]
            return OUTCOME_NAMES[int(result)], score, spent + expanded, scratch.line[:length]

        return timed_columns(deals, search,
                             lambda deal, line: [R.format_move(int(m)) for m in line])
