"""Solitario di Addario (Ballo delle Coppie; GrimFang, c. 2000): what the game is.

Rules (defaults; docs/addario.md explains each, with the text's two worked examples):

* 40 cards: A-7, J, Q, K of the four suits (the Italian deck: 1-7, fante, cavallo, re);
  values A=1 ... 7=7, J=8, Q=9, K=10.  Only values matter.  Cards are drawn in deal order.
* The tableau is rows of 4 columns, each row laid left to right over the previous one.  A card
  is *free* when no card lies in any later row of its column.
* Cards leave in pairs of equal value, one pair at a time, always from the highest tier that
  has a pair, re-evaluated after every pair: (1) row pair: two free cards in the same row;
  (2) column pair: a free card and the card right beneath it; (3) free pair: any two free cards.
* A row left with no card disappears and is never refilled.
* When no pair is left: if the deck has cards and a remaining row has a hole, fill every hole
  (earliest row first, left to right); otherwise deal a new row of 4 (fewer if the deck runs
  short).  With an empty deck and no pair the game ends.  Win: all 40 cards discarded.
  Score: cards discarded.

Flag ``column_free_equal=1``: column and free pairs form one tier (row pairs still first).

Model: 4 column stacks of deck indices; a card's row is its height in its column (row 1 at
the bottom of the stack).  Removals only take column tops and refills fill from the bottom of
each hole upward, so columns never have gaps, and the emptied row is always the top one.
A position (row, column) is encoded ``(row - 1) * 4 + (column - 1)``: reading order is numeric
order.  A pair is encoded ``first_position * 64 + second_position``, so comparing encoded pairs
compares them lexicographically.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..cards import card_id
from ..errors import IllegalMove
from ..jit import jit
from ..variants import bool_flag

NAME = "addario"
TITLE = "Solitario di Addario (Ballo delle Coppie)"
N_CARDS = 40
COLS = 4
MAX_HEIGHT = 10  # new rows are dealt only onto a full tableau, and 40 cards make 10 rows
MAX_PAIRS = 16   # at most 6 same-tier pairs among 4 tops, plus 4 column pairs
RANKS = "A234567JQK"

DECK = np.array(sorted(card_id(r, s) for s in "CDHS" for r in RANKS), dtype=np.int8)

FLAGS = {
    f.name: f
    for f in (
        bool_flag("column_free_equal", False,
                  "the author's variant: column pairs and free pairs are one tier (row pairs "
                  "still first), so the player chooses among them"),
    )
}

# Value of each card id (0 for cards not in this deck): A-7 count 1-7, J 8, Q 9, K 10.
CARD_VALUE = np.zeros(54, dtype=np.int64)
for _s in range(4):
    for _r in range(7):
        CARD_VALUE[_s * 13 + _r] = _r + 1
    for _offset, _r in enumerate((10, 11, 12)):
        CARD_VALUE[_s * 13 + _r] = 8 + _offset


@jit
def card_values(deal):
    values = np.empty(deal.shape[0], dtype=np.int64)
    for i in range(deal.shape[0]):
        values[i] = CARD_VALUE[deal[i]]
    return values


class Tableau(NamedTuple):
    """A position: ``columns[c, r]`` is the deck index at row r + 1 of column c, ``heights[c]``
    the number of cards in column c, ``state[0]`` the next deck index to draw and ``state[1]``
    the number of cards discarded."""
    columns: np.ndarray
    heights: np.ndarray
    state: np.ndarray


@jit
def new_tableau():
    return Tableau(np.zeros((COLS, MAX_HEIGHT), dtype=np.int64), np.zeros(COLS, dtype=np.int64),
                   np.zeros(2, dtype=np.int64))


@jit
def _add(pairs, n, pair):
    """Insert keeping ``pairs[:n]`` sorted; returns the new count."""
    i = n
    while i > 0 and pairs[i - 1] > pair:
        pairs[i] = pairs[i - 1]
        i -= 1
    pairs[i] = pair
    return n + 1


@jit
def row_pairs(columns, heights, values, pairs):
    n = 0
    for i in range(COLS):
        for j in range(i + 1, COLS):
            h = heights[i]
            if h > 0 and heights[j] == h and values[columns[i, h - 1]] == values[columns[j, h - 1]]:
                n = _add(pairs, n, ((h - 1) * COLS + i) * 64 + (h - 1) * COLS + j)
    return n


@jit
def column_pairs(columns, heights, values, pairs, n):
    for c in range(COLS):
        h = heights[c]
        if h >= 2 and values[columns[c, h - 1]] == values[columns[c, h - 2]]:
            n = _add(pairs, n, ((h - 2) * COLS + c) * 64 + (h - 1) * COLS + c)
    return n


@jit
def free_pairs(columns, heights, values, pairs, n):
    for i in range(COLS):
        for j in range(i + 1, COLS):
            hi = heights[i]
            hj = heights[j]
            if hi > 0 and hj > 0 and values[columns[i, hi - 1]] == values[columns[j, hj - 1]]:
                a = (hi - 1) * COLS + i
                b = (hj - 1) * COLS + j
                n = _add(pairs, n, (a * 64 + b) if a < b else (b * 64 + a))
    return n


@jit
def top_tier_pairs(columns, heights, values, column_free_equal, pairs):
    """Write the pairs of the highest tier that has one into ``pairs`` (sorted); return how
    many (0: no pair anywhere)."""
    n = row_pairs(columns, heights, values, pairs)
    if n:
        return n
    n = column_pairs(columns, heights, values, pairs, 0)
    if n and not column_free_equal:
        return n
    return free_pairs(columns, heights, values, pairs, n)


@jit
def remove_pair(heights, state, pair):
    """Both cards of a legal pair are column tops (or the top two of one column)."""
    heights[(pair // 64) % COLS] -= 1
    heights[(pair % 64) % COLS] -= 1
    state[1] += 2


@jit
def refill_or_deal(columns, heights, state, n_cards):
    """The step when no pair is left.  Returns False when the game is over (deck empty)."""
    if state[0] >= n_cards:
        return False
    top = 0
    for c in range(COLS):
        top = max(top, heights[c])
    holes = False
    for c in range(COLS):
        if heights[c] < top:
            holes = True
    if holes:
        for row in range(top):
            for c in range(COLS):
                if heights[c] == row and state[0] < n_cards:
                    columns[c, row] = state[0]
                    heights[c] = row + 1
                    state[0] += 1
    else:
        for c in range(COLS):
            if state[0] < n_cards:
                columns[c, top] = state[0]
                heights[c] = top + 1
                state[0] += 1
    return True


TIER_NAMES = ("row pair", "column pair", "free pair")


class Table:
    """A game in progress as a person plays it (``winnable.session``): a pair written as
    ``solve`` writes it (``5H+5C``, the card earlier in reading order first), read back in
    either order and checked against the tiers; refills and new rows happen by themselves, and
    a pair the rules force (the only one of the top tier) is played for the player."""

    forced_automatic = True

    def __init__(self, deal: np.ndarray, rules, player: str | None = None):
        self.deal = np.asarray(deal, dtype=np.int8)
        self.cfe = bool(rules["column_free_equal"])
        self.values = card_values(self.deal)
        self.tableau = new_tableau()
        self._pairs = np.zeros(MAX_PAIRS, dtype=np.int64)
        self._settle()

    def _settle(self) -> list[int]:
        """Refill or deal while no pair is left and the deck has cards; the deck indices
        drawn."""
        columns, heights, state = self.tableau
        first = int(state[0])
        while not self.legal() and refill_or_deal(columns, heights, state, N_CARDS):
            pass
        return list(range(first, int(state[0])))

    def legal(self) -> list[int]:
        columns, heights, _ = self.tableau
        n = top_tier_pairs(columns, heights, self.values, self.cfe, self._pairs)
        return [int(p) for p in self._pairs[:n]]

    def _card(self, position: int) -> int:
        return int(self.deal[self.tableau.columns[position % COLS, position // COLS]])

    def format(self, pair: int) -> str:
        from ..cards import code
        return f"{code(self._card(pair // 64))}+{code(self._card(pair % 64))}"

    def _position_of(self, card: int) -> int | None:
        columns, heights, _ = self.tableau
        for c in range(COLS):
            for r in range(int(heights[c])):
                if self.deal[columns[c, r]] == card:
                    return r * COLS + c
        return None

    def _tiers(self) -> list[list[int]]:
        columns, heights, _ = self.tableau
        out = []
        n = row_pairs(columns, heights, self.values, self._pairs)
        out.append([int(p) for p in self._pairs[:n]])
        n = column_pairs(columns, heights, self.values, self._pairs, 0)
        out.append([int(p) for p in self._pairs[:n]])
        n = free_pairs(columns, heights, self.values, self._pairs, 0)
        out.append([int(p) for p in self._pairs[:n]])
        return out

    def parse(self, text: str) -> int:
        from ..cards import CODES, parse_joined
        if self.over():
            raise IllegalMove("the game is over")
        how = "write the pair removed as two cards joined by +, e.g. 5H+5C"
        cards = parse_joined(text, DECK, NAME, "an Addario move", how)
        if len(cards) != 2:
            raise IllegalMove(f"{text!r} is not an Addario move: {how}")
        if cards[0] == cards[1]:
            raise IllegalMove(f"{CODES[cards[0]]} is named twice")
        positions = []
        for card in cards:
            at = self._position_of(card)
            if at is None:
                drawn = [int(c) for c in self.deal[:int(self.tableau.state[0])]]
                raise IllegalMove(f"{CODES[card]} is not on the table"
                                  + (" (already discarded)" if card in drawn else ""))
            positions.append(at)
        a, b = sorted(positions)
        pair = a * 64 + b
        if CARD_VALUE[cards[0]] != CARD_VALUE[cards[1]]:
            raise IllegalMove(f"{CODES[cards[0]]} and {CODES[cards[1]]} differ in value")
        legal = self.legal()
        if pair in legal:
            return pair
        tiers = self._tiers()
        for tier, pairs in enumerate(tiers):
            if pair in pairs:
                first = next(t for t, found in enumerate(tiers) if set(found) & set(legal))
                shown = ", ".join(self.format(p) for p in legal)
                raise IllegalMove(f"{self.format(pair)} is a {TIER_NAMES[tier]}, but the rules "
                                  f"take a {TIER_NAMES[first]} first: {shown}")
        heights = self.tableau.heights
        covered = [CODES[card] for card, at in zip(cards, positions)
                   if at // COLS + 1 != heights[at % COLS]]
        raise IllegalMove(f"{covered[0]} is not free (a card lies on it in its column), and "
                          "the two are not a column pair")

    def describe(self, pair: int) -> str:
        from ..cards import code
        a, b = pair // 64, pair % 64
        tier = next((TIER_NAMES[t] for t, found in enumerate(self._tiers()) if pair in found),
                    "pair")
        return (f"{code(self._card(a))} (row {a // COLS + 1}, column {a % COLS + 1}) and "
                f"{code(self._card(b))} (row {b // COLS + 1}, column {b % COLS + 1}), a {tier}")

    def play(self, pair: int) -> str:
        from ..cards import code
        text = self.describe(pair)
        remove_pair(self.tableau.heights, self.tableau.state, pair)
        drawn = self._settle()
        if drawn:
            text += "; then drawn onto the table: " + " ".join(code(int(self.deal[i]))
                                                            for i in drawn)
        return text

    def over(self) -> bool:
        return not self.legal()

    def outcome(self) -> str:
        return "win" if self.score() == N_CARDS else "loss"

    def score(self) -> int:
        return int(self.tableau.state[1])

    def board(self, peek: bool = False) -> str:
        from ..cards import code
        columns, heights, state = self.tableau
        top = int(max(heights))
        lines = ["table (row 1 first; each row lies on the one before; .. no card):"]
        for r in range(top):
            cells = [code(int(self.deal[columns[c, r]])) if r < heights[c] else ".."
                     for c in range(COLS)]
            lines.append(f"  row {r + 1:2}: " + "  ".join(cells))
        left = N_CARDS - int(state[0])
        deck = (" ".join(code(int(c)) for c in self.deal[int(state[0]):]) if peek
                else "face down")
        lines.append(f"deck: {left} cards" + (f" ({deck})" if left else ""))
        lines.append(f"discarded: {self.score()}")
        return "\n".join(lines)
