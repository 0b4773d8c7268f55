"""Impossible: players.  The deck is reshuffled during play, so no deal can be solved in
advance; each player plays the game, drawing every random number from the deal's play stream
(``winnable.shuffle.play_stream``), so a deal replays exactly.

* ``random``: at each decision point, uniformly among every legal action (each pick-up, each
  fifteen removal, each pair to cover, or the new pile); when the deck runs out, uniformly among
  the piles that may be taken back.
* ``greedy``: holds piles of 11 cards or more until every pile on the table can be picked up,
  then picks them all up (the smallest first); uses a fifteen removal at once, on the smallest
  pile; otherwise covers the pair with the highest worth, where a pile of s cards is worth s
  while s <= 10 (covering brings it towards a pick-up) and -10 from 11 cards on (covering it
  costs a point), and a joker on top costs 3 (it is kept as a wild card); ties go to the pair
  that comes first.  When the deck runs out it takes back the largest pile it may (a fifteen
  removal of the smallest pile if none can be picked up).
* ``lookahead``: at each decision point with a choice, tries every action in ``rollouts``
  simulated games finished by the greedy player, each from the current table with the unseen
  deck shuffled afresh (the player never reads the real deck order), and takes the action with
  the best average (a win counts 100 points more than its score); ties go to the first action.
  When the deck runs out it decides like ``greedy``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import impossible as R
from ..shuffle import play_stream, shuffle_in_place, splitmix_next, uniform_below

RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
PLAYERS = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD}
MAX_ACTIONS = 2048
WIN_BONUS = 100


@njit(cache=True, inline="always")
def _largest_to_pick_up(size, order, st):
    """The largest pile of 11 cards or more (the first on a tie), or -1."""
    best = -1
    for i in range(st[R.ST_COUNT]):
        s = size[order[i]]
        if s >= 11 and (best < 0 or s > size[order[best]]):
            best = i
    return best


@njit(cache=True, inline="always")
def _smallest(size, order, st):
    best = 0
    for i in range(1, st[R.ST_COUNT]):
        if size[order[i]] < size[order[best]]:
            best = i
    return best


# The greedy player's pair search.  A top of class c (R.CLASS: 0 a joker, 1-13 a rank) pairs with
# the jokers and with the piles of class PARTNER[c] (EMPTY, a class no pile has, for the face
# cards); a joker pairs with every pile.
EMPTY = 14
PARTNER = np.array([EMPTY] + [11 - c for c in range(1, 11)] + [EMPTY] * 3, dtype=np.int64)
# A pile of s cards is worth s while s <= 10 (covering brings it towards a pick-up), -10 from 11
# cards on (covering it costs a point); a joker on top costs 3 more (it is kept as a wild card).
WORTH = np.array([s if s <= 10 else -10 for s in range(R.HEIGHT + 1)], dtype=np.int64)
JOKER_COST = 3
# Keys that order by one comparison (positions are below 64): a pile's key is its worth * 64 +
# 63 - its position (the worthier pile, the first on a tie); a pair's, the sum of the worths
# * 4096 + (63 - i) * 64 + 63 - j (the worthier pair, the first (i, j) on a tie).
NO_KEY = -(1 << 40)


@njit(cache=True, _nrt=False)
def greedy_action(size, order, st, fifteen, best):
    """The greedy player's decision (``best`` is a scratch array of 16 entries).

    It covers the pair of piles with the highest worth, the first pair (i, j) on a tie.  One pass
    from the last pile to the first keeps the key of the worthiest pile seen so far of each
    rank on top (in ``best``), of the jokers on top and of all: pile i's best partner is the best
    of its partner class and the jokers, or of all the piles if a joker is on top of it."""
    count = st[R.ST_COUNT]
    for c in range(EMPTY + 1):
        best[c] = NO_KEY
    any_key = NO_KEY
    joker_key = NO_KEY
    least = 1 << 62  # size * 64 + position of the smallest pile (the first on a tie)
    pair = NO_KEY
    for i in range(count - 1, -1, -1):
        slot = order[i]
        s = size[slot]
        least = min(least, s * 64 + i)
        c = R.top_class(size, slot)
        if c == 0:
            key = (WORTH[s] - JOKER_COST) * 64 + 63 - i
            partner = any_key
            joker_key = max(joker_key, key)
        else:
            key = WORTH[s] * 64 + 63 - i
            partner = max(best[PARTNER[c]], joker_key)
            best[c] = max(best[c], key)
        # NO_KEY as partner (none) makes a pair below NO_KEY.
        pair = max(pair, key * 64 + (partner >> 6) * 4096 + (partner & 63))
        any_key = max(any_key, key)
    smallest = least & 63
    if size[order[smallest]] >= 11:
        # Every pile can be picked up: take them all, one by one, and win.
        return R.PICKUP * 1_000_000 + smallest * 1000
    if R.removal_available(st, fifteen):
        return R.REMOVE * 1_000_000 + smallest * 1000
    if pair == NO_KEY:
        return R.NEW * 1_000_000  # no pair
    return R.PAIR * 1_000_000 + (63 - ((pair >> 6) & 63)) * 1000 + 63 - (pair & 63)


@njit(cache=True, _nrt=False)
def emergency_choice(size, order, st, fifteen, player, rng, buffer):
    """The action taken when a card is needed and the deck is empty (-1: none, the game is
    lost)."""
    if player == RANDOM:
        n = R.emergency_actions(size, order, st, fifteen, buffer)
        return buffer[uniform_below(rng, n)] if n > 0 else -1
    best = _largest_to_pick_up(size, order, st)
    if best >= 0:
        return R.PICKUP * 1_000_000 + best * 1000
    if R.removal_available(st, fifteen) and st[R.ST_COUNT] > 0:
        return R.REMOVE * 1_000_000 + _smallest(size, order, st) * 1000
    return -1


@njit(cache=True, inline="always")
def _take_back_by_code(cards, size, order, deck, st, rng, action, fifteen):
    position = (action // 1000) % 1000
    if action // 1_000_000 == R.PICKUP:
        R.pick_up(cards, size, order, deck, st, rng, position)
    else:
        R.remove(cards, size, order, deck, st, rng, position, fifteen)


@njit(cache=True, _nrt=False)
def _emergency(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter):
    action = emergency_choice(size, order, st, fifteen, player, rng, buffer)
    if action < 0:
        st[R.ST_OUTCOME] = R.LOSS
        return
    st[R.ST_STEPS] += 1
    if counter[0] < moves.shape[0]:
        moves[counter[0]] = action + R.EMERGENCY
    counter[0] += 1
    _take_back_by_code(cards, size, order, deck, st, rng, action, fifteen)


@njit(cache=True, _nrt=False)
def _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter, slot,
           at_least_one):
    need = at_least_one or R.face_on_top(size, slot)
    while need and st[R.ST_OUTCOME] == R.RUNNING:
        if st[R.ST_DECK] == 0:
            _emergency(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter)
            if R.position_of(order, st, slot) < 0:
                return  # the pile was taken back while the deck was empty: covering lapses
            continue
        R.place(cards, size, st, slot, R.draw(deck, st))
        need = R.face_on_top(size, slot)


@njit(cache=True, _nrt=False)
def _new_pile(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer, moves,
              counter, penalised):
    while st[R.ST_DECK] == 0:
        _emergency(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter)
        if st[R.ST_OUTCOME] != R.RUNNING:
            return
    slot = R.free_slot(size)
    R.place(cards, size, st, slot, R.draw(deck, st))
    order[st[R.ST_COUNT]] = slot
    st[R.ST_COUNT] += 1
    if penalised:
        st[R.ST_NEW] += 1
        if every_penalty or st[R.ST_COUNT] > 9:
            R.change_score(st, -1)
    _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter, slot,
           False)


@njit(cache=True, _nrt=False)
def apply_action(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer,
                 moves, counter, action):
    kind = action // 1_000_000
    if kind == R.PICKUP or kind == R.REMOVE:
        _take_back_by_code(cards, size, order, deck, st, rng, action, fifteen)
    elif kind == R.PAIR:
        first = order[(action // 1000) % 1000]
        second = order[action % 1000]
        steps = st[R.ST_STEPS]
        _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter, first,
               True)
        # Only a pile taken back while the deck was empty (a step) leaves the table.
        if st[R.ST_OUTCOME] == R.RUNNING and (st[R.ST_STEPS] == steps
                                              or R.position_of(order, st, second) >= 0):
            _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter,
                   second, True)
    else:
        _new_pile(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer,
                  moves, counter, True)


@njit(cache=True, _nrt=False)
def deal_table(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer, moves,
               counter):
    for _ in range(9):
        _new_pile(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer,
                  moves, counter, False)


@njit(cache=True, _nrt=False)
def finish_greedy(cards, size, order, deck, st, rng, fifteen, every_penalty, step_cap, scratch,
                  buffer, no_moves, counter):
    """Play on with the greedy player (used by the lookahead's rollouts; nothing recorded)."""
    while st[R.ST_OUTCOME] == R.RUNNING:
        if st[R.ST_STEPS] >= step_cap:
            st[R.ST_OUTCOME] = R.UNKNOWN
            break
        action = greedy_action(size, order, st, fifteen, scratch)
        st[R.ST_STEPS] += 1
        apply_action(cards, size, order, deck, st, rng, fifteen, every_penalty, GREEDY, buffer,
                     no_moves, counter, action)


@njit(cache=True)
def rollout_space():
    """Scratch for the lookahead's rollouts: a second game state, the rollouts' generator, the
    unseen cards, the greedy player's scratch, an empty move record and its counter."""
    c, s, o, d, t = R.new_state()
    return (c, s, o, d, t, np.zeros(1, dtype=np.uint64), np.zeros(R.N_CARDS, dtype=np.int64),
            np.zeros(EMPTY + 1, dtype=np.int64), np.empty(0, dtype=np.int64),
            np.zeros(1, dtype=np.int64))


@njit(cache=True, _nrt=False)
def lookahead_action(cards, size, order, deck, st, rng, fifteen, every_penalty, step_cap,
                     rollouts, actions, n, buffer, space):
    """The lookahead player's choice among ``actions[:n]`` (``space`` from ``rollout_space``)."""
    c, s, o, d, t, sub, unseen, scratch, no_moves, counter = space
    sub[0] = splitmix_next(rng)
    # The player knows which cards are in the deck, not their order: each rollout starts from
    # the deck in ascending order of card, shuffled afresh.
    m = st[R.ST_DECK]
    d[:] = 0
    for i in range(m):
        d[deck[i]] = 1
    k = 0
    for card in range(R.N_CARDS):
        if d[card]:
            unseen[k] = card
            k += 1
    best = actions[0]
    best_total = -10**18
    for k in range(n):
        total = 0
        for _ in range(rollouts):
            R.copy_state(cards, size, order, st, c, s, o, t)
            for i in range(m):
                d[i] = unseen[i]
            shuffle_in_place(d[:m], sub)
            t[R.ST_STEPS] += 1
            apply_action(c, s, o, d, t, sub, fifteen, every_penalty, GREEDY, buffer, no_moves,
                         counter, actions[k])
            finish_greedy(c, s, o, d, t, sub, fifteen, every_penalty, step_cap, scratch, buffer,
                          no_moves, counter)
            total += t[R.ST_SCORE] + (WIN_BONUS if t[R.ST_OUTCOME] == R.WIN else 0)
        if total > best_total:
            best_total = total
            best = actions[k]
    return best


@njit(cache=True)
def workspace():
    """Everything a game is played in, allocated once and reused game after game: the state
    (``R.new_state``), two scratch arrays of MAX_ACTIONS entries, the move counter and the
    lookahead's ``rollout_space``."""
    return (R.new_state(), np.empty(MAX_ACTIONS, dtype=np.int64),
            np.empty(MAX_ACTIONS, dtype=np.int64), np.zeros(1, dtype=np.int64), rollout_space())


@njit(cache=True)
def play(deal, fifteen, every_penalty, jokers, step_cap, player, rollouts, rng, moves):
    """Play one game.  Returns (outcome, score, pickups, removals, new piles, steps, moves
    recorded, rollouts played)."""
    return play_in(workspace(), deal, fifteen, every_penalty, jokers, step_cap, player, rollouts,
                   rng, moves)


# The kernels that play are compiled without Numba's reference counting (``_nrt=False``): they
# allocate nothing (``workspace`` does, once), and the atomic reference counts of the arrays
# passed through the helpers took about half of their time.  Small helpers are inlined by
# Numba (``inline="always"``); the large ones (``apply_action``, ``greedy_action`` and what an
# action does) are plain calls, also without reference counting: inlining them at every call
# site took 4 min 50 s of compilation on a slow 2-core machine (45 s without); on that noisy
# machine greedy ran at about the same speed and lookahead up to about a fifth slower.
@njit(cache=True, _nrt=False)
def play_in(space, deal, fifteen, every_penalty, jokers, step_cap, player, rollouts, rng, moves):
    """``play`` in a ``workspace``."""
    (cards, size, order, deck, st), actions, buffer, counter, rollout = space
    R.start_game(deal, jokers, size, deck, st)
    counter[0] = 0
    simulated = 0
    deal_table(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer, moves,
               counter)
    while st[R.ST_OUTCOME] == R.RUNNING:
        if st[R.ST_STEPS] >= step_cap:
            st[R.ST_OUTCOME] = R.UNKNOWN
            break
        if player == GREEDY:
            action = greedy_action(size, order, st, fifteen, actions)
        else:
            n = R.legal_actions(size, order, st, fifteen, actions, buffer)
            if player == RANDOM:
                action = actions[uniform_below(rng, n)]
            elif n == 1:
                action = actions[0]
            else:
                action = lookahead_action(cards, size, order, deck, st, rng, fifteen,
                                          every_penalty, step_cap, rollouts, actions, n, buffer,
                                          rollout)
                simulated += n * rollouts
        st[R.ST_STEPS] += 1
        if counter[0] < moves.shape[0]:
            moves[counter[0]] = action
        counter[0] += 1
        apply_action(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer,
                     moves, counter, action)
    return (st[R.ST_OUTCOME], st[R.ST_SCORE], st[R.ST_PICKUPS], st[R.ST_REMOVALS], st[R.ST_NEW],
            st[R.ST_STEPS], min(counter[0], moves.shape[0]), simulated)


@njit(cache=True)
def play_deals(deals, salt, fifteen, every_penalty, jokers, step_cap, player, rollouts, out):
    """Play the game of each row of ``deals`` (each drawing from its deal's play stream, from
    the game's ``salt``) in one ``workspace``; one row of ``out`` per game: outcome, score,
    pickups, removals, new piles, steps, rollouts."""
    no_moves = np.empty(0, dtype=np.int64)
    space = workspace()
    for k in range(deals.shape[0]):
        rng = play_stream(salt, deals[k])
        result = play_in(space, deals[k], fifteen, every_penalty, jokers, step_cap, player,
                         rollouts, rng, no_moves)
        for c in range(6):
            out[k, c] = result[c]
        out[k, 6] = result[7]
