"""Chinese Solitaire, issue 39: a no-peek player by information-set MCTS (single-observer
IS-MCTS, Cowling, Powley & Whitehouse 2012), measured paired against `sampling`.

The player sees only the view (``nopeek.observe``: face-down cards read HIDDEN).  At each
decision it does what ``sampling`` does for clear choices (no candidate: stop; one: play it;
after the stock a provably safe foundation move: play it) and otherwise runs SO-ISMCTS:

* an iteration draws a *determinization*: the unseen cards shuffled into the hidden places
  (``nopeek.fill_sample``, the order drawn by a numpy Generator seeded from the game's play
  stream, so a game replays exactly);
* it descends a tree whose nodes are the player's observation histories: the child of a node
  for a move is keyed by the move and the view after it in this determinization
  (``nopeek.view_key``), so a turn-up or the stock branches by the card(s) it showed.  A
  node's view is the same in every determinization that reaches it, so its candidate moves
  (``nopeek.candidates``, with the positions seen since the last progress) are too: every
  move is available at every visit and the availability counts equal the parent's visits;
* at a node it picks the move maximising ``Q + c sqrt(ln N / n) + bias * prior / (n + 1)``
  (progressive bias; ``prior`` 1 for the strategy's choice, ``second`` for the next moves in
  the strategy's order, 0 for moves the strategy would never make); an unvisited move counts
  the node's mean value less ``fpu`` as its Q, with no exploration term (first-play urgency);
* the new leaf is evaluated on the determinization by ``--eval``:
  ``search``: the thoughtful search (every card of the determinization known) at ``--leaf``
  nodes: WON 1, LOST 0, FAILED ``--failed`` (a number, or ``rollout``: then a strategy rollout);
  ``rollout``: the no-peek ``strategy`` player plays on from the leaf on the determinization
  (seeing only the determinization's view; lookahead ``--rollout-lookahead``), ended by the
  thoughtful search at ``--finish`` nodes once at most one card is unseen (nothing to guess);
  1 for a win, else 0;
* the move played is the most visited root child (ties: the strategy's order).  The subtree
  under the real move and what it showed is kept for the next decision.

``--check`` mirrors tests/test_chinese_nopeek.py::test_players_never_read_a_hidden_card: two
deals alike in all the player sees but different underneath, played with one stream, must get
the same moves until a card shown differs.

Measure: ``python experiments/chinese_ismcts.py --first 1 --n 100 --iterations 100`` plays
the IS-MCTS player and ``sampling`` (CLI defaults) on the same strict deals, each game from
its deal's play stream, and prints a one-line summary (win rates, paired difference with its
95% interval, deals won by one only, seconds a game); rows go to a CSV under /tmp.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from winnable.games import get_game  # noqa: E402
from winnable.jit import jit  # noqa: E402
from winnable.rules import chinese as R  # noqa: E402
from winnable.shuffle import play_stream  # noqa: E402
from winnable.solvers.chinese import nopeek as NP  # noqa: E402
from winnable.stats import paired_difference  # noqa: E402

GAME = get_game("chinese")


# --- kernels (the heavy work; the tree itself is Python) ---------------------------------------

@jit
def ordered_candidates(view, cfg, visited, nvisited, buffers, out_moves, out_keys):
    """The candidate moves in the strategy's order (keys ascending, NEVER last)."""
    moves, keys, scratch = buffers
    n = NP.candidates(view, cfg, visited, nvisited, moves)
    if n == 0:
        return 0
    NP.strategy_keys(view, cfg, visited, nvisited, moves, n, keys, scratch)
    order = np.argsort(keys[:n], kind="mergesort")
    for i in range(n):
        out_moves[i] = moves[order[i]]
        out_keys[i] = keys[order[i]]
    return n


@jit
def clear_choice(view, cfg, visited, nvisited, moves):
    """As ``sampling_choice`` step 1: (-2: no clear choice, -1: stop, else the move)."""
    n = NP.candidates(view, cfg, visited, nvisited, moves)
    if n == 0:
        return -1
    if n == 1:
        return moves[0]
    safe = NP.safe_foundation(view, moves, n)
    if safe >= 0:
        return moves[safe]
    return -2


@jit
def step(sample, dview, move, visited, nvisited):
    """Play ``move`` on the determinization and observe it; update the positions seen since the
    last progress.  Returns (key of the new view, new nvisited)."""
    cards, length, down, found, misc, deal = sample
    progress = NP.is_progress(dview[1], dview[2], move)
    R.apply_move(cards, length, down, found, misc, deal, move)
    NP.observe(cards, length, down, found, misc, dview)
    if progress:
        nvisited = 0
    key = NP.view_key(dview)
    visited[nvisited] = key
    return key, nvisited + 1


@jit
def all_seen(down, misc):
    hidden = 0 if misc[R.STOCK_DEALT] else 3
    for p in range(R.PILES):
        hidden += down[p]
    return hidden <= 1


@jit
def rollout(sample, rview, visited, nvisited, rbuffers, rcfg, finish, state, searcher):
    """The no-peek strategy plays on from the determinization's position, seeing only its view
    (``rview``); ``visited[:nvisited]``: the positions seen since the last progress (the array
    is written on).  Returns (won, cards on the foundations, nodes searched)."""
    cards, length, down, found, misc, deal = sample
    NP.observe(cards, length, down, found, misc, rview)
    idle = nvisited - 1
    nodes = 0
    while misc[R.SCORE] < R.N_CARDS:
        if finish > 0 and all_seen(down, misc):
            outcome, spent, _ = NP.solve_sample(sample, rcfg, finish, state, searcher)
            nodes += spent
            if outcome == NP.WON:
                return True, R.N_CARDS, nodes
            if outcome == NP.LOST:
                return False, misc[R.SCORE], nodes
            finish = 0
        move = NP.strategy_choice(rview, rcfg, visited, nvisited, rbuffers)
        if move < 0:
            break
        progress = NP.is_progress(rview[1], rview[2], move)
        R.apply_move(cards, length, down, found, misc, deal, move)
        NP.observe(cards, length, down, found, misc, rview)
        if progress:
            idle = 0
            nvisited = 0
        else:
            idle += 1
            if idle >= rcfg[NP.PATIENCE] or nvisited + 1 >= visited.shape[0]:
                break
        visited[nvisited] = NP.view_key(rview)
        nvisited += 1
    return misc[R.SCORE] == R.N_CARDS, misc[R.SCORE], nodes


@jit
def fill(view, unseen, count, order, hidden, sample):
    """A determinization: ``unseen[:count]`` in the order ``order`` into the hidden places."""
    for i in range(count):
        hidden[i] = unseen[order[i]]
    NP.fill_sample(view, hidden, sample)


# --- the tree -------------------------------------------------------------------------------

class Node:
    """An information set (the player's observation history): its candidate moves in the
    strategy's order with their priors, and per move the visits and the value summed.  The
    moves are listed at the first selection from the node (most nodes, those after a card
    shown, are never selected from: they are evaluated once)."""
    __slots__ = ("moves", "prior", "visits", "value", "total", "children", "terminal")

    def __init__(self, terminal=None):
        self.terminal = terminal  # None, or the value of a finished game
        self.moves = None
        self.total = 0
        self.children = {}

    def expand(self, moves, keys, options):
        n = len(moves)
        self.moves = moves
        prior = np.zeros(n)
        for i in range(n):
            if keys[i] >= NP.NEVER:
                prior[i] = 0.0
            elif i == 0:
                prior[i] = 1.0
            else:
                prior[i] = options.second
        self.prior = prior
        self.visits = np.zeros(n)
        self.value = np.zeros(n)
        if n == 0:
            self.terminal = 0.0

    def select(self, options):
        """UCB with progressive bias; an unvisited move counts the node's mean value less
        ``fpu`` as its Q, with no exploration term (first-play urgency)."""
        n = self.visits
        seen = n > 0
        mean = self.value.sum() / self.total if self.total else 1.0
        q = np.where(seen, self.value / np.maximum(n, 1), mean - options.fpu)
        explore = np.where(seen, options.c * np.sqrt(math.log(self.total + 1) /
                                                     np.maximum(n, 1)), 0.0)
        score = q + explore + options.bias * self.prior / (n + 1)
        return int(np.argmax(score))  # first of the best: the strategy's order on ties


class IsmctsPlayer:
    """SO-ISMCTS over the view.  ``choose`` is given the view and the positions seen since the
    last progress, nothing else of the real game."""

    def __init__(self, rules, options):
        self.options = options
        self.cfg, _ = NP.configure(rules, {"patience": options.patience,
                                           "lookahead": options.lookahead})
        self.rcfg, _ = NP.configure(rules, {"patience": options.patience,
                                            "lookahead": options.rollout_lookahead})
        self.searcher, self.table = NP.new_searcher(options.memory_mb)
        if options.prior == "sampling":
            self.scfg, _ = NP.configure(rules, GAME.solver_options("sampling", {}))
            self.ssearcher, self.stable = NP.new_searcher(options.memory_mb)
        self.state = np.zeros(5, dtype=np.int64)  # the sampler state: SS_STAMP is used
        self.state[NP.SS_STAMP] = self.table.generation.current
        blind = np.full(R.N_CARDS, NP.HIDDEN, dtype=np.int8)
        self.blind = blind
        sampler = NP.new_sampler(1, blind)
        self.sample = sampler[4]
        self.dview = NP.new_view(blind)
        self.rview = NP.new_view(blind)
        self.buffers = tuple(np.empty(NP.MAX_MOVES, dtype=np.int64) for _ in range(3))
        self.sbuffers = tuple(np.empty(NP.MAX_MOVES, dtype=np.int64) for _ in range(3))
        self.rbuffers = tuple(np.empty(NP.MAX_MOVES, dtype=np.int64) for _ in range(3))
        self.out_moves = np.empty(NP.MAX_MOVES, dtype=np.int64)
        self.out_keys = np.empty(NP.MAX_MOVES, dtype=np.int64)
        self.unseen = np.empty(R.N_CARDS, dtype=np.int64)
        self.hidden = np.empty(R.N_CARDS, dtype=np.int64)
        self.visited = np.empty(4 * (options.patience + 4) + 1024, dtype=np.uint64)
        self.rvisited = np.empty(4 * (options.patience + 4) + 1024, dtype=np.uint64)
        self.nodes = 0
        self.iterations = 0
        self.outcomes = np.zeros(4, dtype=np.int64)  # leaf searches: WON, FAILED, LOST

    def new_game(self, stream):
        self.gen = np.random.default_rng(int(stream[0]))
        self.root = None
        if self.options.prior == "sampling":
            self.srng = stream.copy()  # sampling's own stream, a copy of the game's
            self.sampler = NP.new_sampler(self.scfg[NP.SAMPLES], self.blind)
            self.sampler[0][NP.SS_STAMP] = self.stable.generation.current
            self.advised = -1

    def _expand(self, node, view, visited, nvisited):
        n = ordered_candidates(view, self.cfg, visited, nvisited, self.buffers, self.out_moves,
                               self.out_keys)
        node.expand(self.out_moves[:n].copy(), self.out_keys[:n].copy(), self.options)

    def _evaluate(self, nvisited):
        o = self.options
        misc = self.sample[4]
        if misc[R.SCORE] == R.N_CARDS:
            return 1.0
        if o.eval == "search":
            outcome, spent, _ = NP.solve_sample(self.sample, self.cfg, o.leaf, self.state,
                                                self.searcher)
            self.nodes += spent
            self.outcomes[outcome] += 1
            if outcome == NP.WON:
                return 1.0
            if outcome == NP.LOST:
                return 0.0
            if o.failed != "rollout":
                return float(o.failed)
        self.rvisited[:nvisited] = self.visited[:nvisited]
        won, score, spent = rollout(self.sample, self.rview, self.rvisited, nvisited,
                                    self.rbuffers, self.rcfg, o.finish, self.state,
                                    self.searcher)
        self.nodes += spent
        return 1.0 if won else 0.0

    def choose(self, view, visited, nvisited):
        """The move to play (-1: stop)."""
        o = self.options
        advised = -1
        if o.prior == "sampling":
            # Sampling's own move, computed as in its game loop (every decision).
            advised, spent = NP.sampling_choice(view, self.scfg, self.srng, visited, nvisited,
                                                self.sbuffers, self.sampler, self.ssearcher)
            self.advised = advised = int(advised)
            self.nodes += spent
            self.stable.generation.current = int(self.sampler[0][NP.SS_STAMP])
        clear = clear_choice(view, self.cfg, visited, nvisited, self.buffers[0])
        if clear != -2:
            return int(clear)
        if o.prior == "sampling" and o.iterations == 0:
            return advised  # sampling itself
        key = int(NP.view_key(view))
        if self.root is None:
            self.root = Node()
        root = self.root
        if root.moves is None:
            self._expand(root, view, visited, nvisited)
        if advised >= 0:
            # The prior goes to sampling's move (first on ties), the rest as the strategy's.
            base = root.moves
            j = int(np.nonzero(base == advised)[0][0])
            order = np.r_[j, np.delete(np.arange(len(base)), j)]
            root.moves, root.visits, root.value = base[order], root.visits[order], \
                root.value[order]
            root.prior = np.where(root.prior[order] > 0, o.second, 0.0)
            root.prior[0] = 1.0
        count = NP.unseen_cards(view, self.unseen)
        for _ in range(o.iterations):
            self.iterations += 1
            order = self.gen.permutation(count) if count > 1 else np.zeros(count, np.int64)
            fill(view, self.unseen, count, order, self.hidden, self.sample)
            for p in range(6):
                self.dview[p][...] = view[p]
            self.visited[:nvisited] = visited[:nvisited]
            nv = nvisited
            node = root
            path = []
            value = None
            while True:
                if node.moves is None:
                    self._expand(node, self.dview, self.visited, nv)
                if node.terminal is not None:
                    value = node.terminal
                    break
                i = node.select(o)
                move = int(node.moves[i])
                path.append((node, i))
                k, nv = step(self.sample, self.dview, move, self.visited, nv)
                child = node.children.get((move, int(k)))
                if child is None:
                    child = Node(1.0 if self.sample[4][R.SCORE] == R.N_CARDS else None)
                    node.children[(move, int(k))] = child
                    value = child.terminal if child.terminal is not None else \
                        self._evaluate(nv)
                    break
                node = child
            for node, i in path:
                node.total += 1
                node.visits[i] += 1
                node.value[i] += value
        best = int(np.argmax(root.visits))  # first of the most visited: strategy's order
        return int(root.moves[best])

    def after(self, move, shown, view):
        """The real move was played (``shown``: it showed a card) and ``view`` is what the
        player sees now: keep the subtree under what it saw."""
        if self.options.prior == "sampling":
            if move == self.advised:
                NP.sampling_after(move, shown, self.sampler)
            else:
                self.sampler[0][NP.SS_DRAW] = 1  # its lines went another way: new samples
        if self.root is None:
            return
        self.root = self.root.children.get((int(move), int(NP.view_key(view))))


def play_ismcts(deal, player, stream):
    """One game in the loop of ``nopeek.play``: the real position stays here, the player gets
    the view only.  Returns (won, score, moves)."""
    cards, length, down, found, misc = R.new_state(deal)
    view = NP.new_view(deal)
    NP.observe(cards, length, down, found, misc, view)
    patience = player.options.patience
    visited = np.empty(patience + 2, dtype=np.uint64)
    visited[0] = NP.view_key(view)
    nvisited = 1
    player.new_game(stream)
    line = []
    idle = 0
    while misc[R.SCORE] < R.N_CARDS:
        move = player.choose(view, visited, nvisited)
        if move < 0:
            break
        progress = NP.is_progress(view[1], view[2], move)
        shown = NP.shows_card(view[1], view[2], move)
        R.apply_move(cards, length, down, found, misc, deal, move)
        line.append(move)
        NP.observe(cards, length, down, found, misc, view)
        player.after(move, shown, view)
        if progress:
            idle = 0
            nvisited = 0
        else:
            idle += 1
            if idle >= patience:
                break
        visited[nvisited] = NP.view_key(view)
        nvisited += 1
    return bool(misc[R.SCORE] == R.N_CARDS), int(misc[R.SCORE]), line


# --- the check: the player never reads a hidden card ---------------------------------------

STOCK_PLACES = [49, 50, 51]
HIDDEN_PLACES = [7 * p + h for p in range(R.PILES) for h in range(R.FACE_DOWN[p])] + \
    STOCK_PLACES
DEEP_PLACES = [7 * p for p in range(R.PILES) if R.FACE_DOWN[p]] + STOCK_PLACES


def rearranged_underneath(deal, places, rng):
    other = deal.copy()
    while (other == deal).all():
        cards = [int(deal[i]) for i in places]
        rng.shuffle(cards)
        other[places] = cards
    return other


def visible(state, deal):
    view = NP.new_view(deal)
    NP.observe(*state, view)
    return [a.tolist() for a in view[:5]]


def moves_while_views_agree(deal_a, deal_b, moves_a, moves_b):
    state_a, state_b = R.new_state(deal_a), R.new_state(deal_b)
    i = 0
    while visible(state_a, deal_a) == visible(state_b, deal_b):
        if i == len(moves_a) or i == len(moves_b):
            assert len(moves_a) == len(moves_b) == i, (i, len(moves_a), len(moves_b))
            return i
        assert moves_a[i] == moves_b[i], i
        R.apply_move(*state_a, deal_a, moves_a[i])
        R.apply_move(*state_b, deal_b, moves_b[i])
        i += 1
    return i


def check(player, seeds=(1, 2, 3)):
    import random
    rng = random.Random(7)
    for places, least in ((HIDDEN_PLACES, 2), (DEEP_PLACES, 10)):
        covered = []
        for seed in seeds:
            deal = GAME.deal(seed)
            other = rearranged_underneath(deal, places, rng)
            lines = []
            for d in (deal, other):
                # Both games get the same stream (that of deal `seed`).
                lines.append(play_ismcts(d, player, play_stream(np.uint64(GAME.salt), deal))[2])
            covered.append(moves_while_views_agree(deal, other, *lines))
        print(f"check: places={'all hidden' if places is HIDDEN_PLACES else 'deepest'} "
              f"moves covered while the views agree: {covered}")
        assert min(covered) >= 1 and max(covered) >= least, covered
    # Replays exactly.
    deal = GAME.deal(5)
    a = play_ismcts(deal, player, play_stream(np.uint64(GAME.salt), deal))[2]
    b = play_ismcts(deal, player, play_stream(np.uint64(GAME.salt), deal))[2]
    assert a == b
    print("check: passed (same moves until a card shown differs; games replay exactly)")


# --- the measurement --------------------------------------------------------------------------

def arguments(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=100, help="IS-MCTS iterations a decision")
    ap.add_argument("--eval", choices=("search", "rollout"), default="search")
    ap.add_argument("--leaf", type=int, default=500, help="leaf search budget (nodes)")
    ap.add_argument("--failed", default="0.5", help="value of a leaf search that ran out of "
                    "budget: a number, or 'rollout'")
    ap.add_argument("--finish", type=int, default=2000, help="budget of the search ending a "
                    "rollout once at most one card is unseen (0: none)")
    ap.add_argument("--rollout-lookahead", type=int, default=NP.DEFAULT_LOOKAHEAD)
    ap.add_argument("--lookahead", type=int, default=NP.DEFAULT_LOOKAHEAD)
    ap.add_argument("--c", type=float, default=0.5, help="UCB exploration constant")
    ap.add_argument("--bias", type=float, default=1.0, help="progressive bias weight")
    ap.add_argument("--second", type=float, default=0.0, help="prior of non-first strategy "
                    "moves (the first has 1, never-moves 0)")
    ap.add_argument("--fpu", type=float, default=0.1, help="an unvisited move's Q: the "
                    "node's mean value less this (first-play urgency)")
    ap.add_argument("--prior", choices=("strategy", "sampling"), default="strategy",
                    help="the root's first move: strategy's, or sampling's (its whole "
                    "decision, with its samples kept between moves as in its own game)")
    ap.add_argument("--patience", type=int, default=NP.DEFAULT_PATIENCE)
    ap.add_argument("--memory-mb", type=float, default=NP.DEFAULT_MEMORY_MB)
    ap.add_argument("--no-sampling", action="store_true", help="skip the sampling games")
    ap.add_argument("--sampling-csv", help="read sampling's rows from this CSV instead")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--out", help="CSV path (default under /tmp)")
    ap.add_argument("--progress", type=int, default=0, help="print a line every N deals")
    return ap.parse_args(argv)


def main(argv=None):
    o = arguments(argv)
    if o.failed != "rollout":
        float(o.failed)
    rules = GAME.rules({})
    player = IsmctsPlayer(rules, o)
    if o.check:
        check(player)
        return
    sampling = NP.Player(rules, "sampling", GAME.solver_options("sampling", {}))
    known = {}
    if o.sampling_csv:
        with open(o.sampling_csv) as f:
            for row in csv.DictReader(f):
                known[int(row["deal"])] = (int(row["sampling_won"]), float(row["sampling_s"]))
    # Compile outside the clock.
    warm = GAME.deal(1)
    sampling.play(warm, play_stream(np.uint64(GAME.salt), warm))
    play_ismcts(warm, IsmctsPlayer(rules, arguments(["--iterations", "3", "--eval", o.eval,
                                                     "--failed", o.failed,
                                                     "--prior", o.prior])),
                play_stream(np.uint64(GAME.salt), warm))
    tag = (f"ismcts_{o.prior}_{o.eval}_i{o.iterations}_leaf{o.leaf}_f{o.failed}_c{o.c}_b{o.bias}"
           f"_s{o.second}_fpu{o.fpu}_rl{o.rollout_lookahead}_{o.first}-{o.first + o.n - 1}")
    out = Path(o.out or f"/tmp/{tag}.csv")
    rows = []
    started = time.time()
    for seed in range(o.first, o.first + o.n):
        deal = GAME.deal(seed)
        t = time.process_time()
        won, score, line = play_ismcts(deal, player, play_stream(np.uint64(GAME.salt), deal))
        t_i = time.process_time() - t
        if seed in known:
            s_won, t_s = known[seed]
        elif o.no_sampling:
            s_won, t_s = -1, float("nan")
        else:
            t = time.process_time()
            s_won = int(sampling.play(deal, play_stream(np.uint64(GAME.salt), deal))[0])
            t_s = time.process_time() - t
        rows.append({"deal": seed, "ismcts_won": int(won), "ismcts_score": score,
                     "ismcts_moves": len(line), "ismcts_s": round(t_i, 4),
                     "sampling_won": s_won, "sampling_s": round(t_s, 4)})
        if o.progress and len(rows) % o.progress == 0:
            print(summary(rows, o, tag, time.time() - started), flush=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(summary(rows, o, tag, time.time() - started) + f" csv={out}")


def summary(rows, o, tag, wall):
    n = len(rows)
    wi = sum(r["ismcts_won"] for r in rows)
    ti = sum(r["ismcts_s"] for r in rows) / n
    if rows[0]["sampling_won"] < 0:
        return f"{tag}: deals={n} ismcts {100 * wi / n:.2f}% {ti:.3f} s/game wall={wall:.0f}s"
    ws = sum(r["sampling_won"] for r in rows)
    only_i = sum(1 for r in rows if r["ismcts_won"] and not r["sampling_won"])
    only_s = sum(1 for r in rows if r["sampling_won"] and not r["ismcts_won"])
    d, lo, hi = paired_difference(only_s, only_i, n)
    ts = sum(r["sampling_s"] for r in rows) / n
    return (f"{tag}: deals={n} ismcts {100 * wi / n:.2f}% sampling {100 * ws / n:.2f}% "
            f"diff {100 * d:+.2f} [{100 * lo:+.2f}, {100 * hi:+.2f}] points; won only by "
            f"ismcts {only_i}, only by sampling {only_s}; s/game ismcts {ti:.3f} sampling "
            f"{ts:.3f}; wall={wall:.0f}s")


if __name__ == "__main__":
    main()
