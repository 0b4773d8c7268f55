"""Nineball Solitaire: the exact optimal player that sees only what a person sees.

The player sees the rack, the kitchen tops and every card turned so far.  To it the face-down
kitchen cards are a uniformly random arrangement of the unseen cards, so when a group uses a
pile's top and cards remain below, the card that turns up is drawn uniformly from the unseen
ones (a group that uses several piles draws one card after another, without replacement).
Expectimax over these chance nodes gives, per deal, the exact value of the optimal policy.

Values are pairs (expected final score, probability of clearing the rack).  The objective says
which comes first: ``OBJECTIVE_SCORE`` (solver ``nopeek-score``) maximises the expected score
and breaks ties by the win probability; ``OBJECTIVE_WIN`` (``nopeek-win``) the other way round.
Any policy that is optimal in this lexicographic sense has the same pair of values, so both
numbers are well defined.  They are rationals whose denominators divide 6! = 720 (never more
than six cards are hidden), so two different values differ by far more than ``TIE``.

Information state: (rack cards left, and for each kitchen pile its height and the value of its
top, and the unseen cards as counts per value).  Suits never matter to play, and the three
piles are interchangeable to a player who cannot see under them, so the memo key sorts the
piles' (height, top) pairs.

Exact shortcuts (each leaves every value unchanged):

* A position whose rack can be cleared by rack cards alone is worth (19 + cards left in the
  kitchen, 1): no line scores more (a clear scores 19 plus the kitchen cards left, which only
  fall; a game without a clear scores at most 9 + 9 < 19) and none clears more often.
* A move whose best possible outcome (a clear with every kitchen card it leaves) cannot beat the
  best move found so far is skipped.
* The draws after a move stop as soon as the move cannot beat the best so far even if every
  draw still to come were worth that best outcome (``_cut_chance``): the move would not have
  been chosen after all its draws either.

Play on the real deal repeats the same decision (same move order, same comparisons, values from
the memo) at every step and turns up the real card whenever one turns up.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import jit
from ..rules import nineball as R
from .table import Generation, hash_word, stamped_slot

OBJECTIVE_SCORE, OBJECTIVE_WIN = 0, 1
OBJECTIVES = {"nopeek-score": OBJECTIVE_SCORE, "nopeek-win": OBJECTIVE_WIN}
TIE = 1e-9
DENOMINATOR = 720  # every value is a multiple of 1/720: at most 6 hidden cards, drawn in turn
TABLE_BITS = 15  # 32,768 slots: small enough for the cache, and the most states seen in a deal is ~12,000
DECISION, CHANCE = 0, 1
MAX_FRAMES = 4 * (R.N_CARDS + 2)  # a decision and at most three draws per group played
PROBES = 64
CLEAR_SCORE = R.RACK + 10

# Integer fields of a stack frame.
KIND, STATE, PENDING, TOPS, UNSEEN, N_UNSEEN, NEXT, COUNT, CHOICE, KEY = range(10)
FRAME_FIELDS = 10


class Info(NamedTuple):
    """An information state: what the player sees."""
    state: int      # rack mask and kitchen heights (``winnable.rules.nineball``)
    tops: int       # the value on top of each kitchen pile, 4 bits a pile (0: empty)
    unseen: int     # how many unseen cards of each value, 2 bits a value
    n_unseen: int


class Problem(NamedTuple):
    """What every decision of a deal shares: what the player sees of the deal, the rules, the
    objective."""
    values: np.ndarray     # the rack's values, and the kitchen tops as seen (set per state)
    sums: np.ndarray       # R.rack_sums of the deal
    clearable: np.ndarray  # rack_clearable of the deal
    kitchen_limit: int
    target_mask: int
    bonus_always: bool
    objective: int


class Memo(NamedTuple):
    """The values of the information states decided (stamped slots, table.py)."""
    keys: np.ndarray    # (slots, 1): info_key
    score: np.ndarray
    win: np.ndarray
    stamps: np.ndarray


class Work(NamedTuple):
    """The search stack: per frame the moves (``groups``), the integer fields (``frames``, see
    KIND ...) and the value so far; ``counter`` holds the states expanded and whether the memo
    overflowed; ``key`` is a memo key as a row."""
    groups: np.ndarray
    frames: np.ndarray
    frame_values: np.ndarray
    counter: np.ndarray
    key: np.ndarray


class Scratch:
    """The memo of information states and the search stack, reused from deal to deal."""

    def __init__(self, bits: int = TABLE_BITS):
        size = 1 << bits
        self.generation = Generation(size)
        self.memo = Memo(np.zeros((size, 1), dtype=np.int64), np.zeros(size, dtype=np.float64),
                         np.zeros(size, dtype=np.float64), self.generation.stamps)
        self.work = Work(np.zeros((MAX_FRAMES, R.MAX_GROUPS), dtype=np.int16),
                         np.zeros((MAX_FRAMES, FRAME_FIELDS), dtype=np.int64),
                         np.zeros((MAX_FRAMES, 2), dtype=np.float64),
                         np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64))
        self.line = np.zeros(R.N_CARDS, dtype=np.int16)


@jit
def top_of(tops, p):
    return (tops >> (4 * p)) & 15


@jit
def with_top(tops, p, value):
    return (tops & ~(15 << (4 * p))) | (value << (4 * p))


@jit
def unseen_count(unseen, value):
    return (unseen >> (2 * (value - 1))) & 3


@jit
def info_key(state, tops, unseen):
    """The memo key: rack mask, the piles' (height, top) pairs sorted, the unseen counts."""
    a = R.pile_height(state, 0) * 16 + top_of(tops, 0)
    b = R.pile_height(state, 1) * 16 + top_of(tops, 1)
    c = R.pile_height(state, 2) * 16 + top_of(tops, 2)
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return (state >> 6) | (a << 9) | (b << 15) | (c << 21) | (unseen << 27)


@jit
def _slot(memo, work, stamp, key):
    """The slot holding ``key``, or the free slot where it goes (its stamp tells which); -1 if
    the probe window is full."""
    work.key[0] = key
    return stamped_slot(memo.keys, work.key, np.int64(hash_word(key)), memo.stamps, stamp,
                        PROBES)


@jit
def rack_clearable(values, sums, target_mask):
    """For every rack mask, can rack cards alone clear it?"""
    out = np.zeros(1 << R.RACK, dtype=np.bool_)
    out[0] = True
    for present in range(1, 1 << R.RACK):  # every subset of a mask is a smaller number
        for idx in range(R.UPSET_START[present], R.UPSET_START[present + 1]):
            sub = R.UPSETS[idx]
            total = sums[sub]
            if sub != 0 and total < 63 and (target_mask >> total) & 1 and out[present & ~sub]:
                out[present] = True
                break
    return out


@jit
def _in_order(score, win, objective):
    """The value's two parts, the one the objective puts first first."""
    if objective == OBJECTIVE_SCORE:
        return score, win
    return win, score


@jit
def better(score_a, win_a, score_b, win_b, objective):
    """Is (score_a, win_a) strictly better than (score_b, win_b) for the objective?"""
    first_a, second_a = _in_order(score_a, win_a, objective)
    first_b, second_b = _in_order(score_b, win_b, objective)
    if first_a > first_b + TIE:
        return True
    if first_a < first_b - TIE:
        return False
    return second_a > second_b + TIE


@jit
def _may_beat(score, win, best_score, best_win, objective):
    """Could a value at most (score, win) in both parts be ``better`` than the best?"""
    first, second = _in_order(score, win, objective)
    best_first, best_second = _in_order(best_score, best_win, objective)
    return first > best_first + TIE or (first >= best_first - TIE and second > best_second + TIE)


@jit
def _remaining_mass(frames, d):
    """The probability of the draws chance frame ``d`` has still to try."""
    remaining = 0
    for value in range(frames[d, NEXT], 10):
        remaining += unseen_count(frames[d, UNSEEN], value)
    return remaining / frames[d, N_UNSEEN]


@jit
def _cut_chance(frames, frame_values, d, objective):
    """Stop the draws after a move (chance frame ``d`` and the chance frames it is nested in,
    one per pile the move drew from) when the move can no longer beat its decision's best,
    even if every draw still to come were worth a clear with every kitchen card left (and
    certain).  The move is then not chosen, as it would not have been after all its draws, so
    every value and choice stays as without the cut; the frames' partial values stay below
    that bound."""
    ceiling = CLEAR_SCORE + R.kitchen_left(frames[d, STATE])  # the same for every draw
    mass = _remaining_mass(frames, d)
    score = frame_values[d, 0] + mass * ceiling
    win = frame_values[d, 1] + mass
    top = d
    while frames[top - 1, KIND] == CHANCE:  # frame 0 is a decision
        top -= 1
        weight = unseen_count(frames[top, UNSEEN], frames[top, CHOICE] & 15) / frames[top, N_UNSEEN]
        mass = _remaining_mass(frames, top)
        score = frame_values[top, 0] + weight * score + mass * ceiling
        win = frame_values[top, 1] + weight * win + mass
    best_score, best_win = frame_values[top - 1, 0], frame_values[top - 1, 1]
    if best_win >= 0.0 and not _may_beat(score, win, best_score, best_win, objective):
        for i in range(top, d + 1):
            frames[i, NEXT] = 10


@jit
def _settled(state, clearable, bonus_always):
    """(known, score, win) for a position whose value needs no search."""
    present = state >> 6
    if present == 0:
        return True, float(R.final_score(state, bonus_always)), 1.0
    if clearable[present]:
        return True, float(CLEAR_SCORE + R.kitchen_left(state)), 1.0
    return False, 0.0, 0.0


@jit
def _set_frame(frames, d, kind, info, pending, first, choice):
    frames[d, KIND] = kind
    frames[d, STATE] = info.state
    frames[d, PENDING] = pending
    frames[d, TOPS] = info.tops
    frames[d, UNSEEN] = info.unseen
    frames[d, N_UNSEEN] = info.n_unseen
    frames[d, NEXT] = first
    frames[d, CHOICE] = choice


@jit
def _open_decision(work, d, info, key, problem):
    """Set up frame ``d`` to choose a move in an information state; returns the number of moves
    (0: the game is over here and frame_values[d] holds its value)."""
    frames, frame_values, values = work.frames, work.frame_values, problem.values
    state = info.state
    for p in range(R.PILES):  # the rack part of ``values`` is the deal's; tops as seen
        h = R.pile_height(state, p)
        if h > 0:
            values[R.kitchen_top_index(p, h)] = top_of(info.tops, p)
    n = R.legal_groups(state, values, problem.sums, problem.kitchen_limit, problem.target_mask,
                       work.groups[d])
    _set_frame(frames, d, DECISION, info, 0, 0, -1)
    frames[d, COUNT] = n
    frames[d, KEY] = key
    if n == 0 or problem.bonus_always:  # stopping is allowed (bonus_always) or forced (no move)
        frame_values[d, 0] = R.final_score(state, problem.bonus_always)
        frame_values[d, 1] = 1.0 if state >> 6 == 0 else 0.0
    else:
        frame_values[d, 0] = -1.0
        frame_values[d, 1] = -1.0
    return n


@jit
def _next_move(frames, frame_values, groups, d, objective):
    """The next move of decision frame ``d`` that may beat its best so far, and what it leads
    to: (found, state after it, piles to draw a card for, tops, unseen, n_unseen)."""
    state = frames[d, STATE]
    while frames[d, NEXT] < frames[d, COUNT]:
        group = groups[d, frames[d, NEXT]]
        frames[d, NEXT] += 1
        child = R.apply_group(state, group)
        # The best a move can do: a certain clear with every kitchen card it leaves.
        if _may_beat(CLEAR_SCORE + R.kitchen_left(child), 1.0, frame_values[d, 0],
                     frame_values[d, 1], objective):
            tops = frames[d, TOPS]
            pending = 0
            for p in range(R.PILES):
                if group >> (R.RACK + p) & 1:
                    if R.pile_height(child, p) > 0:
                        pending |= 1 << p
                    else:
                        tops = with_top(tops, p, 0)
            return True, child, pending, tops, frames[d, UNSEEN], frames[d, N_UNSEEN]
    return False, state, 0, 0, 0, 0


@jit
def _next_draw(frames, d):
    """The next card value chance frame ``d`` turns up on its pile, and what follows: (found,
    state, piles still to draw for, tops, unseen, n_unseen)."""
    p = frames[d, CHOICE] >> 4
    value = frames[d, NEXT]
    unseen = frames[d, UNSEEN]
    while value <= 9 and unseen_count(unseen, value) == 0:
        value += 1
    if value > 9:
        return False, frames[d, STATE], 0, 0, 0, 0
    frames[d, NEXT] = value + 1
    frames[d, CHOICE] = (p << 4) | value
    return (True, frames[d, STATE], frames[d, PENDING] & ~(1 << p),
            with_top(frames[d, TOPS], p, value), unseen - (1 << (2 * (value - 1))),
            frames[d, N_UNSEEN] - 1)


@jit
def _remember(memo, work, stamp, key, score, win):
    slot = _slot(memo, work, stamp, key)
    if slot >= 0:
        memo.keys[slot, 0] = key
        memo.stamps[slot] = stamp
        memo.score[slot] = score
        memo.win[slot] = win
    else:
        work.counter[1] = 1  # the memo overflowed


@jit
def _hand_up(frames, frame_values, groups, d, score, win, objective):
    """Give a child's value to frame ``d``, its parent: a decision keeps the better move, a
    chance frame adds the value weighted by the draw's probability."""
    if frames[d, KIND] == DECISION:
        if better(score, win, frame_values[d, 0], frame_values[d, 1], objective):
            frame_values[d, 0] = score
            frame_values[d, 1] = win
            frames[d, CHOICE] = groups[d, frames[d, NEXT] - 1]
    else:
        value = frames[d, CHOICE] & 15
        weight = unseen_count(frames[d, UNSEEN], value) / frames[d, N_UNSEEN]
        frame_values[d, 0] += weight * score
        frame_values[d, 1] += weight * win
        _cut_chance(frames, frame_values, d, objective)


@jit
def decide(root, problem, memo, stamp, work):
    """The optimal move in an information state (``root``, an ``Info``) and its value: (score,
    win, group; -1 when the best is to stop or no move exists).  Every state below is memoised
    (generation ``stamp`` of ``memo``)."""
    groups, frames = work.groups, work.frames
    frame_values, counter = work.frame_values, work.counter
    objective = problem.objective
    _open_decision(work, 0, root, info_key(root.state, root.tops, root.unseen), problem)
    counter[0] += 1
    sp = 1
    while True:
        # Advance the top frame by one child: either its value is known at once (memo, end of
        # game, rack clearable, or the frame is finished) or a frame for it is pushed.
        d = sp - 1
        if frames[d, KIND] == DECISION:
            found, child, pending, tops, unseen, n_unseen = _next_move(frames, frame_values,
                                                                       groups, d, objective)
        else:
            found, child, pending, tops, unseen, n_unseen = _next_draw(frames, d)
        if not found:
            score, win = frame_values[d, 0], frame_values[d, 1]
            if frames[d, KIND] == DECISION:
                _remember(memo, work, stamp, frames[d, KEY], score, win)
            sp -= 1
            if sp == 0:
                return score, win, frames[0, CHOICE]
        elif pending != 0:
            low = 0
            while not (pending >> low) & 1:
                low += 1
            # The pile drawn for first, and the card values to try from 1.
            _set_frame(frames, sp, CHANCE, Info(child, tops, unseen, n_unseen), pending, 1,
                       low << 4)
            frame_values[sp, 0] = 0.0
            frame_values[sp, 1] = 0.0
            sp += 1
            continue
        else:
            known, score, win = _settled(child, problem.clearable, problem.bonus_always)
            if not known:
                key = info_key(child, tops, unseen)
                slot = _slot(memo, work, stamp, key)
                if slot >= 0 and memo.stamps[slot] == stamp:
                    score, win = memo.score[slot], memo.win[slot]
                else:
                    counter[0] += 1
                    if _open_decision(work, sp, Info(child, tops, unseen, n_unseen), key,
                                      problem) > 0:
                        sp += 1
                        continue
                    score, win = frame_values[sp, 0], frame_values[sp, 1]
        _hand_up(frames, frame_values, groups, sp - 1, score, win, objective)


@jit
def nopeek(deal, rules, objective, memo, stamp, work, line):
    """The optimal no-peek policy of ``deal``: its exact values, then the policy played on the
    real cards (``rules``: ``R.rule_params``).  Returns (expected score, win probability,
    realised score, information states expanded, line length, memo overflowed)."""
    kitchen_limit, target_mask, bonus_always = rules
    deal_values = R.card_values(deal)
    values = deal_values.copy()  # what the player sees: the rack, and the tops set per state
    values[R.RACK:] = 0
    sums = R.rack_sums(deal_values)
    clearable = rack_clearable(deal_values, sums, target_mask)
    state = R.INITIAL_STATE
    tops = 0
    unseen = 0
    for i in range(R.RACK, R.N_CARDS):
        unseen += 1 << (2 * (deal_values[i] - 1))
    for p in range(R.PILES):
        value = deal_values[R.kitchen_top_index(p, R.PILE_DEPTH)]
        tops = with_top(tops, p, value)
        unseen -= 1 << (2 * (value - 1))
    n_unseen = R.N_CARDS - R.RACK - R.PILES
    problem = Problem(values, sums, clearable, kitchen_limit, target_mask, bonus_always,
                      objective)
    counter = work.counter
    counter[:] = 0
    expected = 0.0
    win = 0.0
    length = 0
    while True:
        score, cleared, group = decide(Info(state, tops, unseen, n_unseen), problem, memo,
                                       stamp, work)
        if length == 0:
            expected, win = score, cleared
        if group < 0:
            break
        line[length] = group
        length += 1
        child = R.apply_group(state, group)
        for p in range(R.PILES):
            if group >> (R.RACK + p) & 1:
                h = R.pile_height(child, p)
                value = deal_values[R.kitchen_top_index(p, h)] if h > 0 else 0
                tops = with_top(tops, p, value)
                if h > 0:
                    unseen -= 1 << (2 * (value - 1))
                    n_unseen -= 1
        state = child
    return expected, win, R.final_score(state, bonus_always), counter[0], length, counter[1] != 0


def info_at(deal_values: np.ndarray, state: int) -> Info:
    """What the player sees in ``state`` of a deal (``deal_values``: ``R.card_values``): each
    pile's top, and the cards under the tops as unseen counts per value (the cards ``nopeek``
    has not seen turned up by then)."""
    tops = unseen = n_unseen = 0
    for p in range(R.PILES):
        height = int(R.pile_height(state, p))
        if height > 0:
            tops |= int(deal_values[R.kitchen_top_index(p, height)]) << (4 * p)
        for depth in range(height - 1):
            unseen += 1 << (2 * (int(deal_values[R.RACK + R.PILE_DEPTH * p + depth]) - 1))
            n_unseen += 1
    return Info(int(state), tops, unseen, n_unseen)


def decide_at(deal: np.ndarray, state: int, rules, objective: int, scratch: Scratch):
    """The optimal no-peek decision in ``state`` of ``deal`` (``rules``: ``R.rule_params``):
    (expected score, win probability, group; -1 to stop or when no move exists), as ``nopeek``
    decides it there."""
    kitchen_limit, target_mask, bonus_always = rules
    deal_values = R.card_values(deal)
    values = deal_values.copy()
    values[R.RACK:] = 0  # the player's view: the tops are set per state
    sums = R.rack_sums(deal_values)
    problem = Problem(values, sums, rack_clearable(deal_values, sums, target_mask),
                      kitchen_limit, target_mask, bonus_always, objective)
    scratch.work.counter[:] = 0
    score, win, group = decide(info_at(deal_values, state), problem, scratch.memo,
                               scratch.generation.next(), scratch.work)
    return float(score), float(win), int(group)
