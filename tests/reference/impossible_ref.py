"""Plain-Python reference implementation of the patience "Impossible"
(a variant of Call Eleven), played by the uniformly random player.

Written independently from the rules text, for statistical cross-checking of the
fast engine (win rate and mean score must agree within 99% intervals).
Slow but meant to be obviously correct.  Standard library only; all randomness
comes from the `random.Random` instance passed in.

State (all plain and visible):
    piles : list of lists of card codes, in creation order; pile[-1] is the top card.
    deck  : list of card codes; deck[0] is the top card (drawn with deck.pop(0)).
    score : int, starts at 10.

Rules summary (the normative text is in the module's test-suite brief):
    * 54 cards: "A23456789TJQK" x "CDHS" plus jokers "X1", "X2" (jokers=0: 52 cards).
      A=1, 2-9 face value, T=10; J, Q, K are face cards; a joker pairs with any top.
    * Deal 9 piles; a face card on top of a pile is covered at once with the next
      deck card, repeatedly (at the deal and whenever any card is placed).
    * -1 for each card placed on a pile that already holds >= 11 cards.
    * Decision-point actions:
        (a) pick up a pile of >= 11 cards: +1, cards into deck, shuffle;
        (b) fifteen removal (if available): remove any pile into the deck, shuffle;
        (c) cover a pair of tops summing to 11 (first pile in list order first,
            then the other one, each covered while its top is a face card);
        (d) only if no pair exists: start a new pile from the deck top.
    * Win: no pile left (checked right after a pick-up or removal).
      Loss: score <= 0 (checked after every change), or a card is needed with an
      empty deck and no emergency action exists.
    * Emergency (card needed, deck empty): uniformly among "pick up a pile of
      >= 11 cards" and, if a fifteen removal is available, "remove any pile".

Interpretation choices made where the text leaves an ordering open (documented so
the cross-check can be reconciled if the engine differs):
    * A new pile (d): the card is obtained first (an emergency happens first if the
      deck is empty), then the pile is appended, new_piles is incremented, the
      new-pile penalty is applied (for "beyond_nine": if len(piles) > 9 after the
      append), and then the new pile is covered while its top is a face card.
    * The >= 11 penalty is applied right after the card is placed, using the pile
      size before the placement.
    * The win check (no pile left) is also made after emergency pick-ups/removals.
    * The step cap is checked at decision points: if steps >= step_cap before an
      action, the game ends "unknown".  (Emergency actions still count as steps.)
    * "once" fifteen removal: a boolean flag set whenever the score changes to 15
      from another value and cleared on any other score change or when used
      (decision point or emergency).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "CDHS"
NUMBER_VALUE = {r: i + 1 for i, r in enumerate("A23456789T")}
FIFTEEN_MODES = ("once", "unlimited", "off")
NEW_PILE_PENALTIES = ("every", "beyond_nine")


def make_deck(jokers: int = 2) -> list[str]:
    if jokers not in (0, 2):
        raise ValueError("jokers must be 0 or 2")
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    if jokers == 2:
        cards += ["X1", "X2"]
    return cards


def is_face(card: str) -> bool:
    return card[0] in "JQK"


def is_joker(card: str) -> bool:
    return card[0] == "X"


@functools.cache  # (called for every pair of tops at every decision: the reference's hot spot)
def tops_pair(a: str, b: str) -> bool:
    """Two (non-face) top cards pair if either is a joker or their values sum to 11."""
    if is_joker(a) or is_joker(b):
        return True
    return NUMBER_VALUE[a[0]] + NUMBER_VALUE[b[0]] == 11


@dataclass
class Result:
    outcome: str  # "win" / "loss" / "unknown"
    score: int
    pickups: int
    removals: int
    new_piles: int
    steps: int


class _GameOver(Exception):
    def __init__(self, outcome: str):
        super().__init__(outcome)
        self.outcome = outcome


class Game:
    def __init__(self, rng: random.Random, fifteen: str, new_pile_penalty: str,
                 jokers: int, step_cap: int, deal: list[str] | None = None):
        if fifteen not in FIFTEEN_MODES:
            raise ValueError(f"fifteen must be one of {FIFTEEN_MODES}")
        if new_pile_penalty not in NEW_PILE_PENALTIES:
            raise ValueError(f"new_pile_penalty must be one of {NEW_PILE_PENALTIES}")
        self.rng = rng
        self.fifteen = fifteen
        self.new_pile_penalty = new_pile_penalty
        self.step_cap = step_cap
        self.n_cards = 52 + jokers

        if deal is None:
            self.deck: list[str] = make_deck(jokers)
            rng.shuffle(self.deck)
        else:
            assert sorted(deal) == sorted(make_deck(jokers)), "not a whole deck"
            self.deck = list(deal)
        self.piles: list[list[str]] = []
        self.score = 10
        self.fifteen_token = False  # used only for fifteen == "once"
        self.pickups = 0
        self.removals = 0
        self.new_piles = 0
        self.steps = 0

    # ----- score -----------------------------------------------------------
    def change_score(self, delta: int) -> None:
        old = self.score
        self.score += delta
        if self.score != old:
            # "once": gained when the score becomes 15, lost when it changes.
            self.fifteen_token = (self.score == 15)
        if self.score <= 0:
            raise _GameOver("loss")

    def removal_available(self) -> bool:
        if self.fifteen == "once":
            return self.fifteen_token
        if self.fifteen == "unlimited":
            return self.score >= 15
        return False

    # ----- piles ------------------------------------------------------------
    def on_table(self, pile: list[str]) -> bool:
        return any(p is pile for p in self.piles)

    def take_off_table(self, pile: list[str]) -> None:
        for i, p in enumerate(self.piles):
            if p is pile:
                del self.piles[i]
                return
        raise AssertionError("pile not on the table")

    def return_to_deck(self, pile: list[str]) -> None:
        """The pile's cards go into the deck, which is shuffled."""
        self.deck.extend(pile)
        self.rng.shuffle(self.deck)

    def pick_up(self, pile: list[str]) -> None:
        assert len(pile) >= 11
        self.take_off_table(pile)
        self.return_to_deck(pile)
        self.pickups += 1
        self.change_score(+1)
        if not self.piles:
            raise _GameOver("win")

    def remove(self, pile: list[str]) -> None:
        assert self.removal_available()
        self.take_off_table(pile)
        self.return_to_deck(pile)
        self.removals += 1
        if self.fifteen == "once":
            self.fifteen_token = False
        if not self.piles:
            raise _GameOver("win")

    def place(self, pile: list[str], card: str) -> None:
        size_before = len(pile)
        pile.append(card)
        if size_before >= 11:
            self.change_score(-1)

    # ----- card needed with empty deck ---------------------------------------
    def emergency(self) -> None:
        assert not self.deck
        options = [("pickup", p) for p in self.piles if len(p) >= 11]
        if self.removal_available():
            options += [("remove", p) for p in self.piles]
        if not options:
            raise _GameOver("loss")
        self.steps += 1
        kind, pile = self.choose_take_back(options)
        if kind == "pickup":
            self.pick_up(pile)
        else:
            self.remove(pile)

    def cover(self, pile: list[str], at_least_one: bool) -> None:
        """Cover `pile`: with one card if at_least_one, and in any case keep covering
        while its top is a face card.  Lapses if the pile leaves the table."""
        need = at_least_one or is_face(pile[-1])
        while need:
            if not self.on_table(pile):
                return  # taken away during an emergency: covering lapses
            if not self.deck:
                self.emergency()
                continue
            self.place(pile, self.deck.pop(0))
            need = is_face(pile[-1])

    def start_new_pile(self, penalised: bool) -> None:
        while not self.deck:
            self.emergency()
        pile = [self.deck.pop(0)]
        self.piles.append(pile)
        if penalised:
            self.new_piles += 1
            if self.new_pile_penalty == "every" or len(self.piles) > 9:
                self.change_score(-1)
        self.cover(pile, at_least_one=False)

    # ----- the player (uniformly random) ---------------------------------------
    def choose_action(self, actions: list[tuple]) -> tuple:
        return self.rng.choice(actions)

    def choose_take_back(self, options: list[tuple]) -> tuple:
        return self.rng.choice(options)

    # ----- decision points ----------------------------------------------------
    def pairs(self) -> list[tuple[int, int]]:
        n = len(self.piles)
        return [(i, j) for i in range(n) for j in range(i + 1, n)
                if tops_pair(self.piles[i][-1], self.piles[j][-1])]

    def legal_actions(self) -> list[tuple]:
        actions: list[tuple] = [("pickup", i) for i, p in enumerate(self.piles) if len(p) >= 11]
        if self.removal_available():
            actions += [("remove", i) for i in range(len(self.piles))]
        pairs = self.pairs()
        if pairs:
            actions += [("pair", i, j) for i, j in pairs]
        else:
            actions.append(("new",))
        return actions

    def check_invariants(self) -> None:
        assert sum(len(p) for p in self.piles) + len(self.deck) == self.n_cards
        assert all(p and not is_face(p[-1]) for p in self.piles)
        assert not self.fifteen_token or self.score == 15

    def run(self, debug: bool = False) -> str:
        try:
            for _ in range(9):
                self.start_new_pile(penalised=False)
            while True:
                if debug:
                    self.check_invariants()
                if self.steps >= self.step_cap:
                    return "unknown"
                action = self.choose_action(self.legal_actions())
                self.steps += 1
                kind = action[0]
                if kind == "pickup":
                    self.pick_up(self.piles[action[1]])
                elif kind == "remove":
                    self.remove(self.piles[action[1]])
                elif kind == "pair":
                    first, second = self.piles[action[1]], self.piles[action[2]]
                    self.cover(first, at_least_one=True)
                    if self.on_table(second):
                        self.cover(second, at_least_one=True)
                else:
                    self.start_new_pile(penalised=True)
        except _GameOver as end:
            return end.outcome


def play_random(rng: random.Random, fifteen: str = "once", new_pile_penalty: str = "every",
                jokers: int = 2, step_cap: int = 100_000, *, _debug: bool = False) -> Result:
    game = Game(rng, fifteen, new_pile_penalty, jokers, step_cap)
    outcome = game.run(debug=_debug)
    return Result(outcome, game.score, game.pickups, game.removals, game.new_piles, game.steps)


def play_many(n: int, seed, **rules) -> list[Result]:
    rng = random.Random(seed)
    return [play_random(rng, **rules) for _ in range(n)]
