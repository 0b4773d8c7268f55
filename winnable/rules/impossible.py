"""Impossible (a variant of Call Eleven): what the game is.

Why one module of about 670 lines: the kernels and the ``Table`` all read and write one state
layout (below) and the owed work it carries; split, they would have to agree on it across files.

Rules (defaults; docs/impossible.md gives the reasoning):

* 54 cards: the 52 plus two jokers (``X1``, ``X2``).  A counts 1, 2-10 their value; J, Q, K are
  face cards; a joker is wild and pairs with any top card, another joker included.
  ``jokers=0`` plays with the 52 cards: deal n is the 54-card deal n with the jokers taken out,
  and a deal written out has the 52 cards.
* Start: score 10; deal 9 piles.  Whenever a face card is on top of a pile it is covered at once
  with the next card from the deck, until the top is not a face card.
* At each decision point the player may pick up a pile holding at least 11 cards (+1 point; the
  pile goes into the deck, which is shuffled), or use the fifteen rule; otherwise, if two pile
  tops sum to 11 the player must choose such a pair and cover each of its cards with a card from
  the deck (the pile that came first, then the other); if no pair exists, the top card of the
  deck starts a new pile.
* Penalties: -1 for each card placed on a pile that already holds 11 or more cards; -1 for every
  new pile started after the initial nine (``new_pile_penalty=every``), or only when the new pile
  makes more than nine piles (``beyond_nine``).
* Fifteen rule: ``once`` (each time the score becomes 15, one removal of any pile, no point,
  lost when used or when the score changes), ``unlimited`` (any number while the score is 15 or
  more), ``off``.
* Win: no pile left.  Loss: the score reaches 0, or a card is needed, the deck is empty and no
  pile can be taken back (a pick-up, or a fifteen removal if one is available; the player
  chooses which, and a covering whose pile was taken back lapses).  A game that passes the
  step cap (``step_cap`` decisions) is ``unknown``.

Turns (as ``turn`` says): at a ``DECIDE`` turn the player chooses an action (``legal_actions``)
and ``apply_action`` plays it as far as the deck allows; when a card is needed and the deck is
empty the game stops at a ``TAKE_BACK`` turn, where the player chooses which pile to take back
(``take_back_actions``) and ``take_back_when_empty`` plays on with what the action still owes
(the coverings and the new pile it had begun).  What is owed is part of the state (``ST_COVER``,
``ST_COVER_NEXT``, ``ST_TO_START``, ``ST_PENALISED``), so every function here is the whole game
and the players only choose.

Randomness: the deck starts as the game's deal (top card first) and every shuffle draws from the
game's play stream, a splitmix64 generator seeded from the deal's cards
(``winnable.shuffle.play_stream``); the players' random choices draw from it too.  So a game is
a function of its deal (and rules and player): deal n, or its text, replays exactly on any
machine.

State (flat arrays): pile slots ``cards[slot, i]`` (bottom first) with ``size[slot]`` cards
and the class of the top card (``CLASS``) in ``size[SLOTS + slot]``; ``order[0:count]`` lists
the slots of the piles on the table in creation order; the deck is ``deck[0:deck_size]`` with
its top card last; ``st`` holds the scalars (see ``ST_*``).  ``State`` bundles the five arrays.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from ..errors import IllegalMove
from ..jit import inline_kernel, jit, kernel
from ..shuffle import shuffle_in_place
from ..outcomes import LOSS as OUTCOME_LOSS
from ..outcomes import UNKNOWN as OUTCOME_UNKNOWN
from ..outcomes import WIN as OUTCOME_WIN
from ..variants import choice_flag, int_choice_flag, int_flag

NAME = "impossible"
TITLE = "Impossible"
N_CARDS = 54
SLOTS = 64
HEIGHT = 64
JOKER = 52

DECK = np.arange(54, dtype=np.int8)
DECK_WITHOUT_JOKERS = DECK[:JOKER]

FLAGS = {
    f.name: f
    for f in (
        choice_flag("fifteen", "once", ("once", "unlimited", "off"),
                    "once: each time the score becomes 15, one removal of any pile; unlimited: "
                    "any number of removals while the score is 15 or more; off: none"),
        choice_flag("new_pile_penalty", "every", ("every", "beyond_nine"),
                    "every: -1 for every new pile after the initial nine; beyond_nine: -1 only "
                    "when the new pile makes more than nine piles on the table"),
        int_choice_flag("jokers", 2, (0, 2), "2 (default) or 0: play without the jokers"),
        int_flag("step_cap", 100_000, 100, 10**9,
                 "decisions after which a game ends as unknown"),
    )
}

FIFTEEN_ONCE, FIFTEEN_UNLIMITED, FIFTEEN_OFF = 0, 1, 2
FIFTEEN_CODES = {"once": FIFTEEN_ONCE, "unlimited": FIFTEEN_UNLIMITED, "off": FIFTEEN_OFF}

# Scalars in st.  What an action still owes: ST_COVER, the slot of the pile that needs a card
# now (-1: none); ST_COVER_NEXT, a pile to cover with at least one card after it (the second of
# a pair; -1: none); ST_TO_START, new piles still to start, counted as new piles (penalised)
# when ST_PENALISED is 1 (not in the initial deal).  ST_EXCESS counts the points lost to cards
# placed on piles of 11 or more (a counter, like ST_PICKUPS: nothing that follows depends on it).
(ST_DECK, ST_COUNT, ST_SCORE, ST_TOKEN, ST_PICKUPS, ST_REMOVALS, ST_NEW, ST_STEPS, ST_OUTCOME,
 ST_COVER, ST_COVER_NEXT, ST_TO_START, ST_PENALISED, ST_EXCESS) = range(14)
ST_LEN = 14
RUNNING, WIN, LOSS, UNKNOWN = -1, OUTCOME_WIN, OUTCOME_LOSS, OUTCOME_UNKNOWN

# Whose turn it is (``turn``): the player's choice of action, the player's choice of the pile
# to take back when a card is needed and the deck is empty, or nobody's (the game is over).
DECIDE, TAKE_BACK, OVER = 0, 1, 2

# Action codes: kind * 1_000_000 + first * 1000 + second (positions in creation order).
PICKUP, REMOVE, PAIR, NEW = 0, 1, 2, 3
INITIAL_PILES = 9


class State(NamedTuple):
    """A game's arrays (the module docstring says what each holds)."""
    cards: np.ndarray
    size: np.ndarray
    order: np.ndarray
    deck: np.ndarray
    st: np.ndarray


class RuleCodes(NamedTuple):
    """The rule flags as the kernels take them."""
    fifteen: int          # FIFTEEN_ONCE, FIFTEEN_UNLIMITED or FIFTEEN_OFF
    every_penalty: bool   # new_pile_penalty=every
    jokers: int
    step_cap: int


def rule_params(rules) -> RuleCodes:
    return RuleCodes(FIFTEEN_CODES[rules["fifteen"]], rules["new_pile_penalty"] == "every",
                     int(rules["jokers"]), int(rules["step_cap"]))


# The class of a card on top of a pile: 0 a joker, 1-13 its rank (A-K; 11-13 are the face
# cards).  A top of class c pairs with the classes set in PAIRS_WITH[c]: a joker with all, a
# number card with 11 - c and the jokers, a face card (covered at once) with the jokers.
CLASS = np.array([c % 13 + 1 for c in range(JOKER)] + [0] * (N_CARDS - JOKER), dtype=np.int64)
PAIRS_WITH = np.array([(1 << 14) - 1] + [(1 << (11 - c)) | 1 for c in range(1, 11)] + [1] * 3,
                      dtype=np.int64)


@jit
def new_state():
    """Empty state arrays (allocated once, reused game after game by ``start_game``)."""
    return State(np.empty((SLOTS, HEIGHT), dtype=np.int8), np.zeros(2 * SLOTS, dtype=np.int64),
                 np.zeros(SLOTS, dtype=np.int64), np.zeros(N_CARDS, dtype=np.int64),
                 np.zeros(ST_LEN, dtype=np.int64))


@inline_kernel
def _set_up(deal, jokers, size, deck, st):
    """No pile, the deal as the deck, score 10, nothing owed."""
    size[:] = 0
    st[:] = 0
    st[ST_COVER] = -1
    st[ST_COVER_NEXT] = -1
    n = 0
    for i in range(deal.shape[0] - 1, -1, -1):  # top card last
        if deal[i] < JOKER or jokers > 0:
            deck[n] = deal[i]
            n += 1
    st[ST_DECK] = n
    st[ST_SCORE] = 10
    st[ST_OUTCOME] = RUNNING


@inline_kernel
def copy_state(cards, size, order, st, to_cards, to_size, to_order, to_st):
    """Copy the table and the scalars (not the deck): the piles on the table, their sizes (every
    other slot empty) and their order."""
    for slot in range(2 * SLOTS):
        to_size[slot] = size[slot]
    for k in range(st[ST_COUNT]):
        slot = order[k]
        to_order[k] = slot
        for i in range(size[slot]):
            to_cards[slot, i] = cards[slot, i]
    for i in range(ST_LEN):
        to_st[i] = st[i]


@inline_kernel
def top_class(size, slot):
    """The class (``CLASS``) of the card on top of the pile in ``slot``."""
    return size[SLOTS + slot]


@inline_kernel
def face_on_top(size, slot):
    return top_class(size, slot) > 10


@inline_kernel
def change_score(st, delta):
    before = st[ST_SCORE]
    st[ST_SCORE] += delta
    if st[ST_SCORE] != before:
        st[ST_TOKEN] = 1 if st[ST_SCORE] == 15 else 0
    if st[ST_SCORE] <= 0:
        st[ST_OUTCOME] = LOSS


@inline_kernel
def removal_available(st, fifteen):
    if fifteen == FIFTEEN_ONCE:
        return st[ST_TOKEN] == 1
    if fifteen == FIFTEEN_UNLIMITED:
        return st[ST_SCORE] >= 15
    return False


@inline_kernel
def position_of(order, st, slot):
    for k in range(st[ST_COUNT]):
        if order[k] == slot:
            return k
    return -1


@inline_kernel
def take_back(cards, size, order, deck, st, rng, position):
    """Put the pile at ``position`` into the deck and shuffle the deck."""
    slot = order[position]
    for i in range(size[slot]):
        deck[st[ST_DECK]] = cards[slot, i]
        st[ST_DECK] += 1
    size[slot] = 0
    for k in range(position, st[ST_COUNT] - 1):
        order[k] = order[k + 1]
    st[ST_COUNT] -= 1
    shuffle_in_place(deck[:st[ST_DECK]], rng)


@inline_kernel
def pick_up(cards, size, order, deck, st, rng, position):
    take_back(cards, size, order, deck, st, rng, position)
    st[ST_PICKUPS] += 1
    change_score(st, 1)
    if st[ST_OUTCOME] == RUNNING and st[ST_COUNT] == 0:
        st[ST_OUTCOME] = WIN


@inline_kernel
def remove(cards, size, order, deck, st, rng, position, fifteen):
    take_back(cards, size, order, deck, st, rng, position)
    st[ST_REMOVALS] += 1
    if fifteen == FIFTEEN_ONCE:
        st[ST_TOKEN] = 0
    if st[ST_COUNT] == 0:
        st[ST_OUTCOME] = WIN


@inline_kernel
def place(cards, size, st, slot, card):
    before = size[slot]
    cards[slot, before] = card
    size[slot] = before + 1
    size[SLOTS + slot] = CLASS[card]
    if before >= 11:
        st[ST_EXCESS] += 1
        change_score(st, -1)


@inline_kernel
def draw(deck, st):
    st[ST_DECK] -= 1
    return deck[st[ST_DECK]]


@inline_kernel
def free_slot(size):
    """A slot for a new pile (a pile on the table always holds a card)."""
    for slot in range(SLOTS):
        if size[slot] == 0:
            return slot
    return -1


@inline_kernel
def pairs_of(size, order, st, out, classes):
    """Pairs of positions (i < j) whose tops sum to 11, written to ``out`` (as PAIR codes, i
    then j ascending); returns how many.  ``classes`` is scratch."""
    count = st[ST_COUNT]
    for i in range(count):
        classes[i] = top_class(size, order[i])
    n = 0
    for i in range(count):
        mask = PAIRS_WITH[classes[i]]
        for j in range(i + 1, count):
            out[n] = PAIR * 1_000_000 + i * 1000 + j  # kept only if the tops pair
            n += (mask >> classes[j]) & 1
    return n


@inline_kernel
def legal_actions(size, order, st, fifteen, out, classes):
    """Every action at a decision point, in a fixed order: pick-ups, removals, then the pairs
    (or the new pile when there is none).  ``classes`` is scratch."""
    n = 0
    count = st[ST_COUNT]
    for i in range(count):
        if size[order[i]] >= 11:
            out[n] = PICKUP * 1_000_000 + i * 1000
            n += 1
    if removal_available(st, fifteen):
        for i in range(count):
            out[n] = REMOVE * 1_000_000 + i * 1000
            n += 1
    m = pairs_of(size, order, st, out[n:], classes)
    if m == 0:
        out[n] = NEW * 1_000_000
        return n + 1
    return n + m


@inline_kernel
def take_back_actions(size, order, st, fifteen, out):
    """What may be done at a TAKE_BACK turn (a card is needed and the deck is empty): pick-ups,
    then removals, in the order of the piles."""
    n = 0
    for i in range(st[ST_COUNT]):
        if size[order[i]] >= 11:
            out[n] = PICKUP * 1_000_000 + i * 1000
            n += 1
    if removal_available(st, fifteen):
        for i in range(st[ST_COUNT]):
            out[n] = REMOVE * 1_000_000 + i * 1000
            n += 1
    return n


@inline_kernel
def _can_take_back(size, order, st, fifteen):
    if removal_available(st, fifteen) and st[ST_COUNT] > 0:
        return True
    for i in range(st[ST_COUNT]):
        if size[order[i]] >= 11:
            return True
    return False


@inline_kernel
def _take_back_by_code(game, rng, fifteen, action):
    position = (action // 1000) % 1000
    if action // 1_000_000 == PICKUP:
        pick_up(game.cards, game.size, game.order, game.deck, game.st, rng, position)
    else:
        remove(game.cards, game.size, game.order, game.deck, game.st, rng, position, fifteen)


@inline_kernel
def _start_pile(game, every_penalty):
    cards, size, order, deck, st = game
    st[ST_TO_START] -= 1
    slot = free_slot(size)
    place(cards, size, st, slot, draw(deck, st))
    order[st[ST_COUNT]] = slot
    st[ST_COUNT] += 1
    if st[ST_PENALISED]:
        st[ST_NEW] += 1
        if every_penalty or st[ST_COUNT] > INITIAL_PILES:
            change_score(st, -1)
    if face_on_top(size, slot):
        st[ST_COVER] = slot


@kernel
def _play_on(game, rules):
    """Do what the last action still owes (``ST_COVER``, ``ST_COVER_NEXT``, ``ST_TO_START``) as
    far as the deck allows.  When a card is needed from an empty deck the game waits for the
    player's TAKE_BACK choice, or is lost if no pile can be taken back."""
    cards, size, order, deck, st = game
    while st[ST_OUTCOME] == RUNNING:
        slot = st[ST_COVER]
        if slot >= 0:
            if st[ST_DECK] == 0:
                break
            place(cards, size, st, slot, draw(deck, st))
            if not face_on_top(size, slot):
                st[ST_COVER] = -1
        elif st[ST_COVER_NEXT] >= 0:
            # Only a pile taken back while the deck was empty leaves the table meanwhile (no
            # pile is started between the two coverings, so its slot is not reused).
            if position_of(order, st, st[ST_COVER_NEXT]) >= 0:
                st[ST_COVER] = st[ST_COVER_NEXT]
            st[ST_COVER_NEXT] = -1
        elif st[ST_TO_START] > 0:
            if st[ST_DECK] == 0:
                break
            _start_pile(game, rules.every_penalty)
        else:
            return
    if st[ST_OUTCOME] == RUNNING and not _can_take_back(size, order, st, rules.fifteen):
        st[ST_OUTCOME] = LOSS


@kernel
def start_game(game, deal, rules):
    """Set up a game in ``game`` (a ``State``, reused game after game): the deal as the deck,
    score 10, then the nine piles dealt, each covered while a face card shows."""
    _set_up(deal, rules.jokers, game.size, game.deck, game.st)
    game.st[ST_TO_START] = INITIAL_PILES
    game.st[ST_PENALISED] = 0
    _play_on(game, rules)


@inline_kernel
def turn(st, step_cap):
    """Whose turn it is: DECIDE, TAKE_BACK or OVER.  At the step cap a DECIDE turn ends the game
    as unknown (TAKE_BACK turns finish the action under way)."""
    if st[ST_OUTCOME] != RUNNING:
        return OVER
    if st[ST_COVER] >= 0 or st[ST_TO_START] > 0:
        return TAKE_BACK
    if st[ST_STEPS] >= step_cap:
        st[ST_OUTCOME] = UNKNOWN
        return OVER
    return DECIDE


@kernel
def apply_action(game, rng, rules, action):
    """Play an action of ``legal_actions`` at a DECIDE turn (a step)."""
    st = game.st
    st[ST_STEPS] += 1
    kind = action // 1_000_000
    if kind == PICKUP or kind == REMOVE:
        _take_back_by_code(game, rng, rules.fifteen, action)
        return
    if kind == PAIR:
        st[ST_COVER] = game.order[(action // 1000) % 1000]  # covered with at least one card
        st[ST_COVER_NEXT] = game.order[action % 1000]
    else:
        st[ST_TO_START] = 1
        st[ST_PENALISED] = 1
    _play_on(game, rules)


@kernel
def take_back_when_empty(game, rng, rules, action):
    """Play an action of ``take_back_actions`` at a TAKE_BACK turn (a step), then what the
    action under way still owes; a covering whose pile was taken back lapses."""
    st = game.st
    st[ST_STEPS] += 1
    _take_back_by_code(game, rng, rules.fifteen, action)
    if st[ST_COVER] >= 0 and position_of(game.order, st, st[ST_COVER]) < 0:
        st[ST_COVER] = -1
    _play_on(game, rules)


EMERGENCY = 10_000_000  # added to an action taken when a card was needed and the deck was empty


def format_action(action: int) -> str:
    """``up3`` pick up pile 3, ``rm2`` remove pile 2 (fifteen rule), ``1+5`` cover piles 1 and
    5, ``new`` start a new pile; ``!`` marks an action taken when the deck ran out.  Piles are
    numbered 1, 2, ... in creation order among those on the table."""
    emergency = action >= EMERGENCY
    kind, rest = divmod(int(action) % EMERGENCY, 1_000_000)
    first, second = divmod(rest, 1000)
    text = {PICKUP: f"up{first + 1}", REMOVE: f"rm{first + 1}", PAIR: f"{first + 1}+{second + 1}",
            NEW: "new"}[kind]
    return ("!" + text) if emergency else text


_ACTION = re.compile(r"(!?)(?:up(\d+)|rm(\d+)|(\d+)\+(\d+)|(new))")
# How each player draws from the play stream besides the reshuffles (``winnable.solvers.
# impossible``): ``random`` draws its choice, ``lookahead`` and ``halving`` one number per
# choice for its rollouts, ``greedy``, ``thoughtful`` (and a person) nothing.  A line replays as
# its player's game only if its draws are repeated.
ROLLOUT_PLAYERS = ("lookahead", "halving")
STREAM_PLAYERS = ("greedy", "random", *ROLLOUT_PLAYERS, "thoughtful")


def _checked(action: int, legal: list[int], text: str) -> int:
    """The action, once the rules' own list holds it (the checks before it are the rules)."""
    if action not in legal:
        raise IllegalMove(f"{text!r} is not a legal action here")
    return action


class Table:
    """A game in progress as a person plays it (``winnable.session``): actions written as
    ``solve`` writes them (``up3``, ``rm2``, ``1+5``, ``new``; ``!`` before the pile taken back
    when the deck has run out), the reshuffles drawn from the deal's play stream, and the
    table drawn with the deck hidden.  ``player`` names the player whose line is replayed, so
    its own draws from the stream are repeated (``STREAM_PLAYERS``; None: a person, who draws
    nothing)."""

    forced_automatic = False

    def __init__(self, deal: np.ndarray, rules, player: str | None = None):
        from ..shuffle import game_salt, play_stream
        if player not in (None, *STREAM_PLAYERS):
            player = None  # the players of other games draw nothing here
        self.deal = np.asarray(deal, dtype=np.int8)
        self.codes = rule_params(rules)
        self.player = player
        self.game = new_state()
        self.rng = play_stream(np.uint64(game_salt(NAME)), self.deal.astype(np.int64))
        start_game(self.game, self.deal, self.codes)
        self._out = np.zeros(2048, dtype=np.int64)
        self._scratch = np.zeros(2048, dtype=np.int64)

    def turn(self) -> int:
        return int(turn(self.game.st, self.codes.step_cap))

    def legal(self) -> list[int]:
        turn_now = self.turn()
        game = self.game
        if turn_now == DECIDE:
            n = legal_actions(game.size, game.order, game.st, self.codes.fifteen, self._out,
                              self._scratch)
            return [int(a) for a in self._out[:n]]
        if turn_now == TAKE_BACK:
            n = take_back_actions(game.size, game.order, game.st, self.codes.fifteen, self._out)
            return [int(a) + EMERGENCY for a in self._out[:n]]
        return []

    def format(self, action: int) -> str:
        return format_action(action)

    def _pile(self, number: int) -> int:
        count = int(self.game.st[ST_COUNT])
        if not 1 <= number <= count:
            raise IllegalMove(f"there is no pile {number}: the piles on the table are numbered "
                              f"1 to {count}")
        return int(self.game.order[number - 1])

    def _top(self, number: int) -> str:
        from ..cards import code
        slot = self._pile(number)
        return code(int(self.game.cards[slot, self.game.size[slot] - 1]))

    def parse(self, text: str) -> int:
        turn_now = self.turn()
        if turn_now == OVER:
            raise IllegalMove("the game is over")
        found = _ACTION.fullmatch(text.strip().lower())
        if not found:
            raise IllegalMove(f"{text!r} is not an Impossible action: expected upN (pick up pile "
                              "N), rmN (fifteen removal of pile N), I+J (cover piles I and J) "
                              "or new")
        bang, up, rm, first, second, new = found.groups()
        game, st = self.game, self.game.st
        if bang and turn_now == DECIDE:
            raise IllegalMove("! marks a pile taken back when the deck has run out, and the deck "
                              "has not run out here")
        if turn_now == TAKE_BACK and (first or new):
            raise IllegalMove("a card is needed and the deck is empty: take a pile back (upN or "
                              "rmN)")
        emergency = EMERGENCY if turn_now == TAKE_BACK else 0
        legal = self.legal()
        if up:
            slot = self._pile(int(up))
            if game.size[slot] < 11:
                raise IllegalMove(f"pile {up} holds {game.size[slot]} cards: only a pile of 11 "
                                  "or more may be picked up")
            return _checked(PICKUP * 1_000_000 + (int(up) - 1) * 1000 + emergency, legal, text)
        if rm:
            self._pile(int(rm))
            if not removal_available(st, self.codes.fifteen):
                rule = {FIFTEEN_OFF: "the fifteen rule is off",
                        FIFTEEN_ONCE: "a removal is there only once each time the score becomes "
                                      "15, until it is used or the score changes",
                        FIFTEEN_UNLIMITED: "removals need a score of 15 or more"}
                raise IllegalMove(f"no fifteen removal now (score {st[ST_SCORE]}; "
                                  f"{rule[self.codes.fifteen]})")
            return _checked(REMOVE * 1_000_000 + (int(rm) - 1) * 1000 + emergency, legal, text)
        if new:
            if NEW * 1_000_000 not in legal:
                pair = next(a for a in legal if a // 1_000_000 == PAIR)
                raise IllegalMove(f"a pair of tops sums to 11 ({format_action(pair)}): cover a "
                                  "pair instead of starting a new pile")
            return NEW * 1_000_000
        i, j = sorted((int(first), int(second)))
        if i == j:
            raise IllegalMove("a pair needs two different piles")
        self._pile(i), self._pile(j)
        action = PAIR * 1_000_000 + (i - 1) * 1000 + (j - 1)
        if action not in legal:
            raise IllegalMove(f"the tops {self._top(i)} (pile {i}) and {self._top(j)} (pile {j}) "
                              "do not sum to 11 (a joker pairs with any top)")
        return action

    def _piles(self) -> dict[int, int]:
        """Slot -> size of the piles on the table."""
        game = self.game
        return {int(game.order[k]): int(game.size[game.order[k]])
                for k in range(int(game.st[ST_COUNT]))}

    def describe(self, action: int) -> str:
        kind, rest = divmod(int(action) % EMERGENCY, 1_000_000)
        first, second = divmod(rest, 1000)
        if kind in (PICKUP, REMOVE):
            slot = int(self.game.order[first])
            what = "picked up" if kind == PICKUP else "removed (fifteen rule)"
            return (f"pile {first + 1} ({self.game.size[slot]} cards, {self._top(first + 1)} on "
                    f"top) {what} into the deck, which is shuffled")
        if kind == PAIR:
            return f"cover {self._top(first + 1)} (pile {first + 1}) and {self._top(second + 1)} " \
                   f"(pile {second + 1})"
        return "a new pile"

    def play(self, action: int) -> str:
        from ..cards import code
        from ..shuffle import splitmix_next, uniform_below
        text = self.describe(action)
        n_choices = len(self.legal())
        # The replayed player's own draws come before the action, as in its game.
        if self.player == "random":
            uniform_below(self.rng, n_choices)
        elif self.player in ROLLOUT_PLAYERS and action < EMERGENCY and n_choices > 1:
            splitmix_next(self.rng)
        game = self.game
        before = self._piles()
        taken = None
        score = int(game.st[ST_SCORE])
        if action // 1_000_000 % 10 in (PICKUP, REMOVE):
            taken = int(game.order[(action // 1000) % 1000])
        if action >= EMERGENCY:
            take_back_when_empty(game, self.rng, self.codes, action - EMERGENCY)
        else:
            apply_action(game, self.rng, self.codes, action)
        placed = []
        after = self._piles()
        for k in range(int(game.st[ST_COUNT])):
            slot = int(game.order[k])
            old = 0 if slot == taken or slot not in before else before[slot]
            if after[slot] > old:
                cards = " ".join(code(int(c)) for c in game.cards[slot, old:after[slot]])
                placed.append(f"{cards} on pile {k + 1}" if old else f"new pile {k + 1}: {cards}")
        if placed:
            text += "; " + "; ".join(placed)
        if game.st[ST_SCORE] != score:
            text += f"; score {score} -> {game.st[ST_SCORE]}"
        if self.turn() == TAKE_BACK:
            text += "; the deck is empty: take a pile back"
        return text

    def over(self) -> bool:
        return self.turn() == OVER

    def outcome(self) -> str:
        from ..outcomes import outcome_name
        outcome = int(self.game.st[ST_OUTCOME])
        return "unknown" if outcome == RUNNING else outcome_name(outcome)

    def score(self) -> int:
        return int(self.game.st[ST_SCORE])

    def board(self, peek: bool = False) -> str:
        from ..cards import code
        game, st = self.game, self.game.st
        lines = ["piles (creation order; the top card and the pile's size" +
                 ("; every card, bottom first):" if peek else "):")]
        for k in range(int(st[ST_COUNT])):
            slot = int(game.order[k])
            size = int(game.size[slot])
            cards = (" ".join(code(int(c)) for c in game.cards[slot, :size]) if peek
                     else code(int(game.cards[slot, size - 1])))
            lines.append(f"  {k + 1:2}: {cards} ({size} card{'s' * (size != 1)})")
        deck = int(st[ST_DECK])
        shown = (" (top first: " + " ".join(code(int(c)) for c in game.deck[:deck][::-1]) + ")"
                 if peek and deck else "")
        lines.append(f"deck: {deck} cards{shown}")
        removal = ", a fifteen removal available" if removal_available(st, self.codes.fifteen) \
            else ""
        lines.append(f"score: {st[ST_SCORE]}{removal}")
        return "\n".join(lines)
