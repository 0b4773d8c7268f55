"""Nineball Solitaire (Edgar Williams, 2009): what the game is.

Rules (defaults; docs/nineball.md gives the reasoning behind each):

* 18 cards: A-9 of diamonds and hearts; the value is the rank, A = 1.
* Deck cards 1-9 form the rack, a 1-2-3-2-1 diamond in row order (row 1 = card 1; row 2 =
  cards 2, 3; row 3 = cards 4-6; row 4 = cards 7, 8; row 5 = card 9).  Each card lies on the
  one or two cards diagonally above it: 2 and 3 cover 1; 4 covers 2; 5 covers 2 and 3; 6 covers
  3; 7 covers 4 and 5; 8 covers 5 and 6; 9 covers 7 and 8.
* Deck cards 10-18 form the kitchen: 10-12 are pile 1 bottom to top, 13-15 pile 2, 16-18 pile
  3.  Only the top card of a pile is face up.
* A move removes a group of cards whose values sum to a target (9 or 19).  A rack card may be in
  a group only if every card still covering it is in the same group.  From the kitchen only the
  face-up top of a pile may be used; the card under it turns up for later groups.  A group may
  be one card, and may be kitchen cards only.
* The game ends when the rack is empty (a win) or no move exists.  Score: 1 per rack card
  removed; if the rack is cleared, +10 and +1 per card still in the kitchen (maximum 28).

Flags: ``kitchen_per_group`` (1-3, default 3 = no limit beyond one card per pile),
``targets`` (default ``9,19``), ``kitchen_bonus`` (``on_clear`` default, or ``always``: the
kitchen bonus counts even without a clear, and the player may stop at any time).

State encoding (used by the solvers): one integer ``present * 64 + h1 * 16 + h2 * 4 + h3``
where ``present`` is the 9-bit mask of rack cards still on the table (bit i = deck card i+1) and
``h1..h3`` are the kitchen pile heights (0-3).  A group is encoded as ``rack_bits |
kitchen_pile_bits << 9``: the rack cards it removes and the piles whose top it uses.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..cards import card_id
from ..errors import IllegalMove
from ..jit import jit
from ..variants import choice_flag, int_flag, int_set_flag

NAME = "nineball"
TITLE = "Nineball Solitaire"
N_CARDS = 18
RACK = 9
PILES = 3
PILE_DEPTH = 3
FULL_RACK = (1 << RACK) - 1
N_STATES = (1 << RACK) * 64
INITIAL_STATE = FULL_RACK * 64 + 3 * 16 + 3 * 4 + 3
MAX_GROUPS = 512  # generous bound on legal groups in one position (the true maximum is < 200)
CLEARED_MIN_SCORE = RACK + 10  # a cleared rack scores at least this; no other end does

DECK = np.array(sorted(card_id(r, s) for s in "DH" for r in "A23456789"), dtype=np.int8)

FLAGS = {
    f.name: f
    for f in (
        int_flag("kitchen_per_group", 3, 1, 3,
                 "most kitchen cards in one group (3 = any, at most one per pile); 1 is the "
                 "reading under which the worked example of the text is consistent",
                 aliases={"any": 3}),
        int_set_flag("targets", (9, 19), 1, 45, "the sums a group may make",
                     values=("9", "19")),
        choice_flag("kitchen_bonus", "on_clear", ("on_clear", "always"),
                    "on_clear: the +1 per kitchen card counts only with a cleared rack (the "
                    "text's example); always: it always counts and the player may stop at any "
                    "time"),
    )
}

# COVERERS[i]: bitmask of the rack cards lying on rack card i (0-based deck position).
COVERERS = np.array(
    [0b000000110, 0b000011000, 0b000110000, 0b001000000, 0b011000000,
     0b010000000, 0b100000000, 0b100000000, 0],
    dtype=np.int64,
)
RACK_ROWS = ((0,), (1, 2), (3, 4, 5), (6, 7), (8,))


class RuleCodes(NamedTuple):
    """The rule flags as the kernels take them."""
    kitchen_limit: int    # kitchen_per_group
    target_mask: int      # bit t set: a group may sum to t
    bonus_always: bool    # kitchen_bonus=always


def rule_params(rules) -> RuleCodes:
    mask = 0
    for t in rules["targets"]:
        mask |= 1 << t
    return RuleCodes(int(rules["kitchen_per_group"]), mask, rules["kitchen_bonus"] == "always")


@jit
def _build_upsets(coverers):
    """For every present-mask, the subsets S that may leave the rack together: every present
    coverer of a card in S is in S.  CSR layout: sets[start[p]:start[p+1]] (empty set included)."""
    n_masks = 1 << 9
    counts = np.zeros(n_masks + 1, dtype=np.int64)
    buffer = np.empty(n_masks * n_masks, dtype=np.int16)
    total = 0
    for present in range(n_masks):
        counts[present] = total
        sub = present
        while True:
            ok = True
            rest = sub
            while rest:
                low = rest & -rest
                i = 0
                while (1 << i) != low:
                    i += 1
                if coverers[i] & present & ~sub:
                    ok = False
                    break
                rest ^= low
            if ok:
                buffer[total] = sub
                total += 1
            if sub == 0:
                break
            sub = (sub - 1) & present
    counts[n_masks] = total
    return counts, buffer[:total].copy()


UPSET_START, UPSETS = _build_upsets(COVERERS)


@jit
def card_values(deal):
    values = np.empty(deal.shape[0], dtype=np.int64)
    for i in range(deal.shape[0]):
        values[i] = deal[i] % 13 + 1
    return values


@jit
def rack_sums(values):
    """Sum of the rack cards of every 9-bit subset."""
    sums = np.zeros(1 << RACK, dtype=np.int64)
    for s in range(1, 1 << RACK):
        low = s & -s
        i = 0
        while (1 << i) != low:
            i += 1
        sums[s] = sums[s ^ low] + values[i]
    return sums


@jit
def pile_height(state, pile):
    return (state >> (2 * (2 - pile))) & 3


@jit
def kitchen_top_index(pile, height):
    """Deck index (0-based) of the top card of a kitchen pile of this height (> 0)."""
    return RACK + PILE_DEPTH * pile + height - 1


@jit
def kitchen_left(state):
    return (state & 3) + ((state >> 2) & 3) + ((state >> 4) & 3)


@jit
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit
def legal_groups(state, values, sums, kitchen_limit, target_mask, out):
    """Write every legal group of ``state`` into ``out``; return how many.  ``sums`` is
    ``rack_sums(values)``."""
    present = state >> 6
    if present == 0:
        return 0  # the rack is cleared: the game is over
    # The sum of the pile tops of every kitchen subset k (bit p = pile p); -1: a pile is empty.
    h1, h2, h3 = pile_height(state, 0), pile_height(state, 1), pile_height(state, 2)
    t1 = values[kitchen_top_index(0, h1)] if h1 > 0 else -1
    t2 = values[kitchen_top_index(1, h2)] if h2 > 0 else -1
    t3 = values[kitchen_top_index(2, h3)] if h3 > 0 else -1
    n = 0
    for k in range(1 << PILES):
        if popcount(k) > kitchen_limit:
            continue
        ksum = 0
        if k & 1:
            if t1 < 0:
                continue
            ksum += t1
        if k & 2:
            if t2 < 0:
                continue
            ksum += t2
        if k & 4:
            if t3 < 0:
                continue
            ksum += t3
        for idx in range(UPSET_START[present], UPSET_START[present + 1]):
            sub = UPSETS[idx]
            if sub == 0 and k == 0:
                continue
            total = sums[sub] + ksum
            if total < 63 and (target_mask >> total) & 1:
                out[n] = sub | (k << RACK)
                n += 1
    return n


@jit
def apply_group(state, group):
    rack = group & FULL_RACK
    new = state & ~(rack << 6)
    for p in range(PILES):
        if group >> (RACK + p) & 1:
            new -= 1 << (2 * (2 - p))
    return new


@jit
def rack_removed(state):
    return RACK - popcount(state >> 6)


@jit
def final_score(state, bonus_always):
    """The score if the game ends in ``state``."""
    score = rack_removed(state)
    if state >> 6 == 0:
        score += 10 + kitchen_left(state)
    elif bonus_always:
        score += kitchen_left(state)
    return score


def group_cards(deal: np.ndarray, state: int, group: int) -> list[int]:
    """The card ids of a group played in ``state``: rack cards in deck order, then pile tops."""
    cards = [int(deal[i]) for i in range(RACK) if group >> i & 1]
    for p in range(PILES):
        if group >> (RACK + p) & 1:
            cards.append(int(deal[kitchen_top_index(p, int(pile_height(state, p)))]))
    return cards


def layout(deal: np.ndarray) -> str:
    """The table as dealt: the rack diamond (row 1 at the top, each row covering the one
    above) and the three kitchen piles (top card first; face-down cards in brackets)."""
    from ..cards import code
    lines = ["rack (each row lies on the row above it):"]
    for row in RACK_ROWS:
        cells = "  ".join(code(int(deal[i])) for i in row)
        lines.append(" " * (2 * (3 - len(row))) + "    " + cells)
    lines.append("kitchen (top card first, face-down cards in brackets):")
    for p in range(PILES):
        idx = [RACK + PILE_DEPTH * p + h for h in range(PILE_DEPTH - 1, -1, -1)]
        cards = [code(int(deal[idx[0]]))] + [f"[{code(int(deal[i]))}]" for i in idx[1:]]
        lines.append(f"    pile {p + 1}: " + " ".join(cards))
    return "\n".join(lines)


class Table:
    """A game in progress as a person plays it (``winnable.session``): the legal groups written
    as ``solve`` writes them (``2H+7D``: rack cards in deck order, then pile tops), a group
    typed in read back and checked, and the table drawn with the face-down kitchen cards
    hidden."""

    forced_automatic = False  # a single legal group is still the player's to play

    def __init__(self, deal: np.ndarray, rules, player: str | None = None):
        self.deal = np.asarray(deal, dtype=np.int8)
        self.rules = rules
        self.codes = rule_params(rules)
        self.values = card_values(self.deal)
        self.sums = rack_sums(self.values)
        self.state = INITIAL_STATE
        self._out = np.zeros(MAX_GROUPS, dtype=np.int64)

    def legal(self) -> list[int]:
        n = legal_groups(self.state, self.values, self.sums, self.codes.kitchen_limit,
                         self.codes.target_mask, self._out)
        return [int(g) for g in self._out[:n]]

    def format(self, group: int) -> str:
        from ..cards import code
        return "+".join(code(c) for c in group_cards(self.deal, self.state, group))

    def _where(self, card: int):
        """('rack', i), ('kitchen', p), ('removed', None) or ('hidden', None)."""
        index = int(np.flatnonzero(self.deal == card)[0])
        if index < RACK:
            return ("rack", index) if self.state >> (6 + index) & 1 else ("removed", None)
        p, depth = divmod(index - RACK, PILE_DEPTH)
        height = int(pile_height(self.state, p))
        if depth == height - 1:
            return "kitchen", p
        return ("removed", None) if depth >= height else ("hidden", None)

    def parse(self, text: str) -> int:
        from ..cards import CODES, parse_joined
        if self.over():
            raise IllegalMove("the game is over")
        group = 0
        for card in parse_joined(text, DECK, NAME, "a Nineball group",
                                 "write its cards joined by +, e.g. 2H+7D"):
            where, at = self._where(card)
            if where == "removed":
                raise IllegalMove(f"{CODES[card]} has already been removed")
            if where == "hidden":
                raise IllegalMove(f"{CODES[card]} is neither on the rack nor face up on a "
                                  "kitchen pile")
            bit = at if where == "rack" else RACK + at
            if group >> bit & 1:
                raise IllegalMove(f"{CODES[card]} is named twice")
            group |= 1 << bit
        present = self.state >> 6
        for i in range(RACK):
            covering = int(COVERERS[i]) & present & ~group
            if group >> i & 1 and covering:
                first = next(j for j in range(RACK) if covering >> j & 1)
                raise IllegalMove(f"{CODES[self.deal[i]]} is covered by "
                                  f"{CODES[self.deal[first]]}, which is not in the group")
        kitchen = popcount(group >> RACK)
        if kitchen > self.codes.kitchen_limit:
            raise IllegalMove(f"{kitchen} kitchen cards in one group: the rules allow at most "
                              f"{self.codes.kitchen_limit} (kitchen_per_group)")
        total = sum(int(self.values[i]) for i in range(RACK) if group >> i & 1) + sum(
            int(self.values[kitchen_top_index(p, int(pile_height(self.state, p)))])
            for p in range(PILES) if group >> (RACK + p) & 1)
        targets = " or ".join(str(t) for t in self.rules["targets"])
        if total >= 63 or not (self.codes.target_mask >> total) & 1:
            raise IllegalMove(f"the cards sum to {total}, not {targets}")
        if group not in self.legal():  # the checks above are the rules: never reached
            raise IllegalMove(f"{text!r} is not a legal group here")
        return group

    def describe(self, group: int) -> str:
        from ..cards import code
        rack = [code(int(self.deal[i])) for i in range(RACK) if group >> i & 1]
        parts = [f"rack {' '.join(rack)}"] if rack else []
        for p in range(PILES):
            if group >> (RACK + p) & 1:
                top = self.deal[kitchen_top_index(p, int(pile_height(self.state, p)))]
                parts.append(f"kitchen {code(int(top))} (pile {p + 1})")
        return ", ".join(parts)

    def play(self, group: int) -> str:
        from ..cards import code
        text = self.describe(group)
        self.state = int(apply_group(self.state, group))
        for p in range(PILES):
            height = int(pile_height(self.state, p))
            if group >> (RACK + p) & 1 and height > 0:
                text += f", turns up {code(int(self.deal[kitchen_top_index(p, height)]))}"
        if self.state >> 6 == 0:
            text += ", rack cleared"
        return text

    def over(self) -> bool:
        return not self.legal()

    def outcome(self) -> str:
        return "win" if self.state >> 6 == 0 else "loss"

    def score(self) -> int:
        return int(final_score(self.state, self.codes.bonus_always))

    def board(self, peek: bool = False) -> str:
        from ..cards import code
        present = self.state >> 6
        lines = ["rack (each row lies on the row above it; .. removed):"]
        for row in RACK_ROWS:
            cells = "  ".join(code(int(self.deal[i])) if present >> i & 1 else ".."
                              for i in row)
            lines.append(" " * (2 * (3 - len(row))) + "    " + cells)
        lines.append("kitchen (top card first" + (", face-down cards in brackets):" if peek
                                                   else "; [??] a face-down card):"))
        for p in range(PILES):
            height = int(pile_height(self.state, p))
            cells = []
            for depth in range(height - 1, -1, -1):
                card = code(int(self.deal[RACK + PILE_DEPTH * p + depth]))
                cells.append(card if depth == height - 1 else (f"[{card}]" if peek else "[??]"))
            lines.append(f"    pile {p + 1}: " + (" ".join(cells) if cells else "(empty)"))
        lines.append(f"rack cards removed: {rack_removed(self.state)}   score if play ended "
                     f"here: {self.score()}")
        return "\n".join(lines)
