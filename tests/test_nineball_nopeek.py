"""The exact no-peek Nineball players against the thoughtful optimum and the plain-Python
expectimax in tests/reference."""

import itertools
import random

import numpy as np
import pytest

from tests.reference import nineball_ref as ref
from tests.reference import nineball_nopeek_ref as nref
from winnable import get_game
from winnable.rules import nineball as R

GAME = get_game("nineball")
SETTINGS = [{}, {"kitchen_per_group": 1}, {"targets": (9,)}, {"kitchen_bonus": "always"}]
OBJECTIVE = {"nopeek-score": "score", "nopeek-win": "win"}


def ref_kwargs(flags):
    return {"kitchen_per_group": flags.get("kitchen_per_group", 3),
            "targets": tuple(flags.get("targets", (9, 19))),
            "kitchen_bonus": flags.get("kitchen_bonus", "on_clear")}


def deals(count, seed):
    rng = random.Random(seed)
    return [ref.random_deal(rng) for _ in range(count)]


def solve(codes, flags, solver):
    return GAME.solve(GAME.parse_deal(" ".join(codes)), flags, solver)


@pytest.mark.parametrize("flags", SETTINGS, ids=lambda f: GAME.rules(f).label)
def test_values_agree_with_reference_expectimax(flags):
    kw = ref_kwargs(flags)
    for codes in deals(25, seed=7 + len(GAME.rules(flags).label)):
        for solver, objective in OBJECTIVE.items():
            result = solve(codes, flags, solver)
            expected, win = nref.nopeek_values(codes, objective, **kw)
            assert result.extra["expected_score"] == pytest.approx(expected, abs=1e-9), codes
            assert result.extra["win_probability"] == pytest.approx(win, abs=1e-9), codes


def arrangements(codes):
    """Every deal a person could be looking at: the six face-down kitchen cards in every order."""
    hidden = [9, 10, 12, 13, 15, 16]  # the two lower cards of each kitchen pile
    cards = GAME.parse_deal(" ".join(codes))
    out = np.repeat(cards[None, :], 720, axis=0)
    for row, order in enumerate(itertools.permutations(cards[hidden])):
        out[row, hidden] = order
    return out


@pytest.mark.parametrize("flags", SETTINGS, ids=lambda f: GAME.rules(f).label)
def test_never_above_thoughtful_and_play_replays(flags):
    """The no-peek values are about what the player sees, so the thoughtful bound they must
    respect is the thoughtful optimum averaged over every arrangement of the face-down cards;
    the game actually played must respect the thoughtful optimum of the actual deal."""
    kw = ref_kwargs(flags)
    rules = GAME.rules(flags)
    seeds = np.arange(1, 61)
    rows = GAME.solve_seeds(seeds, flags, "nopeek-score")
    win_rows = GAME.solve_seeds(seeds, flags, "nopeek-win")
    for i, deal in enumerate(rows["deal"]):
        bound = GAME.solve_deals(arrangements(deal.split()), rules, "thoughtful", {})
        scores = np.asarray(bound["score"], dtype=np.float64)
        won = scores >= R.CLEARED_MIN_SCORE
        for columns in (rows, win_rows):
            assert columns["expected_score"][i] <= scores.mean() + 1e-9, deal
            assert columns["win_probability"][i] <= won.mean() + 1e-9, deal
            if not won.any():
                assert columns["win_probability"][i] == 0.0
            assert columns["score"][i] <= columns["thoughtful_score"][i]
            assert (columns["outcome"][i] == "win") <= columns["thoughtful_win"][i]
    # Each objective is best at what it maximises.
    assert np.all(win_rows["win_probability"] >= rows["win_probability"] - 1e-9)
    assert np.all(rows["expected_score"] >= win_rows["expected_score"] - 1e-9)
    # The games played are legal and score what they claim.
    finished = kw["kitchen_bonus"] == "on_clear"
    for columns in (rows, win_rows):
        for deal, moves, score in zip(columns["deal"], columns["moves"], columns["score"]):
            assert ref.replay(deal.split(), moves, require_finished=finished, **kw) == score
    # Not degenerate: some deals are uncertain for the no-peek player.
    assert 0 < np.sum((rows["win_probability"] > 0) & (rows["win_probability"] < 1))


def seen(position):
    """What a person sees of a Nineball position: the rack, and each kitchen pile's size and
    top card (the cards under the tops are face down)."""
    return position.rack, tuple((len(pile), pile[-1] if pile else None)
                                for pile in position.kitchen)


def test_player_never_reads_face_down_cards():
    """Two deals alike in all a person sees, different underneath: same values, and the same
    moves until a face-down card turns up that differs (replayed by the reference)."""
    rng = random.Random(11)
    checked = later = 0  # deals changed underneath; moves compared after a game's first
    for codes in deals(60, seed=3):
        hidden = [9, 10, 12, 13, 15, 16]  # the two lower cards of each kitchen pile
        other = list(codes)
        shuffled = [codes[i] for i in hidden]
        rng.shuffle(shuffled)
        for i, c in zip(hidden, shuffled):
            other[i] = c
        for solver in OBJECTIVE:
            a, b = solve(codes, {}, solver), solve(other, {}, solver)
            assert a.extra["expected_score"] == b.extra["expected_score"]
            assert a.extra["win_probability"] == b.extra["win_probability"]
            here, there = ref.initial_position(codes), ref.initial_position(other)
            for k in range(max(len(a.moves), len(b.moves))):
                if seen(here) != seen(there):
                    break  # a card turned up that differs: the games may part from here
                assert k < len(a.moves) and k < len(b.moves), (codes, solver, k)
                assert a.moves[k] == b.moves[k], (codes, solver, k)
                here = ref.apply_group(here, ref.parse_move(a.moves[k]))
                there = ref.apply_group(there, ref.parse_move(b.moves[k]))
                later += k > 0
        checked += codes != other
    assert checked > 50 and later > 100, (checked, later)


def test_sure_clear_is_certain():
    """A rack that rack cards alone can clear is won with probability 1 and the best score."""
    # Rack in deck order; 9H alone, then 4H+5H, AH+8H, 2H+7H, 3H+6H, each pair freed in turn.
    codes = ["6H", "3H", "7H", "AH", "8H", "2H", "4H", "5H", "9H",
             "9D", "4D", "5D", "AD", "8D", "2D", "7D", "3D", "6D"]
    result = solve(codes, {}, "nopeek-score")
    assert result.outcome == "win"
    assert result.extra["win_probability"] == 1.0
    assert result.extra["expected_score"] == result.extra["thoughtful_score"] == result.score
