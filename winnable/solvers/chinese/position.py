"""Chinese Solitaire: the position the thoughtful search works on, with its fingerprint.

A ``Position`` is the rules' state (``winnable.rules.chinese``: cards, length, down, found,
misc) plus what the search keeps up to date as it plays and takes back moves:

* ``where[c]``: the place of card c, ``pile * CAPACITY + height``, or -1 when it is on its
  foundation or in the stock.  Move generation starts from the top cards and finds the two cards
  that build on each one through it, instead of scanning every card of every pile.
* ``pile_hash[p, k]`` (k = 0, 1): two independent Zobrist hashes of pile p, the XOR of
  ``ZOBRIST[k, card, height]`` over its cards and ``DOWN[k, face-down count]``.  A move changes
  them by the few terms of the cards it moves.
* ``key[k]``: the position's fingerprint, the sum over piles of ``mix64(pile_hash ^ salt)``
  (each pile's term kept in ``term[p, k]``, so that a move mixes only the two piles it changes),
  plus ``STOCK_SALT`` once the stock is dealt.  The salt is 0 for piles whose names do not
  matter and ``PILE_SALT[k, p]`` for the others (for every pile when ``symmetric`` is off):
  before the stock is dealt piles 1, 2, 3 are named (the stock lands on them by name) and 4-7
  are interchangeable; afterwards all seven are.
  A sum of mixed pile hashes is the same for every order of the interchangeable piles, so
  positions that differ only by such a renaming share a key: this is the pile-order symmetry of
  the search, and it is sound because no rule tells such piles apart.  A move updates the key by
  the two piles it changed; the stock move recomputes it (the classes change).

The foundations are not hashed: they hold exactly the cards that are neither in a pile nor in
the stock, and the stock is known for the deal.  So the key determines the position (the
fingerprint is 128 bits: two positions share one by accident with probability about
n**2 / 2**129 for n positions).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import inline_kernel, jit, kernel

from ...rules import chinese as R
from ..table import mix64

CAPACITY = R.CAPACITY
NAMED_BEFORE_STOCK = 3  # piles 1-3 keep their names until the stock is dealt


def _zobrist(count: int, salt: int) -> np.ndarray:
    """Fixed pseudo-random words (splitmix64 from a fixed seed; the same on every machine)."""
    out = np.empty(count, dtype=np.uint64)
    state = salt
    mask = (1 << 64) - 1
    for i in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out[i] = z ^ (z >> 31)
    return out


ZOBRIST = _zobrist(2 * R.N_CARDS * CAPACITY, 0x5EED_C41E).reshape(2, R.N_CARDS, CAPACITY)
DOWN = _zobrist(2 * 8, 0xD0_17).reshape(2, 8)
PILE_SALT = _zobrist(2 * R.PILES, 0x9_11E5).reshape(2, R.PILES)
FREE_BASE = R.N_CARDS + R.PILES  # the bottom of a pile whose name does not matter
RESTING = _zobrist(2 * R.N_CARDS * (FREE_BASE + 1), 0x4E57).reshape(2, R.N_CARDS, FREE_BASE + 1)
STOCK_SALT = _zobrist(2, 0x57_0C)


class Position(NamedTuple):
    cards: np.ndarray      # int64[PILES, CAPACITY]
    length: np.ndarray     # int64[PILES]
    down: np.ndarray       # int64[PILES]
    found: np.ndarray      # int64[4]
    misc: np.ndarray       # int64[2]: R.STOCK_DEALT, R.SCORE
    deal: np.ndarray       # int8[52]
    where: np.ndarray      # int64[52]
    pile_hash: np.ndarray  # uint64[PILES, 2]
    key: np.ndarray        # uint64[2]
    symmetric: np.ndarray  # bool[1]: the key ignores the order of interchangeable piles
    term: np.ndarray       # uint64[PILES, 2]: each pile's term of the key


@inline_kernel
def _named(pos, p):
    """Does the key tell pile p apart from the other piles?"""
    return not pos.symmetric[0] or (pos.misc[R.STOCK_DEALT] == 0 and p < NAMED_BEFORE_STOCK)


@kernel
def _pile_term(pos, p, k):
    h = pos.pile_hash[p, k]
    if _named(pos, p):
        h ^= PILE_SALT[k, p]
    return mix64(h)


@kernel
def set_symmetry(pos, symmetric):
    """Key the position with pile-order symmetry (the default) or with every pile named (the
    search's ablation of its symmetry)."""
    if pos.symmetric[0] != symmetric:
        pos.symmetric[0] = symmetric
        _rekey(pos)


@kernel
def refresh(pos):
    """Recompute every derived field from the rules' state (after building or editing it)."""
    for c in range(R.N_CARDS):
        pos.where[c] = -1
    for p in range(R.PILES):
        for k in range(2):
            h = DOWN[k, pos.down[p]]
            for i in range(pos.length[p]):
                h ^= ZOBRIST[k, pos.cards[p, i], i]
            pos.pile_hash[p, k] = h
        for i in range(pos.length[p]):
            pos.where[pos.cards[p, i]] = p * CAPACITY + i
    _rekey(pos)


@kernel
def _rekey(pos):
    for k in range(2):
        total = STOCK_SALT[k] if pos.misc[R.STOCK_DEALT] == 1 else np.uint64(0)
        for p in range(R.PILES):
            pos.term[p, k] = _pile_term(pos, p, k)
            total += pos.term[p, k]
        pos.key[k] = total


@jit
def from_state(cards, length, down, found, misc, deal):
    """A position from the rules' state arrays (copied)."""
    pos = Position(cards.copy(), length.copy(), down.copy(), found.copy(), misc.copy(),
                   deal.copy(), np.empty(R.N_CARDS, dtype=np.int64),
                   np.empty((R.PILES, 2), dtype=np.uint64), np.empty(2, dtype=np.uint64),
                   np.ones(1, dtype=np.bool_), np.empty((R.PILES, 2), dtype=np.uint64))
    refresh(pos)
    return pos


@kernel
def assign(pos, cards, length, down, found, misc, deal):
    """Make ``pos`` the given rules' state (copied) with its derived fields."""
    for p in range(R.PILES):
        pos.length[p] = length[p]
        pos.down[p] = down[p]
        for i in range(length[p]):
            pos.cards[p, i] = cards[p, i]
    for s in range(4):
        pos.found[s] = found[s]
    pos.misc[R.STOCK_DEALT] = misc[R.STOCK_DEALT]
    pos.misc[R.SCORE] = misc[R.SCORE]
    for i in range(R.N_CARDS):
        pos.deal[i] = deal[i]
    refresh(pos)


@kernel
def redeal(pos):
    """Make ``pos`` the start of its deal again."""
    for p in range(R.PILES):
        pos.length[p] = 0
        pos.down[p] = R.FACE_DOWN[p]
    for i in range(R.STOCK_FIRST):
        p = i // 7
        pos.cards[p, i % 7] = pos.deal[i]
        pos.length[p] += 1
    for s in range(4):
        pos.found[s] = 0
    pos.misc[R.STOCK_DEALT] = 0
    pos.misc[R.SCORE] = 0
    refresh(pos)


@jit
def new_position(deal):
    cards, length, down, found, misc = R.new_state(deal)
    return from_state(cards, length, down, found, misc, deal)


@kernel
def _drop(pos, p):
    for w in range(2):
        pos.term[p, w] = _pile_term(pos, p, w)
        pos.key[w] += pos.term[p, w]


@kernel
def _unkey(pos, p):
    for w in range(2):
        pos.key[w] -= pos.term[p, w]


@inline_kernel
def _base(pos, p):
    """What a pile's bottom card rests on for ``resting_change``: pile p's own base where its
    name matters to the key, else the one base of every pile whose name does not."""
    return R.N_CARDS + p if _named(pos, p) else FREE_BASE


@inline_kernel
def resting_change(pos, move):
    """How the tableau ``move`` changes the *resting hash*, the XOR over tableau cards x of
    ``RESTING[k, x, what x rests on]`` (a card, or a base: ``_base``), as two words.  Only the
    bottom card of the moved block changes what it rests on, so the change is four table words
    whatever the block's size.  Between positions with the same face-down cards, foundations
    and stock, the resting hash is as fine as the key: what each card rests on gives the piles
    (each is the chain up from a base), and the bases name a pile exactly where the key does.
    The search uses it to tell apart the members of a class (``search.expand_rest``), which
    differ only by such moves, at a fraction of the cost of their keys."""
    source = (move >> 16) & 255
    target = (move >> 8) & 255
    h = pos.length[source] - (move & 255)
    x = pos.cards[source, h]
    under = pos.cards[source, h - 1] if h > 0 else _base(pos, source)
    onto = pos.cards[target, pos.length[target] - 1] if pos.length[target] > 0 else _base(pos, target)
    return (RESTING[0, x, under] ^ RESTING[0, x, onto], RESTING[1, x, under] ^ RESTING[1, x, onto])


@kernel
def _set_down(pos, p, new):
    for w in range(2):
        pos.pile_hash[p, w] ^= DOWN[w, pos.down[p]] ^ DOWN[w, new]
    pos.down[p] = new


@kernel
def _push_card(pos, p, c):
    """Put card c on top of pile p, with every derived field but the key."""
    h = pos.length[p]
    pos.cards[p, h] = c
    pos.length[p] = h + 1
    pos.where[c] = p * CAPACITY + h
    for w in range(2):
        pos.pile_hash[p, w] ^= ZOBRIST[w, c, h]


@kernel
def _pop_card(pos, p):
    """Take the top card off pile p, with every derived field but the key; returns it."""
    h = pos.length[p] - 1
    c = pos.cards[p, h]
    pos.length[p] = h
    pos.where[c] = -1
    for w in range(2):
        pos.pile_hash[p, w] ^= ZOBRIST[w, c, h]
    return c


@inline_kernel
def _shift(pos, source, target, count):
    """Move the top ``count`` cards of ``source`` onto ``target`` with every derived field."""
    start = pos.length[source] - count
    base = pos.length[target]
    for i in range(count):
        c = pos.cards[source, start + i]
        pos.cards[target, base + i] = c
        pos.where[c] = target * CAPACITY + base + i
        for w in range(2):
            pos.pile_hash[source, w] ^= ZOBRIST[w, c, start + i]
            pos.pile_hash[target, w] ^= ZOBRIST[w, c, base + i]
    pos.length[target] = base + count
    pos.length[source] = start


@inline_kernel
def play(pos, move):
    """Play a legal move (``winnable.rules.chinese`` encoding; solver tag bits ignored) and
    return the token ``unplay`` needs: bit 0 set if a face-down card turned, for a foundation
    move the suit in the bits above.  Equivalent to ``R.apply_move`` on the rules' state."""
    kind = (move >> 24) & 255
    source = (move >> 16) & 255
    token = 0
    if kind == R.STOCK:
        for p in range(3):
            _push_card(pos, p, pos.deal[R.STOCK_FIRST + p])
        pos.misc[R.STOCK_DEALT] = 1
        _rekey(pos)
        return 0
    _unkey(pos, source)
    if kind == R.TABLEAU:
        target = (move >> 8) & 255
        _unkey(pos, target)
        _shift(pos, source, target, move & 255)
        _drop(pos, target)
    else:
        s = _pop_card(pos, source) // 13
        pos.found[s] += 1
        pos.misc[R.SCORE] += 1
        token = s << 1
    if pos.length[source] > 0 and pos.length[source] == pos.down[source]:
        _set_down(pos, source, pos.down[source] - 1)
        token |= 1
    _drop(pos, source)
    return token


@inline_kernel
def unplay(pos, move, token):
    kind = (move >> 24) & 255
    source = (move >> 16) & 255
    if kind == R.STOCK:
        for p in range(3):
            _pop_card(pos, p)
        pos.misc[R.STOCK_DEALT] = 0
        _rekey(pos)
        return
    _unkey(pos, source)
    if token & 1:
        _set_down(pos, source, pos.down[source] + 1)
    if kind == R.TABLEAU:
        target = (move >> 8) & 255
        _unkey(pos, target)
        _shift(pos, target, source, move & 255)
        _drop(pos, target)
    else:
        s = token >> 1
        pos.found[s] -= 1
        pos.misc[R.SCORE] -= 1
        _push_card(pos, source, s * 13 + pos.found[s])
    _drop(pos, source)
