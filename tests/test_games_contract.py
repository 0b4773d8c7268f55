"""The contract every game and every solver keeps, whatever it searches: the same columns of
the same types, the outcome vocabulary, lines of play that the game's plain-Python reference
(tests/reference/) replays to the reported score, the same row on every run, and the same row
whether a deal is solved by number, in a batch, or pasted as text.  The columns and the replayed
lines are checked under every value of every rule flag a game declares (``Flag.values``) too.
The games are every game installed: the built-in four and the plugins (the example
examples/golf among them, which conftest.py installs), whose references are their own
(``Game.reference``).

Small budgets and two deals each keep this fast; the games' own tests go deep."""

import dataclasses
import numbers
import re
from importlib import import_module

import numpy as np
import pandas as pd
import pytest

from tests.reference import addario_ref, chinese_ref, impossible_ref, nineball_ref, stream_ref
from winnable import GAME_NAMES, game_names, get_game, solve_batch

CASES = [(name, solver) for name in game_names() for solver in get_game(name).solvers]
# Each game and solver under each value of each flag the game declares, the default left out.
VARIANT_CASES = [(name, solver, f"{flag.name}={value}")
                 for name in game_names() for flag in get_game(name).flags.values()
                 for value in flag.values if flag.parse(value) != flag.default
                 for solver in get_game(name).solvers]
# Budgets that keep every solver to a fraction of a second a deal.
OPTIONS = {("chinese", "thoughtful"): {"budget": 2000, "walks": 5},
           ("chinese", "sampling"): {"samples": 2, "budget": 300},
           ("addario", "thoughtful"): {"budget": 100_000},
           ("impossible", "lookahead"): {"rollouts": 2},
           ("impossible", "halving"): {"budget": 8},
           ("impossible", "thoughtful"): {"budget": 2000},
           ("golf", "thoughtful"): {"budget": 20_000}}
SEEDS = (3, 4)
STANDARD = ("outcome", "score", "moves", "nodes", "seconds")
OUTCOMES = {"win", "loss", "unknown"}
IMPOSSIBLE_MOVE = re.compile(r"(!?)(?:up(\d+)|rm(\d+)|(\d+)\+(\d+)|new)")


def _id(case):
    return "-".join(case)


def _options(case):
    return OPTIONS.get(case, {})


def _same(a, b):
    """Two results alike in everything but their timing."""
    return a.to_dict() | {"seconds": 0} == b.to_dict() | {"seconds": 0}


def test_the_installed_plugin_games_are_held_to_the_contract_too():
    assert "golf" in game_names() and set(GAME_NAMES) < set(game_names())
    for name in set(game_names()) - set(GAME_NAMES):
        assert get_game(name).reference, f"{name} names no reference (Game.reference)"


def test_every_game_declares_values_for_each_flag():
    for name in game_names():
        for flag in get_game(name).flags.values():
            assert any(flag.parse(v) != flag.default for v in flag.values), (name, flag.name)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_columns_and_their_types(case, variant=None):
    name, solver = case
    game = get_game(name)
    columns = game.solve_seeds(SEEDS, variant, solver, _options(case))
    assert set(columns) == {*STANDARD, *game.extra_columns, "seed", "deal"}
    assert all(len(column) == len(SEEDS) for column in columns.values())
    assert list(columns["seed"]) == list(SEEDS)
    for k in range(len(SEEDS)):
        assert columns["outcome"][k] in OUTCOMES
        assert isinstance(columns["score"][k], numbers.Integral)
        assert isinstance(columns["nodes"][k], numbers.Integral) and columns["nodes"][k] >= 0
        assert isinstance(columns["seconds"][k], numbers.Real) and columns["seconds"][k] >= 0
        assert all(isinstance(move, str) for move in columns["moves"][k])
        assert isinstance(columns["deal"][k], str)
        for extra in game.extra_columns:  # a number or a flag; or a text (Impossible's proof)
            numeric = isinstance(columns[extra][k], (numbers.Real, np.bool_))
            assert numeric or isinstance(columns[extra][k], str), extra
            assert numeric or extra not in game.summary_means, extra  # a mean needs numbers
    if not game.batch_moves:
        assert all(len(moves) == 0 for moves in columns["moves"])


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_a_deal_by_number_in_a_batch_and_pasted_is_one_row(case, tmp_path):
    name, solver = case
    game = get_game(name)
    options = _options(case)
    rows = solve_batch(name, n=len(SEEDS), start=SEEDS[0], solver=solver, workers=1,
                       out=tmp_path / "run.parquet", options=options, progress=False)
    rows = pd.read_parquet(rows.attrs["path"]).set_index("seed")
    for seed in range(SEEDS[0], SEEDS[0] + len(SEEDS)):
        by_number = game.solve(seed, None, solver, **options)
        pasted = game.solve(by_number.deal, None, solver, **options)
        assert _same(dataclasses.replace(by_number, seed=None), pasted)
        again = game.solve(seed, None, solver, **options)
        assert _same(by_number, again)  # deterministic
        row = rows.loc[seed]
        assert (row.deal, row.outcome, row.score, row.nodes) == (
            by_number.deal, by_number.outcome, by_number.score, by_number.nodes)
        for extra in game.extra_columns:
            assert row[extra] == pytest.approx(by_number.extra[extra]), extra
        if game.batch_moves:  # stored as one string, the moves separated by spaces
            assert row.moves.split() == by_number.moves


class ImpossibleReplay(impossible_ref.Game):
    """The reference's Impossible, its choices read from a line of play and its random numbers
    from the deal's play stream (tests/reference/stream_ref.py), drawn as the engine draws
    them: then it plays the engine's very game, by its own rules.  The engine keeps the deck
    with its top card last and lays a pile taken back on top before shuffling; the random
    player draws its choice, the lookahead player one number per choice for its rollouts."""

    def __init__(self, game, result, rules):
        ids = [int(c) for c in game.parse_deal(result.deal, dict(rules))]
        super().__init__(stream_ref.play_stream(game.name, ids), rules["fifteen"],
                         rules["new_pile_penalty"], int(rules["jokers"]), int(rules["step_cap"]),
                         deal=result.deal.split())
        self.solver = result.solver
        self.moves = list(result.moves)

    def return_to_deck(self, pile):
        engine_deck = self.deck[::-1] + pile
        self.rng.shuffle(engine_deck)
        self.deck = engine_deck[::-1]

    def _next_move(self, emergency):
        assert self.moves, "the line ends before the game does"
        found = IMPOSSIBLE_MOVE.fullmatch(self.moves.pop(0))
        assert found and bool(found[1]) == emergency, found
        up, rm, first, second = (int(x) - 1 if x else None for x in found.groups()[1:])
        if up is not None:
            return "pickup", up
        if rm is not None:
            return "remove", rm
        return ("pair", first, second) if first is not None else ("new",)

    def choose_action(self, actions):
        action = self._next_move(emergency=False)
        assert action in actions, (action, actions)
        if self.solver == "random":
            assert actions[self.rng.below(len(actions))] == action
        elif self.solver in ("lookahead", "halving") and len(actions) > 1:
            self.rng.next()
        return action

    def choose_take_back(self, options):
        kind, position = self._next_move(emergency=True)
        action = (kind, self.piles[position])
        assert action in options, (action, options)
        if self.solver == "random":
            assert options[self.rng.below(len(options))] == action
        return action


def _replayed_score(name, result, rules):
    """The score the game's reference gives the result's line of play."""
    if name not in GAME_NAMES:  # a plugin: its own reference, "module:function"
        module, _, function = get_game(name).reference.partition(":")
        return getattr(import_module(module), function)(get_game(name), result, rules)
    deal = result.deal.split()
    if name == "nineball":
        return nineball_ref.replay(deal, result.moves,
                                   kitchen_per_group=rules["kitchen_per_group"],
                                   targets=rules["targets"], kitchen_bonus=rules["kitchen_bonus"])
    if name == "addario":
        return addario_ref.replay(deal, result.moves, bool(rules["column_free_equal"]))
    if name == "chinese":
        return chinese_ref.replay(deal, result.moves, easy=bool(rules["easy"]),
                                  blocks=rules["blocks"])
    replay = ImpossibleReplay(get_game(name), result, rules)
    outcome = replay.run()
    assert not replay.moves, "moves left after the game ended"
    # A search left unknown reports the best line it played to the end: a lost one.
    expected = "loss" if result.outcome == "unknown" and result.solver == "thoughtful" else \
        result.outcome
    assert (outcome, replay.pickups, replay.removals, replay.new_piles, replay.steps) == (
        expected, *(result.extra[c] for c in ("pickups", "removals", "new_piles", "steps")))
    return replay.score


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_lines_of_play_replay_with_the_reference(case, variant=None):
    name, solver = case
    game = get_game(name)
    rules = game.rules(variant)
    for seed in SEEDS:
        result = game.solve(seed, rules, solver, **_options(case))
        assert _replayed_score(name, result, rules) == result.score, (seed, result.moves)
        if result.outcome == "win" and name in WINNING_SCORE:
            assert result.score >= WINNING_SCORE[name]


# The least score of a won game (Impossible's score is the points left, won or not).
WINNING_SCORE = {"nineball": 19, "addario": 40, "chinese": 52}


@pytest.mark.parametrize("name, solver, variant", VARIANT_CASES,
                         ids=[_id(case) for case in VARIANT_CASES])
def test_every_rule_flag_keeps_the_contract(name, solver, variant):
    """Columns, types and lines of play replayed by the reference, under each flag's values."""
    test_columns_and_their_types((name, solver), [variant])
    test_lines_of_play_replay_with_the_reference((name, solver), [variant])
