"""Whole-deal Chinese Solitaire losses against a plain search written apart from the engine
(tests/reference/chinese_plain.py: its own move generator, no reduction but pile symmetry).

The engine proves most strict losses with reductions and loss tests (h^2, h^3, the occupation
test) that tests/test_chinese.py and tests/test_chinese_critical.py check on small positions; a
whole lost deal is checked here, where the plain search visits every position reachable from it.
Most strict lost deals reach too many positions for that (more than 2^21 = 2,097,152: deals
64, 77, 83, 84, 146 and 149, the first six lost ones, and most after them); ``LOST_DEALS`` are
a seeded sample of those that reach fewer (results/chinese/plain_losses.md)."""

import csv
import random
from pathlib import Path

import pytest

from tests.reference import chinese_plain as plain
from tests.reference import chinese_ref as ref
from winnable import get_game

ROOT = Path(__file__).resolve().parent.parent
GAME = get_game("chinese")
RULES = [(False, "any"), (True, "any"), (False, "sequence"), (True, "sequence")]


def codes(seed):
    return GAME.format_deal(GAME.deal(seed)).split()


@pytest.mark.parametrize("easy, blocks", RULES)
def test_the_plain_move_generator_is_the_reference_s(easy, blocks):
    """Along random play, the plain search's legal moves and positions are those of the other
    reference (tests/reference/chinese_ref.py), written apart from it."""
    rng = random.Random(f"plain{easy}{blocks}")
    for _ in range(15):
        deal = ref.random_deal(rng)
        mine, theirs = plain.Position(deal, easy, blocks), ref.initial_state(deal)
        for _ in range(150):
            assert mine.view() == (theirs.piles, theirs.foundations, theirs.stock)
            legal = ref.legal_moves(theirs, easy, blocks)
            assert mine.moves() == legal
            if not legal:
                break
            move = rng.choice(legal)
            mine.play(move)
            theirs = ref.apply_move(theirs, move, easy, blocks)


def test_the_plain_search_agrees_with_the_reference_search():
    """On deals with Klondike-style blocks, whose reachable spaces are small, the plain search
    (positions stored whole, interchangeable piles as one) and the reference's own plain search
    (tests/reference/chinese_ref.py, positions as they are) give the same verdict wherever the
    reference finishes within 300 positions.  And it finds wins: deals 24 and 28 in easy mode,
    won by the engine's lines that the reference replays."""
    losses = 0
    for seed in range(1, 21):
        for easy in (False, True):
            deal = codes(seed)
            expected, _ = ref.solve(deal, easy, "sequence", 300)
            if expected != "unknown":
                assert plain.solve(deal, easy, "sequence", 100_000)[0] == expected, (seed, easy)
                losses += expected == "loss"
    assert losses >= 30, losses
    for seed in (24, 28):
        line = GAME.solve(seed, {"easy": 1, "blocks": "sequence"}).moves
        assert ref.replay(codes(seed), line, True, "sequence") == 52
        assert plain.solve(codes(seed), True, "sequence", 100_000)[0] == "win"


# Strict deals (the default rules) that the engine proves lost and whose reachable space is
# small enough to visit whole: the seeded sample of results/chinese/plain_losses.csv, drawn by
# experiments/chinese_plain_losses.py from the lost deals of 1-10,000 in
# results/chinese/catalogue_winnable.csv whose plain search finished within LIMIT positions.
# Those of at most QUICK_POSITIONS positions run in CI's `slow` step; the others are `long`.
# Deal 2461 (50,233 positions) came first, from a limit of 200,000 over all 380 lost deals.
LIMIT = 1 << 21  # the experiment's limit: the plain search's table of 2^22 positions half full
QUICK_POSITIONS = 1_000_000
EARLIER = ((2461, 50_233),)


def lost_sample() -> list[tuple[int, int]]:
    """(deal, positions the experiment's plain search visited) of each sampled deal."""
    with open(ROOT / "results" / "chinese" / "plain_losses.csv", newline="") as f:
        return [(int(row["deal"]), int(float(row["positions"]))) for row in csv.DictReader(f)
                if row["sample"] == "True"]


LOST_DEALS = [pytest.param(seed, marks=pytest.mark.slow if positions <= QUICK_POSITIONS
                           else pytest.mark.long, id=str(seed))
              for seed, positions in [*lost_sample(), *EARLIER]]


@pytest.mark.parametrize("seed", LOST_DEALS)
def test_a_whole_deal_the_engine_proves_lost_is_lost_to_the_plain_search(seed):
    """The engine's verdict, at the default settings, is a loss, and the plain search, from the
    deal's text alone, visits every reachable position without meeting a win."""
    assert GAME.solve(seed).outcome == "loss"
    assert plain.solve(codes(seed), limit=LIMIT)[0] == "loss"
