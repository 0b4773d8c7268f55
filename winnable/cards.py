"""Card codes shared by every game.

A card is an integer id: ``suit * 13 + rank`` for the 52 ordinary cards (rank 0 = ace ...
12 = king; suits in the order clubs, diamonds, hearts, spades), and 52, 53 for the two jokers.
Its code is the rank character from ``A23456789TJQK`` followed by the suit character from
``CDHS`` (``AH``, ``TD``); jokers are ``X1`` and ``X2``.  Codes are read case-insensitively.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JOKERS = ("X1", "X2")
N_CARDS = 54

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + JOKERS
_ID_OF_CODE = {code: i for i, code in enumerate(CODES)}


class DealError(ValueError):
    """A deal or card written by a user is not valid for the game; the message is one line."""


def card_id(rank: str, suit: str) -> int:
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def rank_of(card: int) -> int:
    """0 for an ace ... 12 for a king (meaningless for jokers)."""
    return card % 13


def suit_of(card: int) -> int:
    return card // 13


def code(card: int) -> str:
    return CODES[card]


def parse_card(text: str) -> int:
    """The id of one card code; raises DealError naming the code if it is not a card."""
    card = _ID_OF_CODE.get(text.strip().upper())
    if card is None:
        raise DealError(
            f"unknown card code {text!r}: expected a rank from {RANKS} followed by a suit from "
            f"{SUITS} (e.g. AH, TD){' or a joker X1/X2' if text.upper().startswith('X') else ''}"
        )
    return card


def parse_deal(text: str, deck: Sequence[int], game: str) -> np.ndarray:
    """Parse a deal written as its deck order (top card first, codes separated by spaces or
    commas) and check that it is exactly a permutation of ``deck``."""
    tokens = text.replace(",", " ").split()
    if len(tokens) != len(deck):
        raise DealError(
            f"a {game} deal has {len(deck)} cards, got {len(tokens)}: write the deck order, "
            "top card first, codes separated by spaces"
        )
    allowed = set(int(c) for c in deck)
    seen: dict[int, int] = {}
    cards = np.empty(len(tokens), dtype=np.int8)
    for position, token in enumerate(tokens, start=1):
        card = parse_card(token)
        if card not in allowed:
            raise DealError(
                f"card {CODES[card]} (position {position}) is not in the {game} deck, "
                f"which holds {deck_description(deck)}"
            )
        if card in seen:
            raise DealError(
                f"card {CODES[card]} appears twice (positions {seen[card]} and {position}); "
                f"each card of the {game} deck appears once"
            )
        seen[card] = position
        cards[position - 1] = card
    return cards


def format_cards(cards: Sequence[int], sep: str = " ") -> str:
    return sep.join(CODES[int(c)] for c in cards)


def deck_description(deck: Sequence[int]) -> str:
    """A short human description such as 'A-9 of diamonds and hearts'."""
    cards = sorted(int(c) for c in deck)
    jokers = [c for c in cards if c >= 52]
    plain = [c for c in cards if c < 52]
    suits = sorted({suit_of(c) for c in plain})
    names = {0: "clubs", 1: "diamonds", 2: "hearts", 3: "spades"}
    ranks_per_suit = {s: sorted(rank_of(c) for c in plain if suit_of(c) == s) for s in suits}
    first = ranks_per_suit[suits[0]] if suits else []
    if all(ranks_per_suit[s] == first for s in suits) and first:
        if first == list(range(first[0], first[-1] + 1)):
            ranks = f"{RANKS[first[0]]}-{RANKS[first[-1]]}"
        else:
            ranks = ",".join(RANKS[r] for r in first)
        text = f"{ranks} of " + " and ".join(names[s] for s in suits)
    else:
        text = " ".join(CODES[c] for c in plain)
    if jokers:
        text += " plus jokers " + " ".join(CODES[c] for c in jokers)
    return text
