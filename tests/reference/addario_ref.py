"""Plain-Python reference implementation of "Solitario di Addario (Ballo delle Coppie)".

Written only from the normative rules in the task brief, the source text
(/work/shared/seeds/addario.txt) and rules-notes.md section B2.  It is slow and
deliberately simple; it exists to cross-check the fast engine.

Model
-----
* 4 column stacks, bottom first.  A card's row is its height in its column
  (row 1 = bottom).  A card is *free* when it is the top card of its column.
* Pairs are two cards of equal value, in tiers (highest first):
    1. row pair:    two free cards in the same row;
    2. column pair: the top two cards of one column;
    3. free pair:   any two free cards.
  Variant ``column_free_equal``: tiers 2 and 3 are merged.
* Only the pairs of the highest non-empty tier are legal; re-evaluated after
  every pair.
* No pair: if the deck has cards and some column is shorter than the highest
  remaining row, fill every hole (row 1 left to right, then row 2, ...; stop
  when the deck runs out); otherwise deal a new row of up to 4 cards on top
  (left to right).  Empty deck and no pair: game over.
* Score = number of cards discarded (40 = win).
"""

from __future__ import annotations


RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]
VALUE = {r + s: i + 1 for i, r in enumerate(RANKS) for s in SUITS}
FULL_DECK = [r + s for s in SUITS for r in RANKS]
NCOLS = 4


class IllegalMove(Exception):
    pass


def norm(code: str) -> str:
    c = code.strip().upper()
    if c not in VALUE:
        raise ValueError(f"bad card code {code!r}")
    return c


def normalise_deal(deal) -> list[str]:
    cards = [norm(c) for c in deal]
    if len(cards) != 40 or len(set(cards)) != 40:
        raise ValueError("a deal must be the 40 distinct cards")
    return cards


class Game:
    """Mutable game state.

    ``columns``: list of 4 lists of codes (bottom first).
    ``deck``: list of codes, drawn from index ``pos`` onward.
    ``discarded``: number of cards removed so far.
    """

    def __init__(self, deal=None, start=True):
        self.columns: list[list[str]] = [[] for _ in range(NCOLS)]
        self.deck: list[str] = [norm(c) for c in deal] if deal is not None else []
        self.pos = 0
        self.discarded = 0
        if start:
            # The game starts with the first row of 4 dealt.
            self._deal_row()

    # ----------------------------------------------------------------- basics
    def deck_left(self) -> int:
        return len(self.deck) - self.pos

    def _draw(self) -> str:
        card = self.deck[self.pos]
        self.pos += 1
        return card

    def height(self) -> int:
        return max(len(col) for col in self.columns)

    def card_at(self, pos):
        r, c = pos
        col = self.columns[c - 1]
        return col[r - 1] if 1 <= r <= len(col) else None

    def free_positions(self) -> list[tuple[int, int]]:
        return [(len(col), c + 1) for c, col in enumerate(self.columns) if col]

    def rows(self) -> list[list[str | None]]:
        h = self.height()
        out = []
        for r in range(1, h + 1):
            out.append([col[r - 1] if len(col) >= r else None for col in self.columns])
        # Invariant: no row at or below the top is entirely empty (columns have no gaps).
        for row in out:
            assert any(x is not None for x in row)
        return out

    def state_key(self):
        return (tuple(tuple(col) for col in self.columns), self.pos)

    # ------------------------------------------------------------------ pairs
    def row_pairs(self):
        free = self.free_positions()
        out = []
        for i in range(len(free)):
            for j in range(i + 1, len(free)):
                a, b = free[i], free[j]
                if a[0] == b[0] and VALUE[self.card_at(a)] == VALUE[self.card_at(b)]:
                    out.append(tuple(sorted((a, b))))
        return sorted(out)

    def column_pairs(self):
        out = []
        for c, col in enumerate(self.columns):
            h = len(col)
            if h >= 2 and VALUE[col[h - 1]] == VALUE[col[h - 2]]:
                out.append(((h - 1, c + 1), (h, c + 1)))
        return sorted(out)

    def free_pairs(self):
        free = self.free_positions()
        out = []
        for i in range(len(free)):
            for j in range(i + 1, len(free)):
                a, b = free[i], free[j]
                if VALUE[self.card_at(a)] == VALUE[self.card_at(b)]:
                    out.append(tuple(sorted((a, b))))
        return sorted(out)

    def legal_pairs(self, column_free_equal=False):
        rp = self.row_pairs()
        if rp:
            return rp
        cp = self.column_pairs()
        fp = self.free_pairs()
        if column_free_equal:
            return sorted(set(cp) | set(fp))
        if cp:
            return cp
        return fp

    def remove(self, pair):
        """Remove a pair of positions (a column pair, or two free cards).

        Checks only that the pair is physically removable and of equal value;
        tier priority is the caller's business (see legal_pairs)."""
        p1, p2 = sorted(tuple(p) for p in pair)
        if p1 == p2:
            raise IllegalMove(f"pair {pair} uses the same position twice")
        a, b = self.card_at(p1), self.card_at(p2)
        if a is None or b is None:
            raise IllegalMove(f"pair {pair}: empty position")
        if VALUE[a] != VALUE[b]:
            raise IllegalMove(f"pair {pair}: {a} and {b} differ in value")
        (r1, c1), (r2, c2) = p1, p2
        if c1 == c2:
            col = self.columns[c1 - 1]
            if not (r2 == len(col) and r1 == r2 - 1):
                raise IllegalMove(f"pair {pair}: not the top two cards of column {c1}")
            col.pop()
            col.pop()
        else:
            for r, c in (p1, p2):
                if r != len(self.columns[c - 1]):
                    raise IllegalMove(f"pair {pair}: card at {(r, c)} is not free")
            self.columns[c1 - 1].pop()
            self.columns[c2 - 1].pop()
        self.discarded += 2

    # ------------------------------------------------------- refill and deal
    def _deal_row(self):
        for c in range(NCOLS):
            if self.deck_left() == 0:
                break
            self.columns[c].append(self._draw())

    def has_hole(self) -> bool:
        h = self.height()
        return any(len(col) < h for col in self.columns)

    def refill_or_deal(self) -> bool:
        if self.deck_left() == 0:
            return False
        h = self.height()
        if h > 0 and self.has_hole():
            for r in range(1, h + 1):
                for c in range(NCOLS):
                    col = self.columns[c]
                    if len(col) < r:
                        # earlier rows are already full, so this is exactly row r
                        assert len(col) == r - 1
                        if self.deck_left() == 0:
                            return True
                        col.append(self._draw())
            return True
        self._deal_row()
        return True


# ---------------------------------------------------------------------------
def pair_codes(game: Game, pair) -> str:
    p1, p2 = sorted(pair)
    return game.card_at(p1) + "+" + game.card_at(p2)


def play_first(deal, column_free_equal=False):
    g = Game(normalise_deal(deal))
    moves = []
    while True:
        pairs = g.legal_pairs(column_free_equal)
        if pairs:
            moves.append(pair_codes(g, pairs[0]))
            g.remove(pairs[0])
        elif not g.refill_or_deal():
            break
    return g.discarded, moves


def best_score(deal, column_free_equal=False) -> int:
    deal = normalise_deal(deal)
    memo: dict = {}

    def solve(g: Game) -> int:
        # play forced steps until a real choice or the end
        while True:
            pairs = g.legal_pairs(column_free_equal)
            if len(pairs) == 1:
                g.remove(pairs[0])
            elif not pairs:
                if not g.refill_or_deal():
                    return g.discarded
            else:
                break
        key = g.state_key()
        if key in memo:
            return memo[key]
        best = -1
        for p in pairs:
            child = Game(deal, start=False)
            child.columns = [list(col) for col in g.columns]
            child.pos = g.pos
            child.discarded = g.discarded
            child.remove(p)
            best = max(best, solve(child))
            if best == 40:
                break
        memo[key] = best
        return best

    return solve(Game(deal))


def replay(deal, moves, column_free_equal=False) -> int:
    g = Game(normalise_deal(deal))
    for i, mv in enumerate(moves):
        parts = mv.split("+")
        if len(parts) != 2:
            raise IllegalMove(f"move {i + 1} {mv!r}: expected two codes joined by '+'")
        try:
            want = sorted(norm(p) for p in parts)
        except ValueError as e:
            raise IllegalMove(f"move {i + 1} {mv!r}: {e}") from None
        while True:
            pairs = g.legal_pairs(column_free_equal)
            if pairs:
                break
            if not g.refill_or_deal():
                raise IllegalMove(f"move {i + 1} {mv!r}: the game is already over")
        chosen = None
        for p in pairs:
            if sorted((g.card_at(p[0]), g.card_at(p[1]))) == want:
                chosen = p
                break
        if chosen is None:
            legal = ", ".join(pair_codes(g, p) for p in pairs)
            raise IllegalMove(
                f"move {i + 1} {mv!r} is not legal; legal pairs: {legal}; rows: {g.rows()}"
            )
        g.remove(chosen)
    if g.legal_pairs(column_free_equal):
        legal = ", ".join(pair_codes(g, p) for p in g.legal_pairs(column_free_equal))
        raise IllegalMove(f"game not finished (legal pairs: {legal})")
    while g.refill_or_deal():
        if g.legal_pairs(column_free_equal):
            legal = ", ".join(pair_codes(g, p) for p in g.legal_pairs(column_free_equal))
            raise IllegalMove(f"moves missing (legal pairs after refill/deal: {legal})")
    return g.discarded


def random_deal(rng) -> list[str]:
    deal = list(FULL_DECK)
    rng.shuffle(deal)
    return deal


# ------------------------------------------------------------ worked examples
# Cards by value, with distinct suits where possible.
def _vals(rows):
    return [[VALUE[c] if c is not None else None for c in row] for row in rows]


def check_example_1():
    """Row 1 = 1 5 9 7, row 2 = 3 5 3 9."""
    g = Game(start=False)
    g.columns = [["AC", "3C"], ["5C", "5D"], ["QC", "3D"], ["7C", "QD"]]
    g.deck = ["2C", "4C", "6C", "KC"]
    g.pos = 0
    assert _vals(g.rows()) == [[1, 5, 9, 7], [3, 5, 3, 9]]
    # 1. the 3s of row 2 (row pair)
    assert g.row_pairs() == [((2, 1), (2, 3))]
    assert g.legal_pairs() == [((2, 1), (2, 3))]
    g.remove(((2, 1), (2, 3)))
    # 2. the 5s in column 2 (column pair), although the 9s are now a free pair
    assert g.row_pairs() == []
    assert g.free_pairs() == [((1, 3), (2, 4))]
    assert g.legal_pairs() == [((1, 2), (2, 2))]
    g.remove(((1, 2), (2, 2)))
    # 3. the 9s, both free (free pair)
    assert g.legal_pairs() == [((1, 3), (2, 4))]
    g.remove(((1, 3), (2, 4)))
    assert g.legal_pairs() == [] and g.legal_pairs(True) == []
    # leaves "1 7"; row 2 has disappeared
    assert _vals(g.rows()) == [[1, None, None, 7]]
    assert g.discarded == 6
    # the refill fills exactly the two middle holes of row 1
    assert g.refill_or_deal() is True
    assert g.pos == 2
    assert g.rows() == [["AC", "2C", "4C", "7C"]]
    assert g.columns == [["AC"], ["2C"], ["4C"], ["7C"]]


def check_example_2():
    """Row1 1 5 9 2, row2 7 3, row3 1, row4 4: columns c1=1,7,1,4 c2=5 c3=9,3 c4=2."""
    g = Game(start=False)
    g.columns = [["AC", "7C", "AD", "4C"], ["5C"], ["QC", "3C"], ["2C"]]
    # Refill order (row 2 L->R, then row 3, then row 4) for the printed result
    # 1 5 9 2 / 7 4 3 3 / 1 4 8 4 / 4 8 5 6:
    #   row 2: c2=4, c4=3; row 3: c2=4, c3=8, c4=4; row 4: c2=8, c3=5, c4=6
    g.deck = ["4D", "3D", "4H", "JC", "4S", "JD", "5D", "6C", "2D", "KC"]
    g.pos = 0
    assert _vals(g.rows()) == [[1, 5, 9, 2], [7, None, 3, None],
                               [1, None, None, None], [4, None, None, None]]
    # no pair in either variant
    assert g.legal_pairs() == [] and g.legal_pairs(True) == []
    assert g.row_pairs() == g.column_pairs() == g.free_pairs() == []
    holes = sum(g.height() - len(col) for col in g.columns)
    assert holes == 8
    assert g.refill_or_deal() is True
    assert g.pos == 8  # exactly eight cards laid
    assert _vals(g.rows()) == [[1, 5, 9, 2], [7, 4, 3, 3], [1, 4, 8, 4], [4, 8, 5, 6]]
    # nothing removable: a fifth row must be dealt
    assert g.legal_pairs() == [] and g.legal_pairs(True) == []
    assert not g.has_hole()
    assert g.refill_or_deal() is True
    assert len(g.rows()) == 5 and _vals(g.rows())[4] == [2, 10, None, None]

    # The author's hypothetical: without the row-4 8 in column 2.
    def hypo():
        h = Game(start=False)
        h.columns = [["AC", "7C", "AD", "4C"], ["5C", "4D", "4H"],
                     ["QC", "3C", "JC", "5D"], ["2C", "3D", "4S", "6C"]]
        h.deck = ["2D", "KC"]
        h.pos = 0
        return h

    h = hypo()
    assert _vals(h.rows()) == [[1, 5, 9, 2], [7, 4, 3, 3], [1, 4, 8, 4], [4, None, 5, 6]]
    assert h.row_pairs() == []
    assert h.column_pairs() == [((2, 2), (3, 2))]
    assert h.free_pairs() == [((3, 2), (4, 1))]
    # standard rules: the column of 4s, not the free pair of 4s
    assert h.legal_pairs() == [((2, 2), (3, 2))]
    h.remove(((2, 2), (3, 2)))
    assert h.columns[1] == ["5C"]
    assert (1, 2) in h.free_positions()  # the 5 is left free
    # ... and then the two free 5s go
    assert h.legal_pairs() == [((1, 2), (4, 3))]
    # variant: column and free pairs are one tier, both are choices
    h2 = hypo()
    assert h2.legal_pairs(column_free_equal=True) == [((2, 2), (3, 2)), ((3, 2), (4, 1))]
    h2.remove(((3, 2), (4, 1)))
    assert h2.columns[0] == ["AC", "7C", "AD"] and h2.columns[1] == ["5C", "4D"]
