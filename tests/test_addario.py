"""The Addario engine, players and solver against the plain-Python reference."""

import random

import numpy as np
import pytest

from tests.reference import addario_ref as ref
from winnable import get_game
from winnable.cards import DealError
from winnable.rules import addario as R

GAME = get_game("addario")
SETTINGS = [{"column_free_equal": False}, {"column_free_equal": True}]


def deals(count, seed):
    rng = random.Random(seed)
    return [ref.random_deal(rng) for _ in range(count)]


def solve(codes, solver, flags):
    return GAME.solve(" ".join(codes), flags, solver)


@pytest.mark.parametrize("flags", SETTINGS, ids=["strict-tiers", "column_free_equal"])
def test_first_player_matches_reference(flags):
    cfe = flags["column_free_equal"]
    for codes in deals(1500, seed=1 + cfe):
        result = solve(codes, "first", flags)
        score, moves = ref.play_first(codes, cfe)
        assert (result.score, result.moves) == (score, moves), codes
        assert result.outcome == ("win" if score == 40 else "loss")


@pytest.mark.parametrize("flags", SETTINGS, ids=["strict-tiers", "column_free_equal"])
def test_thoughtful_matches_reference_and_lines_replay(flags):
    cfe = flags["column_free_equal"]
    better = 0
    for codes in deals(1500, seed=10 + cfe):
        best = solve(codes, "thoughtful", flags)
        assert best.score == ref.best_score(codes, cfe), codes
        assert ref.replay(codes, best.moves, cfe) == best.score
        assert best.outcome == ("win" if best.score == 40 else "loss")
        first = solve(codes, "first", flags)
        assert first.score <= best.score
        better += best.score > first.score
    assert better > 0  # choices matter on some deals, so the search is really exercised


@pytest.mark.parametrize("flags", SETTINGS, ids=["strict-tiers", "column_free_equal"])
def test_nopeek_plays_legally(flags):
    cfe = flags["column_free_equal"]
    for codes in deals(300, seed=20 + cfe):
        result = solve(codes, "nopeek", flags)
        assert ref.replay(codes, result.moves, cfe) == result.score
        assert result.score <= ref.best_score(codes, cfe)


def test_budget_gives_unknown_never_loss():
    """Deals the full search proves lost, searched with a budget too small to finish: unknown,
    never lost, with a line that replays to its score, no more than the deal's best."""
    met = 0
    for n in range(1, 2000):
        full = GAME.solve(n, solver="thoughtful")
        if full.outcome != "loss" or full.nodes <= 60:
            continue
        small = GAME.solve(n, solver="thoughtful", budget=5)
        assert small.outcome == "unknown", n
        assert small.score <= full.score
        assert ref.replay(small.deal.split(), small.moves) == small.score
        met += 1
        if met == 5:
            break
    assert met == 5


def _board(columns_values):
    """Engine arrays for a tableau given as columns of values (bottom first); deck index =
    the order the cells are listed (column by column), then the deck."""
    columns, heights, state = R.new_tableau()
    values = []
    for c, col in enumerate(columns_values):
        for r, v in enumerate(col):
            columns[c, r] = len(values)
            values.append(v)
        heights[c] = len(col)
    state[0] = len(values)
    return columns, heights, state, values


def pair_positions(pair):
    """A pair code of ``top_tier_pairs`` as ((row, column), (row, column)), 1-based, in reading
    order: the worked examples of the rules text name cards so."""
    a, b = divmod(int(pair), 64)
    return (a // R.COLS + 1, a % R.COLS + 1), (b // R.COLS + 1, b % R.COLS + 1)


def _values_rows(columns, heights, values):
    top = int(max(heights))
    return [[values[columns[c, r]] if heights[c] > r else None for c in range(4)] for r in range(top)]


def test_worked_example_1():
    # row 1 = 1 5 9 7, row 2 = 3 5 3 9
    columns, heights, state, values = _board([[1, 3], [5, 5], [9, 3], [7, 9]])
    values += [2, 4, 6, 8]  # the deck
    v = np.array(values, dtype=np.int64)
    pairs = np.zeros(R.MAX_PAIRS, dtype=np.int64)
    taken = []
    while (n := R.top_tier_pairs(columns, heights, v, False, pairs)):
        taken.append((pair_positions(pairs[0]), n))
        R.remove_pair(heights, state, pairs[0])
    # The 3s of row 2 (row pair), the 5s in column 2 (column pair), then the two 9s (free).
    assert [t[0] for t in taken] == [((2, 1), (2, 3)), ((1, 2), (2, 2)), ((1, 3), (2, 4))]
    assert _values_rows(columns, heights, v) == [[1, None, None, 7]]
    drawn = state[0]
    assert R.refill_or_deal(columns, heights, state, len(values))
    assert state[0] - drawn == 2  # only the two middle cards are replaced
    assert _values_rows(columns, heights, v) == [[1, 2, 4, 7]]


def test_worked_example_2():
    # row 1 = 1 5 9 2, row 2 = 7 . 3 ., row 3 = 1, row 4 = 4: nothing to pair, 8 holes.
    columns, heights, state, values = _board([[1, 7, 1, 4], [5], [9, 3], [2]])
    values += [4, 3, 4, 8, 4, 8, 5, 6, 10, 10]  # the deck, in drawing order
    v = np.array(values, dtype=np.int64)
    pairs = np.zeros(R.MAX_PAIRS, dtype=np.int64)
    assert R.top_tier_pairs(columns, heights, v, False, pairs) == 0
    drawn = state[0]
    assert R.refill_or_deal(columns, heights, state, len(values))
    assert state[0] - drawn == 8
    assert _values_rows(columns, heights, v) == [[1, 5, 9, 2], [7, 4, 3, 3], [1, 4, 8, 4], [4, 8, 5, 6]]
    # No pair: the covered 3s of row 2 and 4s of row 3 do not count; a fifth row is dealt.
    for cfe in (False, True):
        assert R.top_tier_pairs(columns, heights, v, cfe, pairs) == 0
    assert R.refill_or_deal(columns, heights, state, len(values))
    assert list(heights) == [5, 5, 4, 4]  # the deck ran short: two cards for row 5


def test_authors_hypothetical_without_the_8():
    # As example 2 after the refill, without the 8 in row 4 of column 2.
    columns, heights, state, values = _board([[1, 7, 1, 4], [5, 4, 4], [9, 3, 8, 5], [2, 3, 4, 6]])
    v = np.array(values, dtype=np.int64)
    pairs = np.zeros(R.MAX_PAIRS, dtype=np.int64)
    n = R.top_tier_pairs(columns, heights, v, False, pairs)
    assert [pair_positions(p) for p in pairs[:n]] == [((2, 2), (3, 2))]  # the column of 4s
    R.remove_pair(heights, state, pairs[0])
    n = R.top_tier_pairs(columns, heights, v, False, pairs)
    assert [pair_positions(p) for p in pairs[:n]] == [((1, 2), (4, 3))]  # the freed 5 pairs
    columns, heights, state, values = _board([[1, 7, 1, 4], [5, 4, 4], [9, 3, 8, 5], [2, 3, 4, 6]])
    n = R.top_tier_pairs(columns, heights, v, True, pairs)
    # Author's variant: the column pair and the free pair of 4s are one tier.
    assert [pair_positions(p) for p in pairs[:n]] == [((2, 2), (3, 2)), ((3, 2), (4, 1))]


def test_reference_worked_examples():
    ref.check_example_1()
    ref.check_example_2()


def test_move_notation_and_layout():
    result = GAME.solve(1)
    assert result.solver == "first"
    assert all(len(m.split("+")) == 2 for m in result.moves)
    assert "first row:" in GAME.layout(GAME.deal(1))


def test_bad_deals():
    good = GAME.format_deal(GAME.deal(1)).split()
    with pytest.raises(DealError, match="card 8C .* not in the addario deck"):
        GAME.parse_deal(" ".join(good[:-1] + ["8C"]))
    with pytest.raises(DealError, match="has 40 cards, got 39"):
        GAME.parse_deal(" ".join(good[:-1]))
