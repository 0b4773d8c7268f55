"""Chinese Solitaire (James Jonte; program by Randy Rasa): what the game is.

Rules (defaults; docs/chinese.md gives the sources behind each):

* 52 cards.  Deck card i (1-based, i <= 49) goes to pile ceil(i/7) at height (i-1) mod 7 from
  the bottom.  Piles 1-7 have 0, 0, 0, 3, 4, 5, 6 face-down cards at the bottom; the rest are
  face up.  Cards 50-52 are the stock.
* Tableau move: any face-up card may be moved together with all cards on top of it, whatever
  their order, onto the top card of another pile that is one rank higher and of the other
  colour.  Spaces: only a king (with the cards on top of it); ``easy=1``: any card.
* Foundations by suit, A to K, from the top card of a pile; cards never come back.
* Stock: once, at any time, its three cards go face up onto piles 1, 2, 3 (card 50 onto pile 1),
  empty piles included.
* A face-down card turns face up when it becomes the top of its pile.  Nothing else is automatic.
* Win: all 52 cards on the foundations.  Score: cards on the foundations.

Flags: ``easy`` (any card to a space), ``blocks=sequence`` (only cards already built down in
alternating colours move together, as in Klondike).

State (flat integer arrays, mutated in place by ``apply_move`` and restored by ``undo_move``):
``cards[p, i]`` card id at height i of pile p (bottom first), ``length[p]``, ``down[p]``
(face-down cards at the bottom), ``found[s]`` (cards on the foundation of suit s, i.e. the rank
index it needs next), ``misc[STOCK_DEALT]`` 1 once the stock is dealt, ``misc[SCORE]`` cards on
foundations.
A move is ``kind << 24 | source << 16 | target << 8 | count`` with kind 0 = tableau, 1 =
foundation, 2 = stock (solvers may tag higher bits, which the rules ignore); piles are 0-based
inside, 1-based in the notation ``tI-tJxN``, ``tI-f``, ``stock``.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import IllegalMove
from ..jit import jit, kernel
from ..variants import bool_flag, choice_flag

NAME = "chinese"
TITLE = "Chinese Solitaire"
N_CARDS = 52
PILES = 7
CAPACITY = 64
FACE_DOWN = np.array([0, 0, 0, 3, 4, 5, 6], dtype=np.int64)
STOCK_FIRST = 49
KING = 12

TABLEAU, FOUNDATION, STOCK = 0, 1, 2
STOCK_DEALT, SCORE = 0, 1  # the slots of ``misc``: 1 once the stock is dealt; cards up

DECK = np.arange(52, dtype=np.int8)

FLAGS = {
    f.name: f
    for f in (
        bool_flag("easy", False, "easy mode: any card (with the cards on it) may move to a space; "
                  "the default takes only kings"),
        choice_flag("blocks", "any", ("any", "sequence"),
                    "any: a face-up card moves with everything on it, in any order; sequence: "
                    "only cards built down in alternating colours move together (Klondike)"),
    )
}


@kernel
def rank(card):
    return card % 13


@kernel
def suit(card):
    return card // 13


@kernel
def red(card):
    s = card // 13
    return s == 1 or s == 2


@kernel
def builds_on(card, target):
    """Can ``card`` be placed on ``target`` (one rank lower, other colour)?"""
    return rank(target) == rank(card) + 1 and red(card) != red(target)


@kernel
def _other_colour(card, r, k):
    """The k-th (k = 0, 1) card of rank r and the colour ``card`` has not, or -1 (no rank r)."""
    if r < 0 or r > KING:
        return -1
    if red(card):
        return r if k == 0 else 39 + r
    return 13 + r if k == 0 else 26 + r


@kernel
def parent(card, k):
    """The k-th (k = 0, 1) card that ``card`` builds on (one rank higher, other colour), or -1."""
    return _other_colour(card, rank(card) + 1, k)


@kernel
def builder(card, k):
    """The k-th (k = 0, 1) card that builds on ``card`` (one rank lower, other colour), or -1."""
    return _other_colour(card, rank(card) - 1, k)


@kernel
def encode(kind, source, target, count):
    return (kind << 24) | (source << 16) | (target << 8) | count


@kernel
def decode(move):
    """(kind, source, target, count) of a move, the inverse of ``encode``."""
    return (move >> 24) & 255, (move >> 16) & 255, (move >> 8) & 255, move & 255


@jit
def new_state(deal):
    cards = np.zeros((PILES, CAPACITY), dtype=np.int64)
    length = np.zeros(PILES, dtype=np.int64)
    down = np.zeros(PILES, dtype=np.int64)
    found = np.zeros(4, dtype=np.int64)
    misc = np.zeros(2, dtype=np.int64)
    for i in range(STOCK_FIRST):
        p = i // 7
        cards[p, i % 7] = deal[i]
        length[p] += 1
    for p in range(PILES):
        down[p] = FACE_DOWN[p]
    return cards, length, down, found, misc


@kernel
def sequence_start(cards, length, down, p):
    """Lowest height from which the cards of pile p up to its top are built down in
    alternating colours (the top card alone always is)."""
    i = length[p] - 1
    while i - 1 >= down[p] and builds_on(cards[p, i], cards[p, i - 1]):
        i -= 1
    return i


@kernel
def can_move(cards, length, down, source, height, target, easy, sequence_blocks):
    """Is moving the cards of ``source`` from ``height`` up onto ``target`` legal?"""
    if source == target or height < down[source] or height >= length[source]:
        return False
    if sequence_blocks and height < sequence_start(cards, length, down, source):
        return False
    card = cards[source, height]
    if length[target] == 0:
        return easy or rank(card) == KING
    return builds_on(card, cards[target, length[target] - 1])


@kernel
def can_found(cards, length, found, source):
    if length[source] == 0:
        return False
    card = cards[source, length[source] - 1]
    return found[suit(card)] == rank(card)


@kernel
def legal_moves(cards, length, down, found, misc, easy, sequence_blocks, out):
    """Every legal move, unordered and unpruned (the rules; solvers order and prune)."""
    n = 0
    for p in range(PILES):
        if can_found(cards, length, found, p):
            out[n] = encode(FOUNDATION, p, 0, 1)
            n += 1
    for p in range(PILES):
        for h in range(down[p], length[p]):
            for q in range(PILES):
                if can_move(cards, length, down, p, h, q, easy, sequence_blocks):
                    out[n] = encode(TABLEAU, p, q, length[p] - h)
                    n += 1
    if misc[STOCK_DEALT] == 0:
        out[n] = encode(STOCK, 0, 0, 3)
        n += 1
    return n


@kernel
def _carry(cards, length, source, target, count):
    """Move the top ``count`` cards of pile ``source`` onto pile ``target``, order kept."""
    start = length[source] - count
    for i in range(count):
        cards[target, length[target] + i] = cards[source, start + i]
    length[target] += count
    length[source] = start


@kernel
def apply_move(cards, length, down, found, misc, deal, move):
    """Play a legal move; returns the token ``undo_move`` needs: bit 0 set if a face-down card
    turned up, and for a foundation move the suit in the bits above."""
    kind = (move >> 24) & 255
    source = (move >> 16) & 255
    token = 0
    if kind == TABLEAU:
        _carry(cards, length, source, (move >> 8) & 255, move & 255)
    elif kind == FOUNDATION:
        card = cards[source, length[source] - 1]
        found[suit(card)] += 1
        misc[SCORE] += 1
        length[source] -= 1
        token = suit(card) << 1
    else:
        for p in range(3):
            cards[p, length[p]] = deal[STOCK_FIRST + p]
            length[p] += 1
        misc[STOCK_DEALT] = 1
        return 0
    if length[source] > 0 and length[source] == down[source]:
        down[source] -= 1
        token |= 1
    return token


@kernel
def undo_move(cards, length, down, found, misc, move, token):
    kind = (move >> 24) & 255
    source = (move >> 16) & 255
    if kind == STOCK:
        for p in range(3):
            length[p] -= 1
        misc[STOCK_DEALT] = 0
        return
    if token & 1:
        down[source] += 1
    if kind == TABLEAU:
        _carry(cards, length, (move >> 8) & 255, source, move & 255)
    else:
        s = token >> 1
        found[s] -= 1
        misc[SCORE] -= 1
        cards[source, length[source]] = s * 13 + found[s]
        length[source] += 1


def format_move(move: int) -> str:
    kind, source, target, count = decode(move)
    if kind == TABLEAU:
        return f"t{source + 1}-t{target + 1}x{count}"
    if kind == FOUNDATION:
        return f"t{source + 1}-f"
    return "stock"


_TABLEAU_MOVE = re.compile(r"t(\d+)-t(\d+)x(\d+)")
_FOUNDATION_MOVE = re.compile(r"t(\d+)-f")
FOUNDATION_SUITS = "CDHS"


class Table:
    """A game in progress as a person plays it (``winnable.session``): moves written as
    ``solve`` writes them (``t3-t5x2``, ``t1-f``, ``stock``), read back and checked with a
    reason, and the table drawn with the face-down cards and the stock hidden."""

    forced_automatic = False

    def __init__(self, deal: np.ndarray, rules, player: str | None = None):
        self.deal = np.asarray(deal, dtype=np.int8)
        self.easy = bool(rules["easy"])
        self.sequence = rules["blocks"] == "sequence"
        self.state = new_state(self.deal)
        self._out = np.zeros(4096, dtype=np.int64)

    def legal(self) -> list[int]:
        cards, length, down, found, misc = self.state
        n = legal_moves(cards, length, down, found, misc, self.easy, self.sequence, self._out)
        return [int(m) for m in self._out[:n]]

    def format(self, move: int) -> str:
        return format_move(move)

    def parse(self, text: str) -> int:
        from ..cards import code
        if self.over():
            raise IllegalMove("the game is over")
        cards, length, down, found, misc = self.state
        word = text.strip().lower()
        tableau = _TABLEAU_MOVE.fullmatch(word)
        foundation = _FOUNDATION_MOVE.fullmatch(word)
        if word == "stock":
            if misc[STOCK_DEALT]:
                raise IllegalMove("the stock has already been dealt")
            return encode(STOCK, 0, 0, 3)
        if not tableau and not foundation:
            raise IllegalMove(f"{text!r} is not a Chinese Solitaire move: expected tI-tJxN (N "
                              "cards from pile I onto pile J), tI-f (to the foundation) or stock")
        piles = [int(x) for x in (tableau.groups()[:2] if tableau else foundation.groups())]
        for p in piles:
            if not 1 <= p <= PILES:
                raise IllegalMove(f"there is no pile t{p}: the piles are t1 to t{PILES}")
        source = piles[0] - 1
        if foundation:
            if length[source] == 0:
                raise IllegalMove(f"t{source + 1} is empty")
            card = int(cards[source, length[source] - 1])
            if found[suit(card)] != rank(card):
                need = ("its ace first" if found[suit(card)] == 0 else
                        f"{code(suit(card) * 13 + int(found[suit(card)]) - 1)} is the top of "
                        "its foundation")
                raise IllegalMove(f"{code(card)} cannot go to its foundation: {need}")
            return encode(FOUNDATION, source, 0, 1)
        target, count = piles[1] - 1, int(tableau.group(3))
        if source == target:
            raise IllegalMove("a pile cannot move onto itself")
        up = int(length[source] - down[source])
        if count < 1 or count > up:
            raise IllegalMove(f"t{source + 1} has {up} face-up card{'s' * (up != 1)}, not "
                              f"{count}")
        height = int(length[source]) - count
        card = int(cards[source, height])
        if self.sequence and height < sequence_start(cards, length, down, source):
            raise IllegalMove(f"the {count} cards from {code(card)} up are not built down in "
                              "alternating colours (blocks=sequence)")
        if length[target] == 0:
            if not (self.easy or rank(card) == KING):
                raise IllegalMove(f"only a king may move to a space (t{target + 1} is empty), "
                                  f"not {code(card)}")
        elif not builds_on(card, int(cards[target, length[target] - 1])):
            top_card = int(cards[target, length[target] - 1])
            raise IllegalMove(f"{code(card)} cannot go onto {code(top_card)}: it needs a card "
                              "one rank higher of the other colour")
        move = encode(TABLEAU, source, target, count)
        if move not in self.legal():  # the checks above are the rules: never reached
            raise IllegalMove(f"{text!r} is not a legal move here")
        return move

    def describe(self, move: int) -> str:
        from ..cards import code
        cards, length, down, found, misc = self.state
        kind, source, target, count = decode(move)
        if kind == STOCK:
            return "the stock onto t1, t2, t3"
        top = int(length[source])
        if kind == FOUNDATION:
            return f"{code(int(cards[source, top - 1]))} to its foundation"
        block = " ".join(code(int(c)) for c in cards[source, top - count:top])
        onto = (f"onto {code(int(cards[target, length[target] - 1]))}" if length[target]
                else f"to the space t{target + 1}")
        return f"{block} {onto}"

    def play(self, move: int) -> str:
        from ..cards import code
        cards, length, down, found, misc = self.state
        text = self.describe(move)
        token = apply_move(cards, length, down, found, misc, self.deal, move)
        kind, source, _, _ = decode(move)
        if kind == STOCK:
            text += ": " + " ".join(code(int(c)) for c in self.deal[STOCK_FIRST:])
        elif token & 1:
            text += f", turns up {code(int(cards[source, length[source] - 1]))}"
        return text

    def over(self) -> bool:
        return self.score() == N_CARDS or not self.legal()

    def outcome(self) -> str:
        return "win" if self.score() == N_CARDS else "loss"

    def score(self) -> int:
        return int(self.state[4][SCORE])

    def board(self, peek: bool = False) -> str:
        from ..cards import code
        cards, length, down, found, misc = self.state
        lines = ["piles (bottom card first; " + ("face-down cards in brackets):" if peek
                                                  else "[??] a face-down card):")]
        for p in range(PILES):
            shown = [(f"[{code(int(cards[p, i]))}]" if peek else "[??]") if i < down[p]
                     else code(int(cards[p, i])) for i in range(int(length[p]))]
            lines.append(f"  t{p + 1}: " + (" ".join(shown) if shown else "(space)"))
        tops = [f"{code(s * 13 + int(found[s]) - 1)}" if found[s] else f"-{FOUNDATION_SUITS[s]}"
                for s in range(4)]
        lines.append("foundations: " + " ".join(tops))
        if misc[STOCK_DEALT]:
            lines.append("stock: dealt")
        else:
            stock = (" ".join(code(int(c)) for c in self.deal[STOCK_FIRST:]) if peek
                     else "face down")
            lines.append(f"stock: 3 cards ({stock}), onto t1, t2, t3")
        lines.append(f"score: {self.score()}")
        return "\n".join(lines)
