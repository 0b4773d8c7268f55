"""Solitario di Addario players and solver.

* ``first``: plays the deal as written: among the pairs of the top tier it takes the first
  (pairs compared by their two positions in reading order).  The canonical as-dealt result:
  ``play_line`` with no choices given.
* ``thoughtful``: searches every choice of pair, with every card known.  Depth-first over the
  positions where the top tier offers more than one pair (everything else is forced), with a
  transposition table over the exact position (columns of deck indices and the deck pointer).
  A line is cut short as soon as a win (40 cards) is found.  A node budget (pairs removed)
  bounds the search: past it the deal is ``unknown`` and the score is the best line found.
* ``nopeek``: a player who sees the tableau but not the deck.  At each choice it takes the pair
  after which the most cards can be discarded from the cards on the table before the next
  refill (an exact search over the visible cards only); ties go to the ``first`` order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import jit
from ..rules import addario as R
from .table import Generation, hash_words, stamped_slot

MAX_DEPTH = R.N_CARDS // 2 + 1
TABLE_BITS = 16
TABLE_SIZE = 1 << TABLE_BITS
MAX_PROBE = 32
KEY_WORDS = 5  # the four columns (a base-64 number of deck indices each) and the deck pointer
UNSOLVED = -1  # the value of a position on the search's current line


class Deal(NamedTuple):
    """What a search knows of the deal: each deck index's value, how many cards may be drawn
    (the no-peek player searches only the cards drawn so far), and the column_free_equal
    flag."""
    values: np.ndarray
    n_cards: int
    cfe: bool


class Memo(NamedTuple):
    """Best scores of the positions searched, by exact position (stamped slots, table.py)."""
    keys: np.ndarray     # (TABLE_SIZE, KEY_WORDS)
    values: np.ndarray   # best cards discarded from the position; UNSOLVED while on the line
    stamps: np.ndarray   # the generation that wrote each slot


class Stack(NamedTuple):
    """The search's choice points, one row each: the position, the pairs on offer, the next
    choice to try, the best value found below, the memo slot claimed (-1: none)."""
    columns: np.ndarray
    heights: np.ndarray
    state: np.ndarray
    pairs: np.ndarray
    count: np.ndarray
    next: np.ndarray
    best: np.ndarray
    slot: np.ndarray


class Scratch:
    def __init__(self):
        self.generation = Generation(TABLE_SIZE)
        self.memo = Memo(np.zeros((TABLE_SIZE, KEY_WORDS), dtype=np.int64),
                         np.zeros(TABLE_SIZE, dtype=np.int64), self.generation.stamps)
        self.path = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.moves = np.zeros(MAX_DEPTH, dtype=np.int64)


@jit
def _advance(tableau, deal, pairs, moves, n_moves):
    """Play forced steps (a single pair in the top tier, refills, new rows) until a choice or
    the end.  Returns (number of pairs offered: 0 at the end, >= 2 at a choice; pairs removed;
    moves recorded so far).  ``moves`` may be empty to record nothing."""
    columns, heights, state = tableau
    removed = 0
    while True:
        n = R.top_tier_pairs(columns, heights, deal.values, deal.cfe, pairs)
        if n == 0:
            if not R.refill_or_deal(columns, heights, state, deal.n_cards):
                return 0, removed, n_moves
        elif n == 1:
            if moves.shape[0] > 0:
                moves[n_moves] = _move_code(columns, pairs[0])
                n_moves += 1
            R.remove_pair(heights, state, pairs[0])
            removed += 1
        else:
            return n, removed, n_moves


@jit
def _move_code(columns, pair):
    """A pair as the deck indices of its two cards, in reading order: first * 64 + second."""
    a = pair // 64
    b = pair % 64
    return columns[a % R.COLS, a // R.COLS] * 64 + columns[b % R.COLS, b // R.COLS]


@jit
def _key(tableau, key):
    columns, heights, state = tableau
    for c in range(R.COLS):
        word = 0
        for r in range(heights[c]):
            word = word * 64 + columns[c, r] + 1
        key[c] = word
    key[4] = state[0]


@jit
def _stored(memo, key, stamp):
    """The memo slot holding ``key`` in this generation, or -1."""
    s = stamped_slot(memo.keys, key, _start(key), memo.stamps, stamp, MAX_PROBE)
    return s if s >= 0 and memo.stamps[s] == stamp else -1


@jit
def _claim(memo, key, stamp):
    """A memo slot for ``key``, marked UNSOLVED until its value is known (-1: none free)."""
    s = stamped_slot(memo.keys, key, _start(key), memo.stamps, stamp, MAX_PROBE)
    if s >= 0:
        memo.stamps[s] = stamp
        memo.keys[s, :] = key
        memo.values[s] = UNSOLVED
    return s


@jit
def _start(key):
    return np.int64(hash_words(key) >> np.uint64(64 - TABLE_BITS))


@jit
def _push(stack, sp, tableau, n, key, memo, stamp):
    """Open a choice point on the search stack; its memo slot is claimed at once.  Returns the
    new stack size."""
    stack.columns[sp] = tableau.columns
    stack.heights[sp] = tableau.heights
    stack.state[sp] = tableau.state
    stack.count[sp] = n
    stack.next[sp] = 0
    stack.best[sp] = -1
    stack.slot[sp] = _claim(memo, key, stamp)
    return sp + 1


@jit
def new_stack():
    return Stack(np.empty((MAX_DEPTH, R.COLS, R.MAX_HEIGHT), dtype=np.int64),
                 np.empty((MAX_DEPTH, R.COLS), dtype=np.int64),
                 np.empty((MAX_DEPTH, 2), dtype=np.int64),
                 np.empty((MAX_DEPTH, R.MAX_PAIRS), dtype=np.int64),
                 np.empty(MAX_DEPTH, dtype=np.int64), np.empty(MAX_DEPTH, dtype=np.int64),
                 np.empty(MAX_DEPTH, dtype=np.int64), np.empty(MAX_DEPTH, dtype=np.int64))


@jit
def search(start, deal, budget, memo, stamp, best_path):
    """Best number of cards discarded from the position ``start`` over every choice of pair.
    Returns (best, nodes, complete, path length); ``best_path`` holds the choice (index into
    the sorted top-tier pairs) at each choice point of a best line."""
    stack = new_stack()
    P, count, nxt, best, slot = stack.pairs, stack.count, stack.next, stack.best, stack.slot
    key = np.empty(KEY_WORDS, dtype=np.int64)
    no_moves = np.empty(0, dtype=np.int64)
    tableau = R.Tableau(start.columns.copy(), start.heights.copy(), start.state.copy())
    columns, heights, state = tableau
    n_cards = deal.n_cards

    n, nodes, _ = _advance(tableau, deal, P[0], no_moves, 0)
    if n == 0:
        return state[1], nodes, True, 0
    global_best = -1
    path_len = 0
    _key(tableau, key)
    s = _stored(memo, key, stamp)
    if s >= 0 and memo.values[s] >= 0:
        # Already solved (a later call for the same position); its line is not kept.
        return memo.values[s], nodes, True, 0
    complete = True
    sp = _push(stack, 0, tableau, n, key, memo, stamp)
    while sp > 0:
        d = sp - 1
        if nxt[d] < count[d] and best[d] < n_cards and nodes < budget:
            choice = nxt[d]
            nxt[d] += 1
            columns[:, :] = stack.columns[d]
            heights[:] = stack.heights[d]
            state[:] = stack.state[d]
            R.remove_pair(heights, state, P[d, choice])
            nodes += 1
            n, removed, _ = _advance(tableau, deal, P[sp], no_moves, 0)
            nodes += removed
            if n == 0:
                value = state[1]
                if value > global_best:
                    global_best = value
                    for k in range(sp):
                        best_path[k] = nxt[k] - 1
                    path_len = sp
                if value > best[d]:
                    best[d] = value
                continue
            _key(tableau, key)
            s = _stored(memo, key, stamp)
            if s >= 0:
                if memo.values[s] > best[d]:
                    best[d] = memo.values[s]
                continue
            sp = _push(stack, sp, tableau, n, key, memo, stamp)
            continue
        else:
            if nxt[d] < count[d] and best[d] < n_cards:
                complete = False  # budget spent with choices left unexplored
            if complete and slot[d] >= 0:
                memo.values[slot[d]] = best[d]
            sp -= 1
            if sp > 0 and best[d] > best[sp - 1]:
                best[sp - 1] = best[d]
    return global_best, nodes, complete, path_len


@jit
def play_line(deal, cfe, path, path_len, moves):
    """Replay a line given by its choices at the choice points (the first pair of the top tier
    past ``path_len``: ``path_len`` 0 plays the deal as written, the ``first`` player); returns
    (score, moves)."""
    known = Deal(R.card_values(deal), deal.shape[0], cfe)
    tableau = R.new_tableau()
    columns, heights, state = tableau
    pairs = np.empty(R.MAX_PAIRS, dtype=np.int64)
    n_moves = 0
    k = 0
    while True:
        n, _, n_moves = _advance(tableau, known, pairs, moves, n_moves)
        if n == 0:
            return state[1], n_moves
        choice = path[k] if k < path_len else 0
        k += 1
        moves[n_moves] = _move_code(columns, pairs[choice])
        n_moves += 1
        R.remove_pair(heights, state, pairs[choice])


@jit
def thoughtful(deal, cfe, budget, memo, stamp, path, moves):
    best, nodes, complete, path_len = search(R.new_tableau(),
                                             Deal(R.card_values(deal), deal.shape[0], cfe),
                                             budget, memo, stamp, path)
    score, n_moves = play_line(deal, cfe, path, path_len, moves)
    return score, nodes, n_moves, complete


@jit
def nopeek_choice(tableau, values, cfe, pairs, n, memo, stamp, path):
    """The no-peek player's choice among the ``n`` pairs offered (``pairs``, the top tier in
    order): the pair after which the most cards can go from the cards on the table, the deck
    unknown (the first on a tie).  Returns (choice, nodes); memo generation ``stamp``."""
    columns, heights, state = tableau
    best_choice = 0
    best_value = -1
    nodes = 0
    for choice in range(n):
        h = heights.copy()
        s = state.copy()
        R.remove_pair(h, s, pairs[choice])
        # The deck is unknown: search the table as if it were empty (the cards drawn).
        value, used, _, _ = search(R.Tableau(columns, h, s), Deal(values, state[0], cfe),
                                   1 << 40, memo, stamp, path)
        nodes += used + 1
        if value > best_value:
            best_value = value
            best_choice = choice
    return best_choice, nodes


# The most choice points in a game, each the first of its generation (stamps reserved per deal).
NOPEEK_STAMPS = MAX_DEPTH


@jit
def nopeek(deal, cfe, memo, first_stamp, path, moves):
    """Returns (score, nodes, moves); uses the stamps from ``first_stamp`` on, one per choice
    point (at most NOPEEK_STAMPS)."""
    values = R.card_values(deal)
    known = Deal(values, deal.shape[0], cfe)
    tableau = R.new_tableau()
    columns, heights, state = tableau
    pairs = np.empty(R.MAX_PAIRS, dtype=np.int64)
    n_moves = 0
    nodes = 0
    stamp = first_stamp
    while True:
        n, removed, n_moves = _advance(tableau, known, pairs, moves, n_moves)
        nodes += removed
        if n == 0:
            return state[1], nodes, n_moves
        best_choice, used = nopeek_choice(tableau, values, cfe, pairs, n, memo, stamp, path)
        nodes += used
        stamp += 1
        moves[n_moves] = _move_code(columns, pairs[best_choice])
        n_moves += 1
        R.remove_pair(heights, state, pairs[best_choice])
