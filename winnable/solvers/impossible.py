"""Impossible: players.  The deck is reshuffled during play, so no deal can be solved in
advance; each player plays the game (``winnable.rules.impossible``: the players only choose),
drawing every random number from the deal's play stream
(``winnable.shuffle.play_stream``), so a deal replays exactly.

* ``random``: at each decision point, uniformly among every legal action (each pick-up, each
  fifteen removal, each pair to cover, or the new pile); when the deck runs out, uniformly among
  the piles that may be taken back (a TAKE_BACK turn).
* ``greedy``: holds piles of 11 cards or more until every pile on the table can be picked up,
  then picks them all up (the smallest first); uses a fifteen removal at once, on the smallest
  pile; otherwise covers the pair with the highest worth, where a pile of s cards is worth s
  while s <= 10 (covering brings it towards a pick-up) and -10 from 11 cards on (covering it
  costs a point), and a joker on top costs 3 (it is kept as a wild card); ties go to the pair
  that comes first.  When a card is needed and the deck is empty (the rules' TAKE_BACK turn)
  it takes back the largest pile it may (a fifteen removal of the smallest pile if none can be
  picked up).
* ``lookahead``: at each decision point with a choice, tries every action in ``rollouts``
  simulated games finished by the greedy player, each from the current table with the unseen
  deck shuffled afresh (the player never reads the real deck order), and takes the action that
  won the most rollouts; on a tie the greedy player's action if it is among the best, else the
  highest total final score, else the first action.  Common random numbers: rollout r of a
  decision draws every random number (the unseen deck's order and each later reshuffle) from a
  stream seeded by the decision's seed (one number from the game's stream) and r alone, so
  every action is tried against the same deck orders and the comparison measures the actions,
  not the luck of the draw.  ``objective=score`` keeps the version 2 objective (the mean of
  score + 100 per win): rollouts of greedy rarely win, so it maximised the score of lost games
  and ended most games early at 10 points.  When the deck runs out it decides like ``greedy``.
* ``halving``: the same rollouts spent by sequential halving (Karnin, Koren and Somekh 2013):
  ceil(log2 n) rounds share ``budget`` rollouts per decision; each round every action still in
  gets the same new rollouts (common random numbers again) and the better half by the
  lookahead's rule on all its rollouts so far stays.  More of the budget goes to the actions
  that look best, where lookahead spends the same on every action.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import inline_kernel, jit, kernel
from ..rules import impossible as R
from ..shuffle import play_stream, shuffle_in_place, splitmix_next, uniform_below
from .table import mix64

RANDOM, GREEDY, LOOKAHEAD, HALVING = 0, 1, 2, 3
# What the rollout players maximise: the rollouts won (the greedy action, then the score,
# breaking ties), or the old objective, the mean of score + WIN_BONUS per win.
OBJECTIVE_WIN, OBJECTIVE_SCORE = 0, 1
MAX_ACTIONS = 2048
WIN_BONUS = 100


@inline_kernel
def _largest_to_pick_up(size, order, st):
    """The largest pile of 11 cards or more (the first on a tie), or -1."""
    best = -1
    for i in range(st[R.ST_COUNT]):
        s = size[order[i]]
        if s >= 11 and (best < 0 or s > size[order[best]]):
            best = i
    return best


@inline_kernel
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


@kernel
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


@kernel
def take_back_choice(size, order, st, fifteen, player, rng, buffer):
    """The pile the player takes back at a TAKE_BACK turn (the rules have checked that one can
    be): ``random`` uniformly among them, the others as ``greedy`` (the largest pile that may
    be picked up, else a fifteen removal of the smallest)."""
    if player == RANDOM:
        n = R.take_back_actions(size, order, st, fifteen, buffer)
        return buffer[uniform_below(rng, n)]
    best = _largest_to_pick_up(size, order, st)
    if best >= 0:
        return R.PICKUP * 1_000_000 + best * 1000
    return R.REMOVE * 1_000_000 + _smallest(size, order, st) * 1000


@inline_kernel
def _record(moves, counter, action):
    """Keep the action in ``moves`` while it has room; ``counter`` counts them all."""
    if counter[0] < moves.shape[0]:
        moves[counter[0]] = action
    counter[0] += 1


@kernel
def finish_greedy(game, rng, rules, scratch, buffer):
    """Play on with the greedy player (the lookahead's rollouts; nothing recorded)."""
    while True:
        turn = R.turn(game.st, rules.step_cap)
        if turn == R.OVER:
            return
        if turn == R.TAKE_BACK:
            action = take_back_choice(game.size, game.order, game.st, rules.fifteen, GREEDY,
                                      rng, buffer)
            R.take_back_when_empty(game, rng, rules, action)
        else:
            R.apply_action(game, rng, rules,
                           greedy_action(game.size, game.order, game.st, rules.fifteen, scratch))


class RolloutSpace(NamedTuple):
    """Scratch for the rollout players (``rollout_space``)."""
    game: R.State          # the simulated game
    rng: np.ndarray        # the rollouts' generator
    unseen: np.ndarray     # the cards in the deck, in ascending order
    scratch: np.ndarray    # the greedy player's
    wins: np.ndarray       # MAX_ACTIONS entries: each action's rollouts won so far
    scores: np.ndarray     # MAX_ACTIONS entries: the sum of their final scores
    alive: np.ndarray      # MAX_ACTIONS entries: the actions still compared (halving)


@jit
def rollout_space():
    return RolloutSpace(R.new_state(), np.zeros(1, dtype=np.uint64),
                        np.zeros(R.N_CARDS, dtype=np.int64), np.zeros(EMPTY + 1, dtype=np.int64),
                        np.zeros(MAX_ACTIONS, dtype=np.int64), np.zeros(MAX_ACTIONS, dtype=np.int64),
                        np.zeros(MAX_ACTIONS, dtype=np.int64))


@inline_kernel
def _unseen_cards(game, space):
    """The cards in the deck in ascending order (what the player knows of the deck)."""
    deck, m = game.deck, game.st[R.ST_DECK]
    sim, unseen = space.game, space.unseen
    sim.deck[:] = 0
    for i in range(m):
        sim.deck[deck[i]] = 1
    k = 0
    for card in range(R.N_CARDS):
        if sim.deck[card]:
            unseen[k] = card
            k += 1


@kernel
def _rollouts(game, rules, base, action, first, last, buffer, space):
    """Play ``action`` then greedy in rollouts number ``first`` to ``last - 1`` of a decision;
    returns (rollouts won, sum of their final scores).  Rollout r draws every random number
    (the unseen deck's order, then each reshuffle) from the stream seeded with
    ``mix64(base + r)``, whatever the action: common random numbers."""
    st, m = game.st, game.st[R.ST_DECK]
    sim, sub, unseen, scratch = space.game, space.rng, space.unseen, space.scratch
    wins = 0
    total = 0
    for r in range(first, last):
        sub[0] = mix64(base + np.uint64(r))
        R.copy_state(game.cards, game.size, game.order, st, sim.cards, sim.size, sim.order,
                     sim.st)
        for i in range(m):
            sim.deck[i] = unseen[i]
        shuffle_in_place(sim.deck[:m], sub)
        R.apply_action(sim, sub, rules, action)
        finish_greedy(sim, sub, rules, scratch, buffer)
        wins += sim.st[R.ST_OUTCOME] == R.WIN
        total += sim.st[R.ST_SCORE]
    return wins, total


@inline_kernel
def _better(space, a, b, objective):
    """Whether action index ``a`` beats ``b`` (both evaluated on the same rollouts): under
    OBJECTIVE_WIN more rollouts won, then (on a tie) the greedy action (index 0) over any other,
    then the higher total score; under OBJECTIVE_SCORE the higher total of score + WIN_BONUS per
    win.  Otherwise the first (lower index) is kept."""
    wins, scores = space.wins, space.scores
    if objective == OBJECTIVE_SCORE:
        value_a = scores[a] + WIN_BONUS * wins[a]
        value_b = scores[b] + WIN_BONUS * wins[b]
        return value_a > value_b or (value_a == value_b and a < b)
    if wins[a] != wins[b]:
        return wins[a] > wins[b]
    if a == 0 or b == 0:
        return a == 0
    if scores[a] != scores[b]:
        return scores[a] > scores[b]
    return a < b


@inline_kernel
def move_to_front(actions, n, action):
    """Move ``action`` to the front of ``actions[:n]`` (the others keep their order)."""
    for k in range(n):
        if actions[k] == action:
            for j in range(k, 0, -1):
                actions[j] = actions[j - 1]
            actions[0] = action
            return


@kernel
def rollout_action(game, rng, rules, settings, actions, n, buffer, space):
    """The choice of a rollout player among ``actions[:n]`` (``space`` from
    ``rollout_space``); returns (action, rollouts played).  One number drawn from the game's
    stream seeds the decision's rollouts.  ``budget`` 0: every action gets ``rollouts``
    rollouts (lookahead).  Otherwise sequential halving: ceil(log2 n) rounds share ``budget``
    rollouts; each round gives every action still compared the same new rollouts (at least
    one) and keeps the better half (``_better`` on all its rollouts so far)."""
    rollouts, objective = settings.rollouts, settings.objective
    budget = settings.budget if settings.player == HALVING else 0
    base = splitmix_next(rng)
    _unseen_cards(game, space)
    move_to_front(actions, n, greedy_action(game.size, game.order, game.st, rules.fifteen,
                                            space.scratch))
    wins, scores, alive = space.wins, space.scores, space.alive
    for k in range(n):
        wins[k] = 0
        scores[k] = 0
        alive[k] = k
    played = 0
    if budget == 0:
        for k in range(n):
            wins[k], scores[k] = _rollouts(game, rules, base, actions[k], 0, rollouts, buffer,
                                           space)
        played = n * rollouts
        best = 0
        for k in range(1, n):
            if _better(space, k, best, objective):
                best = k
        return actions[best], played
    rounds = 0
    while (1 << rounds) < n:
        rounds += 1
    live = n
    done = 0
    while live > 1:
        per = max(1, budget // (rounds * live))
        for i in range(live):
            k = alive[i]
            w, s = _rollouts(game, rules, base, actions[k], done, done + per, buffer, space)
            wins[k] += w
            scores[k] += s
        done += per
        played += per * live
        # Keep the better half: insertion sort of alive[:live] by _better (stable).
        for i in range(1, live):
            k = alive[i]
            j = i
            while j > 0 and _better(space, k, alive[j - 1], objective):
                alive[j] = alive[j - 1]
                j -= 1
            alive[j] = k
        live = (live + 1) // 2
    return actions[alive[0]], played


class Workspace(NamedTuple):
    """Everything a game is played in, allocated once and reused game after game."""
    game: R.State
    actions: np.ndarray    # MAX_ACTIONS entries, for the legal actions
    buffer: np.ndarray     # MAX_ACTIONS entries of scratch
    counter: np.ndarray    # one entry: the moves played so far
    rollout: RolloutSpace


@jit
def workspace():
    return Workspace(R.new_state(), np.empty(MAX_ACTIONS, dtype=np.int64),
                     np.empty(MAX_ACTIONS, dtype=np.int64), np.zeros(1, dtype=np.int64),
                     rollout_space())


class PlayerSettings(NamedTuple):
    """What a player is and its options (the rollout players' only)."""
    player: int           # RANDOM, GREEDY, LOOKAHEAD or HALVING
    rollouts: int = 0     # lookahead: rollouts per action
    budget: int = 0       # halving: rollouts per decision
    objective: int = OBJECTIVE_WIN


@jit
def play(deal, rules, settings, rng, moves):
    """Play one game (``rules`` a ``R.RuleCodes``, ``settings`` a ``PlayerSettings``).  Returns
    (outcome, score, pickups, removals, new piles, steps, moves recorded, rollouts played)."""
    return play_in(workspace(), deal, rules, settings, rng, moves)


# The kernels that play are compiled without Numba's reference counting (``kernel``): they
# allocate nothing (``workspace`` does, once), and the atomic reference counts of the arrays
# passed through the helpers took about half of their time.  Small helpers are inlined by
# Numba (``inline_kernel``); the large ones (``apply_action``, ``greedy_action`` and what an
# action does) are plain calls: inlining them at every call site took 4 min 50 s of compilation
# on a slow 2-core machine (45 s without); on that noisy machine greedy ran at about the same
# speed and lookahead up to about a fifth slower.
@kernel
def play_in(space, deal, rules, settings, rng, moves):
    """``play`` in a ``workspace``."""
    game, actions, buffer, counter, rollout = space
    player = settings.player
    st = game.st
    counter[0] = 0
    simulated = 0
    R.start_game(game, deal, rules)
    while True:
        turn = R.turn(st, rules.step_cap)
        if turn == R.OVER:
            break
        if turn == R.TAKE_BACK:
            action = take_back_choice(game.size, game.order, st, rules.fifteen, player, rng,
                                      buffer)
            _record(moves, counter, action + R.EMERGENCY)
            R.take_back_when_empty(game, rng, rules, action)
            continue
        if player == GREEDY:
            action = greedy_action(game.size, game.order, st, rules.fifteen, actions)
        else:
            n = R.legal_actions(game.size, game.order, st, rules.fifteen, actions, buffer)
            if player == RANDOM:
                action = actions[uniform_below(rng, n)]
            elif n == 1:
                action = actions[0]
            else:
                action, played = rollout_action(game, rng, rules, settings, actions, n, buffer,
                                                rollout)
                simulated += played
        _record(moves, counter, action)
        R.apply_action(game, rng, rules, action)
    return (st[R.ST_OUTCOME], st[R.ST_SCORE], st[R.ST_PICKUPS], st[R.ST_REMOVALS], st[R.ST_NEW],
            st[R.ST_STEPS], min(counter[0], moves.shape[0]), simulated)


@jit
def play_deals(deals, salt, rules, settings, out):
    """Play the game of each row of ``deals`` (each drawing from its deal's play stream, from
    the game's ``salt``) in one ``workspace``; one row of ``out`` per game: outcome, score,
    pickups, removals, new piles, steps, rollouts."""
    no_moves = np.empty(0, dtype=np.int64)
    space = workspace()
    for k in range(deals.shape[0]):
        result = play_in(space, deals[k], rules, settings, play_stream(salt, deals[k]),
                         no_moves)
        for c in range(6):
            out[k, c] = result[c]
        out[k, 6] = result[7]
