"""Impossible: the thoughtful solver, a player who knows every card and every future reshuffle.

The deck is reshuffled from the game's play stream (``winnable.shuffle.play_stream`` of the
deal), so a deal fixes the whole game once the player's choices are fixed: a player who knows
the deck order and the stream can plan the game exactly.  ``thoughtful`` searches the player's
choices (every action at each DECIDE turn, every pile that may be taken back at each TAKE_BACK
turn) depth first and stops at the first win.  A won line is a list of actions that the engine
(and the plain-Python reference) replays with the game's own stream to a win: so no player,
whatever it knows, wins a deal that ``thoughtful`` proves lost, and its win rate bounds every
player's (``unknown`` deals counted both ways).  Deal by deal the bound is exact for players
that draw nothing but the reshuffles from the stream (``greedy``); ``random`` and the rollout
players also draw their own numbers from it, which moves every later reshuffle, so their game
of deal n meets other reshuffles than thoughtful's: for them the bound holds for the win rate
(the reshuffles are as random either way), not deal by deal.

**The state and the memo.**  What happens after a decision point is a function of: the piles on
the table in creation order (each pile's cards, bottom first), the deck's cards in order, the
score, the fifteen token, what the action under way still owes (``ST_COVER`` and
``ST_COVER_NEXT`` as positions among the piles, ``ST_TO_START``, ``ST_PENALISED``) and the
position of the random stream.  The stream's position depends on the path (a shuffle of k cards
draws at least k - 1 numbers, more when a draw is rejected), so it is part of the state: the
generator's whole 64-bit state goes into the key (splitmix64's state is its start plus
GOLDEN times the numbers drawn, so it says exactly how far the stream has gone).  The counters
(pick-ups, removals, new piles, excess points) change nothing that follows, and the step count
only through the step cap (below); none is in the key.  The key is a 128-bit fingerprint of
that state (two hash chains over its words, ``_fingerprint``); two different states share a
fingerprint with probability about n^2 / 2^128 for n states searched (below 10^-20 for any
budget here).

Entries (``winnable.solvers.table``'s transposition table, buckets of four):

* ``ON_PATH`` while a state is on the line searched.  Meeting it again on the line (a cycle,
  if the rules allow one) is not searched again: any win from the second visit is a win from the
  first.  The branch counts as cut (below), so nothing above it is stored as lost.
* ``LOST`` when every line from the state was searched to its end or to a bound (below) and none
  won, and no line was cut: no line from any visit of the same state wins (the same state has
  the same lines).  A state met again at a higher step count has a subset of those lines before
  the step cap, so it is lost too.  ``LOST`` entries hold for every later search of the deal.
* A state whose search was cut is not stored (its entry is freed): its lines are searched again
  when it is met again.

**Cuts.**  A line is cut (not searched further, and not a win) when: the node budget is spent;
the line reaches ``MAX_DEPTH`` decision points or the step cap (the rules' ``unknown``); the
action buffer is full; it meets a state on the line; or a probe's floor stops it (below).  A
search that ends with no line cut has searched every line, and every one ended lost or at a
bound: the deal is ``loss``.

**Bounds** (sound: a state they call lost has no winning line; each is an option, and
``tests/test_impossible_thoughtful.py`` checks each against the search without it on small
positions searched completely, and against a plain-Python search over the reference's rules).
Both look at a DECIDE turn (nothing owed) from which no pile can be taken back before some pile
is picked up: no fifteen removal is available and none can become available first (a score
only falls until the next pick-up, so under ``once`` a token can come only by falling to 15
from above, and under ``unlimited`` only a score of 15 or more gives one), and no pile holds
11 cards (it could be picked up now).  Until the next take-back the deck receives no card, so
every card placed comes from the cards now in the deck, in their order, and the score cannot
rise.  And the step count is far enough from the step cap that every line ends before it
(each decision places a card, so at most ``deck + 1`` decisions are left without a take-back).

* ``deck_bound``, *the deck can never supply the cards a pick-up needs*.  A pile of s cards is
  picked up only with 11, so it must receive ``11 - s`` cards from the deck, and an existing
  pile receives cards only as one of a covered pair (a new pile needs 11 cards and does no
  better).  Each covering of the pile ends with a card that is not a face card on top, except
  perhaps the last (the deck may run out in the middle of it, and the pile is then taken
  back), so with f face cards in the deck the pile is covered at least ``11 - s - f`` times;
  every covering but the last also gives the pile's partner a card (the partner is covered
  either before the pile, or after it when the deck still has a card, else the deck ran out
  and that is the take-back).  So the deck must hold at least
  ``(11 - s) + max(0, 11 - s - f - 1)`` cards.  When no pile's need fits in the deck, no pile
  can be picked up before the deck runs out; then a card is needed (every decision places one:
  a covered pair or a new pile) and nothing can be taken back: every line is lost.
* ``score_bound``, *the score can never again be positive*.  The points every action loses
  before its end are known from the deck without playing it: a pair's cards are the deck's
  next ones, the first pile's then the second's, each pile covered until its top is not a
  face card, and each card laid on a pile of 11 or more costs a point; a new pile costs its
  penalty (``every``: always; ``beyond_nine``: when it makes more than nine piles).  When
  every legal action loses at least the score, or needs a card after the deck is empty, or
  leaves the deck empty (the next decision needs a card), while no pile holds 11 cards, every
  child is a loss, so the state is.  (A pick-up or a removal would gain or keep points, but
  neither is legal here.)

**Dominance** (option ``dominance``, off by default).  Under ``fifteen=off`` a state with a
higher score and everything else equal wins whenever the lower one does: every line is legal
from both, its cards and reshuffles are the same, and the higher score stays higher by the same
amount, so it reaches 0 no sooner.  Under ``unlimited`` the same holds (a removal open at the
lower score is open at the higher one, and the token means nothing there).  Under ``once`` it
fails: a token comes only when the score *becomes* 15, so from 14 a pick-up gives a removal that
16 never gets.  With the option on (``off`` and ``unlimited`` only) a second memo keys each
position proven lost on the state without its score and token, with the highest score it was
lost at, and a state whose position is there at that score or less is lost.  The same position
(piles, deck and stream) is the same history up to the points lost to the excess, and it is not
met again with another score in practice (``python experiments/impossible_search.py`` counts
the meetings: none), so the memo costs its lookups and saves nothing: it is off.

**The driver** (``Thoughtful.solve``): the budget is spent by searches one after another, each
from the deal's start, until a win or a proof.  The first searches follow the greedy player's
choice first (``impossible.greedy_action``, ``take_back_choice``), then the other actions in
the rules' order; each restart (every ``restarts`` nodes) searches again with the first choice
swapped for another at a random ``RESTART_SWAP_PPM`` of its states (seeded by the restart's
number: the same deal gives the same search everywhere), so that it spends its budget on other
reshuffles than the search before; ``LOST`` entries carry over.  The first searches are
*probes* (``probe``) that cut any line whose score under ``new_pile_penalty=every`` would be 0:
that score is ``19 - piles - excess points - removals`` (each new pile costs a point there and
adds a pile, a pick-up gains one and takes a pile, a removal takes a pile, and the nine piles
dealt are free), so under ``every`` it is the score and the probe cuts nothing, and under
``beyond_nine``, where new piles are free up to nine and a line can wander without end, it
keeps to lines that make progress.  A probe that ends with no cut but its floor's has searched
its lines without a win: the next search lowers the floor by ``FLOOR_STEP`` points, and after
``PROBE_FLOORS`` floors searches without one.  A win found by a probe is a line of the rules as
they are (the floor only leaves lines out), so it is a win; only a search that cut nothing
proves a loss.

The score of a deal is that of the won line, else the best final score of the lines searched to
their end (each counter of the result is that line's), else that of greedy's line from the
start, a whole game (no line ended: every line stopped at a bound, or the budget ran out first,
as a probe's floor can make it on a small budget); a won greedy line wins the deal, since a line
that wins proves it.  A proven loss carries its proof: how the lines searched ended
(``proof_text``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import inline_kernel, jit, kernel
from ..rules import impossible as R
from ..shuffle import GOLDEN, MIX1, MIX2, uniform_below
from . import impossible as P
from .table import LOST, ON_PATH, Generation, TranspositionTable, entries_for, mix64, \
    stamped_slot, tt_find, tt_set_state, tt_store

MAX_DEPTH = 1024        # decision points on a line at most
ACTION_SPACE = 1 << 17  # the actions of the states on the line, stacked
DEFAULT_BUDGET = 60_000
DEFAULT_RESTART = 20_000  # nodes per search before a restart
DEFAULT_MEMORY_MB = 16
RESTART_SWAP_PPM = 50_000  # a restart puts another choice first at this share of its states
FLOOR_STEP = 5             # points a probe's floor drops after its lines are searched in vain
PROBE_FLOORS = 2           # floors tried (0, -5) before a search without one
NO_FLOOR = -(1 << 40)
DOMINANCE_PROBES = 8      # slots of the dominance memo tried for a position
DOMINANCE_ENTRY_BYTES = 28  # two key words, a score and a stamp
SCORE_BOUND_POINTS = 2     # the score bound looks at states with this score or less,
SCORE_BOUND_CARDS = 10     # or with this many cards in the deck or fewer
SHADOW_START = 19          # 10 points + the 9 piles dealt, under new_pile_penalty=every
EMPTY_SLOT = 0
NO_LINE = -(1 << 40)  # the value of the best line before any line ended

# How the lines of a search ended, counted in ``Stack.tally`` (a proof's reason).
(END_SCORE, END_DECK, END_DECK_BOUND, END_SCORE_BOUND, END_MEMO, END_DOMINATED, CUT_FLOOR,
 CUT_OTHER, TALLY_LEN) = range(9)
# What a search says (``search``): a win, every line searched without one, or neither.
SEARCH_WIN, SEARCH_LOST, SEARCH_CUT = 0, 1, 2


class Settings(NamedTuple):
    """One search's settings (the driver's, ``Thoughtful.solve``)."""
    floor: int            # cut a line whose score under new_pile_penalty=every is at most this
    swap_ppm: int         # per million states, another choice is tried first
    seed: int             # seeds those swaps
    deck_bound: bool
    score_bound: bool
    memo: bool
    dominance: bool       # the dominance memo (only where the fifteen rule allows it)


class Dominance(NamedTuple):
    """The dominance memo: positions (states without score and token) proven lost, each with
    the highest score it was proven lost at; ``stamps`` say which deal wrote an entry."""
    keys: np.ndarray       # (entries, 2)
    scores: np.ndarray     # (entries,)
    stamps: np.ndarray     # (entries,), int32


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
    best: np.ndarray       # [its value (NO_LINE: none), its length]
    scratch: np.ndarray    # the greedy player's and legal_actions' scratch
    bound_actions: np.ndarray  # the actions the score bound looks at
    fingerprint: np.ndarray  # four words: the state's key, then its position's
    position_key: np.ndarray  # (MAX_DEPTH, 2): each depth's position key
    tally: np.ndarray      # TALLY_LEN counts: how the lines of the searches ended
    swaps: np.ndarray      # (1,): the stream of a restart's swaps


def new_stack() -> Stack:
    d = MAX_DEPTH
    per_depth = {name: np.zeros(d, np.int64)
                 for name in ("first", "count", "next", "taken", "slot", "cut")}
    return Stack(cards=np.zeros((d, R.SLOTS, R.HEIGHT), np.int8),
                 size=np.zeros((d, 2 * R.SLOTS), np.int64), order=np.zeros((d, R.SLOTS), np.int64),
                 deck=np.zeros((d, R.N_CARDS), np.int64), st=np.zeros((d, R.ST_LEN), np.int64),
                 rng=np.zeros((d, 1), np.uint64), actions=np.zeros(ACTION_SPACE, np.int64),
                 **per_depth,
                 # a line stopped by a bound ends within a deck's worth of decisions
                 best_line=np.zeros(d + R.N_CARDS + 2, np.int64),
                 best_st=np.zeros(R.ST_LEN, np.int64), best=np.zeros(2, np.int64),
                 scratch=np.zeros(P.MAX_ACTIONS, np.int64),
                 bound_actions=np.zeros(P.MAX_ACTIONS, np.int64),
                 fingerprint=np.zeros(4, np.uint64), position_key=np.zeros((d, 2), np.uint64),
                 tally=np.zeros(TALLY_LEN, np.int64),
                 swaps=np.zeros(1, np.uint64))


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
    ``out[0:2]``, and in ``out[2:4]`` that of its position, the state without its score and
    token (the dominance memo's key): each pile in creation order, then the deck, then the
    scalars and the stream's state, fed to two hash chains; the score and the token last."""
    a = GOLDEN
    b = MIX2
    for k in range(st[R.ST_COUNT]):
        slot = order[k]
        a, b = _feed_cards(a, b, cards[slot], size[slot])
    a, b = _feed_cards(a, b, deck, st[R.ST_DECK])
    scalars = (_position(order, st, st[R.ST_COVER]), _position(order, st, st[R.ST_COVER_NEXT]),
               st[R.ST_TO_START], st[R.ST_PENALISED])
    for x in scalars:
        a = _feed(a, x + 7, MIX1)
        b = _feed(b, x + 11, MIX2)
    a = _feed(a, rng[0], MIX1)
    b = _feed(b, rng[0] ^ GOLDEN, MIX2)
    out[2] = mix64(a)
    out[3] = mix64(b ^ out[2])
    for x in (st[R.ST_SCORE], st[R.ST_TOKEN]):
        a = _feed(a, x + 7, MIX1)
        b = _feed(b, x + 11, MIX2)
    out[0] = mix64(a)
    out[1] = mix64(b ^ out[0])


@inline_kernel
def every_score(st):
    """The score the line would have under new_pile_penalty=every (the module docstring)."""
    return SHADOW_START - st[R.ST_COUNT] - st[R.ST_EXCESS] - st[R.ST_REMOVALS]


# ---------------------------------------------------------------------------------------------
# The bounds (the module docstring argues them).

@inline_kernel
def no_take_back_ahead(size, order, st, rules):
    """At a DECIDE turn: no pile can be taken back before some pile is picked up, none can be
    picked up now, and every line without a take-back ends before the step cap."""
    if R.removal_available(st, rules.fifteen):
        return False
    if rules.fifteen == R.FIFTEEN_ONCE and st[R.ST_SCORE] > 15:
        return False  # falling to 15 would give a token
    if st[R.ST_STEPS] + st[R.ST_DECK] + 1 >= rules.step_cap:
        return False
    for k in range(st[R.ST_COUNT]):
        if size[order[k]] >= 11:
            return False
    return True


@inline_kernel
def deck_runs_short(size, order, deck, st):
    """The deck bound: no pile can receive the cards it needs for a pick-up from the deck."""
    largest = 0
    for k in range(st[R.ST_COUNT]):
        largest = max(largest, size[order[k]])
    short = 11 - largest
    if st[R.ST_DECK] >= short + max(0, short - 1):
        return False  # enough cards even if the deck had no face card
    faces = 0
    for i in range(st[R.ST_DECK]):
        faces += R.CLASS[deck[i]] > 10
    return st[R.ST_DECK] < short + max(0, short - faces - 1)


@inline_kernel
def _covering_cost(size, deck, top, slot, score_left):
    """Cover the pile in ``slot`` (at least one card, then while a face card shows) with the
    deck's cards from index ``top`` down, on sizes alone: returns (the next index, points
    lost, the pile's size after); the index is -1 when the deck ran out first."""
    s = size[slot]
    lost = 0
    while True:
        if top < 0:
            return -1, lost, s
        card = deck[top]
        top -= 1
        if s >= 11:
            lost += 1
        s += 1
        if R.CLASS[card] <= 10 or lost >= score_left:
            return top, lost, s


@kernel
def every_action_loses(size, order, deck, st, rules, actions, n):
    """The score bound at a state where ``no_take_back_ahead``: every one of ``actions[:n]``
    (the legal ones) loses the game before it ends (its points lost reach the score, or it needs
    a card from an empty deck while no pile holds 11 cards)."""
    score = st[R.ST_SCORE]
    top0 = st[R.ST_DECK] - 1
    for k in range(n):
        action = actions[k]
        kind = action // 1_000_000
        if kind == R.PAIR:
            first = order[(action // 1000) % 1000]
            second = order[action % 1000]
            top, lost, s1 = _covering_cost(size, deck, top0, first, score)
            if lost < score:
                if top < 0:
                    if s1 >= 11:
                        return False  # the deck ran out with the pile of 11: taken back
                    continue
                big = s1 >= 11
                top, more, s2 = _covering_cost(size, deck, top, second, score - lost)
                lost += more
                if lost < score and (top >= 0 or big or s2 >= 11):
                    return False
        elif kind == R.NEW:
            penalised = rules.every_penalty or st[R.ST_COUNT] + 1 > R.INITIAL_PILES
            if score > (1 if penalised else 0) and top0 >= 0:
                return False  # a new pile's face cards are covered at no cost (it is small)
        else:
            return False  # a pick-up or a removal: not legal where the bound looks
    return True


# ---------------------------------------------------------------------------------------------
# The search.

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
def _expand(s, d, rules, swap_ppm):
    """Write depth d's choices (greedy's first, or at a share ``swap_ppm`` of states another
    one drawn from ``s.swaps``) from ``first[d]``; False if there is no room."""
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
    if swap_ppm > 0 and n > 1 and uniform_below(s.swaps, 1_000_000) < swap_ppm:
        k = 1 + uniform_below(s.swaps, n - 1)
        out[0], out[k] = out[k], out[0]
    s.first[d] = start
    s.count[d] = n
    s.next[d] = 0
    s.cut[d] = 0
    return True


@jit
def _keep_if_best(s, d):
    """Keep the line ending at depth d (its state over) if it beats the best so far (a win
    beats any score)."""
    st = s.st[d]
    value = st[R.ST_SCORE] + (1 << 20 if st[R.ST_OUTCOME] == R.WIN else 0)
    if value <= s.best[0]:
        return
    for i in range(d):
        s.best_line[i] = s.taken[i]
    s.best_st[:] = st
    s.best[0] = value
    s.best[1] = d


@kernel
def bound_ends(size, order, deck, st, rules, settings, actions, scratch):
    """The bound that ends this state (END_DECK_BOUND or END_SCORE_BOUND), or -1; ``actions``
    and ``scratch`` hold the legal actions when the score bound looks."""
    if not (settings.deck_bound or settings.score_bound) or R.turn(st, rules.step_cap) != R.DECIDE \
            or not no_take_back_ahead(size, order, st, rules):
        return -1
    if settings.deck_bound and deck_runs_short(size, order, deck, st):
        return END_DECK_BOUND
    # The score bound looks only where it can end a state: the points are few, or the deck
    # may run out within an action.
    if settings.score_bound and (st[R.ST_SCORE] <= SCORE_BOUND_POINTS
                                 or st[R.ST_DECK] <= SCORE_BOUND_CARDS):
        n = R.legal_actions(size, order, st, rules.fifteen, actions, scratch)
        if every_action_loses(size, order, deck, st, rules, actions, n):
            return END_SCORE_BOUND
    return -1


@inline_kernel
def _dominance_slot(dominance, key, stamp):
    """The dominance memo's slot of a position ``key`` (two words) in the deal ``stamp``: its
    own (``stamps[slot] == stamp``), or where it goes; -1 when the probe window is full."""
    return stamped_slot(dominance.keys, key, np.int64(key[0] >> np.uint64(32)),
                        dominance.stamps, stamp, DOMINANCE_PROBES)


@jit
def search(s, rules, settings, budget, keys, stamps, deal_first, stamp, dominance,
           dominance_stamp):
    """Search from the state at depth 0 of ``s`` (``start``, or a position set there), within
    ``budget`` nodes; ``keys``/``stamps`` a transposition table (``TranspositionTable``),
    ``dominance`` the dominance memo (``Dominance``) and the deal's stamp in it.
    Returns (SEARCH_WIN, SEARCH_LOST or SEARCH_CUT, nodes, memo hits); the best line so far is
    in ``best_line``/``best_st``/``best`` (kept from earlier searches when better), and
    ``tally`` adds how this search's lines ended."""
    s.swaps[0] = mix64(np.uint64(settings.seed) + GOLDEN)
    tally = s.tally
    if R.turn(s.st[0], rules.step_cap) == R.OVER:
        s.best_st[:] = s.st[0]
        s.best[1] = 0
        outcome = s.st[0, R.ST_OUTCOME]
        return SEARCH_WIN if outcome == R.WIN else SEARCH_LOST if outcome == R.LOSS \
            else SEARCH_CUT, 0, 0
    ended = bound_ends(s.size[0], s.order[0], s.deck[0], s.st[0], rules, settings,
                       s.bound_actions, s.scratch)
    if ended >= 0:
        tally[ended] += 1
        return SEARCH_LOST, 0, 0
    nodes = 0
    hits = 0
    _expand(s, 0, rules, settings.swap_ppm)
    s.slot[0] = -1
    d = 0
    while d >= 0:
        if s.next[d] >= s.count[d]:
            # Every choice at depth d tried without a win.
            if s.slot[d] >= 0:
                tt_set_state(keys, stamps, s.slot[d], LOST if s.cut[d] == 0 else EMPTY_SLOT,
                             stamp)
            if d > 0 and s.cut[d] == 0 and settings.dominance:
                i = _dominance_slot(dominance, s.position_key[d], dominance_stamp)
                score = s.st[d, R.ST_SCORE]
                if i >= 0 and (dominance.stamps[i] != dominance_stamp
                               or dominance.scores[i] < score):
                    dominance.keys[i, 0] = s.position_key[d, 0]
                    dominance.keys[i, 1] = s.position_key[d, 1]
                    dominance.scores[i] = score
                    dominance.stamps[i] = dominance_stamp
            if d > 0 and s.cut[d]:
                s.cut[d - 1] = 1
            d -= 1
            continue
        if nodes >= budget:
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
                tally[CUT_OTHER] += 1
                continue
            _keep_if_best(s, d + 1)
            if st[R.ST_OUTCOME] == R.WIN:
                return SEARCH_WIN, nodes, hits
            tally[END_SCORE if st[R.ST_SCORE] <= 0 else END_DECK] += 1
            continue
        if d + 2 >= MAX_DEPTH:
            s.cut[d] = 1
            tally[CUT_OTHER] += 1
            continue
        if every_score(st) <= settings.floor:
            s.cut[d] = 1
            tally[CUT_FLOOR] += 1
            continue
        ended = bound_ends(s.size[d + 1], s.order[d + 1], s.deck[d + 1], st, rules, settings,
                           s.bound_actions, s.scratch)
        if ended >= 0:
            tally[ended] += 1
            continue
        _fingerprint(s.cards[d + 1], s.size[d + 1], s.order[d + 1], s.deck[d + 1], st,
                     s.rng[d + 1], s.fingerprint)
        a, b = s.fingerprint[0], s.fingerprint[1]
        found = tt_find(keys, stamps, a, b, deal_first, stamp) if settings.memo else -1
        if found >= 0:
            hits += 1
            if np.int64(keys[found, 1] & np.uint64(3)) == ON_PATH:
                s.cut[d] = 1  # a cycle
                tally[CUT_OTHER] += 1
            else:
                tally[END_MEMO] += 1
            continue
        if settings.dominance:
            i = _dominance_slot(dominance, s.fingerprint[2:4], dominance_stamp)
            if i >= 0 and dominance.stamps[i] == dominance_stamp and \
                    dominance.scores[i] >= st[R.ST_SCORE]:
                tally[END_DOMINATED] += 1
                continue
        if not _expand(s, d + 1, rules, settings.swap_ppm):
            s.cut[d] = 1
            tally[CUT_OTHER] += 1
            continue
        s.slot[d + 1] = (tt_store(keys, stamps, a, b, ON_PATH, deal_first, stamp)
                         if settings.memo else -1)
        s.position_key[d + 1, 0] = s.fingerprint[2]
        s.position_key[d + 1, 1] = s.fingerprint[3]
        d += 1
    # Free the entries of the states still on the line (the budget stopped the search).
    for k in range(d, 0, -1):
        if s.slot[k] >= 0:
            tt_set_state(keys, stamps, s.slot[k], EMPTY_SLOT, stamp)
    if d < 0 and s.cut[0] == 0:
        return SEARCH_LOST, nodes, hits
    return SEARCH_CUT, nodes, hits


@jit
def greedy_line(s, rules):
    """Report the greedy player's line from the state at depth 0 (played at depth 1) as the
    best line: a deal whose searches played no line to its end (a proven loss whose every line
    stopped at a bound, or a budget spent first) still shows a whole game."""
    _copy_down(s, 0)
    game = _state(s, 1)
    n = 0
    while True:
        turn = R.turn(game.st, rules.step_cap)
        if turn == R.OVER or n >= s.best_line.shape[0]:
            break
        if turn == R.TAKE_BACK:
            action = P.take_back_choice(game.size, game.order, game.st, rules.fifteen, P.GREEDY,
                                        s.rng[1], s.scratch)
            R.take_back_when_empty(game, s.rng[1], rules, action)
            s.best_line[n] = action + R.EMERGENCY
        else:
            action = P.greedy_action(game.size, game.order, game.st, rules.fifteen, s.scratch)
            R.apply_action(game, s.rng[1], rules, action)
            s.best_line[n] = action
        n += 1
    s.best_st[:] = game.st
    s.best[0] = game.st[R.ST_SCORE]
    s.best[1] = n


@jit
def _begin(s):
    """No best line yet, nothing tallied (depth 0 holds the state searched from)."""
    s.best[0] = NO_LINE
    s.best[1] = 0
    s.best_st[:] = s.st[0]
    s.tally[:] = 0


@jit
def start(s, deal, rules, rng_start):
    """Depth 0 of ``s`` becomes the deal's start (the nine piles dealt)."""
    R.start_game(_state(s, 0), deal, rules)
    s.rng[0, 0] = rng_start
    _begin(s)


@jit
def start_at(s, game, rng):
    """Depth 0 of ``s`` becomes a copy of the position ``game`` (an ``R.State``) with the
    stream's state ``rng``."""
    R.copy_state(game.cards, game.size, game.order, game.st, s.cards[0], s.size[0], s.order[0],
                 s.st[0])
    for i in range(game.st[R.ST_DECK]):
        s.deck[0, i] = game.deck[i]
    s.rng[0, 0] = rng[0]
    _begin(s)


class Options(NamedTuple):
    """The driver's options (the solver's, ``games/impossible.py``); each 0 turns its idea
    off for the ablations."""
    restarts: int = DEFAULT_RESTART  # nodes per search before a restart (0: one search)
    probe: bool = True
    deck_bound: bool = True
    score_bound: bool = True
    dominance: bool = False  # where the fifteen rule allows it (off, unlimited)
    memo: bool = True


BOUND_WORDS = {END_DECK_BOUND: "the deck bound (no pile can receive the cards a pick-up needs "
                              "from the cards left in the deck)",
               END_SCORE_BOUND: "the score bound (every action loses the points left, or runs "
                                "out of cards, before a pile can be taken back)"}
LINE_WORDS = {END_SCORE: "ending with the score at 0",
              END_DECK: "ending with the deck empty and no pile to take back",
              END_DECK_BOUND: "cut by " + BOUND_WORDS[END_DECK_BOUND],
              END_SCORE_BOUND: "cut by " + BOUND_WORDS[END_SCORE_BOUND],
              END_MEMO: "meeting a position already proven lost",
              END_DOMINATED: "meeting a position proven lost with as many points or more "
                             "(dominance)"}


def proof_text(tally: np.ndarray, nodes: int) -> str:
    """The reason a search gives for a loss: how its lines ended (``tally``), or the bound that
    ends the start itself."""
    if nodes == 0:
        ended = [k for k in (END_DECK_BOUND, END_SCORE_BOUND) if tally[k]]
        return ("lost from the start by " + BOUND_WORDS[ended[0]]) if ended else \
            "the game is over"
    parts = [f"{int(tally[k]):,} line{'s' if tally[k] != 1 else ''} {words}"
             for k, words in LINE_WORDS.items() if tally[k]]
    return f"every line searched ({nodes:,} nodes), none wins: " + "; ".join(parts)


class Thoughtful:
    """The solver's buffers (reused deal after deal)."""

    def __init__(self, memory_mb: float = DEFAULT_MEMORY_MB):
        self.stack = new_stack()
        self.table = TranspositionTable(memory_mb)
        # The dominance memo takes a quarter of the transposition table's memory.
        entries = entries_for(memory_mb / 4, DOMINANCE_ENTRY_BYTES)
        self.generation = Generation(entries)
        self.dominance = Dominance(np.zeros((entries, 2), np.uint64), np.zeros(entries, np.int64),
                                   self.generation.stamps)

    def solve(self, deal: np.ndarray, rules: R.RuleCodes, rng_start: int, budget: int,
              options: Options = Options()):
        """(outcome, nodes, line of action codes, memo hits, proof): the deal's outcome and
        its line (the won line, else the best line searched); a proven loss's proof
        (``proof_text``), else "".  ``self.stack.best_st`` holds the line's final scalars."""
        start(self.stack, deal, rules, np.uint64(rng_start))
        return self._drive(rules, budget, options)

    def solve_position(self, game: R.State, rng: np.ndarray, rules: R.RuleCodes, budget: int,
                       options: Options = Options()):
        """``solve`` from a position of a game (its arrays and its stream's state, neither
        changed): the line returned starts there."""
        start_at(self.stack, game, rng)
        return self._drive(rules, budget, options)

    def _drive(self, rules: R.RuleCodes, budget: int, options: Options):
        """The searches of ``solve`` from the state at depth 0 of the stack."""
        s = self.stack
        self.table.begin_deal()
        dominance_stamp = self.generation.next()
        dominance = (options.dominance and options.memo
                     and rules.fifteen in (R.FIFTEEN_OFF, R.FIFTEEN_UNLIMITED))
        floor = 0 if options.probe else NO_FLOOR
        floors_left = PROBE_FLOORS if options.probe else 0
        restart = options.restarts if options.restarts > 0 else budget
        nodes = hits = searches = 0
        outcome = R.UNKNOWN
        while nodes < budget:
            share = min(restart, budget - nodes)
            stamp = self.table.begin_search()
            deal_first, _ = self.table.stamps_now()
            settings = Settings(floor if floors_left else NO_FLOOR,
                                RESTART_SWAP_PPM if searches else 0, searches,
                                options.deck_bound, options.score_bound, options.memo, dominance)
            floor_cuts = s.tally[CUT_FLOOR]
            said, used, met = search(s, rules, settings, share, self.table.keys,
                                     self.table.stamps, deal_first, stamp, self.dominance,
                                     dominance_stamp)
            nodes += used
            hits += met
            searches += 1
            if said != SEARCH_CUT:
                outcome = R.WIN if said == SEARCH_WIN else R.LOSS
                break
            if used < share:  # every line searched, some cut
                if s.tally[CUT_FLOOR] == floor_cuts:
                    break  # not by the floor: another search would meet the same cuts
                floors_left -= 1  # by the floor: lower it
                floor -= FLOOR_STEP
        if s.best[0] == NO_LINE and outcome != R.WIN:
            # No line played to its end (every line stopped at a bound, or the budget ran out
            # first): greedy's whole game is reported, and wins the deal if it wins.
            greedy_line(s, rules)
            if s.best_st[R.ST_OUTCOME] == R.WIN:
                outcome = R.WIN
        proof = proof_text(s.tally, nodes) if outcome == R.LOSS else ""
        return outcome, nodes, s.best_line[:s.best[1]].copy(), hits, proof
