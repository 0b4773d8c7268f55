"""The project's own deal numbering: deal n of a game is the same on every machine, forever.

Algorithm (pinned by ``tests/test_shuffle.py``; changing it renumbers every deal):

1. ``salt`` = 64-bit FNV-1a hash of the game's name in ASCII (``"nineball"``, ...).
2. The generator is splitmix64 with initial state ``salt XOR n`` (all arithmetic mod 2**64):
   ``state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EB; output z ^ (z >> 31)``.
3. Start from the game's deck in canonical order (ascending card id: clubs, diamonds, hearts,
   spades, each ace to king, then jokers), restricted to the game's cards.
4. Fisher-Yates: for i from len-1 down to 1, draw j uniform in 0..i and swap cards i and j.
   j is drawn without bias: draw r until r >= 2**64 mod (i+1), then j = r mod (i+1).
5. The result, index 0 first, is the deal: its first card is the top of the deck.

Players that draw random numbers during play (every Impossible player, whose deck is
reshuffled; Chinese ``random`` and ``sampling``) draw them from a stream that is a function of
the deal itself, so the text of a deal is a complete description of a game (``winnable solve
--deal`` replays a batch row exactly) and a deal typed in plays the same game as its number:

6. The play stream is splitmix64 (as above) with initial state ``FNV-1a-64`` of the game's name
   in ASCII followed by the deal's card ids, one byte each, top card first (``play_stream``).
   That is the hash of step 1 continued over the cards, so ``salt`` is its starting value.

A seeded sample of k of n things (``sample_indices``: `winnable resolve --sample` draws the
unknown deals it escalates) is the first k places of a Fisher-Yates shuffle from the front of
0..n-1, drawn as in step 4 (for i from 0 to k-1, j uniform in i..n-1, swap i and j) by
splitmix64 with initial state ``FNV-1a-64("winnable sample") XOR seed``.
"""

from __future__ import annotations

import numpy as np

from .jit import jit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
FNV_PRIME = np.uint64(0x100000001B3)


def game_salt(name: str) -> int:
    """64-bit FNV-1a hash of the game's name."""
    h = 0xCBF29CE484222325
    for byte in name.encode("ascii"):
        h ^= byte
        h = (h * int(FNV_PRIME)) & 0xFFFFFFFFFFFFFFFF
    return h


@jit
def splitmix_next(state):
    """Advance ``state`` (a one-element uint64 array) and return the next 64-bit output."""
    s = state[0] + GOLDEN
    state[0] = s
    z = s
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


# 2**64 mod b for the bounds of a shuffle of up to 64 cards (a division saved per draw).
THRESHOLDS = np.array([0] + [(1 << 64) % b for b in range(1, 65)], dtype=np.uint64)


@jit
def uniform_below(state, bound):
    """An unbiased draw from 0..bound-1 (bound >= 1)."""
    b = np.uint64(bound)
    if bound < THRESHOLDS.shape[0]:
        threshold = THRESHOLDS[bound]
    else:  # 2**64 mod b, computed without 128-bit arithmetic: (2**64 - b) mod b.
        threshold = (np.uint64(0) - b) % b
    while True:
        r = splitmix_next(state)
        if r >= threshold:
            return np.int64(r % b)


@jit
def shuffle_in_place(cards, state):
    for i in range(cards.shape[0] - 1, 0, -1):
        j = uniform_below(state, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


@jit
def seed_state(salt, n):
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(salt) ^ np.uint64(n)
    return state


@jit
def deal_into(out, deck, salt, n):
    """Write deal number ``n`` into ``out``."""
    out[:] = deck
    shuffle_in_place(out, seed_state(salt, n))


@jit
def play_stream(salt, deal):
    """The generator state of a game's play stream (step 6 of the module docstring): FNV-1a-64
    continued from ``salt`` over the card ids of ``deal``."""
    h = np.uint64(salt)
    for card in deal:
        h = (h ^ np.uint64(card)) * FNV_PRIME
    state = np.empty(1, dtype=np.uint64)
    state[0] = h
    return state


def deal(deck: np.ndarray, salt: int, n: int) -> np.ndarray:
    """Deal number ``n`` (n >= 1) of a game with this canonical deck and salt."""
    out = np.empty_like(deck)
    deal_into(out, deck, np.uint64(salt), np.uint64(n))
    return out


SAMPLE_SALT = game_salt("winnable sample")


@jit
def _sample_into(order, k, state):
    for i in range(k):
        j = i + uniform_below(state, order.shape[0] - i)
        tmp = order[i]
        order[i] = order[j]
        order[j] = tmp


def sample_indices(n: int, k: int, seed: int) -> np.ndarray:
    """k distinct indices of 0..n-1 (k <= n), sorted: a uniform sample, the same for the same
    (n, k, seed) on every machine (module docstring)."""
    order = np.arange(n, dtype=np.int64)
    _sample_into(order, k, seed_state(np.uint64(SAMPLE_SALT), np.uint64(seed)))
    return np.sort(order[:k])

