"""Deal numberings: which deal a number names.

``winnable`` (the default) is the project's own numbering (``winnable.shuffle``): deal n of a
game, the same everywhere.  ``pysol`` is PySolFC's game numbers for Chinese Solitaire, so that a
PySolFC player can type the number PySolFC shows in its title bar:

* PySolFC plays our strict rules as "Chinese Discipline" (game id 187: only kings to spaces)
  and ``easy=1`` as "Chinese Solitaire" (id 188: any card to a space); both deal alike
  (``pysollib/games/yukon.py``), so game N is the same layout under both.
* The generator (``pysollib/pysolrandom.py``, ``construct_random``): a number below 32,000 is
  Microsoft's linear congruential generator (pysol_cards' ``LCRandom31``), and the deck is first
  put in Microsoft's order (``ms_rearrange``: A of clubs, diamonds, hearts, spades, then the 2s,
  ...); 32,000 and above are Python's Mersenne Twister seeded with the number (``MTRandom``)
  on the deck in PySolFC's own order.  A number written ``msN`` (N below 2^33) is the Microsoft
  generator whatever its size, as in PySolFC.  (pysol_cards' own ``shuffle`` switches at
  32,001 instead; PySolFC's switch is the one used here.)
* The shuffle (``Game.shuffle`` in ``pysollib/game/__init__.py``): PySolFC's deck in card-id
  order (suits clubs, spades, hearts, diamonds, each ace to king), Fisher-Yates from the last
  card down with ``j = randint(0, i)`` (pysol_cards' ``RandomBase.shuffle``); the result is the
  talon bottom first, so the last card is dealt first.
* The dealing (``ChineseDiscipline.startGame``): seven rows onto the seven piles, left to
  right; in rows 1-6 the first 3, 3, 3, 4, 5, 6 piles get a face-up card and the rest a
  face-down one, row 7 is face up everywhere (so piles 4-7 hold 3, 4, 5, 6 face-down cards at
  the bottom, as in our layout), and the 3 cards left are the stock, which PySolFC's talon
  later deals onto piles 1, 2, 3 (the next card onto pile 1).

Our deal is the deck order pile by pile (pile 1 bottom to top, then pile 2, ...; then the stock,
its card for pile 1 first: ``winnable.rules.chinese``), so with D the k-th card PySolFC deals
(k = 0, 1, ...): our card ``7p + h`` (pile p, height h) is ``D[7h + p]`` and our cards 49-51 are
``D[49..51]``.  A PySolFC card (suit s, rank r) is our card ``SUIT[s] * 13 + r``, PySolFC's suits
0-3 being clubs, spades, hearts, diamonds and ours clubs, diamonds, hearts, spades.
``tests/test_numbering.py`` pins this against a separate re-derivation of PySolFC's algorithm
and against Microsoft FreeCell deal 1.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .errors import UserError

if TYPE_CHECKING:
    import numpy as np

# Light to import (the command line's registry of games takes LAST_DEAL from here): numpy, the
# Chinese rules and pysol_cards load when a PySolFC deal is first asked for.

LAST_DEAL = 2**63 - 1  # deal numbers run from 1 to this; stored as int64 (the `seed` column)
WINNABLE, PYSOL = "winnable", "pysol"
NUMBERINGS = (WINNABLE, PYSOL)
# Games (by name) that have each numbering besides their own.
GAMES_OF = {PYSOL: ("chinese",)}
# PySolFC's two games of these rules (strict; easy=1), with their PySolFC ids.
PYSOL_GAMES = {False: ("Chinese Discipline", 187), True: ("Chinese Solitaire", 188)}
MS_BELOW = 32000  # PySolFC deals numbers below this with Microsoft's generator
MS_MAX = (1 << 33) - 1  # the largest msN PySolFC accepts
PYSOL_MAX = 10**20 - 1  # PySolFC's game numbers have at most 20 digits
SUIT = (0, 3, 2, 1)  # PySolFC suit (C, S, H, D) -> our suit
_NUMBER = re.compile(r"(ms)?([0-9]+)")


class NumberingError(UserError):
    """A numbering or game number a user gave is not valid (one-line message)."""


def check_numbering(numbering: str, game: str) -> str:
    """The numbering's name if ``game`` has it; a one-line error otherwise."""
    name = (numbering or WINNABLE).strip().lower()
    if name not in NUMBERINGS:
        raise NumberingError(f"unknown numbering {numbering!r}: choose one of "
                             f"{', '.join(NUMBERINGS)}")
    if name != WINNABLE and game not in GAMES_OF[name]:
        raise NumberingError(f"numbering {name} (PySolFC's game numbers) is for --game "
                             f"{' or '.join(GAMES_OF[name])} only, not {game}")
    return name


def parse_pysol_number(number: int | str) -> tuple[bool, int]:
    """(Microsoft generator?, seed) of a PySolFC game number: a whole number 1 to 10^20 - 1,
    or ``msN`` (N from 1 to 2^33 - 1); a leading ``#`` and the separators PySolFC ignores
    (spaces, ``-_.,``) are allowed."""
    text = str(number).strip().lower()
    digits = re.sub(r"[\s\-_.,]", "", text.removeprefix("#"))
    match = _NUMBER.fullmatch(digits)
    if not match:
        raise NumberingError(f"PySolFC game number {number!r} is not a whole number (or msN): "
                             "expected e.g. 1234 or ms1234")
    ms, seed = bool(match.group(1)), int(match.group(2))
    high = MS_MAX if ms else PYSOL_MAX
    if not 1 <= seed <= high:
        raise NumberingError(f"PySolFC game number {number} is out of range: expected "
                             f"{'ms' if ms else ''}1 to {'ms' if ms else ''}{high}")
    return ms or seed < MS_BELOW, seed


def pysol_order(number: int | str) -> list[int]:
    """PySolFC's talon after its shuffle for game ``number``, bottom first (the last card is
    dealt first), as PySolFC card ids (suit * 13 + rank, suits C, S, H, D)."""
    from pysol_cards.cards import ms_rearrange
    from pysol_cards.random import LCRandom31, MTRandom
    ms, seed = parse_pysol_number(number)
    cards = list(range(52))
    generator = LCRandom31(seed) if ms else MTRandom(seed)
    return generator.shuffle(ms_rearrange(cards) if ms else cards)


# Our position i <- the index in PySolFC's dealing order (k-th card dealt) it receives.
_DEALT = tuple([7 * (i % 7) + i // 7 for i in range(49)] + [49, 50, 51])


def pysol_deal(number: int | str, variant=None) -> np.ndarray:
    """The initial layout of PySolFC game ``number`` (Chinese Discipline under our strict rules,
    Chinese Solitaire under ``easy=1``: the same layout) as our deal: card ids, deck order."""
    return pysol_deals([number], variant)[0]


def pysol_deals(numbers, variant=None) -> np.ndarray:
    """``pysol_deal`` of each number, one row each."""
    import numpy as np
    chinese_rules(variant)  # a bad variant is refused here too
    suit, dealt_at = np.array(SUIT, dtype=np.int8), np.array(_DEALT, dtype=np.int64)
    out = np.empty((len(numbers), 52), dtype=np.int8)
    for k, number in enumerate(numbers):
        dealt = np.asarray(pysol_order(number), dtype=np.int64)[::-1]  # the top card first
        out[k] = (suit[dealt // 13] * 13 + dealt % 13)[dealt_at]
    return out


def pysol_game(variant=None) -> str:
    """The name of PySolFC's game under these rules, e.g. ``Chinese Discipline``."""
    name, _ = PYSOL_GAMES[bool(chinese_rules(variant)["easy"])]
    return name


def chinese_rules(variant):
    """Chinese Solitaire's rules from the flags ``variant``, as its game reads them (from the
    rules module: the games depend on this module, not this module on them)."""
    from .rules import chinese
    from .variants import parse_rules
    return parse_rules(chinese.NAME, chinese.FLAGS, variant)
