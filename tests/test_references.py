"""The plain-Python references check themselves: worked examples, hand-made positions, and
identities a correct reference must satisfy on random deals.  (They were self-checks run by
hand; tests/test_<game>.py check the engine against them.)"""

import random
from fractions import Fraction

import pytest

from tests.reference import addario_ref, chinese_ref, impossible_ref
from tests.reference import nineball_nopeek_ref as nopeek_ref
from tests.reference import nineball_ref

# --- Nineball -------------------------------------------------------------------------------


def test_nineball_worked_example_and_illegal_moves():
    deal = nineball_ref.worked_example_deal()
    line = ["2H+7H", "3D+AH+5H", "8D+4H+3H+4D", "9H", "9D"]
    assert nineball_ref.replay(deal, line, kitchen_per_group=1) == 8
    pos = nineball_ref.initial_position(deal)
    for move in line:
        pos = nineball_ref.apply_group(pos, nineball_ref.parse_move(move))
    assert nineball_ref.is_over(pos, kitchen_per_group=1) and nineball_ref.score(pos) == 8
    assert not nineball_ref.rack_cleared(pos)
    # Default rules: after the first three moves 8H+2D+9H is legal and clears the rack.
    pos3 = nineball_ref.initial_position(deal)
    for move in line[:3]:
        pos3 = nineball_ref.apply_group(pos3, nineball_ref.parse_move(move))
    group = frozenset({"8H", "2D", "9H"})
    assert group in nineball_ref.legal_groups(pos3)
    end = nineball_ref.apply_group(pos3, group)
    assert nineball_ref.rack_cleared(end) and nineball_ref.is_over(end)
    assert nineball_ref.score(end) == 9 + 10 + 6
    assert nineball_ref.replay(deal, line[:3] + ["9h+2d+8H"]) == 25
    # A legal opening in any order and case.
    assert nineball_ref.replay(deal, ["7h+2H"], kitchen_per_group=1, require_finished=False) == 2
    illegal = [(["7H"], 3), (["2H+7H", "XX"], 3), (["2H+7H", "2D"], 3),
               (["2H+7H", "2H+7D"], 3), (["2H+7H", "3D+AH+5H", "8D+4H+3H+4D+9H"], 3),
               (["2H+7H", "3D+AH+5H", "8H+9D+2D"], 3), (["2H+7H", "3D+AH+5H", "9H+9D+AD"], 3),
               (["2H+7H", "5H+4D"], 3), (["2H+7H+9D"], 3), (["2H+7H+2h"], 3),
               (["2H+7H", "3D+AH+5H", "8D+4H+3H+4D", "8H+2D+9H"], 1), ([""], 3)]
    for bad, kitchen_per_group in illegal:
        with pytest.raises(nineball_ref.IllegalMove):
            nineball_ref.replay(deal, bad, kitchen_per_group=kitchen_per_group,
                                require_finished=False)
    with pytest.raises(nineball_ref.IllegalMove):  # unfinished
        nineball_ref.replay(deal, line[:4], kitchen_per_group=1)
    with pytest.raises(nineball_ref.IllegalMove):  # a move after the end
        nineball_ref.replay(deal, line + ["8H"], kitchen_per_group=1)
    assert nineball_ref.can_win(deal) and nineball_ref.best_score(deal) >= 25


def test_nineball_a_best_score_of_19_or_more_is_a_clear():
    rng = random.Random(12345)
    for _ in range(20):
        deal = nineball_ref.random_deal(rng)
        # A cleared rack scores at least 19; a game without a clear at most 17.
        assert nineball_ref.can_win(deal) == (nineball_ref.best_score(deal) >= 19), deal


# --- Nineball, the no-peek player -----------------------------------------------------------

def test_nopeek_a_sure_win_keeping_the_whole_kitchen():
    deal = nopeek_ref.kitchen_irrelevant_deal()
    assert nineball_ref.replay(deal, ["9H", "9D", "8H+AH", "7H+2H", "8D+7D+4D"]) == 28
    for flags in ({}, {"kitchen_bonus": "always"}):
        for objective in nopeek_ref.OBJECTIVES:
            assert nopeek_ref.nopeek_values_exact(deal, objective, **flags) == (28, 1)
            assert nopeek_ref.nopeek_play(deal, objective, **flags)[0] == 28


def test_nopeek_canonical_memo_key_changes_nothing():
    deal = nineball_ref.random_deal(random.Random(31))
    for objective in nopeek_ref.OBJECTIVES:
        raw = nopeek_ref.NoPeekSolver(objective, canonical=False).value(
            nopeek_ref.initial_info_state(deal))
        assert raw == nopeek_ref.nopeek_values_exact(deal, objective)


def _first_nontrivial_deal(flags, seed, most=60):
    """The first random deal whose values are not trivial (the objectives differ, or
    0 < P < 1), each deal on the way checked for the orderings between the objectives and
    the bounds against the thoughtful player."""
    nopeek_ref.clear_memo()
    rng = random.Random(seed)
    kitchen_per_group = flags.get("kitchen_per_group", 3)
    targets = flags.get("targets", nineball_ref.DEFAULT_TARGETS)
    for _ in range(most):
        deal = nineball_ref.random_deal(rng)
        score_first = nopeek_ref.nopeek_values_exact(deal, "score", **flags)
        win_first = nopeek_ref.nopeek_values_exact(deal, "win", **flags)
        assert win_first[1] >= score_first[1] and score_first[0] >= win_first[0], deal
        best = nineball_ref.best_score(deal, **flags)
        win = nineball_ref.can_win(deal, kitchen_per_group, targets)
        for objective in nopeek_ref.OBJECTIVES:
            score, line = nopeek_ref.nopeek_play(deal, objective, **flags)
            assert score <= best  # the player who sees every card does at least as well
            assert nineball_ref.replay(deal, ["+".join(g) for g in line],
                                       require_finished=False, **flags) == score
            assert score < 19 or win
        if score_first != win_first or 0 < score_first[1] < 1:
            return deal
    raise AssertionError(f"no deal with non-trivial values among {most} random ones")


# Seeds whose first random deal has non-trivial values (most deals' are trivial, and every
# deal tried costs a search): the check below costs seconds a deal.
NONTRIVIAL_SEEDS = [({}, 8), ({"kitchen_per_group": 1}, 777)]


@pytest.mark.parametrize("flags, seed", NONTRIVIAL_SEEDS,
                         ids=[str(f or "default") for f, _ in NONTRIVIAL_SEEDS])
def test_nopeek_values_are_the_mean_of_its_play_over_every_arrangement(flags, seed):
    """The policy looks only at the information state, so playing it on each of the 720
    arrangements of the face-down cards and averaging gives exactly its values; the
    thoughtful player's mean over the same arrangements bounds them."""
    deal = _first_nontrivial_deal(flags, seed)
    kitchen_per_group = flags.get("kitchen_per_group", 3)
    targets = flags.get("targets", nineball_ref.DEFAULT_TARGETS)
    arrangements = list(nopeek_ref.arrangements(deal))
    best_total = sum(nineball_ref.best_score(a, **flags) for a in arrangements)
    winnable = sum(nineball_ref.can_win(a, kitchen_per_group, targets) for a in arrangements)
    for objective in nopeek_ref.OBJECTIVES:
        expected, chance = nopeek_ref.nopeek_values_exact(deal, objective, **flags)
        scores = [nopeek_ref.nopeek_play(a, objective, **flags)[0] for a in arrangements]
        assert Fraction(sum(scores), 720) == expected
        assert Fraction(sum(s >= 19 for s in scores), 720) == chance
        assert expected <= Fraction(best_total, 720) and chance <= Fraction(winnable, 720)


# --- Addario --------------------------------------------------------------------------------



@pytest.mark.parametrize("column_free_equal", [False, True])
def test_addario_the_first_line_replays_and_choice_never_hurts(column_free_equal):
    rng = random.Random(12345)
    for _ in range(20):
        deal = addario_ref.random_deal(rng)
        score, moves = addario_ref.play_first(deal, column_free_equal)
        assert addario_ref.replay(deal, moves, column_free_equal) == score
        best = addario_ref.best_score(deal, column_free_equal)
        assert best >= score and best % 2 == 0


# --- Chinese Solitaire ----------------------------------------------------------------------


def test_chinese_hand_made_positions():
    chinese_ref._hand_made_checks()
    chinese_ref._small_solve_checks()


def test_chinese_random_playouts_keep_the_invariants_and_replay():
    chinese_ref._random_playouts(n_deals=20)


# --- Impossible -----------------------------------------------------------------------------


@pytest.mark.parametrize("flags", [{}, {"fifteen": "unlimited"}, {"jokers": 0}],
                         ids=lambda f: str(f or "default"))
def test_impossible_random_games_keep_the_invariants(flags):
    rng = random.Random(12345)
    for _ in range(100):
        impossible_ref.play_random(rng, _debug=True, **flags)
