"""Plain-Python reference implementation of the rules of "Nineball Solitaire".

Written independently from the rules text, for cross-checking the fast engine.
Slow but (hopefully) obviously correct.  Standard library only.

Layout (deck positions are 1-based in the rules, 0-based here):

    rack (deck cards 1-9), a 1-2-3-2-1 diamond:

                 0
               1   2
             3   4   5
               6   7
                 8

    A card is covered by the card(s) diagonally *below* it in this drawing
    (cards 2 and 3 cover card 1, ...); initially only card 9 (index 8) is free.

    kitchen (deck cards 10-18): three piles of three, listed bottom to top;
    only the top card of each pile is usable.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass

RANKS = "A23456789"
SUITS = "HD"
CARDS = [rank + suit for suit in SUITS for rank in RANKS]
VALUE = {rank + suit: RANKS.index(rank) + 1 for rank in RANKS for suit in SUITS}

# COVERED_BY[i] = rack indices (0-based) of the cards lying on rack card i.
COVERED_BY = {
    0: (1, 2),
    1: (3, 4),
    2: (4, 5),
    3: (6,),
    4: (6, 7),
    5: (7,),
    6: (8,),
    7: (8,),
    8: (),
}

DEFAULT_TARGETS = (9, 19)
KITCHEN_BONUSES = ("on_clear", "always")


class IllegalMove(Exception):
    """A move (or a replay) that breaks the rules."""


@dataclass(frozen=True)
class Position:
    """rack: 9 entries in deck order, the card code if still present else None.
    kitchen: 3 piles, each a tuple of codes from bottom to top (last = top)."""

    rack: tuple
    kitchen: tuple

    def rack_present(self) -> frozenset:
        """Rack indices (0-based) still present."""
        return frozenset(i for i, c in enumerate(self.rack) if c is not None)

    def kitchen_tops(self) -> list:
        """(pile index, top card code) for each non-empty pile."""
        return [(p, pile[-1]) for p, pile in enumerate(self.kitchen) if pile]


# ---------------------------------------------------------------------------
# parsing / setup
# ---------------------------------------------------------------------------

def normalise_code(code: str) -> str:
    c = str(code).strip().upper()
    if c not in VALUE:
        raise ValueError(f"unknown card code {code!r}")
    return c


def _check_deal(deal) -> list:
    cards = [normalise_code(c) for c in deal]
    if len(cards) != 18:
        raise ValueError(f"a deal has 18 cards, got {len(cards)}")
    if sorted(cards) != sorted(CARDS):
        raise ValueError(f"a deal must contain each of the 18 cards exactly once: {cards}")
    return cards


def initial_position(deal) -> Position:
    cards = _check_deal(deal)
    rack = tuple(cards[0:9])
    kitchen = (tuple(cards[9:12]), tuple(cards[12:15]), tuple(cards[15:18]))
    return Position(rack=rack, kitchen=kitchen)


def _targets(targets) -> frozenset:
    return frozenset(int(t) for t in targets)


def _check_kpg(kitchen_per_group) -> int:
    k = int(kitchen_per_group)
    if k not in (1, 2, 3):
        raise ValueError(f"kitchen_per_group must be 1, 2 or 3, got {kitchen_per_group!r}")
    return k


# ---------------------------------------------------------------------------
# move generation
# ---------------------------------------------------------------------------

def _rack_part_ok(present: frozenset, chosen: frozenset) -> bool:
    """A rack card may be chosen only if every present card covering it is chosen too."""
    for i in chosen:
        if i not in present:
            return False
        for j in COVERED_BY[i]:
            if j in present and j not in chosen:
                return False
    return True


def _removable_rack_subsets(present: frozenset) -> list:
    """All subsets (incl. the empty set) of the present rack cards satisfying the cover rule.
    Brute force over every subset."""
    items = sorted(present)
    result = []
    for r in range(len(items) + 1):
        for combo in itertools.combinations(items, r):
            chosen = frozenset(combo)
            if _rack_part_ok(present, chosen):
                result.append(chosen)
    return result


_RACK_SUBSET_CACHE: dict = {}


def _removable_rack_subsets_cached(present: frozenset) -> list:
    if present not in _RACK_SUBSET_CACHE:
        _RACK_SUBSET_CACHE[present] = _removable_rack_subsets(present)
    return _RACK_SUBSET_CACHE[present]


def legal_groups(pos: Position, kitchen_per_group=3, targets=DEFAULT_TARGETS) -> list:
    """Every legal group at pos, as frozensets of card codes (no duplicates).
    No moves once the rack is cleared."""
    kpg = _check_kpg(kitchen_per_group)
    tg = _targets(targets)
    if rack_cleared(pos):
        return []
    present = pos.rack_present()
    tops = [code for _, code in pos.kitchen_tops()]
    kitchen_choices = []
    for r in range(0, min(kpg, len(tops)) + 1):
        kitchen_choices.extend(itertools.combinations(tops, r))
    groups = []
    seen = set()
    for rack_idx in _removable_rack_subsets_cached(present):
        rack_cards = [pos.rack[i] for i in rack_idx]
        rack_sum = sum(VALUE[c] for c in rack_cards)
        for kcards in kitchen_choices:
            if not rack_cards and not kcards:
                continue
            total = rack_sum + sum(VALUE[c] for c in kcards)
            if total in tg:
                g = frozenset(rack_cards) | frozenset(kcards)
                if g not in seen:
                    seen.add(g)
                    groups.append(g)
    return groups


def apply_group(pos: Position, group) -> Position:
    """Remove the cards of group (assumed legal; minimal sanity checks only)."""
    group = frozenset(normalise_code(c) for c in group)
    rack = list(pos.rack)
    kitchen = [list(pile) for pile in pos.kitchen]
    for code in group:
        if code in rack:
            rack[rack.index(code)] = None
        else:
            for pile in kitchen:
                if pile and pile[-1] == code:
                    pile.pop()
                    break
            else:
                raise IllegalMove(f"card {code} is not available")
    return Position(rack=tuple(rack), kitchen=tuple(tuple(p) for p in kitchen))


# ---------------------------------------------------------------------------
# end of game / scoring
# ---------------------------------------------------------------------------

def rack_cleared(pos: Position) -> bool:
    return all(c is None for c in pos.rack)


def rack_removed(pos: Position) -> int:
    return sum(1 for c in pos.rack if c is None)


def kitchen_remaining(pos: Position) -> int:
    return sum(len(pile) for pile in pos.kitchen)


def score(pos: Position, kitchen_bonus="on_clear") -> int:
    if kitchen_bonus not in KITCHEN_BONUSES:
        raise ValueError(f"kitchen_bonus must be one of {KITCHEN_BONUSES}, got {kitchen_bonus!r}")
    s = rack_removed(pos)
    cleared = rack_cleared(pos)
    if kitchen_bonus == "on_clear":
        if cleared:
            s += 10 + kitchen_remaining(pos)
    else:  # "always"
        s += kitchen_remaining(pos)
        if cleared:
            s += 10
    return s


def is_over(pos: Position, kitchen_per_group=3, targets=DEFAULT_TARGETS) -> bool:
    if rack_cleared(pos):
        return True
    return len(legal_groups(pos, kitchen_per_group, targets)) == 0


# ---------------------------------------------------------------------------
# exhaustive searches
# ---------------------------------------------------------------------------

def best_score(deal, kitchen_per_group=3, targets=DEFAULT_TARGETS, kitchen_bonus="on_clear") -> int:
    """Best achievable score over all lines of play.
    on_clear: the game runs until the rack is cleared or no move exists.
    always:   the player may also stop at any position."""
    if kitchen_bonus not in KITCHEN_BONUSES:
        raise ValueError(f"kitchen_bonus must be one of {KITCHEN_BONUSES}, got {kitchen_bonus!r}")
    memo: dict = {}

    def best(pos: Position) -> int:
        if pos in memo:
            return memo[pos]
        groups = [] if rack_cleared(pos) else legal_groups(pos, kitchen_per_group, targets)
        if not groups:
            result = score(pos, kitchen_bonus)
        else:
            children = [best(apply_group(pos, g)) for g in groups]
            result = max(children)
            if kitchen_bonus == "always":
                result = max(result, score(pos, kitchen_bonus))  # stop here
        memo[pos] = result
        return result

    return best(initial_position(deal))


def can_win(deal, kitchen_per_group=3, targets=DEFAULT_TARGETS) -> bool:
    """Does any line of play clear the rack?"""
    memo: dict = {}

    def win(pos: Position) -> bool:
        if rack_cleared(pos):
            return True
        if pos in memo:
            return memo[pos]
        result = any(win(apply_group(pos, g)) for g in legal_groups(pos, kitchen_per_group, targets))
        memo[pos] = result
        return result

    return win(initial_position(deal))


# ---------------------------------------------------------------------------
# replay of a recorded line
# ---------------------------------------------------------------------------

def parse_move(move: str) -> list:
    """Split "2H+7d" into ["2H", "7D"] (no validation beyond normalising case/space)."""
    return [part.strip().upper() for part in str(move).split("+")]


def replay(deal, moves, kitchen_per_group=3, targets=DEFAULT_TARGETS, kitchen_bonus="on_clear",
           require_finished=True) -> int:
    kpg = _check_kpg(kitchen_per_group)
    tg = _targets(targets)
    if kitchen_bonus not in KITCHEN_BONUSES:
        raise ValueError(f"kitchen_bonus must be one of {KITCHEN_BONUSES}, got {kitchen_bonus!r}")
    pos = initial_position(deal)
    for n, move in enumerate(moves):
        where = f"move {n} ({move!r})"
        if is_over(pos, kpg, tg):
            why = "the rack is cleared" if rack_cleared(pos) else "no legal move exists"
            raise IllegalMove(f"{where}: the game has already ended ({why})")
        codes = parse_move(move)
        for code in codes:
            if code == "":
                raise IllegalMove(f"{where}: empty card in move")
            if code not in VALUE:
                raise IllegalMove(f"{where}: unknown card {code!r}")
        dupes = [c for c, k in Counter(codes).items() if k > 1]
        if dupes:
            raise IllegalMove(f"{where}: card {dupes[0]} appears more than once")
        group = frozenset(codes)
        present = pos.rack_present()
        rack_index = {pos.rack[i]: i for i in present}
        tops = {code for _, code in pos.kitchen_tops()}
        in_kitchen_anywhere = {c for pile in pos.kitchen for c in pile}
        chosen_rack = set()
        kitchen_cards = []
        for code in codes:
            if code in rack_index:
                chosen_rack.add(rack_index[code])
            elif code in tops:
                kitchen_cards.append(code)
            elif code in in_kitchen_anywhere:
                raise IllegalMove(f"{where}: card {code} is in the kitchen but not on top of its pile")
            else:
                raise IllegalMove(f"{where}: card {code} is not available (already removed)")
        for i in sorted(chosen_rack):
            for j in COVERED_BY[i]:
                if j in present and j not in chosen_rack:
                    raise IllegalMove(
                        f"{where}: card {pos.rack[i]} is covered by {pos.rack[j]}, "
                        f"which is not in the group")
        if len(kitchen_cards) > kpg:
            raise IllegalMove(
                f"{where}: {len(kitchen_cards)} kitchen cards ({'+'.join(kitchen_cards)}) "
                f"but at most {kpg} allowed per group")
        total = sum(VALUE[c] for c in codes)
        if total not in tg:
            raise IllegalMove(f"{where}: cards sum to {total}, not one of {sorted(tg)}")
        # Cross-check against the generator (should never fire).
        assert group in set(legal_groups(pos, kpg, tg)), (where, group)
        pos = apply_group(pos, group)
    if require_finished and kitchen_bonus == "on_clear" and not is_over(pos, kpg, tg):
        raise IllegalMove(
            f"after {len(moves)} moves the game is not over "
            f"(legal groups remain, e.g. {'+'.join(sorted(legal_groups(pos, kpg, tg)[0]))})")
    return score(pos, kitchen_bonus)


def random_deal(rng: random.Random) -> list:
    deal = list(CARDS)
    rng.shuffle(deal)
    return deal


def worked_example_deal() -> list:
    return ["8H", "8D", "4H", "AH", "5H", "3H", "7H", "3D", "2H",
            "AD", "2D", "4D", "5D", "6H", "9H", "7D", "6D", "9D"]


# ---------------------------------------------------------------------------
# self-check
# ---------------------------------------------------------------------------
