"""Plain-Python reference implementation of the rules of "Chinese Solitaire".

Written independently from the rules text (not from the engine), for
cross-checking the fast engine: move generation, replay of solver lines,
small exhaustive searches.  Slow but meant to be obviously correct.
Standard library only.  One file (about 650 lines) on purpose: a reference is read against the
rules text from top to bottom, and it shares no code with the engine it checks.

Rules implemented (summary):

* 52 cards, code = rank ("A23456789TJQK") + suit ("CDHS").  C, S black; D, H red.
* Deal: list of 52 codes, top card first.  Deck card i (1-based, i <= 49) goes
  to pile ceil(i/7) at height (i-1) mod 7 from the bottom, i.e. pile p
  (0-based) is deal[7p : 7p+7], bottom first.  Piles 1-7 have 0,0,0,3,4,5,6
  face-down cards at the bottom.  deal[49:52] is the stock.
* Tableau move tI-tJxN: the N-th card from the top of pile I is face up and is
  moved together with the N-1 cards on it onto pile J (J != I), whose top card
  is one rank higher and of the other colour.  Onto an empty pile J: the moved
  card must be a king (strict) or anything (easy=True).
  blocks="sequence": additionally every moved card above the first is one rank
  lower than, and of the other colour than, the card directly below it.
* tI-f: top card of pile I to its suit's foundation (A..K, in order).
* stock: once, at any time; stock cards 50, 51, 52 go face up onto piles
  1, 2, 3 (whatever is there, empty piles included).
* A face-down card that becomes the top of its pile turns face up at once.
* score = cards on the foundations; won = 52.

Representation: State.piles is a tuple of 7 tuples of (code, face_up) pairs,
bottom first (last = top); State.foundations is a tuple of 4 ints (number of
cards of clubs, diamonds, hearts, spades on the foundations); State.stock is
the tuple of stock codes (3 of them, or () once dealt).

Legality is defined in exactly ONE place, `_illegal_reason`; `legal_moves`
enumerates every syntactically possible move and keeps those for which it
returns None, and `apply_move` refuses any move for which it returns a reason.
The self-checks additionally compare against an independently written
destination-driven generator (`_legal_moves_alt`).

Run the self-checks:  python -m tests.reference.chinese_ref [node_limit]
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED_SUITS = "DH"
ALL_CODES = tuple(r + s for s in SUITS for r in RANKS)  # fixed, deterministic order
FACE_DOWN_COUNTS = (0, 0, 0, 3, 4, 5, 6)
NUM_PILES = 7
BLOCK_MODES = ("any", "sequence")


class IllegalMove(Exception):
    """A move that breaks the rules (or a replay containing one)."""


# --------------------------------------------------------------------------- #
# cards
# --------------------------------------------------------------------------- #


def rank(code: str) -> int:
    """A=1 ... K=13."""
    return RANKS.index(code[0]) + 1


def suit_index(code: str) -> int:
    """0..3 for C, D, H, S."""
    return SUITS.index(code[1])


def is_red(code: str) -> bool:
    return code[1] in RED_SUITS


def _is_valid_code(code: str) -> bool:
    return len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def parse_deal(text_or_list) -> list[str]:
    """A deal as text (codes separated by whitespace and/or commas) or as a list
    of codes -> list of 52 distinct upper-case codes.  Raises ValueError."""
    if isinstance(text_or_list, str):
        items = [t for t in re.split(r"[\s,]+", text_or_list.strip()) if t]
    else:
        items = list(text_or_list)
    codes = []
    for item in items:
        if not isinstance(item, str):
            raise ValueError(f"card code must be a string, got {item!r}")
        code = item.strip().upper()
        if not _is_valid_code(code):
            raise ValueError(f"invalid card code {item!r}")
        codes.append(code)
    if len(codes) != 52:
        raise ValueError(f"a deal has 52 cards, got {len(codes)}")
    dups = sorted(c for c, k in Counter(codes).items() if k > 1)
    if dups:
        raise ValueError(f"duplicate cards in deal: {dups}")
    return codes


def random_deal(rng) -> list[str]:
    """rng: a random.Random (anything with .shuffle)."""
    deck = list(ALL_CODES)
    rng.shuffle(deck)
    return deck


# --------------------------------------------------------------------------- #
# state
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class State:
    piles: tuple  # 7 tuples of (code, face_up) pairs, bottom first
    foundations: tuple  # 4 ints: C, D, H, S
    stock: tuple  # codes still in the stock (3 or 0), card 50 first


def initial_state(deal) -> State:
    deal = parse_deal(deal)
    piles = []
    for p in range(NUM_PILES):
        cards = deal[7 * p: 7 * p + 7]  # bottom first: deck card 7p+1 at height 0
        down = FACE_DOWN_COUNTS[p]
        piles.append(tuple((code, height >= down) for height, code in enumerate(cards)))
    return State(piles=tuple(piles), foundations=(0, 0, 0, 0), stock=tuple(deal[49:52]))


def score(state: State) -> int:
    return sum(state.foundations)


def is_won(state: State) -> bool:
    return score(state) == 52


def visible(state: State):
    """What a player sees: per pile (face-down count, face-up codes bottom
    first), the foundations, and whether the stock is still there."""
    piles = []
    for pile in state.piles:
        down = sum(1 for _, up in pile if not up)
        ups = tuple(code for code, up in pile if up)
        piles.append((down, ups))
    return (tuple(piles), tuple(state.foundations), len(state.stock) > 0)


# --------------------------------------------------------------------------- #
# moves
# --------------------------------------------------------------------------- #

_RE_TABLEAU = re.compile(r"^t(\d+)-t(\d+)x(\d+)$")
_RE_FOUNDATION = re.compile(r"^t(\d+)-f$")


def _parse_move(move: str):
    """-> ("t", i, j, n) | ("f", i) | ("stock",); piles 1-based as written."""
    if not isinstance(move, str):
        raise IllegalMove(f"move must be a string, got {move!r}")
    m = move.strip().lower()
    if m == "stock":
        return ("stock",)
    mt = _RE_TABLEAU.match(m)
    if mt:
        return ("t", int(mt.group(1)), int(mt.group(2)), int(mt.group(3)))
    mf = _RE_FOUNDATION.match(m)
    if mf:
        return ("f", int(mf.group(1)))
    raise IllegalMove(f"cannot parse move {move!r} (expected tI-tJxN, tI-f or stock)")


def _format_move(parsed) -> str:
    if parsed[0] == "t":
        return f"t{parsed[1]}-t{parsed[2]}x{parsed[3]}"
    if parsed[0] == "f":
        return f"t{parsed[1]}-f"
    return "stock"


def _check_options(easy, blocks):
    if blocks not in BLOCK_MODES:
        raise ValueError(f"blocks must be one of {BLOCK_MODES}, got {blocks!r}")


def _illegal_reason(state: State, parsed, easy: bool, blocks: str):
    """None if the (parsed) move is legal in `state`, else a reason string.
    This is the single definition of legality."""
    kind = parsed[0]
    if kind == "stock":
        if not state.stock:
            return "the stock has already been dealt"
        return None

    if kind == "f":
        i = parsed[1]
        if not 1 <= i <= NUM_PILES:
            return f"no pile {i} (piles are 1-7)"
        pile = state.piles[i - 1]
        if not pile:
            return f"pile {i} is empty"
        code, up = pile[-1]
        if not up:
            return f"top card of pile {i} is face down"
        have = state.foundations[suit_index(code)]
        if rank(code) != have + 1:
            need = RANKS[have] + code[1] if have < 13 else "nothing (suit complete)"
            return f"{code} cannot go to the {code[1]} foundation (it needs {need})"
        return None

    # tableau move
    _, i, j, n = parsed
    if not 1 <= i <= NUM_PILES:
        return f"no pile {i} (piles are 1-7)"
    if not 1 <= j <= NUM_PILES:
        return f"no pile {j} (piles are 1-7)"
    if i == j:
        return f"source and destination are the same pile ({i})"
    if n < 1:
        return f"must move at least one card (N={n})"
    src = state.piles[i - 1]
    if n > len(src):
        return f"pile {i} has only {len(src)} card(s), cannot move {n}"
    moved = src[len(src) - n:]
    for code, up in moved:
        if not up:
            return f"pile {i}: card {code} among the top {n} is face down"
    first = moved[0][0]
    if blocks == "sequence":
        for k in range(1, n):
            below, above = moved[k - 1][0], moved[k][0]
            if not (rank(above) == rank(below) - 1 and is_red(above) != is_red(below)):
                return (f"blocks=sequence: {above} on {below} is not built down in "
                        f"alternating colours, so {first} cannot move with it")
    dst = state.piles[j - 1]
    if not dst:
        if easy or rank(first) == 13:
            return None
        return f"pile {j} is empty and only a king may move to a space (moved card {first})"
    top, top_up = dst[-1]
    if not top_up:
        return f"top card of pile {j} is face down"
    if rank(top) != rank(first) + 1:
        return f"{first} cannot go on {top} (rank must be one lower)"
    if is_red(top) == is_red(first):
        return f"{first} cannot go on {top} (colours must alternate)"
    return None


def _flip_top(pile: tuple) -> tuple:
    if pile and not pile[-1][1]:
        return pile[:-1] + ((pile[-1][0], True),)
    return pile


def _apply_parsed(state: State, parsed) -> State:
    """Applies an already-validated move."""
    piles = list(state.piles)
    foundations = list(state.foundations)
    stock = state.stock
    if parsed[0] == "stock":
        for k, code in enumerate(stock):  # card 50 -> pile 1, 51 -> 2, 52 -> 3
            piles[k] = piles[k] + ((code, True),)
        stock = ()
    elif parsed[0] == "f":
        i = parsed[1]
        code, _ = piles[i - 1][-1]
        piles[i - 1] = _flip_top(piles[i - 1][:-1])
        foundations[suit_index(code)] += 1
    else:
        _, i, j, n = parsed
        src = piles[i - 1]
        moved = src[len(src) - n:]
        piles[i - 1] = _flip_top(src[:len(src) - n])
        piles[j - 1] = piles[j - 1] + moved
    return State(piles=tuple(piles), foundations=tuple(foundations), stock=tuple(stock))


def _all_candidate_moves(state: State):
    """Every move that is syntactically possible in this state (before the
    legality check): all i != j with 1 <= N <= len(pile i), all tI-f, stock."""
    out = [("stock",)]
    for i in range(1, NUM_PILES + 1):
        out.append(("f", i))
        for j in range(1, NUM_PILES + 1):
            if j == i:
                continue
            for n in range(1, len(state.piles[i - 1]) + 1):
                out.append(("t", i, j, n))
    return out


def legal_moves(state: State, easy: bool = False, blocks: str = "any") -> list[str]:
    """Every legal move, in notation, no duplicates, sorted (plain string sort)."""
    _check_options(easy, blocks)
    moves = {_format_move(p) for p in _all_candidate_moves(state)
             if _illegal_reason(state, p, easy, blocks) is None}
    return sorted(moves)


def apply_move(state: State, move: str, easy: bool = False, blocks: str = "any") -> State:
    _check_options(easy, blocks)
    parsed = _parse_move(move)
    reason = _illegal_reason(state, parsed, easy, blocks)
    if reason is not None:
        raise IllegalMove(f"illegal move {move!r}: {reason}")
    return _apply_parsed(state, parsed)


def replay(deal, moves, easy: bool = False, blocks: str = "any") -> int:
    state = initial_state(deal)
    for k, move in enumerate(moves, start=1):
        try:
            state = apply_move(state, move, easy=easy, blocks=blocks)
        except IllegalMove as e:
            raise IllegalMove(f"move {k} ({move!r}): {e}") from None
    return score(state)


# --------------------------------------------------------------------------- #
# exhaustive search
# --------------------------------------------------------------------------- #


def solve(deal, easy: bool = False, blocks: str = "any", node_limit: int = 200_000):
    """Plain depth-first search over legal_moves (in sorted order) with a
    visited set of states; no pruning, no move ordering heuristics.

    Returns (result, line): ("win", moves) / ("loss", None) only if the whole
    reachable state space was explored / ("unknown", None) if node_limit
    states were expanded (had their moves generated) before finishing."""
    _check_options(easy, blocks)
    start = initial_state(deal)
    if is_won(start):
        return "win", []
    visited = {start}
    expanded = 0
    # stack entries: (state, list of legal moves, index of next move to try)
    if expanded >= node_limit:
        return "unknown", None
    stack = [[start, legal_moves(start, easy, blocks), 0]]
    expanded += 1
    path: list[str] = []
    while stack:
        frame = stack[-1]
        state, moves, idx = frame
        if idx >= len(moves):
            stack.pop()
            if path:
                path.pop()
            continue
        frame[2] = idx + 1
        move = moves[idx]
        child = apply_move(state, move, easy, blocks)
        if child in visited:
            continue
        visited.add(child)
        if is_won(child):
            return "win", path + [move]
        if expanded >= node_limit:
            return "unknown", None
        stack.append([child, legal_moves(child, easy, blocks), 0])
        expanded += 1
        path.append(move)
    return "loss", None


# --------------------------------------------------------------------------- #
# self-checks
# --------------------------------------------------------------------------- #


def _legal_moves_alt(state: State, easy: bool = False, blocks: str = "any") -> list[str]:
    """Independent, destination-driven move generator (self-check only)."""
    colour = {c: ("R" if c[1] in "DH" else "B") for c in ALL_CODES}
    value = {c: "A23456789TJQK".find(c[0]) + 1 for c in ALL_CODES}
    out = set()
    if len(state.stock) > 0:
        out.add("stock")
    for i, pile in enumerate(state.piles, start=1):
        if pile:
            top = pile[-1][0]
            if value[top] == state.foundations["CDHS".find(top[1])] + 1:
                out.add(f"t{i}-f")
    for j, dst in enumerate(state.piles, start=1):
        for i, src in enumerate(state.piles, start=1):
            if i == j:
                continue
            for pos, (code, up) in enumerate(src):
                if not up:
                    continue
                if dst:
                    t = dst[-1][0]
                    ok = value[t] - value[code] == 1 and colour[t] != colour[code]
                else:
                    ok = easy or code[0] == "K"
                if ok and blocks == "sequence":
                    run = [c for c, _ in src[pos:]]
                    ok = all(value[a] - value[b] == 1 and colour[a] != colour[b]
                             for a, b in zip(run, run[1:]))
                if ok:
                    out.add(f"t{i}-t{j}x{len(src) - pos}")
    return sorted(out)


def _check_invariants(state: State):
    cards = [c for pile in state.piles for c, _ in pile] + list(state.stock)
    for s, k in zip(SUITS, state.foundations):
        assert 0 <= k <= 13, state.foundations
        cards += [RANKS[r] + s for r in range(k)]
    assert len(cards) == 52 and set(cards) == set(ALL_CODES), "cards lost or duplicated"
    assert len(state.stock) in (0, 3)
    for p, pile in enumerate(state.piles, start=1):
        if pile:
            assert pile[-1][1], f"face-down card on top of pile {p}"
        ups = [up for _, up in pile]
        # face-down cards only at the bottom
        assert ups == sorted(ups), f"face-down card above a face-up one in pile {p}"


def _st(piles, found=(0, 0, 0, 0), stock=()):
    """Hand-made state: piles as lists of codes bottom first, '#' prefix = face down."""
    assert len(piles) == 7
    return State(
        piles=tuple(tuple((c.lstrip("#").upper(), not c.startswith("#")) for c in p) for p in piles),
        foundations=tuple(found),
        stock=tuple(stock),
    )


def _expect_illegal(state, move, **kw):
    try:
        apply_move(state, move, **kw)
    except IllegalMove as e:
        return str(e)
    raise AssertionError(f"{move} should be illegal in {state}")


def _hand_made_checks():
    # --- layout -------------------------------------------------------------
    deal = random_deal(random.Random(1))
    s = initial_state(deal)
    downs = sum(1 for p in s.piles for _, up in p if not up)
    ups = sum(1 for p in s.piles for _, up in p if up)
    assert (downs, ups, len(s.stock)) == (18, 31, 3), (downs, ups, len(s.stock))
    assert [sum(1 for _, up in p if not up) for p in s.piles] == [0, 0, 0, 3, 4, 5, 6]
    assert all(len(p) == 7 for p in s.piles)
    for i in range(1, 50):  # deck card i -> pile ceil(i/7), height (i-1) mod 7
        p, h = -(-i // 7), (i - 1) % 7
        assert s.piles[p - 1][h][0] == deal[i - 1]
    assert s.piles[0][-1][0] == deal[6] and s.piles[1][0][0] == deal[7]
    assert s.stock == tuple(deal[49:52])
    _check_invariants(s)
    assert parse_deal(" ".join(c.lower() for c in deal)) == deal
    assert parse_deal(",".join(deal)) == deal
    for bad in (deal[:51], deal[:51] + [deal[0]], deal[:51] + ["1H"]):
        try:
            parse_deal(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"parse_deal accepted {bad}")
    print("  layout: 18 face down, 31 face up, stock of 3, deck order -> piles ok")

    # --- basic tableau rule: one rank lower, other colour ---------------------
    s = _st([["5H"], ["6C"], ["6D"], ["7S"], ["4C"], [], []])
    lm = legal_moves(s)
    assert "t1-t2x1" in lm and "t1-t3x1" not in lm and "t1-t4x1" not in lm
    assert "t5-t1x1" in lm  # black 4 on red 5
    assert "colours" in _expect_illegal(s, "t1-t3x1")
    assert "rank" in _expect_illegal(s, "t1-t4x1")
    assert "same pile" in _expect_illegal(s, "t1-t1x1")
    assert "no pile" in _expect_illegal(s, "t8-t1x1")
    assert "only 1" in _expect_illegal(s, "t1-t2x2")
    assert "at least one" in _expect_illegal(s, "t1-t2x0")
    assert "cannot parse" in _expect_illegal(s, "t1-t2")
    assert apply_move(s, "T1-T2X1") == apply_move(s, "t1-t2x1")  # case-insensitive
    print("  rank/colour rule, malformed and out-of-range moves ok")

    # --- spaces: king only (strict) vs anything (easy) -----------------------
    s = _st([["QH", "3C"], ["KS", "2D"], ["8C"], [], ["9D"], ["TS"], ["JD"]])
    strict, easy = legal_moves(s), legal_moves(s, easy=True)
    assert "t2-t4x2" in strict  # king with the card on it
    assert "t2-t4x1" not in strict and "t1-t4x2" not in strict and "t3-t4x1" not in strict
    assert "king" in _expect_illegal(s, "t3-t4x1")
    for m in ("t2-t4x2", "t2-t4x1", "t1-t4x2", "t1-t4x1", "t3-t4x1", "t5-t4x1"):
        assert m in easy, m
    s2 = apply_move(s, "t2-t4x2")
    assert s2.piles[1] == () and s2.piles[3] == (("KS", True), ("2D", True))
    # a king already at the bottom may move to another space (legal, useless)
    s3 = _st([["KS"], [], ["2C"], ["3C"], ["4C"], ["5C"], ["6C"]])
    assert "t1-t2x1" in legal_moves(s3)
    print("  spaces: king-only in strict mode, anything in easy mode ok")

    # --- blocks: any vs sequence ---------------------------------------------
    s = _st([["JC", "9S", "8H", "7C"], ["JS", "9C", "8D", "3S"], ["TD"], ["4D"], ["TH"], [], []])
    anym, seqm = legal_moves(s), legal_moves(s, blocks="sequence")
    assert "t1-t3x3" in anym and "t1-t3x3" in seqm  # 9S 8H 7C is a proper run
    assert "t2-t5x3" in anym  # 9C with 8D, 3S on top of it, any order
    assert "t2-t5x3" not in seqm  # 8D, 3S is not a run
    assert "t2-t5x2" not in anym  # 8D on TH: wrong rank
    assert "t2-t4x1" in seqm  # single top card always qualifies
    assert "alternating" in _expect_illegal(s, "t2-t5x3", blocks="sequence")
    s4 = _st([["TH", "9S", "8S"], ["TD"], [], [], [], [], ["3C"]])
    assert "t1-t2x2" in legal_moves(s4) and "t1-t2x2" not in legal_moves(s4, blocks="sequence")
    print("  blocks: any-order blocks vs alternating-colour sequences ok")

    # --- block from the middle of a pile, and the flip under it --------------
    s = _st([["#2C", "#3D", "5H", "9C", "4S"], ["6S"], [], [], [], [], []])
    assert "t1-t2x3" in legal_moves(s)
    assert "face down" in _expect_illegal(s, "t1-t2x4")
    s2 = apply_move(s, "t1-t2x3")
    assert s2.piles[0] == (("2C", False), ("3D", True)), s2.piles[0]
    assert s2.piles[1] == (("6S", True), ("5H", True), ("9C", True), ("4S", True))
    assert "t1-t2x3" not in legal_moves(s, blocks="sequence")
    print("  block from the middle of a pile + automatic flip ok")

    # --- stock: once, any time, onto piles 1-3, empty piles included --------
    s = _st([[], ["KC", "QD"], ["#5S", "9H"], [], [], [], []], stock=("2H", "3C", "4D"))
    assert "stock" in legal_moves(s)
    s2 = apply_move(s, "stock")
    assert s2.stock == ()
    assert s2.piles[0] == (("2H", True),)
    assert s2.piles[1][-1] == ("3C", True) and s2.piles[2][-1] == ("4D", True)
    assert "stock" not in legal_moves(s2)
    assert "already" in _expect_illegal(s2, "stock")
    print("  stock: once, onto piles 1-3, empty pile included ok")

    # --- foundations ---------------------------------------------------------
    s = _st([["2H"], ["#3H", "AH"], ["AD", "KD"], ["5C"], ["5S"], ["7C"], ["7S"]])
    assert legal_moves(s) == ["t2-f"]
    assert "needs AH" in _expect_illegal(s, "t1-f")
    s2 = apply_move(s, "t2-f")
    assert s2.foundations == (0, 0, 1, 0) and s2.piles[1] == (("3H", True),)  # flipped
    s3 = apply_move(s2, "t1-f")
    assert s3.foundations == (0, 0, 2, 0) and s3.piles[0] == ()
    assert "empty" in _expect_illegal(s3, "t1-f")
    s4 = apply_move(s3, "t2-f")
    assert s4.foundations == (0, 0, 3, 0) and s4.piles[1] == ()  # flipped card to foundation
    # KD on top, AD below: AD is not a top card
    assert "t3-f" not in legal_moves(s4)
    # suit complete
    s5 = _st([["AC"], [], [], [], [], [], []], found=(13, 0, 0, 0))
    assert "complete" in _expect_illegal(s5, "t1-f")
    assert score(s4) == 3 and not is_won(s4)
    print("  foundations: by suit, in order, top card only, flip after ok")

    # --- illegal moves in replay name the move number ------------------------
    deal = random_deal(random.Random(7))
    s = initial_state(deal)
    first = [m for m in legal_moves(s) if m != "stock"][0]
    try:
        replay(deal, [first, "stock", "stock"])
    except IllegalMove as e:
        assert str(e).startswith("move 3 ('stock')"), str(e)
    else:
        raise AssertionError("replay accepted two stock moves")
    print("  replay reports the move number ok")

    # --- visible -------------------------------------------------------------
    s = _st([["#2C", "#3D", "5H"], [], [], [], [], [], []], stock=("AH", "AD", "AC"))
    t = _st([["#9C", "#8D", "5H"], [], [], [], [], [], []], stock=("KH", "KD", "KC"))
    assert visible(s) == visible(t) and hash(visible(s)) == hash(visible(t))
    assert visible(s) != visible(apply_move(s, "stock"))
    print("  visible() hides face-down and stock identities ok")


def _random_playouts(n_deals=1000, seed=12345, max_moves=400):
    rng = random.Random(seed)
    t0 = time.time()
    total_moves = 0
    wins = 0
    scores = []
    for d in range(n_deals):
        easy = d % 2 == 1
        blocks = "sequence" if d % 4 >= 2 else "any"
        deal = random_deal(rng)
        state = initial_state(deal)
        _check_invariants(state)
        line = []
        for _ in range(max_moves):
            lm = legal_moves(state, easy, blocks)
            assert len(lm) == len(set(lm)) and lm == sorted(lm)
            alt = _legal_moves_alt(state, easy, blocks)
            assert lm == alt, (state, lm, alt)
            if not lm:
                break
            move = rng.choice(lm)
            state = apply_move(state, move, easy, blocks)
            _check_invariants(state)
            line.append(move)
        total_moves += len(line)
        sc = score(state)
        scores.append(sc)
        wins += is_won(state)
        assert replay(deal, line, easy, blocks) == sc
    dt = time.time() - t0
    print(f"  {n_deals} random play-outs (all 4 easy/blocks combos), {total_moves} moves, "
          f"invariants + alt generator + replay ok; random-play wins {wins}, "
          f"mean score {sum(scores) / len(scores):.2f}; {dt:.1f}s")


def _solve_check(n_deals=20, seed=2024, node_limit=200_000):
    rng = random.Random(seed)
    counts = Counter()
    t_all = time.time()
    for d in range(n_deals):
        deal = random_deal(rng)
        t0 = time.time()
        result, line = solve(deal, easy=True, node_limit=node_limit)
        dt = time.time() - t0
        counts[result] += 1
        extra = ""
        if result == "win":
            assert replay(deal, line, easy=True) == 52
            extra = f", line of {len(line)} moves replays to 52"
        else:
            assert line is None
        print(f"    deal {d + 1:2d}: {result:7s} {dt:6.1f}s{extra}", flush=True)
    print(f"  solve(easy=True, node_limit={node_limit}) on {n_deals} random deals: "
          f"win {counts['win']}, loss {counts['loss']}, unknown {counts['unknown']}; "
          f"total {time.time() - t_all:.1f}s")


def _small_solve_checks():
    deal = random_deal(random.Random(3))
    assert solve(deal, easy=True, node_limit=1) == ("unknown", None)
    print("  solve node_limit=1 -> unknown ok")


def main(argv):
    node_limit = int(argv[1]) if len(argv) > 1 else 200_000
    print("hand-made positions:")
    _hand_made_checks()
    _small_solve_checks()
    print("random play-outs:")
    _random_playouts()
    print("solve:")
    _solve_check(node_limit=node_limit)
    print("all self-checks passed")


if __name__ == "__main__":
    main(sys.argv)
