"""The deal numbering is the project's own algorithm: pinned here, independently re-implemented."""

import numpy as np
import pytest

from tests.reference import stream_ref
from winnable import GAME_NAMES, get_game
from winnable.cards import CODES

# Deal 1-3 of each game, written out: these must never change.
PINNED = {
    "nineball": [
        "5D 7D 8D 4D 8H AH 2H 3D 7H 3H 4H 9D 6H AD 6D 2D 5H 9H",
        "3H AD 9H 9D 3D 7H 4D 4H 5H 6H 8H AH 5D 8D 6D 2H 2D 7D",
        "5D 2H 7D 6H AH 5H 8D 3H 9D 4D 3D AD 6D 4H 7H 9H 8H 2D",
    ],
    "addario": [
        "4H 4C 7S 5C 6H JS QS JC 3D 4S KS AD 2S AC AH 7H JD KC 2H QD 3S 5H JH 7D 2D 2C KD 3C 6C "
        "QH 4D 3H 6S 6D 5D 7C QC 5S KH AS",
        "AS 7C JH AC 4C 5C 6D QD 7S KD 3D 7D 5D 2C JC KH KC 6H QC 3C QH 4D 4S 5S 2S KS QS 3H AH "
        "JS 2D 7H 6S 4H 6C 5H 3S AD 2H JD",
        "3D QH 5D 4S JH 6D 7C AD 7S KD 6S JC QC QS 6C 5C 2D 5S 3H 4D 7D AH JD 4C KH 3C 7H 3S 4H "
        "QD 2H 5H JS 2C 6H AS AC KC 2S KS",
    ],
}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_engine_matches_plain_algorithm(name):
    game = get_game(name)
    deck = [int(c) for c in game.deck]
    for n in list(range(1, 60)) + [10**6, 2**40 + 7]:
        assert [int(c) for c in game.deal(n)] == stream_ref.deal(name, deck, n)
    batch = game.deals(np.arange(1, 60))
    assert [[int(c) for c in row] for row in batch] == [stream_ref.deal(name, deck, n)
                                                        for n in range(1, 60)]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_first_deals_are_pinned(name):
    game = get_game(name)
    for n, text in enumerate(PINNED[name], start=1):
        assert game.format_deal(game.deal(n)) == text


def test_splitmix_reference_vector():
    # splitmix64 seeded with 0: first output 0xE220A8397B1DCDAF (published test vector).
    assert stream_ref.SplitMix(0).next() == 0xE220A8397B1DCDAF
    from winnable.shuffle import splitmix_next
    s = np.zeros(1, dtype=np.uint64)
    assert int(splitmix_next(s)) == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("name", GAME_NAMES)
def test_deals_are_permutations_and_roughly_uniform(name):
    game = get_game(name)
    deals = game.deals(np.arange(1, 20001))
    assert (np.sort(deals, axis=1) == np.sort(game.deck)).all()
    # Each card lands on top of the deck about equally often (chi-square, generous bound).
    counts = np.bincount(deals[:, 0].astype(np.int64), minlength=len(CODES))[game.deck.astype(np.int64)]
    expected = len(deals) / len(game.deck)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 3 * len(game.deck) + 30


def test_play_stream_is_the_documented_hash_of_the_deal():
    """Step 6 of winnable.shuffle: FNV-1a-64 of the game's name followed by the card ids."""
    from winnable.shuffle import play_stream
    for name in GAME_NAMES:
        game = get_game(name)
        for n in (1, 2, 999):
            deal = game.deal(n)
            expected = stream_ref.play_stream(name, [int(c) for c in deal]).state
            assert int(play_stream(np.uint64(game.salt), deal)[0]) == expected


def test_impossible_without_jokers_deals_deal_n_without_its_jokers():
    game = get_game("impossible")
    for n in range(1, 30):
        full = [int(c) for c in game.deal(n)]
        assert [int(c) for c in game.deal(n, {"jokers": 0})] == [c for c in full if c < 52]
    rows = game.deals(np.arange(1, 30), {"jokers": 0})
    assert rows.shape == (29, 52)
    assert [int(c) for c in rows[4]] == [int(c) for c in game.deal(5, {"jokers": 0})]
