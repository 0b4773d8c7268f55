"""Chinese Solitaire wired to its solvers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .. import pictures as P
from ..cards import code
from ..rules import chinese as R
from ..shuffle import play_stream
from ..solvers.chinese import nopeek as NP
from ..solvers.chinese import thoughtful as T
from ..solvers.table import ENTRY_BYTES, LOSS, OUTCOME_NAMES, WIN, entries_for, memory_mb_for
from ..session import Advice
from .base import Game, Option, OptionLimits, SolverInfo, physical_memory_mb, solver_table
from .timing import timed_columns


def _thoughtful_solver(rules, options) -> T.Thoughtful:
    settings = T.Settings(
        budget=int(options["budget"]), restart=int(options["restart"]),
        memory_mb=float(options["memory_mb"]), prune=bool(int(options["prune"])),
        strategy=bool(int(options["strategy"])), walks=int(options["walks"]),
        occupation=bool(int(options["occupation"])), classes=bool(int(options["classes"])),
        members=bool(int(options["members"])),
        beam=int(options["beam"]), learn=bool(int(options["learn"])),
        triples=bool(int(options["triples"])),
        learn_after=int(options["learn_after"]))
    solver = T.Thoughtful(bool(rules["easy"]), rules["blocks"] == "sequence", settings)
    # Its buffers (tens of MB of zeros) are written now: left to the kernel, their pages would be
    # mapped and zeroed during the first deals searched, a start-up cost timed as theirs.
    for buffer in solver.workspace:
        buffer.fill(0)
    return solver


def _thoughtful(game, deals, rules, options, record_moves):
    solver = _thoughtful_solver(rules, options)

    def search(deal):
        outcome, score, nodes, line = solver.solve(deal)
        return OUTCOME_NAMES[int(outcome)], score, nodes, line

    return timed_columns(deals, search, _describe)


def _no_peek(solver):
    """A no-peek player (winnable/solvers/chinese/nopeek.py): it sees what a person sees."""
    def run(game, deals, rules, options, record_moves):
        return game.nopeek_columns(deals, rules, solver, options)

    return run


# What each option accepts, the same for every solver that takes it.
LIMITS = {
    "budget": OptionLimits(1, unit="search nodes"),
    "restart": OptionLimits(0, unit="nodes per short search; 0: none"),
    "memory_mb": OptionLimits(1, physical_memory_mb(), "MB, at most this machine's memory"),
    "prune": OptionLimits(0, 1), "strategy": OptionLimits(0, 1),
    "occupation": OptionLimits(0, 1), "classes": OptionLimits(0, 1),
    "members": OptionLimits(0, 1), "learn": OptionLimits(0, 1),
    "triples": OptionLimits(0, 1),
    "learn_after": OptionLimits(0, unit="nodes searched below a node before the critical-path "
                                "test runs on it"),
    "walks": OptionLimits(0, unit="random playouts"),
    "beam": OptionLimits(0, 10_000, "positions per layer of the beam search; 0: none"),
    "lookahead": OptionLimits(0, unit="moves"),
    "patience": OptionLimits(1, unit="moves without progress"),
    "samples": OptionLimits(1, NP.MAX_SAMPLES),
}


def _options(**defaults):
    return {name: Option(default, LIMITS[name]) for name, default in defaults.items()}


class Chinese(Game):
    rules_module = R
    solvers = solver_table(
        SolverInfo(
            "thoughtful",
            "depth-first search with every card known; `unknown` past the node budget",
            _thoughtful,
            _options(budget=T.DEFAULT_BUDGET, restart=T.DEFAULT_RESTART,
                     memory_mb=T.DEFAULT_MEMORY_MB, prune=1, strategy=1, walks=T.DEFAULT_WALKS,
                     occupation=1, classes=1, members=1, beam=0, learn=1, triples=1,
                     learn_after=T.DEFAULT_LEARN_AFTER), undecided=True),
        SolverInfo(
            "strategy", "no peeking: plays by the Strategy section of the source text",
            _no_peek("strategy"),
            _options(lookahead=NP.DEFAULT_LOOKAHEAD, patience=NP.DEFAULT_PATIENCE), chunk=200),
        SolverInfo(
            "sampling", "no peeking: solves samples of the unseen cards; plays strategy's move "
            "unless most samples prove it lost", _no_peek("sampling"),
            _options(samples=NP.DEFAULT_SAMPLES, budget=NP.DEFAULT_BUDGET,
                     lookahead=NP.DEFAULT_LOOKAHEAD, memory_mb=NP.DEFAULT_MEMORY_MB,
                     patience=NP.DEFAULT_PATIENCE)),
        SolverInfo(
            "random", "no peeking: a uniformly random legal move each turn", _no_peek("random"),
            _options(patience=NP.DEFAULT_PATIENCE), chunk=1000),
    )
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
    # 5 (sampling), 3 (random): a game draws from its deal's play stream
    # (winnable.shuffle.play_stream; before: the stream that dealt deal n, continued), so a deal
    # string replays its game.
    # 5 (thoughtful), 6 (sampling): the rebuilt search (classes of positions joined by
    # reversible moves instead of the parent-swap rule, Luby restarts that keep proven losses,
    # a budget of 200,000); both solvers search with it.
    # 6 (thoughtful), 7 (sampling): a class is enumerated whole (up to 65,536 members, before:
    # 64, the rest silently left out) and a class larger than that leaves the search unknown.
    # 7 (thoughtful): the critical-path test h^2 (solvers/chinese/critical.py) in the searches
    # of a deal not decided within 2,000 nodes, on every node with 1,024 nodes searched below it
    # (options learn, learn_after): it proves losses the earlier tests could not.
    # 8 (thoughtful): the triples test h^3 (critical.dead3, option triples) in step 2 proves
    # losses that h^2 cannot (18 of the 36 strict deals of 1-2,000 that version 7 leaves
    # unknown).
    # 9 (thoughtful), 8 (sampling): every member of a searched class goes into the table
    # (search.MEMBERS, option members): the same verdicts on deals 1-2,000 strict and easy,
    # with other node counts on about 4% of them (a class entered again at another member is
    # no longer searched again), and so other samples decided within the player's budget.
    # 10 (thoughtful): a deal not won comes with the line that reaches its score, the most
    # cards up the searches met (before, the score came with no line, and no line the solver
    # returned reached it); verdicts, scores and nodes as version 9's.  The engine is also
    # faster for the same nodes (issue 56).
    solver_versions = {"thoughtful": 10, "sampling": 8, "random": 3}
    batch_chunk = 50
    bench_deals = 500

    hint_player = "sampling"
    move_example = "t3-t5x2, t1-f, stock"
    position_budget = 100_000

    def warm_up(self, variant=None, solver: str | None = None,
                options: Mapping[str, Any] | None = None) -> None:
        # Deal 1 never reaches the thoughtful solver's later steps; compiled here, a batch's
        # workers load them instead of each compiling them in its first chunk.
        if (not self.is_warm(variant, solver, options)
                and self.check_solver(solver) == "thoughtful"):
            rules = self.rules(variant)
            _thoughtful_solver(rules, self.solver_options("thoughtful", options)).warm_up(
                self.deal(1, variant))
        super().warm_up(variant, solver, options)

    def option_notes(self, solver, options) -> list[str]:
        if solver != "thoughtful":
            return []
        # A search stores about one position per node; past half full, buckets overflow and
        # positions proven lost are dropped and searched again (results/NOTES.md, "the tail
        # with a larger table": deal 566 unknown at 60,000,000 nodes in 64 MB, lost in
        # 35,751,615 in 8,000 MB).
        budget, memory_mb = int(options["budget"]), float(options["memory_mb"])
        entries = entries_for(memory_mb, ENTRY_BYTES)
        if budget <= entries // 2:
            return []
        wanted = memory_mb_for(2 * budget)
        room = ("" if wanted <= physical_memory_mb()
                else f"; this machine has {physical_memory_mb():,} MB: a smaller budget, or a "
                "larger machine")
        return [f"note: a table of {memory_mb:g} MB holds {entries:,} positions, fewer than "
                f"twice the budget of {budget:,} nodes: positions dropped from it are searched "
                f"again and deals a larger table decides may stay unknown; --option "
                f"memory_mb={wanted} holds {entries_for(wanted, ENTRY_BYTES):,} (each worker "
                f"has its own table){room}"]

    def hint(self, session) -> Advice:
        if session.over:
            return Advice(self.hint_player, None, None, [], "the game is over")
        players = self.__dict__.setdefault("_hint_players", {})
        key = session.rules.label
        if key not in players:
            players[key] = NP.Player(session.rules, self.hint_player,
                                     self.solvers[self.hint_player].defaults)
        deal = session.table.deal
        # Its random stream is the deal's play stream, afresh: the same position, the same hint.
        move, nodes = players[key].choose(deal, [step.code for step in session.steps],
                                               play_stream(np.uint64(self.salt), deal))
        options = self.solvers[self.hint_player].defaults
        return Advice(self.hint_player, R.format_move(move) if move >= 0 else None, None, [],
                      f"sees only the face-up cards: {options['samples']} samples of the unseen "
                      f"cards searched ({nodes:,} nodes)" + ("" if move >= 0 else
                                                            "; it would stop here"))

    def solve_position(self, session, budget=None) -> Advice:
        budget = budget or self.position_budget
        rules = session.rules
        solver = T.Thoughtful(bool(rules["easy"]), rules["blocks"] == "sequence",
                              T.Settings(budget=budget))
        table = session.table
        outcome, score, nodes, line = solver.solve(table.deal, table.state)
        moves = [R.format_move(int(m)) for m in line]
        return Advice("thoughtful", moves[0] if moves else None, OUTCOME_NAMES[int(outcome)],
                      moves, f"searched with every card known (the face-down cards and the "
                      f"stock too), {nodes:,} nodes of a budget of {budget:,}", peeks=True)

    def implies(self, stricter, looser) -> bool:
        return (stricter != looser
                and (not stricter["easy"] or looser["easy"])
                and (stricter["blocks"] == "sequence" or looser["blocks"] == "any"))

    def scene(self, table, peek: bool = False) -> P.Scene:
        """The stock and the four foundations above the seven piles, each pile fanned down
        from its bottom card, the face-down cards first."""
        scene = P.Scene()
        cards, length, down, found, misc = table.state
        column = P.CARD_W + P.GAP
        top = P.MARGIN + P.LABEL_H
        scene.label("stock", P.MARGIN, top - 4)
        if misc[R.STOCK_DEALT]:
            scene.space(P.MARGIN, top, "dealt")
        for k, card in enumerate(() if misc[R.STOCK_DEALT] else table.deal[R.STOCK_FIRST:]):
            scene.card(card, P.MARGIN + k * 14, top, hidden=True)
        scene.label("foundations", P.MARGIN + 3 * column, top - 4)
        for s in range(4):
            x = P.MARGIN + (3 + s) * column
            if found[s]:
                scene.card(s * 13 + int(found[s]) - 1, x, top)
            else:
                scene.space(x, top, R.FOUNDATION_SUITS[s])
        piles = top + P.CARD_H + P.LABEL_H + 6
        for p in range(R.PILES):
            x = P.MARGIN + p * column
            scene.label(f"t{p + 1}", x + P.CARD_W / 2, piles - 4, "middle")
            if not length[p]:
                scene.space(x, piles, "space")
            scene.fan(cards[p, :length[p]], x, piles,
                      hidden=[i < down[p] for i in range(int(length[p]))])
        scene.label(f"score: {table.score()}", P.MARGIN + 1.5 * column, top + P.CARD_H / 2 + 4)
        return scene

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

    def nopeek_columns(self, deals: np.ndarray, rules, solver: str, options: Mapping[str, Any],
                       stream: Callable[[np.ndarray], np.ndarray] | None = None
                       ) -> dict[str, Any]:
        """The columns of one no-peek game per deal.  A game draws from its deal's play stream,
        or from ``stream(deal)``: the test that players never read a hidden card gives two
        arrangements of the same visible cards one stream."""
        player = NP.Player(rules, solver, options)

        def one(deal):
            rng = play_stream(np.uint64(self.salt), deal) if stream is None else stream(deal)
            won, score, nodes, line = player.play(deal, rng)
            return OUTCOME_NAMES[WIN if won else LOSS], score, nodes, line

        return timed_columns(deals, one, _describe)


def _describe(deal, line):
    return [R.format_move(int(m)) for m in line]
