"""Plain-Python reference of the optimal *no-peek* Nineball Solitaire player (expectimax).

Written independently from the fast engine, for cross-checking it.  Slow but (hopefully)
obviously correct.  Standard library only; the rules (legal groups, scoring) come from
``tests/reference/nineball_ref.py``.

The no-peek player sees the rack, the face-up tops of the kitchen piles and every kitchen card
turned so far.  To it the face-down kitchen cards are a uniformly random arrangement of the
*unseen* cards: the kitchen cards minus the three initial tops minus every card turned since.
(The rack is all face up, so the unseen set is exactly the set of face-down kitchen cards.)

Information state, see ``InfoState``:
    rack     9 entries in deck order, the card code if still present else None
    heights  the number of cards in each of the 3 piles
    tops     the face-up top card of each pile (None for an empty pile)
    unseen   frozenset of the face-down kitchen cards (their positions are unknown)
The invariant ``len(unseen) == sum(max(h - 1, 0) for h in heights)`` always holds.
The memo key is its canonical form (``NoPeekSolver.memo_key``): card values instead of codes
(suits never matter) and the (height, top) pairs of the piles sorted (piles are interchangeable).

Expectimax:
    decision node  every legal group (plus "stop" when kitchen_bonus="always");
    chance node    after a group, every pile whose top was used and which still has cards turns
                   up its next card: successive draws without replacement from ``unseen``, each
                   ordered outcome equally likely (probability (n-m)!/n! for m draws from n);
    terminal       rack cleared, or no legal group: (score, 1 if cleared else 0).
Each state's value is the pair (expected score, win probability) under the optimal policy, with
the choice made lexicographically on (primary, secondary):
    objective "score": (expected score, win probability)
    objective "win":   (win probability, expected score)
One traversal serves both objectives: the states and the chance outcomes are the same, only the
choice at decision nodes differs, so each state's memo entry holds one pair per objective (in
``OBJECTIVES`` order) and the choice is made once for each.
All arithmetic is exact: integers scaled by n! (n = unseen cards, see ``NoPeekSolver``), turned
into ``fractions.Fraction`` at the end; the public functions convert to float.

Value identity (tests/test_references.py checks it): the policy only looks at the information state, so
playing it (``nopeek_play``) on each of the 6! arrangements of the face-down cards and averaging
must give exactly ``nopeek_values``.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction
from typing import NamedTuple

from tests.reference import nineball_ref as ref

OBJECTIVES = ("score", "win")

# Deck indices (0-based) of the face-down kitchen slots at the start: the bottom two of each pile.
HIDDEN_SLOTS = (9, 10, 12, 13, 15, 16)


class InfoState(NamedTuple):
    rack: tuple      # 9 entries, card code or None
    heights: tuple   # 3 pile heights
    tops: tuple      # 3 top codes (None when the pile is empty)
    unseen: frozenset

    def visible_position(self) -> ref.Position:
        """A nineball_ref.Position with the face-down cards replaced by None placeholders.
        Enough for legal_groups (only tops matter) and score (only pile sizes matter)."""
        piles = tuple((None,) * (h - 1) + (t,) if h else () for h, t in zip(self.heights, self.tops))
        return ref.Position(rack=self.rack, kitchen=piles)


def initial_info_state(deal) -> InfoState:
    pos = ref.initial_position(deal)
    kitchen_cards = frozenset(c for pile in pos.kitchen for c in pile)
    tops = tuple(pile[-1] for pile in pos.kitchen)
    return InfoState(rack=pos.rack, heights=(3, 3, 3), tops=tops,
                     unseen=kitchen_cards - frozenset(tops))


def _check_args(objective, kitchen_per_group, targets, kitchen_bonus):
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    if kitchen_bonus not in ref.KITCHEN_BONUSES:
        raise ValueError(f"kitchen_bonus must be one of {ref.KITCHEN_BONUSES}, got {kitchen_bonus!r}")
    return ref._check_kpg(kitchen_per_group), tuple(sorted(ref._targets(targets)))


_VALUE_OR_0 = {**ref.VALUE, None: 0}

# The rack and the unseen set of a state recur across many states: their canonical forms (the
# hot part of ``memo_key``) are computed once each.
@functools.cache
def _values_of(rack: tuple) -> tuple:
    return tuple(_VALUE_OR_0[c] for c in rack)


@functools.cache
def _sorted_values_of(unseen: frozenset) -> tuple:
    return tuple(sorted(_VALUE_OR_0[c] for c in unseen))


STOP = "stop"  # the pseudo-move "stop here" (kitchen_bonus="always" only)


class NoPeekSolver:
    """Expectimax over information states for one set of flags, for every objective at once
    (``objective``: the default of ``value`` and ``best_moves``).  The memo is valid for any
    deal (states carry everything the player knows)."""

    def __init__(self, objective="score", kitchen_per_group=3, targets=ref.DEFAULT_TARGETS,
                 kitchen_bonus="on_clear", canonical=True):
        self.canonical = canonical   # False: memo on the raw InfoState (slower; for the check)
        self.kpg, self.targets = _check_args(objective, kitchen_per_group, targets, kitchen_bonus)
        self.objective = objective
        self.kitchen_bonus = kitchen_bonus
        self.memo: dict = {}      # memo_key(state) -> scaled (E, P) per objective
        self._groups: dict = {}   # (rack, set of tops) -> legal groups

    # -- ordering -----------------------------------------------------------------------------
    @staticmethod
    def key(value, objective) -> tuple:
        e, p = value
        return (e, p) if objective == "score" else (p, e)

    # -- model --------------------------------------------------------------------------------
    def groups(self, s: InfoState) -> list:
        """Legal groups at s, as sorted tuples of codes, in a fixed (sorted) order.
        They depend only on the rack and the set of tops, hence the cache."""
        k = (s.rack, frozenset(t for t in s.tops if t is not None))
        if k not in self._groups:
            gs = ref.legal_groups(s.visible_position(), self.kpg, self.targets)
            self._groups[k] = sorted(tuple(sorted(g)) for g in gs)
        return self._groups[k]

    def terminal_value(self, s: InfoState) -> tuple:
        """(score, 1 if the rack is cleared else 0) of ending the game at s."""
        pos = s.visible_position()
        return (ref.score(pos, self.kitchen_bonus), 1 if ref.rack_cleared(pos) else 0)

    @staticmethod
    def after_group(s: InfoState, group) -> tuple:
        """(rack, heights, piles to turn) after removing group, before any card is turned."""
        group = set(group)
        rack = tuple(None if c in group else c for c in s.rack)
        heights = list(s.heights)
        turn = []
        for p in range(3):
            if s.tops[p] is not None and s.tops[p] in group:
                heights[p] -= 1
                if heights[p] > 0:
                    turn.append(p)
        return rack, tuple(heights), turn

    def outcomes(self, s: InfoState, group) -> list:
        """Every chance outcome of playing group at s: a list of equally likely InfoStates
        (one per ordered draw of the turned cards from the unseen set)."""
        rack, heights, turn = self.after_group(s, group)
        result = []
        for drawn in itertools.permutations(sorted(s.unseen), len(turn)):
            tops = list(s.tops)
            for p in range(3):
                if heights[p] == 0:
                    tops[p] = None
            for p, c in zip(turn, drawn):
                tops[p] = c
            result.append(InfoState(rack, heights, tuple(tops), s.unseen - frozenset(drawn)))
        n, m = len(s.unseen), len(turn)
        assert len(result) == math.perm(n, m) >= 1, (s, group)
        return result

    # -- values -------------------------------------------------------------------------------
    #
    # Exact arithmetic with plain integers.  At a state with n unseen cards every chance outcome
    # of a group that turns m cards has probability (n-m)!/n!, and the child has n-m unseen
    # cards.  So if each state's value is stored *scaled by n!* (n = its own unseen count),
    #     scaled(s, group) = n! * sum_o (n-m)!/n! * value(o) = sum_o scaled(o),
    # an integer; all choices at one state share the scale n!, so comparing the scaled pairs
    # is comparing the true pairs.  value() divides the scale back out (as Fractions).

    @staticmethod
    def memo_key(s: InfoState) -> tuple:
        """Canonical form of s: the future depends only on card values (not suits) and not on
        the order of the piles."""
        v = _VALUE_OR_0
        return (_values_of(s.rack),
                tuple(sorted((h, v[t]) for h, t in zip(s.heights, s.tops))),
                _sorted_values_of(s.unseen))

    def group_scaled(self, s: InfoState, group) -> tuple:
        """len(s.unseen)! * (expected score, win probability) of playing group at s, one pair
        per objective."""
        totals = [[0, 0] for _ in OBJECTIVES]
        for o in self.outcomes(s, group):
            for total, (oe, op) in zip(totals, self.scaled(o)):
                total[0] += oe
                total[1] += op
        return tuple(tuple(total) for total in totals)

    def scaled_options(self, s: InfoState) -> list:
        """[(move, len(s.unseen)! * (E, P) per objective)] for every choice at s: each legal
        group in sorted order, then STOP if allowed.  Empty when the game is over (rack cleared or no group)."""
        gs = self.groups(s)   # legal_groups is empty once the rack is cleared
        if not gs:
            return []
        opts = [(g, self.group_scaled(s, g)) for g in gs]
        if self.kitchen_bonus == "always":
            f = math.factorial(len(s.unseen))
            e, p = self.terminal_value(s)
            opts.append((STOP, ((e * f, p * f),) * len(OBJECTIVES)))
        return opts

    def scaled(self, s: InfoState) -> tuple:
        """len(s.unseen)! * (E, P) of s under each objective's optimal policy (memoised)."""
        k = self.memo_key(s) if self.canonical else s
        if k in self.memo:
            return self.memo[k]
        assert len(s.unseen) == sum(max(h - 1, 0) for h in s.heights), s
        opts = self.scaled_options(s)
        if not opts:
            f = math.factorial(len(s.unseen))
            e, p = self.terminal_value(s)
            v = ((e * f, p * f),) * len(OBJECTIVES)
        else:
            v = tuple(max((val[i] for _, val in opts), key=lambda x: self.key(x, objective))
                      for i, objective in enumerate(OBJECTIVES))
        self.memo[k] = v
        return v

    def value(self, s: InfoState, objective=None) -> tuple:
        """(E, P) of s under the optimal policy for ``objective``, as Fractions."""
        objective = objective or self.objective
        f = math.factorial(len(s.unseen))
        e, p = self.scaled(s)[OBJECTIVES.index(objective)]
        return Fraction(e, f), Fraction(p, f)

    def best_moves(self, s: InfoState, objective=None) -> list:
        """Every optimal choice at s for ``objective`` (ties on (primary, secondary)), in the
        fixed order."""
        objective = objective or self.objective
        i = OBJECTIVES.index(objective)
        opts = self.scaled_options(s)
        if not opts:
            return []
        best = max(self.key(val[i], objective) for _, val in opts)
        return [m for m, val in opts if self.key(val[i], objective) == best]


_SOLVERS: dict = {}


def _solver(objective, kitchen_per_group, targets, kitchen_bonus) -> NoPeekSolver:
    """The solver of these flags, shared by both objectives (one memo serves both)."""
    kpg, tg = _check_args(objective, kitchen_per_group, targets, kitchen_bonus)
    k = (kpg, tg, kitchen_bonus)
    if k not in _SOLVERS:
        _SOLVERS[k] = NoPeekSolver(objective, kpg, tg, kitchen_bonus)
    return _SOLVERS[k]


def clear_memo() -> None:
    _SOLVERS.clear()


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------

def nopeek_values_exact(deal, objective="score", kitchen_per_group=3, targets=ref.DEFAULT_TARGETS,
                        kitchen_bonus="on_clear") -> tuple:
    """(expected_score, win_probability) as Fractions."""
    solver = _solver(objective, kitchen_per_group, targets, kitchen_bonus)
    return solver.value(initial_info_state(deal), objective)


def nopeek_values(deal, objective="score", kitchen_per_group=3, targets=ref.DEFAULT_TARGETS,
                  kitchen_bonus="on_clear") -> tuple:
    """(expected_score, win_probability) of the optimal no-peek policy for `objective` in
    {"score", "win"}."""
    e, p = nopeek_values_exact(deal, objective, kitchen_per_group, targets, kitchen_bonus)
    return float(e), float(p)


def nopeek_play(deal, objective="score", kitchen_per_group=3, targets=ref.DEFAULT_TARGETS,
                kitchen_bonus="on_clear") -> tuple:
    """Play the optimal no-peek policy on the actual deal: (final score, list of groups played,
    each a list of card codes).  Choices consult only information-state values; among tied
    moves the first in sorted order is taken.  The actual deal only decides which card turns up."""
    solver = _solver(objective, kitchen_per_group, targets, kitchen_bonus)
    pos = ref.initial_position(deal)          # the real position (hidden cards known)
    s = initial_info_state(deal)              # what the player knows
    played = []
    while True:
        moves = solver.best_moves(s, objective)
        if not moves or moves[0] == STOP:
            break
        group = moves[0]
        assert frozenset(group) in set(ref.legal_groups(pos, solver.kpg, solver.targets))
        pos = ref.apply_group(pos, group)
        played.append(list(group))
        # The player observes the new tops; the info state must be one of the chance outcomes.
        tops = tuple(pile[-1] if pile else None for pile in pos.kitchen)
        nxt = [o for o in solver.outcomes(s, group) if o.tops == tops]
        assert len(nxt) == 1, (s, group, tops)
        s = nxt[0]
        assert s.rack == pos.rack and s.heights == tuple(len(p) for p in pos.kitchen)
    final = ref.score(pos, kitchen_bonus)
    assert final == solver.terminal_value(s)[0]
    return final, played


# ---------------------------------------------------------------------------
# helpers for the checks
# ---------------------------------------------------------------------------

def arrangements(deal):
    """Every deal with the same rack and kitchen tops and the face-down cards permuted
    (6! = 720 deals, the actual one included)."""
    cards = [ref.normalise_code(c) for c in deal]
    hidden = [cards[i] for i in HIDDEN_SLOTS]
    for perm in itertools.permutations(hidden):
        d = list(cards)
        for i, c in zip(HIDDEN_SLOTS, perm):
            d[i] = c
        yield d


def kitchen_irrelevant_deal() -> list:
    """A deal whose rack is cleared by rack cards alone:
    9H | 9D | 8H+AH | 7H+2H | 8D+7D+4D (= 19), removed in that order."""
    rack = ["8D", "7D", "4D", "AH", "7H", "2H", "8H", "9D", "9H"]
    kitchen = [c for c in ref.CARDS if c not in rack]
    return rack + kitchen
