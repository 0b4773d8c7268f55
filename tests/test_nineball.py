"""The Nineball engine and solver against the plain-Python reference in tests/reference."""

import random
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.reference import nineball_ref as ref
from winnable import get_game
from winnable.cards import CODES, DealError
from winnable.rules import nineball as R

GAME = get_game("nineball")

FLAG_SETTINGS = [
    {},
    {"kitchen_per_group": 1},
    {"targets": (9,)},
    {"kitchen_per_group": 1, "targets": (9,)},
    {"kitchen_per_group": 2, "targets": (9, 19)},
    {"kitchen_bonus": "always"},
    {"kitchen_bonus": "always", "targets": (9,), "kitchen_per_group": 1},
]


def ref_kwargs(flags):
    return {"kitchen_per_group": flags.get("kitchen_per_group", 3),
            "targets": flags.get("targets", (9, 19)),
            "kitchen_bonus": flags.get("kitchen_bonus", "on_clear")}


def cards_of(deal_codes):
    return GAME.parse_deal(" ".join(deal_codes))


def random_deals(count, seed):
    rng = random.Random(seed)
    return [ref.random_deal(rng) for _ in range(count)]


@pytest.mark.parametrize("flags", FLAG_SETTINGS, ids=lambda f: GAME.rules(f).label)
def test_best_score_matches_reference_and_lines_replay(flags):
    kw = ref_kwargs(flags)
    deals = random_deals(500, seed=zlib.crc32(GAME.rules(flags).label.encode()) % 10**6)
    wins = 0
    for codes in deals:
        result = GAME.solve(cards_of(codes), flags)
        assert result.score == ref.best_score(codes, **kw), codes
        # The reported line is legal and scores what it claims.
        finished = kw["kitchen_bonus"] == "on_clear"
        assert ref.replay(codes, result.moves, require_finished=finished, **kw) == result.score
        if kw["kitchen_bonus"] == "on_clear":
            assert (result.outcome == "win") == ref.can_win(codes, kw["kitchen_per_group"], kw["targets"])
        wins += result.outcome == "win"
    # Not a degenerate test: both outcomes occur with the restrictive targets.
    if flags.get("targets") == (9,):
        assert 0 < wins < len(deals)


@pytest.mark.parametrize("flags", FLAG_SETTINGS[:5], ids=lambda f: GAME.rules(f).label)
def test_legal_groups_match_reference_along_random_play(flags):
    kw = ref_kwargs(flags)
    rules = GAME.rules(flags)
    limit, mask, _ = R.rule_params(rules)
    rng = random.Random(7)
    out = np.zeros(R.MAX_GROUPS, dtype=np.int64)
    for codes in random_deals(300, seed=11):
        cards = cards_of(codes)
        values = R.card_values(cards)
        sums = R.rack_sums(values)
        state = R.INITIAL_STATE
        pos = ref.initial_position(codes)
        while True:
            n = R.legal_groups(state, values, sums, limit, mask, out)
            engine = {frozenset(CODES[c] for c in R.group_cards(cards, state, int(g))): int(g)
                      for g in out[:n]}
            assert len(engine) == n  # no group twice
            expected = set(ref.legal_groups(pos, kw["kitchen_per_group"], kw["targets"]))
            assert set(engine) == expected
            assert R.final_score(state, False) == ref.score(pos, "on_clear")
            assert R.final_score(state, True) == ref.score(pos, "always")
            if not expected:
                break
            group = rng.choice(sorted(expected, key=sorted))
            state = R.apply_group(state, engine[group])
            pos = ref.apply_group(pos, group)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.permutations([CODES[c] for c in R.DECK]))
def test_any_permutation_solves_consistently(codes):
    result = GAME.solve(cards_of(codes))
    assert result.score == ref.best_score(codes)
    assert ref.replay(codes, result.moves) == result.score
    assert result.nodes >= 1 and result.outcome in ("win", "loss")


def test_worked_example_of_the_text():
    codes = ref.worked_example_deal()
    deal = " ".join(codes)
    # The author's line is legal when a group may use at most one kitchen card, and ends stuck
    # with the rack's 8 left: 8 points, no bonus.
    author = ["2H+7H", "3D+AH+5H", "8D+4H+3H+4D", "9H", "9D"]
    assert ref.replay(codes, author, kitchen_per_group=1) == 8
    # Our engine sees the same: after the author's line no group exists under that flag.
    cards = GAME.parse_deal(deal)
    values = R.card_values(cards)
    sums = R.rack_sums(values)
    limit, mask, _ = R.rule_params(GAME.rules({"kitchen_per_group": 1}))
    out = np.zeros(R.MAX_GROUPS, dtype=np.int64)
    state = R.INITIAL_STATE
    for move in author:
        n = R.legal_groups(state, values, sums, limit, mask, out)
        by_cards = {frozenset(CODES[c] for c in R.group_cards(cards, state, int(g))): int(g) for g in out[:n]}
        state = R.apply_group(state, by_cards[frozenset(move.split("+"))])
    assert R.legal_groups(state, values, sums, limit, mask, out) == 0
    assert R.final_score(state, False) == 8
    # Under the literal rule, 8 + 2 + 9 = 19 clears the rack where the author stopped.
    limit3, mask3, _ = R.rule_params(GAME.rules())
    state = R.INITIAL_STATE
    for move in author[:3]:
        n = R.legal_groups(state, values, sums, limit3, mask3, out)
        by_cards = {frozenset(CODES[c] for c in R.group_cards(cards, state, int(g))): int(g) for g in out[:n]}
        state = R.apply_group(state, by_cards[frozenset(move.split("+"))])
    n = R.legal_groups(state, values, sums, limit3, mask3, out)
    groups = {frozenset(CODES[c] for c in R.group_cards(cards, state, int(g))) for g in out[:n]}
    assert frozenset({"8H", "2D", "9H"}) in groups
    # "If ... the ace had been there, you would have ... cleared the rack": swap the ace and
    # the 6 under the first 9 and the one-kitchen-card line clears.
    swapped = list(codes)
    i, j = swapped.index("AD"), swapped.index("6H")
    swapped[i], swapped[j] = swapped[j], swapped[i]
    score = ref.replay(swapped, author[:4] + ["8H+AD"], kitchen_per_group=1)
    assert score >= 19
    # And the solvers agree on both deals under both readings.
    for flags in ({}, {"kitchen_per_group": 1}):
        for d in (codes, swapped):
            assert GAME.solve(" ".join(d), flags).score == ref.best_score(d, **ref_kwargs(flags))


def test_line_of_play_notation():
    result = GAME.solve(1)
    assert result.deal == "5D 7D 8D 4D 8H AH 2H 3D 7H 3H 4H 9D 6H AD 6D 2D 5H 9H"
    assert result.moves == ["2H+7H", "9D", "3D+6D", "8H+AH", "7D+8D+4D", "5D+4H"]
    assert (result.outcome, result.score) == ("win", 25)


@pytest.mark.parametrize("text, needle", [
    ("AH 2H", "has 18 cards, got 2"),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H AD 2D 3D 4D 5D 6D 7D 8D ZZ", "unknown card code 'ZZ'"),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H AD 2D 3D 4D 5D 6D 7D 8D TD", "card TD (position 18) is not in the nineball deck"),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H AD 2D 3D 4D 5D 6D 7D 8D AH", "card AH appears twice (positions 1 and 18)"),
])
def test_bad_deals_are_refused_with_one_line(text, needle):
    with pytest.raises(DealError) as info:
        GAME.parse_deal(text)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_parsing_is_case_insensitive():
    text = GAME.format_deal(GAME.deal(5))
    assert (GAME.parse_deal(text.lower()) == GAME.deal(5)).all()
