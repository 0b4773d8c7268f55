"""Impossible: players.  The deck is reshuffled during play, so no deal can be solved in
advance; each player plays the game and every game is seeded, so it replays exactly.

* ``random``: at each decision point, uniformly among every legal action (each pick-up, each
  fifteen removal, each pair to cover, or the new pile); when the deck runs out, uniformly among
  the piles that may be taken back.
* ``greedy``: picks up a pile as soon as one holds 11 cards (the largest first); uses a fifteen
  removal at once, on the largest pile; otherwise covers the pair with the highest worth, where a
  pile of s cards is worth s while s <= 10 (covering brings it towards a pick-up) and -10 from 11
  cards on (covering it costs a point), and a joker on top costs 3 (it is kept as a wild card);
  ties go to the pair that comes first.  When the deck runs out it takes back the largest pile
  it may.
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
from ..shuffle import deal_into, shuffle_in_place, splitmix_next, uniform_below

RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
PLAYERS = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD}
MAX_ACTIONS = 2048
WIN_BONUS = 100


@njit(cache=True, inline="always")
def _largest(size, order, st, eligible_only):
    best = -1
    for i in range(st[R.ST_COUNT]):
        s = size[order[i]]
        if (not eligible_only or s >= 11) and (best < 0 or s > size[order[best]]):
            best = i
    return best


@njit(cache=True, inline="always")
def _pile_worth(cards, size, slot):
    s = size[slot]
    worth = s if s <= 10 else -10
    if R.top(cards, size, slot) >= R.JOKER:
        worth -= 3
    return worth


@njit(cache=True, inline="always")
def _smallest(size, order, st):
    best = 0
    for i in range(1, st[R.ST_COUNT]):
        if size[order[i]] < size[order[best]]:
            best = i
    return best


@njit(cache=True, inline="always")
def greedy_action(cards, size, order, st, fifteen, tops, worths):
    """The greedy player's decision (``tops`` and ``worths`` are scratch arrays)."""
    smallest = _smallest(size, order, st)
    if size[order[smallest]] >= 11:
        # Every pile can be picked up: take them all, one by one, and win.
        return R.PICKUP * 1_000_000 + smallest * 1000
    if R.removal_available(st, fifteen):
        return R.REMOVE * 1_000_000 + smallest * 1000
    count = st[R.ST_COUNT]
    for i in range(count):
        slot = order[i]
        tops[i] = R.top(cards, size, slot)
        worths[i] = _pile_worth(cards, size, slot)
    choice = R.NEW * 1_000_000  # when there is no pair
    best_worth = -10**9
    for i in range(count):
        a = tops[i]
        for j in range(i + 1, count):
            if R.tops_pair(a, tops[j]) and worths[i] + worths[j] > best_worth:
                best_worth = worths[i] + worths[j]
                choice = R.PAIR * 1_000_000 + i * 1000 + j
    return choice


@njit(cache=True, inline="always")
def emergency_choice(size, order, st, fifteen, player, rng, buffer):
    """The action taken when a card is needed and the deck is empty (-1: none, the game is
    lost)."""
    n = R.emergency_actions(size, order, st, fifteen, buffer)
    if n == 0:
        return -1
    if player == RANDOM:
        return buffer[uniform_below(rng, n)]
    best = _largest(size, order, st, True)
    if best >= 0:
        return R.PICKUP * 1_000_000 + best * 1000
    return R.REMOVE * 1_000_000 + _smallest(size, order, st) * 1000


@njit(cache=True, inline="always")
def _take_back_by_code(cards, size, order, deck, st, rng, action, fifteen):
    position = (action // 1000) % 1000
    if action // 1_000_000 == R.PICKUP:
        R.pick_up(cards, size, order, deck, st, rng, position)
    else:
        R.remove(cards, size, order, deck, st, rng, position, fifteen)


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter, slot,
           at_least_one):
    need = at_least_one or R.is_face(R.top(cards, size, slot))
    while need and st[R.ST_OUTCOME] == R.RUNNING:
        if R.position_of(order, st, slot) < 0:
            return  # the pile was taken back while the deck was empty: covering lapses
        if st[R.ST_DECK] == 0:
            _emergency(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter)
            continue
        R.place(cards, size, st, slot, R.draw(deck, st))
        need = R.is_face(R.top(cards, size, slot))


@njit(cache=True, inline="always")
def _new_pile(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer, moves,
              counter, penalised):
    while st[R.ST_DECK] == 0:
        _emergency(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter)
        if st[R.ST_OUTCOME] != R.RUNNING:
            return
    slot = R.free_slot(size)
    cards[slot, 0] = R.draw(deck, st)
    size[slot] = 1
    order[st[R.ST_COUNT]] = slot
    st[R.ST_COUNT] += 1
    if penalised:
        st[R.ST_NEW] += 1
        if every_penalty or st[R.ST_COUNT] > 9:
            R.change_score(st, -1)
    _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter, slot,
           False)


@njit(cache=True, inline="always")
def apply_action(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer,
                 moves, counter, action):
    kind = action // 1_000_000
    if kind == R.PICKUP or kind == R.REMOVE:
        _take_back_by_code(cards, size, order, deck, st, rng, action, fifteen)
    elif kind == R.PAIR:
        first = order[(action // 1000) % 1000]
        second = order[action % 1000]
        _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter, first,
               True)
        if st[R.ST_OUTCOME] == R.RUNNING and R.position_of(order, st, second) >= 0:
            _cover(cards, size, order, deck, st, rng, fifteen, player, buffer, moves, counter,
                   second, True)
    else:
        _new_pile(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer,
                  moves, counter, True)


@njit(cache=True)
def deal_table(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer, moves,
               counter):
    for _ in range(9):
        _new_pile(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer,
                  moves, counter, False)


@njit(cache=True)
def finish_greedy(cards, size, order, deck, st, rng, fifteen, every_penalty, step_cap,
                  actions, buffer):
    """Play on with the greedy player (used by the lookahead's rollouts; nothing recorded)."""
    no_moves = np.empty(0, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    while st[R.ST_OUTCOME] == R.RUNNING:
        if st[R.ST_STEPS] >= step_cap:
            st[R.ST_OUTCOME] = R.UNKNOWN
            break
        action = greedy_action(cards, size, order, st, fifteen, actions, buffer)
        st[R.ST_STEPS] += 1
        apply_action(cards, size, order, deck, st, rng, fifteen, every_penalty, GREEDY, buffer,
                     no_moves, counter, action)


@njit(cache=True)
def lookahead_action(cards, size, order, deck, st, rng, fifteen, every_penalty, step_cap,
                     rollouts, actions, n, buffer):
    sub = np.empty(1, dtype=np.uint64)
    sub[0] = splitmix_next(rng)
    trial_actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    no_moves = np.empty(0, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    best = actions[0]
    best_total = -10**18
    for k in range(n):
        total = 0
        for _ in range(rollouts):
            c = cards.copy()
            s = size.copy()
            o = order.copy()
            d = deck.copy()
            t = st.copy()
            # The player knows which cards are in the deck, not their order: the rollout
            # starts from the sorted deck, shuffled afresh.
            d[:t[R.ST_DECK]] = np.sort(d[:t[R.ST_DECK]])
            shuffle_in_place(d[:t[R.ST_DECK]], sub)
            t[R.ST_STEPS] += 1
            apply_action(c, s, o, d, t, sub, fifteen, every_penalty, GREEDY, buffer, no_moves,
                         counter, actions[k])
            finish_greedy(c, s, o, d, t, sub, fifteen, every_penalty, step_cap, trial_actions,
                          buffer)
            total += t[R.ST_SCORE] + (WIN_BONUS if t[R.ST_OUTCOME] == R.WIN else 0)
        if total > best_total:
            best_total = total
            best = actions[k]
    return best


@njit(cache=True)
def play(deal, fifteen, every_penalty, jokers, step_cap, player, rollouts, rng, moves):
    """Play one game.  Returns (outcome, score, pickups, removals, new piles, steps, moves
    recorded, rollouts played)."""
    cards, size, order, deck, st = R.new_game(deal, jokers)
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    buffer = np.empty(MAX_ACTIONS, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    simulated = 0
    deal_table(cards, size, order, deck, st, rng, fifteen, every_penalty, player, buffer, moves,
               counter)
    while st[R.ST_OUTCOME] == R.RUNNING:
        if st[R.ST_STEPS] >= step_cap:
            st[R.ST_OUTCOME] = R.UNKNOWN
            break
        if player == GREEDY:
            action = greedy_action(cards, size, order, st, fifteen, actions, buffer)
        else:
            n = R.legal_actions(cards, size, order, st, fifteen, actions)
        if player == RANDOM:
            action = actions[uniform_below(rng, n)]
        elif player == GREEDY:
            pass
        elif n == 1:
            action = actions[0]
        else:
            action = lookahead_action(cards, size, order, deck, st, rng, fifteen, every_penalty,
                                      step_cap, rollouts, actions, n, buffer)
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
def play_seeds(deck, salt, seeds, fifteen, every_penalty, jokers, step_cap, player, rollouts,
               out):
    """Play games ``seeds`` (each dealt and shuffled by its own stream); one row of ``out`` per
    game: outcome, score, pickups, removals, new piles, steps, rollouts."""
    deal = np.empty(deck.shape[0], dtype=deck.dtype)
    no_moves = np.empty(0, dtype=np.int64)
    for k in range(seeds.shape[0]):
        rng = deal_into(deal, deck, salt, np.uint64(seeds[k]))
        result = play(deal, fifteen, every_penalty, jokers, step_cap, player, rollouts, rng,
                      no_moves)
        for c in range(6):
            out[k, c] = result[c]
        out[k, 6] = result[7]
