"""PySolFC's game numbers for Chinese Solitaire (winnable/numbering.py), pinned against a
separate re-derivation of PySolFC's own algorithm (its generators, shuffle and
ChineseDiscipline.startGame, written here from pysollib's source without pysol_cards) and
against Microsoft FreeCell deal 1, the best known layout PySolFC's small numbers reproduce."""

import random

import numpy as np
import pytest

from winnable import get_game
from winnable.cards import CODES, parse_card
from winnable.numbering import (NumberingError, check_numbering, parse_pysol_number,
                                pysol_deal, pysol_deals, pysol_game, pysol_order)
from winnable.rules.chinese import FACE_DOWN


# --- PySolFC, re-derived -----------------------------------------------------------------------

def ms_generator(seed):
    """pysol_cards.random.LCRandom31 for seeds below 2^32: Microsoft's rand()."""
    state = seed

    def randint(a, b):
        nonlocal state
        state = (state * 214013 + 2531011) & ((1 << 33) - 1)
        value = (state >> 16) & 0x7FFF
        if seed >= 0x80000000:
            value |= 0x8000
        return a + value % (b + 1 - a)
    return randint


def mt_generator(seed):
    """PySolFC's MTRandom: Python's Mersenne Twister, randint = a + int(random() * (b+1-a))."""
    rng = random.Random(seed)
    return lambda a, b: a + int(rng.random() * (b + 1 - a))


def pysolfc_talon(number):
    """Game.shuffle: card ids 0-51 (suit * 13 + rank, suits C S H D), Microsoft's order for
    numbers below 32000 (construct_random), Fisher-Yates from the last card down."""
    cards = list(range(52))
    if number < 32000:
        cards = [cards[i + j] for i in range(13) for j in (0, 39, 26, 13)]
        randint = ms_generator(number)
    else:
        randint = mt_generator(number)
    for n in range(51, 0, -1):
        j = randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def chinese_discipline_start(number):
    """ChineseDiscipline.startGame on the talon: each dealRow moves the talon's last card
    onto each row stack in order, face up or down; returns the seven piles (bottom first, as
    (card, face_up)) and the talon left (its stock)."""
    talon = pysolfc_talon(number)
    rows = [[] for _ in range(7)]

    def deal_row(stacks, flip):
        for r in stacks:
            rows[r].append((talon.pop(), flip))

    for i in (3, 3, 3, 4, 5, 6):
        deal_row(range(i), True)
        deal_row(range(i, 7), False)
    deal_row(range(7), True)  # _startAndDealRow
    stock = [talon.pop() for _ in range(len(talon))]  # DealRowTalonStack: onto rows 1, 2, 3
    return rows, stock


def our_card(pysol_id):
    suit, rank = divmod(pysol_id, 13)
    return parse_card("A23456789TJQK"[rank] + "CSHD"[suit])


# Small numbers (Microsoft's generator), the switch at 32000, large ones (Mersenne Twister),
# above 2^32 and 2^63.
NUMBERS = (1, 2, 617, 11982, 31999, 32000, 32001, 123456, 2**32 + 5, 10**16 + 3,
           12345678901234567890)


@pytest.mark.parametrize("number", NUMBERS)
def test_pysol_deal_is_chinese_discipline_start(number):
    rows, stock = chinese_discipline_start(number)
    deal = pysol_deal(number)
    for p in range(7):
        assert [our_card(c) for c, _ in rows[p]] == list(deal[7 * p:7 * p + 7])
        # PySolFC's face-down cards are our face-down ones: the bottom FACE_DOWN[p] cards.
        assert [up for _, up in rows[p]] == [h >= FACE_DOWN[p] for h in range(7)]
    assert [our_card(c) for c in stock] == list(deal[49:])
    assert sorted(deal) == list(range(52))


def test_microsoft_freecell_deal_1():
    """PySolFC's FreeCell game 1 is Microsoft's deal 1 (dealt row by row onto 8 columns from
    the talon's top): the same generator and card order as Chinese game 1."""
    expected = """JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C
                  4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC
                  6S 9C 2H 6H""".split()
    dealt = [our_card(c) for c in reversed(pysol_order(1))]
    assert [CODES[c] for c in dealt] == expected
    deal = pysol_deal(1)
    # The same 52 cards, dealt 7 to a row: pile 1 gets dealt cards 0, 7, 14, ...
    assert [CODES[c] for c in deal[:7]] == expected[0:49:7]
    assert [CODES[c] for c in deal[49:]] == expected[49:]


def test_game_numbers_as_pysolfc_reads_them():
    assert parse_pysol_number(1234) == (True, 1234)
    assert parse_pysol_number("#1234") == (True, 1234)
    assert parse_pysol_number(" 32000 ") == (False, 32000)
    assert parse_pysol_number("ms40000") == (True, 40000)
    assert parse_pysol_number("12,345,678") == (False, 12345678)
    for bad in ("0", "abc", "ms0", f"ms{2**33}", str(10**20), "12x", "1.5e3"):
        with pytest.raises(NumberingError):
            parse_pysol_number(bad)
    # ms40000 is Microsoft's generator, 40000 the Mersenne Twister: two different deals.
    assert not np.array_equal(pysol_deal("ms40000"), pysol_deal(40000))
    assert np.array_equal(pysol_deal("ms1234"), pysol_deal(1234))


def test_rules_and_numbering_names():
    assert pysol_game() == "Chinese Discipline" and pysol_game(["easy=1"]) == "Chinese Solitaire"
    assert np.array_equal(pysol_deal(5), pysol_deal(5, ["easy=1"]))  # one layout, both games
    assert np.array_equal(pysol_deals([5, 40000]), np.stack([pysol_deal(5), pysol_deal(40000)]))
    assert check_numbering("PySol", "chinese") == "pysol"
    assert check_numbering(None, "nineball") == "winnable"
    with pytest.raises(NumberingError, match="chinese only"):
        check_numbering("pysol", "nineball")
    with pytest.raises(NumberingError, match="unknown numbering"):
        check_numbering("ms", "chinese")
    g = get_game("chinese")
    assert np.array_equal(g.deals([7, 40000], numbering="pysol"), pysol_deals([7, 40000]))
