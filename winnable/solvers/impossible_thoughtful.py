"""Impossible: the thoughtful solver, a player who knows every card and every future reshuffle.

The deck is reshuffled from the game's play stream (``winnable.shuffle.play_stream`` of the
deal), so a deal fixes the whole game once the player's choices are fixed: a player who knows
the deck order and the stream can plan the game exactly.  ``thoughtful`` searches the player's
choices (every action at each DECIDE turn, every pile that may be taken back at each TAKE_BACK
turn) depth first, the greedy player's choice first (``impossible.greedy_action``,
``take_back_choice``), and stops at the first win.  A won line is a list of actions that the
engine (and the plain-Python reference) replays with the game's own stream to a win: so no
player, whatever it knows, wins a deal that ``thoughtful`` proves lost, and its win rate bounds
every player's (``unknown`` deals counted both ways).  Deal by deal the bound is exact for
players that draw nothing but the reshuffles from the stream (``greedy``); ``random`` and the
rollout players also draw their own numbers from it, which moves every later reshuffle, so
their game of deal n meets other reshuffles than thoughtful's: for them the bound holds for
the win rate (the reshuffles are as random either way), not deal by deal.

**The state and the memo.**  What happens after a decision point is a function of: the piles on
the table in creation order (each pile's cards, bottom first), the deck's cards in order, the
score, the fifteen token, what the action under way still owes (``ST_COVER`` and
``ST_COVER_NEXT`` as positions among the piles, ``ST_TO_START``, ``ST_PENALISED``) and the
position of the random stream.  The stream's position depends on the path (a shuffle of k cards
draws at least k - 1 numbers, more when a draw is rejected), so it is part of the state: the
generator's whole 64-bit state goes into the key (splitmix64's state is its start plus
GOLDEN times the numbers drawn, so it says exactly how far the stream has gone).  The counters
(pick-ups, removals, new piles) change nothing that follows, and the step count only through
the step cap (below); none is in the key.  The key is a 128-bit fingerprint of that state (two
hash chains over its words, ``_fingerprint``); two different states share a fingerprint with
probability about n^2 / 2^128 for n states searched (below 10^-20 for any budget here).

Entries (``winnable.solvers.table``'s transposition table, buckets of four):

* ``ON_PATH`` while a state is on the line searched.  Meeting it again on the line (a cycle,
  if the rules allow one) is not searched again: any win from the second visit is a win from the
  first.  The branch counts as cut (below), so nothing above it is stored as lost.
* ``LOST`` when every line from the state was searched to its end and none won, and no line was
  cut: no line from any visit of the same state wins (the same state has the same lines).  A
  state met again at a higher step count has a subset of those lines before the step cap, so it
  is lost too.
* A state whose search was cut is not stored (its entry is freed): its lines are searched again
  when it is met again.

**Cuts.**  A line is cut (not searched further, and not a win) when: the node budget is spent
(the deal is then ``unknown`` unless a win was found); the line reaches ``MAX_DEPTH`` decision
points or the step cap (the rules' ``unknown``); the action buffer is full; or it meets a state
on the line.  A deal is ``win`` when a line wins, ``loss`` when the search ended with no cut, and
``unknown`` otherwise.

No pruning rule is used beyond the memo: every action is tried.

The score of a deal is that of the won line, else the best final score of the lines searched to
their end (each counter of the result is that line's), else the start's (no line ended within
the budget).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import inline_kernel, jit, kernel
from ..rules import impossible as R
from ..shuffle import GOLDEN, MIX1, MIX2
from . import impossible as P
from .table import LOST, ON_PATH, TranspositionTable, mix64, tt_find, tt_set_state, tt_store

MAX_DEPTH = 1024        # decision points on a line at most
ACTION_SPACE = 1 << 17  # the actions of the states on the line, stacked
DEFAULT_BUDGET = 20_000
DEFAULT_MEMORY_MB = 16
EMPTY_SLOT = 0
NO_LINE = -(1 << 40)  # the value of the best line before any line ended


class Stack(NamedTuple):
    """The states on the line searched, one row per depth, and what each still has to try."""
    cards: np.ndarray      # (MAX_DEPTH, SLOTS, HEIGHT)
    size: np.ndarray       # (MAX_DEPTH, 2 * SLOTS)
    order: np.ndarray      # (MAX_DEPTH, SLOTS)
    deck: np.ndarray       # (MAX_DEPTH, N_CARDS)
    st: np.ndarray         # (MAX_DEPTH, ST_LEN)
    rng: np.ndarray        # (MAX_DEPTH, 1): the stream's state
    actions: np.ndarray    # ACTION_SPACE: each depth's actions from first[d]
    first: np.ndarray      # where depth d's actions start in ``actions``
    count: np.ndarray      # how many
    next: np.ndarray       # the next to try
    taken: np.ndarray      # the action taken at depth d (EMERGENCY added at a TAKE_BACK turn)
    slot: np.ndarray       # the memo entry held by depth d's state (-1: none)
    cut: np.ndarray        # 1 if a line below depth d was cut
    best_line: np.ndarray  # the moves of the best line found
    best_st: np.ndarray    # its final scalars
    scratch: np.ndarray    # the greedy player's and legal_actions' scratch
    fingerprint: np.ndarray  # two words


def new_stack() -> Stack:
    d = MAX_DEPTH
    return Stack(np.zeros((d, R.SLOTS, R.HEIGHT), np.int8), np.zeros((d, 2 * R.SLOTS), np.int64),
                 np.zeros((d, R.SLOTS), np.int64), np.zeros((d, R.N_CARDS), np.int64),
                 np.zeros((d, R.ST_LEN), np.int64), np.zeros((d, 1), np.uint64),
                 np.zeros(ACTION_SPACE, np.int64), np.zeros(d, np.int64), np.zeros(d, np.int64),
                 np.zeros(d, np.int64), np.zeros(d, np.int64), np.zeros(d, np.int64),
                 np.zeros(d, np.int64), np.zeros(d, np.int64), np.zeros(R.ST_LEN, np.int64),
                 np.zeros(P.MAX_ACTIONS, np.int64), np.zeros(2, np.uint64))


@inline_kernel
def _feed(h, word, mul):
    h = (h ^ np.uint64(word)) * mul
    return h ^ (h >> np.uint64(29))


@inline_kernel
def _position(order, st, slot):
    return -1 if slot < 0 else R.position_of(order, st, slot)


@inline_kernel
def _feed_cards(a, b, cards, n):
    """Feed a row of ``n`` cards (its length first, then ten cards to a word)."""
    a = _feed(a, n, MIX1)
    b = _feed(b, n + 1000, MIX2)
    word = 0
    for i in range(n):
        word = word * 64 + cards[i] + 1
        if i % 10 == 9 or i == n - 1:
            a = _feed(a, word, MIX1)
            b = _feed(b, word, MIX2)
            word = 0
    return a, b


@kernel
def _fingerprint(cards, size, order, deck, st, rng, out):
    """The state's 128-bit fingerprint (the module docstring says what the state is) in
    ``out[0:2]``: each pile in creation order, then the deck, then the scalars and the
    stream's state, fed to two hash chains."""
    a = GOLDEN
    b = MIX2
    for k in range(st[R.ST_COUNT]):
        slot = order[k]
        a, b = _feed_cards(a, b, cards[slot], size[slot])
    a, b = _feed_cards(a, b, deck, st[R.ST_DECK])
    scalars = (st[R.ST_SCORE], st[R.ST_TOKEN], _position(order, st, st[R.ST_COVER]),
               _position(order, st, st[R.ST_COVER_NEXT]), st[R.ST_TO_START],
               st[R.ST_PENALISED])
    for x in scalars:
        a = _feed(a, x + 7, MIX1)
        b = _feed(b, x + 11, MIX2)
    a = _feed(a, rng[0], MIX1)
    b = _feed(b, rng[0] ^ GOLDEN, MIX2)
    out[0] = mix64(a)
    out[1] = mix64(b ^ out[0])


@inline_kernel
def _copy_down(s, d):
    """Depth d + 1 becomes a copy of depth d's state."""
    R.copy_state(s.cards[d], s.size[d], s.order[d], s.st[d], s.cards[d + 1], s.size[d + 1],
                 s.order[d + 1], s.st[d + 1])
    for i in range(s.st[d, R.ST_DECK]):
        s.deck[d + 1, i] = s.deck[d, i]
    s.rng[d + 1, 0] = s.rng[d, 0]


@jit
def _state(s, d):
    return R.State(s.cards[d], s.size[d], s.order[d], s.deck[d], s.st[d])


@jit
def _expand(s, d, rules):
    """Write depth d's choices (greedy's first) from ``first[d]``; False if there is no room."""
    start = 0 if d == 0 else s.first[d - 1] + s.count[d - 1]
    if start + P.MAX_ACTIONS > s.actions.shape[0]:
        return False
    out = s.actions[start:start + P.MAX_ACTIONS]
    size, order, st = s.size[d], s.order[d], s.st[d]
    if R.turn(st, rules.step_cap) == R.DECIDE:
        n = R.legal_actions(size, order, st, rules.fifteen, out, s.scratch)
        greedy = P.greedy_action(size, order, st, rules.fifteen, s.scratch)
    else:
        n = R.take_back_actions(size, order, st, rules.fifteen, out)
        greedy = P.take_back_choice(size, order, st, rules.fifteen, P.GREEDY, s.rng[d],
                                    s.scratch)
    P.move_to_front(out, n, greedy)
    s.first[d] = start
    s.count[d] = n
    s.next[d] = 0
    s.cut[d] = 0
    return True


@jit
def _keep_if_best(s, d, best_value):
    """Keep the line ending at depth d (its state over) if it beats ``best_value`` (a win
    beats any score); returns the best value now."""
    st = s.st[d]
    value = st[R.ST_SCORE] + (1 << 20 if st[R.ST_OUTCOME] == R.WIN else 0)
    if value <= best_value:
        return best_value
    for i in range(d):
        s.best_line[i] = s.taken[i]
    s.best_st[:] = st
    return value


@jit
def search(s, deal, rules, rng_start, budget, keys, stamps, deal_first, stamp, use_memo):
    """Search one deal (``s`` a ``new_stack``; ``keys``/``stamps`` a transposition table and
    its stamps, ``TranspositionTable``; ``use_memo`` False: none, for the tests' ablation).
    Returns (outcome, nodes, moves in ``best_line``,
    memo hits); ``best_st`` holds the reported line's final scalars."""
    R.start_game(_state(s, 0), deal, rules)
    s.rng[0, 0] = rng_start
    best_value = NO_LINE
    s.best_st[:] = 0
    length = 0
    if R.turn(s.st[0], rules.step_cap) == R.OVER:
        s.best_st[:] = s.st[0]
        return s.st[0, R.ST_OUTCOME], 0, 0, 0
    nodes = 0
    hits = 0
    complete = True
    _expand(s, 0, rules)
    s.slot[0] = -1
    d = 0
    while d >= 0:
        if s.next[d] >= s.count[d]:
            # Every choice at depth d tried without a win.
            if s.slot[d] >= 0:
                state = LOST if s.cut[d] == 0 else EMPTY_SLOT
                tt_set_state(keys, stamps, s.slot[d], state, stamp)
            if d > 0 and s.cut[d]:
                s.cut[d - 1] = 1
            d -= 1
            continue
        if nodes >= budget:
            complete = False
            break
        action = s.actions[s.first[d] + s.next[d]]
        s.next[d] += 1
        decide = R.turn(s.st[d], rules.step_cap) == R.DECIDE
        s.taken[d] = action if decide else action + R.EMERGENCY
        _copy_down(s, d)
        child = _state(s, d + 1)
        if decide:
            R.apply_action(child, s.rng[d + 1], rules, action)
        else:
            R.take_back_when_empty(child, s.rng[d + 1], rules, action)
        nodes += 1
        st = s.st[d + 1]
        if R.turn(st, rules.step_cap) == R.OVER:
            if st[R.ST_OUTCOME] == R.UNKNOWN:
                s.cut[d] = 1  # the step cap
            else:
                before = best_value
                best_value = _keep_if_best(s, d + 1, best_value)
                if best_value != before:
                    length = d + 1
                if st[R.ST_OUTCOME] == R.WIN:
                    break
            continue
        if d + 2 >= MAX_DEPTH:
            s.cut[d] = 1
            continue
        _fingerprint(s.cards[d + 1], s.size[d + 1], s.order[d + 1], s.deck[d + 1], st,
                     s.rng[d + 1], s.fingerprint)
        a, b = s.fingerprint[0], s.fingerprint[1]
        found = tt_find(keys, stamps, a, b, deal_first, stamp) if use_memo else -1
        if found >= 0:
            hits += 1
            if np.int64(keys[found, 1] & np.uint64(3)) == ON_PATH:
                s.cut[d] = 1  # a cycle
            continue
        if not _expand(s, d + 1, rules):
            s.cut[d] = 1
            continue
        s.slot[d + 1] = (tt_store(keys, stamps, a, b, ON_PATH, deal_first, stamp) if use_memo
                         else -1)
        d += 1
    if best_value == NO_LINE:  # no line played to its end: the start is reported
        s.best_st[:] = s.st[0]
    if s.best_st[R.ST_OUTCOME] == R.WIN:
        outcome = R.WIN
    elif complete and s.cut[0] == 0 and d < 0:
        outcome = R.LOSS
    else:
        outcome = R.UNKNOWN
    # Free the entries of the states still on the line (a win or the budget stopped the search).
    for k in range(max(d, -1), 0, -1):
        if s.slot[k] >= 0:
            tt_set_state(keys, stamps, s.slot[k], EMPTY_SLOT, stamp)
    return outcome, nodes, length, hits


class Thoughtful:
    """The solver's buffers (reused deal after deal)."""

    def __init__(self, memory_mb: float = DEFAULT_MEMORY_MB):
        self.stack = new_stack()
        self.table = TranspositionTable(memory_mb)

    def solve(self, deal: np.ndarray, rules: R.RuleCodes, rng_start: int, budget: int,
              memo: bool = True):
        """(outcome, nodes, line of action codes, memo hits); ``self.stack.best_st`` holds the
        line's final scalars."""
        self.table.begin_deal()
        stamp = self.table.begin_search()
        deal_first, _ = self.table.stamps_now()
        outcome, nodes, length, hits = search(self.stack, deal, rules, np.uint64(rng_start),
                                              budget, self.table.keys, self.table.stamps,
                                              deal_first, stamp, memo)
        return outcome, nodes, self.stack.best_line[:length].copy(), hits
