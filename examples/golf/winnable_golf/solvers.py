"""Golf: how it is searched and played.

``thoughtful`` knows the stock's order: a depth-first search over positions, each position
searched once.  A position is the height of each column, the stock cards turned and the rank
of the foundation's top card (its suit never matters), 61.9 million at most, kept as one bit
each (``Scratch.seen``, 7.7 MB, cleared per deal).  Moves are tried tableau first, the stock
last; the first win found ends the search.  A deal it does not win within ``budget`` positions
is ``unknown``; a deal whose every reachable position it has searched without a win is lost,
its score the most cards any position took from the columns.

``longest-run`` sees what a person sees: the columns and the foundation, not the stock's order
(it is never given the stock).  It plays the top card that starts the longest run of plays from
the columns alone (every card of it in view), ties to the column with the most cards, then the
leftmost; with no play it turns the stock.
"""

from __future__ import annotations

import numpy as np

from winnable.jit import jit

from .rules import COLUMNS, HEIGHT, STOCK, STOCK_CARDS, TABLEAU, fits

WIN, LOSS, UNKNOWN = 1, 0, 2            # winnable.outcomes' codes
POSITIONS = 6**COLUMNS * (STOCK_CARDS + 1) * 13
MAX_LINE = TABLEAU + STOCK_CARDS        # every move takes a card from a column or the stock
RUN_NODES = 20_000                      # positions a run of plays is looked for in, at most


class Scratch:
    """The buffers of a search, made once per process."""

    def __init__(self):
        self.seen = np.zeros(POSITIONS // 8 + 1, dtype=np.uint8)
        self.path = np.zeros(MAX_LINE, dtype=np.int8)
        self.best = np.zeros(MAX_LINE, dtype=np.int8)


@jit
def _position(heights, turned, top, taken_from=-1):
    """A position's index: the heights (column ``taken_from`` one card lower), the stock cards
    turned and the rank on the foundation."""
    key = 0
    for c in range(COLUMNS):
        key = key * 6 + heights[c] - (c == taken_from)
    return (key * (STOCK_CARDS + 1) + turned) * 13 + top % 13


@jit
def search(columns, stock, heights, turned, top, kings, budget, seen, path, best):
    """Search from the position (``heights``, ``turned``, ``top``; ``heights`` is changed and
    restored): (outcome, most cards taken from the columns, positions searched, length of the
    line in ``best``: the win, or the line to the position that took the most)."""
    seen[:] = 0
    taken = TABLEAU - heights.sum()
    best_taken, best_length, nodes = taken, 0, 0
    choice = np.zeros(MAX_LINE + 1, dtype=np.int8)
    below = np.zeros(MAX_LINE + 1, dtype=np.int8)   # the foundation's top under each move
    depth = 0
    key = _position(heights, turned, top)
    seen[key >> 3] |= np.uint8(1 << (key & 7))
    while True:
        if taken == TABLEAU:
            best[:depth] = path[:depth]
            return WIN, taken, nodes, depth
        move = -1
        for m in range(choice[depth], COLUMNS + 1):
            if m < COLUMNS:
                if heights[m] > 0 and fits(top, columns[m, heights[m] - 1], kings):
                    move = m
                    break
            elif turned < STOCK_CARDS:
                move = m
                break
        if move < 0:  # every move from here tried: back to the position before
            if depth == 0:
                return LOSS, best_taken, nodes, best_length
            depth -= 1
            undo = path[depth]
            if undo == STOCK:
                turned -= 1
            else:
                heights[undo] += 1
                taken -= 1
            top = below[depth]
            continue
        choice[depth] = move + 1
        if move == STOCK:
            key = _position(heights, turned + 1, stock[turned])
        else:
            key = _position(heights, turned, columns[move, heights[move] - 1], move)
        if seen[key >> 3] & (1 << (key & 7)):  # searched already, from another line
            continue
        seen[key >> 3] |= np.uint8(1 << (key & 7))
        below[depth] = top
        if move == STOCK:
            top = stock[turned]
            turned += 1
        else:
            top = columns[move, heights[move] - 1]
            heights[move] -= 1
            taken += 1
        nodes += 1
        path[depth] = move
        depth += 1
        choice[depth] = 0
        if taken > best_taken:
            best_taken, best_length = taken, depth
            best[:depth] = path[:depth]
        if nodes >= budget:
            return UNKNOWN, best_taken, nodes, best_length


@jit
def longest_run(columns, heights, top, kings, limit):
    """The most plays in a row from the columns alone, from this position (at most ``limit``
    positions looked at; ``heights`` is changed and restored)."""
    choice = np.zeros(TABLEAU + 1, dtype=np.int8)
    below = np.zeros(TABLEAU + 1, dtype=np.int8)
    taken = np.zeros(TABLEAU + 1, dtype=np.int8)
    depth, longest, nodes = 0, 0, 0
    while True:
        move = -1
        for m in range(choice[depth], COLUMNS):
            if heights[m] > 0 and fits(top, columns[m, heights[m] - 1], kings):
                move = m
                break
        if move < 0 or nodes >= limit:
            if depth == 0:
                return longest
            depth -= 1
            heights[taken[depth]] += 1
            top = below[depth]
            continue
        nodes += 1
        choice[depth] = move + 1
        below[depth] = top
        taken[depth] = move
        top = columns[move, heights[move] - 1]
        heights[move] -= 1
        depth += 1
        choice[depth] = 0
        if depth > longest:
            longest = depth


@jit
def longest_run_choice(columns, heights, top, kings):
    """``longest-run``'s move in view of the columns and the foundation alone: a column, or
    ``STOCK`` when no top card goes on the foundation."""
    chosen, chosen_run = STOCK, -1
    for m in range(COLUMNS):
        if heights[m] > 0 and fits(top, columns[m, heights[m] - 1], kings):
            card = columns[m, heights[m] - 1]
            heights[m] -= 1
            run = 1 + longest_run(columns, heights, card, kings, RUN_NODES)
            heights[m] += 1
            if run > chosen_run or (run == chosen_run and heights[m] > heights[chosen]):
                chosen, chosen_run = m, run
    return chosen


@jit
def play_longest_run(columns, stock, top, kings, line):
    """A whole game of ``longest-run`` from the deal (``top``: the foundation's first card):
    (outcome, cards taken, stock left, line length)."""
    heights = np.full(COLUMNS, HEIGHT, dtype=np.int8)
    turned, length = 0, 0
    while True:
        taken = TABLEAU - heights.sum()
        if taken == TABLEAU:
            return WIN, taken, STOCK_CARDS - turned, length
        move = longest_run_choice(columns, heights, top, kings)
        if move == STOCK:
            if turned == STOCK_CARDS:
                return LOSS, taken, 0, length
            top = stock[turned]
            turned += 1
        else:
            top = columns[move, heights[move] - 1]
            heights[move] -= 1
        line[length] = move
        length += 1
