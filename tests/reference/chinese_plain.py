"""A plain exhaustive search of whole Chinese Solitaire deals, written apart from the engine.

It checks the engine's whole-deal losses (tests/test_chinese_plain.py): a deal is lost when no
position reachable from it has 52 cards on the foundations, and this search visits every
reachable position.  It shares nothing with the engine (winnable/solvers/chinese/, whose search
it must not trust) nor with the other reference, tests/reference/chinese_ref.py, whose move
generator and plain search the tests compare with this one's: its own card numbers, positions,
move generator and table of positions met, each written from the rules as docs/chinese.md
states them:

* 52 cards; deck card i (1-based) goes to pile ceil(i/7) for i <= 49, bottom first; piles 1-7
  have 0, 0, 0, 3, 4, 5, 6 face-down cards at the bottom; cards 50-52 are the stock.
* A face-up card moves with every card on it onto the top card of another pile that is one rank
  higher and of the other colour; onto an empty pile only a king (``easy``: any card).
  ``blocks="sequence"``: the cards moved must be built down in alternating colours.
* The top card of a pile goes to its suit's foundation when it is the next rank (A first).
* The stock, once, at any time: its three cards face up onto piles 1, 2, 3.
* A face-down card that becomes the top of its pile turns face up.

No reduction but one: positions that differ only in the order of interchangeable piles are one
position (piles 4-7 while the stock is still there, every pile once it is dealt: the stock is
the only thing that tells piles apart).  No move order, no loss test, no pruning.  A position is
stored whole (each pile's face-down count, length and cards, in the order above, and whether the
stock is there; the foundations are the cards in neither), so two positions are never taken
for one: no hashing can confirm a loss that is not.

Compiled with Numba (a plain-Python loop visits about 15,000 positions a second, too few for
whole deals): the code is a plain loop over small integer arrays all the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RANKS = "A23456789TJQK"
SUITS = "CDHS"
PILES = 7
FACE_DOWN = np.array([0, 0, 0, 3, 4, 5, 6], dtype=np.int64)
CARDS = 52
CAPACITY = 52  # cards a pile may hold (blocks in any order: no shorter bound)
KEY_BYTES = 72  # 7 piles of (face-down count, length, cards) and the stock's mark: at most 67
MAX_MOVES = 512
WIN, LOSS, UNKNOWN = 1, 0, 2
OUTCOMES = {WIN: "win", LOSS: "loss", UNKNOWN: "unknown"}
STOCK, FOUNDATION, TABLEAU = 0, 1, 2


def card_number(code: str) -> int:
    """``"QH"`` -> a number 0..51: suit * 13 + rank - 1 (suits C, D, H, S)."""
    code = code.strip().upper()
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


@njit(cache=True)
def _fits_on(card, below):
    """Whether ``card`` may lie on ``below``: one rank lower, the other colour (D, H red)."""
    red_card = card // 13 == 1 or card // 13 == 2
    red_below = below // 13 == 1 or below // 13 == 2
    return below % 13 == card % 13 + 1 and red_card != red_below


@njit(cache=True)
def _moves(piles, length, down, found, stock, easy, sequence, out):
    """The legal moves into ``out``; returns their count.  A move is kind * 1,000,000 + pile i
    * 10,000 + pile j * 100 + cards moved (i, j from 0)."""
    n = 0
    if stock:
        out[n] = STOCK * 1_000_000
        n += 1
    for i in range(PILES):
        if length[i] > 0:
            top = piles[i, length[i] - 1]
            if top % 13 == found[top // 13]:
                out[n] = FOUNDATION * 1_000_000 + i * 10_000
                n += 1
    for i in range(PILES):
        first = down[i]
        if sequence and length[i] > 0:
            first = length[i] - 1
            while first > down[i] and _fits_on(piles[i, first], piles[i, first - 1]):
                first -= 1
        for h in range(first, length[i]):
            card = piles[i, h]
            for j in range(PILES):
                if j == i:
                    continue
                if length[j] == 0:
                    allowed = easy or card % 13 == 12
                else:
                    allowed = _fits_on(card, piles[j, length[j] - 1])
                if allowed:
                    out[n] = TABLEAU * 1_000_000 + i * 10_000 + j * 100 + length[i] - h
                    n += 1
    return n


@njit(cache=True)
def _play(piles, length, down, found, deal_stock, move):
    """Plays a legal move in place; returns whether a face-down card turned up (for ``_undo``)."""
    kind, i, j, count = move // 1_000_000, move // 10_000 % 100, move // 100 % 100, move % 100
    if kind == STOCK:
        for p in range(3):
            piles[p, length[p]] = deal_stock[p]
            length[p] += 1
        return False
    if kind == FOUNDATION:
        card = piles[i, length[i] - 1]
        found[card // 13] += 1
        length[i] -= 1
    else:
        for k in range(count):
            piles[j, length[j] + k] = piles[i, length[i] - count + k]
        length[j] += count
        length[i] -= count
    if length[i] > 0 and down[i] >= length[i]:
        down[i] = length[i] - 1
        return True
    return False


@njit(cache=True)
def _undo(piles, length, down, found, move, turned):
    kind, i, j, count = move // 1_000_000, move // 10_000 % 100, move // 100 % 100, move % 100
    if turned:
        down[i] += 1
    if kind == STOCK:
        for p in range(3):
            length[p] -= 1
    elif kind == FOUNDATION:
        length[i] += 1
        found[piles[i, length[i] - 1] // 13] -= 1
    else:
        for k in range(count):
            piles[i, length[i] + k] = piles[j, length[j] - count + k]
        length[i] += count
        length[j] -= count


@njit(cache=True)
def _before(piles, length, down, a, b):
    """Whether pile a comes before pile b in the positions' one order of interchangeable piles:
    by face-down count, then length, then cards from the bottom."""
    if down[a] != down[b]:
        return down[a] < down[b]
    if length[a] != length[b]:
        return length[a] < length[b]
    for h in range(length[a]):
        if piles[a, h] != piles[b, h]:
            return piles[a, h] < piles[b, h]
    return False


@njit(cache=True)
def _encode(piles, length, down, stock, key):
    """The position as ``KEY_BYTES`` bytes, interchangeable piles in one order."""
    order = np.arange(PILES)
    for k in range(3 if stock else 0, PILES):  # insertion sort of the interchangeable piles
        m = k
        while m > (3 if stock else 0) and _before(piles, length, down, order[m], order[m - 1]):
            order[m], order[m - 1] = order[m - 1], order[m]
            m -= 1
    key[:] = 0
    at = 0
    for k in range(PILES):
        p = order[k]
        key[at] = down[p]
        key[at + 1] = length[p]
        for h in range(length[p]):
            key[at + 2 + h] = piles[p, h]
        at += 2 + length[p]
    key[at] = 200 + stock


@njit(cache=True)
def _decode(key, deal_stock, piles, length, down, found):
    """The position of a key; returns whether the stock is there."""
    at = 0
    for p in range(PILES):
        down[p] = key[at]
        length[p] = key[at + 1]
        for h in range(length[p]):
            piles[p, h] = key[at + 2 + h]
        at += 2 + length[p]
    stock = key[at] == 201
    for s in range(4):
        found[s] = 13
    for p in range(PILES):
        for h in range(length[p]):
            found[piles[p, h] // 13] -= 1
    if stock:
        for k in range(3):
            found[deal_stock[k] // 13] -= 1
    return stock


@njit(cache=True)
def _slot(keys, used, key, insert):
    """The table slot holding ``key`` (stored there first when ``insert``), or -1."""
    h = np.uint64(14695981039346656037)
    for b in range(KEY_BYTES):
        h = (h ^ np.uint64(key[b])) * np.uint64(1099511628211)
    size = keys.shape[0]
    s = np.int64(h % np.uint64(size))
    while used[s]:
        same = True
        for b in range(KEY_BYTES):
            if keys[s, b] != key[b]:
                same = False
                break
        if same:
            return s
        s = s + 1 if s + 1 < size else 0
    if not insert:
        return -1
    used[s] = True
    keys[s, :] = key
    return s


@njit(cache=True)
def _search(deal, easy, sequence, limit, keys, used):
    """Every position reachable from the deal, each once; returns (outcome, positions):
    ``UNKNOWN`` once ``limit`` positions or half the table are stored."""
    piles = np.zeros((PILES, CAPACITY), dtype=np.int64)
    length = np.zeros(PILES, dtype=np.int64)
    down = FACE_DOWN.copy()
    found = np.zeros(4, dtype=np.int64)
    for p in range(PILES):
        for h in range(7):
            piles[p, h] = deal[7 * p + h]
        length[p] = 7
    deal_stock = deal[49:52].copy()
    key = np.zeros(KEY_BYTES, dtype=np.uint8)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    limit = min(limit, keys.shape[0] // 2)  # the table at most half full
    stack = np.zeros(limit, dtype=np.int64)
    _encode(piles, length, down, True, key)
    stack[0] = _slot(keys, used, key, True)
    top, positions = 1, 1
    while top > 0:
        top -= 1
        stock = _decode(keys[stack[top]], deal_stock, piles, length, down, found)
        n = _moves(piles, length, down, found, stock, easy, sequence, moves)
        for m in range(n):
            move = moves[m]
            turned = _play(piles, length, down, found, deal_stock, move)
            after = stock and move // 1_000_000 != STOCK
            if found.sum() == CARDS:
                return WIN, positions
            _encode(piles, length, down, after, key)
            if _slot(keys, used, key, False) < 0:
                if positions >= limit:
                    return UNKNOWN, positions
                stack[top] = _slot(keys, used, key, True)
                top += 1
                positions += 1
            _undo(piles, length, down, found, move, turned)
    return LOSS, positions


def solve(deal: list[str], easy: bool = False, blocks: str = "any", limit: int = 3_000_000):
    """("win" | "loss" | "unknown", positions visited): every position reachable from the deal
    (52 card codes, top of the deck first) visited once, "loss" when none has 52 cards up,
    "unknown" when more than ``limit`` positions would be needed."""
    cards = np.array([card_number(c) for c in deal], dtype=np.int64)
    assert sorted(cards) == list(range(CARDS)), "a deal has each of the 52 cards once"
    size = 1 << 16
    while True:  # a table too small for the deal: searched again with one 8 times larger
        keys = np.zeros((size, KEY_BYTES), dtype=np.uint8)
        used = np.zeros(size, dtype=np.bool_)
        outcome, positions = _search(cards, easy, blocks == "sequence", limit, keys, used)
        if outcome != UNKNOWN or positions >= limit:
            return OUTCOMES[int(outcome)], int(positions)
        size *= 8


class Position:
    """A position for the tests that compare this move generator with the other reference's:
    ``moves()`` in the game's notation, ``play(text)``, ``view()`` as piles of (code, face up),
    foundations and stock."""

    def __init__(self, deal: list[str], easy: bool = False, blocks: str = "any"):
        cards = np.array([card_number(c) for c in deal], dtype=np.int64)
        self.piles = np.zeros((PILES, CAPACITY), dtype=np.int64)
        self.piles[:, :7] = cards[:49].reshape(PILES, 7)
        self.length = np.full(PILES, 7, dtype=np.int64)
        self.down = FACE_DOWN.copy()
        self.found = np.zeros(4, dtype=np.int64)
        self.stock = cards[49:52].copy()
        self.dealt = False
        self.easy, self.sequence = easy, blocks == "sequence"
        self._out = np.zeros(MAX_MOVES, dtype=np.int64)

    def _legal(self) -> dict[str, int]:
        n = _moves(self.piles, self.length, self.down, self.found, not self.dealt, self.easy,
                   self.sequence, self._out)
        return {_notation(int(m)): int(m) for m in self._out[:n]}

    def moves(self) -> list[str]:
        return sorted(self._legal())

    def play(self, text: str) -> None:
        move = self._legal()[text]
        _play(self.piles, self.length, self.down, self.found, self.stock, move)
        self.dealt |= move // 1_000_000 == STOCK

    def view(self):
        code = [r + s for s in SUITS for r in RANKS]
        piles = tuple(tuple((code[self.piles[p, h]], bool(h >= self.down[p]))
                            for h in range(self.length[p])) for p in range(PILES))
        stock = () if self.dealt else tuple(code[c] for c in self.stock)
        return piles, tuple(int(f) for f in self.found), stock


def _notation(move: int) -> str:
    kind, i, j, count = move // 1_000_000, move // 10_000 % 100, move // 100 % 100, move % 100
    if kind == STOCK:
        return "stock"
    if kind == FOUNDATION:
        return f"t{i + 1}-f"
    return f"t{i + 1}-t{j + 1}x{count}"
