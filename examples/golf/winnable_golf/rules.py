"""Golf patience: what the game is.

Rules (as the Wikipedia article "Golf (patience)" states the standard game; docs/adding-a-game.md
gives every decision):

* One 52-card deck.  Deal 35 cards face up into seven columns of five (the first five cards of
  the deal are column 1, bottom to top, the next five column 2, ...); the 36th card starts the
  foundation; the last 16 are the stock, face down, turned in the order dealt.
* A move takes the top card of a column (the last one dealt to it) onto the foundation when
  its rank is one above or one below the foundation's top card, whatever the suits.  Ranks run
  A 2 ... 10 J Q K; nothing goes on a King and there is no "turning the corner" (an Ace is not
  next to a King): flag ``kings=stop``, the default.  ``kings=queen``: a Queen may go on a King.
  ``kings=wrap``: ranks turn the corner (a Queen or an Ace on a King, a King or a Two on an Ace).
* The player may turn the next stock card onto the foundation at any time (the article: when no
  play is possible; turning earlier only gives up plays, so a rule that forbade it could only
  lower the win rate, never raise it).  There is no redeal.
* The game is won when all 35 cards of the columns are on the foundation; it is lost when the
  stock is empty and no top card goes on the foundation.  Score: the cards taken from the
  columns (35 for a win); ``stock_left``: the stock cards still face down at the end (what
  golf's scoring counts against a won deal).

A move is an int: 0-6 takes the top card of that column, 7 (``STOCK``) turns the stock.  It is
written as the card's code (``5H``) or ``stock``.
"""

from __future__ import annotations

import numpy as np

from winnable.cards import CODES, parse_card
from winnable.errors import IllegalMove, UserError
from winnable.jit import jit
from winnable.variants import choice_flag

NAME = "golf"
TITLE = "Golf (patience)"
DECK = np.arange(52, dtype=np.int8)
COLUMNS, HEIGHT, STOCK_CARDS = 7, 5, 16
TABLEAU = COLUMNS * HEIGHT          # 35 cards, all face up
FOUNDATION = TABLEAU                # the deal's 36th card starts the foundation
STOCK = COLUMNS                     # the move that turns the stock
KINGS = {"stop": 0, "queen": 1, "wrap": 2}
KING, ACE, QUEEN = 12, 0, 11        # ranks (card id % 13)

FLAGS = {
    f.name: f
    for f in (
        choice_flag("kings", "stop", tuple(KINGS),
                    "stop: nothing goes on a King and an Ace is not next to a King (the "
                    "standard game); queen: a Queen may go on a King; wrap: ranks turn the "
                    "corner (Queen or Ace on a King, King or Two on an Ace)"),
    )
}


@jit
def fits(top: int, card: int, kings: int) -> bool:
    """Whether ``card`` goes on the foundation's ``top`` card under the ``kings`` rule."""
    a, b = top % 13, card % 13
    if kings == 2:
        d = abs(a - b)
        return d == 1 or d == 12
    if a == 12:
        return kings == 1 and b == 11
    return abs(a - b) == 1


def layout(cards) -> tuple[np.ndarray, np.ndarray, int]:
    """The deal laid out: columns (7 x 5, bottom first), the stock (in the order it is turned)
    and the foundation's first card."""
    cards = np.asarray(cards, dtype=np.int8)
    return (cards[:TABLEAU].reshape(COLUMNS, HEIGHT).copy(), cards[FOUNDATION + 1:].copy(),
            int(cards[FOUNDATION]))


class Table:
    """Golf in progress, as a person plays it (``winnable play``, ``replay``, ``verify``)."""

    forced_automatic = False

    def __init__(self, cards, rules, player=None):
        self.columns, self.stock, self.top = layout(cards)
        self.kings = KINGS[rules["kings"]]
        self.heights = np.full(COLUMNS, HEIGHT, dtype=np.int8)
        self.turned = 0  # stock cards turned

    # --- what the rules allow ------------------------------------------------------------
    def exposed(self, column: int) -> int:
        return int(self.columns[column, self.heights[column] - 1])

    def legal(self) -> list[int]:
        if self.cleared() == TABLEAU:
            return []
        moves = [c for c in range(COLUMNS)
                 if self.heights[c] and fits(self.top, self.exposed(c), self.kings)]
        return moves + ([STOCK] if self.turned < STOCK_CARDS else [])

    def cleared(self) -> int:
        return TABLEAU - int(self.heights.sum())

    def over(self) -> bool:
        return not self.legal()

    def outcome(self) -> str:
        return "win" if self.cleared() == TABLEAU else "loss"

    def score(self) -> int:
        return self.cleared()

    def stock_left(self) -> int:
        return STOCK_CARDS - self.turned

    # --- moves written and read ----------------------------------------------------------
    def format(self, move: int) -> str:
        return "stock" if move == STOCK else CODES[self.exposed(move)]

    def parse(self, text: str) -> int:
        word = text.strip().lower()
        if word in ("stock", "s"):
            if self.turned == STOCK_CARDS:
                raise IllegalMove("the stock is empty")
            return STOCK
        try:
            card = parse_card(word, jokers=False)
        except UserError:
            raise IllegalMove(f"{text.strip()!r} is neither a card code (e.g. 5H) nor "
                              "`stock`") from None
        tops = {self.exposed(c): c for c in range(COLUMNS) if self.heights[c]}
        if card not in tops:
            raise IllegalMove(f"{CODES[card]} is not on top of a column (the tops: "
                              f"{' '.join(CODES[c] for c in tops)})")
        if not fits(self.top, card, self.kings):
            raise IllegalMove(f"{CODES[card]} does not go on {CODES[self.top]}: a card one "
                              "rank above or below it does"
                              + (", and nothing goes on a King" if self.top % 13 == KING
                                 and self.kings == 0 else ""))
        return tops[card]

    def describe(self, move: int) -> str:
        if move == STOCK:
            return "the next stock card to the foundation"
        return f"{self.format(move)} from column {move + 1} to the foundation"

    def play(self, move: int) -> str:
        if move == STOCK:
            self.top = int(self.stock[self.turned])
            self.turned += 1
            return f"turns up {CODES[self.top]} from the stock ({self.stock_left()} left)"
        self.top = self.exposed(move)
        self.heights[move] -= 1
        return f"{CODES[self.top]} from column {move + 1} to the foundation"

    def board(self, peek: bool = False) -> str:
        rows = []
        for row in range(HEIGHT):
            rows.append("  ".join(CODES[self.columns[c, row]] if row < self.heights[c] else "  "
                                  for c in range(COLUMNS)).rstrip())
        stock = (" ".join(CODES[c] for c in self.stock[self.turned:]) if peek
                 else f"{self.stock_left()} cards")
        return "\n".join(["  ".join(f"c{c + 1}" for c in range(COLUMNS)), *rows,
                          f"foundation: {CODES[self.top]}   stock: {stock}"])
