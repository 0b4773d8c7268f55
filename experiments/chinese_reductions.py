"""Chinese Solitaire, strict: two state-space reductions measured and not adopted.

The thoughtful engine's undecided deals are large spaces of rearrangements (results/NOTES.md):
in deal 196, proven lost in 55,523 classes, 95% of them after the stock, every one with 16-18
cards still face down.  Two classical reductions were measured on complete searches from
positions of such deals, in a small plain-Python model of the strict rules (Yukon-style moves,
kings only to spaces, the stock onto piles 1-3), each against its own baseline, before building
either into the engine:

1. **Persistent sets** (partial-order reduction; Godefroid, Valmari's stubborn sets).  Moves
   are named by cards: ``M v y`` (the block from face-up card v onto card y), ``F v`` (v to its
   foundation), ``S k q`` (king k's block into empty pile q), ``D`` (the stock).  At a position
   the search plays only the enabled moves of a set T closed under: an enabled move brings in
   every move dependent on it, a disabled one a necessary enabling set (moves one of which must
   come first for it to become legal).  Such a T keeps every reachable dead end, the won
   position included: on any line to a dead end some move of T occurs (an enabled move of T
   stays enabled under moves outside T, which are independent of it, so a dead end is not
   reached by those alone), and the first one commutes with every move before it, so it can be
   played first.  Dependencies of ``M v y`` (v on pile p, y on pile q): the moves of v; the
   other card onto y and y to its foundation; what its leaving uncovers (moves onto the card
   under v and that card up; a face-down card turned: its moves; an emptied pile: kings into
   it); the stock while p or q is one of piles 1-3; and every move onto a card of v's block,
   which is what keeps y out of v's block under moves outside T (a block carrying y onto v's
   block would make ``M v y`` illegal).  Every other move commutes with it (blocks are named by
   their bottom card: moving a block under, over or beside v's gives the same position in
   either order).  ``F`` and ``S`` alike; ``D`` depends on everything at the tops of piles 1-3
   and on the stock cards' moves.
2. **Twin abstraction**: the tableau rules read only rank and colour, so the two cards of a rank
   and colour are interchangeable there; only the foundations tell them apart.  The abstract
   game keys positions by rank and colour and lets a card go up on either foundation of its
   colour that is one below it.  It is a relaxation (every line of the game is one of it): a
   loss there is a loss, a win proves nothing.

Positions: a seeded random walk of ``steps`` moves from deal ``seed`` (``seed/steps``).
Writes results/chinese/reductions.{csv,md}: per position, the states of each baseline and of
each reduction (``limit`` at most: more is "over"), and the engine's classes (the thoughtful
solver's current version, every reduction, its own table) for scale.  Measured, not adopted:
see results/NOTES.md."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from common import ROOT
from winnable import get_game
from winnable.cards import rank_of as rank
from winnable.cards import suit_of as suit
from winnable.outcomes import LOSS, UNKNOWN, WIN
from winnable.report import markdown
from winnable.rules import chinese as R
from winnable.solvers.chinese import critical as C
from winnable.solvers.chinese import position as P
from winnable.solvers.chinese import search as CS
from winnable.solvers.table import TranspositionTable
from winnable.stopping import scripts_stop_in_one_line

POSITIONS = "58/5,58/10,58/20,230/25,231/15,238/5"
ENGINE_BUDGET = 2_000_000  # nodes of the engine's search ("over" past it)
KINGS = (12, 25, 38, 51)
GAME = get_game("chinese")


# --- the strict rules, card-named -----------------------------------------------------------

# Plain-Python card arithmetic (the engine's helpers are compiled: called once per move from
# Python, their dispatch would dominate these searches).

def red(c: int) -> bool:
    return suit(c) in (1, 2)


def parents(c: int) -> tuple:
    r = rank(c) + 1
    return () if r > 12 else ((r, 39 + r) if red(c) else (13 + r, 26 + r))


def builders(c: int) -> tuple:
    r = rank(c) - 1
    return () if r < 0 else ((r, 39 + r) if red(c) else (13 + r, 26 + r))


def twin(c: int) -> int:
    return (3 - suit(c)) * 13 + rank(c)


class State:
    """A position: piles (tuples of cards, bottom first), face-down counts, foundation
    heights, whether the stock is dealt, and the deal it comes from (its last 3 cards are the
    stock)."""
    __slots__ = ("piles", "down", "found", "dealt", "deal")

    def __init__(self, piles, down, found, dealt, deal):
        self.piles, self.down, self.found, self.dealt, self.deal = (piles, down, found, dealt,
                                                                     deal)

    @property
    def stock(self) -> tuple:
        return self.deal[R.STOCK_FIRST:]

    def key(self, abstract: bool = False):
        """Pile order ignored where the rules ignore it (piles 4-7 before the stock, all
        after); ``abstract``: cards as rank and colour, foundations of a colour unordered."""
        if abstract:
            piles = [(tuple(rank(c) * 2 + red(c) for c in p), d)
                     for p, d in zip(self.piles, self.down)]
            f = self.found
            found = (tuple(sorted((f[0], f[3]))), tuple(sorted((f[1], f[2]))))
        else:
            piles, found = list(zip(self.piles, self.down)), self.found
        if self.dealt:
            return tuple(sorted(piles)), found, True
        return tuple(piles[:3]), tuple(sorted(piles[3:])), found, False


def initial(seed: int) -> State:
    d = tuple(int(x) for x in GAME.deal(seed))
    piles = tuple(d[7 * p:7 * p + 7] for p in range(7))
    return State(piles, tuple(R.FACE_DOWN), (0, 0, 0, 0), False, d)


def places(s: State) -> dict:
    return {c: (p, h) for p, pile in enumerate(s.piles) for h, c in enumerate(pile)}


def legal_moves(s: State, at: dict, abstract: bool = False) -> list:
    out = []
    for q, pile in enumerate(s.piles):
        if pile:
            y = pile[-1]
            for w in builders(y):
                a = at.get(w)
                if a and a[0] != q and a[1] >= s.down[a[0]]:
                    out.append(("M", w, y))
            if s.found[suit(y)] == rank(y):
                out.append(("F", y))
            elif abstract and s.found[suit(twin(y))] == rank(y) and twin(y) in at:
                out.append(("X", y))  # y and its twin change places, then the twin goes up
        else:
            for k in KINGS:
                a = at.get(k)
                if a and a[0] != q and a[1] >= s.down[a[0]]:
                    out.append(("S", k, q))
    if not s.dealt:
        out.append(("D",))
    return out


def play(s: State, at: dict, move) -> State:
    piles, down, found = list(s.piles), list(s.down), list(s.found)
    if move[0] == "D":
        for i in range(3):
            piles[i] += (s.stock[i],)
        return State(tuple(piles), s.down, s.found, True, s.deal)
    if move[0] == "X":
        y, z = move[1], twin(move[1])
        (p1, h1), (p2, h2) = at[y], at[z]
        swapped = [list(p) for p in piles]
        swapped[p1][h1], swapped[p2][h2] = z, y
        s = State(tuple(tuple(p) for p in swapped), s.down, s.found, s.dealt, s.deal)
        return play(s, places(s), ("F", z))
    p, h = at[move[1]]
    block, piles[p] = piles[p][h:], piles[p][:h]
    if 0 < down[p] == len(piles[p]):
        down[p] -= 1
    if move[0] == "F":
        found[suit(move[1])] += 1
    else:
        q = at[move[2]][0] if move[0] == "M" else move[2]
        piles[q] += block
    return State(tuple(piles), tuple(down), tuple(found), s.dealt, s.deal)


# --- persistent sets -------------------------------------------------------------------------

def enabled(s: State, at: dict, move) -> bool:
    if move[0] == "D":
        return not s.dealt
    a = at.get(move[1])
    if a is None or a[1] < s.down[a[0]]:
        return False
    if move[0] == "F":
        return a[1] == len(s.piles[a[0]]) - 1 and s.found[suit(move[1])] == rank(move[1])
    if move[0] == "S":
        return a[0] != move[2] and not s.piles[move[2]]
    b = at.get(move[2])
    return b is not None and a[0] != b[0] and b[1] == len(s.piles[b[0]]) - 1


def moves_of(c: int) -> list:
    """Every move of the block whose bottom card is c."""
    out = [("M", c, y) for y in parents(c)] + [("F", c)]
    return out + [("S", c, q) for q in range(R.PILES)] if rank(c) == 12 else out


def uncovered(s: State, p: int, h: int) -> list:
    """Moves that the block from height h of pile p leaving enables."""
    if h == 0:
        return [("S", k, p) for k in KINGS]
    b = s.piles[p][h - 1]
    out = [("M", w, b) for w in builders(b)] + [("F", b)]
    return out + moves_of(b) if h == s.down[p] else out


def dependent(s: State, at: dict, move) -> list:
    """The moves dependent on the enabled ``move`` (module docstring)."""
    if move[0] == "D":
        out = []
        for i in range(3):
            pile = s.piles[i]
            for h in range(s.down[i], len(pile)):
                out += moves_of(pile[h])
            if pile:
                out += [("M", w, pile[-1]) for w in builders(pile[-1])] + [("F", pile[-1])]
            else:
                out += [("S", k, i) for k in KINGS]
        for c in s.stock:
            out += moves_of(c) + [("M", w, c) for w in builders(c)]
        return out
    v = move[1]
    p, h = at[v]
    out = moves_of(v) + uncovered(s, p, h)
    near_stock = p < 3
    if move[0] == "F":
        out += [("M", w, v) for w in builders(v)]
        out += [("F", v + 1)] if rank(v) < 12 else []
    elif move[0] == "M":
        y = move[2]
        near_stock = near_stock or at[y][0] < 3
        out += [("M", twin(v), y), ("F", y)]
        for z in s.piles[p][h:]:
            out += [("M", c, z) for c in builders(z)]
    else:
        near_stock = near_stock or move[2] < 3
        out += [("S", k, move[2]) for k in KINGS]
    return out + [("D",)] if near_stock and not s.dealt else out


def to_the_top(s: State, at: dict, c: int) -> list:
    """A necessary enabling set of 'c is the top of its pile' (c in a pile, under a card)."""
    p, h = at[c]
    return moves_of(s.piles[p][max(h + 1, s.down[p])])


def enabling(s: State, at: dict, move) -> list:
    """A necessary enabling set of the disabled ``move``: one of these comes first."""
    if move[0] == "D":
        return []
    v = move[1]
    if not s.dealt and v in s.stock:
        return [("D",)]
    if v not in at:
        return []  # on its foundation: never legal again
    p, h = at[v]
    if move[0] == "F":
        if s.found[suit(v)] < rank(v):
            return [("F", suit(v) * 13 + s.found[suit(v)])]
        return to_the_top(s, at, v)
    if h < s.down[p]:
        return moves_of(s.piles[p][s.down[p]])
    if move[0] == "S":
        q = move[2]
        return moves_of(s.piles[q][s.down[q]]) if s.piles[q] else []
    y = move[2]
    if not s.dealt and y in s.stock:
        return [("D",)]
    if y not in at:
        return []
    q, hy = at[y]
    choices = []
    if hy != len(s.piles[q]) - 1:
        choices.append(to_the_top(s, at, y))
    if q == p:  # y is in v's block: a block between them must leave
        choices.append([m for c in s.piles[p][h + 1:hy + 1] for m in moves_of(c)])
    return min(choices, key=len)


def persistent_set(s: State, at: dict, legal: list) -> list:
    """The legal moves of the smallest closed set T grown from one legal move."""
    best = legal
    for seed_move in legal:
        chosen, work = {seed_move}, [seed_move]
        while work:
            move = work.pop()
            for other in (dependent(s, at, move) if enabled(s, at, move)
                          else enabling(s, at, move)):
                if other not in chosen:
                    chosen.add(other)
                    work.append(other)
        kept = [m for m in legal if m in chosen]
        if len(kept) < len(best):
            best = kept
        if len(best) == 1:
            break
    return best


# --- searches --------------------------------------------------------------------------------

def engine_position(s: State):
    cards = np.zeros((R.PILES, R.CAPACITY), np.int64)
    length = np.zeros(R.PILES, np.int64)
    for p, pile in enumerate(s.piles):
        cards[p, :len(pile)] = pile
        length[p] = len(pile)
    misc = np.array([int(s.dealt), sum(s.found)], np.int64)
    return P.from_state(cards, length, np.array(s.down, np.int64), np.array(s.found, np.int64),
                        misc, np.asarray(s.deal, dtype=np.int8))


def search(start: State, limit: int, *, reduce=False, dead=False,
           abstract=False):
    """Depth-first search of every position reachable (with the options' reductions).
    Returns (verdict: "win", "loss" or "over", positions expanded)."""
    seen, count = set(), [0]

    def visit(s: State) -> bool:
        key = s.key(abstract)
        if key in seen:
            return False
        seen.add(key)
        if sum(s.found) == R.N_CARDS:
            return True
        if dead and CS.lost_at_sight(engine_position(s), False):
            return False
        count[0] += 1
        if count[0] > limit:
            raise OverflowError
        at = places(s)
        legal = legal_moves(s, at, abstract)
        if reduce and legal:
            legal = persistent_set(s, at, legal)
        return any(visit(play(s, at, m)) for m in legal)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    try:
        return ("win" if visit(start) else "loss"), count[0]
    except OverflowError:
        return "over", limit


def engine_classes(s: State) -> tuple[str, int]:
    table = TranspositionTable(64)
    table.begin_deal()
    # The search as version 6 measured it: without the critical-path test.
    outcome = CS.search(engine_position(s), False, False, CS.ALL & ~CS.CRITICAL, ENGINE_BUDGET,
                        table.keys, table.stamps, table.deal_first, table.begin_search(),
                        CS.new_workspace(), C.no_model(), 0)[0]
    verdict = {LOSS: "loss", WIN: "win", UNKNOWN: "over"}[int(outcome)]
    return verdict, int((table.stamps >= table.deal_first).sum())


def states(result: tuple[str, int]) -> str:
    """A search's states as a table cell: the count, or "over" past the limit."""
    return "over" if result[0] == "over" else f"{result[1]:,}"


def walk(seed: int, steps: int) -> State:
    s, rng = initial(seed), random.Random(seed * 100 + steps)
    for _ in range(steps):
        at = places(s)
        legal = legal_moves(s, at)
        if not legal:
            break
        s = play(s, at, rng.choice(legal))
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", default=POSITIONS, help="seed/steps, comma-separated")
    parser.add_argument("--limit", type=int, default=300_000, help="states per search at most")
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    rows = []
    for item in args.positions.split(","):
        seed, steps = (int(x) for x in item.split("/"))
        s = walk(seed, steps)
        plain_dead = search(s, args.limit, dead=True)
        reduced = search(s, args.limit, dead=True, reduce=True)
        plain = search(s, args.limit)
        twins = search(s, args.limit, abstract=True)
        classes = engine_classes(s)
        row = {"position": item, "face_down": int(sum(s.down)), "verdict": plain_dead[0],
               "dead_end": states(plain_dead), "dead_end_persistent": states(reduced),
               "plain": states(plain), "twin_abstract": states(twins),
               "twin_verdict": twins[0], "engine_classes": states(classes)}
        rows.append(row)
        print(row, flush=True)
    df = pd.DataFrame(rows)
    out = Path(args.results_dir) / "chinese" / "reductions"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out.with_suffix(".csv"), index=False)
    text = ("# Chinese Solitaire, strict: persistent sets and the twin abstraction, measured\n\n"
            f"`python experiments/chinese_reductions.py --positions {args.positions} "
            f"--limit {args.limit}`. States expanded by complete depth-first searches (at most "
            f"{args.limit:,}; `over`: more) from each position (deal/steps of a seeded random "
            "walk). `dead_end`: the plain search with the engine's `dead_end` test at every "
            "position; `dead_end_persistent`: the same with persistent sets; `plain` and "
            "`twin_abstract`: neither, and the abstraction (`twin_verdict`: its verdict, where "
            "`win` against a `loss` means the relaxation is too weak to prove that loss); "
            f"`engine_classes`: the engine (version {GAME.solver_versions['thoughtful']}, every "
            "reduction), for scale. See "
            "results/NOTES.md.\n\n" + markdown(df, {c: c for c in df.columns}))
    out.with_suffix(".md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
