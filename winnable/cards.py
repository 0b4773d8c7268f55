"""Card codes shared by every game.

A card is an integer id: ``suit * 13 + rank`` for the 52 ordinary cards (rank 0 = ace ...
12 = king; suits in the order clubs, diamonds, hearts, spades), and 52, 53 for the two jokers.
Its code is the rank character from ``A23456789TJQK`` followed by the suit character from
``CDHS`` (``AH``, ``TD``); jokers are ``X1`` and ``X2``.  Codes are read case-insensitively.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .errors import UserError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JOKERS = ("X1", "X2")
N_CARDS = 54

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + JOKERS
_ID_OF_CODE = {code: i for i, code in enumerate(CODES)}


class DealError(UserError):
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


def parse_card(text: str, jokers: bool = True) -> int:
    """The id of one card code; raises DealError naming the code if it is not a card
    (``jokers``: mention the joker codes in that message)."""
    card = _ID_OF_CODE.get(text.strip().upper())
    if card is None:
        raise DealError(
            f"unknown card code {text!r}: expected a rank from {RANKS} followed by a suit from "
            f"{SUITS} (e.g. AH, TD){' or a joker ' + ' '.join(JOKERS) if jokers else ''}"
        )
    return card


MISSING_SHOWN = 12  # missing cards named in a message; the rest are counted


def parse_deal(text: str, deck: Sequence[int], game: str) -> np.ndarray:
    """Parse a deal written as its deck order (top card first, codes separated by spaces or
    commas) and check that it is exactly a permutation of ``deck``; the error names the first
    code that is not a card or a card not in the deck, else the first card given twice, and the
    cards missing."""
    tokens = text.replace(",", " ").split()
    allowed = set(int(c) for c in deck)
    jokers = any(c >= 52 for c in allowed)
    cards = np.empty(len(tokens), dtype=np.int8)
    first_at: dict[int, int] = {}
    twice = None
    for position, token in enumerate(tokens, start=1):
        try:
            card = parse_card(token, jokers)
        except DealError as exc:
            raise DealError(f"position {position}: {exc}") from None
        if card not in allowed:
            raise DealError(
                f"card {CODES[card]} (position {position}) is not in the {game} "
                f"deck, which holds {deck_description(deck)}"
            )
        if card in first_at:
            twice = twice or (card, first_at[card], position)
        else:
            first_at[card] = position
        cards[position - 1] = card
    missing = [CODES[c] for c in sorted(allowed) if c not in first_at]
    missing_text = f" (missing: {_listed(missing)})" if missing else ""
    if twice is not None:
        card, first, again = twice
        raise DealError(f"card {CODES[card]} appears twice (positions {first} and {again}); each "
                        f"card of {_article(game)} {game} deal appears once{missing_text}")
    if len(tokens) != len(deck):
        raise DealError(
            f"{_article(game)} {game} deal has {len(deck)} cards, got {len(tokens)}"
            f"{missing_text}: write the deck order, top card first, codes separated by spaces"
        )
    return cards


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _listed(codes: Sequence[str]) -> str:
    shown = " ".join(codes[:MISSING_SHOWN])
    more = len(codes) - MISSING_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


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
        suit_names = [names[s] for s in suits]
        text = f"{ranks} of " + (", ".join(suit_names[:-1]) + " and " + suit_names[-1]
                                 if len(suit_names) > 1 else suit_names[0])
    else:
        text = " ".join(CODES[c] for c in plain)
    if jokers:
        text += " plus jokers " + " ".join(CODES[c] for c in jokers)
    return text


def parse_joined(text: str, deck: Sequence[int], game: str, move: str, how: str) -> list[int]:
    """The cards of a move written as card codes joined by + (a Nineball group, an Addario
    pair); ``IllegalMove`` names what is wrong: no cards, a code that is not a card, a card not
    in the ``game``'s deck (``move`` names the kind of move, ``how`` says how to write one)."""
    from .errors import IllegalMove
    parts = [part.strip() for part in text.strip().split("+")]
    if not all(parts):
        raise IllegalMove(f"{text!r} is not {move}: {how}")
    cards = []
    for part in parts:
        card = _ID_OF_CODE.get(part.upper())
        if card is None:
            raise IllegalMove(f"{text!r} is not {move}: {part!r} is not a card code (a rank from "
                              f"{RANKS} and a suit from {SUITS}); {how}")
        if card not in set(int(c) for c in deck):
            raise IllegalMove(f"{CODES[card]} is not in the {game} deck, which holds "
                              f"{deck_description(deck)}")
        cards.append(card)
    return cards
